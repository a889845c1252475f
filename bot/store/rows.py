"""Rows to records, shared by both backends (an aiosqlite ``Row`` and an asyncpg ``Record``
are both read by column name), and the one JSON form the stores write."""

from __future__ import annotations

import json
from typing import Any

from bot.store.base import (
    CampaignRecord,
    CampaignStatus,
    CharacterRecord,
    ContentRecord,
    DeckRecord,
    GameRecord,
    GameStatus,
    WebTokenRecord,
)

Row = Any  # read by column name: row["id"]


def _dump(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


SEED_COLUMN_MASK = (1 << 63) - 1


def seed_columns(seed: int) -> tuple[int, str]:
    """A game's seed as stored: ``seed`` (a 64-bit column) keeps its low 63 bits, for an older
    bot reading the row; ``seed_text`` the whole seed (128 bits and more) in decimal."""
    return seed & SEED_COLUMN_MASK, str(seed)


def _game(row: Row) -> GameRecord:
    return GameRecord(
        id=row["id"],
        kind=row["kind"],
        engine_version=row["engine_version"],
        config=json.loads(row["config"]),
        seed=row["seed"] if row["seed_text"] is None else int(row["seed_text"]),
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        players=json.loads(row["players"]),
        status=GameStatus(row["status"]),
        snapshot=json.loads(row["snapshot"]),
        revision=row["revision"],
        message_id=row["message_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        display=json.loads(row["display"]),
    )


def _campaign(row: Row) -> CampaignRecord:
    return CampaignRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        name=row["name"],
        gm_id=row["gm_id"],
        co_gm_ids=json.loads(row["co_gm_ids"]),
        settings=json.loads(row["settings"]),
        status=CampaignStatus(row["status"]),
        created_at=row["created_at"],
    )


def _character(row: Row) -> CharacterRecord:
    return CharacterRecord(
        id=row["id"],
        campaign_id=row["campaign_id"],
        owner_id=row["owner_id"],
        name=row["name"],
        sheet=json.loads(row["sheet"]),
        revision=row["revision"],
    )


def _deck(row: Row) -> DeckRecord:
    cards = tuple((str(name), int(count)) for name, count in json.loads(row["cards"]))
    return DeckRecord(id=row["id"], owner_id=row["owner_id"], name=row["name"], cards=cards)


def _content(row: Row) -> ContentRecord:
    return ContentRecord(
        guild_id=row["guild_id"],
        kind=row["kind"],
        name=row["name"],
        text=row["text"],
        author_id=row["author_id"],
        updated_at=row["updated_at"],
    )


def _web_token(row: Row) -> WebTokenRecord:
    return WebTokenRecord(
        token_hash=row["token_hash"],
        kind=row["kind"],
        user_id=row["user_id"],
        guild_id=row["guild_id"],
        data=json.loads(row["data"]),
        expires_at=row["expires_at"],
    )


def _changed(cards: tuple[tuple[str, int], ...], card: str, delta: int) -> list[tuple[str, int]]:
    """``cards`` with ``delta`` copies of ``card`` more (at least 0; a 0 leaves the list)."""
    counts = dict(cards)
    counts[card] = max(0, counts.get(card, 0) + delta)
    return [(name, count) for name, count in counts.items() if count > 0]
