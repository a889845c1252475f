"""Telperinquár decks and a server's own cards apart from Discord: a user's decks (created,
renamed, copied, changed card by card, imported from a list, deleted), the deck a seat plays
with, the server's card file and the catalogue it makes, and the decks a finished booster
draft leaves each person (``save_draft_decks``). ``cogs.telperinquar`` and the web companion
parse, call this and reply with ``bot.narration.telperinquar``'s texts."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import t
from bot.narration.telperinquar import (
    CARDS_KIND,
    MAX_DECK_NAME,
    STARTER,
    TYPE_ICONS,
    card_name,
    deck_choice,
    deck_is_legal,
    deck_name,
    file_catalogue,
    phrase,
    read_list,
    resolve_card,
    starter_named,
)
from bot.store import AlreadyExists, DeckRecord, Store
from bot.store import GameRecord as GameRecord  # the record a cog reads
from bot.telperinquar_draft import SavedDeck, save_draft_decks, saved_draft_decks
from engines.core import BadInput
from engines.core import match as m
from engines.telperinquar.cards import CLASSES as CLASSES  # the classes a command offers
from engines.telperinquar.cards import Catalogue, catalogue
from engines.telperinquar.decks import validate
from engines.telperinquar.engine import catalogue_for

__all__ = ["CARDS_KIND", "CLASSES", "DeckService", "GameRecord", "SavedDeck"]


class DeckService:
    """The store behind a user's decks and a server's cards."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @staticmethod
    def catalogue_of(cards: str) -> Catalogue:
        """The catalogue a game with the server's card file ``cards`` plays with."""
        return catalogue_for(cards)

    async def decks(self, owner: int) -> list[DeckRecord]:
        return await self.store.decks(owner)

    async def deck(self, owner: int, name: str) -> DeckRecord | None:
        """The deck of that name (None: none; autocomplete asks with what is typed)."""
        return await self.store.get_deck(owner, name)

    async def delete(self, owner: int, name: str) -> DeckRecord:
        """Raises BadInput("tq.deck.not_found")."""
        record = await self.find_deck(owner, name)
        await self.store.delete_deck(owner, record.name)
        return record

    async def put_cards(self, guild_id: int, text: str, user_id: int) -> bool:
        """A server's card file (checked completely before, ``check_card_file``) stored;
        True when it replaced one."""
        return await self.store.put_content(guild_id, CARDS_KIND, text, user_id)

    async def delete_cards(self, guild_id: int) -> bool:
        return await self.store.delete_content(guild_id, CARDS_KIND)

    async def draft_decks(self, record: GameRecord, match: m.Match, bot_id: int) -> list[SavedDeck]:
        """The decks a finished draft has saved so far (read only)."""
        return await saved_draft_decks(self.store, record, match, bot_id)

    async def save_draft(self, record: GameRecord, match: m.Match, bot_id: int) -> list[SavedDeck]:
        """The decks a finished booster draft leaves each person (see ``save_draft_decks``)."""
        return await save_draft_decks(self.store, record, match, bot_id)

    async def find_deck(self, owner: int, name: str) -> DeckRecord:
        deck: DeckRecord | None = await self.store.get_deck(owner, name)
        if deck is None:
            raise BadInput("tq.deck.not_found", name=name[:MAX_DECK_NAME])
        return deck

    async def new_deck(
        self, owner: int, name: str, cards: Sequence[tuple[str, int]] = ()
    ) -> DeckRecord:
        """Raises BadInput when the owner has a deck of that name."""
        try:
            deck: DeckRecord = await self.store.create_deck(owner, deck_name(name), cards)
        except AlreadyExists:
            raise BadInput("tq.deck.exists", name=name[:MAX_DECK_NAME]) from None
        return deck

    async def renamed(self, owner: int, name: str, new_name: str, *, copy: bool) -> DeckRecord:
        new_name = deck_name(new_name)
        try:
            if copy:
                deck = await self.store.copy_deck(owner, name, new_name)
            else:
                deck = await self.store.rename_deck(owner, name, new_name)
        except AlreadyExists:
            raise BadInput("tq.deck.exists", name=new_name) from None
        if deck is None:
            raise BadInput("tq.deck.not_found", name=name[:MAX_DECK_NAME])
        result: DeckRecord = deck
        return result

    async def import_deck(
        self, owner: int, name: str, text: str, lang: str, cat: Catalogue | None = None
    ) -> tuple[DeckRecord | None, list[str]]:
        """Store an imported list as the deck ``name`` (replacing its cards, or a new deck).
        (None, reasons) when the list cannot be read: nothing is changed then."""
        name = deck_name(name)
        deck, reasons = read_list(text, lang, cat)
        if reasons:
            return None, reasons
        if await self.store.get_deck(owner, name) is not None:
            record: DeckRecord | None = await self.store.set_deck_cards(owner, name, deck.entries)
            if record is not None:
                return record, []
        return await self.new_deck(owner, name, deck.entries), []

    async def change_card(
        self, owner: int, name: str, card: str, delta: int, lang: str, cat: Catalogue
    ) -> tuple[DeckRecord, str]:
        """Add or remove copies of a card (named in either language); the deck and a line
        saying how many are in it now."""
        deck = await self.find_deck(owner, name)
        german = resolve_card(card, cat)
        if delta < 0 and german not in dict(deck.cards):
            raise BadInput("tq.deck.not_in_deck", name=card_name(german, lang, cat))
        changed = await self.store.change_deck_card(owner, deck.name, german, delta)
        if changed is None:
            raise BadInput("tq.deck.not_found", name=name[:MAX_DECK_NAME])
        count = dict(changed.cards).get(german, 0)
        shown = card_name(german, lang, cat)
        text = phrase("deck.changed", lang, card=shown, count=count, deck=deck.name)
        return changed, text

    async def seat_deck(self, owner: int, value: str | None, cat: Catalogue) -> str:
        """What the host plays with: a starter deck (``*<class>``), one of their decks by name
        (it must be legal), or without a choice their first legal deck, else a starter deck."""
        if value and value.startswith(STARTER) and value[1:] in CLASSES:
            return value[1:]
        if value:
            starter_class = starter_named(value)
            if starter_class and await self.store.get_deck(owner, value) is None:
                return starter_class  # a starter deck typed by its name
            deck = await self.find_deck(owner, value)
            info = validate(dict(deck.cards), cat)
            if not info.legal:
                raise BadInput(info.problems[0].key, **info.problems[0].kwargs)
            return deck_choice(deck, cat)
        legal = [d for d in await self.store.decks(owner) if deck_is_legal(d, cat)]
        return deck_choice(legal[0], cat) if legal else CLASSES[0]

    async def server_cards(self, guild_id: int | None) -> str:
        """The server's own card file (checked before it was stored; "" when there is none)."""
        if guild_id is None:
            return ""
        record = await self.store.get_content(guild_id, CARDS_KIND)
        return str(record.text) if record is not None else ""

    async def server_catalogue(self, guild_id: int | None) -> Catalogue:
        """The built-in cards plus the server's own card file (checked before it was stored)."""
        if guild_id is None:
            return catalogue()
        record = await self.store.get_content(guild_id, CARDS_KIND)
        if record is None:
            return catalogue()
        return file_catalogue(record.text)

    async def server_card_lines(self, guild_id: int | None, lang: str) -> list[str]:
        """One line per own card of the server: name, kind, costs."""
        if guild_id is None:
            return []
        base = set(catalogue().cards)
        cat = await self.server_catalogue(guild_id)
        lines = []
        for name, card in cat.cards.items():
            if name not in base:
                kind = t(f"tqrender.type.{card.type}", lang)  # one card: the singular
                shown = card_name(name, lang, cat)
                lines.append(
                    f"{TYPE_ICONS.get(card.type, '')} **{shown}** · {kind} · {card.play}/{card.use}"
                )
        return lines[:50]
