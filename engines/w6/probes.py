"""Probes and plain actions (Handlung, Zielen, Zauber, Reflex, mounting, ending a turn) and
the blockades (Ausrichten, Durchbrechen, Schildwall)."""

from __future__ import annotations

import math
from dataclasses import replace

from engines.core import BadInput, IllegalAction
from engines.dice.pool import PoolRoll
from engines.w6.actions import CombatAction
from engines.w6.ctx import MIN_SUCCESSES, Ctx, roll_data
from engines.w6.gear import _usable_weapon
from engines.w6.state import (
    Fighter,
)
from engines.w6.tables import technique
from engines.w6.turns import _begin_active, _end_series, _spend_kw


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
