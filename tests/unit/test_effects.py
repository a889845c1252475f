"""The game-neutral effect kit: a language, the loader with lines, the pause as data."""

from __future__ import annotations

import pytest

from engines.effects import Answers, Language, NeedDecision, Param, Verb, load_toml

TOY = Language(
    verbs={
        "damage": Verb(
            "damage", {"target": Param("dice", required=True), "amount": Param("value", default=1)}
        ),
        "heal": Verb("heal", {"who": Param("players", required=True)}),
    },
    dice_keys={"@names": "self", "side": "enum:ally|enemy", "count": "int"},
    player_values=("me", "them"),
    condition_keys={"exists": "dice", "not": "cond"},
    value_keys={"count": "dice"},
)

CARDS = """[[card]]
name = "Funke"
[[card.step]]
text_de = "Schaden."
text_en = "Damage."
do = "damage"
target = {side = "enemy"}
amount = {count = {side = "ally"}}

[[card]]
name = "Heiltrank"
[[card.step]]
text_de = "Heile."
text_en = "Heal."
do = "heal"
who = "everyone"
[[card.step]]
text_de = "Heile."
do = "heal"
who = "me"
if = {exists = {side = "friend"}}
"""


def test_the_loader_checks_steps_against_the_language_with_lines() -> None:
    items, errors = load_toml(CARDS, TOY, table="card")
    assert [i.name for i in items] == ["Funke"] and items[0].step_lines == (3,)
    assert [(e.item, e.line) for e in errors] == [("Heiltrank", 16), ("Heiltrank", 17),
                                                  ("Heiltrank", 21)]  # fmt: skip
    assert "'everyone' is not one of ['me', 'them']" in errors[0].message
    assert "text_de and text_en" in errors[1].message
    assert "'friend' is not one of ['ally', 'enemy']" in errors[2].message


def test_an_unknown_verb_gets_a_suggestion_and_toml_errors_a_line() -> None:
    _items, errors = load_toml(CARDS.replace('do = "damage"', 'do = "damag"'), TOY, table="card")
    assert "did you mean 'damage'" in errors[0].message and errors[0].line == 6
    _items, errors = load_toml("[[card]]\nname = \n", TOY, table="card")
    assert errors[0].line == 2


def test_answers_pause_as_data_and_resume_in_order() -> None:
    with pytest.raises(NeedDecision) as need:
        Answers([]).choose(1, "ask.target", ["a", "b"])
    assert need.value.seat == 1 and need.value.options == ("a", "b")
    answers = Answers(["b", "x"])
    assert answers.choose(1, "ask", ["a", "b"]) == "b"
    assert answers.choose(1, "ask", ["only"]) == "only"  # nothing to decide: not asked
    with pytest.raises(ValueError):
        answers.choose(1, "ask", ["a", "b"])  # a stored answer that is no option


@pytest.mark.parametrize(
    ("value", "code", "line"),
    [
        ("[" * 3000 + "]" * 3000, "toml_deep", 4),
        ("{a=" * 3000 + "1" + "}" * 3000, "toml_deep", 4),
        ("9" * 5000, "toml_number", 4),
        ("1_" + "0" * 4999, "toml_number", 4),
    ],
)
def test_toml_too_deep_or_with_huge_numbers_names_its_line(
    value: str, code: str, line: int
) -> None:
    """``tomllib`` raises RecursionError on deep nesting and ValueError past 4,300 digits; the
    loader says where instead (issue 18). Brackets and digits in strings and comments do not
    count."""
    text = f'[[spell]]\nname = "[[[[ 0000"  # {"[" * 40}\n# {"9" * 200}\n x = {value}\n'
    items, errors = load_toml(text, TOY, table="spell")
    assert items == []
    assert [(e.code, e.line) for e in errors] == [(code, line)]
