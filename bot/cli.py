"""``spielleiter run | play | sync | migrate | copy-db`` (also ``python -m bot``)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

import discord

from bot.settings import Settings, SettingsError
from bot.store import StoreUnavailable
from bot.store.base import DB_UNUSABLE

NO_TOKEN = """\
Kein DISCORD_TOKEN gesetzt. / No DISCORD_TOKEN set.

To connect to Discord: create an application at https://discord.com/developers/applications,
open "Bot", press "Reset Token", and put the token into a file .env beside you:
    DISCORD_TOKEN=your-token
(see .env.example and README.md for inviting the bot).

To try the bot without Discord right now:
    spielleiter play
"""


class RedactToken(logging.Filter):
    """Keeps the token out of every log line, whatever logs it."""

    def __init__(self, token: str | None) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        if self.token and self.token in record.getMessage():
            record.msg = record.getMessage().replace(self.token, "[token]")
            record.args = ()
        return True


# Libraries whose DEBUG lines carry what users sent and saw: discord.py logs every payload
# (secret rolls, sheets), aiosqlite every statement with its parameters (sheet JSON, the log of
# a secret roll). They stay at INFO or above whatever SPIELLEITER_LOG_LEVEL says.
CAPPED_LOGGERS = ("discord", "aiosqlite")


def configure_logging(settings: Settings) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactToken(settings.token))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(settings.log_level if settings.log_level in logging._nameToLevel else "INFO")
    for name in CAPPED_LOGGERS:
        logging.getLogger(name).setLevel(max(root.level, logging.INFO))


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="spielleiter", description="Spielleiter Discord bot")
    sub = top.add_subparsers(dest="command", required=True)
    sub.add_parser("run", help="connect to Discord (needs DISCORD_TOKEN)")
    sub.add_parser("play", help="try the bot in the terminal, without Discord (play --help)")
    sync = sub.add_parser("sync", help="register the slash commands now")
    sync.add_argument("--guild", type=int, default=None, help="only this guild (instant update)")
    migrate = sub.add_parser(
        "migrate", help="bring the database to the newest schema (the bot also does at start)"
    )
    migrate.add_argument(
        "--database", default=None, help="URL or file (default: the configured database)"
    )
    copy = sub.add_parser(
        "copy-db",
        help="copy every campaign, sheet, game and preference into an empty database",
        description="Copy all data from FROM into the empty database TO and compare the counts,"
        " e.g. spielleiter copy-db spielleiter.sqlite postgresql://bot@db/spielleiter"
        " (stop the bot first).",
    )
    copy.add_argument("source", metavar="FROM", help="SQLite file or postgresql:// URL")
    copy.add_argument("target", metavar="TO", help="SQLite file or postgresql:// URL")
    return top


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    if words[:1] == ["play"]:  # the playground parses its own options (--db, --out, ...)
        from bot.sandbox.playground import main as play_main

        return int(play_main(words[1:]))
    args = parser().parse_args(words)
    try:
        settings = Settings.load()
    except SettingsError as error:
        print(f"Einstellungsfehler / settings error: {error}", file=sys.stderr)
        return 2
    if args.command == "migrate":
        return asyncio.run(_migrate(args.database or settings.database))
    if args.command == "copy-db":
        return asyncio.run(_copy(args.source, args.target))
    if not settings.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    unreachable = asyncio.run(_postgres_unreachable(settings.database))
    if unreachable:
        print(unreachable, file=sys.stderr)
        return 2
    configure_logging(settings)
    try:
        asyncio.run(_check_store(settings))
        if args.command == "sync":
            return asyncio.run(_sync(settings, args.guild))
        return asyncio.run(_run(settings))
    except discord.LoginFailure:
        print("Discord hat den Token abgelehnt. / Discord rejected the token.", file=sys.stderr)
        return 2
    except StoreUnavailable as error:
        print(DB_UNUSABLE.format(error=error), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0


async def _run(settings: Settings) -> int:
    from bot.app import create_bot

    bot = create_bot(settings)
    bot.freeze_heap = True
    async with bot:
        await bot.start(settings.token or "")
    return 0


async def _check_store(settings: Settings) -> None:
    """Open and close the store before anything else: a database that cannot be used (a
    missing directory that cannot be created, a read-only one) raises StoreUnavailable, said
    in one line by ``main``, instead of a traceback after the login."""
    from bot.app import default_store

    store = default_store(settings)
    await store.open()
    await store.close()


async def _sync(settings: Settings, guild_id: int | None) -> int:
    from bot.app import create_bot

    bot = create_bot(settings, auto_sync=False)
    async with bot:
        await bot.login(settings.token or "")
        count = await bot.sync_commands(guild_id)
    print(f"{count} Befehle registriert / commands registered")
    return 0


async def _postgres_unreachable(database: str) -> str | None:
    """Why the configured PostgreSQL database cannot be used (None: it can, or it is SQLite),
    checked before connecting to Discord so that start-up fails in one friendly line."""
    from bot.store import is_postgres

    if not is_postgres(database):
        return None
    import asyncpg

    errors: tuple[type[BaseException], ...] = (*_database_errors(), TimeoutError)
    try:
        conn = await asyncpg.connect(database, timeout=10)
    except errors as error:
        return (
            f"Datenbank nicht erreichbar / database unreachable: {_shown(database)}\n"
            f"  {type(error).__name__}: {error}\n"
            "  (SPIELLEITER_DATABASE_URL; see README, 'A growing bot')"
        )
    await conn.close()
    return None


def _database_errors() -> tuple[type[BaseException], ...]:
    import asyncpg

    return (OSError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError)


def _shown(database: str) -> str:
    from bot.store.postgres import redact

    return redact(database)


async def _migrate(database: str) -> int:
    from bot.store.admin import migrate_database

    try:
        before, after = await migrate_database(database)
    except _database_errors() as error:
        print(f"Datenbankfehler / database error ({_shown(database)}): {error}", file=sys.stderr)
        return 1
    if before == after:
        print(f"{_shown(database)}: Schema {after} ist aktuell / schema {after} is up to date")
    else:
        print(f"{_shown(database)}: Schema {before} → {after} / migrated from {before} to {after}")
    return 0


async def _copy(source: str, target: str) -> int:
    from bot.store.admin import CopyError, copy_database

    errors: tuple[type[BaseException], ...] = (CopyError, *_database_errors())
    try:
        counts = await copy_database(source, target)
    except errors as error:
        print(f"Nicht kopiert / not copied: {error}", file=sys.stderr)
        return 1
    for table, count in counts.items():
        print(f"{table:<20} {count:>8}")
    total = sum(counts.values())
    rows = "Zeile kopiert und gezählt / row" if total == 1 else "Zeilen kopiert und gezählt / rows"
    print(f"{total} {rows} copied and verified: {_shown(source)} → {_shown(target)}")
    return 0
