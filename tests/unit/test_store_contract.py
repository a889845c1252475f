"""The store contract: the same tests against every backend (SQLite, and PostgreSQL when a
server can be reached; see ``tests/pg.py``). Backend details (pragmas, migrations) live in
``test_store.py`` and ``test_store_backends.py``."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.store import (
    AlreadyExists,
    CharacterRecord,
    SqliteStore,
    StaleRevision,
    Store,
    TooManyCharacters,
)
from bot.store.postgres import PostgresStore
from tests.pg import PG_URL, fresh_schema

BACKENDS = ["sqlite", "postgres"]
# an id that fits no 64-bit integer column, as each driver refuses it
TOO_BIG = (OverflowError, asyncpg.exceptions.DataError)

# Opens one more store on the same database as ``store`` (as a second process would).
Opener = Callable[[], Awaitable[Store]]


@pytest.fixture(params=BACKENDS)
async def opener(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Opener]:
    opened: list[Store] = []
    schema_or_none = fresh_schema("contract") if request.param == "postgres" else nullcontext()
    async with schema_or_none as schema:

        async def open_one() -> Store:
            store: Store
            if schema is None:
                store = SqliteStore(tmp_path / "store.sqlite")
            else:
                store = PostgresStore(PG_URL, schema=schema)
            await store.open()
            opened.append(store)
            return store

        try:
            yield open_one
        finally:
            for store in opened:
                await store.close()


@pytest.fixture
async def store(opener: Opener) -> Store:
    return await opener()


async def _new_game(store: Store, channel: int = 10, guild: int | None = 1):
    return await store.create_game(
        kind="essence",
        engine_version=1,
        config={"quick": False},
        seed=7,
        guild_id=guild,
        channel_id=channel,
        players=[100, 200],
        status="active",
        snapshot={"turn": 1},
    )


async def test_update_appends_actions_and_bumps_revision(store: Store) -> None:
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


async def test_two_clicks_on_one_old_button_apply_once(store: Store) -> None:
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


async def test_a_failed_write_leaves_nothing_half_written(store: Store) -> None:
    game = await _new_game(store)
    with pytest.raises(StaleRevision):
        await store.update_game(game.id, expected_revision=5, snapshot={}, actions=[(0, "a")])
    assert await store.get_game(game.id) == game
    assert await store.game_actions(game.id) == []


async def test_display_data_changes_without_making_buttons_stale(store: Store) -> None:
    game = await _new_game(store)
    assert game.display == {}
    await store.set_game_display(game.id, {"names": ["Alice", "Bob"], "board": 77})
    stored = await store.get_game(game.id)
    assert stored is not None
    assert stored.display == {"names": ["Alice", "Bob"], "board": 77}
    assert stored.revision == game.revision


async def test_games_by_channel_and_idle(store: Store) -> None:
    a = await _new_game(store, channel=1)
    b = await _new_game(store, channel=1)
    await _new_game(store, channel=2)
    await store.update_game(b.id, expected_revision=0, snapshot={}, status="finished")
    assert [g.id for g in await store.games_in_channel(1)] == [a.id, b.id]
    assert [g.id for g in await store.games_in_channel(1, statuses=("active",))] == [a.id]
    assert [g.id for g in await store.games_in_channel(1, kind="other")] == []
    idle = await store.games_idle_since(a.updated_at + 1)
    assert a.id in [g.id for g in idle] and b.id not in [g.id for g in idle]


async def test_preferences_and_meta(store: Store) -> None:
    assert await store.get_pref(1, "language") is None
    await store.set_pref(1, "language", "en")
    assert await store.get_pref(1, "language") == "en"
    await store.set_pref(1, "language", None)
    assert await store.get_pref(1, "language") is None
    await store.set_meta("k", "v")
    assert await store.get_meta("k") == "v"


async def test_many_reads_at_once_each_get_their_own_row(store: Store) -> None:
    """What every command reads first (a language, a channel's campaign), asked by many at
    once (PostgreSQL reads them together in one statement): each gets its own answer."""
    for user in range(0, 40, 2):
        await store.set_pref(user, "language", f"l{user}")
    await store.set_pref(3, "other", "x")
    campaigns = {
        channel: await store.create_campaign(
            guild_id=1, channel_id=channel, name=f"c{channel}", gm_id=42, settings={}
        )
        for channel in (101, 103)
    }
    languages = await asyncio.gather(*(store.get_pref(u, "language") for u in [*range(40), 0]))
    assert languages == [f"l{u}" if u % 2 == 0 else None for u in [*range(40), 0]]
    assert await asyncio.gather(store.get_pref(3, "other"), store.get_pref(3, "language")) == [
        "x",
        None,
    ]
    found = await asyncio.gather(*(store.active_campaign(c) for c in range(100, 105)))
    assert found == [None, campaigns[101], None, campaigns[103], None]


async def test_saved_rolls_user_scope_wins(store: Store) -> None:
    await store.save_roll("campaign:1", "feuerball", "8d6", 5)
    await store.save_roll("campaign:1", "heilung", "2d4+2", 5)
    await store.save_roll("user:9", "feuerball", "10d6", 9)
    rolls = await store.saved_rolls(["user:9", "campaign:1"])
    assert rolls == {"feuerball": "10d6", "heilung": "2d4+2"}
    assert await store.delete_roll("user:9", "feuerball")
    assert not await store.delete_roll("user:9", "feuerball")


async def test_campaign_characters_log_and_combat(store: Store) -> None:
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


async def test_two_stores_on_one_database_apply_an_old_click_once(opener: Opener) -> None:
    """Two processes (two stores, two connections) click the same old button many times."""
    first, second = await opener(), await opener()
    game = await _new_game(first)

    async def click(store: Store, label: str) -> bool:
        try:
            await store.update_game(
                game.id, expected_revision=0, snapshot={"by": label}, actions=[(0, label)]
            )
        except StaleRevision:
            return False
        return True

    # SQLite serialises writers with a 5 s busy timeout: two clicks there (a queue of sixteen
    # on a loaded machine can starve one connection past it); sixteen on PostgreSQL
    count = 16 if isinstance(first, PostgresStore) else 2
    clicks = [click(first if i % 2 else second, f"c{i}") for i in range(count)]
    assert sum(await asyncio.gather(*clicks)) == 1
    stored = await second.get_game(game.id)
    assert stored is not None and stored.revision == 1
    assert len(await first.game_actions(game.id)) == 1
    assert stored.snapshot["by"] == (await first.game_actions(game.id))[0][1]


async def test_records_round_trip_exactly(store: Store) -> None:
    """Discord ids (64 bit), nested JSON, unicode and no guild (a DM) come back as written."""
    big = 1_234_567_890_123_456_789
    snapshot = {"ä": ["ß", 1.5, None, True, {"tief": [1, 2]}], "n": 2**53}
    game = await store.create_game(
        kind="essence",
        engine_version=3,
        config={"ai_levels": {"1": "hard"}},
        seed=2**31 - 1,
        guild_id=None,
        channel_id=big,
        players=[big, big + 1],
        status="invited",
        snapshot=snapshot,
    )
    assert game.snapshot == snapshot and game.guild_id is None and game.players == [big, big + 1]
    assert await store.get_game(game.id) == game
    updated = await store.update_game(
        game.id, expected_revision=0, snapshot=snapshot, message_id=big + 2, status="active"
    )
    assert updated.message_id == big + 2 and updated.status == "active"
    assert await store.get_game(game.id) == updated
    assert [g.id for g in await store.games_in_channel(big, kind="essence")] == [game.id]
    campaign = await store.create_campaign(
        guild_id=None, channel_id=big, name="Ödland", gm_id=big, settings={}
    )
    assert await store.campaigns(None) == [campaign]
    assert await store.campaigns(1) == []


async def test_a_seed_of_128_bits_and_more_comes_back_exactly(store: Store) -> None:
    """Game seeds are 128 secret bits (issue 18): neither a 64-bit column nor a rounding
    may change one."""
    for seed in (2**128 - 1, 2**127 + 12345, 2**200 + 7, 5, -3):
        game = await store.create_game(
            kind="essence", engine_version=1, config={}, seed=seed, guild_id=1,
            channel_id=77, players=[1, 2], status="active", snapshot={},
        )  # fmt: skip
        assert game.seed == seed
        assert (await store.get_game(game.id)).seed == seed


async def test_a_nul_character_typed_by_a_user_does_not_break_a_write(store: Store) -> None:
    """SQLite keeps U+0000, PostgreSQL text cannot: it is dropped there, never an error."""
    await store.save_roll("user:1", "feu\x00er", "3d6 \x00", 1)
    rolls = await store.saved_rolls(["user:1"])
    assert rolls in ({"feu\x00er": "3d6 \x00"}, {"feuer": "3d6 "})
    await store.set_pref(1, "note", "a\x00b")
    assert await store.get_pref(1, "note") in ("a\x00b", "ab")


async def test_log_rows_of_a_campaign_that_is_gone_and_a_limited_log(store: Store) -> None:
    game = await _new_game(store, channel=9)
    updated = await store.update_game(
        game.id, expected_revision=0, snapshot={}, log=[(999, 1, "combat", {"x": 1})]
    )
    assert updated.revision == 1

    async def start(i: int) -> Any:
        return await store.create_game(
            kind="w6combat", engine_version=2, config={}, seed=i, guild_id=1, channel_id=4,
            players=[1], status="active", snapshot={"n": i}, one_per_channel=True,
        )  # fmt: skip

    results = await asyncio.gather(*(start(i) for i in range(3)), return_exceptions=True)
    assert sum(isinstance(r, AlreadyExists) for r in results) == 2
    campaign = await store.create_campaign(guild_id=1, channel_id=8, name="K", gm_id=1, settings={})
    for i in range(5):
        await store.add_log(campaign.id, None, "n", {"i": i})
    assert [e["data"]["i"] for e in await store.campaign_log(campaign.id, limit=2)] == [3, 4]
    assert len(await store.campaign_log(campaign.id, limit=0)) == 5


async def test_an_update_may_replace_the_seats_and_the_config(store: Store) -> None:
    game = await _new_game(store)
    same = await store.update_game(game.id, expected_revision=0, snapshot={})
    assert (same.players, same.config) == (game.players, game.config)
    changed = await store.update_game(
        game.id, expected_revision=1, snapshot={}, players=[7, 8, 9], config={"teams": [0, 1, 0]}
    )
    assert changed.players == [7, 8, 9] and changed.config == {"teams": [0, 1, 0]}
    assert await store.get_game(game.id) == changed


async def test_saved_roll_limit_holds_under_concurrent_saves(store: Store) -> None:
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


async def test_import_campaign_is_all_or_nothing(store: Store) -> None:
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
    with pytest.raises(TOO_BIG):  # the second character's owner fits no INTEGER
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


async def test_create_character_activates_and_logs_in_one_transaction(store: Store) -> None:
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
    with pytest.raises(TOO_BIG):  # the log's actor fits no INTEGER: nothing is kept
        await store.create_character(
            campaign_id=campaign.id, owner_id=8, name="Ori", sheet={}, activate=True,
            log=[(2**63, "sheet", {})],
        )  # fmt: skip
    assert [c.name for c in await store.characters(campaign.id)] == ["Balin", "Thoin"]
    assert await store.active_character(campaign.id, 8) is None


async def test_character_limits_hold_under_concurrent_creates(store: Store, opener: Opener) -> None:
    """Counted in the write's own transaction: creates arriving together (here from two
    processes) never pass the owner's or the campaign's limit, and a refused one writes
    nothing (no character, no log entry, no active mark)."""
    campaign = await store.create_campaign(
        guild_id=1, channel_id=5, name="Nebelreich", gm_id=42, settings={}
    )
    limits = {"max_in_campaign": 5, "max_per_owner": 3}
    for i in range(2):
        await store.create_character(
            campaign_id=campaign.id, owner_id=7, name=f"alt{i}", sheet={}, **limits
        )
    other = await opener()  # a second process on the same database

    async def create(index: int, owner: int | None) -> CharacterRecord | BaseException:
        target = (store, other)[index % 2]
        try:
            return await target.create_character(
                campaign_id=campaign.id, owner_id=owner, name=f"neu{owner}-{index}", sheet={},
                activate=True, log=[(owner, "sheet", {"event": "created"})], **limits,
            )  # fmt: skip
        except TooManyCharacters as refused:
            return refused

    players = await asyncio.gather(*(create(i, 7) for i in range(6)))
    assert sum(isinstance(r, CharacterRecord) for r in players) == 1
    assert [r.which for r in players if isinstance(r, TooManyCharacters)] == ["owner"] * 5
    npcs = await asyncio.gather(*(create(i, None) for i in range(6)))  # no owner limit
    assert sum(isinstance(r, CharacterRecord) for r in npcs) == 2
    assert [r.which for r in npcs if isinstance(r, TooManyCharacters)] == ["campaign"] * 4
    characters = await store.characters(campaign.id)
    assert len(characters) == 5 and sum(c.owner_id == 7 for c in characters) == 3
    assert len(await store.campaign_log(campaign.id)) == 3  # the three created with a log
    with pytest.raises(TooManyCharacters) as full:  # a new player at the campaign's limit
        await store.create_character(
            campaign_id=campaign.id, owner_id=8, name="Ori", sheet={}, activate=True, **limits
        )
    assert full.value.which == "campaign"
    assert await store.active_character(campaign.id, 8) is None
    # without limits (an import, the copy between backends) nothing is counted
    await store.create_character(campaign_id=campaign.id, owner_id=7, name="frei", sheet={})
    assert len(await store.characters(campaign.id)) == 6


async def test_decks_create_rename_copy_delete(store: Store) -> None:
    starter = [("Kämpfer", 1), ("Stufenkarte Kämpfer", 10), ("Langschwert", 3)]
    deck = await store.create_deck(7, "Klinge", starter)
    assert (deck.owner_id, deck.name, deck.cards, deck.size) == (7, "Klinge", tuple(starter), 14)
    with pytest.raises(AlreadyExists):
        await store.create_deck(7, "Klinge")
    other = await store.create_deck(8, "Klinge")  # names are per owner
    assert other.cards == () and other.id != deck.id
    assert await store.rename_deck(7, "Klinge", "Stahl") == replace(deck, name="Stahl")
    assert await store.rename_deck(7, "Klinge", "X") is None
    copy = await store.copy_deck(7, "Stahl", "Ästhetik")
    assert copy is not None and copy.cards == deck.cards and copy.id != deck.id
    with pytest.raises(AlreadyExists):
        await store.rename_deck(7, "Ästhetik", "Stahl")
    with pytest.raises(AlreadyExists):
        await store.copy_deck(7, "Ästhetik", "Stahl")
    assert await store.copy_deck(7, "fehlt", "neu") is None
    assert [d.name for d in await store.decks(7)] == ["Stahl", "Ästhetik"]
    assert await store.delete_deck(7, "Stahl") is True
    assert await store.delete_deck(7, "Stahl") is False
    assert await store.get_deck(7, "Stahl") is None
    assert await store.get_deck(7, "Ästhetik") == copy
    assert [d.name for d in await store.decks(8)] == ["Klinge"]


async def test_deck_cards_are_added_removed_and_replaced(store: Store) -> None:
    await store.create_deck(7, "Feuer", [("Zauberer", 1)])
    assert await store.change_deck_card(7, "Feuer", "Feuerpfeil", 3) is not None
    after = await store.change_deck_card(7, "Feuer", "Feuerpfeil", 1)
    assert after is not None and after.cards == (("Zauberer", 1), ("Feuerpfeil", 4))
    after = await store.change_deck_card(7, "Feuer", "Zauberer", -5)  # never below 0
    assert after is not None and after.cards == (("Feuerpfeil", 4),)
    assert await store.get_deck(7, "Feuer") == after
    assert await store.change_deck_card(7, "fehlt", "Dolch", 1) is None
    replaced = await store.set_deck_cards(7, "Feuer", [("Dolch", 2), ("Wolf", 0)])
    assert replaced is not None and replaced.cards == (("Dolch", 2),)
    assert await store.get_deck(7, "Feuer") == replaced


async def test_deck_card_changes_from_two_stores_all_count(opener: Opener) -> None:
    first, second = await opener(), await opener()
    await first.create_deck(7, "Eile")
    await asyncio.gather(
        *(s.change_deck_card(7, "Eile", "Dolch", 1) for s in (first, second, first, second))
    )
    deck = await second.get_deck(7, "Eile")
    assert deck is not None and deck.cards == (("Dolch", 4),)


async def test_server_content_is_per_guild_kind_and_name(store: Store) -> None:
    assert await store.put_content(1, "felsenfeuer.spells", "[a]\n", 7) is False
    assert await store.put_content(1, "felsenfeuer.spells", "[b]\n", 8) is True  # replaced
    assert await store.put_content(1, "telperinquar.cards", "[c]\n", 7) is False
    assert await store.put_content(2, "felsenfeuer.spells", "[d]\n", 7) is False
    assert await store.put_content(1, "armageddon.scenario", "x", 7, name="Zwei Ufer") is False
    assert await store.put_content(1, "armageddon.scenario", "y", 7, name="Burg") is False
    found = await store.get_content(1, "felsenfeuer.spells")
    assert found is not None
    assert (found.guild_id, found.kind, found.name, found.text, found.author_id) == (
        1,
        "felsenfeuer.spells",
        "",
        "[b]\n",
        8,
    )
    assert found.updated_at > 0
    assert await store.get_content(3, "felsenfeuer.spells") is None
    names = [c.name for c in await store.list_content(1, "armageddon.scenario")]
    assert names == ["Burg", "Zwei Ufer"]
    assert await store.delete_content(1, "felsenfeuer.spells") is True
    assert await store.delete_content(1, "felsenfeuer.spells") is False
    assert await store.get_content(1, "felsenfeuer.spells") is None
    remaining = await store.get_content(2, "felsenfeuer.spells")
    assert remaining is not None and remaining.text == "[d]\n"
    assert await store.list_content(1, "felsenfeuer.spells") == []


async def test_server_content_survives_a_nul_and_a_large_text(store: Store) -> None:
    text = "[zauber]\nname = 'Ä\x00'\n" + "# Zeile\n" * 10_000
    await store.put_content(5, "felsenfeuer.spells", text, 7)
    found = await store.get_content(5, "felsenfeuer.spells")
    assert found is not None and found.text.replace("\x00", "") == text.replace("\x00", "")


async def test_a_web_link_is_taken_once_and_only_before_it_expires(store: Store) -> None:
    await store.put_web_token("h1", "link", 100, 1, {"lang": "en"}, 50.0, now=10.0)
    await store.put_web_token("h2", "link", 100, 1, {}, 20.0, now=10.0)
    assert await store.take_web_token("h1", "session", 11.0) is None  # another kind
    taken = await store.take_web_token("h1", "link", 11.0)
    assert taken is not None
    assert (taken.user_id, taken.guild_id, taken.data) == (100, 1, {"lang": "en"})
    assert await store.take_web_token("h1", "link", 11.0) is None  # used
    assert await store.take_web_token("h2", "link", 30.0) is None  # expired
    assert await store.take_web_token("h2", "link", 11.0) is None  # and gone


async def test_two_uses_of_one_web_link_at_once_get_it_once(opener: Opener) -> None:
    first, second = await opener(), await opener()
    await first.put_web_token("h", "link", 7, 1, {}, 1e12, now=0.0)
    results = await asyncio.gather(
        first.take_web_token("h", "link", 1.0), second.take_web_token("h", "link", 1.0)
    )
    assert sorted(r is not None for r in results) == [False, True]


async def test_web_sessions_expire_are_deleted_and_old_ones_are_swept(store: Store) -> None:
    await store.put_web_token("s", "session", 2**62, 2**62, {"csrf": "x\x00"}, 100.0, now=0.0)
    found = await store.get_web_token("s", "session", 50.0)
    assert found is not None and found.user_id == 2**62 and found.expires_at == 100.0
    assert await store.get_web_token("s", "link", 50.0) is None
    assert await store.get_web_token("s", "session", 100.0) is None  # expired
    await store.put_web_token("t", "session", 1, 1, {}, 500.0, now=200.0)  # sweeps "s"
    assert await store.get_web_token("s", "session", 0.0) is None
    assert await store.delete_web_token("t")
    assert not await store.delete_web_token("t")
    assert await store.get_web_token("t", "session", 0.0) is None


async def test_a_servers_games_newest_first_by_status(store: Store) -> None:
    first = await _new_game(store, channel=10, guild=1)
    second = await _new_game(store, channel=11, guild=1)
    await _new_game(store, channel=12, guild=2)
    await _new_game(store, channel=13, guild=None)
    finished = await store.update_game(
        first.id, expected_revision=first.revision, snapshot={}, status="finished"
    )
    assert [g.id for g in await store.games_in_guild(1)] == [second.id, first.id]
    assert [g.id for g in await store.games_in_guild(1, statuses=("finished",))] == [finished.id]
    assert [g.id for g in await store.games_in_guild(1, limit=1)] == [second.id]
    assert await store.games_in_guild(3) == []


async def test_a_character_change_writes_its_log_entry_in_the_same_transaction(
    store: Store,
) -> None:
    """An LP change and its campaign-log entry: both or neither (a stale one writes none)."""
    campaign = await store.create_campaign(
        guild_id=1, channel_id=6, name="Mine", gm_id=42, settings={}
    )
    hero = await store.create_character(
        campaign_id=campaign.id, owner_id=7, name="Thoin", sheet={"lp": 20}
    )
    entry = (42, "damage", {"name": "Thoin", "amount": 5, "lp": 15, "lp_max": 20})
    hurt = await store.update_character(
        hero.id, expected_revision=0, name="Thoin", sheet={"lp": 15}, log=[entry]
    )
    assert hurt.sheet == {"lp": 15} and hurt.revision == 1
    with pytest.raises(StaleRevision):
        await store.update_character(
            hero.id, expected_revision=0, name="Thoin", sheet={"lp": 1}, log=[entry]
        )
    log = await store.campaign_log(campaign.id)
    assert [(e["actor_id"], e["kind"], e["data"]) for e in log] == [entry]
