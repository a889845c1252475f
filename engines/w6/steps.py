"""The W6 combat as a pure reducer: ``step(state, action, seat) -> (state, events)``.

``seat`` 0 is the game master, who may act for every participant and records every join; a
player seat only for the participants its owner owns (see ``CombatState`` for the seat model).
The verbs are routed to their section: GM commands (``commands``), probes and blockades
(``probes``), attacks (``attacks``), the turn order (``turns``). Every rule number is cited in
data/w6/RULES.md. Raises IllegalAction (rule or permission) or BadInput (bad values).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engines.core import Event, IllegalAction
from engines.w6.actions import ANSWER_VERBS, GM_VERBS, CombatAction
from engines.w6.attacks import _announce, _answer, _attack, _decide, _follow_up, _sweep_choice
from engines.w6.commands import (
    _begin,
    _condition,
    _end,
    _force_dice,
    _join,
    _next_phase,
    _refresh,
    _remove,
    _repair,
    _rule,
    _set,
)
from engines.w6.ctx import Ctx
from engines.w6.probes import (
    _align,
    _break_through,
    _end_series_action,
    _end_turn,
    _mount,
    _plain_action,
    _reflex,
    _shield_wall,
    _shield_wall_end,
    _simple_probe,
    _spell,
)
from engines.w6.state import (
    CombatState,
    LogEntry,
    seat_of_owner,
)
from engines.w6.turns import _settle, _tie_choice, to_act


def step(state: CombatState, action: CombatAction, seat: int) -> tuple[CombatState, list[Event]]:
    """The state after seat ``seat`` takes ``action`` (the engine contract's ``apply``).

    Raises IllegalAction / BadInput as ``apply``; an undo is not a step (``undo``)."""
    if action.verb == "zurueck":
        raise IllegalAction("w6.combat.undo_not_a_step")
    if not 0 <= seat <= len(state.seats) + 1:
        raise IllegalAction("w6.combat.no_such_seat", seat=seat)
    if state.ended:
        raise IllegalAction("w6.combat.ended")
    _check_permission(state, action, seat)
    _check_pending(state, action)
    ctx = Ctx(state)
    HANDLERS[action.verb](ctx, action)
    _settle(ctx)
    return _record(state, ctx, action, seat), ctx.events


def _check_permission(state: CombatState, action: CombatAction, seat: int) -> None:
    if seat == 0:
        return
    if action.verb in GM_VERBS:
        raise IllegalAction("w6.combat.gm_only", verb=action.verb)
    if seat_of_owner(state, state.fighter(action.fighter).owner) != seat:
        raise IllegalAction("w6.combat.not_your_fighter", fighter=action.fighter)


def _check_pending(state: CombatState, action: CombatAction) -> None:
    pending = state.pending
    if pending is None:
        if action.verb in ANSWER_VERBS:
            raise IllegalAction("w6.combat.nothing_pending")
        return
    if action.verb in GM_VERBS and action.verb not in ("beginnen", "phase"):
        return
    if action.verb == "reflex" and action.fighter not in to_act(state):
        return  # REFLEX: «zu einem beliebigen Zeitpunkt», also while others answer an attack
    if action.verb not in ANSWER_VERBS:
        raise IllegalAction(
            "w6.combat.pending", stage=pending.stage, who=", ".join(sorted(to_act(state)))
        )
    if action.fighter not in to_act(state):
        raise IllegalAction("w6.combat.not_asked", fighter=action.fighter, stage=pending.stage)


def _record(before: CombatState, ctx: Ctx, action: CombatAction, seat: int) -> CombatState:
    entry = LogEntry(before.step + 1, seat, action.text(), tuple(e.type for e in ctx.events))
    return replace(ctx.state, step=before.step + 1, log=(*before.log, entry), undone=0)


HANDLERS: dict[str, Any] = {
    "beitritt": _join,
    "aktualisieren": _refresh,
    "beginnen": _begin,
    "phase": _next_phase,
    "ende": _end,
    "setze": _set,
    "zustand": _condition,
    "wuerfel": _force_dice,
    "entfernen": _remove,
    "regel": _rule,
    "reparieren": _repair,
    "angriff": _attack,
    "fern": _attack,
    "rundum": _attack,
    "beidhaendig": _attack,
    "finte": _attack,
    "ausrichten": _align,
    "durchbrechen": _break_through,
    "blockade": _shield_wall,
    "blockade_ende": _shield_wall_end,
    "zauber": _spell,
    "probe": _simple_probe,
    "handlung": _plain_action,
    "zielen": _plain_action,
    "reflex": _reflex,
    "weiter": _end_turn,
    "fertig": _end_turn,
    "aufsitzen": _mount,
    "absitzen": _mount,
    "serie_ende": _end_series_action,
    "ansage": _announce,
    "abwehr": _answer,
    "wuerfeln": _decide,
    "zurueckweichen": _decide,
    "nachschlagen": _follow_up,
    "verzichten": _follow_up,
    "rundum_weiter": _sweep_choice,
    "abbruch": _sweep_choice,
    "zuerst": _tie_choice,
    "danach": _tie_choice,
}
