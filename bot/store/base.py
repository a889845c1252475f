"""The storage interface the cogs use, and the records it returns.

A second backend (PostgreSQL for a sharded bot) implements ``Store`` the same way; cogs only
see this module.
"""

from __future__ import annotations

import errno
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from engines.core import EngineError, IllegalAction, StaleAction

Json = dict[str, Any]


class StaleRevision(StaleAction):
    """The record changed since it was read (two clicks on one old button)."""


class StoreBusy(EngineError):
    """The database stayed locked (by another process, or a write that hangs) longer than a
    write may wait; nothing was written and the user is asked to try again."""

    def __init__(self) -> None:
        super().__init__("error.busy")


class AlreadyExists(IllegalAction):
    """A channel already has an active ``what`` ("campaign", "game"): two starts at once,
    the second one refused by the store."""

    def __init__(self, what: str) -> None:
        super().__init__("error.exists")
        self.what = what


class TooManyCharacters(Exception):
    """A new character refused by a limit counted in its own write transaction (so two
    creates at once cannot pass it together): ``which`` is "campaign" (the campaign holds
    ``max_in_campaign``) or "owner" (the owner holds ``max_per_owner`` there). Nothing was
    written; the service says it in the user's words."""

    def __init__(self, which: str) -> None:
        super().__init__(which)
        self.which = which


def check_character_limits(
    count: int, own: int, owner_id: int | None, max_in_campaign: int, max_per_owner: int
) -> None:
    """Inside a character's write transaction: raises TooManyCharacters when the new one
    would pass a limit (``count`` the campaign's characters, ``own`` the owner's; 0: no
    limit)."""
    if 0 < max_in_campaign <= count:
        raise TooManyCharacters("campaign")
    if owner_id is not None and 0 < max_per_owner <= own:
        raise TooManyCharacters("owner")


STORAGE_DOWN = "error.storage_down"
STORAGE_FULL = "error.storage_full"
# a database that cannot be opened, said in one line at start-up (``spielleiter run`` and ``play``)
DB_UNUSABLE = "Die Datenbank ist nicht nutzbar / the database cannot be used: {error}"
_FULL_WORDS = ("readonly", "read-only", "disk is full", "no space")


def storage_failure(error: BaseException) -> str | None:
    """The message key for a database that failed under a running bot, or None for anything
    else: ``error.storage_down`` when it cannot be reached (PostgreSQL stopped or on a wrong
    port, a closed connection), ``error.storage_full`` when it refuses writes (a full or
    read-only disk). Neither needs the database to be said (``bot.replies.handle_error``)."""
    import asyncpg.exceptions as pg  # only needed when something failed

    message = str(error).lower()
    if isinstance(error, sqlite3.OperationalError):
        if any(word in message for word in _FULL_WORDS):
            return STORAGE_FULL
        if "unable to open" in message or "disk i/o" in message:
            return STORAGE_DOWN
        return None
    if isinstance(error, pg.InsufficientResourcesError | pg.ReadOnlySQLTransactionError):
        return STORAGE_DOWN if isinstance(error, pg.TooManyConnectionsError) else STORAGE_FULL
    if isinstance(error, pg.PostgresConnectionError | pg.OperatorInterventionError):
        return STORAGE_DOWN
    if isinstance(error, pg.InterfaceError) and any(
        word in message for word in ("closed", "closing", "connection")
    ):
        return STORAGE_DOWN
    if isinstance(error, OSError):  # refused, reset, unreachable; ENOSPC, EROFS
        return STORAGE_FULL if error.errno in (errno.ENOSPC, errno.EROFS) else STORAGE_DOWN
    return None


