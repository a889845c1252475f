"""A spell's sentences are compiled at load into typed instructions, one class per verb, every
parameter filled in from the language's declared default (the one place a default is
written); a sentence that cannot be compiled is a mistake of its file with its line."""

from __future__ import annotations

import dataclasses

import pytest

from engines.felsenfeuer import sentences as sn
from engines.felsenfeuer.spells import VERBS, load_text, spellbook, spheres

SPELL = """[[spell]]
name = "Probe"
colour = "rot"
pips = 3
text_de = "x"
text_en = "y"

[[spell.step]]
text_de = "a"
text_en = "b"
do = "attack"

[[spell.step]]
text_de = "c"
text_en = "d"
joined = true
parts = [{do = "destroy", target = {zone = "glyph"}, count = "one", as = "weg"},
         {do = "lose_essence", if = {duellplatz = true}}]
"""


def test_every_verb_has_one_class_whose_fields_are_its_parameters() -> None:
    assert set(sn.KINDS) == set(VERBS)
    for name, kind in sn.KINDS.items():
        own = {f.name for f in dataclasses.fields(kind)} - {"when", "name"}
        assert own == set(VERBS[name].params), name


def test_the_defaults_are_filled_in_and_a_part_keeps_its_condition_and_binding() -> None:
    spells, errors = load_text(SPELL)
    assert errors == []
    attack, joined = spells[0].steps
    assert attack.parts == (sn.Attack(players="opponents", pick="all", times=1),)
    assert not attack.several and attack.text_de == "a"
    destroy, lose = joined.parts
    assert joined.joined and joined.several
    assert destroy == sn.Destroy(target={"zone": "glyph"}, count="one", chooser="caster",
                                 name="weg")  # fmt: skip
    assert lose == sn.LoseEssence(players="opponents", pick="all", amount=1,
                                  when={"duellplatz": True})  # fmt: skip


def test_the_shipped_spells_and_spheres_compile() -> None:
    book = spellbook()
    assert all(isinstance(s, sn.Sentence) for spell in book.values() for s in spell.steps)
    assert all(isinstance(e, sn.CountsAs) for sphere in spheres().values() for e in sphere.effects)


def test_a_sentence_that_cannot_be_compiled_names_its_spell_and_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kinds = {k: v for k, v in sn.KINDS.items() if k != "lose_essence"}
    monkeypatch.setattr(sn, "KINDS", kinds)
    spells, errors = load_text(SPELL)
    assert spells == []
    assert [(e.item, e.line) for e in errors] == [("Probe", 13)]  # the step's header
    assert "step 2: unknown verb 'lose_essence'" in errors[0].message


def test_a_part_the_loader_would_refuse_is_no_instruction() -> None:
    with pytest.raises(ValueError, match="unknown verb"):
        sn.instruction({"do": "zaubern"}, VERBS, own_if=False)
    with pytest.raises(ValueError, match="needs target"):
        sn.instruction({"do": "destroy"}, VERBS, own_if=False)
