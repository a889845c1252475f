"""The values of a dice roll: :class:`DiceRoll` with a :class:`DiceGroup` per dice term and a
:class:`DieResult` per die, the checked :class:`Notation`, and what parsing hands to rolling
(``_Parsed``) with the comparisons of successes and targets. :mod:`engines.dice.notation`
re-exports the public ones."""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

Mode = Literal["sum", "successes", "target"]


_COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge,
    ">": operator.gt,
    "<=": operator.le,
    "<": operator.lt,
    "==": operator.eq,
    "!=": operator.ne,
}


@dataclass(frozen=True, slots=True)
class DieResult:
    """One die as rolled.

    ``value``: the face that counts (after rerolls and ``mi``/``ma``); ``natural``: the face
    actually rolled before ``mi``/``ma`` forced it; ``rerolled``: earlier faces thrown away by
    ``rr``/``ro``, oldest first; ``kept``: False when ``k``/``p`` dropped it; ``exploded``: it
    triggered an extra die (``e``/``ra``); ``crit``/``fumble``: natural maximum / natural 1
    (never for ``d%`` or Fudge dice); ``success``: in success mode whether it counts, else
    ``None``; ``failure``: with a failure count (``6d10 t7 f1``) whether it takes a success
    away, else ``None``. A Fudge die (``dF``) has ``value`` and ``natural`` -1, 0 or +1.
    """

    value: int
    natural: int
    rerolled: tuple[int, ...]
    kept: bool
    exploded: bool
    crit: bool
    fumble: bool
    success: bool | None
    failure: bool | None = None


@dataclass(frozen=True, slots=True)
class DiceGroup:
    """One dice term such as ``4d6kh3``.

    ``notation``: the term as d20 writes it; ``count``/``sides``: N and S (``d%`` has
    ``sides=100``, ``percentile=True`` and faces 0, 10, …, 90); ``operations``: e.g. ``"kh3"``;
    ``label``: its ``[annotation]`` without brackets or ``None``; ``dice``: every die including
    those added by explosions; ``kept``: False when an enclosing set operation dropped the
    whole group; ``subtotal``: sum of its kept dice; ``fudge``: Fudge/Fate dice (``4dF``,
    ``sides=3``, faces -1, 0, +1, written ``−``, ``0``, ``+``).
    """

    notation: str
    count: int
    sides: int
    percentile: bool
    operations: str
    label: str | None
    dice: tuple[DieResult, ...]
    kept: bool
    fudge: bool = False

    @property
    def subtotal(self) -> int:
        return sum(d.value for d in self.dice if d.kept)


@dataclass(frozen=True, slots=True)
class Notation:
    """A parsed, validated expression (no dice rolled yet).

    ``text``: the input with whitespace collapsed; ``typed``: its expression part as typed
    (the user's ``W`` kept, no comment: ``"8W6>=5"``); ``expression``: normalized d20 form
    (``"4d6kh3 + 2"``, ``"8d6 >= 5"``); ``comment``: the trailing text exactly as typed, or
    ``None``; ``labels``: every ``[annotation]`` without
    brackets, in order; ``mode``: ``"sum"``, ``"successes"`` or ``"target"``;
    ``success_rule``: e.g. ``">= 5"`` in success and target mode, else ``None``;
    ``dice_count``: dice before rerolls/explosions (all sets of a repeated roll);
    ``failure_rule``: Dice Maiden's failure count (``f1``: ``"<= 1"``) in success mode, else
    ``None``; ``versus``: the target was given as ``vs N`` (a hit or a miss); ``repeat``: how
    many times the expression is rolled (``6#4d6kh3``: 6; ``expression`` is one set).
    """

    text: str
    typed: str
    expression: str
    comment: str | None
    labels: tuple[str, ...]
    mode: Mode
    success_rule: str | None
    dice_count: int
    failure_rule: str | None = None
    versus: bool = False
    repeat: int = 1


@dataclass(frozen=True, slots=True)
class DiceRoll:
    """The result of :func:`roll_notation`.

    ``total``: the sum (d20 semantics: a fractional result is truncated toward zero) or, in
    success mode, the number of successes; ``successes``: same number in success mode, else
    ``None``; ``target_met``: in target mode whether the total meets the target, else
    ``None``; ``groups``: one :class:`DiceGroup` per dice term, left to right; ``breakdown``:
    ready Markdown in d20 style (``4d6kh3 (**6**, 3, ~~1~~, 5) + 2 = `16```; dropped dice
    struck through; natural max/1 bold in sum mode, successes bold in success mode, which ends
    ``= `3` ✓``), at most ``BREAKDOWN_LIMIT`` characters; ``hidden_dice``: dice left out of the
    breakdown to keep it short (shown there as ``… +N``); ``crit``/``fumble``: d20's rule, a
    natural 20 / 1 when the leftmost term keeps exactly one d20; ``rolls``: dice thrown
    including rerolls and explosions. ``notation`` holds expression, comment, labels and mode.
    The comment and labels are raw user text: escape them before display.

    ``failures``: with a failure count (``6d10 t7 f1``) the dice that take a success away,
    ``total`` then being successes minus failures, else ``None``. ``margin``: in target mode
    how far the total is past the target on the side that succeeds (``1d20+5 vs 15`` rolling
    17: +2; ``2d6+1<=8`` rolling 10: -2), else ``None``.

    A repeated roll (``6#4d6kh3``) has ``sets``, each set's own roll (with ``repeat`` 1);
    ``total`` is the sum of their totals, or in target mode how many sets met the target;
    ``groups`` are every set's groups in order; ``breakdown`` has one line per set
    (``#1: 4d6kh3 (…) = `13```); ``crit``/``fumble`` are False; ``rolls`` counts all sets.
    """

    notation: Notation
    total: int
    successes: int | None
    groups: tuple[DiceGroup, ...]
    breakdown: str
    hidden_dice: int
    crit: bool
    fumble: bool
    rolls: int
    target_met: bool | None = None
    failures: int | None = None
    margin: int | None = None
    sets: tuple[DiceRoll, ...] = ()

    @property
    def expression(self) -> str:
        return self.notation.expression

    @property
    def comment(self) -> str | None:
        return self.notation.comment

    @property
    def labels(self) -> tuple[str, ...]:
        return self.notation.labels

    @property
    def mode(self) -> Mode:
        return self.notation.mode


@dataclass(frozen=True, slots=True)
class _Parsed:
    tree: Any  # d20.diceast.Expression
    notation: Notation
    success: tuple[str, int] | None
    letters: tuple[str, ...]  # the die letter as typed, one per dice term in reading order
    target: tuple[str, int] | None = None
    failure: tuple[str, int] | None = None  # Dice Maiden's f1: ("<=", 1), success mode only
    fudge: tuple[bool, ...] = ()  # per dice term in reading order: typed as dF
    one: Notation | None = None  # a repeated roll's single set (notation is the whole)


def _meets(target: tuple[str, int], total: int) -> bool:
    return _COMPARISONS[target[0]](total, target[1])


def _margin(target: tuple[str, int], total: int) -> int:
    """How far ``total`` is past the target on the side that succeeds (negative: short)."""
    return target[1] - total if target[0] in ("<", "<=") else total - target[1]


def _is_success(success: tuple[str, int] | None, value: int) -> bool:
    return success is not None and _COMPARISONS[success[0]](value, success[1])
