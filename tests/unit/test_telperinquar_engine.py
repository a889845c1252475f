"""Telperinquár rules with forced dice: the rulebook's critical-hit example, wounds per turn,
fumbles, threat ranges, reactions, phases, levels, 2 vs 2, double class, SVO, secrecy, and
one scenario per support card."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from engines.core import IllegalAction
from engines.core.contract import DecisionKind
from engines.telperinquar.cards import builtin_cards, heroes
from engines.telperinquar.engine import (
    ENGINE,
    TqState,
    armour,
    targets,
)
from engines.telperinquar.scenario import run as run_scenario

DOUBLE = (
    "1 Zauberer\n1 Schurke\n5 Stufenkarte Zauberer\n5 Stufenkarte Schurke\n"
    "4 Dolch\n4 Feuerpfeil\n4 Wolf\n4 Heiltrank\n4 Irrlicht\n4 Kurzbogen\n4 Ausweichen\n"
    "2 Hinterhalt\n"
)


def fresh(decks: tuple[str, ...] = ("kaempfer", "schurke"), **config: Any) -> dict[str, Any]:
    players = len(decks)
    state = ENGINE.initial_state({"decks": list(decks), **config}, 1, players)
    return json.loads(json.dumps(ENGINE.state_to_json(state)))


def main_phase(d: dict[str, Any], seat: int = 0, round_: int = 2) -> dict[str, Any]:
    """Seat ``seat`` in its Hauptphase of round ``round_`` with 30 actions and 20 LP (the
    figures of these tests, whatever a hero starts with), nothing pending."""
    d["cur"] = d["order"].index(seat)
    d["round"], d["phase"], d["combat"] = round_, "main", "none"
    d["stack"], d["ask"] = [], None
    for p in d["players"]:
        p["actions"] = 30
        p["life"] = 20
    return d


_counter = [0]


def give(d: dict[str, Any], seat: int, name: str, zone: str = "hand", **info: Any) -> str:
    _counter[0] += 1
    cid = f"t{_counter[0]}"
    d["cards"][cid] = {"name": name, "owner": seat, **info}
    d["players"][seat][zone].append(cid)
    return cid


def st(d: dict[str, Any]) -> TqState:
    return ENGINE.state_from_json(d)


def do(d: dict[str, Any], seat: int, text: str) -> tuple[dict[str, Any], list[Any]]:
    state, events = ENGINE.apply(st(d), ENGINE.parse_action(text), seat)
    return ENGINE.state_to_json(state), events


def levels_to(d: dict[str, Any], seat: int, level: int) -> None:
    for cls in d["players"][seat]["levels"]:
        d["players"][seat]["levels"][cls] = level


def test_rulebook_critical_hit_example() -> None:
    """Sword +3 against an unwounded Wesen with 20 LP and Rüstung 2; a 10 is rolled: wounded
    at once, 13 - 2 = 11 damage (9 left), it strikes back, and dies at the end of the turn."""
    d = main_phase(fresh())
    levels_to(d, 0, 3)
    sword = give(d, 0, "Langschwert", "equip")
    golem = give(d, 1, "Steingolem", "row")
    d["forced"] = [10, 4]
    d, events = do(d, 0, f"use {sword} {golem}")
    assert d["cards"][golem]["wounded"] is True
    assert d["cards"][golem]["dmg"] == 11
    counter = next(e for e in events if e.type == "counter")
    assert counter.data == {"die": 4, "bonus": 3, "target": "h0"}
    assert d["players"][0]["life"] == 20 - (4 + 3 - armour(st(d), 0))
    wounded = next(e for e in events if e.type == "wesen_wounded")
    assert wounded.data["why"] == "critical"  # told at once, not only at its death
    assert not any(e.type == "wesen_died" for e in events)  # 11 of 20: alive until the end
    d, events = do(d, 0, "next")
    assert golem not in d["players"][1]["row"] and golem in d["players"][1]["discard"]
    died = next(e for e in events if e.type == "wesen_died")
    assert died.data["why"] == "wounded_twice"


def test_half_damage_wounds_then_a_second_wounding_kills() -> None:
    d = main_phase(fresh())
    levels_to(d, 0, 3)
    sword = give(d, 0, "Langschwert", "equip")
    golem = give(d, 1, "Steingolem", "row")
    d["forced"] = [9, 1]  # 9 + 3 - 2 = 10: exactly half, not more
    d, _ = do(d, 0, f"use {sword} {golem}")
    d, _ = do(d, 0, "next")
    assert golem in d["players"][1]["row"] and "wounded" not in d["cards"][golem]
    d = main_phase(d)
    d["forced"] = [10 - 1, 1, 2, 1]
    d, _ = do(d, 0, f"use {sword} {golem}")  # 10 again ...
    d, _ = do(d, 0, f"use {sword} {golem}")  # ... + 3 = 13 in this turn: more than half
    d, _ = do(d, 0, "next")
    assert d["cards"][golem]["wounded"] is True
    d = main_phase(d)
    d["forced"] = [9, 1, 2, 1]
    d, _ = do(d, 0, f"use {sword} {golem}")
    d, _ = do(d, 0, f"use {sword} {golem}")
    d, _ = do(d, 0, "next")
    assert golem in d["players"][1]["discard"]


def test_a_last_throw_is_told_before_the_knife_is_gone_and_no_counter_is_said() -> None:
    d = main_phase(fresh())
    knife = give(d, 0, "Wurfmesser", "equip", charges=1)
    d["forced"] = [5]
    d, events = do(d, 0, f"use {knife} h1")
    kinds = [e.type for e in events]
    assert kinds.index("roll") < kinds.index("spent")
    assert kinds[-1] == "spent" and "counter" not in kinds
    assert next(e for e in events if e.type == "no_counter").data["why"] == "ranged"


def test_critical_hit_on_a_wounded_wesen_kills_at_once() -> None:
    d = main_phase(fresh())
    sword = give(d, 0, "Dolch", "equip")
    wolf = give(d, 1, "Wolf", "row", wounded=True)
    d["forced"] = [10, 5]
    d, events = do(d, 0, f"use {sword} {wolf}")
    assert wolf in d["players"][1]["discard"]
    assert any(e.type == "counter" for e in events)  # still owed when the defender dies


def test_fumble_deals_nothing_and_crit_ignores_hero_armour() -> None:
    d = main_phase(fresh())
    levels_to(d, 1, 5)
    d["players"][1]["life"] = 30
    sword = give(d, 0, "Dolch", "equip")
    give(d, 1, "Lederrüstung", "equip")
    d["forced"] = [1, 1]
    d, _ = do(d, 0, f"use {sword} h1")
    assert d["players"][1]["life"] == 30
    d["forced"] = [10, 1]
    d, _ = do(d, 0, f"use {sword} h1")
    assert armour(st(d), 1) == 2  # Schurke level 5: Rüstung 1, leather +1; a critical ignores it
    assert d["players"][1]["life"] == 30 - 11


def test_hero_is_protected_by_its_wesen_and_flying_and_mist_rules() -> None:
    d = main_phase(fresh())
    wolf = give(d, 1, "Wolf", "row")
    assert targets(st(d), "h0", "melee", 0) == [wolf]
    d["players"][1]["row"] = []
    hawk = give(d, 1, "Falke", "row")
    assert targets(st(d), "h0", "melee", 0) == ["h1"]  # the flying Wesen cannot be hit in melee
    assert set(targets(st(d), "h0", "ranged", 0)) == {hawk}
    d["players"][1]["row"] = []
    wisp = give(d, 1, "Irrlicht", "row")
    assert targets(st(d), "h0", "ranged", 0) == ["h1"]  # mist form: no ranged target
    assert wisp not in targets(st(d), "h0", "ranged", 0)


def test_no_offensive_action_in_the_first_round() -> None:
    d = main_phase(fresh(), round_=1)
    sword = give(d, 0, "Dolch", "equip")
    acts = [str(a) for a in ENGINE.legal_actions(st(d), 0)]
    assert not any(a.startswith(f"use {sword}") for a in acts)
    with pytest.raises(IllegalAction):
        do(d, 0, f"use {sword} h1")


def test_reaction_is_asked_only_of_a_seat_that_can_answer() -> None:
    d = main_phase(fresh())
    sword = give(d, 0, "Dolch", "equip")
    d["forced"] = [5, 5]
    d, _ = do(d, 0, f"use {sword} h1")  # the Schurke has no defensive card: no question
    assert d["ask"] is None and d["players"][1]["life"] == 20 - 6
    dodge = give(d, 1, "Ausweichen", "field")
    levels_to(d, 1, 3)
    d, events = do(d, 0, f"use {sword} h1")
    waits = next(e for e in events if e.type == "waits")  # the attacker learns it waits
    assert waits.data == {"player": 1} and waits.visible_to == frozenset({0})
    (decision,) = ENGINE.decisions(st(d))
    assert (decision.seat, decision.kind) == (1, DecisionKind.REACTION)
    assert {str(a) for a in ENGINE.legal_actions(st(d), 1)} == {"pass", f"react {dodge}"}
    life = d["players"][1]["life"]
    d, events = do(d, 1, f"react {dodge}")
    assert d["players"][1]["life"] == life and any(e.type == "parried" for e in events)
    assert d["cards"][dodge]["inaktion"] is True
    assert d["players"][1]["actions"] == 30 - 2


def test_a_reaction_can_be_answered() -> None:
    d = main_phase(fresh(("zauberer", "zauberer")))
    levels_to(d, 0, 5)
    levels_to(d, 1, 5)
    bolt = give(d, 0, "Feuerpfeil", "field")
    shield = give(d, 1, "Magischer Schild", "field")
    counter = give(d, 0, "Gegenzauber", "field", charges=2)
    d["forced"] = [6, 6]
    d, _ = do(d, 0, f"use {bolt} h1")
    d, _ = do(d, 1, f"react {shield}")  # the shield answers the bolt ...
    assert d["ask"] == 0  # ... and the caster may answer the shield
    d, events = do(d, 0, f"react {counter}")
    assert any(e.type == "parried" for e in events)
    assert d["players"][1]["life"] == 20 - (6 + 2 - 1)  # level 5 resistance 1, no shield


def test_level_cards_only_in_the_entry_phase_and_life_rises() -> None:
    d = fresh()
    seat = d["order"][0]
    d["cur"], d["phase"], d["ask"] = 0, "entry", None
    cls = d["players"][seat]["classes"][0]
    level = give(d, seat, f"Stufenkarte {heroes()[cls].name}", level=cls)
    d, _ = do(d, seat, f"level {level}")
    p = d["players"][seat]
    assert list(p["levels"].values()) == [2] and p["life"] == 22 and d["phase"] == "main"
    again = give(d, seat, d["cards"][level]["name"], level=cls)
    assert f"level {again}" not in [str(a) for a in ENGINE.legal_actions(st(d), seat)]


def test_laying_a_level_card_refreshes_to_the_new_levels_actions() -> None:
    """The level card is laid before "der Aktionspool wird aufgefrischt": level 2 -> 3 gives
    the level-3 Aktionen (4) in this very turn; the laid card is not on the discard pile."""
    d = fresh()
    seat = d["order"][0]
    d["cur"], d["phase"], d["ask"] = 0, "entry", None
    levels_to(d, seat, 2)
    d["players"][seat]["actions"] = 1  # what is left of the last round's pool
    cls = d["players"][seat]["classes"][0]
    level = give(d, seat, f"Stufenkarte {heroes()[cls].name}", level=cls)
    d, _ = do(d, seat, f"level {level}")
    p = d["players"][seat]
    assert p["levels"][cls] == 3 and p["actions"] == 4 and d["phase"] == "main"
    assert level in p["laid"] and level not in p["discard"]
    view = ENGINE.view_for(st(d), seat)
    assert view["players"][seat]["discard"] == []


def test_identical_level_cards_are_offered_once() -> None:
    d = fresh()
    seat = d["order"][0]
    d["cur"], d["phase"], d["ask"] = 0, "entry", None
    cls = d["players"][seat]["classes"][0]
    d["players"][seat]["hand"] = []
    for _ in range(3):
        give(d, seat, f"Stufenkarte {heroes()[cls].name}", level=cls)
    levels = [a for a in ENGINE.legal_actions(st(d), seat) if a.words[0] == "level"]
    assert len(levels) == 1


def test_declining_the_level_card_refreshes_to_the_current_level() -> None:
    d = fresh()
    seat = d["order"][0]
    d["cur"], d["phase"], d["ask"] = 0, "entry", None
    levels_to(d, seat, 3)
    d["players"][seat]["actions"] = 0
    cls = d["players"][seat]["classes"][0]
    give(d, seat, f"Stufenkarte {heroes()[cls].name}", level=cls)
    d, _ = do(d, seat, "go")
    assert d["players"][seat]["actions"] == 4 and d["phase"] == "main"


def test_double_class_life_once_per_level() -> None:
    d = fresh((DOUBLE, "kaempfer"))
    p = d["players"][0]
    assert set(p["classes"]) == {"zauberer", "schurke"}
    d["cur"] = d["order"].index(0)
    d["phase"], d["ask"] = "entry", None
    first = give(d, 0, "Stufenkarte Zauberer", level="zauberer")
    d, _ = do(d, 0, f"level {first}")
    assert d["players"][0]["life"] == 22
    d["phase"] = "entry"
    second = give(d, 0, "Stufenkarte Schurke", level="schurke")
    d, _ = do(d, 0, f"level {second}")
    assert d["players"][0]["levels"] == {"zauberer": 2, "schurke": 2}
    assert d["players"][0]["life"] == 22  # level 2 was reached already


def test_two_vs_two_order_alternates_and_skips_a_fallen_hero() -> None:
    state = ENGINE.initial_state({"mode": "2v2"}, 3, 4)
    d = ENGINE.state_to_json(state)
    order = d["order"]
    assert [d["teams"][s] for s in order] in ([0, 1, 0, 1], [1, 0, 1, 0])
    fallen = order[1]
    d = main_phase(d, order[0])
    d["players"][fallen]["life"] = 0
    d, events = do(d, order[0], "next")
    assert any(e.type == "hero_fell" for e in events)
    assert d["order"][d["cur"]] == order[2]


def test_team_mate_wesen_may_take_the_attack() -> None:
    d = ENGINE.state_to_json(ENGINE.initial_state({"mode": "2v2"}, 3, 4))
    attacker = d["order"][0]
    victim = d["order"][1]
    mate = next(s for s in range(4) if d["teams"][s] == d["teams"][victim] and s != victim)
    d = main_phase(d, attacker)
    sword = give(d, attacker, "Dolch", "equip")
    guard = give(d, mate, "Wolf", "row")
    d["forced"] = [5, 5]
    d, _ = do(d, attacker, f"use {sword} h{victim}")
    assert d["ask"] == mate
    d, _ = do(d, mate, f"intercept {guard}")
    assert d["players"][victim]["life"] == 20 and d["cards"][guard]["dmg"] == 6


def test_svo_deals_w20_in_the_supply_phase() -> None:
    d = fresh(svo=True)
    d["svo_on"] = True
    d = main_phase(d)
    d["forced"] = [13]
    life = d["players"][d["order"][1]]["life"]
    nxt = d["order"][(d["order"].index(0) + 1) % 2]
    d["players"][nxt]["hand"] = [
        c for c in d["players"][nxt]["hand"] if "level" not in d["cards"][c]
    ]
    d["players"][nxt]["deck"] = []
    d, events = do(d, 0, "next")
    assert any(e.type == "svo" and e.data["damage"] == 13 for e in events)
    assert d["players"][nxt]["life"] == life - 13


def test_hands_and_piles_are_secret_in_views() -> None:
    state = ENGINE.initial_state({}, 5, 2)
    mine = ENGINE.view_for(state, 0)
    theirs = json.dumps(ENGINE.view_for(state, 1))
    assert len(mine["players"][0]["hand"]) in (7, 8)
    assert "hand" not in ENGINE.view_for(state, 1)["players"][0]
    assert not any(c in theirs for c in ENGINE.secrets_of(state, 0))
    assert (
        ENGINE.view_for(state, None)["players"][0]["hand_count"] == mine["players"][0]["hand_count"]
    )


def test_taking_equipment_back_keeps_charges_and_a_new_secret_id() -> None:
    d = main_phase(fresh(("schurke", "kaempfer")))
    knives = give(d, 0, "Wurfmesser", "equip", charges=2)
    d, _ = do(d, 0, f"take {knives}")
    assert knives not in d["cards"]
    (back,) = [c for c in d["players"][0]["hand"] if d["cards"][c]["name"] == "Wurfmesser"]
    assert d["cards"][back]["charges"] == 2


def test_a_taken_back_card_never_gets_an_id_the_log_showed_before() -> None:
    """An id that left play by 'take' is in the public log; a card in a hand that got it
    again would be known (a long random game gave a Langschwert in a hand the id of a card
    the other seat had taken back)."""
    d = main_phase(fresh(("kaempfer", "schurke")))
    levels_to(d, 0, 10)
    sword = give(d, 0, "Speer", "equip")
    armour = give(d, 0, "Lederrüstung", "equip")
    rng = d["rng"]
    d, _ = do(d, 0, f"take {sword}")
    (seen,) = [c for c in d["players"][0]["hand"] if d["cards"][c]["name"] == "Speer"]
    d, _ = do(d, 0, f"play {seen}")
    d, _ = do(d, 0, f"take {seen}")  # the log shows 'play <seen>' and 'take <seen>'
    assert seen not in d["cards"]
    d["rng"] = rng  # the draw that handed out <seen> comes again
    d, _ = do(d, 0, f"take {armour}")
    (back,) = [c for c in d["players"][0]["hand"] if d["cards"][c]["name"] == "Lederrüstung"]
    assert back != seen


# ---------------------------------------------------------------- one scenario per card


@pytest.mark.parametrize("card", builtin_cards(), ids=lambda c: c.name)
def test_card_scenario(card: Any) -> None:
    """Each card's own [card.test] (forced dice, expectations in its data) holds."""
    assert run_scenario(card) == []


