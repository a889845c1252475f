"""W6 checks: Probe, Erschwerte Probe, Komplexe Probe, Konkurrierende Probe and their text forms."""

from __future__ import annotations

import pytest

from engines.core import BadInput, Rng
from engines.dice.pool import roll_pool
from engines.dice.w6 import (
    ContestSide,
    Difficulty,
    Pool,
    ProbeSpec,
    komplexe_probe,
    konkurrierende_probe,
    parse_difficulty,
    parse_komplex,
    parse_pool,
    parse_probe,
    probe,
)


def bad(call: object, *args: object) -> BadInput:
    with pytest.raises(BadInput) as caught:
        call(*args)  # type: ignore[operator]
    return caught.value


# ---- Probe ------------------------------------------------------------------------------


def test_probe_rolls_the_pool_through_roll_pool() -> None:
    rng = Rng(11)
    result, after = probe(ProbeSpec(Pool(5, bonus=2)), rng)
    expected, expected_rng = roll_pool(7, rng)
    assert result.roll == expected and after == expected_rng
    assert result.dice_count == 7 and len(result.dice) == 7 and result.rolled
    assert result.successes == sum(1 for d in result.dice if d >= 5)
    assert result.required == 2
    assert result.passed == (result.successes >= 2)
    assert result.margin == result.successes - 2


def test_required_successes_can_be_raised() -> None:
    rng = Rng(3)
    for _ in range(50):
        result, rng = probe(ProbeSpec(Pool(6), required=4), rng)
        assert result.passed == (result.successes >= 4)
        assert result.margin == result.successes - 4


def test_probe_pass_rate_of_three_dice_converges_to_seven_in_27() -> None:
    rng, passed, count = Rng(2024), 0, 20000
    for _ in range(count):
        result, rng = probe(ProbeSpec(Pool(3)), rng)
        passed += result.passed
    assert abs(passed / count - 7 / 27) < 0.012


def test_same_rng_same_probe() -> None:
    spec = ProbeSpec(Pool(8), 3)
    assert probe(spec, Rng(5, 9)) == probe(spec, Rng(5, 9))


# ---- Erschwerte Probe -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "name", "dice"),
    [
        (Difficulty.NORMAL, "Normal", 3),
        (Difficulty.ANSPRUCHSVOLL, "Anspruchsvoll", 6),
        (Difficulty.SCHWER, "Schwer", 9),
        (Difficulty.SEHR_SCHWER, "Sehr schwer", 12),
        (Difficulty.FAST_UNMOEGLICH, "Fast unmöglich", 15),
    ],
)
def test_difficulty_table_of_the_rulebook(level: Difficulty, name: str, dice: int) -> None:
    assert (level.rulebook_name, level.dice) == (name, dice)
    assert parse_difficulty(name) is level
    assert level.key.startswith("dice.w6.difficulty.")


def test_difficulty_removes_dice() -> None:
    result, _ = probe(ProbeSpec(Pool(8, bonus=2, difficulty=Difficulty.ANSPRUCHSVOLL)), Rng(1))
    assert result.dice_count == 4 and len(result.dice) == 4


def test_penalty_and_difficulty_add_up() -> None:
    assert Pool(10, bonus=4, penalty=2, difficulty=Difficulty.NORMAL).dice == 9


@pytest.mark.parametrize("pool", [Pool(3, difficulty=Difficulty.NORMAL), Pool(4, penalty=9)])
def test_pool_at_zero_or_below_fails_without_rolling(pool: Pool) -> None:
    rng = Rng(8)
    result, after = probe(ProbeSpec(pool), rng)
    assert not result.rolled and not result.passed
    assert result.dice == () and result.successes == 0 and result.margin == -2
    assert result.dice_count == pool.dice <= 0
    assert after == rng


def test_pool_limits() -> None:
    assert bad(probe, ProbeSpec(Pool(-1)), Rng(1)).params["field"] == "base"
    assert bad(probe, ProbeSpec(Pool(3, bonus=-1)), Rng(1)).params["field"] == "bonus"
    assert bad(probe, ProbeSpec(Pool(3, penalty=-1)), Rng(1)).params["field"] == "penalty"
    assert bad(probe, ProbeSpec(Pool(3), required=0), Rng(1)).params["field"] == "required"
    error = bad(probe, ProbeSpec(Pool(80, bonus=30)), Rng(1))
    assert (error.key, error.params) == ("dice.w6.pool_too_big", {"dice": 110, "limit": 100})


# ---- Komplexe Probe ---------------------------------------------------------------------


def test_komplexe_probe_rolls_every_part_with_its_own_requirement() -> None:
    parts = parse_komplex("3/2/2", "2,2,1")
    result, _ = komplexe_probe(Pool(7), parts, Rng(4))
    assert [p.dice_count for p in result.parts] == [3, 2, 2]
    assert [p.required for p in result.parts] == [2, 2, 1]
    assert result.unused == 0 and result.available == 7
    assert result.passed == all(p.successes >= p.required for p in result.parts)


