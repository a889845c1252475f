"""General dice notation through d20: parsing (German and English), comments, success
counting, every limit, determinism, Markdown breakdown and dice statistics."""

from __future__ import annotations

import random
import re
import threading
from collections import Counter
from typing import Any

import d20.expression
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core import BadInput, Rng
from engines.dice import notation
from engines.dice.notation import (
    BREAKDOWN_LIMIT,
    MAX_DICE,
    DiceRoll,
    check_notation,
    roll_notation,
)


def roll(text: str, seed: int = 7) -> DiceRoll:
    return roll_notation(text, Rng(seed))[0]


def many(text: str, count: int, seed: int = 1) -> list[DiceRoll]:
    rng = Rng(seed)
    results = []
    for _ in range(count):
        result, rng = roll_notation(text, rng)
        results.append(result)
    return results


def error_of(text: str) -> BadInput:
    with pytest.raises(BadInput) as caught:
        roll_notation(text, Rng(1))
    return caught.value


# ---- notation ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("german", "english"),
    [
        ("3W6", "3d6"),
        ("1W10+2", "1d10+2"),
        ("4w6kh3", "4d6kh3"),
        ("W20", "d20"),
        ("2D6", "2d6"),
        ("(2W6+1W4)*2", "(2d6+1d4)*2"),
        ("1W%", "1d%"),
    ],
)
def test_german_w_rolls_exactly_like_d(german: str, english: str) -> None:
    de, en = roll(german), roll(english)
    assert (de.expression, de.total) == (en.expression, en.total)
    assert [g.dice for g in de.groups] == [g.dice for g in en.groups]
    assert [as_d(g.notation) for g in de.groups] == [g.notation for g in en.groups]
    assert as_d(de.breakdown) == en.breakdown


def as_d(text: str) -> str:
    """``text`` with every die letter after a count written as d20's ``d``."""
    return re.sub(r"(?<=\d)[wWD](?=\d|%)", "d", text)


@pytest.mark.parametrize(
    ("text", "typed", "notations", "head"),
    [
        ("8W6>=5", "8W6>=5", ["8W6"], "8W6 ("),
        ("8w6 >= 5 Schleichen", "8w6 >= 5", ["8w6"], "8w6 ("),
        ("W20+2", "W20+2", ["1W20"], "1W20 ("),
        ("1W6+1d4+2w8", "1W6+1d4+2w8", ["1W6", "1d4", "2w8"], "1W6 ("),
        ("(1W6, 2d8)kh1", "(1W6, 2d8)kh1", ["1W6", "2d8"], "(~~1W6 ("),
        ("1d6 [W6 Feuer] + 2W4", "1d6 [W6 Feuer] + 2W4", ["1d6", "2W4"], "1d6 ("),
    ],
)
def test_the_users_die_letter_is_shown_back(
    text: str, typed: str, notations: list[str], head: str
) -> None:
    result = roll(text, seed=3)
    assert result.notation.typed == typed
    assert [g.notation for g in result.groups] == notations
    assert result.breakdown.startswith(head)
    for group in result.groups:
        assert f"{group.notation} (" in result.breakdown


def test_a_die_letter_inside_a_label_stays_as_typed() -> None:
    result = roll("1d6 [W6 Feuer] + 2W4 Falle W6")
    assert result.labels == ("W6 Feuer",)
    assert "[W6 Feuer]" in result.breakdown
    assert result.comment == "Falle W6"


@pytest.mark.parametrize(
    ("text", "expression", "count", "sides", "operations"),
    [
        ("2d6", "2d6", 2, 6, ""),
        ("4d6kh3", "4d6kh3", 4, 6, "kh3"),
        ("2d20pl1", "2d20pl1", 2, 20, "pl1"),
        ("3d6rr1", "3d6rr1", 3, 6, "rr1"),
        ("3d6ro<3", "3d6ro<3", 3, 6, "ro<3"),
        ("2d6e6", "2d6e6", 2, 6, "e6"),
        ("4d6mi2ma5", "4d6mi2ma5", 4, 6, "mi2ma5"),
    ],
)
def test_dice_operators_reach_the_structured_breakdown(
    text: str, expression: str, count: int, sides: int, operations: str
) -> None:
    result = roll(text)
    assert result.expression == expression
    (group,) = result.groups
    assert (group.count, group.sides, group.operations) == (count, sides, operations)
    assert result.total == group.subtotal
    assert all(1 <= die.value <= sides for die in group.dice)


