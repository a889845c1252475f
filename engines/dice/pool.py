"""A pool of W6, as every W6 check rolls it: each 5 or 6 is a success (W6 rules, "Prüfungen")."""

from __future__ import annotations

from dataclasses import dataclass

from engines.core import Rng

SUCCESS_MIN = 5


@dataclass(frozen=True, slots=True)
class PoolRoll:
    dice: tuple[int, ...]

    @property
    def successes(self) -> int:
        return sum(1 for d in self.dice if d >= SUCCESS_MIN)

    @property
    def fives(self) -> int:
        return self.dice.count(5)

    @property
    def sixes(self) -> int:
        return self.dice.count(6)


def roll_pool(count: int, rng: Rng) -> tuple[PoolRoll, Rng]:
    """Roll ``count`` W6 (0 or fewer rolls nothing)."""
    if count <= 0:
        return PoolRoll(()), rng
    dice, rng = rng.dice(count, 6)
    return PoolRoll(tuple(dice)), rng
