"""The end of a Telperinquár booster draft, once for every way it ends (a person's last pick,
the bot's, a forfeit): each person's suggested 40-card deck (``build_draft_deck``) is saved in
their deck store as ``Draft <game id>`` — never over an existing deck: a taken name gets a
number, ``Draft 12 (2)``. Saving again finds the deck already there (same name, same cards),
so showing the finished draft twice saves nothing twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.store import AlreadyExists, GameRecord
from engines.core import match as m
from engines.telperinquar.decks import parse_list
from engines.telperinquar.draft import build_draft_deck, picks_of

ATTEMPTS = 20  # names tried per person before giving up (Draft 12 … Draft 12 (20))


@dataclass(frozen=True)
class SavedDeck:
    seat: int
    user: int
    name: str
    entries: tuple[tuple[str, int], ...]


def deck_names(game_id: int) -> list[str]:
    base = f"Draft {game_id}"
    return [base, *(f"{base} ({n})" for n in range(2, ATTEMPTS + 1))]


def suggested_decks(
    record: GameRecord, match: m.Match, bot_id: int
) -> list[tuple[int, int, tuple[tuple[str, int], ...]]]:
    """(seat, user, cards) of each person's suggested deck (bots and seats that left get
    none)."""
    found = []
    for seat, user in enumerate(record.players):
        if user == bot_id or seat in match.eliminated:
            continue
        found.append(
            (seat, user, parse_list(build_draft_deck(picks_of(match.state, seat))).entries)
        )
    return found


async def saved_draft_decks(
    store: Any, record: GameRecord, match: m.Match, bot_id: int
) -> list[SavedDeck]:
    """The suggested decks already saved (read only: what a board of the finished draft
    shows; the saving is ``save_draft_decks``' when the draft ends)."""
    saved = []
    for seat, user, entries in suggested_decks(record, match, bot_id):
        for name in deck_names(record.id):
            existing = await store.get_deck(user, name)
            if existing is not None and tuple(existing.cards) == entries:
                saved.append(SavedDeck(seat, user, name, entries))
                break
    return saved


async def save_draft_decks(
    store: Any, record: GameRecord, match: m.Match, bot_id: int
) -> list[SavedDeck]:
    """Save each person's suggested deck (bots and seats that left get none)."""
    saved = []
    for seat, user, entries in suggested_decks(record, match, bot_id):
        name = await _save(store, user, record.id, entries)
        if name is not None:
            saved.append(SavedDeck(seat, user, name, entries))
    return saved


async def _save(
    store: Any, user: int, game_id: int, entries: tuple[tuple[str, int], ...]
) -> str | None:
    for name in deck_names(game_id):
        existing = await store.get_deck(user, name)
        if existing is not None:
            if tuple(existing.cards) == entries:
                return name  # saved before (the finished draft shown again)
            continue
        try:
            await store.create_deck(user, name, entries)
        except AlreadyExists:  # made at the same moment by another showing of the end
            existing = await store.get_deck(user, name)
            if existing is not None and tuple(existing.cards) == entries:
                return name
            continue
        return name
    return None
