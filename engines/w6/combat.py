"""The W6 combat tracker as a pure reducer: ``step(state, action, seat) -> (state, events)``.

``seat`` 0 is the game master, who may act for every participant and records every join; a
player seat only for the participants its owner owns (see ``CombatState`` for the seat model).
``apply(state, action, user)`` is the same step for a Discord user id (the GM and co-GMs act as
``state.gm``; a player's join of their own fighters is admitted as seat 0). An undo is no step:
``undo`` replays the log without its last step. Every rule number is cited in
data/w6/RULES.md. Raises IllegalAction (rule or permission) or BadInput (bad values).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import replace
from typing import Any, TypeVar

from engines.core import BadInput, EngineError, Event, IllegalAction
from engines.core.jsontext import load_json
from engines.dice.pool import PoolRoll, roll_pool
from engines.w6.actions import ANSWER_VERBS, GM_VERBS, MAX_PAYLOAD_BYTES, CombatAction, parse_action
from engines.w6.codec import decode, encode
from engines.w6.state import (
    CONDITIONS,
    DYING,
    MAX_FIGHTERS,
    MAX_UNDO,
    RANGED_DEFENCE,
    SETTING_NAMES,
    UNCONSCIOUS,
    WEAPON_LOST,
    CombatState,
    Defence,
    Fighter,
    LogEntry,
    Pending,
    ShieldStats,
    WeaponStats,
    check_fighter_id,
    new_combat,
    seat_of_owner,
    state_from_json,
    state_to_json,
)
from engines.w6.tables import sizes, technique, zones

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


# ----------------------------------------------------------------------------- entry


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


# ----------------------------------------------------------------------------- undo


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


# ----------------------------------------------------------------------------- turns


def can_still_act(state: CombatState, fighter: Fighter) -> bool:
    """Whether ``fighter`` could still use a Handlung this phase (never while unconscious,
    dying or at LP 0 or below)."""
    return fighter.able and not fighter.fertig and fighter.handlungen_left > 0


def _locked_by_series(state: CombatState, fighter_id: str) -> bool:
    return any(
        f.serie_ziel == fighter_id and f.serie_zahl > 0 and can_still_act(state, f)
        for f in state.fighters
    )


def turn_holder(state: CombatState) -> str:
    """Whose turn it is as the table sees it: ``state.current``, but while that fighter is
    held in an Angriffsserie, the attacker who holds the series ('' when nobody)."""
    current = state.current
    if not current or not _locked_by_series(state, current):
        return current
    return next(
        (f.id for f in state.fighters if f.serie_ziel == current and can_still_act(state, f)), ""
    )


def may_act_now(state: CombatState, fighter: Fighter) -> bool:
    """Whether ``fighter`` may take an active action now (its turn, or a held Handlung
    right after someone else acted)."""
    if state.phase < 1 or state.pending is not None or state.ended:
        return False
    if not can_still_act(state, fighter) or _locked_by_series(state, fighter.id):
        return False
    if state.current == fighter.id:
        return True
    if fighter.serie_zahl and state.find(fighter.serie_ziel) is not None:
        return True  # ANGRIFFSSERIE: «mehrere Angriffe gegen denselben Gegner in Folge»
    if not fighter.turn_done:
        return False
    alone = not any(can_still_act(state, f) for f in state.fighters if f.id != fighter.id)
    if alone:
        return True
    # a held Handlung «immer dann …, wenn gerade ein anderer Beteiligter gehandelt hat»:
    # before anyone acted in the phase it waits, unless the order has run through (then
    # somebody has to begin)
    if not state.last_actor:
        return state.turn == -1
    return state.last_actor != fighter.id


def to_act(state: CombatState) -> frozenset[str]:
    """Participants who must (pending step) or may (turn, held Handlungen) act now."""
    if state.ended or state.phase < 1:
        return frozenset()
    pending = state.pending
    if pending is not None:
        if pending.stage in ("ansage", "rundum", "nachschlagen", "reihenfolge"):
            return frozenset({pending.attacker})
        wanted = "offen" if pending.stage == "abwehr" else "entscheidung"
        return frozenset(d.target for d in pending.targets if d.state == wanted)
    return frozenset(f.id for f in state.fighters if may_act_now(state, f))


def _begin_active(ctx: Ctx, action: CombatAction, handlungen: int = 1) -> Fighter:
    """Check that the fighter may act now and spend ``handlungen``. Raises IllegalAction."""
    state = ctx.state
    fighter = ctx.f(action.fighter)
    if state.phase < 1:
        raise IllegalAction("w6.combat.not_started")
    if not fighter.conscious:
        raise IllegalAction("w6.combat.unconscious", fighter=fighter.id)
    if not fighter.able:
        raise IllegalAction("w6.combat.out_of_fight", fighter=fighter.id, lp=fighter.lp)
    if _locked_by_series(state, fighter.id):
        raise IllegalAction("w6.combat.in_series", fighter=fighter.id)
    if not may_act_now(state, fighter):
        raise IllegalAction("w6.combat.not_your_turn", fighter=fighter.id, current=state.current)
    if fighter.handlungen_left < handlungen:
        raise IllegalAction(
            "w6.combat.no_handlung",
            fighter=fighter.id,
            have=fighter.handlungen_left,
            need=handlungen,
        )
    if action.verb != "angriff" and fighter.serie_zahl:
        fighter = _end_series(ctx, fighter.id, "other_action")
    if action.verb not in ("zielen", "fern"):
        fighter = replace(fighter, zielen=0)
    fighter = replace(fighter, handlungen_left=fighter.handlungen_left - handlungen)
    ctx.put(fighter)
    ctx.state = replace(ctx.state, last_actor=fighter.id)
    return fighter


def _spend_kw(ctx: Ctx, fighter_id: str, amount: int) -> Fighter:
    fighter = ctx.f(fighter_id)
    if amount < 0:
        raise BadInput("w6.combat.negative", value=amount)
    if amount > fighter.kw_left:
        raise IllegalAction(
            "w6.combat.not_enough_kw", fighter=fighter_id, have=fighter.kw_left, need=amount
        )
    return ctx.change(fighter_id, kw_left=fighter.kw_left - amount)


def _new_phase(ctx: Ctx) -> None:
    state = ctx.state
    joined = {f.id: index for index, f in enumerate(state.fighters)}
    ordered = sorted(state.fighters, key=lambda f: (-f.ab, -f.intuition, joined[f.id]))
    fresh = tuple(
        replace(
            f,
            kw_left=f.phase_kw(),
            handlungen_left=f.handlungen_max,
            reflex_used=False,
            turn_done=False,
            fertig=False,
            serie_ziel="",
            serie_zahl=0,
            serie_gesperrt=(),
            ausrichten=0,
            zielen=0,  # ZIELEN lapses with the phase (RULES.md, Fernkampf)
        )
        for f in state.fighters
    )
    ctx.state = replace(
        state,
        fighters=fresh,
        order=tuple(f.id for f in ordered),
        phase=state.phase + 1,
        turn=0,
        last_actor="",
        tie_asked=(),
    )
    # who is down (unconscious, dying, LP 0) gets no turn and is not named in the order
    able = [i for i in ctx.state.order if ctx.f(i).able]
    ctx.emit("phase_started", phase=ctx.state.phase, order=able)


def _settle(ctx: Ctx) -> None:
    """Move the turn on past whoever cannot act, and start the next phase when nobody can."""
    state = ctx.state
    if state.phase < 1 or state.pending is not None or state.ended:
        return
    for _ in range(len(state.order) + 1):
        current = ctx.state.current
        if not current:
            break
        fighter = ctx.f(current)
        if can_still_act(ctx.state, fighter) and not fighter.turn_done:
            break
        ctx.put(replace(fighter, turn_done=True))
        ctx.state = replace(ctx.state, turn=ctx.state.turn + 1)
        if ctx.state.turn >= len(ctx.state.order):
            ctx.state = replace(ctx.state, turn=-1)
    if ctx.state.settings.freie_folgephasen and ctx.state.phase >= 2 and ctx.state.last_actor:
        ctx.state = replace(
            ctx.state,
            turn=-1,
            fighters=tuple(replace(f, turn_done=True) for f in ctx.state.fighters),
        )
    if ctx.state.current and _ask_tie(ctx):
        return
    if ctx.state.turn == -1 and not any(can_still_act(ctx.state, f) for f in ctx.state.fighters):
        if not any(f.able and f.handlungen_max > 0 for f in ctx.state.fighters):
            return  # nobody could act in a new phase either: the GM decides how it goes on
        ctx.emit("phase_ended", phase=ctx.state.phase)
        _new_phase(ctx)
        _settle(ctx)


def _ask_tie(ctx: Ctx) -> bool:
    """KAMPFPHASEN UND AKTIONSBASIS: when the turn reaches fighters of the same AB who can
    still act, «derjenige mit der höheren Intuition (IN) [darf] entscheiden, ob er zuerst
    oder nachfolgend handelt»: the one with the highest Intuition (strictly; equal Intuition
    keeps the join order) is asked once per phase. Returns whether a question is pending."""
    state = ctx.state
    first = state.fighter(state.current)
    if first.id in state.tie_asked:
        return False
    group = [
        f
        for f in (state.fighter(i) for i in state.order)
        if f.ab == first.ab and can_still_act(state, f) and not f.turn_done
    ]
    others = [f for f in group if f.id != first.id]
    if first not in group or not others or first.intuition <= max(f.intuition for f in others):
        return False
    ctx.state = replace(
        state,
        tie_asked=(*state.tie_asked, first.id),
        pending=Pending(
            stage="reihenfolge",
            kind="reihenfolge",
            attacker=first.id,
            targets=tuple(Defence(f.id) for f in others),
            nr=state.step + 1,
        ),
    )
    ctx.emit("order_asked", fighter=first.id, others=[f.id for f in others], ab=first.ab)
    return True


def _tie_choice(ctx: Ctx, action: CombatAction) -> None:
    """``zuerst``: act now; ``danach``: act after the others of the same AB."""
    pending = _pending(ctx)
    if pending.stage != "reihenfolge":
        raise IllegalAction("w6.combat.not_asked", fighter=action.fighter, stage=pending.stage)
    ctx.state = replace(ctx.state, pending=None)
    first = action.verb == "zuerst"
    order = [i for i in ctx.state.order if i != pending.attacker]
    others = [order.index(d.target) for d in pending.targets if d.target in order]
    if not first and others:
        order.insert(max(others) + 1, pending.attacker)
        ctx.state = replace(ctx.state, order=tuple(order))
    ctx.emit("order_chosen", fighter=pending.attacker, what=action.verb)


# ----------------------------------------------------------------------------- GM commands


def _payload_entries(payload: str) -> list[dict[str, Any]]:
    """The participant objects of a ``beitritt``/``aktualisieren`` payload (one object or a
    list). Raises BadInput("w6.action.bad_notation")."""
    try:  # bounded nesting and numbers: a payload of 5,000 ``[`` raised RecursionError
        data = load_json(payload, max_bytes=MAX_PAYLOAD_BYTES)
    except BadInput:
        raise BadInput("w6.action.bad_notation", text=payload) from None
    entries = data if isinstance(data, list) else [data]
    if not entries or not all(isinstance(entry, dict) for entry in entries):
        raise BadInput("w6.action.bad_notation", text=payload)
    return entries


def _join(ctx: Ctx, action: CombatAction) -> None:
    for entry in _payload_entries(action.payload):
        _join_one(ctx, decode(Fighter, entry, "fighter"))


def _join_one(ctx: Ctx, fighter: Fighter) -> None:
    check_fighter_id(fighter.id)
    if len(ctx.state.fighters) >= MAX_FIGHTERS:
        raise IllegalAction("w6.combat.too_many_fighters", max=MAX_FIGHTERS)
    if ctx.state.find(fighter.id) is not None:
        raise IllegalAction("w6.combat.duplicate_id", fighter=fighter.id)
    started = ctx.state.phase >= 1
    fighter = replace(
        fighter,
        kw_left=fighter.phase_kw() if started else 0,
        handlungen_left=fighter.handlungen_max if started else 0,
        turn_done=started,
    )
    dying = fighter.lp < 0 and not fighter.has(DYING)
    if dying:  # SCHADEN: «Sinken die LP auf einen Wert kleiner als Null …» applies at once
        fighter = replace(fighter, conditions=(*fighter.conditions, DYING))
    order = (*ctx.state.order, fighter.id) if started else ctx.state.order
    seats = ctx.state.seats
    if seat_of_owner(ctx.state, fighter.owner) > len(seats):
        seats = (*seats, fighter.owner) if fighter.owner is not None else seats
    ctx.state = replace(
        ctx.state, fighters=(*ctx.state.fighters, fighter), order=order, seats=seats
    )
    ctx.emit("joined", fighter=fighter.id, name=fighter.name, ab=fighter.ab, lp=fighter.lp)
    if dying:
        ctx.emit("dying", fighter=fighter.id, lp=fighter.lp)


# What a refresh takes from the sheet; everything else (LP, KW and Handlungen left, conditions,
# the state of techniques) stays as the combat left it.
SHEET_VALUES = (
    "name", "ab", "intuition", "handlungen_max", "kw_max", "reflex", "magie", "lp_max", "rlp",
    "gesamtschutz", "zonen", "kraft", "k", "g", "b", "schildkampf", "beidhaendig", "reittier_be",
)  # fmt: skip


def _refresh(ctx: Ctx, action: CombatAction) -> None:
    """Take a participant's sheet values again (the GM fixed the sheet during the combat):
    LP stay as the combat left them (at most the new LP max), KW and Handlungen left stay
    spent, the Schwelle and worn stability keep what the combat took off."""
    if ctx.state.pending is not None:
        raise IllegalAction("w6.combat.pending", stage=ctx.state.pending.stage, who="")
    for entry in _payload_entries(action.payload):
        sheet: Fighter = decode(Fighter, entry, "fighter")
        old = ctx.f(sheet.id)
        base = _last_snapshot(ctx.state, sheet.id) or old
        changes: dict[str, Any] = {name: getattr(sheet, name) for name in SHEET_VALUES}
        refreshed = replace(
            old,
            **changes,
            lp=min(old.lp, sheet.lp_max),
            schwelle=sheet.schwelle - (base.schwelle - old.schwelle),
            waffen=tuple(_keep_wear(old.weapon(w.name), w) for w in sheet.waffen),
            schild=None if sheet.schild is None else _keep_wear(old.schild, sheet.schild),
        )
        ctx.put(refreshed)
        ctx.emit("refreshed", fighter=old.id, name=refreshed.name, lp=refreshed.lp)


def _last_snapshot(state: CombatState, fighter_id: str) -> Fighter | None:
    """The participant as the last standing ``beitritt``/``aktualisieren`` brought it in."""
    for entry in reversed(standing_log(state.log)):
        verb, _, payload = entry.action.partition(" ")
        if verb not in ("beitritt", "aktualisieren"):
            continue
        for data in _payload_entries(payload):
            if data.get("id") == fighter_id:
                found: Fighter = decode(Fighter, data, "fighter")
                return found
    return None


def _keep_wear(old: _Worn | None, new: _Worn) -> _Worn:
    """``new`` with the stability points the combat wore off ``old`` (same item) still off."""
    if old is None or not (old.stab_je and new.stab_je):
        return new
    worn = old.stab_max - old.stab
    return replace(new, stab=max(0, new.stab - worn), stab_erfolge=old.stab_erfolge)


def _begin(ctx: Ctx, action: CombatAction) -> None:
    if ctx.state.phase >= 1:
        raise IllegalAction("w6.combat.already_started")
    if not ctx.state.fighters:
        raise IllegalAction("w6.combat.no_fighters")
    ctx.emit("combat_started", fighters=len(ctx.state.fighters))
    _new_phase(ctx)


def _next_phase(ctx: Ctx, action: CombatAction) -> None:
    if ctx.state.phase < 1:
        raise IllegalAction("w6.combat.not_started")
    if ctx.state.pending is not None:
        raise IllegalAction("w6.combat.pending", stage=ctx.state.pending.stage, who="")
    ctx.emit("phase_ended", phase=ctx.state.phase)
    _new_phase(ctx)


def _end(ctx: Ctx, action: CombatAction) -> None:
    ctx.state = replace(ctx.state, ended=True, pending=None)
    ctx.emit("combat_ended", phase=ctx.state.phase, lp={f.id: f.lp for f in ctx.state.fighters})


_SET_MAP = {"kw": "kw_left", "handlungen": "handlungen_left", "malus": "kw_malus"}


def _set(ctx: Ctx, action: CombatAction) -> None:
    fighter = ctx.f(action.targets[0])
    changes: dict[str, Any] = {}
    for key, value in action.opts:
        number = int(value)
        if number < 0 and key not in ("lp", "ab"):
            raise BadInput("w6.combat.negative", value=number, field=key)
        changes[_SET_MAP.get(key, key)] = number
    if not changes:
        raise BadInput("w6.action.option_needed", verb="setze")
    ctx.put(replace(fighter, **changes))
    ctx.emit("overridden", fighter=fighter.id, values=dict(changes))


def _condition(ctx: Ctx, action: CombatAction) -> None:
    fighter = ctx.f(action.targets[0])
    conditions = list(fighter.conditions)
    for change in action.targets[1:]:
        sign, name = change[:1], change[1:]
        if sign not in "+-" or not sign or name not in CONDITIONS:
            raise BadInput("w6.combat.bad_condition", value=change, allowed=", ".join(CONDITIONS))
        if sign == "+" and name not in conditions:
            conditions.append(name)
        if sign == "-" and name in conditions:
            conditions.remove(name)
    ctx.put(replace(fighter, conditions=tuple(conditions)))
    ctx.emit("conditions", fighter=fighter.id, conditions=conditions)


def _force_dice(ctx: Ctx, action: CombatAction) -> None:
    faces = []
    for word in action.targets:
        if word not in ("1", "2", "3", "4", "5", "6"):
            raise BadInput("w6.combat.bad_die", value=word)
        faces.append(int(word))
    ctx.state = replace(ctx.state, forced=(*ctx.state.forced, *faces))
    ctx.emit("dice_forced", dice=faces)


def _remove(ctx: Ctx, action: CombatAction) -> None:
    fighter_id = ctx.f(action.targets[0]).id
    state = ctx.state
    if state.pending is not None:
        raise IllegalAction("w6.combat.pending", stage=state.pending.stage, who="")
    index = state.order.index(fighter_id) if fighter_id in state.order else -1
    turn = state.turn
    if 0 <= index < turn:
        turn -= 1
    order = tuple(i for i in state.order if i != fighter_id)
    if turn >= len(order):
        turn = -1
    cleaned = tuple(
        replace(f, serie_ziel="", serie_zahl=0) if f.serie_ziel == fighter_id else f
        for f in state.fighters
        if f.id != fighter_id
    )
    ctx.state = replace(state, fighters=cleaned, order=order, turn=turn)
    ctx.emit("removed", fighter=fighter_id)


_ON = {"an": True, "ja": True, "1": True, "aus": False, "nein": False, "0": False}


def _rule(ctx: Ctx, action: CombatAction) -> None:
    settings = ctx.state.settings
    for key, value in action.opts:
        if key not in SETTING_NAMES:
            raise BadInput("w6.combat.unknown_setting", setting=key)
        if key == "undo_tiefe":
            if not 0 <= int(value) <= MAX_UNDO:
                raise BadInput("w6.combat.bad_undo_depth", value=value, max=MAX_UNDO)
            settings = replace(settings, undo_tiefe=int(value))
        elif key == "fernkampf_abwehr":
            if value not in RANGED_DEFENCE:
                raise BadInput("w6.combat.bad_setting", setting=key, value=value)
            settings = replace(settings, fernkampf_abwehr=value)
        else:
            if value not in _ON:
                raise BadInput("w6.combat.bad_setting", setting=key, value=value)
            flag: dict[str, Any] = {key: _ON[value]}
            settings = replace(settings, **flag)
    ctx.state = replace(ctx.state, settings=settings)
    ctx.emit("settings", **{name: getattr(settings, name) for name in SETTING_NAMES})


def _repair(ctx: Ctx, action: CombatAction) -> None:
    fighter = ctx.f(action.targets[0])
    item = action.opt("gegenstand") or (fighter.waffen[0].name if fighter.waffen else "")
    points = action.num("punkte", 10**3)
    if points < 1:
        raise BadInput("w6.combat.negative", value=points)
    shield = fighter.schild
    if shield is not None and shield.name == item and shield.stab_je:
        repaired = replace(shield, stab=min(shield.stab_max, shield.stab + points))
        ctx.put(replace(fighter, schild=repaired))
        ctx.emit("repaired", fighter=fighter.id, item=item, stab=repaired.stab)
        return
    weapon = fighter.weapon(item)
    if weapon is None or not weapon.stab_je:
        raise IllegalAction("w6.combat.no_such_item", fighter=fighter.id, item=item)
    fixed = replace(weapon, stab=min(weapon.stab_max, weapon.stab + points))
    ctx.put(_with_weapon(fighter, fixed))
    ctx.emit("repaired", fighter=fighter.id, item=item, stab=fixed.stab)


def _with_weapon(fighter: Fighter, weapon: WeaponStats) -> Fighter:
    return replace(
        fighter, waffen=tuple(weapon if w.name == weapon.name else w for w in fighter.waffen)
    )


# ----------------------------------------------------------------------------- probes


def _probe(ctx: Ctx, fighter_id: str, dice: int, bought: int, required: int, what: str) -> bool:
    """An Erschwernisprobe with KW (``bought`` successes at 3 KW each if the optional rule is
    on). Spends the KW; returns whether it succeeded."""
    if bought and not ctx.state.settings.kaufen:
        raise IllegalAction("w6.combat.buying_off")
    if bought < 0:
        raise BadInput("w6.combat.negative", value=bought)
    _spend_kw(ctx, fighter_id, dice + bought * technique("vereinfachung", "kw_je_erfolg"))
    roll = ctx.roll(dice)
    return ctx.emit_roll(
        "probe", roll, required, bonus=bought, fighter=fighter_id, what=what, bought=bought
    )


def _check_probe_given(action: CombatAction, required: int) -> None:
    if required > 0 and not action.has("probe") and not action.has("kaufen"):
        raise IllegalAction("w6.combat.probe_needed", required=required)


def _simple_probe(ctx: Ctx, action: CombatAction) -> None:
    if action.has("kaufen"):  # «bei Erschwernisproben»: a plain probe buys nothing
        raise IllegalAction("w6.combat.buy_only_erschwernis")
    fighter = _begin_active(ctx, action, action.num("handlungen", 1))
    required = action.num("erfolge", MIN_SUCCESSES)
    _probe(ctx, fighter.id, action.num("kw"), action.num("kaufen"), required, "probe")


def _plain_action(ctx: Ctx, action: CombatAction) -> None:
    count = action.num("anzahl", 1)
    if count < 1:
        raise BadInput("w6.combat.negative", value=count)
    fighter = _begin_active(ctx, action, count)
    if action.verb == "zielen":
        fighter = ctx.change(fighter.id, zielen=fighter.zielen + count)
        ctx.emit("aimed", fighter=fighter.id, handlungen=fighter.zielen)
    else:
        ctx.emit("handlung", fighter=fighter.id, handlungen=count)


def _spell(ctx: Ctx, action: CombatAction) -> None:
    fighter = _begin_active(ctx, action)
    kw = action.num("kw")
    _spend_kw(ctx, fighter.id, kw)
    dice = min(kw, fighter.magie)
    roll = ctx.roll(dice)
    required = action.num("erfolge", MIN_SUCCESSES)
    ctx.emit_roll("spell", roll, required, fighter=fighter.id, kw=kw, magiewuerfel=dice)


def _reflex(ctx: Ctx, action: CombatAction) -> None:
    fighter = ctx.f(action.fighter)
    if ctx.state.phase < 1 or not fighter.conscious:
        raise IllegalAction(
            "w6.combat.not_started" if ctx.state.phase < 1 else "w6.combat.unconscious",
            fighter=fighter.id,
        )
    if not fighter.able:
        raise IllegalAction("w6.combat.out_of_fight", fighter=fighter.id, lp=fighter.lp)
    roll = _reflex_roll(ctx, fighter.id)
    ctx.emit_roll("reflex", roll, action.num("erfolge", MIN_SUCCESSES), fighter=fighter.id)


def _reflex_roll(ctx: Ctx, fighter_id: str) -> PoolRoll:
    fighter = ctx.f(fighter_id)
    if fighter.reflex <= 0:
        raise IllegalAction("w6.combat.no_reflex", fighter=fighter_id)
    if fighter.reflex_used:
        raise IllegalAction("w6.combat.reflex_used", fighter=fighter_id)
    roll = ctx.roll(fighter.reflex)
    ctx.change(fighter_id, reflex_used=True, kw_left=0)
    return roll


def _end_turn(ctx: Ctx, action: CombatAction) -> None:
    fighter = ctx.f(action.fighter)
    if action.verb == "weiter":
        if ctx.state.current != fighter.id:
            raise IllegalAction(
                "w6.combat.not_your_turn", fighter=fighter.id, current=ctx.state.current
            )
        ctx.put(replace(fighter, turn_done=True))
        ctx.emit("turn_passed", fighter=fighter.id, held=fighter.handlungen_left)
        return
    ctx.put(replace(fighter, fertig=True, turn_done=True))
    ctx.emit("done_for_phase", fighter=fighter.id)


def _mount(ctx: Ctx, action: CombatAction) -> None:
    fighter = ctx.f(action.fighter)
    mounting = action.verb == "aufsitzen"
    if mounting and not fighter.reittier_be and fighter.beritten:
        raise IllegalAction("w6.combat.already_mounted", fighter=fighter.id)
    if mounting == fighter.beritten:
        raise IllegalAction(
            "w6.combat.already_mounted" if mounting else "w6.combat.not_mounted", fighter=fighter.id
        )
    fighter = _begin_active(ctx, action, action.num("handlungen", 1))
    kw_left = max(0, fighter.kw_left - fighter.reittier_be) if mounting else fighter.kw_left
    ctx.put(replace(fighter, beritten=mounting, kw_left=kw_left))
    ctx.emit("mounted" if mounting else "dismounted", fighter=fighter.id, be=fighter.reittier_be)


# ----------------------------------------------------------------------------- blockades


def _align(ctx: Ctx, action: CombatAction) -> None:
    fighter = ctx.f(action.fighter)
    weapon = _usable_weapon(fighter, action.opt("waffe") or "", ranged=False)
    if "ausrichten" not in weapon.techniken:
        raise IllegalAction(
            "w6.combat.technique_not_allowed", weapon=weapon.name, technique="ausrichten"
        )
    fighter = _begin_active(ctx, action)
    _spend_kw(ctx, fighter.id, action.num("kw"))
    roll = ctx.roll(action.num("kw"))
    ok = roll.successes >= MIN_SUCCESSES
    ctx.change(fighter.id, ausrichten=roll.successes if ok else 0)
    ctx.emit("aligned", fighter=fighter.id, **roll_data(roll), ok=ok)


def _break_through(ctx: Ctx, action: CombatAction) -> None:
    blocker = ctx.f(action.targets[0])
    if blocker.ausrichten <= 0:
        raise IllegalAction("w6.combat.no_alignment", fighter=blocker.id)
    only_end = action.has("nur_beenden")
    fighter = _begin_active(ctx, action, 1 if only_end else 2)
    _spend_kw(ctx, fighter.id, action.num("kw"))
    roll = ctx.roll(action.num("kw"))
    required = max(MIN_SUCCESSES, math.ceil(blocker.ausrichten / 2))
    ok = roll.successes >= required
    if ok:
        ctx.change(blocker.id, ausrichten=0)
    ctx.emit_roll(
        "break_through",
        roll,
        required,
        fighter=fighter.id,
        blocker=blocker.id,
        advance=ok and not only_end,
    )


def _shield_wall(ctx: Ctx, action: CombatAction) -> None:
    fighter = ctx.f(action.fighter)
    required = _shield_wall_required(fighter)
    block = _blocking_value(fighter) or 0
    _check_probe_given(action, required)
    fighter = _begin_active(ctx, action)
    if required and not _probe(
        ctx, fighter.id, action.num("probe"), action.num("kaufen"), required, "schildblockade"
    ):
        ctx.emit("action_failed", fighter=fighter.id, what="schildblockade")
        return
    _spend_kw(ctx, fighter.id, action.num("kw"))
    roll = ctx.roll(action.num("kw"))
    # the second throw of the Komplexe Probe needs its successes like every throw
    ok = roll.successes >= MIN_SUCCESSES
    value = roll.successes + block if ok else 0
    ctx.change(fighter.id, blockade=value)
    if ok:
        ctx.emit("shield_wall", fighter=fighter.id, **roll_data(roll), block=block, value=value)
    else:
        ctx.emit(
            "shield_wall_failed", fighter=fighter.id, **roll_data(roll), required=MIN_SUCCESSES
        )


def _shield_wall_required(fighter: Fighter) -> int:
    """Schildblockade: the probe needs 10 − 2 × Schildkampf successes.
    Raises IllegalAction("w6.combat.no_shield") without a shield or blocking weapon."""
    if _blocking_value(fighter) is None:
        raise IllegalAction("w6.combat.no_shield", fighter=fighter.id)
    return max(
        0,
        technique("schildblockade", "erschwernis")
        - technique("schildblockade", "senkung_je_schildkampf") * fighter.schildkampf,
    )


def _blocking_value(fighter: Fighter) -> int | None:
    shield = fighter.schild
    if shield is not None and not (shield.stab_je and shield.stab == 0):
        return shield.block
    weapon = next((w for w in fighter.waffen if "blockade" in w.techniken), None)
    return None if weapon is None else weapon.block


def _shield_wall_end(ctx: Ctx, action: CombatAction) -> None:
    fighter = ctx.f(action.fighter)
    if fighter.blockade <= 0:
        raise IllegalAction("w6.combat.no_blockade", fighter=fighter.id)
    ctx.change(fighter.id, blockade=0)
    ctx.emit("blockade_ended", fighter=fighter.id)


def _end_series_action(ctx: Ctx, action: CombatAction) -> None:
    if not ctx.f(action.fighter).serie_zahl:
        raise IllegalAction("w6.combat.no_series", fighter=action.fighter)
    _end_series(ctx, action.fighter, "declared")


def _end_series(ctx: Ctx, fighter_id: str, reason: str) -> Fighter:
    fighter = ctx.f(fighter_id)
    if not fighter.serie_zahl:
        return fighter
    locked = tuple(sorted({*fighter.serie_gesperrt, fighter.serie_ziel}))
    ctx.emit("series_ended", fighter=fighter_id, target=fighter.serie_ziel, reason=reason)
    return ctx.change(fighter_id, serie_ziel="", serie_zahl=0, serie_gesperrt=locked)


# ----------------------------------------------------------------------------- attacks


def _usable_weapon(fighter: Fighter, name: str, ranged: bool | None = None) -> WeaponStats:
    """The weapon ``name``; without a name the first usable weapon of the kind (``ranged``),
    else the first weapon. Raises IllegalAction (no weapon at all, no such weapon, broken,
    lost)."""
    if not fighter.waffen:
        raise IllegalAction("w6.combat.no_weapon", fighter=fighter.id)
    if not name and ranged is not None:
        fitting = [w for w in usable_weapons(fighter) if w.fernkampf == ranged]
        name = fitting[0].name if fitting else ""
    weapon = fighter.weapon(name)
    if weapon is None:
        raise IllegalAction("w6.combat.no_such_weapon", fighter=fighter.id, weapon=name)
    if weapon.stab_je and weapon.stab == 0:
        raise IllegalAction("w6.combat.weapon_broken", fighter=fighter.id, weapon=weapon.name)
    if fighter.has(WEAPON_LOST):
        raise IllegalAction("w6.combat.weapon_lost", fighter=fighter.id)
    return weapon


def _shield_usable(fighter: Fighter) -> ShieldStats | None:
    shield = fighter.schild
    if shield is None or (shield.stab_je and shield.stab == 0):
        return None
    return shield


ATTACK_VERBS = ("angriff", "fern", "rundum", "beidhaendig", "finte")


def probe_required(state: CombatState, action: CombatAction) -> int:
    """The successes the Erschwernisprobe of ``action`` needs (0: none), summed as ``apply``
    sums them, for the attack verbs and ``blockade``; nothing is rolled or spent.

    Raises IllegalAction / BadInput for a choice ``apply`` would refuse (weapon, technique,
    zone, size, targets)."""
    ctx = Ctx(state)
    if action.verb == "blockade":
        return _shield_wall_required(ctx.f(action.fighter))
    if action.verb in ATTACK_VERBS:
        return _plan_attack(ctx, action, _targets(ctx, action)).erschwernis
    return 0


def usable_weapons(fighter: Fighter) -> tuple[WeaponStats, ...]:
    """The weapons ``fighter`` can attack with now (none broken, none while disarmed)."""
    if fighter.has(WEAPON_LOST):
        return ()
    return tuple(w for w in fighter.waffen if not (w.stab_je and w.stab == 0))


def hand_free(fighter: Fighter) -> bool:
    """No usable shield in the second hand (a Zweihändiger Angriff needs it)."""
    return _shield_usable(fighter) is None


def can_block(fighter: Fighter) -> bool:
    """Whether ``fighter`` has a shield (or blocking weapon) for a Schildblockade."""
    return _blocking_value(fighter) is not None


def _targets(ctx: Ctx, action: CombatAction) -> tuple[str, ...]:
    if len(set(action.targets)) != len(action.targets) or action.fighter in action.targets:
        raise IllegalAction("w6.combat.bad_targets")
    return tuple(ctx.f(t).id for t in action.targets)


def _series_bonus(count: int) -> int:
    """Angriffsserie: the 2nd attack +2, the 3rd +3, from the 4th on +6 KW."""
    bonus = [int(x) for x in technique_list("angriffsserie", "bonus")]
    if count <= len(bonus):
        return bonus[count - 1]
    return technique("angriffsserie", "bonus_ab_viertem")


def technique_list(name: str, key: str) -> list[Any]:
    from engines.w6.tables import techniques

    value = techniques()[name][key]
    return list(value)


def _ranged_required(fighter: Fighter, action: CombatAction, weapon: WeaponStats) -> int:
    size = sizes().get(action.opt("groesse") or "mittel")
    if size is None:
        raise BadInput(
            "w6.combat.bad_size", value=action.opt("groesse"), allowed=", ".join(sizes())
        )
    distance = action.num("dist", 1)
    if distance < 0:
        raise BadInput("w6.combat.negative", value=distance)
    width = max(1, fighter.b + size.zone_b_mod)
    zone = max(1, math.ceil(distance / width))
    return zone + size.erfolge_mod - fighter.zielen


class _Plan:
    """What an attack announcement adds up to before anything is rolled."""

    def __init__(self) -> None:
        self.erschwernis = 0
        self.defence_mod = 0
        self.erschwert = 0
        self.zone = ""
        self.zweihaendig = False
        self.fert = True
        self.serie = False
        self.series_count = 0
        self.bonus = 0
        self.weapons: tuple[str, ...] = ()
        self.dual_same = False


def _plan_attack(ctx: Ctx, action: CombatAction, targets: tuple[str, ...]) -> _Plan:
    fighter = ctx.f(action.fighter)
    plan = _Plan()
    kind = action.verb
    weapon = _usable_weapon(fighter, action.opt("waffe") or "", ranged=kind == "fern")
    if weapon.fernkampf != (kind == "fern"):
        raise IllegalAction("w6.combat.wrong_weapon_kind", weapon=weapon.name)
    plan.weapons = tuple(weapon.name for _ in targets)
    levels = action.num("erschwert")
    if levels < 0:
        raise BadInput("w6.combat.negative", value=levels)
    plan.erschwert = levels
    plan.erschwernis += technique("erschwerter_angriff", "erschwernis_je_stufe") * levels
    plan.defence_mod += technique("erschwerter_angriff", "abwehr_je_stufe") * levels
    plan.erschwernis += max(0, action.num("erschwernis"))
    zone_name = action.opt("zone") or ""
    if zone_name:
        zone = zones().get(zone_name)
        if zone is None:
            raise BadInput("w6.combat.bad_zone", value=zone_name, allowed=", ".join(zones()))
        plan.zone = zone.name
        plan.erschwernis += zone.erschwernis
        plan.defence_mod += zone.abwehr
    if action.has("zweihaendig"):
        _plan_two_handed(fighter, weapon, plan)
    if kind == "fern":
        plan.erschwernis += max(0, _ranged_required(fighter, action, weapon))
        plan.fert = fighter.zielen >= weapon.zielen
    elif kind == "rundum":
        _plan_sweep(action, weapon, targets, plan)
    elif kind == "beidhaendig":
        _plan_dual(ctx, fighter, action, targets, plan)
    elif kind == "finte":
        _feint_weapon(fighter, action, weapon)
        plan.erschwernis += technique("finte", "erschwernis")
    _plan_series(fighter, action, weapon, targets, plan)
    return plan


def _plan_two_handed(fighter: Fighter, weapon: WeaponStats, plan: _Plan) -> None:
    if "zweihaendig" not in weapon.techniken:
        raise IllegalAction(
            "w6.combat.technique_not_allowed", weapon=weapon.name, technique="zweihaendig"
        )
    if _shield_usable(fighter) is not None:
        raise IllegalAction("w6.combat.hand_not_free", fighter=fighter.id)
    plan.zweihaendig = True
    plan.defence_mod += technique("zweihaendig", "abwehr")


def _plan_sweep(
    action: CombatAction, weapon: WeaponStats, targets: tuple[str, ...], plan: _Plan
) -> None:
    if "rundumschlag" not in weapon.techniken:
        raise IllegalAction(
            "w6.combat.technique_not_allowed", weapon=weapon.name, technique="rundumschlag"
        )
    if plan.zone:
        raise IllegalAction("w6.combat.no_zone_in_sweep")
    fields = action.num("felder", len(targets))
    if not len(targets) <= fields <= technique("rundumschlag", "max_felder"):
        raise BadInput("w6.combat.bad_fields", value=fields, min=len(targets), max=6)
    plan.erschwernis += technique("rundumschlag", "erschwernis_je_feld") * (fields - 1)


def pair(first: WeaponStats, second: WeaponStats) -> bool:
    """BEIDHÄNDIGER KAMPF: «zwei nahezu identische Waffen, die beide mit derselben
    Waffenfertigkeit geführt werden müssen» (or both marked ``beidhaendig``, the weapon
    table's exceptions such as the Langdolch); both melee weapons."""
    if first.fernkampf or second.fernkampf:
        return False
    both_marked = "beidhaendig" in first.techniken and "beidhaendig" in second.techniken
    return first.fertigkeit == second.fertigkeit or both_marked


def _plan_dual(
    ctx: Ctx, fighter: Fighter, action: CombatAction, targets: tuple[str, ...], plan: _Plan
) -> None:
    if not fighter.beidhaendig:
        raise IllegalAction("w6.combat.not_two_weapon_fighter", fighter=fighter.id)
    first = _usable_weapon(fighter, action.opt("waffe") or "", ranged=False)
    second_name = action.opt("waffe2") or next(
        (w.name for w in usable_weapons(fighter) if w.name != first.name and pair(first, w)), ""
    )
    if not second_name:
        raise IllegalAction("w6.combat.no_second_weapon", fighter=fighter.id, weapon=first.name)
    second = _usable_weapon(fighter, second_name)
    if second.name == first.name:
        raise IllegalAction("w6.combat.same_weapon_twice", weapon=first.name)
    if not pair(first, second):
        raise IllegalAction("w6.combat.not_a_pair", weapon=first.name, weapon2=second.name)
    if len(targets) == 1:
        plan.erschwernis += technique("beidhaendig", "erschwernis_ein_ziel")
        plan.defence_mod += technique("beidhaendig", "abwehr")
        plan.dual_same = True
        plan.weapons = (first.name, second.name)
    else:
        plan.erschwernis += technique("beidhaendig", "erschwernis_zwei_ziele")
        plan.weapons = (first.name, second.name)


def _plan_series(
    fighter: Fighter,
    action: CombatAction,
    weapon: WeaponStats,
    targets: tuple[str, ...],
    plan: _Plan,
) -> None:
    continuing = (
        action.verb == "angriff" and fighter.serie_zahl > 0 and fighter.serie_ziel == targets[0]
    )
    if continuing:
        plan.serie = True
        plan.series_count = fighter.serie_zahl + 1
        plan.bonus = _series_bonus(plan.series_count)
        return
    if action.has("serie"):
        if "angriffsserie" not in weapon.techniken:
            raise IllegalAction(
                "w6.combat.technique_not_allowed", weapon=weapon.name, technique="angriffsserie"
            )
        if targets[0] in fighter.serie_gesperrt:
            raise IllegalAction("w6.combat.series_locked", target=targets[0])
        plan.serie = True
        plan.series_count = 1


def _attack(ctx: Ctx, action: CombatAction) -> None:
    targets = _targets(ctx, action)
    plan = _plan_attack(ctx, action, targets)
    _check_probe_given(action, plan.erschwernis)
    before = ctx.f(action.fighter)
    if before.serie_zahl and not plan.serie:
        _end_series(ctx, before.id, "other_action")
    fighter = _begin_active(ctx, action)
    if fighter.zielen:  # ZIELEN lowers the probe of the next shot only: the shot uses it up
        fighter = ctx.change(fighter.id, zielen=0)
    if plan.serie:
        fighter = ctx.change(fighter.id, serie_ziel=targets[0], serie_zahl=plan.series_count)
    if fighter.blockade > 0:
        _lower_blockade(
            ctx,
            fighter.id,
            technique("schildblockade", "attacke_aus_blockade"),
            "attack_from_blockade",
        )
    if fighter.ausrichten:
        ctx.change(fighter.id, ausrichten=0)
    pending = Pending(
        stage="ansage",
        kind=action.verb,
        attacker=fighter.id,
        targets=tuple(
            Defence(t, weapon=plan.weapons[min(i, len(plan.weapons) - 1)])
            for i, t in enumerate(targets)
        ),
        bonus_dice=plan.bonus,
        defence_mod=plan.defence_mod,
        erschwert=plan.erschwert,
        zone=plan.zone,
        zweihaendig=plan.zweihaendig,
        fert=plan.fert,
        dual_same=plan.dual_same,
        weapon2=plan.weapons[1] if plan.dual_same else "",
        serie=plan.serie,
        nr=ctx.state.step + 1,
    )
    ctx.emit(
        "attack_announced",
        fighter=fighter.id,
        kind=action.verb,
        targets=list(targets),
        weapons=list(plan.weapons),
        erschwernis=plan.erschwernis,
        defence_mod=plan.defence_mod,
        series=plan.series_count,
        bonus_dice=plan.bonus,
        zone=plan.zone,
    )
    if plan.erschwernis > 0:
        ok = _probe(
            ctx,
            fighter.id,
            action.num("probe"),
            action.num("kaufen"),
            plan.erschwernis,
            action.verb,
        )
        if not ok:
            _probe_failed(ctx, action, pending)
            return
    if action.verb == "finte":
        pending = _feint(ctx, action, pending)
        _announce_attack(ctx, pending, action.num("angriff"))
        return
    if action.has("kw"):
        _announce_attack(ctx, pending, action.num("kw"))
    else:
        ctx.state = replace(ctx.state, pending=pending)


def _probe_failed(ctx: Ctx, action: CombatAction, pending: Pending) -> None:
    if action.verb == "rundum":
        ctx.state = replace(ctx.state, pending=replace(pending, stage="rundum"))
        return
    if action.verb == "fern" and action.has("kw"):
        _spend_kw(ctx, pending.attacker, action.num("kw"))
        ctx.emit("attack_missed", fighter=pending.attacker, reason="probe")
        return
    if pending.serie:
        _end_series(ctx, pending.attacker, "failed")
    ctx.emit("action_failed", fighter=pending.attacker, what=action.verb)


def _feint_weapon(fighter: Fighter, action: CombatAction, weapon: WeaponStats) -> str:
    """KAMPF ZU ZWEI HÄNDEN (FINTEN): «schlägt ein Kämpfer mit einer Waffe eine Finte, um
    nachfolgend die andere Waffe sicher ins Ziel zu bringen»: a second usable melee weapon
    (``waffe2``, else the first other one) feints. Raises IllegalAction with one weapon."""
    name = action.opt("waffe2") or next(
        (w.name for w in usable_weapons(fighter) if w.name != weapon.name and not w.fernkampf),
        "",
    )
    if not name:
        raise IllegalAction("w6.combat.feint_needs_two", fighter=fighter.id, weapon=weapon.name)
    second = _usable_weapon(fighter, name)
    if second.name == weapon.name:
        raise IllegalAction("w6.combat.same_weapon_twice", weapon=name)
    if second.fernkampf:
        raise IllegalAction("w6.combat.wrong_weapon_kind", weapon=second.name)
    return second.name


def _feint(ctx: Ctx, action: CombatAction, pending: Pending) -> Pending:
    fighter = ctx.f(action.fighter)
    attack_weapon = fighter.weapon(pending.targets[0].weapon) or fighter.waffen[0]
    feint_weapon = _feint_weapon(fighter, action, attack_weapon)
    _spend_kw(ctx, fighter.id, action.num("kw"))
    roll = ctx.roll(action.num("kw"))
    target = ctx.f(pending.targets[0].target)
    robbed = 0
    if roll.successes >= MIN_SUCCESSES:
        robbed = min(target.kw_left, technique("finte", "kw_raub_je_erfolg") * roll.successes)
        ctx.change(target.id, kw_left=target.kw_left - robbed)
        pending = replace(pending, defence_mod=pending.defence_mod + technique("finte", "abwehr"))
    _wear_weapon(ctx, fighter.id, feint_weapon, roll.successes)
    ok = roll.successes >= MIN_SUCCESSES
    ctx.emit(
        "feint", fighter=fighter.id, target=target.id, **roll_data(roll), kw_robbed=robbed, ok=ok
    )
    return replace(pending, kind="angriff")


def _announce(ctx: Ctx, action: CombatAction) -> None:
    pending = _pending(ctx)
    if pending.stage != "ansage":
        raise IllegalAction("w6.combat.not_asked", fighter=action.fighter, stage=pending.stage)
    ctx.state = replace(ctx.state, pending=None)
    _announce_attack(ctx, pending, action.num("kw"))


def _sweep_choice(ctx: Ctx, action: CombatAction) -> None:
    pending = _pending(ctx)
    if pending.stage != "rundum":
        raise IllegalAction("w6.combat.not_asked", fighter=action.fighter, stage=pending.stage)
    ctx.state = replace(ctx.state, pending=None)
    if action.verb == "abbruch":
        ctx.emit("action_failed", fighter=pending.attacker, what="rundum")
        return
    # RUNDUMSCHLAG: «als ein gewöhnlicher Angriff auf das erste Hexfeld»: no Erschwerter
    # Angriff stays on it (its probe failed with the sweep's)
    single = replace(
        pending,
        kind="angriff",
        stage="ansage",
        targets=pending.targets[:1],
        erschwert=0,
        defence_mod=pending.defence_mod
        - technique("erschwerter_angriff", "abwehr_je_stufe") * pending.erschwert,
    )
    _announce_attack(ctx, single, action.num("kw"))


def _pending(ctx: Ctx) -> Pending:
    if ctx.state.pending is None:
        raise IllegalAction("w6.combat.nothing_pending")
    return ctx.state.pending


def _announce_attack(ctx: Ctx, pending: Pending, kw: int) -> None:
    _spend_kw(ctx, pending.attacker, kw)
    answered = []
    for defence in pending.targets:
        target = ctx.f(defence.target)
        if target.blockade > 0:
            defence = replace(defence, answer="blockade", state="angesagt")
        elif not target.able:  # unconscious, dying or at LP 0: no defence
            defence = replace(defence, answer="keine", state="angesagt")
        answered.append(defence)
    pending = replace(pending, stage="abwehr", kw=kw, targets=tuple(answered))
    ctx.emit(
        "attack_dice_announced", fighter=pending.attacker, kw=kw, bonus_dice=pending.bonus_dice
    )
    _continue_attack(ctx, pending)


def _continue_attack(ctx: Ctx, pending: Pending) -> None:
    """Roll once every defender has announced; resolve every target that need not choose."""
    if pending.stage == "abwehr":
        if any(d.state == "offen" for d in pending.targets):
            ctx.state = replace(ctx.state, pending=pending)
            return
        pending = _roll_attack(ctx, pending)
        if pending.stage == "fehlgeschlagen":
            ctx.state = replace(ctx.state, pending=None)
            return
        pending = replace(pending, stage="entscheidung")
        resolved = []
        for defence in pending.targets:
            resolved.append(_evaluate(ctx, pending, defence))
        pending = replace(pending, targets=tuple(resolved))
    if any(d.state == "entscheidung" for d in pending.targets):
        ctx.state = replace(ctx.state, pending=pending)
        return
    _finish_attack(ctx, pending)


def _roll_attack(ctx: Ctx, pending: Pending) -> Pending:
    if pending.kind == "nachschlag":
        return pending
    roll = ctx.roll(pending.kw + pending.bonus_dice)
    successes = roll.successes
    ctx.emit_roll(
        "attack_roll",
        roll,
        pending.required,
        fighter=pending.attacker,
        fives=roll.fives,
        sixes=roll.sixes,
    )
    _wear_weapon(ctx, pending.attacker, pending.targets[0].weapon, successes)
    pending = replace(pending, dice=roll.dice, successes=successes)
    if successes >= pending.required:
        return pending
    for defence in pending.targets:
        if defence.answer == "kw" and defence.kw:
            target = ctx.f(defence.target)
            ctx.change(target.id, kw_left=target.kw_left + defence.kw)
            ctx.emit("kw_returned", fighter=target.id, kw=defence.kw)
        if defence.answer == "kw" and pending.dual_same and not ctx.f(defence.target).beidhaendig:
            # the Handlung the defence against two weapons cost comes back with the KW
            target = ctx.f(defence.target)
            ctx.change(target.id, handlungen_left=target.handlungen_left + 1)
            ctx.emit("handlung_returned", fighter=target.id)
    if pending.serie:
        _end_series(ctx, pending.attacker, "attack_failed")
    ctx.emit("attack_failed", fighter=pending.attacker, kind=pending.kind)
    return replace(pending, stage="fehlgeschlagen")


def defence_required(pending: Pending, retreat: bool = False) -> int:
    """Successes the defender needs: the attacker's successes (halved, rounded up, when
    retreating) plus the technique's modifier, never fewer than two."""
    base = math.ceil(pending.successes / 2) if retreat else pending.successes
    return max(MIN_SUCCESSES, base + pending.defence_mod)


def _can_retreat(ctx: Ctx, defence: Defence) -> bool:
    target = ctx.f(defence.target)
    return defence.answer == "kw" and target.able and target.handlungen_left >= 1


def _evaluate(ctx: Ctx, pending: Pending, defence: Defence) -> Defence:
    target = ctx.f(defence.target)
    if defence.answer == "blockade":
        _lower_blockade(ctx, target.id, 1 + pending.erschwert, "attack_on_blockade")
        return replace(defence, state="erledigt")
    if defence.answer == "keine":
        _hit(ctx, pending, defence)
        return replace(defence, state="erledigt")
    if defence.answer == "reflex":
        roll = _reflex_roll(ctx, target.id)
        _defence_outcome(ctx, pending, defence, roll, defence_required(pending), "reflex")
        return replace(defence, state="erledigt")
    if _can_retreat(ctx, defence):
        return replace(defence, state="entscheidung")
    roll = ctx.roll(_defence_dice(ctx, defence))
    _defence_outcome(ctx, pending, defence, roll, defence_required(pending), "abwehr")
    return replace(defence, state="erledigt")


def _defence_dice(ctx: Ctx, defence: Defence) -> int:
    shield = _shield_usable(ctx.f(defence.target))
    return defence.kw + (shield.kw_bonus if shield else 0)


def _defence_outcome(
    ctx: Ctx, pending: Pending, defence: Defence, roll: PoolRoll, required: int, how: str
) -> bool:
    shield = _shield_usable(ctx.f(defence.target)) if how != "reflex" else None
    extra: dict[str, Any] = {}
    if shield is not None and shield.kw_bonus:  # SCHILDE: the bonus dice, told in the roll
        extra = {"shield": shield.name, "shield_kw": shield.kw_bonus}
    ok = ctx.emit_roll("defence_roll", roll, required, fighter=defence.target, how=how, **extra)
    if how != "reflex":
        _wear_defender(ctx, defence.target, roll.successes)
    # ANGRIFFSSERIE: Zurückweichen «kann … diese jedoch … nicht beenden»
    # «mindestens doppelt so viele Erfolge wie der Angreifer» ends it, even when a zone's
    # modifier made the defence fail
    doubled = roll.successes >= 2 * pending.successes
    if pending.serie and doubled and how != "zurueckweichen":
        _end_series(ctx, pending.attacker, "defended_twice")
    if not ok:
        _hit(ctx, pending, defence)
    return ok


def _decide(ctx: Ctx, action: CombatAction) -> None:
    pending = _pending(ctx)
    defence = next((d for d in pending.targets if d.target == action.fighter), None)
    if pending.stage != "entscheidung" or defence is None or defence.state != "entscheidung":
        raise IllegalAction("w6.combat.not_asked", fighter=action.fighter, stage=pending.stage)
    retreat = action.verb == "zurueckweichen"
    if retreat:
        target = ctx.f(defence.target)
        ctx.change(target.id, handlungen_left=target.handlungen_left - 1)
    roll = ctx.roll(_defence_dice(ctx, defence))
    ok = _defence_outcome(
        ctx,
        pending,
        defence,
        roll,
        defence_required(pending, retreat),
        "zurueckweichen" if retreat else "abwehr",
    )
    if retreat and ok:
        pending = replace(pending, retreated=defence.target)
        ctx.emit("retreated", fighter=defence.target, attacker=pending.attacker, may_follow=True)
    done = replace(defence, state="erledigt")
    pending = replace(
        pending, targets=tuple(done if d.target == defence.target else d for d in pending.targets)
    )
    ctx.state = replace(ctx.state, pending=None)
    _continue_attack(ctx, pending)


def _finish_attack(ctx: Ctx, pending: Pending) -> None:
    attacker = ctx.f(pending.attacker)
    weapon = attacker.weapon(pending.targets[0].weapon)
    original = sum(1 for d in pending.dice if d >= 5)
    reach = weapon.reichweite if weapon else 1
    # NACHSCHLAGEN is «anstelle des Nachsetzens» after the first attack; a follow-up that a
    # second retreat answers gives no further follow-up
    first = pending.kind != "nachschlag"
    if (
        first
        and pending.retreated
        and reach > 1
        and original >= technique("nachschlagen", "mindest_erfolge")
    ):
        ctx.state = replace(ctx.state, pending=replace(pending, stage="nachschlagen"))
        return
    ctx.state = replace(ctx.state, pending=None)
    ctx.emit("attack_resolved", fighter=pending.attacker, kind=pending.kind)


def _follow_up(ctx: Ctx, action: CombatAction) -> None:
    pending = _pending(ctx)
    if pending.stage != "nachschlagen":
        raise IllegalAction("w6.combat.not_asked", fighter=action.fighter, stage=pending.stage)
    ctx.state = replace(ctx.state, pending=None)
    if action.verb == "verzichten":
        ctx.emit("attack_resolved", fighter=pending.attacker, kind=pending.kind, may_follow=True)
        return
    original = sum(1 for d in pending.dice if d >= 5)
    target = pending.retreated
    defence = next(d for d in pending.targets if d.target == target)
    again = replace(
        pending,
        stage="abwehr",
        kind="nachschlag",
        successes=math.ceil(original / 2),
        fert=False,
        targets=(Defence(target, weapon=defence.weapon),),
        retreated="",
        erschwert=0,  # «ohne den Fertigkeitsschaden»: no Erschwerter Angriff either, so its
        # harder defence goes too (the zone and the other techniques stay)
        defence_mod=pending.defence_mod
        - technique("erschwerter_angriff", "abwehr_je_stufe") * pending.erschwert,
        serie=False,
        nr=ctx.state.step + 1,
    )
    ctx.emit("follow_up", fighter=pending.attacker, target=target, successes=again.successes)
    _announce_attack(ctx, again, 0)


def _answer(ctx: Ctx, action: CombatAction) -> None:
    pending = _pending(ctx)
    defence = next((d for d in pending.targets if d.target == action.fighter), None)
    if pending.stage != "abwehr" or defence is None or defence.state != "offen":
        raise IllegalAction("w6.combat.not_asked", fighter=action.fighter, stage=pending.stage)
    target = ctx.f(defence.target)
    if action.has("keine"):
        defence = replace(defence, answer="keine", state="angesagt")
    elif action.has("reflex"):
        if target.reflex <= 0:
            raise IllegalAction("w6.combat.no_reflex", fighter=target.id)
        if target.reflex_used:
            raise IllegalAction("w6.combat.reflex_used", fighter=target.id)
        defence = replace(defence, answer="reflex", state="angesagt")
    else:
        defence = _answer_with_kw(ctx, pending, target, action.num("kw"), defence)
    updated = tuple(defence if d.target == defence.target else d for d in pending.targets)
    ctx.emit("defence_announced", fighter=target.id, answer=defence.answer, kw=defence.kw)
    ctx.state = replace(ctx.state, pending=None)
    _continue_attack(ctx, replace(pending, targets=updated))


def kw_defence_allowed(state: CombatState, fighter: Fighter) -> bool:
    """Whether ``fighter`` may answer the pending attack with KW: against a ranged attack
    only as the setting ``fernkampf_abwehr`` says (by default with a shield), else only the
    Reflex answers («auch der Einsatz gegen Fernkampfangriffe ist explizit erlaubt»)."""
    pending = state.pending
    if pending is None or pending.kind != "fern":
        return True
    mode = state.settings.fernkampf_abwehr
    return mode == "alle" or (mode == "schild" and _shield_usable(fighter) is not None)


def _answer_with_kw(
    ctx: Ctx, pending: Pending, target: Fighter, kw: int, defence: Defence
) -> Defence:
    if not kw_defence_allowed(ctx.state, target):
        raise IllegalAction("w6.combat.no_ranged_defence", fighter=target.id)
    if pending.dual_same and not target.beidhaendig:
        if target.handlungen_left < 1:
            raise IllegalAction("w6.combat.no_handlung", fighter=target.id, have=0, need=1)
        ctx.change(target.id, handlungen_left=target.handlungen_left - 1)
    _spend_kw(ctx, target.id, kw)
    return replace(defence, answer="kw", kw=kw, state="angesagt")


# ----------------------------------------------------------------------------- damage


def _hit(ctx: Ctx, pending: Pending, defence: Defence) -> None:
    attacker = ctx.f(pending.attacker)
    names = [defence.weapon]
    if pending.dual_same:  # «der Basisschaden für beide Waffen»: the two the attacker chose
        names.append(pending.weapon2)
    for name in names:
        weapon = attacker.weapon(name)
        if weapon is not None:
            _damage(ctx, pending, attacker, weapon, defence.target)


def damage_breakdown(
    weapon: WeaponStats,
    dice: tuple[int, ...],
    *,
    fert: bool = True,
    erschwert: int = 0,
    k_bonus: int = 0,
    zone_factor: int = 1,
    armour: int = 0,
) -> dict[str, int]:
    """Schaden: Basisschaden (each 5 and each 6 by the ratio) + Zusatzschaden +
    Fertigkeitsschaden (+ its bonus per Erschwerungsstufe) + K for a two-handed attack,
    times the zone factor, minus the armour; never below zero."""
    fives, sixes = dice.count(5), dice.count(6)
    basis = fives * weapon.schaden[0] + sixes * weapon.schaden[1]
    skill = weapon.fertigkeitsschaden if fert else 0
    sp = (basis + weapon.zusatz + skill + erschwert * skill + k_bonus) * zone_factor
    return {
        "fives": fives,
        "sixes": sixes,
        "basis": basis,
        "zusatz": weapon.zusatz,
        "fertigkeit": skill,
        "erschwert": erschwert * skill,
        "zweihaendig": k_bonus,
        "faktor": zone_factor,
        "sp": sp,
        "ruestung": armour,
        "lp_verlust": max(0, sp - armour),
    }


def _damage(
    ctx: Ctx, pending: Pending, attacker: Fighter, weapon: WeaponStats, target_id: str
) -> None:
    target = ctx.f(target_id)
    zone = zones().get(pending.zone) if pending.zone else None
    armour = target.zone_rs(zone.name) if zone else target.gesamtschutz
    breakdown = damage_breakdown(
        weapon,
        pending.dice,
        fert=pending.fert,
        erschwert=pending.erschwert,
        k_bonus=attacker.k if pending.zweihaendig else 0,
        zone_factor=zone.schaden_faktor if zone else 1,
        armour=armour,
    )
    lost = breakdown["lp_verlust"]
    target = ctx.change(target.id, lp=target.lp - lost)
    ctx.emit(
        "damage",
        fighter=target.id,
        attacker=attacker.id,
        weapon=weapon.name,
        zone=pending.zone,
        lp=target.lp,
        **breakdown,
    )
    if lost > 0 and zone is not None:
        _zone_effect(ctx, target.id, zone.name)
    _after_damage(ctx, target.id, lost)


def _zone_effect(ctx: Ctx, target_id: str, zone_name: str) -> None:
    zone = zones()[zone_name]
    target = ctx.f(target_id)
    if zone.kw_malus:
        ctx.change(
            target_id,
            kw_malus=target.kw_malus + zone.kw_malus,
            kw_left=max(0, target.kw_left - zone.kw_malus),
        )
        ctx.emit(
            "zone_effect", fighter=target_id, zone=zone.name, effect="kw", kw_malus=zone.kw_malus
        )
    if zone.waffe_verloren and not target.has(WEAPON_LOST):
        ctx.change(target_id, conditions=(*target.conditions, WEAPON_LOST))
        ctx.emit("zone_effect", fighter=target_id, zone=zone.name, effect="waffe", weapon_lost=True)


def _after_damage(ctx: Ctx, target_id: str, lost: int) -> None:
    target = ctx.f(target_id)
    if ctx.state.settings.schwere_treffer and target.conscious and lost > 0 and _heavy(target):
        knocked = lost > target.schwelle
        if target.k + target.g > 0 and lost > target.k + target.g:
            target = ctx.change(target_id, schwelle=target.schwelle - lost)
        ctx.emit(
            "heavy_hit", fighter=target_id, sp=lost, schwelle=target.schwelle, knocked_out=knocked
        )
        if knocked:
            target = _knock_out(ctx, target_id, "heavy_hit")
    if target.conscious and lost > 0 and target.lp < target.rlp:
        roll = ctx.roll(target.kraft)
        required = technique("bewusstlosigkeit", "kraft_erfolge")
        if not ctx.emit_roll("kraft_check", roll, required, fighter=target_id):
            target = _knock_out(ctx, target_id, "kraft_check")
    if target.lp < 0 and not target.has(DYING):
        ctx.change(target_id, conditions=(*target.conditions, DYING))
        ctx.emit("dying", fighter=target_id, lp=target.lp)


def _heavy(fighter: Fighter) -> bool:
    """Whether the heavy-hit threshold applies: a fighter without K and G (a quick NPC) has
    no «(K + G) x (Faktor + Mod.)», only a threshold the GM fixed (never lowered)."""
    return fighter.k + fighter.g > 0 or fighter.schwelle > 0


def _knock_out(ctx: Ctx, fighter_id: str, reason: str) -> Fighter:
    fighter = ctx.f(fighter_id)
    ctx.emit("unconscious", fighter=fighter_id, reason=reason)
    return ctx.change(
        fighter_id, conditions=(*fighter.conditions, UNCONSCIOUS), blockade=0, ausrichten=0
    )


def _lower_blockade(ctx: Ctx, fighter_id: str, points: int, reason: str) -> None:
    fighter = ctx.f(fighter_id)
    value = max(0, fighter.blockade - points)
    ctx.change(fighter_id, blockade=value)
    ctx.emit("blockade_lowered", fighter=fighter_id, by=points, value=value, reason=reason)


# ----------------------------------------------------------------------------- stability


_Worn = TypeVar("_Worn", WeaponStats, ShieldStats)


def _worn(ctx: Ctx, fighter_id: str, item: _Worn, successes: int) -> _Worn:
    """OPTIONAL: STABILITÄT: every ``stab_je`` successes (counted across rolls) lower the
    stability by one; emits ``stability`` when it drops. Returns the item worn."""
    total = item.stab_erfolge + successes
    stab = max(0, item.stab - total // item.stab_je)
    if stab != item.stab:
        ctx.emit("stability", fighter=fighter_id, item=item.name, stab=stab, broken=stab == 0)
    return replace(item, stab=stab, stab_erfolge=total % item.stab_je)


def _wears(ctx: Ctx, item: WeaponStats | ShieldStats | None) -> bool:
    return (
        ctx.state.settings.stabilitaet and item is not None and item.stab_je > 0 and item.stab > 0
    )


def _wear_weapon(ctx: Ctx, fighter_id: str, name: str, successes: int) -> None:
    fighter = ctx.f(fighter_id)
    weapon = fighter.weapon(name)
    if weapon is not None and _wears(ctx, weapon):
        ctx.put(_with_weapon(fighter, _worn(ctx, fighter_id, weapon, successes)))


def _wear_defender(ctx: Ctx, fighter_id: str, successes: int) -> None:
    fighter = ctx.f(fighter_id)
    shield = _shield_usable(fighter)
    if shield is None or not shield.stab_je:
        if fighter.waffen:
            _wear_weapon(ctx, fighter_id, fighter.waffen[0].name, successes)
        return
    if _wears(ctx, shield):
        ctx.put(replace(fighter, schild=_worn(ctx, fighter_id, shield, successes)))


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