def test_keep_highest_flags_the_dropped_die_and_strikes_it_through() -> None:
    for result in many("4d6kh3", 50):
        (group,) = result.groups
        kept = sorted(d.value for d in group.dice if d.kept)
        dropped = [d.value for d in group.dice if not d.kept]
        assert len(kept) == 3 and len(dropped) == 1
        assert dropped[0] <= kept[0]
        assert result.total == sum(kept)
        assert f"~~{dropped[0]}~~" in result.breakdown or f"~~**{dropped[0]}**~~" in (
            result.breakdown
        )


def test_rerolled_faces_are_kept_in_history() -> None:
    rerolled = [d for r in many("10d6rr1", 30) for d in r.groups[0].dice if d.rerolled]
    assert rerolled
    assert all(set(d.rerolled) == {1} and d.value != 1 for d in rerolled)


def test_reroll_once_rerolls_at_most_once() -> None:
    dice = [d for r in many("10d6ro1", 30) for d in r.groups[0].dice]
    assert any(d.rerolled for d in dice)
    assert all(len(d.rerolled) <= 1 for d in dice)


def test_exploding_dice_add_dice_and_are_flagged() -> None:
    results = many("3d6e6", 60)
    assert any(len(r.groups[0].dice) > 3 for r in results)
    for result in results:
        for die in result.groups[0].dice:
            assert die.exploded == (die.value == 6)
    assert "!" in next(r.breakdown for r in results if len(r.groups[0].dice) > 3)


def test_minimum_and_maximum_force_values_but_keep_the_natural_face() -> None:
    dice = [d for r in many("6d6mi3ma4", 20) for d in r.groups[0].dice]
    assert all(3 <= d.value <= 4 for d in dice)
    assert any(d.natural != d.value for d in dice)


def test_arithmetic_parentheses_and_sets() -> None:
    assert roll("(1+2)*3").total == 9
    assert roll("7//2").total == 3
    assert roll("7/2").total == 3  # d20 truncates a fractional total
    assert roll("-3+1").total == -2
    result = roll("(1d6, 2d6)kh1")
    assert len(result.groups) == 2
    assert sum(g.kept for g in result.groups) == 1
    assert result.total == max(g.subtotal for g in result.groups)


def test_labels_are_collected_and_attached_to_their_group() -> None:
    result = roll("1d6 [fire] + 1d4 [cold]")
    assert result.labels == ("fire", "cold")
    assert [g.label for g in result.groups] == ["fire", "cold"]
    assert "[fire]" in result.breakdown


@pytest.mark.parametrize(
    ("text", "column", "got"),
    [
        ("3X6", 2, "X6"),
        ("3x6+2", 2, "x6+2"),
        ("3 X6", 3, "X6"),
        ("2d6Angriff", 4, "Angriff"),
        ("1d20 [Feuer]Angriff", 13, "Angriff"),
        ("2d6 3 Orks", 5, "3"),
        ("4d6 kh3", 5, "kh3"),
        ("2d6+3 w6 Wölfe", 7, "w6"),
        ("8W6>=5 3", 8, "3"),
    ],
)
def test_text_after_the_roll_is_a_comment_only_after_a_space_and_a_word(
    text: str, column: int, got: str
) -> None:
    error = error_of(text)
    assert (error.key, error.params) == ("dice.syntax_text", {"column": column, "got": got})
    with pytest.raises(BadInput):
        check_notation(text)


@pytest.mark.parametrize(
    ("text", "comment"),
    [
        ("2d6 (Angriff)", "(Angriff)"),
        ("2d6 #1 Ork", "#1 Ork"),
        ("1d20 Wache 2", "Wache 2"),
        ("2W6+3 Falle mit W6", "Falle mit W6"),
    ],
)
def test_comments_that_start_with_a_word(text: str, comment: str) -> None:
    assert roll(text).comment == comment