def test_a_broken_expectation_is_reported() -> None:
    card = next(c for c in builtin_cards() if c.name == "Langschwert")
    test = dict(card.get("test"))
    test["expect"] = {"h1.life": 99}
    wrong = replace(card, data={**card.data, "test": test})
    assert run_scenario(wrong) == ["Langschwert: h1.life is 11, expected 99"]


def test_a_wesen_attacks_once_per_turn_twice_with_beidhaendigkeit() -> None:
    d = main_phase(fresh(("schurke", "kaempfer")))
    levels_to(d, 0, 10)
    wolf = give(d, 0, "Wolf", "row")
    dancer = give(d, 0, "Klingentänzerin", "row")
    d["forced"] = [2] * 20
    d, _ = do(d, 0, f"use {wolf} h1")
    d, _ = do(d, 0, f"use {dancer} h1")
    d, _ = do(d, 0, f"use {dancer} h1")  # the second attack is paid with the first
    uses = [str(a) for a in ENGINE.legal_actions(st(d), 0) if a.words[0] == "use"]
    assert not any(wolf in u or dancer in u for u in uses)
    assert d["players"][0]["actions"] == 30 - 1 - 2
    assert d["players"][1]["life"] == 20 - 3 - 3 - 3


def test_flying_wesen_intercepts_and_a_hidden_wesen_steps_in() -> None:
    d = main_phase(fresh())
    sword = give(d, 0, "Dolch", "equip")
    hawk = give(d, 1, "Falke", "row")
    d["forced"] = [5, 1, 1, 1]
    d, _ = do(d, 0, f"use {sword} h1")  # the hawk does not protect against melee
    assert f"intercept {hawk}" in [str(a) for a in ENGINE.legal_actions(st(d), 1)]
    d, _ = do(d, 1, f"intercept {hawk}")
    assert d["players"][1]["life"] == 20 and hawk in d["players"][1]["discard"]  # 6 >= 4 LP
    cat = give(d, 1, "Schattenkatze", "row", hidden=True)
    d, _ = do(d, 0, f"use {sword} h1")
    d, _ = do(d, 1, f"reveal {cat}")
    assert "hidden" not in d["cards"][cat] and d["players"][1]["life"] == 20