class StoreUnavailable(Exception):
    """The database cannot be opened at all (a directory that is missing and cannot be
    created, a read-only one, a file that is no database); ``reason`` says why in one line."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.where = where
        self.reason = reason


class GameStatus(StrEnum):
    """Where a stored game stands: its invitation open, being played, over, or declined."""

    INVITED = "invited"
    ACTIVE = "active"
    FINISHED = "finished"
    DECLINED = "declined"


class CampaignStatus(StrEnum):
    """A W6 campaign being played in its channel, or put away."""

    ACTIVE = "active"
    ARCHIVED = "archived"


@dataclass(frozen=True)
class GameRecord:
    id: int
    kind: str
    engine_version: int
    config: Json
    seed: int
    guild_id: int | None
    channel_id: int
    players: list[int]
    status: GameStatus
    snapshot: Json
    revision: int
    message_id: int | None
    created_at: float
    updated_at: float
    # presentation data a cog keeps beside the rules (player names, the live board message);
    # written without a revision bump, so it never makes a game's buttons stale
    display: Json = field(default_factory=dict)

    def seat_of(self, user_id: int) -> int | None:
        return self.players.index(user_id) if user_id in self.players else None


@dataclass(frozen=True)
class CampaignRecord:
    id: int
    guild_id: int | None
    channel_id: int
    name: str
    gm_id: int
    co_gm_ids: list[int]
    settings: Json
    status: CampaignStatus
    created_at: float

    def is_gm(self, user_id: int) -> bool:
        return user_id == self.gm_id or user_id in self.co_gm_ids


@dataclass(frozen=True)
class CharacterRecord:
    id: int
    campaign_id: int
    owner_id: int | None  # None: an NPC owned by the campaign
    name: str
    sheet: Json
    revision: int


# A campaign-log row written with a game step: (campaign id, actor id, kind, data).
LogRow = tuple[int, int | None, str, Json]


@dataclass(frozen=True)
class DeckRecord:
    """A user's Telperinquár deck: card names (German) with their counts, in list order."""

    id: int
    owner_id: int
    name: str
    cards: tuple[tuple[str, int], ...]

    @property
    def size(self) -> int:
        return sum(count for _, count in self.cards)


@dataclass(frozen=True)
class ContentRecord:
    """A server's own content file of one ``kind`` (e.g. ``felsenfeuer.spells``,
    ``telperinquar.cards``): the text as uploaded, checked by its game before it is stored."""

    guild_id: int
    kind: str
    name: str
    text: str
    author_id: int
    updated_at: float


@dataclass(frozen=True)
class WebTokenRecord:
    """A web companion token, kept only as its hash: a one-time sign-in link (kind ``link``)
    or a browser session (``session``) of a Discord user, scoped to the server it came from;
    ``data`` holds what the sign-in knew (language, name, whether the user manages the server,
    the session's CSRF secret)."""

    token_hash: str
    kind: str
    user_id: int
    guild_id: int
    data: Json
    expires_at: float


