"""Storage behind one small async interface (``Store``); SQLite is the default backend,
PostgreSQL (``postgresql://…``) serves a bot that runs as several shard processes."""

from __future__ import annotations

from pathlib import Path

from bot.store.base import (
    AlreadyExists,
    CampaignRecord,
    CharacterRecord,
    ContentRecord,
    DeckRecord,
    GameRecord,
    LogRow,
    StaleRevision,
    Store,
    StoreBusy,
    StoreUnavailable,
    TooManyCharacters,
    WebTokenRecord,
)
from bot.store.sqlite import SqliteStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
SQLITE_SCHEME = "sqlite:///"


def is_postgres(database: str | Path) -> bool:
    return str(database).startswith(POSTGRES_SCHEMES)


def sqlite_path(database: str | Path) -> Path | str:
    """The file of a SQLite database given as a path or ``sqlite:///path`` (``sqlite:////abs``,
    ``sqlite:///:memory:``). Raises ValueError for a URL of another kind."""
    text = str(database)
    if text.startswith(SQLITE_SCHEME):
        text = text.removeprefix(SQLITE_SCHEME)
        return text if text == ":memory:" else Path(text)
    if "://" in text:
        raise ValueError(
            f"unknown database URL {text.split('://', 1)[0]}://… "
            "(use postgresql://…, sqlite:///file or a file path)"
        )
    return text if text == ":memory:" else Path(text)


def store_for(database: str | Path) -> Store:
    """The store a setting names: ``postgresql://…`` (or ``postgres://…``) is PostgreSQL, a
    path or ``sqlite:///path`` SQLite. Raises ValueError for another URL."""
    if is_postgres(database):
        from bot.store.postgres import PostgresStore

        return PostgresStore(str(database))
    return SqliteStore(sqlite_path(database))


__all__ = [
    "AlreadyExists",
    "CampaignRecord",
    "CharacterRecord",
    "ContentRecord",
    "DeckRecord",
    "GameRecord",
    "LogRow",
    "SqliteStore",
    "StaleRevision",
    "Store",
    "StoreBusy",
    "StoreUnavailable",
    "TooManyCharacters",
    "WebTokenRecord",
    "is_postgres",
    "sqlite_path",
    "store_for",
]
