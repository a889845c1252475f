"""The SQLite store: migrations from every older version, revision-guarded writes, records."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.store import SqliteStore, StaleRevision
from bot.store.migrations import MIGRATIONS, SCHEMA_VERSION
from bot.store.sqlite import migrate


@pytest.fixture
async def store(tmp_path: Path):
    s = SqliteStore(tmp_path / "store.sqlite")
    await s.open()
    yield s
    await s.close()


async def _new_game(store: SqliteStore, channel: int = 10):
    return await store.create_game(
        kind="essence",
        engine_version=1,
        config={"quick": False},
        seed=7,
        guild_id=1,
        channel_id=channel,
        players=[100, 200],
        status="active",
        snapshot={"turn": 1},
    )


@pytest.mark.parametrize("start_version", range(SCHEMA_VERSION))
async def test_migrates_from_every_older_version(tmp_path: Path, start_version: int) -> None:
    path = tmp_path / "old.sqlite"
    async with aiosqlite.connect(path, isolation_level=None) as db:
        await migrate(db, start_version)
        async with db.execute("PRAGMA user_version") as cursor:
            assert (await cursor.fetchone())[0] == start_version
    store = SqliteStore(path)
    await store.open()
    try:
        async with store.db.execute("PRAGMA user_version") as cursor:
            assert (await cursor.fetchone())[0] == len(MIGRATIONS)
        game = await _new_game(store)
        assert (await store.get_game(game.id)) == game
    finally:
        await store.close()


async def test_opening_twice_keeps_data_and_settings(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    first = SqliteStore(path)
    await first.open()
    game = await _new_game(first)
    await first.close()
    second = SqliteStore(path)
    await second.open()
    try:
        assert await second.get_game(game.id) == game
        async with second.db.execute("PRAGMA journal_mode") as cursor:
            assert (await cursor.fetchone())[0] == "wal"
        async with second.db.execute("PRAGMA foreign_keys") as cursor:
            assert (await cursor.fetchone())[0] == 1
    finally:
        await second.close()


async def test_update_appends_actions_and_bumps_revision(store: SqliteStore) -> None:
    game = await _new_game(store)
    updated = await store.update_game(
        game.id, expected_revision=0, snapshot={"turn": 2}, actions=[(0, "move a1 b2")]
    )
    assert updated.revision == 1
    assert updated.snapshot == {"turn": 2}
    updated = await store.update_game(
        game.id,
        expected_revision=1,
        snapshot={"turn": 3},
        actions=[(1, "x"), (0, "y")],
        status="finished",
    )
    assert updated.status == "finished"
    assert await store.game_actions(game.id) == [(0, "move a1 b2"), (1, "x"), (0, "y")]


async def test_an_update_may_replace_the_seats_and_the_config(store: SqliteStore) -> None:
    game = await _new_game(store)
    same = await store.update_game(game.id, expected_revision=0, snapshot={})
    assert (same.players, same.config) == (game.players, game.config)
    changed = await store.update_game(
        game.id, expected_revision=1, snapshot={}, players=[7, 8, 9], config={"teams": [0, 1, 0]}
    )
    assert changed.players == [7, 8, 9] and changed.config == {"teams": [0, 1, 0]}
    assert await store.get_game(game.id) == changed


async def test_two_clicks_on_one_old_button_apply_once(store: SqliteStore) -> None:
    game = await _new_game(store)

    async def click(label: str) -> str:
        try:
            await store.update_game(
                game.id, expected_revision=0, snapshot={"by": label}, actions=[(0, label)]
            )
        except StaleRevision:
            return "stale"
        return "applied"

    results = await asyncio.gather(click("first"), click("second"))
    assert sorted(results) == ["applied", "stale"]
    stored = await store.get_game(game.id)
    assert stored is not None and stored.revision == 1
    assert len(await store.game_actions(game.id)) == 1


async def test_a_failed_write_leaves_nothing_half_written(store: SqliteStore) -> None:
    game = await _new_game(store)
    with pytest.raises(StaleRevision):
        await store.update_game(game.id, expected_revision=5, snapshot={}, actions=[(0, "a")])
    assert await store.get_game(game.id) == game
    assert await store.game_actions(game.id) == []


async def test_display_data_changes_without_making_buttons_stale(store: SqliteStore) -> None:
    game = await _new_game(store)
    assert game.display == {}
    await store.set_game_display(game.id, {"names": ["Alice", "Bob"], "board": 77})
    stored = await store.get_game(game.id)
    assert stored is not None
    assert stored.display == {"names": ["Alice", "Bob"], "board": 77}
    assert stored.revision == game.revision


async def test_games_by_channel_and_idle(store: SqliteStore) -> None:
    a = await _new_game(store, channel=1)
    b = await _new_game(store, channel=1)
    await _new_game(store, channel=2)
    await store.update_game(b.id, expected_revision=0, snapshot={}, status="finished")
    assert [g.id for g in await store.games_in_channel(1)] == [a.id, b.id]
    assert [g.id for g in await store.games_in_channel(1, statuses=("active",))] == [a.id]
    assert [g.id for g in await store.games_in_channel(1, kind="other")] == []
    idle = await store.games_idle_since(a.updated_at + 1)
    assert a.id in [g.id for g in idle] and b.id not in [g.id for g in idle]


async def test_preferences_and_meta(store: SqliteStore) -> None:
    assert await store.get_pref(1, "language") is None
    await store.set_pref(1, "language", "en")
    assert await store.get_pref(1, "language") == "en"
    await store.set_pref(1, "language", None)
    assert await store.get_pref(1, "language") is None
    await store.set_meta("k", "v")
    assert await store.get_meta("k") == "v"


async def test_saved_rolls_user_scope_wins(store: SqliteStore) -> None:
    await store.save_roll("campaign:1", "feuerball", "8d6", 5)
    await store.save_roll("campaign:1", "heilung", "2d4+2", 5)
    await store.save_roll("user:9", "feuerball", "10d6", 9)
    rolls = await store.saved_rolls(["user:9", "campaign:1"])
    assert rolls == {"feuerball": "10d6", "heilung": "2d4+2"}
    assert await store.delete_roll("user:9", "feuerball")
    assert not await store.delete_roll("user:9", "feuerball")


async def test_campaign_characters_log_and_combat(store: SqliteStore) -> None:
    campaign = await store.create_campaign(
        guild_id=1, channel_id=5, name="Nebelreich", gm_id=42, settings={"schwere_treffer": True}
    )
    assert (await store.active_campaign(5)) == campaign
    assert campaign.is_gm(42) and not campaign.is_gm(7)
    campaign = await store.update_campaign(campaign.id, co_gm_ids=[7])
    assert campaign.is_gm(7)
    hero = await store.create_character(
        campaign_id=campaign.id, owner_id=7, name="Thoin", sheet={"lp": 20}
    )
    await store.set_active_character(campaign.id, 7, hero.id)
    assert (await store.active_character(campaign.id, 7)) == hero
    hero2 = await store.update_character(
        hero.id, expected_revision=0, name="Thoin", sheet={"lp": 15}
    )
    with pytest.raises(StaleRevision):
        await store.update_character(hero.id, expected_revision=0, name="X", sheet={})
    assert (await store.characters(campaign.id)) == [hero2]
    await store.add_log(campaign.id, 7, "probe", {"erfolge": 3})
    await store.add_log(campaign.id, 42, "schaden", {"sp": 4})
    log = await store.campaign_log(campaign.id)
    assert [e["kind"] for e in log] == ["probe", "schaden"]
    assert log[0]["data"] == {"erfolge": 3}
    # A game step writes its campaign-log rows in its own transaction: a stale one writes none.
    game = await _new_game(store, channel=5)
    with pytest.raises(StaleRevision):
        await store.update_game(
            game.id, expected_revision=3, snapshot={}, log=[(campaign.id, 42, "combat", {"x": 1})]
        )
    assert [e["kind"] for e in await store.campaign_log(campaign.id)] == ["probe", "schaden"]
    ended = await store.update_game(
        game.id,
        expected_revision=0,
        snapshot={"turn": 2},
        status="finished",
        display={"characters": {"thoin": hero.id}},
        log=[(campaign.id, 42, "combat", {"action": "ende"})],
    )
    assert (await store.campaign_log(campaign.id))[-1]["data"] == {"action": "ende"}
    assert ended.status == "finished" and ended.display == {"characters": {"thoin": hero.id}}
    undone = await store.drop_last_game_action(
        game.id, expected_revision=1, snapshot={}, log=[(campaign.id, 42, "combat", {"u": 1})]
    )
    assert undone.display == ended.display
    assert (await store.campaign_log(campaign.id))[-1]["data"] == {"u": 1}
    archived = await store.update_campaign(campaign.id, status="archived")
    assert archived.status == "archived" and await store.active_campaign(5) is None
    await store.delete_character(hero.id)
    assert await store.active_character(campaign.id, 7) is None


async def test_saved_roll_limit_holds_under_concurrent_saves(store: SqliteStore) -> None:
    for i in range(3):
        assert await store.save_roll("user:9", f"wurf{i}", "1d6", 9, limit=4)
    results = await asyncio.gather(
        *(store.save_roll("user:9", f"neu{i}", "2d6", 9, limit=4) for i in range(6))
    )
    assert sorted(results) == [False] * 5 + [True]
    assert len(await store.saved_rolls(["user:9"])) == 4
    # replacing a roll that exists is no new roll: allowed at the limit
    assert await store.save_roll("user:9", "wurf0", "3d6", 9, limit=4)
    assert (await store.saved_rolls(["user:9"]))["wurf0"] == "3d6"


async def test_import_campaign_is_all_or_nothing(store: SqliteStore) -> None:
    sheet = {"name": "Thoin"}
    campaign = await store.import_campaign(
        guild_id=1,
        channel_id=5,
        name="Die Mine",
        gm_id=42,
        settings={},
        characters=[(7, "Thoin", sheet), (None, "Ork", sheet)],
        log=[(7, "sheet", {"event": "created"}), (None, "campaign", {"event": "import"})],
    )
    assert [c.name for c in await store.characters(campaign.id)] == ["Ork", "Thoin"]
    assert [e["kind"] for e in await store.campaign_log(campaign.id)] == ["sheet", "campaign"]
    with pytest.raises(OverflowError):  # the second character's owner fits no INTEGER
        await store.import_campaign(
            guild_id=1,
            channel_id=6,
            name="Kaputt",
            gm_id=42,
            settings={},
            characters=[(7, "Thoin", sheet), (2**63, "Balin", sheet)],
        )
    assert await store.active_campaign(6) is None
    assert [c.name for c in await store.campaigns(1)] == ["Die Mine"]


async def test_create_character_activates_and_logs_in_one_transaction(store: SqliteStore) -> None:
    campaign = await store.create_campaign(
        guild_id=1, channel_id=5, name="Nebelreich", gm_id=42, settings={}
    )
    entry = (7, "sheet", {"event": "created", "name": "Thoin"})
    first = await store.create_character(
        campaign_id=campaign.id, owner_id=7, name="Thoin", sheet={}, activate=True, log=[entry]
    )
    second = await store.create_character(
        campaign_id=campaign.id, owner_id=7, name="Balin", sheet={}, activate=True, log=[entry]
    )
    assert (await store.active_character(campaign.id, 7)) == first != second
    assert len(await store.campaign_log(campaign.id)) == 2
    with pytest.raises(OverflowError):  # the log's actor fits no INTEGER: nothing is kept
        await store.create_character(
            campaign_id=campaign.id, owner_id=8, name="Ori", sheet={}, activate=True,
            log=[(2**63, "sheet", {})],
        )  # fmt: skip
    assert [c.name for c in await store.characters(campaign.id)] == ["Balin", "Thoin"]
    assert await store.active_character(campaign.id, 8) is None


async def _v2_database_with_combats(path: Path) -> dict[str, Any]:
    """A database of schema 2 (combats in their own table) with a running combat (schema 2
    state, cog packing) in channel 5, a running one of schema 1 in channel 6 and an ended one
    in channel 7; returns the running combat's state."""
    from engines.w6 import apply, join_action, make, new_combat
    from engines.w6.state import state_to_json
    from tests.unit.test_w6_combat import fighter
    from tests.unit.test_w6_engine import _as_v1

    state = new_combat(42, seed=5)
    state, _ = apply(state, join_action(fighter("held", 7, ab=8)), 7)
    state, _ = apply(state, join_action(fighter("ork", ab=4, lp=17, lp_max=23)), 42)
    state, _ = apply(state, make("beginnen"), 42)
    state, _ = apply(state, make("angriff", "held", ("ork",), kw=3), 7)
    packed = {"engine": state_to_json(state), "charaktere": {"held": 3}}
    old = {"engine": _as_v1(state, [], {0: 42, 1: 7}), "charaktere": {}}
    async with aiosqlite.connect(path, isolation_level=None) as db:
        await migrate(db, 2)
        await db.execute(
            "INSERT INTO campaigns (guild_id, channel_id, name, gm_id, created_at)"
            " VALUES (1, 5, 'Nebelreich', 42, 0)"
        )
        for channel, data, status in ((5, packed, "active"), (6, old, "active"),
                                      (7, packed, "ended")):  # fmt: skip
            await db.execute(
                "INSERT INTO combats (channel_id, campaign_id, state, revision, status,"
                " message_id, updated_at) VALUES (?, 1, ?, 9, ?, 77, 1000)",
                (channel, json.dumps(data), status),
            )
    return {"state": state}