@pytest.mark.parametrize("text", ["0d6", "0W6", "3W6+0d4", "(0d6, 1d6)kh1", "00W6>=5"])
def test_a_roll_needs_at_least_one_die_per_dice_term(text: str) -> None:
    assert error_of(text).key == "dice.zero_dice"
    with pytest.raises(BadInput):
        check_notation(text)


def test_label_markdown_is_escaped_in_the_breakdown() -> None:
    assert "[\\*\\*x\\*\\*]" in roll("1d6 [**x**]").breakdown


@pytest.mark.parametrize(
    ("text", "expression", "comment"),
    [
        ("2d6+3 Angriff auf den Ork", "2d6 + 3", "Angriff auf den Ork"),
        ("2W6+3 Angriff auf den Ork", "2d6 + 3", "Angriff auf den Ork"),
        ("3W6 Wolfsangriff mit w6 Wölfen", "3d6", "Wolfsangriff mit w6 Wölfen"),
        ("1d20 Wache W20", "1d20", "Wache W20"),
        ("8W6>=5 Schleichen", "8d6 >= 5", "Schleichen"),
        ("1d20 [fire] + 2 Feuerball", "1d20 [fire] + 2", "Feuerball"),
        ("  2d6    viel   Platz ", "2d6", "viel Platz"),
        ("2d6", "2d6", None),
    ],
)
def test_trailing_comment_is_split_off_unchanged(
    text: str, expression: str, comment: str | None
) -> None:
    result = roll(text)
    assert (result.expression, result.comment) == (expression, comment)
    assert check_notation(text).comment == comment


# ---- success counting -------------------------------------------------------------------


@pytest.mark.parametrize("text", ["8d6>=5", "8d6>4", "8W6>=5", "8w6 > 4", "8d6>=5 Schleichen"])
def test_success_counting_counts_dice_not_the_sum(text: str) -> None:
    result = roll(text)
    faces = [d.value for d in result.groups[0].dice]
    assert result.mode == "successes"
    assert result.total == result.successes == sum(1 for f in faces if f >= 5)
    assert [d.success for d in result.groups[0].dice] == [f >= 5 for f in faces]
    assert result.breakdown.endswith(f"= `{result.total}` ✓")


def test_success_forms_agree_for_the_same_rng() -> None:
    assert roll("8d6>=5").successes == roll("8d6>4").successes == roll("8W6>=5").successes


@pytest.mark.parametrize(
    ("text", "predicate"),
    [
        ("10d10<=3", lambda v: v <= 3),
        ("10d10<3", lambda v: v < 3),
        ("10d10==10", lambda v: v == 10),
        ("10d10!=1", lambda v: v != 1),
    ],
)
def test_every_comparison_counts(text: str, predicate: Any) -> None:
    for result in many(text, 20):
        assert result.successes == sum(1 for d in result.groups[0].dice if predicate(d.value))


def test_success_counting_only_counts_kept_dice() -> None:
    for result in many("6d6kh3>=4", 40):
        dice = result.groups[0].dice
        assert result.successes == sum(1 for d in dice if d.kept and d.value >= 4)
        assert all(d.success is False for d in dice if not d.kept)


def test_successes_are_bold_and_failures_plain() -> None:
    result = roll("6d6>=5", seed=3)
    for die in result.groups[0].dice:
        marked = f"**{die.value}**" in result.breakdown
        if die.success:
            assert marked


@pytest.mark.parametrize("seed", range(12))
def test_a_total_compared_with_a_target_keeps_the_total_and_says_whether_it_meets_it(
    seed: int,
) -> None:
    result = roll("1d20+5>=15", seed)
    (group,) = result.groups
    assert result.mode == "target" and result.successes is None
    assert result.total == group.subtotal + 5
    assert result.target_met == (result.total >= 15)
    assert result.notation.success_rule == ">= 15"
    mark = "✓" if result.target_met else "✗"
    assert result.margin == result.total - 15
    margin = f"+{result.margin}" if result.margin >= 0 else f"−{-result.margin}"
    assert result.breakdown.endswith(f"= `{result.total}` (≥ 15) {mark} {margin}")


