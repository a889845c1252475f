"""Weapons and shields in use: which can serve now, and their stability (optional rule)."""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from engines.core import IllegalAction
from engines.w6.ctx import Ctx
from engines.w6.state import (
    WEAPON_LOST,
    Fighter,
    ShieldStats,
    WeaponStats,
)


def _with_weapon(fighter: Fighter, weapon: WeaponStats) -> Fighter:
    return replace(
        fighter, waffen=tuple(weapon if w.name == weapon.name else w for w in fighter.waffen)
    )


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


def usable_weapons(fighter: Fighter) -> tuple[WeaponStats, ...]:
    """The weapons ``fighter`` can attack with now (none broken, none while disarmed)."""
    if fighter.has(WEAPON_LOST):
        return ()
    return tuple(w for w in fighter.waffen if not (w.stab_je and w.stab == 0))


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
