"""Dice: general notation through d20, W6 checks (Proben) and the Telperinquár rolls.

Every roll takes an :class:`~engines.core.Rng` and returns ``(result, advanced_rng)``; the same
Rng always gives the same result. Invalid input raises :class:`~engines.core.BadInput` with a
``dice.*`` key from ``data/i18n/dice.json``. Modules and their full API docs:

- :mod:`engines.dice.notation` — ``roll_notation(text, rng) -> (DiceRoll, Rng)``,
  ``check_notation(text) -> Notation``.
- :mod:`engines.dice.saved` — ``expand_saved(name, saved, rest) -> str``: a saved roll used
  in an expression (``feuerball+2 auf den Ork``).
- :mod:`engines.dice.w6` — ``probe``, ``komplexe_probe``, ``konkurrierende_probe`` and the text
  forms ``parse_probe``, ``parse_pool``, ``parse_komplex``, ``parse_difficulty``.
- :mod:`engines.dice.telperinquar` — ``attack_roll(bonus, rng)``, ``erfolgswurf(level, target,
  rng)``.
- :mod:`engines.dice.pool` — ``roll_pool(count, rng) -> (PoolRoll, Rng)``, shared with the W6
  campaign engine.

Rules and the readings chosen: ``data/dice/RULES.md``.
"""

from engines.dice.notation import (
    DiceGroup,
    DiceRoll,
    DieResult,
    Notation,
    check_notation,
    roll_notation,
)
from engines.dice.pool import PoolRoll, roll_pool
from engines.dice.saved import expand_saved
from engines.dice.telperinquar import AttackRoll, ErfolgswurfResult, attack_roll, erfolgswurf
from engines.dice.w6 import (
    ContestResult,
    ContestSide,
    Difficulty,
    KomplexResult,
    Pool,
    ProbeResult,
    ProbeSpec,
    SideResult,
    komplexe_probe,
    konkurrierende_probe,
    parse_difficulty,
    parse_komplex,
    parse_pool,
    parse_probe,
    probe,
)

__all__ = [
    "AttackRoll",
    "ContestResult",
    "ContestSide",
    "DiceGroup",
    "DiceRoll",
    "DieResult",
    "Difficulty",
    "ErfolgswurfResult",
    "KomplexResult",
    "Notation",
    "Pool",
    "PoolRoll",
    "ProbeResult",
    "ProbeSpec",
    "SideResult",
    "attack_roll",
    "check_notation",
    "erfolgswurf",
    "expand_saved",
    "komplexe_probe",
    "konkurrierende_probe",
    "parse_difficulty",
    "parse_komplex",
    "parse_pool",
    "parse_probe",
    "probe",
    "roll_notation",
    "roll_pool",
]
