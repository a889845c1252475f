"""The combat for a Discord user (``apply``), its history and how it is stored.

``apply(state, action, user)`` is ``steps.step`` for a Discord user id (the GM and co-GMs act
as ``state.gm``; a player's join of their own fighters is admitted as seat 0). An undo is no
step: ``undo`` replays the log without its last step. ``state_to_json``/``state_from_json``:
the core ``Schema`` (version 3, fields at the top); versions 1 and 2 were a wrapper
``{"schema": "w6.combat", "version": n, "state": {...}}``, read through the upgrade steps
(version 1 needs the replay: ``upgrade_v1``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from engines.core import BadInput, EngineError, Event, IllegalAction
from engines.core.codec import JsonObject, Schema, encode_object
from engines.w6.actions import CombatAction, parse_action
from engines.w6.attacks import kw_defence_allowed
from engines.w6.codec import CODEC, decode, encode
from engines.w6.commands import _payload_entries
from engines.w6.ctx import standing_log
from engines.w6.state import (
    STATE_VERSION,
    CombatState,
    LogEntry,
    from_v2,
    new_combat,
    seat_of_owner,
    unwrap,
)
from engines.w6.steps import step


def apply(state: CombatState, action: CombatAction, actor: int) -> tuple[CombatState, list[Event]]:
    """The state after the Discord user ``actor`` takes ``action`` (the GM and co-GMs act as
    ``state.gm``, seat 0; a player as their seat, a newcomer as the next seat), and the events
    to narrate. ``zurueck`` (the GM only) is ``undo``.

    Raises IllegalAction (``w6.combat.*``) when the rules or permissions forbid it and
    BadInput for values out of range; the input state is never changed.
    """
    if action.verb == "zurueck":
        if actor != state.gm:
            raise IllegalAction("w6.combat.gm_only", verb="zurueck")
        return undo(state)
    if action.verb == "beitritt" and actor != state.gm:
        for entry in _payload_entries(action.payload):
            if entry.get("owner") != actor:
                raise IllegalAction("w6.combat.not_your_fighter", fighter=str(entry.get("name")))
        return step(state, action, 0)  # the table admits a player's own fighters
    return step(state, action, seat_of_owner(state, actor))


def initial_of(state: CombatState) -> CombatState:
    """The state ``state.log`` replays from (the fresh combat, or the carried-over ``base``)."""
    if state.base:
        return replace(state_from_json(json.loads(state.base)), base=state.base)
    return new_combat(state.gm, state.rng.seed, state.start, state.roster)


def replay(initial: CombatState, log: Iterable[tuple[int, str]]) -> CombatState:
    """The state after the steps ``log`` (seat, notation) from ``initial``. Raises as ``step``
    (a stored log replays without error)."""
    state = initial
    for seat, text in log:
        state, _events = step(state, parse_action(text), seat)
    return state


def _undoable(state: CombatState) -> int:
    """How many steps of the log lie after the state it replays from."""
    start = len(initial_of(state).log) if state.base else 0
    return len(state.log) - start


def can_undo(state: CombatState) -> bool:
    """Whether ``undo`` would take a step back (a step to undo, and fewer undos in a row than
    ``Settings.undo_tiefe``)."""
    return state.undone < state.settings.undo_tiefe and _undoable(state) > 0


def undo(state: CombatState) -> tuple[CombatState, list[Event]]:
    """The state without the last step: the log without it, replayed from the start (the same
    dice come again); seats that left stay gone.

    Raises IllegalAction("w6.combat.nothing_to_undo")."""
    if not can_undo(state):
        raise IllegalAction("w6.combat.nothing_to_undo")
    initial = initial_of(state)
    last = state.log[-1]
    kept = state.log[len(initial.log) : -1]
    restored = replay(initial, ((entry.actor, entry.action) for entry in kept))
    events = [
        Event("undone", {"action": last.action, "step": state.step, "undone_step": last.step})
    ]
    return replace(restored, undone=state.undone + 1, gone=state.gone), events


def state_to_json(state: CombatState) -> JsonObject:
    """Plain JSON data (``{"schema": 3, ...fields}``); ``state_from_json`` reads it back to an
    equal state."""
    return STORED.dump(state)


def state_from_json(data: object) -> CombatState:
    """The combat stored as ``data`` by any version. Raises BadInput("w6.combat.bad_state")
    for data of another schema, version or shape (naming the field). A state of version 1
    (running combats from before seats) is carried over: see ``upgrade_v1``."""
    return STORED.load(unwrap(data))


def _from_v1(body: JsonObject) -> JsonObject:
    """Version 1 -> 2 (``upgrade_v1``, in the JSON the next step reads)."""
    return encode_object(upgrade_v1(body))


def upgrade_v1(body: dict[str, Any]) -> CombatState:
    """A combat stored with schema 1 (undo snapshots, user ids in the log) as schema 2: the
    snapshots go, the log keeps its standing steps with seats for users, the seats follow the
    owners in join order. When that log replays to the same combat, undo reaches back through
    it; otherwise the carried-over state becomes the ``base`` the log replays from."""
    data = {key: value for key, value in body.items() if key != "previous"}
    if isinstance(data.get("pending"), dict):
        data["pending"] = {**data["pending"], "nr": 0}
    old_log: tuple[LogEntry, ...] = decode(tuple[LogEntry, ...], data.get("log"), "log")
    standing = standing_log(old_log)
    gm = data.get("gm")
    seats: list[int] = []
    owners = [entry.get("owner") for item in standing for entry in _joined(item.action)]
    owners += [f.get("owner") for f in data.get("fighters", []) if isinstance(f, dict)]
    for owner in owners:
        if isinstance(owner, int) and owner != gm and owner not in seats:
            seats.append(owner)

    def seat(actor: int) -> int:
        return seats.index(actor) + 1 if actor in seats else 0

    log = tuple(replace(entry, actor=seat(entry.actor)) for entry in standing)
    data |= {"log": encode(log), "seats": seats, "start": data.get("settings"), "roster": []}
    data |= {"base": "", "undone": 0, "gone": []}
    state: CombatState = decode(CombatState, data, "")
    try:
        replayed = replay(initial_of(state), ((e.actor, e.action) for e in log))
        if state.pending is not None and replayed.pending is not None:
            state = replace(state, pending=replace(state.pending, nr=replayed.pending.nr))
        same = replace(replayed, log=log, step=state.step) == state
    except EngineError:
        same = False
    if same:
        return state
    return replace(state, base=json.dumps(state_to_json(state), separators=(",", ":")))


def _joined(action: str) -> list[dict[str, Any]]:
    verb, _, payload = action.partition(" ")
    if verb != "beitritt":
        return []
    try:
        return _payload_entries(payload)
    except BadInput:
        return []


STORED: Schema[CombatState] = Schema(
    CombatState, STATE_VERSION, CODEC, "w6.combat.bad_state", {1: _from_v1, 2: from_v2}
)


__all__ = [
    "STATE_VERSION",
    "apply",
    "can_undo",
    "initial_of",
    "kw_defence_allowed",
    "replay",
    "state_from_json",
    "state_to_json",
    "step",
    "undo",
    "upgrade_v1",
]
