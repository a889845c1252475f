"""A rolled d20 expression told as data and as Markdown: the dice groups of a
:class:`~engines.dice.results.DiceRoll` and the breakdown line, Markdown escaped, within the
length :mod:`engines.dice.notation` gives it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import d20.expression as d20_expression

from engines.dice.results import (
    DiceGroup,
    DieResult,
    _is_success,
    _margin,
    _meets,
    _Parsed,
)

_SYMBOLS = {">=": "≥", "<=": "≤", "!=": "≠", "==": "=", ">": ">", "<": "<"}
_MARKDOWN_SPECIAL = re.compile(r"([\\*_~`|>])")

# ---- structured result ------------------------------------------------------------------

_FUDGE_FACES = {1: "−", 2: "0", 3: "+"}


def _groups(expr: Any, parsed: _Parsed, fudge: frozenset[int]) -> Iterator[DiceGroup]:
    stack: list[tuple[Any, bool]] = [(expr, True)]
    letter = iter(parsed.letters)
    while stack:
        node, counted = stack.pop()
        counted = counted and bool(node.kept)
        if isinstance(node, d20_expression.Dice):
            yield _group(node, counted, parsed, next(letter, "d"), id(node) in fudge)
        else:
            stack.extend((child, counted) for child in reversed(node.children))


def _group(node: Any, counted: bool, parsed: _Parsed, letter: str, fudge: bool) -> DiceGroup:
    percentile = node.size == "%"
    sides = 100 if percentile else int(node.size)
    dice = tuple(_die(die, sides, percentile, parsed, fudge) for die in node.values)
    annotation = node.annotation
    size = "F" if fudge else node.size
    return DiceGroup(
        notation=f"{node.num}{letter}{size}{_ops(node.operations)}",
        count=int(node.num),
        sides=sides,
        percentile=percentile,
        operations=_ops(node.operations),
        label=annotation.strip()[1:-1].strip() if annotation else None,
        dice=dice,
        kept=counted,
        fudge=fudge,
    )


def _die(die: Any, sides: int, percentile: bool, parsed: _Parsed, fudge: bool) -> DieResult:
    literals = die.values
    last = literals[-1]
    natural = int(last.values[0])
    value = int(last.values[-1])
    kept = bool(die.kept)
    single = len(literals) == 1  # no reroll: the common case, kept cheap for 1000-die rolls
    success, failure = parsed.success, parsed.failure
    plain = not (percentile or fudge)
    return DieResult(
        value=value - 2 if fudge else value,
        natural=natural - 2 if fudge else natural,
        rerolled=() if single else tuple(int(v.values[0]) for v in literals[:-1]),
        kept=kept,
        exploded=bool(last.exploded) if single else any(v.exploded for v in literals),
        crit=plain and natural == sides,
        fumble=plain and natural == 1,
        success=(kept and _is_success(success, value)) if success else None,
        failure=(kept and _is_success(failure, value)) if failure else None,
    )


def _ops(operations: Any) -> str:
    return "".join(str(op) for op in operations)


# ---- Markdown breakdown -----------------------------------------------------------------


def _signed(number: int) -> str:
    return f"+{number}" if number >= 0 else f"−{-number}"


def _suffix(parsed: _Parsed, counts: tuple[int, int | None, int | None]) -> str:
    """What follows the dice: the total, successes (and failures), or the target's verdict."""
    total, successes, failures = counts
    if parsed.success is not None:
        if failures is None:
            return f" = `{total}` ✓"
        return f" = {successes} ✓ − {failures} ✗ = `{total}`"
    if parsed.target is not None:
        mark = "✓" if _meets(parsed.target, total) else "✗"
        op, number = parsed.target
        rule = f"vs {number}" if parsed.notation.versus else f"{_SYMBOLS[op]} {number}"
        return f" = `{total}` ({rule}) {mark} {_signed(_margin(parsed.target, total))}"
    return f" = `{total}`"


def _breakdown(
    expr: Any,
    parsed: _Parsed,
    counts: tuple[int, int | None, int | None],
    fudge: frozenset[int],
    limit: int,
) -> tuple[str, int]:
    """d20-style Markdown, showing fewer dice per group until it fits ``limit``; each dice
    term written with the die letter the user typed. A target comparison shows the total,
    then the target, ✓ or ✗ and the margin."""
    suffix = _suffix(parsed, counts)
    root = expr.roll.left if parsed.target is not None else expr.roll
    budget = limit // 3  # a die takes at least 3 characters ("1, "): no more can fit
    while True:
        writer = _MarkdownWriter(parsed, budget, fudge)
        text = writer.write(root) + suffix
        if len(text) <= limit:
            return text, writer.hidden
        if budget == 0:
            return text[: max(0, limit - len(suffix) - 1)] + "…" + suffix, writer.hidden
        shown = writer.shown
        budget = min(shown - 1, int(shown * limit / len(text) * 0.9))


