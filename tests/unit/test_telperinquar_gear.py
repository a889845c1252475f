"""Telperinquár with forced dice: Wesen carrying equipment (re-attaching pays the play cost
again, back to the hand for 0 actions with charges kept, at most 5 pieces, a dying Wesen's
equipment to the discard pile), flying Wesen swapping places, a group's own card file in a
game, the draft hero, and every card's rarity."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from bot.i18n import t
from bot.narration.telperinquar import check_card_file
from engines.core import BadInput
from engines.core.content import data_dir
from engines.telperinquar.cards import builtin_cards, draft_levels
from engines.telperinquar.engine import ENGINE, armour, attribute, max_life, wesen_stat
from tests.unit.test_telperinquar_engine import do, fresh, give, levels_to, main_phase, st


def legal(d: dict[str, Any], seat: int) -> list[str]:
    return [str(a) for a in ENGINE.legal_actions(st(d), seat)]


def pass_all(d: dict[str, Any]) -> dict[str, Any]:
    while d["ask"] is not None:
        d, _ = do(d, d["ask"], "pass")
    return d


def armed_scene() -> tuple[dict[str, Any], str]:
    d = main_phase(fresh())
    levels_to(d, 0, 5)
    squire = give(d, 0, "Knappe", "row")
    return d, squire


def test_arm_a_wesen_pays_the_play_cost_and_adds_the_weapon_bonus() -> None:
    d, squire = armed_scene()
    sword = give(d, 0, "Langschwert")
    assert f"arm {sword} {squire}" in legal(d, 0)
    d, _ = do(d, 0, f"arm {sword} {squire}")
    assert d["players"][0]["actions"] == 27  # the Langschwert's play cost 3
    assert d["cards"][sword]["bearer"] == squire and sword in d["players"][0]["equip"]
    assert wesen_stat(st(d), squire, "bonus") == 1 + 3
    # the hero does not swing the Wesen's sword, the Wesen strikes with +1 +3
    assert not any(a.startswith(f"use {sword}") for a in legal(d, 0))
    d["forced"] = [5, 1]  # 5 + 4 = 9 against the unarmoured level-1 hero; its counter fumbles
    d, _ = do(d, 0, f"use {squire} h1")
    d = pass_all(d)
    assert d["players"][1]["life"] == 20 - 9


def test_an_armed_wesen_counter_attacks_with_its_weapon() -> None:
    d, squire = armed_scene()
    sword = give(d, 0, "Langschwert", "equip", bearer=squire)
    dagger = give(d, 1, "Dolch", "equip")
    d = main_phase(d, seat=1)
    levels_to(d, 0, 1)  # no natural armour for the counter-attack's target below
    d["forced"] = [2, 6]  # the dagger hits for 3; the squire strikes back 6 + 1 + 3
    d, _ = do(d, 1, f"use {dagger} {squire}")
    d = pass_all(d)
    assert d["players"][1]["life"] == 20 - 10
    assert d["cards"][sword]["bearer"] == squire


def test_carried_armour_protects_the_wesen_not_the_hero() -> None:
    d, squire = armed_scene()
    mail = give(d, 0, "Kettenhemd")
    before = armour(st(d), 0)
    d, _ = do(d, 0, f"arm {mail} {squire}")
    assert armour(st(d), 0) == before
    assert wesen_stat(st(d), squire, "armour") == 2  # Kettenhemd: Rüstung +2


def test_only_an_equippable_wesen_carries_free_equipment_it_can_lift() -> None:
    d, squire = armed_scene()
    wolf = give(d, 0, "Wolf", "row")
    sword = give(d, 0, "Langschwert")
    axe = give(d, 0, "Zweihänder")  # a class card (Kämpfer): heroes only
    bow = give(d, 0, "Drachenleder")  # Reflexe 9: the squire has 4
    moves = legal(d, 0)
    assert f"arm {sword} {wolf}" not in moves
    assert f"arm {axe} {squire}" not in moves
    assert f"arm {bow} {squire}" not in moves
    d, _ = do(d, 0, f"arm {sword} {squire}")
    second = give(d, 0, "Kurzschwert")
    assert f"arm {second} {squire}" not in legal(d, 0)  # one piece of each kind


def test_reattaching_pays_the_play_cost_again_both_ways() -> None:
    d, squire = armed_scene()
    sword = give(d, 0, "Langschwert", "equip")
    assert f"move {sword} {squire}" in legal(d, 0)
    d, _ = do(d, 0, f"move {sword} {squire}")
    assert d["players"][0]["actions"] == 27 and d["cards"][sword]["bearer"] == squire
    d, _ = do(d, 0, f"move {sword} h0")
    assert d["players"][0]["actions"] == 24 and "bearer" not in d["cards"][sword]
    d["players"][0]["actions"] = 2
    assert f"move {sword} {squire}" not in legal(d, 0)  # cannot pay 3


def test_taking_back_from_a_wesen_costs_nothing_and_keeps_charges() -> None:
    d, squire = armed_scene()
    knives = give(d, 0, "Wurfmesser", "equip", bearer=squire, charges=2)
    d, _ = do(d, 0, f"take {knives}")
    p = d["players"][0]
    assert p["actions"] == 30 and knives not in p["equip"]
    fresh_id = p["hand"][-1]
    assert d["cards"][fresh_id]["charges"] == 2 and "bearer" not in d["cards"][fresh_id]


def test_at_most_five_pieces_over_all_bearers() -> None:
    d, squire = armed_scene()
    for name in ("Dolch", "Lederrüstung", "Heiltrank", "Ring der Stärke"):
        give(d, 0, name, "equip")
    sword = give(d, 0, "Langschwert")
    assert f"arm {sword} {squire}" in legal(d, 0)
    d, _ = do(d, 0, f"arm {sword} {squire}")
    shield = give(d, 0, "Buckler")
    moves = legal(d, 0)
    assert f"arm {shield} {squire}" not in moves and f"play {shield}" not in moves


def test_a_dying_wesen_takes_its_equipment_to_the_discard_pile() -> None:
    d, squire = armed_scene()
    sword = give(d, 0, "Langschwert", "equip", bearer=squire)
    bolt = give(d, 1, "Armbrust", "equip")
    d = main_phase(d, seat=1)
    levels_to(d, 1, 5)
    d["forced"] = [10, 9]  # critical: wounded at once, 9 + 2 = 11 > 10 life: dead
    d, events = do(d, 1, f"use {bolt} {squire}")
    d = pass_all(d)
    p = d["players"][0]
    assert squire in p["discard"] and sword in p["discard"]
    assert sword not in p["equip"] and "bearer" not in d["cards"][sword]
    assert any(e.type == "wesen_died" for e in events)


def test_flying_wesen_swap_once_per_turn_outside_the_kampfphase() -> None:
    d = main_phase(fresh())
    levels_to(d, 0, 5)
    falcon = give(d, 0, "Falke", "row")
    give(d, 0, "Wolf", "row")
    griffin = give(d, 0, "Greif", "row")
    assert legal(d, 0).count("fly 0 2") == 1
    assert not any(a in legal(d, 0) for a in ("fly 0 1", "fly 1 2"))  # the wolf does not fly
    d, _ = do(d, 0, "fly 0 2")
    assert d["players"][0]["row"] == [griffin, d["players"][0]["row"][1], falcon]
    assert not any(a.startswith("fly") for a in legal(d, 0))  # once per turn
    # after an attack the swap closes the Kampfphase: no more offensive actions
    d2 = main_phase(fresh())
    levels_to(d2, 0, 5)
    give(d2, 0, "Falke", "row")
    give(d2, 0, "Greif", "row")
    dagger = give(d2, 0, "Dolch", "equip")
    d2["forced"] = [5, 5]
    d2, _ = do(d2, 0, f"use {dagger} h1")
    d2 = pass_all(d2)
    assert d2["combat"] == "open"
    d2, _ = do(d2, 0, "fly 0 1")
    assert d2["combat"] == "closed"
    assert not any(a.startswith(f"use {dagger}") for a in legal(d2, 0))


OWN_CARD = """
[[card]]
name = "Hausdrache"
name_en = "House Dragon"
type = "wesen"
play = 2
use = 1
life = 9
armour = 1
resistance = 1
attack = "melee"
bonus = 2
abilities = ["fliegen"]
text_de = "Unser eigener kleiner Drache."
text_en = "Our own little dragon."
[[card.step]]
text_de = "Angriff des Drachen."
text_en = "The dragon attacks."
do = "strike"
kind = "physical"
range = "melee"
bonus = 2
"""


def own_deck() -> str:
    text = data_dir("telperinquar", "starter", "kaempfer.txt").read_text(encoding="utf-8")
    return text + "4 Hausdrache\n"


def test_a_groups_own_cards_play_in_a_game() -> None:
    state = ENGINE.initial_state({"decks": [own_deck(), "schurke"], "cards": OWN_CARD}, 3, 2)
    d = ENGINE.state_to_json(state)
    dragons = [c for c, info in d["cards"].items() if info["name"] == "Hausdrache"]
    assert len(dragons) == 4
    d = main_phase(d)
    dragon = dragons[0]
    for p in d["players"]:
        for zone in ("hand", "deck"):
            if dragon in p[zone]:
                p[zone].remove(dragon)
    d["players"][0]["hand"].append(dragon)
    d, _ = do(d, 0, f"play {dragon}")
    assert dragon in d["players"][0]["row"]
    assert ENGINE.state_from_json(ENGINE.state_to_json(st(d))) == st(d)


def test_a_bad_card_file_names_the_line_and_starts_nothing() -> None:
    bad = OWN_CARD.replace('attack = "melee"', 'attack = "sideways"')
    with pytest.raises(BadInput) as caught:
        ENGINE.initial_state({"decks": [own_deck(), "schurke"], "cards": bad}, 3, 2)
    assert caught.value.key == "tqdraft.error.bad_cards"
    line = bad.splitlines().index('attack = "sideways"') + 1  # the bad field, not the header
    assert caught.value.params["line"] == line and caught.value.params["card"] == "Hausdrache"
    clash = OWN_CARD.replace("Hausdrache", "Wolf")
    with pytest.raises(BadInput) as caught:
        ENGINE.initial_state({"decks": ["kaempfer", "schurke"], "cards": clash}, 3, 2)
    assert caught.value.key == "tqdraft.error.card_exists"
    with pytest.raises(BadInput):  # a deck with the user card but without the file
        ENGINE.initial_state({"decks": [own_deck(), "schurke"]}, 3, 2)


def test_card_file_mistakes_are_translated_and_name_the_line_of_the_field() -> None:
    bad = OWN_CARD.replace('attack = "melee"', 'attack = "sideways"').replace(
        'do = "strike"', 'do = "explode"'
    )
    line = bad.splitlines().index('attack = "sideways"') + 1
    for lang in ("de", "en"):
        _, mistakes = check_card_file(bad, lang)
        joined = "\n".join(mistakes)
        assert "[" not in joined.replace("[[card", "") and "one of [" not in joined
        assert "explode" in joined and "spell.step" not in joined
    de = check_card_file(bad, "de")[1]
    assert de[0].startswith(f"Zeile {line}: „Hausdrache“: `attack` muss einer dieser Werte sein")
    assert check_card_file(bad, "en")[1][0].startswith(f"line {line}: “Hausdrache”: `attack`")
    garbage = check_card_file("not [valid toml", "de")[1]
    assert garbage == [t("tqcog.load.line", "de", line=1) + t("tqcog.load.toml", "de", column=5)]
    no_steps = check_card_file(OWN_CARD.split("[[card.step]]")[0], "en")[1]
    assert any("[[card.step]]" in m for m in no_steps)


DRAFT_DECK = (
    "1 Draft-Held\n10 Stufenkarte Draft-Held\n6 Zweihänder\n5 Plattenpanzer\n6 Feuerpfeil\n"
    "6 Wolf\n6 Heiltrank\n"
)


def test_the_draft_hero_follows_the_draft_table() -> None:
    state = ENGINE.initial_state({"decks": [DRAFT_DECK, DRAFT_DECK]}, 5, 2)
    d = main_phase(ENGINE.state_to_json(state))
    assert d["players"][0]["classes"] == ["draft"]
    assert armour(st(d), 0) == 0 and attribute(st(d), 0, "kraft") == 3 and max_life(st(d), 0) == 20
    levels_to(d, 0, 4)
    assert attribute(st(d), 0, "aura") == 12 and max_life(st(d), 0) == 29
    assert [lv.life_max for lv in draft_levels()] == [20, 22, 25, 29, 34, 40, 47, 55, 64, 74]
    # class restrictions ignored: a Kämpfer's large weapon and heavy armour
    levels_to(d, 0, 5)
    sword = give(d, 0, "Zweihänder")
    plate = give(d, 0, "Plattenpanzer")
    assert {f"play {sword}", f"play {plate}"} <= set(legal(d, 0))
    # unarmed −5 on a counter-attack
    dagger = give(d, 1, "Dolch", "equip")
    d = main_phase(d, seat=1)
    d["forced"] = [3, 9]  # the counter: 9 − 5 = 4
    d, _ = do(d, 1, f"use {dagger} h0")
    d = pass_all(d)
    assert d["players"][1]["life"] == 20 - 4


def test_a_draft_deck_meets_only_draft_decks() -> None:
    with pytest.raises(BadInput) as caught:
        ENGINE.initial_state({"decks": [DRAFT_DECK, "schurke"]}, 5, 2)
    assert caught.value.key == "tqdraft.error.mixed_decks"


def test_every_card_has_a_rarity_in_the_data() -> None:
    with open(data_dir("telperinquar", "cards.toml"), "rb") as handle:
        raw = tomllib.load(handle)["card"]
    assert all(entry.get("rarity") in ("common", "uncommon", "rare") for entry in raw)
    spread = {
        r: sum(c.rarity == r for c in builtin_cards()) for r in ("common", "uncommon", "rare")
    }
    assert spread["common"] > spread["uncommon"] > spread["rare"] > 10
