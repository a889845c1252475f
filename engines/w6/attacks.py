"""Attacks: planning (techniques, two weapons, Rundumschlag, Angriffsserie, ranged), the
Erschwernisprobe and Finte, the announced dice, the defences and their outcome, Nachschlagen."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from engines.core import BadInput, IllegalAction
from engines.dice.pool import PoolRoll
from engines.w6.actions import CombatAction
from engines.w6.ctx import MIN_SUCCESSES, Ctx, _pending, roll_data
from engines.w6.damage import _hit, _lower_blockade
from engines.w6.gear import (
    _shield_usable,
    _usable_weapon,
    _wear_defender,
    _wear_weapon,
    usable_weapons,
)
from engines.w6.probes import (
    _blocking_value,
    _check_probe_given,
    _probe,
    _reflex_roll,
    _shield_wall_required,
)
from engines.w6.state import (
    CombatState,
    Defence,
    Fighter,
    Pending,
    WeaponStats,
)
from engines.w6.tables import sizes, technique, techniques, zones
from engines.w6.turns import _begin_active, _end_series, _spend_kw

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