def test_area_effect_hits_neighbours_and_a_critical_only_the_target() -> None:
    d = main_phase(fresh(("zauberer", "kaempfer")))
    levels_to(d, 0, 10)
    ball = give(d, 0, "Feuerball", "field")
    left, middle, right, far = (give(d, 1, "Steingolem", "row") for _ in range(4))
    d["forced"] = [10]
    d, _ = do(d, 0, f"use {ball} {middle}")
    assert d["cards"][middle]["wounded"] is True  # the critical hit: only the direct target
    assert "wounded" not in d["cards"][left] and "wounded" not in d["cards"][right]
    assert d["cards"][left]["dmg"] == d["cards"][right]["dmg"] == 13  # magical: Resistenz 0
    assert d["cards"][middle]["dmg"] == 13 and "dmg" not in d["cards"][far]
    d = main_phase(d)
    d["cards"][ball].pop("inaktion")  # a new round: attack spells are InAktion
    d["forced"] = [1]
    d, _ = do(d, 0, f"use {ball} {far}")  # a fumble: nothing for anyone
    assert d["cards"][far]["dmg"] == 0 and d["cards"][right]["dmg"] == 13


def test_immunity_double_damage_and_shadowiness() -> None:
    d = main_phase(fresh(("zauberer", "kaempfer")))
    levels_to(d, 0, 10)
    bolt = give(d, 0, "Feuerpfeil", "field")
    fire = give(d, 1, "Feuerelementar", "row")
    ice = give(d, 1, "Eiselementar", "row")
    d["forced"] = [6]
    d, _ = do(d, 0, f"use {bolt} {fire}")
    assert d["cards"][fire]["dmg"] == 0  # immune to fire
    d["cards"][bolt].pop("inaktion")  # a new round: attack spells are InAktion
    d["forced"] = [4]
    d, _ = do(d, 0, f"use {bolt} {ice}")
    assert d["cards"][ice]["dmg"] == (4 + 2 - 2) * 2  # resistance 2, double fire damage
    d = main_phase(fresh(("zauberer", "kaempfer")))
    levels_to(d, 0, 10)
    bolt = give(d, 0, "Feuerpfeil", "field")
    ghost = give(d, 1, "Schattenkatze", "row")
    d["forced"] = [5, 2]  # 7 damage, but the W10 for Schattenhaftigkeit shows 2
    d, _ = do(d, 0, f"use {bolt} {ghost}")
    assert d["cards"][ghost]["dmg"] == 0 and ghost in d["players"][1]["row"]


