"""``spielleiter migrate`` and ``spielleiter copy-db``: everything a bot stored moves from SQLite
to PostgreSQL and back with its ids, counts verified; a filled target is refused."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.cli import main
from bot.store import Store, store_for
from bot.store.admin import CopyError, copy_database
from bot.store.migrations import SCHEMA_VERSION
from tests.pg import fresh_schema, schema_url


async def _fill(store: Store) -> dict[str, int]:
    """One of everything; returns the ids to look up."""
    game = await store.create_game(
        kind="essence",
        engine_version=1,
        config={"variants": []},
        seed=5,
        guild_id=810000000000000001,
        channel_id=810000000000000011,
        players=[1, 2],
        status="active",
        snapshot={"turn": 1},
    )
    await store.update_game(game.id, expected_revision=0, snapshot={"turn": 2}, actions=[(0, "a")])
    await store.set_game_display(game.id, {"names": ["Älva", "Bo"]})
    await store.mark_reminded(game.id)
    campaign = await store.create_campaign(
        guild_id=None, channel_id=3, name="Nebelreich", gm_id=1, settings={"x": 1}
    )
    hero = await store.create_character(
        campaign_id=campaign.id, owner_id=2, name="Thoin", sheet={"lp": 20}
    )
    await store.create_character(campaign_id=campaign.id, owner_id=None, name="Ork", sheet={})
    await store.set_active_character(campaign.id, 2, hero.id)
    await store.add_log(campaign.id, 2, "probe", {"erfolge": 3})
    await store.update_game(
        game.id, expected_revision=1, snapshot={"turn": 3}, log=[(campaign.id, 1, "k", {})]
    )
    await store.save_roll("user:2", "feuerball", "8W6", 2)
    await store.set_pref(2, "language", "en")
    await store.set_meta("command_schema_hash", "abc")
    return {"game": game.id, "campaign": campaign.id, "hero": hero.id}


async def _snapshot(store: Store, ids: dict[str, int]) -> list[object]:
    return [
        await store.get_game(ids["game"]),
        await store.game_actions(ids["game"]),
        await store.get_campaign(ids["campaign"]),
        await store.characters(ids["campaign"]),
        await store.active_character(ids["campaign"], 2),
        await store.campaign_log(ids["campaign"]),
        await store.saved_rolls(["user:2"]),
        await store.get_pref(2, "language"),
        await store.get_meta("command_schema_hash"),
    ]


async def _with(database: str | Path, ids: dict[str, int]) -> list[object]:
    store = store_for(database)
    await store.open()
    try:
        return await _snapshot(store, ids)
    finally:
        await store.close()


async def test_sqlite_to_postgres_and_back_keeps_everything(tmp_path: Path) -> None:
    source = tmp_path / "bot.sqlite"
    store = store_for(source)
    await store.open()
    ids = await _fill(store)
    expected = await _snapshot(store, ids)
    await store.close()
    async with fresh_schema("copy") as schema:
        url = schema_url(schema)
        counts = await copy_database(source, url)
        assert counts["games"] == 1 and counts["characters"] == 2 and counts["campaign_log"] == 2
        assert counts["user_prefs"] == 1 and counts["saved_rolls"] == 1
        assert await _with(url, ids) == expected
        pg = store_for(url)
        await pg.open()
        try:  # new rows continue after the copied ids
            campaign = await pg.create_campaign(
                guild_id=1, channel_id=99, name="Neu", gm_id=1, settings={}
            )
            assert campaign.id > ids["campaign"]
        finally:
            await pg.close()
        back = tmp_path / "back.sqlite"
        again = await copy_database(url, back)
        assert again == {**counts, "campaigns": counts["campaigns"] + 1}
        assert await _with(back, ids) == expected


async def test_a_target_with_data_or_a_missing_source_is_refused(tmp_path: Path) -> None:
    first, second = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    for path in (first, second):
        store = store_for(path)
        await store.open()
        await _fill(store)
        await store.close()
    with pytest.raises(CopyError, match="not empty"):
        await copy_database(first, second)
    missing = tmp_path / "tippfehler.sqlite"
    with pytest.raises(CopyError, match="no database file"):
        await copy_database(missing, tmp_path / "c.sqlite")
    assert not missing.exists()  # a mistyped source is not created empty


async def test_the_commands_migrate_and_copy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "bot.sqlite"
    assert await asyncio.to_thread(main, ["migrate", "--database", str(source)]) == 0
    assert f"0 → {SCHEMA_VERSION}" in capsys.readouterr().out
    assert await asyncio.to_thread(main, ["migrate", "--database", str(source)]) == 0
    assert "up to date" in capsys.readouterr().out
    async with fresh_schema("cli") as schema:
        url = schema_url(schema)
        assert await asyncio.to_thread(main, ["migrate", "--database", url]) == 0
        assert f"0 → {SCHEMA_VERSION}" in capsys.readouterr().out
        assert await asyncio.to_thread(main, ["copy-db", str(source), url]) == 0
        assert "rows copied and verified" in capsys.readouterr().out
        assert await asyncio.to_thread(main, ["copy-db", str(source), url]) == 0  # all empty
        capsys.readouterr()
    store = store_for(source)
    await store.open()
    await _fill(store)
    await store.close()
    target = tmp_path / "filled.sqlite"
    await copy_database(source, target)
    assert await asyncio.to_thread(main, ["copy-db", str(source), str(target)]) == 1
    assert "not empty" in capsys.readouterr().err


def test_run_with_an_unreachable_postgres_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("SPIELLEITER_DATABASE_URL", "postgresql://bot:geheim@127.0.0.1:9/x")
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "database unreachable: postgresql://bot:***@127.0.0.1:9/x" in err
    assert "Traceback" not in err and "geheim" not in err
