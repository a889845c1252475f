"""W6 rules that players and game masters found wrong at the table (issue 10), each against the
rulebook sentence cited in data/w6/RULES.md."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engines.core import BadInput, IllegalAction
from engines.core.contract import DecisionKind
from engines.w6 import (
    derive,
    fighter_from_sheet,
    join_action,
    npc_from_text,
    sheet_from_json,
    state_from_json,
    state_to_json,
    status_view,
)
from engines.w6.engine import W6Combat
from engines.w6.state import ShieldStats
from tests.unit.test_w6_combat import (
    GM,
    PLAYER,
    act,
    all_of,
    combat,
    duel,
    fighter,
    only,
    run,
    to_act,
    verbs_for,
    weapon,
)
from tests.unit.test_w6_sheet import thoin_data

ENGINE = W6Combat()


def test_retreating_from_a_series_does_not_end_it() -> None:
    # «Das Zurückweichen kann zur Verteidigung gegen die Angriffe einer Angriffsserie eingesetzt
    # werden, diese jedoch aufgrund der Möglichkeit des Nachsetzens nicht beenden.»
    sword = weapon(ratio=(1, 1), techniken=("angriffsserie",))
    state = duel(waffen=(sword,), handlungen_max=3)
    state, _ = run(state, "wuerfel 5 5 5 5 5 5", "@held angriff ork kw=2 serie", "@ork abwehr kw=4")
    state, events = act(state, "@ork zurueckweichen")  # 4 successes against 2: twice as many
    assert not all_of(events, "series_ended")
    assert state.fighter("held").serie_zahl == 1
    state, events = run(state, "wuerfel 5 5", "@held angriff ork kw=2", "@ork abwehr keine")
    assert len(only(events, "attack_roll")["dice"]) == 2 + 2  # the second attack's bonus


def test_a_sweep_that_goes_on_after_a_failed_probe_is_an_ordinary_attack() -> None:
    # «Scheitert die Erschwernisprobe eines Rundumschlags, kann der Angriff … als ein
    # gewöhnlicher Angriff auf das erste Hexfeld weitergeführt werden.»
    flail = weapon(ratio=(1, 1), fert=3, techniken=("rundumschlag",))
    state = combat(fighter("held", PLAYER, ab=8, waffen=(flail,)), fighter("a"), fighter("b"))
    state, _ = run(state, "wuerfel 5 1 1 1 1 1", "@held rundum a,b erschwert=1 probe=6")
    assert state.pending is not None and state.pending.stage == "rundum"
    state, _ = run(state, "wuerfel 5 5 1", "@held rundum_weiter kw=3", "@a abwehr kw=2")
    assert state.pending is not None and state.pending.defence_mod == 0
    assert status_view(state)["pending"]["defence_required"] == 2
    state, events = run(state, "wuerfel 1 1", "@a wuerfeln")
    damage = only(events, "damage")
    assert damage["erschwert"] == 0 and damage["sp"] == 2 + 3


def test_two_weapon_fighting_deals_the_damage_of_both_chosen_weapons() -> None:
    # «Es ist lediglich ein Angriffswurf nötig, da hieraus der Basisschaden für beide Waffen
    # ermittelt wird.»
    blades = (
        weapon("Links", (1, 1), zusatz=1),
        weapon("Mitte", (1, 1), zusatz=5),
        weapon("Rechts", (1, 1), zusatz=2),
    )
    state = duel(waffen=blades, beidhaendig=True)
    state, events = run(
        state,
        "wuerfel 5 5 5 5 5 1",
        "@held beidhaendig ork probe=3 kw=3 waffe=Links waffe2=Rechts",
        "@ork abwehr keine",
    )
    assert [d["weapon"] for d in all_of(events, "damage")] == ["Links", "Rechts"]


def test_the_second_throw_of_a_shield_wall_needs_its_successes() -> None:
    # Komplexe Probe: «gilt nur dann als vollständig gelungen, wenn in jedem einzelnen
    # Probenwurf die jeweils geforderten Erfolge erzielt wurden.»
    shield = ShieldStats("Turmschild", kw_bonus=3, block=4)
    state = duel(b={"schild": shield, "schildkampf": 2}, handlungen_max=3)
    state, _ = act(state, "@held weiter")
    state, events = run(state, "wuerfel 5 5 5 5 5 5 1 1", "@ork blockade probe=6 kw=2")
    assert only(events, "probe")["ok"]
    assert state.fighter("ork").blockade == 0
    assert only(events, "shield_wall_failed")["successes"] == 0
    assert not all_of(events, "shield_wall")


def test_a_weapon_without_a_stated_cap_deals_skill_times_faktor() -> None:
    # «Der Wert der entsprechenden Waffenfertigkeit wird mit dem Faktor des Erfahrungswertes
    # multipliziert»; a cap is the Waffentabelle's, a weapon without one is not capped at 0.
    data = thoin_data()
    data["fertigkeiten"] = {"Stichwaffen": 3}
    data["waffen"] = [{"name": "Dolch", "fertigkeit": "Stichwaffen", "schaden": "1-1"}]
    sheet = sheet_from_json(data)
    assert derive(sheet).waffen[0].fertigkeitsschaden == 3 * 2
    assert fighter_from_sheet(sheet, "thoin", None).waffen[0].fertigkeitsschaden == 6


def test_a_tie_on_the_aktionsbasis_is_the_choice_of_the_higher_intuition() -> None:
    # «… so darf derjenige mit der höheren Intuition (IN) entscheiden, ob er zuerst oder
    # nachfolgend handelt.»
    state = combat(
        fighter("a", PLAYER, ab=5, intuition=4), fighter("b", ab=5, intuition=2), fighter("c", ab=3)
    )
    assert state.pending is not None and to_act(state) == {"a"}
    assert verbs_for(state, "a") == ("zuerst", "danach")
    mine = [d for d in ENGINE.decisions(state) if d.seat == 1]
    assert [(d.kind, d.prompt) for d in mine] == [(DecisionKind.CHOICE, "w6.decision.reihenfolge")]
    assert {a.text() for a in ENGINE.legal_actions(state, 1)} == {"@a zuerst", "@a danach"}
    with pytest.raises(IllegalAction):
        act(state, "@b handlung")
    first, _ = act(state, "@a zuerst", PLAYER)
    assert first.current == "a" and first.pending is None
    after, _ = act(state, "@a danach", PLAYER)
    assert after.order == ("b", "a", "c") and after.current == "b" and after.pending is None
    after, _ = run(after, "@b fertig")
    assert after.current == "a" and after.pending is None  # asked once per phase
    state_from_json(json.loads(json.dumps(state_to_json(after))))


def test_a_tie_with_equal_intuition_keeps_the_join_order() -> None:
    state = combat(fighter("a", ab=5, intuition=3), fighter("b", ab=5, intuition=3))
    assert state.pending is None and state.current == "a"


def test_quick_npcs_take_rlp_for_the_kraft_check() -> None:
    goblin = npc_from_text("Goblin lp=10 kw=4 ab=3 rlp=4")
    assert goblin.rlp == 4
    npc = fighter_from_sheet(goblin, "gob", None)
    state = combat(fighter("held", PLAYER, ab=8), replace(npc, kraft=1))
    state, events = run(state, "wuerfel 6 6 6 1", "@held angriff gob kw=3", "@gob abwehr keine")
    assert only(events, "kraft_check")["fighter"] == "gob"


def test_the_defender_locked_in_a_series_is_never_the_one_to_act() -> None:
    # «Der Verteidiger ist für die Dauer der Angriffsserie mit Ausnahme des Zurückweichens zu
    # keiner Aktion fähig, die eine Handlung benötigt.»
    sword = weapon(ratio=(1, 1), techniken=("angriffsserie",))
    state = duel(waffen=(sword,), handlungen_max=3)
    state, _ = run(state, "@held weiter", "@ork handlung")
    state, _ = run(state, "wuerfel 5 5", "@held angriff ork kw=2 serie", "@ork abwehr keine")
    assert state.current == "ork"  # the ork's turn, but it is held in the series
    assert to_act(state) == {"held"}
    rows = {row["id"]: row for row in status_view(state)["fighters"]}
    assert not rows["ork"]["is_turn"]
    turns = [d for d in ENGINE.decisions(state) if d.kind == DecisionKind.TURN]
    assert all("ork" not in d.params.get("fighters", ()) for d in turns)
    state, events = run(state, "wuerfel 5 5", "@held angriff ork kw=2", "@ork abwehr keine")
    assert len(only(events, "attack_roll")["dice"]) == 2 + 2


def test_a_fighter_out_of_the_fight_does_not_act() -> None:
    # «Sinken die LP auf einen Wert kleiner als Null …» (sterbend); LP 0 or unconscious: out.
    state = combat(fighter("held", PLAYER, ab=3), fighter("goblin", ab=8, lp=-5))
    assert state.fighter("goblin").has("sterbend")
    assert state.current == "held" and to_act(state) == {"held"}
    rows = {row["id"]: row for row in status_view(state)["fighters"]}
    assert rows["goblin"]["out_of_fight"] and not rows["held"]["out_of_fight"]
    assert all("goblin" not in d.params.get("fighters", ()) for d in ENGINE.decisions(state))
    zero = combat(fighter("held", PLAYER, ab=3), fighter("goblin", ab=8, lp=0))
    assert zero.current == "held" and to_act(zero) == {"held"}
    with pytest.raises(IllegalAction):
        act(zero, "@goblin handlung")
    joined = combat(fighter("held", PLAYER, ab=3))
    goblin = fighter_from_sheet(npc_from_text("Goblin lp=-2 kw=4 ab=9"), "late", None)
    joined, events = act(joined, join_action(goblin).text())
    assert only(events, "dying")["lp"] == -2
    assert joined.fighter("late").has("sterbend") and "late" not in to_act(joined)


def test_a_fighter_without_reflex_dice_is_not_offered_the_reflex() -> None:
    state = duel(b={"reflex": 0})
    assert "reflex" not in verbs_for(state, "ork")
    rows = {row["id"]: row for row in status_view(state)["fighters"]}
    assert not rows["ork"]["reflex_available"] and rows["held"]["reflex_available"]
    assert all(d.prompt != "w6.decision.reflex" or "ork" not in d.params["fighters"]
               for d in ENGINE.decisions(state))  # fmt: skip
    with pytest.raises(IllegalAction) as error:
        act(state, "@ork reflex")
    assert error.value.key == "w6.combat.no_reflex"
    state, _ = act(state, "@held angriff ork kw=2")
    assert "@ork abwehr reflex" not in {a.text() for a in ENGINE.legal_actions(state, 0)}
    with pytest.raises(IllegalAction):
        act(state, "@ork abwehr reflex")
    assert state.fighter("ork").reflex == 0 and GM


def test_a_combat_stored_before_the_new_fields_reads_back() -> None:
    blades = (weapon("Links", (1, 1)), weapon("Rechts", (1, 1)))
    state = duel(waffen=blades, beidhaendig=True)
    state, _ = run(state, "wuerfel 5 5 5", "@held beidhaendig ork probe=3")
    data = json.loads(json.dumps(state_to_json(state)))
    del data["tie_asked"]
    del data["pending"]["weapon2"]
    old = state_from_json(data)
    assert old.tie_asked == () and old.pending is not None and old.pending.weapon2 == ""
    data["surprise"] = 1
    with pytest.raises(BadInput):
        state_from_json(data)
