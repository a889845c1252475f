"""One step's working copy (:class:`Ctx`: the state so far, the events, the dice) and what
every section of the combat shares: the pending step, the standing log."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engines.core import Event, IllegalAction
from engines.dice.pool import PoolRoll, roll_pool
from engines.w6.state import (
    CombatState,
    Fighter,
    LogEntry,
    Pending,
)

MAX_POOL = 200


MIN_SUCCESSES = 2


class Ctx:
    """A working copy for one ``apply``: the state so far and the events emitted."""

    def __init__(self, state: CombatState) -> None:
        self.state = state
        self.events: list[Event] = []

    def f(self, fighter_id: str) -> Fighter:
        return self.state.fighter(fighter_id)

    def put(self, fighter: Fighter) -> None:
        self.state = self.state.with_fighter(fighter)

    def change(self, fighter_id: str, **values: Any) -> Fighter:
        fighter = replace(self.f(fighter_id), **values)
        self.put(fighter)
        return fighter

    def emit(self, event_type: str, /, **data: Any) -> None:
        self.events.append(Event(event_type, data))

    def emit_roll(
        self, event_type: str, roll: PoolRoll, required: int, /, bonus: int = 0, **data: Any
    ) -> bool:
        """Emit a roll against ``required`` successes (``bonus`` bought ones count too) with
        its dice, successes and outcome; returns whether it succeeded."""
        ok = roll.successes + bonus >= required
        self.emit(event_type, **data, **roll_data(roll), required=required, ok=ok)
        return ok

    def roll(self, count: int) -> PoolRoll:
        """``count`` W6: injected dice (``wuerfel``) first, the state's Rng for the rest."""
        count = max(0, min(count, MAX_POOL))
        forced = self.state.forced[:count]
        rolled, rng = roll_pool(count - len(forced), self.state.rng)
        self.state = replace(self.state, forced=self.state.forced[len(forced) :], rng=rng)
        return PoolRoll(tuple(forced) + rolled.dice)


def roll_data(roll: PoolRoll) -> dict[str, Any]:
    """The dice and successes of a roll as event data."""
    return {"dice": list(roll.dice), "successes": roll.successes}


def standing_log(log: tuple[LogEntry, ...]) -> list[LogEntry]:
    """The steps of ``log`` that still count: every ``zurueck`` removes the last one standing
    (logs of schema 1 kept undone steps and the undos; since then the log holds only standing
    steps)."""
    standing: list[LogEntry] = []
    for entry in log:
        if entry.action == "zurueck":
            if standing:
                standing.pop()
        else:
            standing.append(entry)
    return standing


def _pending(ctx: Ctx) -> Pending:
    if ctx.state.pending is None:
        raise IllegalAction("w6.combat.nothing_pending")
    return ctx.state.pending