class Store(Protocol):
    async def open(self) -> None: ...
    async def close(self) -> None: ...

    # meta
    async def get_meta(self, key: str) -> str | None: ...
    async def set_meta(self, key: str, value: str) -> None: ...

    # user preferences
    async def get_pref(self, user_id: int, key: str) -> str | None: ...
    async def set_pref(self, user_id: int, key: str, value: str | None) -> None: ...

    # games
    async def create_game(
        self,
        *,
        kind: str,
        engine_version: int,
        config: Json,
        seed: int,
        guild_id: int | None,
        channel_id: int,
        players: list[int],
        status: str,
        snapshot: Json,
        one_per_channel: bool = False,
        display: Json | None = None,
    ) -> GameRecord:
        """``one_per_channel``: raises AlreadyExists when the channel has an invited or active
        game of ``kind`` (checked in the write's transaction)."""
        ...

    async def get_game(self, game_id: int) -> GameRecord | None: ...
    async def games_in_channel(
        self, channel_id: int, *, kind: str | None = None, statuses: tuple[str, ...] = ()
    ) -> list[GameRecord]: ...
    async def games_idle_since(
        self, before: float, *, unreminded_only: bool = False, status: str = "active"
    ) -> list[GameRecord]: ...
    async def games_in_guild(
        self, guild_id: int, *, statuses: tuple[str, ...] = (), limit: int = 100
    ) -> list[GameRecord]:
        """The server's games of those statuses (empty: any), newest first, at most ``limit``."""
        ...

    async def mark_reminded(self, game_id: int) -> None: ...
    async def update_game(
        self,
        game_id: int,
        *,
        expected_revision: int,
        snapshot: Json,
        actions: Sequence[tuple[int, str]] = (),
        status: str | None = None,
        message_id: int | None = None,
        players: list[int] | None = None,
        config: Json | None = None,
        display: Json | None = None,
        log: Sequence[LogRow] = (),
    ) -> GameRecord:
        """``log``: campaign-log rows written in the same transaction as the step."""
        ...

    async def game_actions(self, game_id: int) -> list[tuple[int, str]]: ...
    async def drop_last_game_action(
        self,
        game_id: int,
        *,
        expected_revision: int,
        snapshot: Json,
        status: str | None = None,
        display: Json | None = None,
        log: Sequence[LogRow] = (),
    ) -> GameRecord: ...
    async def set_game_channel(self, game_id: int, channel_id: int) -> None: ...
    async def set_game_display(self, game_id: int, display: Json) -> None: ...

    # saved rolls (scope: "user:<id>" or "campaign:<id>")
    async def save_roll(
        self, scope: str, name: str, expression: str, created_by: int, *, limit: int = 0
    ) -> bool:
        """Save (or replace) a roll. With ``limit`` > 0 a new name is refused (returns False,
        nothing written) when ``scope`` already holds ``limit`` rolls; the count and the write
        are one transaction, so concurrent saves cannot pass the limit together."""
        ...

    async def delete_roll(self, scope: str, name: str) -> bool: ...
    async def saved_rolls(self, scopes: list[str]) -> dict[str, str]: ...

    # campaigns
    async def create_campaign(
        self, *, guild_id: int | None, channel_id: int, name: str, gm_id: int, settings: Json
    ) -> CampaignRecord: ...
    async def import_campaign(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        name: str,
        gm_id: int,
        settings: Json,
        characters: Sequence[tuple[int | None, str, Json]] = (),
        log: Sequence[tuple[int | None, str, Json]] = (),
    ) -> CampaignRecord:
        """Create a campaign with its characters (``owner_id``, ``name``, ``sheet``) and log
        entries (``actor_id``, ``kind``, ``data``) in one transaction: all or nothing."""
        ...

    async def get_campaign(self, campaign_id: int) -> CampaignRecord | None: ...
    async def active_campaign(self, channel_id: int) -> CampaignRecord | None: ...
    async def campaigns(self, guild_id: int | None) -> list[CampaignRecord]: ...
    async def update_campaign(
        self,
        campaign_id: int,
        *,
        gm_id: int | None = None,
        co_gm_ids: list[int] | None = None,
        settings: Json | None = None,
        status: str | None = None,
        name: str | None = None,
    ) -> CampaignRecord: ...
    async def add_log(
        self, campaign_id: int, actor_id: int | None, kind: str, data: Json
    ) -> None: ...
    async def campaign_log(self, campaign_id: int, limit: int = 50) -> list[Json]: ...

    # characters
    async def create_character(
        self,
        *,
        campaign_id: int,
        owner_id: int | None,
        name: str,
        sheet: Json,
        activate: bool = False,
        log: Sequence[tuple[int | None, str, Json]] = (),
        max_in_campaign: int = 0,
        max_per_owner: int = 0,
    ) -> CharacterRecord:
        """Create a character. ``activate``: it becomes its owner's active character when the
        owner has none in the campaign yet. ``log`` entries (``actor_id``, ``kind``, ``data``)
        are written to the campaign log in the same transaction. A limit > 0 is counted in
        that transaction: the campaign's characters (``max_in_campaign``) and, for a player's
        character, the owner's (``max_per_owner``); at a limit it raises TooManyCharacters
        and writes nothing."""
        ...

    async def get_character(self, character_id: int) -> CharacterRecord | None: ...
    async def characters(self, campaign_id: int) -> list[CharacterRecord]: ...
    async def update_character(
        self,
        character_id: int,
        *,
        expected_revision: int,
        name: str,
        sheet: Json,
        log: Sequence[tuple[int | None, str, Json]] = (),
    ) -> CharacterRecord:
        """Raises StaleRevision when the sheet changed since it was read. ``log`` entries
        (``actor_id``, ``kind``, ``data``) are written to the character's campaign log in the
        same transaction (an LP change and its entry: both or neither)."""
        ...

    async def delete_character(self, character_id: int) -> None: ...
    async def set_active_character(
        self, campaign_id: int, user_id: int, character_id: int
    ) -> None: ...
    async def active_character(self, campaign_id: int, user_id: int) -> CharacterRecord | None: ...

    # Telperinquár decks (per user; names unique per owner; card names are not checked here)
    async def create_deck(
        self, owner_id: int, name: str, cards: Sequence[tuple[str, int]] = ()
    ) -> DeckRecord:
        """Create a deck (empty, or with ``cards``: an imported list or a starter deck).
        Raises AlreadyExists("deck") when the owner has a deck of that name."""
        ...

    async def get_deck(self, owner_id: int, name: str) -> DeckRecord | None: ...
    async def decks(self, owner_id: int) -> list[DeckRecord]:
        """The owner's decks by name."""
        ...

    async def rename_deck(self, owner_id: int, name: str, new_name: str) -> DeckRecord | None:
        """None when there is no such deck; AlreadyExists("deck") when ``new_name`` is taken."""
        ...

    async def copy_deck(self, owner_id: int, name: str, new_name: str) -> DeckRecord | None:
        """A new deck with the same cards; None / AlreadyExists as for renaming."""
        ...

    async def delete_deck(self, owner_id: int, name: str) -> bool: ...
    async def change_deck_card(
        self, owner_id: int, name: str, card: str, delta: int
    ) -> DeckRecord | None:
        """Add (``delta`` > 0) or remove copies of ``card`` in one transaction (the count stays
        at least 0; a card at 0 leaves the list). None when there is no such deck."""
        ...

    async def set_deck_cards(
        self, owner_id: int, name: str, cards: Sequence[tuple[str, int]]
    ) -> DeckRecord | None:
        """Replace the whole list (an import over an existing deck)."""
        ...

    # A server's own content files (per guild and kind; ``name`` tells several apart, "" for
    # the one file of a kind). The text is stored as given: the game checks it before.
    async def put_content(
        self, guild_id: int, kind: str, text: str, author_id: int, name: str = ""
    ) -> bool:
        """Store the file, replacing an earlier one of that guild, kind and name; True when one
        was replaced."""
        ...

    async def get_content(
        self, guild_id: int, kind: str, name: str = ""
    ) -> ContentRecord | None: ...

    async def list_content(self, guild_id: int, kind: str) -> list[ContentRecord]:
        """The guild's files of that kind, by name."""
        ...

    async def delete_content(self, guild_id: int, kind: str, name: str = "") -> bool:
        """True when there was such a file."""
        ...

    # The web companion's tokens (sign-in links and sessions), by the hash of the token.
    async def put_web_token(
        self, token_hash: str, kind: str, user_id: int, guild_id: int, data: Json,
        expires_at: float, *, now: float,
    ) -> None:  # fmt: skip
        """Store a token; tokens expired at ``now`` are dropped in the same write."""
        ...

    async def take_web_token(self, token_hash: str, kind: str, now: float) -> WebTokenRecord | None:
        """Remove the token and return it when it exists with that ``kind`` and has not expired
        at ``now`` (one transaction: two uses at once get it once); else None."""
        ...

    async def get_web_token(self, token_hash: str, kind: str, now: float) -> WebTokenRecord | None:
        """The token of that ``kind`` unless it is missing or expired at ``now``."""
        ...

    async def delete_web_token(self, token_hash: str) -> bool:
        """True when there was such a token."""
        ...
