"""Plain-data views of a combat for the Discord layer (no engine internals needed)."""

from __future__ import annotations

import json
from typing import Any

from engines.w6.actions import CombatAction
from engines.w6.attacks import can_block, defence_required, hand_free, pair
from engines.w6.codec import encode
from engines.w6.combat import can_undo
from engines.w6.gear import usable_weapons
from engines.w6.state import CombatState, Fighter
from engines.w6.turns import may_act_now, to_act, turn_holder

ACTIVE_VERBS = (
    "angriff", "fern", "rundum", "beidhaendig", "finte", "ausrichten", "durchbrechen",
    "blockade", "zauber", "probe", "handlung", "zielen", "aufsitzen", "absitzen",
)  # fmt: skip


def join_action(*fighters: Fighter) -> CombatAction:
    """The ``beitritt`` action that adds ``fighters`` (from ``fighter_from_sheet``) in one
    step (one object in the payload for one fighter, a list for several)."""
    return CombatAction("beitritt", payload=_payload(fighters))


def refresh_action(*fighters: Fighter) -> CombatAction:
    """The ``aktualisieren`` action that takes the sheet values of ``fighters`` (fresh from
    ``fighter_from_sheet``, same ids) into the combat."""
    return CombatAction("aktualisieren", payload=_payload(fighters))


def _payload(fighters: tuple[Fighter, ...]) -> str:
    data = encode(fighters[0]) if len(fighters) == 1 else [encode(f) for f in fighters]
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def verbs_for(state: CombatState, fighter_id: str) -> tuple[str, ...]:
    """The verbs worth offering ``fighter_id`` as buttons now (apply still decides)."""
    pending = state.pending
    if fighter_id not in to_act(state):
        other = state.find(fighter_id)
        if other is None or state.phase < 1 or state.ended or not other.able:
            return ()
        return () if other.reflex_used or other.reflex <= 0 else ("reflex",)
    if pending is not None:
        return {
            "ansage": ("ansage",),
            "abwehr": ("abwehr",),
            "entscheidung": ("wuerfeln", "zurueckweichen"),
            "rundum": ("rundum_weiter", "abbruch"),
            "nachschlagen": ("nachschlagen", "verzichten"),
            "reihenfolge": ("zuerst", "danach"),
        }[pending.stage]
    fighter = state.fighter(fighter_id)
    verbs = list(ACTIVE_VERBS)
    if not any(w.fernkampf for w in fighter.waffen):
        verbs.remove("fern")
    if not fighter.beidhaendig:
        verbs.remove("beidhaendig")
    if not fighter.reittier_be and not fighter.beritten:
        verbs.remove("aufsitzen")
    if "aufsitzen" in verbs:
        verbs.remove("aufsitzen" if fighter.beritten else "absitzen")
    else:
        verbs.remove("absitzen")
    if not fighter.reflex_used and fighter.reflex > 0:
        verbs.append("reflex")
    if fighter.blockade > 0:
        verbs.append("blockade_ende")
    if fighter.serie_zahl:
        verbs.append("serie_ende")
    if state.current == fighter_id:
        verbs.append("weiter")
    verbs.append("fertig")
    return tuple(verbs)


OFFERED = (
    "erschwert", "gezielt", "zweihaendig", "serie", "rundum", "beidhaendig", "finte", "fern",
    "zielen", "ausrichten", "durchbrechen", "blockade", "blockade_ende", "serie_ende", "zauber",
    "probe", "handlung", "aufsitzen", "absitzen",
)  # fmt: skip
_WEAPON_TECHNIQUES = {"zweihaendig": "zweihaendig", "serie": "angriffsserie",
                      "rundum": "rundumschlag", "ausrichten": "ausrichten"}  # fmt: skip


