"""The keyword registry (engines/telperinquar/keywords.py): the card loader knows exactly the
registered keywords, every registered keyword changes a rule point, and a keyword added to the
registry works in a game with nothing else changed but the card data that carries it.

The rules of the shipped keywords are tested where the rulebook speaks of them: fliegen and
nebelgestalt (test_telperinquar_engine: protection, interception; test_telperinquar_gear:
flying swaps), beidhaendigkeit and schattenhaftigkeit (test_telperinquar_engine),
rundumschlag and verstecken (test_telperinquar_rulebook), ausruestbar
(test_telperinquar_gear).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engines.telperinquar.cards import ABILITIES, load_cards_text
from engines.telperinquar.keywords import KEYWORDS, Keyword
from tests.unit.test_telperinquar_engine import do, fresh, give, levels_to, main_phase

LIZARDS = """
[[card]]
name = "Panzerechse"
name_en = "Armoured Lizard"
type = "wesen"
play = 1
use = 1
life = 30
armour = 0
resistance = 0
attack = "melee"
bonus = 0
abilities = ["panzerhaut"]
text_de = "Ihre Haut hält die Hälfte jedes Schlags ab."
text_en = "Its hide stops half of every blow."
[[card.step]]
text_de = "Biss."
text_en = "Bite."
do = "strike"
kind = "physical"
range = "melee"
bonus = 0

[[card]]
name = "Nackte Echse"
name_en = "Bare Lizard"
type = "wesen"
play = 1
use = 1
life = 30
armour = 0
resistance = 0
attack = "melee"
bonus = 0
text_de = "Ohne Panzer."
text_en = "Without a hide."
[[card.step]]
text_de = "Biss."
text_en = "Bite."
do = "strike"
kind = "physical"
range = "melee"
bonus = 0
"""


class Panzerhaut(Keyword):
    """A keyword the game does not ship: half of the damage taken."""

    name = "panzerhaut"

    def damage_taken(self, taken: int, roll: Callable[[int], int]) -> int:
        return taken // 2


def test_the_card_loader_knows_exactly_the_registered_keywords() -> None:
    assert tuple(KEYWORDS) == ABILITIES
    _cards, errors = load_cards_text(LIZARDS)
    assert [(e.item, e.line) for e in errors] == [("Panzerechse", 13)]  # not registered


def test_every_registered_keyword_changes_a_rule_point() -> None:
    for name, keyword in KEYWORDS.items():
        assert keyword.name == name
        changed = set(vars(type(keyword))) - {"name", "__module__", "__doc__", "__qualname__"}
        assert changed, f"{name} changes nothing"


def _bitten(name: str) -> int:
    d = main_phase(fresh())
    levels_to(d, 0, 3)  # the Kraft a Langschwert needs
    d["extra"] = LIZARDS
    sword = give(d, 0, "Langschwert", "equip")
    lizard = give(d, 1, name, "row")
    d["forced"] = [7, 1]  # the sword's roll; the lizard's counter-attack fumbles
    d, _events = do(d, 0, f"use {sword} {lizard}")
    assert d["ask"] is None and not d["stack"]
    return int(d["cards"][lizard]["dmg"])


def test_a_new_keyword_is_the_registry_the_card_data_and_its_test(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(KEYWORDS, "panzerhaut", Panzerhaut())
    _cards, errors = load_cards_text(LIZARDS)
    assert errors == []
    assert _bitten("Nackte Echse") == 7 + 3  # W10 7 + Langschwert 3, no armour
    assert _bitten("Panzerechse") == (7 + 3) // 2