def test_healing_a_wesen_over_half_unwounds_it() -> None:
    d = main_phase(fresh(("geistlicher", "kaempfer")))
    levels_to(d, 0, 10)
    guard = give(d, 0, "Tempelwächter", "row", wounded=True)
    heal = give(d, 0, "Große Heilung", "field")
    d["forced"] = [4]  # 4 + 5 = 9 magical, − resistance 1 = 8: exactly half of 16, not more
    d, _ = do(d, 0, f"use {heal} {guard}")
    assert d["cards"][guard]["wounded"] is True
    d["cards"][heal].pop("inaktion")  # a new round: healing spells are InAktion
    d["forced"] = [10]  # a critical healing un-wounds whatever the amount
    d, _ = do(d, 0, f"use {heal} {guard}")
    assert "wounded" not in d["cards"][guard]


def test_two_weapon_attack_adds_both_bonuses_and_draws_one_counter() -> None:
    d = main_phase(fresh(("schurke", "kaempfer")))
    levels_to(d, 0, 10)
    a = give(d, 0, "Dolch", "equip")
    b = give(d, 0, "Schattendolch", "equip")
    d["forced"] = [5, 3]
    d, events = do(d, 0, f"dual {a} {b} h1")
    assert d["players"][1]["life"] == 20 - (5 + 1 + 2)
    assert [e.type for e in events].count("counter") == 1
    assert d["players"][0]["actions"] == 30 - 2 - 2  # both use costs


