"""Saved rolls inside an expression (``expand_saved``): the saved roll keeps the user's form,
the name leads the comment, ``+N`` after a success roll means N more dice."""

from __future__ import annotations

import pytest

from engines.core import BadInput, Rng
from engines.dice.notation import check_notation, roll_notation
from engines.dice.saved import expand_saved


@pytest.mark.parametrize(
    ("saved", "rest", "expected"),
    [
        ("8W6>=5", "", "8W6>=5 feuerball"),
        ("8W6>=5 Flammen", "", "8W6>=5 Flammen"),
        ("8W6>=5", " auf den Ork", "8W6>=5 feuerball auf den Ork"),
        ("8W6>=5 Flammen", "  auf   den Ork", "8W6>=5 feuerball auf den Ork"),
        ("2W6+3", " auf den Ork", "2W6+3 feuerball auf den Ork"),
        ("2W6+3", "+2", "(2W6+3)+2 feuerball"),
        ("2W6+3", "*2 auf den Ork", "(2W6+3)*2 feuerball auf den Ork"),
        ("2W6+3", "+1W4", "(2W6+3)+1W4 feuerball"),
    ],
)
def test_the_saved_roll_keeps_its_form_and_the_name_leads_the_comment(
    saved: str, rest: str, expected: str
) -> None:
    assert expand_saved("feuerball", saved, rest) == expected


@pytest.mark.parametrize(
    ("saved", "rest", "expected", "count"),
    [
        ("8W6>=5", "+2", "10W6>=5 feuerball+2", 10),
        ("8W6>=5", " + 2 auf den Ork", "10W6>=5 feuerball+2 auf den Ork", 10),
        ("8W6>=5", "-3", "5W6>=5 feuerball-3", 5),
        ("W6>=5", "+1", "2W6>=5 feuerball+1", 2),
        ("6w6kh4>4 Flammen", "+2", "8w6kh4>4 feuerball+2", 8),
    ],
)
def test_plus_n_after_a_success_roll_means_n_more_dice(
    saved: str, rest: str, expected: str, count: int
) -> None:
    expanded = expand_saved("feuerball", saved, rest)
    assert expanded == expected
    result, _ = roll_notation(expanded, Rng(4))
    assert result.mode == "successes"
    assert result.groups[0].count == count


@pytest.mark.parametrize("rest", ["*2", "+1W6", "+2Ork", "/2", ">=4", "+"])
def test_other_operators_after_a_success_roll_are_refused(rest: str) -> None:
    with pytest.raises(BadInput) as caught:
        expand_saved("feuerball", "8W6>=5", rest)
    assert caught.value.key == "dice.saved_success_modifier"
    assert caught.value.params == {"name": "feuerball", "expression": "8W6>=5"}


def test_fewer_dice_than_one_is_refused() -> None:
    with pytest.raises(BadInput) as caught:
        expand_saved("feuerball", "8W6>=5", "-8")
    assert caught.value.key == "dice.zero_dice"


def test_more_dice_than_the_limit_is_refused() -> None:
    with pytest.raises(BadInput) as caught:
        expand_saved("feuerball", "8W6>=5", "+993")
    assert caught.value.key == "dice.too_many_dice"


@pytest.mark.parametrize(
    ("rest", "column", "got"),
    [
        (" 3", 11, "3"),  # "feuerball 3"
        (".", 10, "."),
        (" kh3", 11, "kh3"),
        ("+2 3", 13, "3"),
    ],
)
def test_text_that_is_no_comment_is_a_syntax_error_where_the_user_typed_it(
    rest: str, column: int, got: str
) -> None:
    for saved in ("2W6+3", "8W6>=5"):
        with pytest.raises(BadInput) as caught:
            expand_saved("feuerball", saved, rest)
        assert (caught.value.key, caught.value.params) == (
            "dice.syntax_text",
            {"column": column, "got": got},
        )


def test_a_mistake_after_an_operator_counts_columns_from_the_name() -> None:
    with pytest.raises(BadInput) as caught:
        expand_saved("axt", "1W8+2", "+2Ork")  # "axt+2Ork": the O is the sixth character
    assert (caught.value.key, caught.value.params["column"]) == ("dice.syntax_text", 6)


def test_every_expansion_is_valid_notation() -> None:
    for rest in ("", " auf den Ork", "+2", "-1 Schleichen"):
        check_notation(expand_saved("feuerball", "8W6>=5", rest))


@pytest.mark.parametrize(
    ("saved", "rest", "expected"),
    [
        ("1W20+5 vs 15", " +2", "(1W20+5) +2 vs 15 angriff"),
        ("1W20+5 vs 15", "+2 auf den Ork", "(1W20+5)+2 vs 15 angriff auf den Ork"),
        ("1W20+5>=15", "-1", "(1W20+5)-1>=15 angriff"),
        ("1W20+5", " vs 15", "(1W20+5) vs 15 angriff"),
        ("1W20+5", " +2 vs 15 Ork", "(1W20+5) +2 vs 15 angriff Ork"),
        ("1W20+5 vs -2", "-1", "(1W20+5)-1 vs -2 angriff"),
    ],
)
def test_a_modifier_after_a_target_roll_changes_the_total_not_the_verdict(
    saved: str, rest: str, expected: str
) -> None:
    expanded = expand_saved("angriff", saved, rest)
    assert expanded == expected
    result, _ = roll_notation(expanded, Rng(4))
    assert result.mode == "target" and result.groups[0].count == 1
    modifier = 2 if "+2" in rest else -1 if "-1" in rest else 0
    assert result.total == result.groups[0].subtotal + 5 + modifier  # not 0/1 + 2
    assert result.notation.success_rule in (">= 15", ">= -2")


def test_a_modifier_after_a_repeated_roll_applies_to_every_set() -> None:
    expanded = expand_saved("werte", "6#4W6kh3", " +1")
    assert expanded == "6#(4W6kh3) +1 werte"
    result, _ = roll_notation(expanded, Rng(2))
    assert [one.total for one in result.sets] == [s.groups[0].subtotal + 1 for s in result.sets]
    assert expand_saved("treffer", "2#6W10 t7", "+2") == "2#8W10 t7 treffer+2"


@pytest.mark.parametrize(
    ("saved", "rest", "expected"),
    [
        ("1W20+5 vorteil vs 15", " +2", "(1W20+5) +2 vorteil vs 15 angriff"),
        ("1W20+5 nachteil", " -1", "(1W20+5) -1 nachteil angriff"),
    ],
)
def test_a_modifier_after_an_advantage_roll_goes_before_its_advantage_word(
    saved: str, rest: str, expected: str
) -> None:
    """Issue 21's left-over: ``/roll angriff +2`` on a saved ``1W20+5 vorteil vs 15`` was a
    syntax error (the advantage word ended up inside the brackets)."""
    expanded = expand_saved("angriff", saved, rest)
    assert expanded == expected
    result, _ = roll_notation(expanded, Rng(4))
    assert result.groups[0].count == 2 and result.groups[0].operations in ("kh1", "kl1")