def test_a_target_after_arithmetic_of_several_groups() -> None:
    for result in many("2W6+1W4-1 < 5 Ausweichen", 20):
        assert result.mode == "target" and result.comment == "Ausweichen"
        assert result.target_met == (result.total < 5)
        assert result.total == sum(g.subtotal for g in result.groups) - 1


@pytest.mark.parametrize(
    ("text", "typed", "expression", "comment"),
    [
        ("1d20 adv", "1d20 adv", "2d20kh1", None),
        (
            "1W20+5 vorteil Angriff auf den Ork",
            "1W20+5 vorteil",
            "2d20kh1 + 5",
            "Angriff auf den Ork",
        ),
        ("W20 Nachteil", "W20 Nachteil", "2d20kl1", None),
        ("1d20-1 dis", "1d20-1 dis", "2d20kl1 - 1", None),
        ("1d4+1d20 ADV", "1d4+1d20 ADV", "1d4 + 2d20kh1", None),
    ],
)
def test_advantage_and_disadvantage_roll_the_d20_twice(
    text: str, typed: str, expression: str, comment: str | None
) -> None:
    for result in many(text, 30):
        assert result.notation.typed == typed
        assert result.expression == expression and result.comment == comment
        d20_group = next(g for g in result.groups if g.sides == 20)
        faces = [d.value for d in d20_group.dice]
        best = max(faces) if "kh1" in expression else min(faces)
        assert len(faces) == 2 and d20_group.subtotal == best


def test_advantage_needs_a_d20_and_plain_words_stay_comments() -> None:
    assert error_of("2d6 vorteil").key == "dice.advantage_needs_d20"
    assert error_of("2d6 vorteil").params == {"word": "vorteil"}
    assert roll("1d20 Vorteilhaft gezielt").comment == "Vorteilhaft gezielt"
    assert roll("1d20 [adv]").labels == ("adv",)


def test_dice_maidens_exploding_bang_explodes_on_the_maximum() -> None:
    results = many("3d6! Feuer", 80)
    assert any(len(r.groups[0].dice) > 3 for r in results)
    for result in results:
        assert result.notation.typed == "3d6!" and result.comment == "Feuer"
        assert result.expression == "3d6e6"
        for die in result.groups[0].dice:
            assert die.exploded == (die.value == 6)
    assert roll("4W10!").expression == "4d10e10"
    assert roll("3d6!=4").mode == "successes"  # a comparison, not an explosion


# ---- limits -----------------------------------------------------------------------------


def test_empty_input() -> None:
    assert error_of("").key == "dice.empty"
    assert error_of("   ").key == "dice.empty"


def test_input_length() -> None:
    error = error_of("1" * 201)
    assert (error.key, error.params) == ("dice.too_long", {"length": 201, "limit": 200})
    assert roll("1" * 200).total == int("1" * 200)


@pytest.mark.parametrize("text", ["1001d6", "99999999d6", "500d6+501d6", "1d1e1", "1d6rr<7"])
def test_too_many_dice(text: str) -> None:
    error = error_of(text)
    assert (error.key, error.params) == ("dice.too_many_dice", {"limit": MAX_DICE})


def test_exactly_the_dice_limit_rolls() -> None:
    assert roll("1000d6").rolls == 1000


@pytest.mark.parametrize("text", ["1d1001", "1d999999999999999999999", "1d0"])
def test_die_size(text: str) -> None:
    error = error_of(text)
    assert error.key == "dice.bad_sides"
    assert error.params["limit"] == 1000


def test_largest_die_rolls() -> None:
    assert 1 <= roll("1d1000").total <= 1000


def test_nesting_depth() -> None:
    assert roll("(" * 10 + "1" + ")" * 10).total == 1
    error = error_of("(" * 11 + "1" + ")" * 11)
    assert (error.key, error.params) == ("dice.too_deep", {"depth": 11, "limit": 10})
    assert error_of("(" * 10 + "((1,2),3)" + ")" * 10).key == "dice.too_deep"


