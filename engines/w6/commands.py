"""The game master's commands: joins and refreshes from sheets, begin, next phase, end,
set values and conditions, injected dice, removals, optional rules, repairs."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engines.core import BadInput, IllegalAction
from engines.core.jsontext import load_json
from engines.w6.actions import MAX_PAYLOAD_BYTES, CombatAction
from engines.w6.codec import decode
from engines.w6.ctx import Ctx, standing_log
from engines.w6.gear import _with_weapon, _Worn
from engines.w6.state import (
    CONDITIONS,
    DYING,
    MAX_FIGHTERS,
    MAX_UNDO,
    RANGED_DEFENCE,
    SETTING_NAMES,
    CombatState,
    Fighter,
    check_fighter_id,
    seat_of_owner,
)
from engines.w6.turns import _new_phase


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
