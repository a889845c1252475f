"""Telperinquár rolls: W10 Grundangriffswurf (kritischer Treffer, Patzer) and W20 Erfolgswurf."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.core import BadInput, Rng
from engines.dice.telperinquar import AttackRoll, ErfolgswurfResult, attack_roll, erfolgswurf


def attacks(bonus: int, count: int) -> list[AttackRoll]:
    rng, rolls = Rng(31), []
    for _ in range(count):
        roll, rng = attack_roll(bonus, rng)
        rolls.append(roll)
    return rolls


def test_attack_roll_is_a_fair_w10_with_crit_and_fumble_flags() -> None:
    rolls = attacks(3, 10000)
    faces = Counter(r.die for r in rolls)
    assert set(faces) == set(range(1, 11))
    assert all(abs(n / 10000 - 0.1) < 0.015 for n in faces.values())
    for roll in rolls:
        assert roll.value == roll.die + 3
        assert roll.critical == (roll.die == 10)
        assert roll.fumble == (roll.die == 1)


def test_rulebook_example_critical_hit_against_a_creature() -> None:
    # "10 (der Grundangriffswürfel) + (+3) durch das Schwert ergibt 13 … Rüstung 2 … 11"
    roll = AttackRoll(die=10, bonus=3)
    assert roll.critical and roll.value == 13
    assert roll.damage(2, target_is_hero=False) == 11


def test_critical_hit_against_a_hero_ignores_armour() -> None:
    assert AttackRoll(die=10, bonus=3).damage(5, target_is_hero=True) == 13


def test_fumble_deals_nothing() -> None:
    assert AttackRoll(die=1, bonus=8).damage(0, target_is_hero=True) == 0
    assert AttackRoll(die=1, bonus=8).damage(0, target_is_hero=False) == 0


def test_damage_is_never_negative() -> None:
    assert AttackRoll(die=4, bonus=0).damage(9, target_is_hero=True) == 0
    assert AttackRoll(die=4, bonus=2).damage(1, target_is_hero=True) == 5


def test_same_rng_same_attack() -> None:
    assert attack_roll(2, Rng(4, 4)) == attack_roll(2, Rng(4, 4))


def test_attack_bonus_range() -> None:
    with pytest.raises(BadInput) as caught:
        attack_roll(1001, Rng(1))
    assert caught.value.key == "dice.tq.bad_number"
    with pytest.raises(BadInput):
        AttackRoll(5, 0).damage(-1001, target_is_hero=True)


def test_rulebook_example_erfolgswurf_needs_more_than_the_target() -> None:
    # "Kraft 15 … W20 und addiert seine aktuelle Stufe … muss eine 16 oder höher erhalten"
    assert ErfolgswurfResult(die=15, level=1, target=15).success
    assert not ErfolgswurfResult(die=14, level=1, target=15).success
    assert ErfolgswurfResult(die=14, level=1, target=15).margin == 0


def test_erfolgswurf_rolls_a_w20_plus_level() -> None:
    rng, faces = Rng(8), Counter()
    for _ in range(4000):
        result, rng = erfolgswurf(4, 15, rng)
        faces[result.die] += 1
        assert result.value == result.die + 4
        assert result.success == (result.die + 4 > 15)
    assert set(faces) == set(range(1, 21))


def test_erfolgswurf_success_rate() -> None:
    rng, passed = Rng(12), 0
    for _ in range(20000):
        result, rng = erfolgswurf(3, 15, rng)
        passed += result.success
    assert abs(passed / 20000 - 8 / 20) < 0.015  # die 13..20


@pytest.mark.parametrize("level", [0, 11, -1])
def test_erfolgswurf_level_range(level: int) -> None:
    with pytest.raises(BadInput) as caught:
        erfolgswurf(level, 10, Rng(1))
    assert (caught.value.key, caught.value.params) == (
        "dice.tq.bad_level",
        {"level": level, "min": 1, "max": 10},
    )


def test_erfolgswurf_target_range() -> None:
    with pytest.raises(BadInput) as caught:
        erfolgswurf(1, 5000, Rng(1))
    assert caught.value.params["field"] == "target"