def test_equipment_limits_follow_the_hero_card() -> None:
    d = main_phase(fresh(("zauberer", "kaempfer")))
    levels_to(d, 0, 10)
    give(d, 0, "Zauberstab", "equip")
    second = give(d, 0, "Dolch")
    shield = give(d, 0, "Holzschild")
    plate = give(d, 0, "Kettenhemd")
    acts = {str(a) for a in ENGINE.legal_actions(st(d), 0)}
    assert not {f"play {second}", f"play {shield}", f"play {plate}"} & acts
    d = main_phase(fresh(("kaempfer", "schurke")))
    levels_to(d, 0, 10)
    give(d, 0, "Zweihänder", "equip")
    dagger = give(d, 0, "Dolch")
    assert f"play {dagger}" not in {str(a) for a in ENGINE.legal_actions(st(d), 0)}


def test_a_shield_worn_first_leaves_the_weapon_hand_free() -> None:
    """The shield is the second piece ("eine zweite Waffe oder ein Schild"): a hero who put on
    a shield first may still take up a weapon, but no large one and no second one."""
    d = main_phase(fresh(("kaempfer", "schurke")))
    levels_to(d, 0, 10)
    give(d, 0, "Holzschild", "equip")
    mace = give(d, 0, "Streitkolben")
    sword = give(d, 0, "Zweihänder")
    acts = {str(a) for a in ENGINE.legal_actions(st(d), 0)}
    assert f"play {mace}" in acts and f"play {sword}" not in acts
    d, _ = do(d, 0, f"play {mace}")
    dagger = give(d, 0, "Dolch")
    assert f"play {dagger}" not in {str(a) for a in ENGINE.legal_actions(st(d), 0)}


