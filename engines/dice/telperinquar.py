"""The two Telperinquár rolls: the W10 Grundangriffswurf and the W20 Erfolgswurf (EW).

API:

``attack_roll(bonus: int, rng: Rng) -> tuple[AttackRoll, Rng]``
    One W10 plus the Schadensbonus. ``AttackRoll.die`` (1-10), ``.bonus``, ``.value`` (die +
    bonus), ``.critical`` (die 10), ``.fumble`` (die 1), ``.damage(reduction, target_is_hero=)``.
    The Grundheilungswurf is the same roll ("W10, wie Angriffswürfel"): a 10 is a kritische
    Heilung, a 1 heals nothing, so the same value type serves for healing.

``erfolgswurf(level: int, target: int, rng: Rng) -> tuple[ErfolgswurfResult, Rng]``
    One W20 plus the current Stufe against a required value. ``ErfolgswurfResult.die`` (1-20),
    ``.level``, ``.target``, ``.value`` (die + level), ``.success`` (value > target),
    ``.margin`` (value - target).

Errors (BadInput key and params): ``dice.tq.bad_level`` (level, min, max);
``dice.tq.bad_number`` (field, value, min, max).
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.core import BadInput, Rng

MIN_LEVEL, MAX_LEVEL = 1, 10  # "kein Held kann die Maximalstufe 10 überschreiten"
NUMBER_LIMIT = 1000  # bonus, reduction and EW target are bounded to this magnitude
CRITICAL_FACE, FUMBLE_FACE = 10, 1


@dataclass(frozen=True, slots=True)
class AttackRoll:
    die: int
    bonus: int

    @property
    def value(self) -> int:
        return self.die + self.bonus

    @property
    def critical(self) -> bool:
        """A 10 on the W10 („kritischer Treffer … wenn … eine 10 gewürfelt wird“)."""
        return self.die == CRITICAL_FACE

    @property
    def fumble(self) -> bool:
        """A 1 on the W10 („Ein Patzer tritt dann ein, wenn … eine 1 gewürfelt wird“)."""
        return self.die == FUMBLE_FACE

    def damage(self, reduction: int, *, target_is_hero: bool) -> int:
        """Damage after Rüstung/Zauberresistenz ``reduction``.

        A Patzer "reduziert den gesamten Angriff auf 0 Schadenspunkte". A kritischer Treffer
        against a Held ignores Rüstung and Zauberresistenz; against a Wesen the reduction still
        applies (rulebook example: 10 + 3 - Rüstung 2 = 11) and the Wesen is verletzt, which is
        the Telperinquár engine's business. The rulebook never lets an attack heal, so the
        result is at least 0. Raises :class:`BadInput` for a reduction out of range.
        """
        _check("reduction", reduction)
        if self.fumble:
            return 0
        if self.critical and target_is_hero:
            return max(0, self.value)
        return max(0, self.value - reduction)


@dataclass(frozen=True, slots=True)
class ErfolgswurfResult:
    die: int
    level: int
    target: int

    @property
    def value(self) -> int:
        return self.die + self.level

    @property
    def success(self) -> bool:
        # "Ist der ermittelte Wert höher als der geforderte Wert, ist es ein erfolgreicher
        # Erfolgswurf." Strictly higher: against Kraft 15 "muss eine 16 oder höher erhalten".
        # The rulebook gives a natural 20 or 1 no special meaning here.
        return self.value > self.target

    @property
    def margin(self) -> int:
        return self.value - self.target


def _check(field: str, value: int) -> None:
    if not -NUMBER_LIMIT <= value <= NUMBER_LIMIT:
        raise BadInput(
            "dice.tq.bad_number", field=field, value=value, min=-NUMBER_LIMIT, max=NUMBER_LIMIT
        )


def attack_roll(bonus: int, rng: Rng) -> tuple[AttackRoll, Rng]:
    """Roll the Grundangriffswurf (W10) and add ``bonus``. Raises :class:`BadInput` for a bonus
    beyond ±1000."""
    _check("bonus", bonus)
    die, rng = rng.randint(1, 10)
    return AttackRoll(die, bonus), rng


def erfolgswurf(level: int, target: int, rng: Rng) -> tuple[ErfolgswurfResult, Rng]:
    """Roll a Standard-EW: W20 + current Stufe, successful when higher than ``target``.

    Raises :class:`BadInput` ``dice.tq.bad_level`` (Stufe outside 1-10) or
    ``dice.tq.bad_number`` (target beyond ±1000).
    """
    if not MIN_LEVEL <= level <= MAX_LEVEL:
        raise BadInput("dice.tq.bad_level", level=level, min=MIN_LEVEL, max=MAX_LEVEL)
    _check("target", target)
    die, rng = rng.randint(1, 20)
    return ErfolgswurfResult(die, level, target), rng