def test_komplexe_probe_passes_only_if_every_part_passes() -> None:
    rng, seen = Rng(77), set()
    for _ in range(300):
        result, rng = komplexe_probe(Pool(6), parse_komplex("3/3", "1"), rng)
        seen.add((tuple(p.passed for p in result.parts), result.passed))
        assert result.passed == all(p.passed for p in result.parts)
    assert ((True, False), False) in seen and ((True, True), True) in seen


def test_komplexe_probe_split_may_leave_dice_unused() -> None:
    result, _ = komplexe_probe(Pool(5, bonus=2), parse_komplex("2/2"), Rng(1))
    assert result.unused == 3


def test_komplexe_probe_split_must_fit_the_pool() -> None:
    error = bad(komplexe_probe, Pool(5), parse_komplex("3/3"), Rng(1))
    assert (error.key, error.params) == ("dice.w6.komplex_split", {"used": 6, "available": 5})
    error = bad(komplexe_probe, Pool(9, difficulty=Difficulty.NORMAL), parse_komplex("4/3"), Rng(1))
    assert error.params == {"used": 7, "available": 6}


def test_komplexe_probe_part_difficulty_only_hits_that_part() -> None:
    parts = (ProbeSpec(Pool(4, difficulty=Difficulty.NORMAL)), ProbeSpec(Pool(3)))
    result, _ = komplexe_probe(Pool(7), parts, Rng(2))
    assert [p.dice_count for p in result.parts] == [1, 3]


def test_komplexe_probe_whose_pool_is_eaten_fails_without_rolling() -> None:
    rng = Rng(3)
    result, after = komplexe_probe(
        Pool(5, difficulty=Difficulty.ANSPRUCHSVOLL), parse_komplex("3/2"), rng
    )
    assert not result.rolled and not result.passed and after == rng
    assert all(not p.rolled for p in result.parts)


def test_komplexe_probe_needs_two_to_ten_parts() -> None:
    error = bad(komplexe_probe, Pool(7), (ProbeSpec(Pool(3)),), Rng(1))
    assert (error.key, error.params) == ("dice.w6.komplex_parts", {"count": 1, "min": 2, "max": 10})


def test_same_rng_same_komplexe_probe() -> None:
    parts = parse_komplex("3/2/2")
    assert komplexe_probe(Pool(7), parts, Rng(6)) == komplexe_probe(Pool(7), parts, Rng(6))


# ---- Konkurrierende Probe ---------------------------------------------------------------


def test_more_successes_wins() -> None:
    rng, outcomes = Rng(10), set()
    for _ in range(200):
        result, rng = konkurrierende_probe(
            ContestSide("Dieb", Pool(5)), ContestSide("Opfer", Pool(5)), rng
        )
        first, second = (s.successes for s in result.sides)
        expected = None if first == second else (0 if first > second else 1)
        assert result.winner == expected and result.tie == (expected is None)
        assert result.margin == abs(first - second)
        outcomes.add(result.winner)
    assert outcomes == {0, 1, None}


def test_contest_sides_keep_their_labels_and_dice() -> None:
    result, _ = konkurrierende_probe(
        ContestSide("Taschendieb", parse_pool("4+2")), ContestSide("Opfer", Pool(3)), Rng(1)
    )
    assert [(s.label, s.dice_count, len(s.roll.dice)) for s in result.sides] == [
        ("Taschendieb", 6, 6),
        ("Opfer", 3, 3),
    ]


def test_contest_of_two_empty_pools_is_a_tie_without_rolls() -> None:
    result, _ = konkurrierende_probe(
        ContestSide("a", Pool(2, penalty=3)), ContestSide("b", Pool(0)), Rng(1)
    )
    assert result.tie and not any(s.rolled for s in result.sides)


# ---- text forms -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "pool", "required"),
    [
        ("5", Pool(5), 2),
        ("5+2", Pool(5, bonus=2), 2),
        ("5 + 2", Pool(5, bonus=2), 2),
        ("7 erfolge:3", Pool(7), 3),
        ("7 Erfolge=3", Pool(7), 3),
        ("erfolge 3 7", Pool(7), 3),
        ("7 e3", Pool(7), 3),
        ("7 successes:4", Pool(7), 4),
        ("8-2", Pool(8, penalty=2), 2),
        ("6+1-2+1 schwer e3", Pool(6, bonus=2, penalty=2, difficulty=Difficulty.SCHWER), 3),
        ("9 Sehr schwer", Pool(9, difficulty=Difficulty.SEHR_SCHWER), 2),
        ("9 sehr-schwer", Pool(9, difficulty=Difficulty.SEHR_SCHWER), 2),
        ("20 Fast unmöglich", Pool(20, difficulty=Difficulty.FAST_UNMOEGLICH), 2),
        ("20 fast_unmoeglich", Pool(20, difficulty=Difficulty.FAST_UNMOEGLICH), 2),
        ("6 ANSPRUCHSVOLL", Pool(6, difficulty=Difficulty.ANSPRUCHSVOLL), 2),
        ("6 normal", Pool(6, difficulty=Difficulty.NORMAL), 2),
        ("12 very hard s3", Pool(12, difficulty=Difficulty.SEHR_SCHWER), 3),
    ],
)
def test_parse_probe(text: str, pool: Pool, required: int) -> None:
    assert parse_probe(text) == ProbeSpec(pool, required)