def test_long_term_effects_resolve_in_the_supply_phase_and_inaktion_resets() -> None:
    d = main_phase(fresh(("schurke", "kaempfer")))
    levels_to(d, 0, 10)
    poison = give(d, 0, "Giftklinge", "field", charges=3)
    ambush = give(d, 0, "Hinterhalt", "field")
    d, _ = do(d, 0, f"use {poison} h1")
    d, _ = do(d, 0, f"use {ambush}")
    assert d["players"][1]["life"] == 17 and d["cards"][ambush]["inaktion"] is True
    for seat in (1, 0):  # the other player's turn, then ours again
        p = d["players"][seat]
        p["hand"] = [c for c in p["hand"] if "level" not in d["cards"][c]]
        p["deck"] = [c for c in p["deck"] if "level" not in d["cards"][c]]
    d, _ = do(d, 0, "next")
    d, _ = do(d, d["order"][d["cur"]], "next")
    assert d["order"][d["cur"]] == 0 and d["phase"] == "main"
    assert d["players"][1]["life"] == 14  # the poison again, in our Versorgungsphase
    assert "inaktion" not in d["cards"][ambush]


def test_bot_choice_does_not_depend_on_hidden_cards() -> None:
    import random as stdlib_random

    d = main_phase(fresh())
    levels_to(d, 0, 3)
    give(d, 0, "Dolch", "equip")
    other = dict(json.loads(json.dumps(d)))
    p = other["players"][1]
    p["hand"], p["deck"] = p["deck"][: len(p["hand"])], p["hand"] + p["deck"][len(p["hand"]) :]
    assert ENGINE.view_for(st(d), 0) == ENGINE.view_for(st(other), 0)
    picks = {
        str(ENGINE.choose_action(st(x), 0, "normal", 1.0, stdlib_random.Random(5)))
        for x in (d, other)
    }
    assert len(picks) == 1


