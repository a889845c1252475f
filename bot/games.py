"""Turn-based games in a channel, for every engine: create, accept, act, load, export.

The cog of a game calls this; it keeps the one-way flow: the engine decides (through the
match wrapper, which adds resign / draw / forfeit), the store writes revision-guarded, and
the cog renders and replies. Bot opponents are seats whose user id is the bot's own; their
level lives in the game config (``ai_levels``: seat → level).

Idle games are the same for every turn-based game: :meth:`GameService.idle_due` says which
player to remind and for which to forfeit; the cog writes the reminder and shows the board.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, NamedTuple

from bot.store import GameRecord, StaleRevision, Store
from engines.core import Engine, Event, IllegalAction, Outcome, registry
from engines.core import match as m

INVITED, ACTIVE, FINISHED, DECLINED = "invited", "active", "finished", "declined"
REMIND, FORFEIT = "remind", "forfeit"


@dataclass(frozen=True)
class Turn:
    """The result of one accepted action: the stored record, the match and what happened."""

    record: GameRecord
    match: m.Match
    events: list[Event]
    actor: int

    @property
    def outcome(self) -> Outcome | None:
        return m.outcome(engine_of(self.record), self.match)


class IdleGame(NamedTuple):
    """A running game that waits too long for the player on ``seat``: ``due`` is
    :data:`REMIND` or :data:`FORFEIT`."""

    record: GameRecord
    due: str
    seat: int


def engine_of(record: GameRecord) -> Engine[Any, Any]:
    return registry()[record.kind]


def load(record: GameRecord) -> m.Match:
    return m.from_json(engine_of(record), record.snapshot)


class GameService:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def create(
        self,
        kind: str,
        config: dict[str, Any],
        *,
        channel_id: int,
        guild_id: int | None,
        players: list[int],
        invited: bool,
        seed: int | None = None,
    ) -> GameRecord:
        """A new game; ``invited`` games wait for the other players to accept.

        Raises BadInput for a config the engine does not accept.
        """
        engine = registry()[kind]
        seed = secrets.randbits(31) if seed is None else seed
        match = m.start(engine, _engine_config(config), seed, len(players))
        return await self.store.create_game(
            kind=kind,
            engine_version=engine.version,
            config=config,
            seed=seed,
            guild_id=guild_id,
            channel_id=channel_id,
            players=players,
            status=INVITED if invited else ACTIVE,
            snapshot=m.to_json(engine, match),
        )

    async def get(self, game_id: int) -> GameRecord:
        """Raises IllegalAction when there is no such game."""
        record = await self.store.get_game(game_id)
        if record is None:
            raise IllegalAction("error.no_such_game", id=game_id)
        return record

    async def answer_invitation(
        self, game_id: int, user_id: int, accept: bool, revision: int
    ) -> GameRecord:
        """The invited player accepts or declines. Raises IllegalAction / StaleRevision."""
        record = await self.get(game_id)
        if record.status != INVITED or record.revision != revision:
            raise StaleRevision()
        if user_id not in record.players[1:]:
            raise IllegalAction("error.not_invited")
        return await self.store.update_game(
            game_id,
            expected_revision=record.revision,
            snapshot=record.snapshot,
            status=ACTIVE if accept else DECLINED,
        )

    async def act(self, game_id: int, user_id: int, text: str, revision: int | None = None) -> Turn:
        """Apply ``text`` (engine notation or a meta action) for ``user_id``'s seat.

        ``revision`` is the one the clicked button was made for; a newer stored game refuses
        the click (StaleRevision). Raises IllegalAction for a non-player or an illegal move,
        BadInput for unreadable notation. Nothing is stored unless the move is legal.
        """
        record = await self.get(game_id)
        if revision is not None and revision != record.revision:
            raise StaleRevision()
        if record.status != ACTIVE:
            raise IllegalAction("error.game_not_running")
        seat = self.seat_for(record, user_id)
        return await self.apply_for_seat(record, seat, text)  # never as the referee

    @staticmethod
    def seat_for(record: GameRecord, user_id: int) -> int:
        """The seat of ``user_id``; with two seats of the same user (self-play) the one to act."""
        seats = [i for i, p in enumerate(record.players) if p == user_id]
        if not seats:
            raise IllegalAction("error.not_a_player")
        if len(seats) > 1:
            to_act = m.to_act(engine_of(record), load(record))
            seats = [s for s in seats if s in to_act] or seats
        return seats[0]

    async def apply_for_seat(
        self, record: GameRecord, seat: int, text: str, *, referee: bool = False
    ) -> Turn:
        """Apply ``text`` for ``seat``; ``referee`` only for the bot's own meta actions."""
        engine = engine_of(record)
        match, events = m.apply(engine, load(record), text, seat, referee=referee)
        finished = m.outcome(engine, match) is not None
        stored = await self.store.update_game(
            record.id,
            expected_revision=record.revision,
            snapshot=m.to_json(engine, match),
            actions=[(seat, text)],
            status=FINISHED if finished else None,
        )
        return Turn(stored, match, events, seat)

    async def undo_last(self, record: GameRecord) -> GameRecord:
        """The game without its last action, for every engine: the stored log without it,
        replayed from the same config and seed (so the same dice come again), stored with the
        last action row deleted. Who may undo is the cog's rule. Raises IllegalAction
        ("error.nothing_to_undo") for a game without actions, StaleRevision when the game
        moved on since ``record`` was read."""
        engine = engine_of(record)
        actions = await self.store.game_actions(record.id)
        if not actions:
            raise IllegalAction("error.nothing_to_undo")
        match = m.start(engine, _engine_config(record.config), record.seed, len(record.players))
        for seat, text in actions[:-1]:
            match, _events = m.apply(engine, match, text, seat, referee=True)
        finished = m.outcome(engine, match) is not None
        return await self.store.drop_last_game_action(
            record.id,
            expected_revision=record.revision,
            snapshot=m.to_json(engine, match),
            status=FINISHED if finished else ACTIVE,
        )

    async def idle_due(
        self,
        now: float,
        reminder_s: float,
        forfeit_s: float,
        *,
        kind: str | None = None,
        bots: Collection[int] = (),
    ) -> list[IdleGame]:
        """Running games (of ``kind``, or all) that wait for exactly one person (users in
        ``bots`` never keep a game waiting): forfeits for the games idle ``forfeit_s`` seconds,
        then reminders for the games idle ``reminder_s`` seconds and not reminded since their
        last move. A game due for a forfeit is not listed for a reminder as well."""
        due: list[IdleGame] = []
        for record in await self.store.games_idle_since(now - forfeit_s):
            seat = _waiting_seat(record, kind, bots)
            if seat is not None:
                due.append(IdleGame(record, FORFEIT, seat))
        forfeited = {idle.record.id for idle in due}
        for record in await self.store.games_idle_since(now - reminder_s, unreminded_only=True):
            seat = _waiting_seat(record, kind, bots)
            if seat is not None and record.id not in forfeited:
                due.append(IdleGame(record, REMIND, seat))
        return due

    async def forfeit(self, record: GameRecord, seat: int) -> Turn:
        """``seat`` loses the game for keeping it waiting. Raises StaleRevision when the game
        moved on since ``record`` was read."""
        return await self.apply_for_seat(record, seat, f"!forfeit {seat}", referee=True)

    async def mark_reminded(self, record: GameRecord) -> None:
        """The reminder for ``record`` was sent; no other until the next move."""
        await self.store.mark_reminded(record.id)

    async def running_in_channel(
        self, channel_id: int, kind: str | None = None
    ) -> list[GameRecord]:
        return await self.store.games_in_channel(channel_id, kind=kind, statuses=(INVITED, ACTIVE))

    async def export(self, record: GameRecord) -> dict[str, Any]:
        """The game record: config, seed, players and every action, replayable."""
        actions = await self.store.game_actions(record.id)
        return {
            "game": record.kind,
            "engine_version": record.engine_version,
            "id": record.id,
            "config": record.config,
            "seed": record.seed,
            "players": record.players,
            "status": record.status,
            "actions": [{"seat": seat, "action": text} for seat, text in actions],
        }


def _waiting_seat(record: GameRecord, kind: str | None, bots: Collection[int]) -> int | None:
    """The one seat of a person the game waits for (None for another kind, or when it waits
    for a bot or for several players)."""
    if kind is not None and record.kind != kind:
        return None
    seats = [s for s in m.to_act(engine_of(record), load(record)) if record.players[s] not in bots]
    return seats[0] if len(seats) == 1 else None


def _engine_config(config: dict[str, Any]) -> dict[str, Any]:
    """The part of a game's config the engine sees (``ai_levels`` is the cog's business)."""
    return {k: v for k, v in config.items() if k != "ai_levels"}