def test_syntax_error_carries_position_and_hint() -> None:
    error = error_of("2d6+abc")
    assert error.key == "dice.syntax"
    assert error.params["column"] == 5
    assert error.params["got"] == "abc"
    assert "d" in error.params["expected"].split()


def test_syntax_error_at_the_end() -> None:
    error = error_of("2d6+")
    assert error.key == "dice.syntax_end"
    assert error.params["column"] == 4
    assert "(" in error.params["expected"]


@pytest.mark.parametrize("text", ["abc", "2d6kx", "2d6)", "((2d6)"])
def test_syntax_errors(text: str) -> None:
    assert error_of(text).key in ("dice.syntax", "dice.syntax_end")


@pytest.mark.parametrize("text", ["1/0", "1d6/0", "1/(1d1-1)", "5%0"])
def test_division_by_zero(text: str) -> None:
    assert error_of(text).key == "dice.division_by_zero"


def test_min_max_need_a_plain_number() -> None:
    error = error_of("1d6mi<3")
    assert (error.key, error.params) == ("dice.bad_min_max", {"operation": "mi<3"})


def test_recursion_error_becomes_bad_input(monkeypatch: pytest.MonkeyPatch) -> None:
    class Exploding:
        context = notation._ROLLER.context

        def roll(self, tree: Any) -> Any:
            raise RecursionError

    notation._parse_cleaned("2d6")  # parse with the real roller first
    monkeypatch.setattr(notation, "_ROLLER", Exploding())
    assert error_of("2d6").key == "dice.too_complex"


def test_recursion_while_parsing_becomes_bad_input(monkeypatch: pytest.MonkeyPatch) -> None:
    class Exploding:
        def parse(self, text: str, allow_comments: bool) -> Any:
            raise RecursionError

    monkeypatch.setattr(notation, "_ROLLER", Exploding())
    assert error_of("3d6+17 never parsed before").key == "dice.too_complex"


def test_check_notation_validates_without_rolling() -> None:
    parsed = check_notation("4W6kh3+2 Stärke")
    assert (parsed.expression, parsed.comment, parsed.mode, parsed.dice_count) == (
        "4d6kh3 + 2",
        "Stärke",
        "sum",
        4,
    )
    assert check_notation("8d6>=5").success_rule == ">= 5"
    with pytest.raises(BadInput):
        check_notation("1d1001")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789dDwWkhlprroeamix%+-*/()<>=!,[] ", max_size=40))
def test_no_d20_or_lark_exception_escapes(text: str) -> None:
    try:
        result, _ = roll_notation(text, Rng(5))
    except BadInput:
        return
    assert len(result.breakdown) <= BREAKDOWN_LIMIT


# ---- determinism and threads ------------------------------------------------------------


def test_same_rng_same_result_and_the_rng_advances() -> None:
    first, after = roll_notation("10d6e6 + 4d8kh2", Rng(99, 4))
    second, _ = roll_notation("10d6e6 + 4d8kh2", Rng(99, 4))
    assert first == second
    assert after == Rng(99, 5)


def test_different_rngs_differ() -> None:
    assert len({roll("20d20", seed=s).total for s in range(10)}) > 1


def test_module_random_is_restored_after_rolls_and_errors() -> None:
    roll("2d6")
    error_of("1/0")
    assert d20.expression.random is random