def bare_main_phase(level: int, decks: tuple[str, ...] = ("kaempfer", "schurke")) -> dict[str, Any]:
    """A duel in seat 0's Hauptphase (``main_phase``) with its hero at ``level``, its hand
    empty and no Wesen in either row: a clean table for one bot decision."""
    d = main_phase(fresh(decks))
    levels_to(d, 0, level)
    d["players"][0]["hand"] = []
    for p in d["players"]:
        p["row"] = []
    return d


def test_bot_at_zero_life_heals_or_stops_instead_of_walking_into_a_counter() -> None:
    import random as stdlib_random

    d = bare_main_phase(3)
    dagger = give(d, 0, "Dolch", "equip")
    d["players"][0]["life"] = 10
    pick = str(ENGINE.choose_action(st(d), 0, "normal", 1.0, stdlib_random.Random(5)))
    assert pick.startswith(f"use {dagger}")  # healthy: it attacks
    d["players"][0]["life"] = -3
    pick = str(ENGINE.choose_action(st(d), 0, "normal", 1.0, stdlib_random.Random(5)))
    assert not pick.startswith(f"use {dagger}")  # at 0 LP: no melee blow that draws a counter
    potion = give(d, 0, "Heiltrank", "equip")
    pick = str(ENGINE.choose_action(st(d), 0, "normal", 1.0, stdlib_random.Random(5)))
    assert pick.startswith(f"use {potion}")  # and it heals when it can


def test_normal_bot_poisons_the_enemy_hero_past_its_armour() -> None:
    """Issue 22: ``normal`` used a poison (Giftklinge) only when nothing else was left; armour
    does not stop it, so it is an attack like a blow: before laying a card, after a blow
    that lands in full."""
    import random as stdlib_random

    d = bare_main_phase(5, ("schurke", "geistlicher"))
    poison = give(d, 0, "Giftklinge", "field", charges=3)
    give(d, 0, "Turmwache", "hand")
    d["players"][0]["actions"] = 9
    pick = str(ENGINE.choose_action(st(d), 0, "normal", 1.0, stdlib_random.Random(5)))
    assert pick == f"use {poison} h1"


def _hard_scene(pool: int) -> tuple[dict[str, Any], str]:
    d = bare_main_phase(3)
    dagger = give(d, 0, "Dolch", "equip")
    d["players"][0]["actions"] = pool
    return d, dagger


def test_hard_bot_plays_next_attack_bonus_before_the_attack() -> None:
    """Issue 22: "plays 'next attack +N' before attacking", and not when no attack can follow."""
    import random as stdlib_random

    d, dagger = _hard_scene(30)
    frenzy = give(d, 0, "Kampfrausch", "field")
    pick = str(ENGINE.choose_action(st(d), 0, "hard", 1.0, stdlib_random.Random(5)))
    assert pick == f"use {frenzy}"
    d["players"][0]["actions"] = 2  # the Dolch's use: the bonus would leave no attack
    pick = str(ENGINE.choose_action(st(d), 0, "hard", 1.0, stdlib_random.Random(5)))
    assert pick == f"use {dagger} h1"


def test_hard_bot_keeps_actions_for_its_defensive_card() -> None:
    """Issue 22: "keeps actions for its defensive cards when it holds them": with Parade in
    play (use 1) and 2 Aktionen it does not swing the Dolch (use 2); a hero it can fell it
    still strikes."""
    import random as stdlib_random

    d, dagger = _hard_scene(2)
    give(d, 0, "Parade", "field")
    pick = str(ENGINE.choose_action(st(d), 0, "hard", 1.0, stdlib_random.Random(5)))
    assert not pick.startswith(f"use {dagger}")
    d["players"][1]["life"] = 3
    pick = str(ENGINE.choose_action(st(d), 0, "hard", 1.0, stdlib_random.Random(5)))
    assert pick == f"use {dagger} h1"


