"""The sweeps over running games: every person whose open decision keeps a game waiting
(reminders, then forfeits, which eliminate that seat) and every REACTION left unanswered past
the reaction limit (answered with the engine's timeout action, its pass, as that seat's own
logged action; the seat stays in the game). Part of the game service (``bot.games``).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, NamedTuple

from bot.game_core import (
    ACTIVE,
    REACTION_KEY,
    RETRIES,
    ServiceCore,
    Turn,
    bot_seats,
    engine_of,
    load,
)
from bot.store import GameRecord, StaleRevision
from engines.core import Engine
from engines.core import match as m
from engines.core.contract import Decision, DecisionKind, TimeoutActions, timeout_action

REMIND, FORFEIT, TIMED_OUT = "remind", "forfeit", "timed_out"
REACTION_FLOOR_S = 60  # the shortest reaction limit (a minute: the sweep's own pace)


class IdleGame(NamedTuple):
    """A running game that waits too long for the person on ``seat`` (open ``decision``):
    ``due`` is :data:`REMIND`, :data:`FORFEIT` or :data:`TIMED_OUT` (a reaction to pass)."""

    record: GameRecord
    due: str
    seat: int
    decision: str | None = None


class Sweeps(ServiceCore):
    """Idle seats reminded and forfeited; reactions timed out."""

    async def idle_due(
        self,
        now: float,
        reminder_s: float,
        forfeit_s: float,
        *,
        kind: str | None = None,
        bots: Collection[int] = (),
    ) -> list[IdleGame]:
        """Every person (not a bot seat, not a user in ``bots``) whose open decision keeps a
        running game (of ``kind``, or all) waiting: forfeits for the games idle ``forfeit_s``
        seconds, then reminders for the games idle ``reminder_s`` seconds and not reminded
        since their last move. A game due for forfeits is not listed for reminders as well.
        Games whose engine says ``idle_sweep = False`` (they wait for the whole table, such as
        a W6 combat) are never listed."""
        due: list[IdleGame] = []
        for record in await self.store.games_idle_since(now - forfeit_s):
            due += [IdleGame(record, FORFEIT, d.seat, d.id) for d in _waiting(record, kind, bots)]
        forfeited = {idle.record.id for idle in due}
        for record in await self.store.games_idle_since(now - reminder_s, unreminded_only=True):
            if record.id not in forfeited:
                waiting = _waiting(record, kind, bots)
                due += [IdleGame(record, REMIND, d.seat, d.id) for d in waiting]
        return due

    async def forfeit(self, record: GameRecord, seat: int, decision: str | None = None) -> Turn:
        """``seat`` leaves the game for keeping it waiting. With ``decision`` (the open
        decision it was idle on) a game that moved on meanwhile is re-read and the forfeit
        still applies while that decision is open (another idle seat of the same game was
        forfeited first); otherwise, or once it is answered, raises StaleRevision."""
        for _attempt in range(RETRIES):
            try:
                return await self.apply_for_seat(record, seat, f"!forfeit {seat}", referee=True)
            except StaleRevision:
                if decision is None:
                    raise
                record = await self.get(record.id)
                if record.status != ACTIVE or not m.decision_open(
                    engine_of(record), load(record), seat, decision
                ):
                    raise
        raise StaleRevision()

    async def reactions_due(
        self,
        now: float,
        limit_s: float,
        *,
        kind: str | None = None,
        bots: Collection[int] = (),
    ) -> list[IdleGame]:
        """Every person's open REACTION decision (as :meth:`idle_due` counts them) in a game
        with no move for longer than its reaction limit (its config ``reaction_minutes``, else
        ``limit_s``; 0 or less: none), whose engine answers it when the time is up."""
        due: list[IdleGame] = []
        for record in await self.store.games_idle_since(now - REACTION_FLOOR_S):
            limit = reaction_limit_s(record, limit_s)
            if kind is not None and record.kind != kind:
                continue
            if limit <= 0 or record.updated_at >= now - limit:
                continue
            if not isinstance(engine_of(record), TimeoutActions):
                continue
            state = load(record).state
            due += [
                IdleGame(record, TIMED_OUT, d.seat, d.id)
                for d in _waiting(record, kind, bots)
                if d.kind == DecisionKind.REACTION
                and timeout_action(engine_of(record), state, d) is not None
            ]
        return due

    async def time_out(self, record: GameRecord, seat: int, decision: str) -> Turn:
        """Answer ``seat``'s reaction ``decision`` with the engine's timeout action (its pass),
        as that seat's own action. A game that moved on meanwhile is re-read; raises
        StaleRevision once the decision is no longer open (answered in the meantime)."""
        for _attempt in range(RETRIES):
            engine = engine_of(record)
            match = load(record)
            open_ = [d for d in m.decisions(engine, match) if d.seat == seat and d.id == decision]
            action = timeout_action(engine, match.state, open_[0]) if open_ else None
            if record.status != ACTIVE or action is None:
                raise StaleRevision()
            try:
                return await self.apply_for_seat(record, seat, engine.action_text(action))
            except StaleRevision:
                record = await self.get(record.id)
        raise StaleRevision()

    async def mark_reminded(self, record: GameRecord) -> None:
        """The reminders for ``record`` were sent; no other until the next move."""
        await self.store.mark_reminded(record.id)


def _waiting(record: GameRecord, kind: str | None, bots: Collection[int]) -> list[Decision]:
    """The open decisions of people (not bot seats) that keep ``record`` waiting."""
    if kind is not None and record.kind != kind:
        return []
    if record.status != ACTIVE or not idle_sweep(engine_of(record)):
        return []
    robots = bot_seats(record)
    seen: set[int] = set()
    waiting = []
    for decision in m.decisions(engine_of(record), load(record)):
        person = decision.seat not in robots and record.players[decision.seat] not in bots
        if person and decision.waits and decision.seat not in seen:
            seen.add(decision.seat)
            waiting.append(decision)
    return waiting


def idle_sweep(engine: Engine[Any, Any]) -> bool:
    """Whether idle reminders and forfeits apply to the engine's games (an engine that waits
    for the whole table rather than one player says ``idle_sweep = False``)."""
    return bool(getattr(engine, "idle_sweep", True))


def reaction_limit_s(record: GameRecord, default_s: float) -> float:
    """Seconds a reaction of ``record`` may stay unanswered: the game's own
    ``reaction_minutes``, else ``default_s``; 0 or less: no limit, else at least a minute."""
    own = record.config.get(REACTION_KEY)
    limit = default_s  # no number of minutes (or none given): the setting
    if isinstance(own, int | float) and not isinstance(own, bool):
        limit = float(own) * 60
    return max(limit, REACTION_FLOOR_S) if limit > 0 else 0.0
