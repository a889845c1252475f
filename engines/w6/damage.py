"""Damage: the breakdown of a hit, zones, Schwere Treffer, unconsciousness and dying."""

from __future__ import annotations

from engines.w6.ctx import Ctx
from engines.w6.state import (
    DYING,
    UNCONSCIOUS,
    WEAPON_LOST,
    Defence,
    Fighter,
    Pending,
    WeaponStats,
)
from engines.w6.tables import technique, zones


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