def test_hard_bot_takes_off_a_shield_for_its_large_weapon() -> None:
    """A Kämpfer who wears only a Holzschild while a Zweihänder waits in the hand: ``hard``
    takes the shield off (the Zweihänder takes both hands), and with no weapon worn it does
    not lay a shield that would keep the Zweihänder out."""
    import random as stdlib_random

    d = bare_main_phase(10, ("kaempfer", "schurke"))
    shield = give(d, 0, "Holzschild", "equip")
    give(d, 0, "Zweihänder")
    d["players"][0]["actions"] = 12
    pick = str(ENGINE.choose_action(st(d), 0, "hard", 1.0, stdlib_random.Random(5)))
    assert pick == f"take {shield}"
    d, _ = do(d, 0, pick)
    pick = str(ENGINE.choose_action(st(d), 0, "hard", 1.0, stdlib_random.Random(5)))
    assert pick != f"play {shield}"


def test_hard_bot_changes_mace_and_shield_for_a_greatsword() -> None:
    """Streitkolben (+2) and Holzschild worn, a Zweihänder (+5) in the hand and the Aktionen
    to lay it: both come off and the Zweihänder goes on (before any blow); neither is laid
    again."""
    import random as stdlib_random

    d = bare_main_phase(10, ("kaempfer", "schurke"))
    mace, shield = give(d, 0, "Streitkolben", "equip"), give(d, 0, "Holzschild", "equip")
    sword = give(d, 0, "Zweihänder")
    d["players"][0]["actions"] = 12
    picks: list[str] = []
    while f"play {sword}" not in picks and len(picks) < 8:
        picks.append(str(ENGINE.choose_action(st(d), 0, "hard", 1.0, stdlib_random.Random(5))))
        d, _ = do(d, 0, picks[-1])
    assert sorted(picks[:2]) == sorted([f"take {mace}", f"take {shield}"])
    assert picks[2:] == [f"play {sword}"]


def test_hard_bot_lays_its_cards_when_the_obvious_blow_would_cost_it() -> None:
    """Seen in a duel: a hard Schurke at 12 Aktionen ended turn after turn with 20 cards in the
    hand, because every card it could lay was valued with ``normal``'s next pick after it (a
    dagger blow into a Tempelwächter's counter-attack) while ending the phase had none. The
    follow-up step now counts only when it pays."""
    import random as stdlib_random

    d = bare_main_phase(10, ("schurke", "geistlicher"))
    give(d, 0, "Schattendolch", "equip")
    give(d, 1, "Tempelwächter", "row")
    guard = give(d, 0, "Leibwache")
    d["players"][0]["actions"] = 6  # the Leibwache (2), then the dagger (2) would follow
    pick = str(ENGINE.choose_action(st(d), 0, "hard", 1.0, stdlib_random.Random(5)))
    assert pick == f"play {guard}"


def test_hard_bot_plays_its_turn_out_to_see_a_guards_damage_heal() -> None:
    """The look ahead values a blow on a Turmwache that leaves it above half its life (it
    heals at the end of the turn); played out to the end of the turn the blow is worth what
    ending the phase is. ``hard`` weighs both in its own Hauptphase."""
    import random as stdlib_random

    from engines.telperinquar import ai

    d = bare_main_phase(6, ("schurke", "geistlicher"))
    dagger = give(d, 0, "Schattendolch", "equip")
    guard = give(d, 1, "Turmwache", "row")
    d["players"][0]["actions"] = 2  # one blow: 5 or 6, +2, -2 Rüstung: 5-6 of a Life-16 guard
    blow, done = ENGINE.parse_action(f"use {dagger} {guard}"), ENGINE.parse_action("next")
    ahead = {a: ai._ahead(ENGINE, st(d), 0, a, stdlib_random.Random(1)) for a in (blow, done)}
    played = {a: ai._played_out(ENGINE, st(d), 0, a, stdlib_random.Random(1)) for a in (blow, done)}
    assert ahead[blow] > ahead[done]
    assert played[blow] == played[done]


def test_hard_bot_does_not_read_the_hidden_hands() -> None:
    import random as stdlib_random

    d, _ = _hard_scene(30)
    other = dict(json.loads(json.dumps(d)))
    p = other["players"][1]
    p["hand"], p["deck"] = p["deck"][: len(p["hand"])], p["hand"] + p["deck"][len(p["hand"]) :]
    picks = {
        str(ENGINE.choose_action(st(x), 0, "hard", 1.0, stdlib_random.Random(5)))
        for x in (d, other)
    }
    assert len(picks) == 1


def test_selfplay_cli_plays_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    from engines.telperinquar.__main__ import main

    assert main(["selfplay", "--games", "2", "--seed", "4"]) == 0
    assert main(["selfplay", "--mode", "2v2", "--games", "1", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "summary: 2 games, 0 errors" in out and "summary: 1 games, 0 errors" in out
