"""W6 combat tracker: scenarios from the rulebook's Kampfsystem with injected dice."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from engines.core import BadInput, Event, IllegalAction
from engines.w6 import (
    CombatState,
    Fighter,
    Settings,
    apply,
    can_undo,
    fighter_from_sheet,
    join_action,
    make,
    new_combat,
    parse_action,
    sheet_from_json,
    state_from_json,
    state_to_json,
    status_view,
    to_act,
    verbs_for,
)
from engines.w6.state import MAX_FIGHTERS, MAX_UNDO, ShieldStats, WeaponStats

GM = 1
PLAYER = 10
OTHER = 20


def weapon(
    name: str = "Axt", ratio: tuple[int, int] = (2, 3), zusatz: int = 0, fert: int = 0, **kw: Any
) -> WeaponStats:
    return WeaponStats(name, ratio, zusatz, fert, **kw)


def fighter(fid: str, owner: int | None = None, **kw: Any) -> Fighter:
    base: dict[str, Any] = {
        "id": fid, "name": fid.title(), "owner": owner, "ab": 5, "intuition": 3,
        "handlungen_max": 2, "kw_max": 10, "reflex": 4, "magie": 0, "lp": 30, "lp_max": 30,
        "rlp": 5, "gesamtschutz": 0, "zonen": (), "waffen": (weapon(),), "kraft": 3,
        "k": 4, "g": 3, "b": 6, "schwelle": 100,
    }  # fmt: skip
    base.update(kw)
    return Fighter(**base)


def combat(*fighters: Fighter, **settings: Any) -> CombatState:
    state = new_combat(GM, seed=7, settings=Settings(**settings))
    for f in fighters:
        state, _ = apply(state, join_action(f), GM)
    state, _ = apply(state, make("beginnen"), GM)
    return state


def act(state: CombatState, text: str, actor: int = GM) -> tuple[CombatState, list[Event]]:
    action = parse_action(text)
    assert parse_action(action.text()) == action
    new, events = apply(state, action, actor)
    assert state_from_json(json.loads(json.dumps(state_to_json(new)))) == new
    return new, events


def run(state: CombatState, *texts: str) -> tuple[CombatState, list[Event]]:
    events: list[Event] = []
    for text in texts:
        state, more = act(state, text)
        events += more
    return state, events


def only(events: list[Event], kind: str) -> dict[str, Any]:
    found = [dict(e.data) for e in events if e.type == kind]
    assert len(found) == 1, f"{kind}: {found}"
    return found[0]


def all_of(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.type == kind]


def duel(**a: Any) -> CombatState:
    b = a.pop("b", {})
    return combat(fighter("held", PLAYER, ab=8, **a), fighter("ork", ab=4, **b))


# ------------------------------------------------------------------ order and budget


def test_order_by_aktionsbasis_ties_by_intuition() -> None:
    state = combat(
        fighter("a", ab=5, intuition=2), fighter("b", ab=7), fighter("c", ab=5, intuition=4)
    )
    assert state.order == ("b", "c", "a") and state.current == "b"
    assert to_act(state) == {"b"}


def test_held_handlungen_and_next_phase_with_fresh_kw() -> None:
    state = duel()
    state, _ = run(state, "@held handlung", "@held weiter")
    assert state.current == "ork"
    # held may use the held Handlung right after the ork acted, not before
    assert to_act(state) == {"ork"}
    state, _ = act(state, "@ork handlung")
    assert to_act(state) == {"ork", "held"}
    state, events = run(state, "@held probe kw=3 wuerfel=0".replace(" wuerfel=0", ""))
    assert state.fighter("held").kw_left == 7
    state, events = run(state, "@ork fertig")
    assert only(events, "phase_started")["phase"] == 2
    assert state.fighter("held").kw_left == 10  # unused KW lapse, a fresh budget
    assert state.current == "held"


def test_reflex_once_per_phase_and_remaining_kw_lapse() -> None:
    state = duel()
    state, events = run(state, "wuerfel 5 5 1 1", "@ork reflex")
    assert only(events, "reflex")["ok"] is True
    assert state.fighter("ork").kw_left == 0
    with pytest.raises(IllegalAction) as error:
        act(state, "@ork reflex")
    assert error.value.key == "w6.combat.reflex_used"


# ------------------------------------------------------------------ attack and defence


def test_damage_with_ratio_2_3_each_five_and_six_counted() -> None:
    state = duel(waffen=(weapon(ratio=(2, 3), zusatz=4, fert=6),), b={"gesamtschutz": 3})
    state, events = run(state, "wuerfel 5 6 6 1", "@held angriff ork kw=4", "@ork abwehr keine")
    damage = only(events, "damage")
    assert (damage["fives"], damage["sixes"], damage["basis"]) == (1, 2, 2 + 3 + 3)
    assert damage["sp"] == 8 + 4 + 6 and damage["lp_verlust"] == 18 - 3
    assert state.fighter("ork").lp == 30 - 15


def test_attacker_below_two_successes_defender_keeps_kw() -> None:
    state = duel()
    state, events = run(state, "wuerfel 5 1 1 1", "@held angriff ork kw=4", "@ork abwehr kw=5")
    assert only(events, "attack_roll")["ok"] is False
    assert only(events, "kw_returned")["kw"] == 5
    assert not all_of(events, "defence_roll")
    assert state.fighter("ork").kw_left == 10 and state.pending is None


def test_defence_needs_as_many_successes_as_the_attack() -> None:
    state = duel(b={"handlungen_max": 0})  # no Handlung: no Zurückweichen, roll at once
    state, events = run(
        state, "wuerfel 5 6 5 1 5 5 6 1", "@held angriff ork kw=4", "@ork abwehr kw=4"
    )
    assert only(events, "defence_roll") | {} == {
        "fighter": "ork", "how": "abwehr", "dice": [5, 5, 6, 1], "successes": 3,
        "required": 3, "ok": True,
    }  # fmt: skip
    assert not all_of(events, "damage")


def test_shield_adds_its_kw_bonus_to_the_defence() -> None:
    shield = ShieldStats("Rundschild", kw_bonus=2, block=3)
    state = duel(b={"handlungen_max": 0, "schild": shield})
    state, events = run(
        state, "wuerfel 5 5 1 1 1 1 1 1", "@held angriff ork kw=4", "@ork abwehr kw=4"
    )
    assert len(only(events, "defence_roll")["dice"]) == 6


def test_zurueckweichen_halves_the_attackers_successes_and_costs_a_handlung() -> None:
    state = duel()
    state, _ = run(state, "wuerfel 5 5 6 6 5 1", "@held angriff ork kw=6", "@ork abwehr kw=3")
    assert state.pending is not None and state.pending.stage == "entscheidung"
    assert status_view(state)["pending"]["retreat_required"] == 3  # 5 successes, halved up
    assert verbs_for(state, "ork") == ("wuerfeln", "zurueckweichen")
    state, events = run(state, "wuerfel 5 5 6", "@ork zurueckweichen")
    assert only(events, "defence_roll")["required"] == 3
    assert only(events, "retreated")["may_follow"] is True
    assert state.fighter("ork").handlungen_left == 1 and state.pending is None


def test_nachschlagen_with_a_reach_weapon_after_four_successes() -> None:
    spear = weapon("Speer", (1, 2), zusatz=2, fert=5, reichweite=2)
    state = duel(waffen=(spear,))
    state, _ = run(
        state, "wuerfel 5 5 6 6 1 1 5 5 1", "@held angriff ork kw=6", "@ork abwehr kw=3",
        "@ork zurueckweichen",
    )  # fmt: skip
    assert state.pending is not None and state.pending.stage == "nachschlagen"
    state, events = run(state, "@held nachschlagen", "@ork abwehr keine")
    damage = only(events, "damage")
    assert damage["fertigkeit"] == 0  # without Fertigkeitsschaden, from the first roll
    assert damage["sp"] == 2 * 1 + 2 * 2 + 2


def test_unconsciousness_check_when_lp_fall_below_rlp() -> None:
    state = duel(b={"lp": 10, "rlp": 8, "kraft": 4})
    state, events = run(
        state, "wuerfel 6 6 1 1 5 5 5 1", "@held angriff ork kw=4", "@ork abwehr keine"
    )
    check = only(events, "kraft_check")
    assert check == {
        "fighter": "ork",
        "dice": [5, 5, 5, 1],
        "successes": 3,
        "required": 4,
        "ok": False,
    }
    assert "bewusstlos" in state.fighter("ork").conditions
    view = status_view(state)
    assert view["fighters"][1]["conditions"] == ["bewusstlos"]


def test_heavy_hit_rule_is_a_setting() -> None:
    ork = fighter("ork", k=2, g=2, schwelle=5)
    state = combat(fighter("held", PLAYER, ab=8), ork, schwere_treffer=True)
    state, events = run(state, "wuerfel 6 6 1 1", "@held angriff ork kw=4", "@ork abwehr keine")
    heavy = only(events, "heavy_hit")
    assert heavy["knocked_out"] is True and heavy["schwelle"] == 5 - 6
    assert only(events, "unconscious")["reason"] == "heavy_hit"


# ------------------------------------------------------------------ techniques


def test_gezielte_attacke_on_the_head() -> None:
    state = duel(b={"zonen": (("Kopf", 2),), "gesamtschutz": 5})
    with pytest.raises(IllegalAction) as error:
        act(state, "@held angriff ork zone=Kopf kw=3")
    assert error.value.key == "w6.combat.probe_needed" and error.value.params["required"] == 5
    state, events = run(
        state, "wuerfel 5 5 5 5 5 5 6 1", "@held angriff ork zone=Kopf probe=5",
        "@held ansage kw=3", "@ork abwehr keine",
    )  # fmt: skip
    assert only(events, "probe")["required"] == 5
    assert state.fighter("held").kw_left == 10 - 5 - 3
    damage = only(events, "damage")
    assert (damage["sp"], damage["ruestung"]) == ((2 + 3) * 3, 2)  # triple, head RS only


@pytest.mark.parametrize(("zone", "extra"), [("Arme", 1), ("Beine", 2), ("Hände", 2), ("Torso", 1)])
def test_zone_defence_modifiers_and_effects(zone: str, extra: int) -> None:
    state = duel(b={"handlungen_max": 0})
    state, events = run(
        state, "wuerfel 5 5 5 5 5 6 6 1 1 1 1 1", f"@held angriff ork zone={zone} probe=5 kw=3",
        "@ork abwehr kw=4",
    )  # fmt: skip
    assert only(events, "defence_roll")["required"] == 2 + extra
    ork = state.fighter("ork")
    if zone in ("Arme", "Beine"):
        assert ork.kw_malus == 3 and ork.kw_left == 10 - 4 - 3
    assert ("waffe_verloren" in ork.conditions) == (zone == "Hände")


def test_erschwerter_angriff_adds_skill_damage_per_level() -> None:
    state = duel(waffen=(weapon(ratio=(1, 1), fert=4),), b={"handlungen_max": 0})
    state, events = run(
        state, "wuerfel 5 5 5 5 5 6 1 1 1 1", "@held angriff ork erschwert=2 probe=4 kw=2",
        "@ork abwehr kw=4",
    )  # fmt: skip
    assert only(events, "probe")["required"] == 4
    assert only(events, "defence_roll")["required"] == 2 + 2
    damage = only(events, "damage")
    assert damage["erschwert"] == 8 and damage["sp"] == 2 + 4 + 8


def test_zweihaendiger_angriff_adds_k_and_eases_the_defence() -> None:
    axe = weapon(ratio=(1, 1), techniken=("zweihaendig",))
    state = duel(waffen=(axe,), k=5, b={"handlungen_max": 0})
    state, events = run(
        state, "wuerfel 5 5 5 1 1 1 1 1", "@held angriff ork zweihaendig kw=4", "@ork abwehr kw=4"
    )
    assert only(events, "defence_roll")["required"] == 2  # 3 - 1
    assert only(events, "damage")["sp"] == 3 + 5
    shielded = duel(waffen=(axe,), schild=ShieldStats("S", 1, 1))
    with pytest.raises(IllegalAction) as error:
        act(shielded, "@held angriff ork zweihaendig kw=4")
    assert error.value.key == "w6.combat.hand_not_free"


def test_angriffsserie_bonus_dice() -> None:
    sword = weapon(ratio=(1, 1), techniken=("angriffsserie",))
    state = duel(waffen=(sword,), handlungen_max=5, kw_max=30)
    sizes = []
    for number in range(1, 5):
        text = "@held angriff ork kw=2" + (" serie" if number == 1 else "")
        state, events = run(state, "wuerfel 5 5", text, "@ork abwehr keine")
        sizes.append(len(only(events, "attack_roll")["dice"]))
        assert state.fighter("held").serie_zahl == number
    assert sizes == [2, 2 + 2, 2 + 3, 2 + 6]
    with pytest.raises(IllegalAction) as error:
        act(state, "@ork handlung")
    assert error.value.key in ("w6.combat.in_series", "w6.combat.not_your_turn")


def test_angriffsserie_ends_when_the_defence_doubles_the_attack() -> None:
    sword = weapon(ratio=(1, 1), techniken=("angriffsserie",))
    state = duel(waffen=(sword,), b={"handlungen_max": 0})
    state, events = run(
        state, "wuerfel 5 5 5 5 5 5 1 1", "@held angriff ork kw=2 serie", "@ork abwehr kw=6"
    )
    assert only(events, "series_ended")["reason"] == "defended_twice"
    with pytest.raises(IllegalAction) as error:
        act(state, "@held angriff ork kw=2 serie")
    assert error.value.key == "w6.combat.series_locked"


def test_rundumschlag_costs_two_per_extra_field_and_may_go_on_as_an_attack() -> None:
    flail = weapon(techniken=("rundumschlag",))
    state = combat(fighter("held", PLAYER, ab=8, waffen=(flail,)), fighter("a"), fighter("b"))
    state, events = run(state, "wuerfel 5 1 1", "@held rundum a,b felder=3 probe=3")
    assert only(events, "probe")["required"] == 4
    assert state.pending is not None and state.pending.stage == "rundum"
    state, events = run(state, "@held rundum_weiter kw=2")
    assert state.pending is not None and [d.target for d in state.pending.targets] == ["a"]


def test_schildblockade_absorbs_hits() -> None:
    shield = ShieldStats("Turmschild", kw_bonus=3, block=4)
    state = duel(b={"schild": shield, "schildkampf": 2}, handlungen_max=3)
    state, _ = act(state, "@held weiter")
    state, events = run(state, "wuerfel 5 5 5 5 5 6 6 5", "@ork blockade probe=6 kw=2")
    assert only(events, "probe")["required"] == 10 - 2 * 2
    assert only(events, "shield_wall")["value"] == 2 + 4
    state, events = run(state, "wuerfel 5 5 1", "@held angriff ork kw=3 erschwert=0")
    assert only(events, "blockade_lowered")["value"] == 5
    assert not all_of(events, "damage")


def test_beidhaendiger_kampf_on_one_target() -> None:
    blades = (weapon("Links", (1, 1), zusatz=1), weapon("Rechts", (1, 1), zusatz=2))
    state = duel(waffen=blades, beidhaendig=True)
    state, events = run(
        state, "wuerfel 5 5 5 5 5 1", "@held beidhaendig ork probe=3 kw=3", "@ork abwehr keine"
    )
    assert only(events, "probe")["required"] == 3
    damages = all_of(events, "damage")
    assert [d["weapon"] for d in damages] == ["Links", "Rechts"]
    assert [d["sp"] for d in damages] == [2 + 1, 2 + 2]
    state = duel(waffen=blades, beidhaendig=True)
    state, _ = run(
        state, "wuerfel 5 5 5 5 5 1", "@held beidhaendig ork probe=3 kw=3", "@ork abwehr kw=2"
    )
    assert state.fighter("ork").handlungen_left == 1  # the defence needed a Handlung
    assert state.pending is not None
    assert status_view(state)["pending"]["defence_required"] == 2 + 2


def test_finte_robs_kw_and_makes_the_real_attack_harder_to_defend() -> None:
    blades = (weapon("Degen", (1, 1)), weapon("Dolch", (1, 1)))
    state = duel(waffen=blades, kw_max=20)
    state, events = run(state, "wuerfel 5 5 5 6 1", "@held finte ork probe=2 kw=3 angriff=4")
    assert only(events, "feint")["kw_robbed"] == 4
    assert state.fighter("ork").kw_left == 10 - 4
    assert state.pending is not None and state.pending.defence_mod == 4


def test_ausrichten_and_breaking_through() -> None:
    pike = weapon("Pike", techniken=("ausrichten",), reichweite=2)
    state = duel(waffen=(pike,), b={"handlungen_max": 3})
    state, events = run(state, "wuerfel 5 5 5 5", "@held ausrichten kw=4", "@held weiter")
    assert state.fighter("held").ausrichten == 4
    state, events = run(state, "wuerfel 5 1", "@ork durchbrechen held kw=2")
    assert only(events, "break_through") | {} == only(events, "break_through")
    assert only(events, "break_through")["required"] == 2 and state.fighter("held").ausrichten == 4
    assert state.fighter("ork").handlungen_left == 1


def test_ranged_zones_by_b_and_size_and_aiming() -> None:
    bow = weapon("Bogen", (1, 1), fert=3, fernkampf=True, zielen=1)
    # B 6, middle-sized target: zones of 4 Schritt; 10 Schritt is the third zone
    state = duel(waffen=(bow,), b={"handlungen_max": 0})
    with pytest.raises(IllegalAction) as error:
        act(state, "@held fern ork dist=10 kw=3")
    assert error.value.params["required"] == 3
    state, _ = act(state, "@held zielen")
    with pytest.raises(IllegalAction) as error:
        act(state, "@held fern ork dist=4 groesse=klein kw=3")
    assert error.value.params["required"] == 4 + 1 - 1  # zones of 6-5=1 Schritt, +1 small, -1 aimed
    state, events = run(
        state, "wuerfel 5 5 5 5 5 5 1", "@held fern ork dist=10 probe=3 kw=4", "@ork abwehr keine"
    )
    assert only(events, "damage")["fertigkeit"] == 3  # aimed shots add Fertigkeitsschaden


def test_ranged_defence_needs_a_shield_by_default() -> None:
    bow = weapon("Bogen", (1, 1), fernkampf=True)
    state = duel(waffen=(bow,))
    state, _ = run(state, "wuerfel 5", "@held fern ork dist=1 probe=1 kw=2")
    with pytest.raises(IllegalAction) as error:
        act(state, "@ork abwehr kw=3")
    assert error.value.key == "w6.combat.no_ranged_defence"
    state, _ = act(state, "@ork abwehr reflex")


def test_buying_successes_is_an_optional_rule() -> None:
    state = duel()
    with pytest.raises(IllegalAction) as error:
        act(state, "@held angriff ork zone=Torso kaufen=2 kw=2")
    assert error.value.key == "w6.combat.buying_off"
    state = combat(fighter("held", PLAYER, ab=8), fighter("ork"), kaufen=True)
    state, events = act(state, "@held angriff ork zone=Torso kaufen=2 kw=2")
    assert only(events, "probe")["ok"] is True
    assert state.fighter("held").kw_left == 10 - 6 - 2


def test_spell_kw_cap_the_magiewuerfel_and_lapse() -> None:
    state = duel(magie=3)
    state, events = run(state, "wuerfel 5 5 1", "@held zauber kw=5 erfolge=2")
    spell = only(events, "spell")
    assert spell["magiewuerfel"] == 3 and spell["ok"] is True
    assert state.fighter("held").kw_left == 5


def test_stability_wears_breaks_and_is_repaired() -> None:
    brittle = weapon("Knüppel", (1, 1), stab_je=2, stab=1, stab_max=3)
    state = combat(
        fighter("held", PLAYER, ab=8, waffen=(brittle,)), fighter("ork"), stabilitaet=True
    )
    state, events = run(state, "wuerfel 5 5 1", "@held angriff ork kw=3", "@ork abwehr keine")
    assert only(events, "stability")["broken"] is True
    with pytest.raises(IllegalAction) as error:
        act(state, "@held angriff ork kw=3")
    assert error.value.key == "w6.combat.weapon_broken"
    state, events = act(state, "reparieren held gegenstand=Knüppel punkte=5")
    assert only(events, "repaired")["stab"] == 3


def test_a_mounts_behinderung_is_subtracted_from_the_riders_kw() -> None:
    state = duel(reittier_be=3)
    state, _ = act(state, "@held aufsitzen")
    assert state.fighter("held").kw_left == 7
    state, _ = run(state, "@held weiter", "@ork fertig", "@held fertig")
    assert state.phase == 2 and state.fighter("held").kw_left == 7


# ------------------------------------------------------------------ permissions, GM, log


def test_permissions_owner_or_gm() -> None:
    state = duel()
    with pytest.raises(IllegalAction) as error:
        apply(state, parse_action("@held handlung"), OTHER)
    assert error.value.key == "w6.combat.not_your_fighter"
    with pytest.raises(IllegalAction) as error:
        apply(state, parse_action("setze held lp=1"), PLAYER)
    assert error.value.key == "w6.combat.gm_only"
    apply(state, parse_action("@held handlung"), PLAYER)
    apply(state, parse_action("@held handlung"), GM)


def test_pending_steps_block_other_actions() -> None:
    state = duel()
    state, _ = act(state, "@held angriff ork kw=3")
    with pytest.raises(IllegalAction) as error:
        act(state, "@held handlung")
    assert error.value.key == "w6.combat.pending"
    with pytest.raises(IllegalAction) as error:
        act(state, "@held abwehr kw=2")
    assert error.value.key == "w6.combat.not_asked"


def test_gm_overrides_undo_and_end() -> None:
    state = duel()
    before = state
    state, _ = act(state, "setze ork lp=3 kw=1 handlungen=0")
    ork = state.fighter("ork")
    assert (ork.lp, ork.kw_left, ork.handlungen_left) == (3, 1, 0)
    state, events = act(state, "zurueck")
    assert only(events, "undone")["action"] == "setze ork handlungen=0 kw=1 lp=3"
    assert state.fighters == before.fighters and state.rng == before.rng
    assert state.log == before.log  # an undo replays the log without its last step
    state, _ = act(state, "zustand ork +liegend")
    assert state.fighter("ork").conditions == ("liegend",)
    state, events = act(state, "ende")
    assert state.ended and to_act(state) == set()
    with pytest.raises(IllegalAction):
        act(state, "@held handlung")


def test_undo_replays_the_same_dice() -> None:
    state = duel()
    state, _ = act(state, "@held angriff ork kw=5")
    after, first = act(state, "@ork abwehr keine")
    undone, _ = act(after, "zurueck")
    _, second = act(undone, "@ork abwehr keine")
    assert only(first, "attack_roll") == only(second, "attack_roll")


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("@held fliegen", "w6.action.unknown_verb"),
        ("angriff ork kw=3", "w6.action.fighter_needed"),
        ("@held angriff ork kw=drei", "w6.action.not_integer"),
        ("@held angriff ork tempo=3", "w6.action.unknown_option"),
        ("@held angriff", "w6.action.target_count"),
        ("wuerfel 7", "w6.combat.bad_die"),
        ("regel kaufen=vielleicht", "w6.combat.bad_setting"),
        ("beitritt " + "[" * 5000, "w6.action.bad_notation"),
        ('beitritt {"id": "x", "lp": Infinity}', "w6.action.bad_notation"),
    ],
)
def test_bad_input_is_refused_with_a_key(text: str, key: str) -> None:
    state = duel()
    with pytest.raises(BadInput) as error:
        act(state, text)
    assert error.value.key == key


def test_not_enough_kw_and_wrong_turn() -> None:
    state = duel()
    with pytest.raises(IllegalAction) as error:
        act(state, "@held angriff ork kw=11")
    assert error.value.key == "w6.combat.not_enough_kw"
    with pytest.raises(IllegalAction) as error:
        act(state, "@ork handlung")
    assert error.value.key == "w6.combat.not_your_turn"


def test_join_from_a_sheet_and_state_round_trip() -> None:
    from tests.unit.test_w6_sheet import thoin_data

    thoin = fighter_from_sheet(sheet_from_json(thoin_data()), "thoin", PLAYER)
    assert (thoin.kw_max, thoin.reflex, thoin.handlungen_max, thoin.reittier_be) == (9, 2, 2, 3)
    state = new_combat(GM, seed=1)
    state, _ = apply(state, join_action(thoin), PLAYER)
    with pytest.raises(IllegalAction):
        apply(state, join_action(replace(thoin, id="zwei", owner=OTHER)), PLAYER)
    data = json.loads(json.dumps(state_to_json(state)))
    assert state_from_json(data) == state
    data["phase"] = "eins"
    with pytest.raises(BadInput):
        state_from_json(data)


# ------------------------------------------------------------------ unarmed, refresh, joins


def _sheet(**changes: Any) -> Any:
    from tests.unit.test_w6_sheet import thoin_data

    data = thoin_data() | changes
    return sheet_from_json(data)


def test_a_fighter_without_a_melee_weapon_strikes_unarmed() -> None:
    bare = fighter_from_sheet(_sheet(waffen=[]), "thoin", PLAYER)
    assert bare.waffen == (WeaponStats("Waffenlos", (1, 1), 0, 0),)
    trained = _sheet(waffen=[], fertigkeiten={"Waffenloser Kampf": 3})
    assert fighter_from_sheet(trained, "thoin", PLAYER).waffen[0].fertigkeitsschaden == 3 * 2
    bow = {"name": "Bogen", "schaden": "1-2", "fernkampf": True}
    archer = fighter_from_sheet(_sheet(waffen=[bow]), "thoin", PLAYER)
    assert [w.name for w in archer.waffen] == ["Bogen", "Waffenlos"]
    armed = fighter_from_sheet(_sheet(), "thoin", PLAYER)
    assert [w.name for w in armed.waffen] == ["Streitaxt"]

    state = combat(replace(archer, ab=9), fighter("ork", ab=1))
    state, events = run(state, "wuerfel 6 5 1 1", "@thoin angriff ork kw=4", "@ork abwehr keine")
    assert only(events, "attack_announced")["weapons"] == ["Waffenlos"]
    assert only(events, "damage")["sp"] == 2


def test_the_default_weapon_fits_the_kind_of_attack() -> None:
    bow = weapon("Bogen", (1, 1), fernkampf=True)
    state = duel(waffen=(bow, weapon("Axt")))
    _, events = act(state, "@held angriff ork kw=2")
    assert only(events, "attack_announced")["weapons"] == ["Axt"]
    _, events = act(state, "@held fern ork kw=2 dist=1 groesse=riesig probe=3")
    assert only(events, "attack_announced")["weapons"] == ["Bogen"]


def test_a_fighter_without_any_weapon_is_told_how_to_get_one() -> None:
    state = duel(waffen=())
    with pytest.raises(IllegalAction) as error:
        act(state, "@held angriff ork kw=2")
    assert (error.value.key, error.value.params) == ("w6.combat.no_weapon", {"fighter": "held"})


def test_heavy_hits_spare_a_fighter_without_k_and_g_unless_a_threshold_is_fixed() -> None:
    quick = fighter("ork", k=0, g=0, schwelle=0, lp=20, rlp=0)
    state = combat(fighter("held", PLAYER, ab=8), quick, schwere_treffer=True)
    state, events = run(state, "wuerfel 6 6 1 1", "@held angriff ork kw=4", "@ork abwehr keine")
    assert not all_of(events, "heavy_hit") and state.fighter("ork").conscious
    fixed = replace(quick, schwelle=5)
    state = combat(fighter("held", PLAYER, ab=8), fixed, schwere_treffer=True)
    state, events = run(state, "wuerfel 6 6 1 1", "@held angriff ork kw=4", "@ork abwehr keine")
    heavy = only(events, "heavy_hit")
    assert heavy["knocked_out"] is True and heavy["schwelle"] == 5  # never lowered


def test_refresh_takes_the_sheet_and_keeps_what_the_combat_spent() -> None:
    from engines.w6 import refresh_action

    old = fighter_from_sheet(_sheet(waffen=[]), "thoin", PLAYER)
    state = combat(replace(old, ab=9), fighter("ork", ab=1), schwere_treffer=True)
    state, _ = run(state, "setze thoin schwelle=40", "@thoin handlung")
    state, _ = run(state, "setze thoin lp=21 kw=3", "zustand thoin +liegend")
    new = fighter_from_sheet(_sheet(kw=14, lp=30), "thoin", PLAYER)
    with pytest.raises(IllegalAction):
        apply(state, refresh_action(new), PLAYER)
    refreshed, events = apply(state, refresh_action(new), GM)
    thoin = refreshed.fighter("thoin")
    assert only(events, "refreshed") == {"fighter": "thoin", "name": new.name, "lp": 21}
    assert [w.name for w in thoin.waffen] == ["Streitaxt"] and thoin.kw_max == new.kw_max
    assert (thoin.lp, thoin.kw_left, thoin.conditions) == (21, 3, ("liegend",))
    assert thoin.schwelle == new.schwelle + (40 - old.schwelle)
    assert thoin.handlungen_left == old.handlungen_max - 1
    assert parse_action(refresh_action(new).text()) == refresh_action(new)
    undone, _ = act(refreshed, "zurueck")
    assert undone.fighters == state.fighters


def test_several_copies_join_in_one_step_and_a_second_undo_names_its_step() -> None:
    state = new_combat(GM, seed=3)
    state, events = apply(state, join_action(fighter("ork"), fighter("ork2")), GM)
    assert [e["fighter"] for e in all_of(events, "joined")] == ["ork", "ork2"]
    with pytest.raises(IllegalAction) as error:
        apply(state, join_action(fighter("a", PLAYER), fighter("b", OTHER)), PLAYER)
    assert error.value.params == {"fighter": "B"}
    state, _ = run(state, "beginnen", "setze ork lp=3")
    state, first = act(state, "zurueck")
    assert only(first, "undone")["action"] == "setze ork lp=3"
    state, second = act(state, "zurueck")
    assert only(second, "undone")["action"] == "beginnen"
    assert only(second, "undone")["undone_step"] == 2
    assert state.phase == 0


def test_an_ended_combat_marks_nobodys_turn() -> None:
    state, _ = act(duel(), "ende")
    assert not any(row["is_turn"] for row in status_view(state)["fighters"])


def test_undo_depth_is_bounded_and_named_in_the_refusal() -> None:
    state = duel()
    for bad in ("101", "-1"):
        with pytest.raises(BadInput) as error:
            act(state, f"regel undo_tiefe={bad}")
        assert (error.value.key, error.value.params["max"]) == (
            "w6.combat.bad_undo_depth",
            MAX_UNDO,
        )
    state, _ = act(state, "regel undo_tiefe=3")
    for lp in range(20, 28):
        state, _ = act(state, f"setze ork lp={lp}")
    assert can_undo(state)
    for _ in range(3):
        state, _ = act(state, "zurueck")
    assert state.fighter("ork").lp == 24
    with pytest.raises(IllegalAction) as refused:
        act(state, "zurueck")
    assert refused.value.key == "w6.combat.nothing_to_undo"


def test_a_combat_holds_at_most_max_fighters() -> None:
    state = new_combat(GM, seed=7, settings=Settings())
    crowd = [fighter(f"ork{i}") for i in range(MAX_FIGHTERS)]
    state, _ = apply(state, join_action(*crowd), GM)
    assert len(state.fighters) == MAX_FIGHTERS
    with pytest.raises(IllegalAction) as error:
        apply(state, join_action(fighter("troll")), GM)
    assert (error.value.key, error.value.params["max"]) == (
        "w6.combat.too_many_fighters",
        MAX_FIGHTERS,
    )


def test_when_nobody_can_act_any_more_the_phase_waits_for_the_gm() -> None:
    state = combat(fighter("held", PLAYER), fighter("ork"))
    state, _ = run(state, "zustand held +bewusstlos", "zustand ork +bewusstlos")
    assert to_act(state) == set() and state.phase == 1
    state, _ = act(state, "zustand ork -bewusstlos")
    assert to_act(state) == {"ork"}
    state, _ = run(state, "setze ork handlungen_max=0 handlungen=0")
    assert to_act(state) == set() and state.phase == 1
