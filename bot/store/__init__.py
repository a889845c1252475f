"""Storage behind one small async interface (``Store``); SQLite is the default backend."""

from bot.store.base import (
    CampaignRecord,
    CharacterRecord,
    CombatRecord,
    GameRecord,
    StaleRevision,
    Store,
)
from bot.store.sqlite import SqliteStore

__all__ = [
    "CampaignRecord",
    "CharacterRecord",
    "CombatRecord",
    "GameRecord",
    "SqliteStore",
    "StaleRevision",
    "Store",
]