def _escape_markdown(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


class _MarkdownWriter:
    """Mirrors d20's MarkdownStringifier, with success (bold) and failure (underlined)
    marking, Fudge faces, and a budget of dice shown."""

    def __init__(self, parsed: _Parsed, budget: int, fudge: frozenset[int]) -> None:
        self.success = parsed.success
        self.failure = parsed.failure
        self.fudge = fudge
        self.budget = budget
        self.letters = iter(parsed.letters)
        self.hidden = 0
        self.shown = 0
        self.in_dropped = False
        self._handlers: dict[type, Callable[[Any], str]] = {
            d20_expression.Dice: self._dice,
            d20_expression.Die: self._die,
            d20_expression.Set: self._set,
            d20_expression.Parenthetical: self._parenthetical,
            d20_expression.BinOp: self._binop,
            d20_expression.UnOp: self._unop,
            d20_expression.Literal: self._literal,
        }

    def write(self, node: Any) -> str:
        if not node.kept and not self.in_dropped:
            self.in_dropped = True
            inside = self._annotated(node)
            self.in_dropped = False
            return f"~~{inside}~~"
        return self._annotated(node)

    def _annotated(self, node: Any) -> str:
        inside = self._node(node)
        if node.annotation:
            return f"{inside} {_escape_markdown(node.annotation)}"
        return inside

    def _node(self, node: Any) -> str:
        handler = self._handlers.get(type(node))
        return handler(node) if handler else str(node)

    def _set(self, node: Any) -> str:
        inner = ", ".join(self.write(v) for v in node.values)
        comma = "," if len(node.values) == 1 else ""
        return f"({inner}{comma}){_ops(node.operations)}"

    def _parenthetical(self, node: Any) -> str:
        inner = node.value
        if isinstance(inner, d20_expression.BinOp) and id(inner.left) in self.fudge:
            return self._fudge_dice(inner.left)  # (Nd3 - 2N) is shown as the Fudge dice
        return f"({self.write(node.value)}){_ops(node.operations)}"

    def _binop(self, node: Any) -> str:
        return f"{self.write(node.left)} {node.op} {self.write(node.right)}"

    def _unop(self, node: Any) -> str:
        return f"{node.op}{self.write(node.value)}"

    def _shown_values(self, node: Any) -> tuple[list[Any], str]:
        """The dice of ``node`` within the budget, and the ``… +N`` for the rest."""
        values = list(node.values)
        shown = values[: max(0, self.budget)]
        self.shown += len(shown)
        self.budget -= len(shown)
        if len(shown) == len(values):
            return shown, ""
        self.hidden += len(values) - len(shown)
        return shown, f"… +{len(values) - len(shown)}"

    def _dice(self, node: Any) -> str:
        shown, rest = self._shown_values(node)
        faces = [self.write(die) for die in shown] + ([rest] if rest else [])
        letter = next(self.letters, "d")
        return f"{node.num}{letter}{node.size}{_ops(node.operations)} ({', '.join(faces)})"

    def _fudge_dice(self, node: Any) -> str:
        shown, rest = self._shown_values(node)
        faces = [_FUDGE_FACES[int(die.total)] for die in shown] + ([rest] if rest else [])
        return f"{node.num}{next(self.letters, 'd')}F ({', '.join(faces)})"

    def _die(self, die: Any) -> str:
        if len(die.values) == 1:  # fast path: one plain roll (most dice)
            literal = die.values[0]
            if literal.kept and len(literal.values) == 1 and not literal.exploded:
                return self._marked(die, literal, str(literal.values[0]))
        return ", ".join(self._marked(die, lit, self.write(lit)) for lit in die.values)

    def _marked(self, die: Any, literal: Any, text: str) -> str:
        if self.success is None:
            crit = literal.number == 1 or literal.number == die.size
            return f"**{text}**" if crit else text
        if literal is not die.values[-1] or not die.kept:
            return text
        if _is_success(self.success, literal.number):
            return f"**{text}**"
        if _is_success(self.failure, literal.number):
            return f"__{text}__"
        return text

    @staticmethod
    def _literal(node: Any) -> str:
        history = " → ".join(str(v) for v in node.values)
        return f"{history}!" if node.exploded else history
