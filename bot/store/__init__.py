"""Storage behind one small async interface (``Store``); SQLite is the default backend."""

from bot.store.base import (
    AlreadyExists,
    CampaignRecord,
    CharacterRecord,
    GameRecord,
    LogRow,
    StaleRevision,
    Store,
    StoreBusy,
    StoreUnavailable,
)
from bot.store.sqlite import SqliteStore

__all__ = [
    "AlreadyExists",
    "CampaignRecord",
    "CharacterRecord",
    "GameRecord",
    "LogRow",
    "SqliteStore",
    "StaleRevision",
    "Store",
    "StoreBusy",
    "StoreUnavailable",
]
