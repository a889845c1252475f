"""The turn order: who may act now, the Aktionsbasis ties, the budget of KW and Handlungen,
a new phase, and what settles after every step."""

from __future__ import annotations

from dataclasses import replace

from engines.core import BadInput, IllegalAction
from engines.w6.actions import CombatAction
from engines.w6.ctx import Ctx, _pending
from engines.w6.state import (
    CombatState,
    Defence,
    Fighter,
    Pending,
)


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


def _end_series(ctx: Ctx, fighter_id: str, reason: str) -> Fighter:
    fighter = ctx.f(fighter_id)
    if not fighter.serie_zahl:
        return fighter
    locked = tuple(sorted({*fighter.serie_gesperrt, fighter.serie_ziel}))
    ctx.emit("series_ended", fighter=fighter_id, target=fighter.serie_ziel, reason=reason)
    return ctx.change(fighter_id, serie_ziel="", serie_zahl=0, serie_gesperrt=locked)