@pytest.mark.parametrize(
    "text", ["", "abc", "5 3", "7 e3 e4", "5 schwer normal", "5e3", "+5", "5+", "5 foo"]
)
def test_parse_probe_rejects(text: str) -> None:
    assert bad(parse_probe, text).key == "dice.w6.syntax"


def test_parse_probe_range_errors() -> None:
    assert bad(parse_probe, "5 erfolge:0").params["field"] == "required"
    assert bad(parse_probe, "200").params["field"] == "base"


def test_parse_pool_refuses_a_requirement() -> None:
    assert parse_pool("5+1 schwer") == Pool(5, bonus=1, difficulty=Difficulty.SCHWER)
    assert bad(parse_pool, "5 e3").key == "dice.w6.syntax"


def test_unknown_difficulty() -> None:
    error = bad(parse_difficulty, "leicht")
    assert (error.key, error.params) == ("dice.w6.unknown_difficulty", {"text": "leicht"})
    assert parse_difficulty("FAST_UNMOEGLICH") is Difficulty.FAST_UNMOEGLICH


@pytest.mark.parametrize(
    ("parts", "requirements", "expected"),
    [
        ("3/2/2", "2,2,1", [(3, 0, 0, 2), (2, 0, 0, 2), (2, 0, 0, 1)]),
        ("3 / 2 / 2", "2; 2; 1", [(3, 0, 0, 2), (2, 0, 0, 2), (2, 0, 0, 1)]),
        ("3/2", None, [(3, 0, 0, 2), (2, 0, 0, 2)]),
        ("3 2", "3", [(3, 0, 0, 3), (2, 0, 0, 3)]),
        ("3:3/2-1:1/2+1", None, [(3, 0, 0, 3), (2, 0, 1, 1), (2, 1, 0, 2)]),
        ("3:3/2", "1,1", [(3, 0, 0, 1), (2, 0, 0, 1)]),
        ("3/2", "  ", [(3, 0, 0, 2), (2, 0, 0, 2)]),
        ("2,3", None, [(2, 0, 0, 2), (3, 0, 0, 2)]),
        ("3,2,2", "2 2 1", [(3, 0, 0, 2), (2, 0, 0, 2), (2, 0, 0, 1)]),
        ("3, 2, 2", "2/2/1", [(3, 0, 0, 2), (2, 0, 0, 2), (2, 0, 0, 1)]),
        ("3 2 2", "2,2,1", [(3, 0, 0, 2), (2, 0, 0, 2), (2, 0, 0, 1)]),
        ("3:1, 2 − 1:2", None, [(3, 0, 0, 1), (2, 0, 1, 2)]),
    ],
)
def test_parse_komplex(
    parts: str, requirements: str | None, expected: list[tuple[int, int, int, int]]
) -> None:
    specs = parse_komplex(parts, requirements)
    assert [(s.pool.base, s.pool.bonus, s.pool.penalty, s.required) for s in specs] == expected


@pytest.mark.parametrize("parts", ["quatsch", "3/x", "3.5/2", "drei,zwei", "  ", "3//:"])
def test_an_unreadable_split_gets_a_format_hint(parts: str) -> None:
    error = bad(parse_komplex, parts)
    assert (error.key, error.params) == ("dice.w6.komplex_split_syntax", {"text": parts.strip()})


def test_parse_komplex_errors() -> None:
    error = bad(parse_komplex, "3/2", "2,a")
    assert (error.key, error.params) == ("dice.w6.komplex_requirements_syntax", {"text": "2,a"})
    error = bad(parse_komplex, "3/2/2", "2,2")
    assert (error.key, error.params) == (
        "dice.w6.komplex_requirements",
        {"parts": 3, "requirements": 2},
    )
    assert bad(parse_komplex, "3").key == "dice.w6.komplex_parts"
    assert bad(parse_komplex, "/".join(["1"] * 11)).key == "dice.w6.komplex_parts"
    assert bad(parse_komplex, "3/2", "0").params["field"] == "required"
