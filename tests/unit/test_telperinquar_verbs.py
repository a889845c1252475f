"""A card's steps compiled at load (engines/telperinquar/verbs.py): one typed value per verb,
with the defaults the card language declares, for every card that ships."""

from __future__ import annotations

from dataclasses import MISSING, fields

from engines.telperinquar.cards import VERBS, builtin_cards, load_cards_text
from engines.telperinquar.verbs import STEPS, Harm, Heal, Roll, compile_step


def test_every_verb_compiles_to_a_value_with_its_declared_parameters_and_defaults() -> None:
    assert set(STEPS) == set(VERBS)
    for name, kind in STEPS.items():
        params = VERBS[name].params
        declared = {f.name: f for f in fields(kind)}
        assert set(declared) == set(params), name
        for key, param in params.items():
            default = declared[key].default
            if param.required:
                assert default is MISSING, (name, key)
            else:
                assert default == param.default, (name, key)


def test_a_step_without_its_optional_parameters_gets_their_defaults() -> None:
    texts = {"text_de": "Heilt.", "text_en": "Heals."}
    assert compile_step({"do": "heal", "kind": "magical", **texts}) == Heal("magical", 0, "self")
    harm = compile_step({"do": "harm", "amount": {"roll": "2W6+1"}, **texts})
    assert harm == Harm(Roll("2W6+1"), "simple", "self", "")
    dice = iter([4, 6])
    assert Roll("2W6+1").throw(lambda sides: next(dice)) == 4 + 6 + 1


def test_every_shipped_card_is_compiled_step_for_step() -> None:
    for card in builtin_cards():
        assert [type(s) for s in card.effects] == [STEPS[s["do"]] for s in card.steps], card.name


def test_a_mistake_is_still_named_with_its_line_before_anything_is_compiled() -> None:
    text = """[[card]]
name = "Kaputt"
name_en = "Broken"
type = "spell"
play = 1
use = 1
text_de = "x"
text_en = "x"
[[card.step]]
text_de = "x"
text_en = "x"
do = "harm"
amount = 2
kind = "feurig"
"""
    cards, errors = load_cards_text(text)
    assert cards == [] and [(e.item, e.line) for e in errors] == [("Kaputt", 14)]