def test_threads_get_the_same_results_as_sequential_rolls() -> None:
    seeds = list(range(40))
    expected = {s: roll("30d6e6kh20", seed=s) for s in seeds}
    found: dict[int, DiceRoll] = {}

    def work(chunk: list[int]) -> None:
        for s in chunk:
            found[s] = roll("30d6e6kh20", seed=s)

    threads = [threading.Thread(target=work, args=(seeds[i::4],)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert found == expected


# ---- breakdown --------------------------------------------------------------------------


def test_breakdown_in_d20_style() -> None:
    result = roll("2d6+3")
    (group,) = result.groups
    faces = ", ".join(f"**{d.value}**" if d.crit or d.fumble else str(d.value) for d in group.dice)
    assert result.breakdown == f"2d6 ({faces}) + 3 = `{result.total}`"


def test_crit_and_fumble_on_a_single_d20() -> None:
    results = many("1d20+2", 200)
    assert any(r.crit for r in results) and any(r.fumble for r in results)
    for result in results:
        assert result.crit == (result.groups[0].dice[0].value == 20)
        assert result.fumble == (result.groups[0].dice[0].value == 1)
        if result.crit:
            assert "**20**" in result.breakdown


def test_large_rolls_are_truncated_and_say_how_many_dice_are_hidden() -> None:
    result = roll("1000d6")
    assert len(result.breakdown) <= BREAKDOWN_LIMIT
    assert result.hidden_dice > 0
    assert f"… +{result.hidden_dice})" in result.breakdown
    assert result.breakdown.endswith(f"= `{result.total}`")
    assert len(result.groups[0].dice) == 1000  # the structured data keeps every die


def test_long_reroll_histories_are_truncated_too() -> None:
    result = roll("100d6rr<6")
    assert len(result.breakdown) <= BREAKDOWN_LIMIT
    assert result.total == 600


def test_small_rolls_hide_nothing() -> None:
    assert roll("20d6").hidden_dice == 0


# ---- statistics (seeded) ----------------------------------------------------------------


def test_4d6_keep_highest_3_mean() -> None:
    totals = [r.total for r in many("4d6kh3", 8000)]
    assert abs(sum(totals) / len(totals) - 12.2446) < 0.12


def test_2d20_keep_highest_distribution() -> None:
    count = 12000
    faces = Counter(r.total for r in many("2d20kh1", count))
    for face in range(1, 21):
        assert abs(faces[face] / count - (2 * face - 1) / 400) < 0.012, face


def test_exploding_d6_mean() -> None:
    totals = [r.total for r in many("1d6e6", 12000)]
    assert abs(sum(totals) / len(totals) - 4.2) < 0.12  # 3.5 * 6/5


def test_success_count_mean() -> None:
    successes = [r.successes or 0 for r in many("9d6>=5", 4000)]
    assert abs(sum(successes) / len(successes) - 3.0) < 0.1


# ---- what Avrae and Dice Maiden users type (issue 21) -------------------------------------


@pytest.mark.parametrize("text", ["6#4d6kh3", "6x4d6kh3", "6 # 4W6kh3", "6X4d6kh3"])
def test_a_repeated_roll_rolls_each_set_on_its_own(text: str) -> None:
    result = roll(text, 3)
    assert result.notation.repeat == 6 and result.notation.typed == text
    assert result.notation.dice_count == 24
    assert len(result.sets) == 6 and len(result.groups) == 6
    for one in result.sets:
        (group,) = one.groups
        assert len(group.dice) == 4 and sum(1 for d in group.dice if d.kept) == 3
        assert one.total == group.subtotal and 3 <= one.total <= 18
        assert one.notation.repeat == 1
    assert result.total == sum(one.total for one in result.sets)
    lines = result.breakdown.splitlines()
    assert [line.split(" ", 1)[0] for line in lines] == [f"`#{i}`" for i in range(1, 7)]
    assert lines[0] == f"`#1` {result.sets[0].breakdown}"
    assert len({one.total for one in result.sets}) > 1  # not the same dice six times


def test_a_repeated_roll_is_the_same_for_the_same_rng_and_keeps_its_comment() -> None:
    first, second = roll("6x4W6kh3 Werte", 5), roll("6x4W6kh3 Werte", 5)
    assert first.breakdown == second.breakdown and first.comment == "Werte"
    assert first.breakdown.startswith("`#1` 4W6kh3 (")


@pytest.mark.parametrize("text", ["6#1000d6", "2#501d6", "5#300d6", "21#1d6", "0#1d6"])
def test_a_repeated_roll_keeps_the_caps(text: str) -> None:
    error = error_of(text)
    assert error.key in ("dice.too_many_sets", "dice.bad_repeat")
    assert error.params["limit"] == (MAX_DICE if error.key == "dice.too_many_sets" else 20)
    if error.key == "dice.too_many_sets":
        count, dice = (int(n) for n in text.split("d")[0].split("#"))
        assert error.params == {"sets": count, "dice": dice, "total": count * dice, "limit": 1000}


def test_exploding_sets_share_one_budget_of_dice() -> None:
    assert error_of("5#200d6e6").key == "dice.too_many_dice"  # 1000 dice before any explodes
    assert roll("4#200d6").rolls == 800


def test_a_mistake_in_a_repeated_roll_is_told_where_the_user_typed_it() -> None:
    error = error_of("6#4d6 kh3")
    assert error.key == "dice.syntax_text" and error.params["column"] == 7


def test_3x6_is_still_a_typo_not_three_sixes() -> None:
    assert error_of("3X6").key == "dice.syntax_text"


@pytest.mark.parametrize("seed", range(8))
def test_versus_is_a_target_check_with_hit_or_miss_and_margin(seed: int) -> None:
    result = roll("1d20+5 vs 15 Angriff auf den Ork", seed)
    assert result.mode == "target" and result.notation.versus
    assert result.notation.typed == "1d20+5 vs 15" and result.comment == "Angriff auf den Ork"
    assert result.total == result.groups[0].subtotal + 5
    assert result.target_met == (result.total >= 15)
    assert result.margin == result.total - 15
    mark = "✓" if result.target_met else "✗"
    margin = f"+{result.margin}" if result.margin >= 0 else f"−{-result.margin}"
    assert result.breakdown.endswith(f"= `{result.total}` (vs 15) {mark} {margin}")


def test_versus_with_advantage_and_a_repeat() -> None:
    result = roll("1W20+5 vorteil vs 15 Ork")
    assert result.notation.typed == "1W20+5 vorteil vs 15" and result.comment == "Ork"
    assert result.groups[0].notation == "2W20kh1"
    sets = roll("3#1d20+5 vs 12", 3)
    assert sets.total == sum(1 for one in sets.sets if one.target_met)
    assert [one.margin for one in sets.sets] == [one.total - 12 for one in sets.sets]


def test_vs_in_a_comment_stays_a_comment_and_vs_after_a_comparison_is_refused() -> None:
    result = roll("2W6 Angriff vs 3 Orks")
    assert result.mode == "sum" and result.comment == "Angriff vs 3 Orks"
    error = error_of("1d20>=5 vs 15")
    assert error.key == "dice.versus_comparison" and error.params == {"target": 15}


def test_versus_compares_the_total_also_of_a_single_group_and_below_zero() -> None:
    for text, target in [("1d20 vs 15", 15), ("8d6 vs 30", 30), ("4dF vs -1", -1)]:
        for result in many(text, 10):
            assert result.mode == "target" and result.successes is None, text
            assert result.total == result.groups[0].subtotal
            assert result.margin == result.total - target
    fate = roll("4dF+1 vs −1 Fate")
    assert fate.notation.success_rule == ">= -1" and fate.comment == "Fate"
    assert roll("1d20-5>=-2").mode == "target"


def test_a_target_on_the_low_side_has_its_margin_on_that_side() -> None:
    for result in many("2d6+1<=8", 20):
        assert result.margin == 8 - result.total
        assert result.target_met == (result.margin >= 0)


@pytest.mark.parametrize("text", ["6d10 t7 f1", "6d10t7f1", "6W10 t7 f1"])
def test_dice_maiden_counts_successes_minus_failures(text: str) -> None:
    for result in many(text, 30, seed=4):
        (group,) = result.groups
        values = [d.value for d in group.dice]
        hits, ones = sum(v >= 7 for v in values), sum(v <= 1 for v in values)
        assert (result.successes, result.failures) == (hits, ones)
        assert result.total == hits - ones and result.mode == "successes"
        assert [d.failure for d in group.dice] == [v <= 1 for v in values]
        assert result.notation.failure_rule == "<= 1"
        assert result.breakdown.endswith(f"= {hits} ✓ − {ones} ✗ = `{hits - ones}`")
        if ones:
            assert "__1__" in result.breakdown  # a failure is underlined
    assert any(r.total < 0 for r in many("6d10 t10 f5", 40))  # more failures than successes


def test_dice_maiden_t_alone_counts_successes_as_d20_comparisons_do() -> None:
    result = roll("6d10 t7 Angriff", 2)
    plain = roll("6d10>=7 Angriff", 2)
    assert result.total == plain.total and result.failures is None
    assert result.notation.typed == "6d10 t7" and result.comment == "Angriff"
    assert error_of("2d6+1 t7").key == "dice.count_needs_one_group"
    assert error_of("1d20 f1").key == "dice.syntax_text"  # f without t is no count


def test_fudge_dice_show_minus_blank_plus_and_add_up() -> None:
    seen = set()
    for result in many("4dF+1 Fate", 40):
        (group,) = result.groups
        assert group.fudge and group.notation == "4dF" and group.sides == 3
        values = [d.value for d in group.dice]
        seen.update(values)
        assert all(v in (-1, 0, 1) for v in values)
        assert not any(d.crit or d.fumble for d in group.dice)
        assert result.total == sum(values) + 1 and group.subtotal == sum(values)
        faces = ", ".join({-1: "−", 0: "0", 1: "+"}[v] for v in values)
        assert result.breakdown == f"4dF ({faces}) + 1 = `{result.total}`"
        assert result.comment == "Fate"
    assert seen == {-1, 0, 1}


def test_fudge_dice_with_other_dice_and_a_real_d3_stay_apart() -> None:
    mixed = roll("2dF+1d3", 3)
    assert [g.fudge for g in mixed.groups] == [True, False]
    assert mixed.total == mixed.groups[0].subtotal + mixed.groups[1].subtotal
    assert all(1 <= d.value <= 3 for d in roll("4d3", 3).groups[0].dice)  # not -1..1
    assert roll("4WF", 3).groups[0].notation == "4WF"


def test_fudge_dice_take_no_keep_or_explode() -> None:
    error = error_of("4dFkh2")
    assert error.key == "dice.fudge_operations" and error.params == {"operation": "kh2"}


def test_fudge_distribution() -> None:
    totals = Counter(r.total for r in many("4dF", 8100))
    assert abs(totals[0] / 8100 - 19 / 81) < 0.02  # 19 of the 81 outcomes sum to 0
    assert abs(sum(k * v for k, v in totals.items()) / 8100) < 0.06


NEW_FORMS = ["6#", "20x", "21#", "3 # ", "4dF", "dF", "WF", " vs 15", " vs ", "vs9", " t7", "t",
             " f1", "f", "1000d1000", "500d6", "kh3", "e6", "!", "(", ")", "+", "-", ">=", " ",
             "1d20", "[x]", " Angriff", "999999999#", "0x", "x", "#"]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(NEW_FORMS), max_size=8).map("".join))
def test_the_new_forms_only_ever_fail_with_a_friendly_error(text: str) -> None:
    try:
        result, _ = roll_notation(text, Rng(5))
    except BadInput:
        return
    assert len(result.breakdown) <= BREAKDOWN_LIMIT + 10 * len(result.sets)
    assert result.rolls <= MAX_DICE


def test_deep_nesting_and_long_chains_in_a_repeated_roll_are_refused_cleanly() -> None:
    assert error_of("2#" + "(" * 300 + "1d6" + ")" * 300).key in ("dice.too_long", "dice.too_deep")
    assert error_of("2#" + "(" * 11 + "1d6" + ")" * 11).key == "dice.too_deep"
    chained = roll("20#" + "+1d6" * 49)  # 20 sets of 49 dice: 980, within the cap
    assert chained.rolls == 980 and len(chained.sets) == 20
    assert len(chained.breakdown) <= BREAKDOWN_LIMIT + 20  # a line per set, each cut to fit
    assert error_of("21#" + "+1d6" * 49).key == "dice.bad_repeat"