def technique_options(state: CombatState, fighter_id: str) -> tuple[str, ...]:
    """The special techniques and other actions worth offering ``fighter_id`` now, beyond the
    plain attack (names from ``OFFERED``; the attack variants map to ``angriff`` options:
    ``erschwert``, ``gezielt`` = ``zone``, ``zweihaendig``, ``serie``). Only what
    ``verbs_for`` allows and the fighter's weapons, shield and Magiewürfel can do; ``apply``
    still decides."""
    verbs = verbs_for(state, fighter_id)
    if "angriff" not in verbs:
        return ()
    fighter = state.fighter(fighter_id)
    melee = [w for w in usable_weapons(fighter) if not w.fernkampf]
    ranged = [w for w in usable_weapons(fighter) if w.fernkampf]
    offered = {
        "erschwert": bool(melee),
        "gezielt": bool(melee),
        # KAMPF ZU ZWEI HÄNDEN: «mit einer Waffe eine Finte, um nachfolgend die andere Waffe»
        "finte": len(melee) >= 2,
        "beidhaendig": "beidhaendig" in verbs
        and any(pair(a, b) for i, a in enumerate(melee) for b in melee[i + 1 :]),
        "fern": bool(ranged),
        "zielen": bool(ranged),
        "durchbrechen": any(f.ausrichten > 0 for f in state.fighters if f.id != fighter_id),
        "blockade": can_block(fighter),
        "zauber": fighter.magie > 0,
        "probe": True,
        "handlung": True,
    }
    for name, needed in _WEAPON_TECHNIQUES.items():
        offered[name] = any(needed in w.techniken for w in melee)
    offered["zweihaendig"] = offered["zweihaendig"] and hand_free(fighter)
    for verb in ("blockade_ende", "serie_ende", "aufsitzen", "absitzen"):
        offered[verb] = verb in verbs
    return tuple(name for name in OFFERED if offered[name])


def _fighter_row(state: CombatState, fighter: Fighter) -> dict[str, Any]:
    return {
        "id": fighter.id,
        "name": fighter.name,
        "owner": fighter.owner,
        "ab": fighter.ab,
        "lp": fighter.lp,
        "lp_max": fighter.lp_max,
        "rlp": fighter.rlp,
        "kw_left": fighter.kw_left,
        "kw_phase": fighter.phase_kw(),
        "handlungen_left": fighter.handlungen_left,
        "handlungen_max": fighter.handlungen_max,
        "reflex_available": not fighter.reflex_used and fighter.reflex > 0,
        "gesamtschutz": fighter.gesamtschutz,
        "conditions": list(fighter.conditions),
        "blockade": fighter.blockade,
        "ausrichten": fighter.ausrichten,
        "beritten": fighter.beritten,
        "kw_malus": fighter.kw_malus,
        "schwelle": fighter.schwelle,
        "serie": {"target": fighter.serie_ziel, "count": fighter.serie_zahl}
        if fighter.serie_zahl
        else None,
        "is_turn": not state.ended and turn_holder(state) == fighter.id,
        "out_of_fight": not fighter.able,
        "may_act": may_act_now(state, fighter),
        "fertig": fighter.fertig,
        "stability": {w.name: w.stab for w in fighter.waffen if w.stab_je}
        | (
            {fighter.schild.name: fighter.schild.stab}
            if fighter.schild and fighter.schild.stab_je
            else {}
        ),
    }


def _pending_view(state: CombatState) -> dict[str, Any] | None:
    pending = state.pending
    if pending is None:
        return None
    rolled = bool(pending.dice) or pending.kind == "nachschlag"
    return {
        "stage": pending.stage,
        "kind": pending.kind,
        "attacker": pending.attacker,
        "kw": pending.kw,
        "bonus_dice": pending.bonus_dice,
        "zone": pending.zone,
        "dice": list(pending.dice),
        "successes": pending.successes if rolled else None,
        "defence_required": defence_required(pending) if rolled else None,
        "retreat_required": defence_required(pending, retreat=True) if rolled else None,
        "defence_mod": pending.defence_mod,
        "targets": [
            {
                "target": d.target,
                "answer": d.answer,
                "kw": d.kw,
                "state": d.state,
                "weapon": d.weapon,
            }
            for d in pending.targets
        ],
    }


def status_view(state: CombatState) -> dict[str, Any]:
    """Everything a status message shows: phase, AB order with LP/KW/Handlungen left and
    conditions, whose turn it is, the pending step and who must answer it."""
    by_id = {f.id: f for f in state.fighters}
    ordered = [by_id[i] for i in state.order if i in by_id]
    ordered += [f for f in state.fighters if f.id not in state.order]
    return {
        "phase": state.phase,
        "started": state.phase >= 1,
        "ended": state.ended,
        "turn": turn_holder(state),
        "to_act": sorted(to_act(state)),
        "gm": state.gm,
        "fighters": [_fighter_row(state, f) for f in ordered],
        "pending": _pending_view(state),
        "settings": encode(state.settings),
        "step": state.step,
        "can_undo": can_undo(state),
    }


def users_to_act(state: CombatState) -> dict[str, int | None]:
    """Each participant who must or may act now, with the user who owns it (None: GM)."""
    return {fid: state.fighter(fid).owner for fid in sorted(to_act(state))}
