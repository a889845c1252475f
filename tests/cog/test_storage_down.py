"""The database goes away under a running bot (issue 18): PostgreSQL stopped or on a wrong
port, a SQLite file that turned read-only. Every interaction still gets an answer, in the
language of the user's client (the error path never needs the database): "cannot reach the
storage, try again" or "try again later, nothing was changed"; ``/hilfe`` works; autocompletes
answer with no choices; nothing is logged as an unexpected error and no task exception goes
unretrieved (the harness fails the test on either)."""

from __future__ import annotations

import gc
import sqlite3
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg
import pytest

from bot.i18n import t
from bot.sandbox.fake_discord import Exchange, FakeDiscord
from bot.store import SqliteStore
from bot.store.base import STORAGE_DOWN, STORAGE_FULL, storage_failure
from tests.cog.test_essence import ALICE, BOB
from tests.harness import assert_ephemeral, running_bot, settings_for
from tests.pg import PgProxy, fresh_schema

LOCALES = (("de", "de"), ("en-US", "en"))
# commands that read or write before they answer (a write, a read, a game, a campaign)
COMMANDS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("roll", {"ausdruck": "3W6"}),
    ("sprache", {"sprache": "en"}),
    ("essenz start", {"bot": "easy"}),
    ("essenz liste", {}),
    ("kampagne info", {}),
    ("würfel liste", {}),
)


async def answer_of(ex: Exchange) -> Any:
    """The last thing the user was told (a deferral is followed by its answer)."""
    replies = await ex.settle()
    told = [r for r in replies if r.content or r.embeds]
    assert told, f"no answer to {ex!r}"
    return told[-1]


async def every_interaction_is_answered(fake: FakeDiscord, key: str, board: Any) -> None:
    for locale, lang in LOCALES:
        hilfe = await (await fake.slash("hilfe", user=BOB, locale=locale)).callback()
        assert hilfe.embeds and hilfe.embeds[0]["title"] == t("core.help.title", lang)
        for name, options in COMMANDS:
            said = await answer_of(await fake.slash(name, options, user=ALICE, locale=locale))
            assert_ephemeral(said)
            assert said.content == t(key, lang), (name, said.content)
        click = await fake.click(board, board.custom_ids[0], user=BOB, locale=locale)
        said = await answer_of(click)
        assert said.content == t(key, lang)
        assert await fake.autocomplete("essenz brett", {"spiel": ""}, locale=locale) == []
    gc.collect()  # a task whose exception nobody retrieved is reported when it is collected


async def postgres_goes_away(fake: FakeDiscord, folder: Path, away: str) -> None:
    """A bot on PostgreSQL (through a relay) starts a game; then the server goes ``away``
    ("stop" or "hang", ``PgProxy``) and every interaction is still answered."""
    async with fresh_schema("down") as schema, PgProxy() as server:
        settings = settings_for(fake, folder / "unused.sqlite", database_url=server.url(schema))
        async with running_bot(fake, settings):
            await fake.wait_for_sync()
            started = await fake.slash("essenz start", {"gegner": BOB}, user=ALICE)
            invitation = await started.message()
            if away == "stop":
                await server.stop()
            else:
                server.hang()
            await every_interaction_is_answered(fake, STORAGE_DOWN, invitation)


async def test_a_stopped_postgres_answers_cannot_reach(fake: FakeDiscord, tmp_path: Path) -> None:
    await postgres_goes_away(fake, tmp_path, "stop")  # connections closed, new ones refused


async def test_a_postgres_that_stops_answering_is_told_not_waited_for(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A server that accepts and never answers (a frozen host): the statement under way gives
    up after the command timeout, and the interactions after it are told at once instead of
    waiting for it again (asyncpg's own default is a minute per connection)."""
    await postgres_goes_away(fake, tmp_path, "hang")


async def test_a_read_only_sqlite_file_answers_nothing_was_changed(
    fake: FakeDiscord, bot: Any
) -> None:
    if not isinstance(bot.store, SqliteStore):
        pytest.skip("a read-only SQLite file (PostgreSQL: the wrong port test above)")
    invitation = await (await fake.slash("essenz start", {"gegner": BOB}, user=ALICE)).message()
    writer = bot.store._db
    # the disk turns read-only under the bot (the writer's connection can no longer write)
    bot.store._db = await aiosqlite.connect(f"file:{bot.store.path}?mode=ro", uri=True)
    bot.store._db.row_factory = aiosqlite.Row
    try:
        for locale, lang in LOCALES:
            hilfe = await (await fake.slash("hilfe", user=BOB, locale=locale)).callback()
            assert hilfe.embeds[0]["title"] == t("core.help.title", lang)
            for name, options in (
                ("sprache", {"sprache": "en"}),
                ("essenz start", {"bot": "easy"}),
            ):
                said = await answer_of(await fake.slash(name, options, user=ALICE, locale=locale))
                assert_ephemeral(said)
                assert said.content == t(STORAGE_FULL, lang), (name, said.content)
            click = await fake.click(invitation, invitation.custom_ids[0], user=BOB, locale=locale)
            assert (await answer_of(click)).content == t(STORAGE_FULL, lang)
        gc.collect()
    finally:
        await bot.store._db.close()
        bot.store._db = writer
    assert await bot.store.get_pref(fake.user(ALICE).id, "language") is None


@pytest.mark.parametrize(
    ("error", "key"),
    [
        (sqlite3.OperationalError("attempt to write a readonly database"), STORAGE_FULL),
        (sqlite3.OperationalError("database or disk is full"), STORAGE_FULL),
        (sqlite3.OperationalError("unable to open database file"), STORAGE_DOWN),
        (sqlite3.OperationalError("no such table: games"), None),
        (ConnectionRefusedError(111, "Connect call failed"), STORAGE_DOWN),
        (OSError(28, "No space left on device"), STORAGE_FULL),
        (asyncpg.exceptions.DiskFullError("could not extend file"), STORAGE_FULL),
        (asyncpg.exceptions.ReadOnlySQLTransactionError("read-only transaction"), STORAGE_FULL),
        (asyncpg.exceptions.CannotConnectNowError("the database system is shutting down"),
         STORAGE_DOWN),
        (asyncpg.exceptions.AdminShutdownError("terminating connection"), STORAGE_DOWN),
        (asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed"), STORAGE_DOWN),
        (asyncpg.exceptions.TooManyConnectionsError("too many clients"), STORAGE_DOWN),
        (asyncpg.exceptions.InterfaceError("pool is closing"), STORAGE_DOWN),
        (asyncpg.exceptions.UniqueViolationError("duplicate key"), None),
        (ValueError("x"), None),
    ],
)  # fmt: skip
def test_storage_failures_are_told_apart(error: BaseException, key: str | None) -> None:
    assert storage_failure(error) == key