async def test_stored_combats_become_games_that_replay_and_undo(tmp_path: Path) -> None:
    """Migration 3 moves every combat to the games table with its action rows: a running one
    goes on where it was (same state, campaign and characters), undoes by replaying its log,
    and the combats table is gone."""
    from bot.games import GameService, load

    path = tmp_path / "v2.sqlite"
    old = await _v2_database_with_combats(path)
    store = SqliteStore(path)
    await store.open()
    try:
        service = GameService(store)
        (running,) = await service.running_in_channel(5, "w6combat")
        assert load(running).state == old["state"]
        assert running.players == [42, 7] and running.guild_id == 1
        assert running.display == {"campaign": 1, "characters": {"held": 3}}
        actions = await store.game_actions(running.id)
        assert actions == [(e.actor, e.action) for e in old["state"].log]
        back = await service.undo_last(running)
        assert load(back).state.pending is None and load(back).state.phase == 1
        (carried,) = await service.running_in_channel(6, "w6combat")
        assert load(carried).state.fighters == old["state"].fighters
        assert load(carried).state.pending is not None
        assert await service.running_in_channel(7, "w6combat") == []
        (ended,) = await store.games_in_channel(7, kind="w6combat")
        assert ended.status == "finished"
        async with store.db.execute(
            "SELECT name FROM sqlite_master WHERE name = 'combats'"
        ) as cursor:
            assert await cursor.fetchone() is None
    finally:
        await store.close()
