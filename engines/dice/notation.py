"""General dice notation, parsed and rolled by the d20 library (never by our own parser).

API (everything else here is private):

``roll_notation(text: str, rng: Rng) -> tuple[DiceRoll, Rng]``
    Rolls ``text`` and returns the result and the advanced ``Rng`` (one counter step per
    roll). The same ``Rng`` always gives the same result. Raises :class:`BadInput` with one of
    the keys listed under *Errors*; no d20 or lark exception ever escapes.

``check_comment(comment: str, column: int) -> None``
    Refuses a comment whose first word reads like dice notation (``dice.syntax_text``).

``check_notation(text: str) -> Notation``
    Parses and validates without rolling (for autocomplete or early feedback); raises the same
    :class:`BadInput` errors as ``roll_notation`` except those only a roll can reveal
    (``dice.too_many_dice`` from rerolls/explosions, ``dice.division_by_zero`` by a rolled 0,
    ``dice.number_too_big``).

Notation (d20's, plus two additions; see ``data/dice/RULES.md``):
    ``NdS``, ``d%``, keep/drop ``kh3 kl1 ph1 pl1 k>4 p<2``, rerolls ``rr1 ro<3``, exploding
    ``e6 ra6``, ``mi2 ma5``, ``+ - * / // %``, parentheses, sets ``(1d6, 2d8)kh1``, labels
    ``1d6 [fire]``, and a trailing comment after a space that starts with a word, not with
    something that reads like dice (``2d6+3 Angriff auf den Ork``; ``3X6`` and ``4d6 kh3`` are
    syntax errors). Every dice term needs at least one die. German ``W``/``w`` (and ``D``)
    work as ``d`` where they stand for a die (``3W6``, ``1W10+2``, ``4w6kh3``); the comment is
    returned exactly as typed and the breakdown writes each term with the letter typed.
    *Success counting*: a single dice group compared with a whole number (``8d6>=5``,
    ``8W6>4``, ``10d10kh5>=8``) counts the kept dice that meet the comparison instead of
    comparing the sum (d20 alone would give 0 or 1). *A target*: anything else compared with a
    whole number (``1d20+5>=15``) keeps its total and says whether it meets the target.
    *Shorthands other bots use*: ``1d20 adv`` / ``dis`` and German ``vorteil`` / ``nachteil``
    (the first d20 term rolled twice, the higher / lower kept: ``2d20kh1`` / ``2d20kl1``), and
    ``3d6!`` (Dice Maiden's exploding dice: every maximum adds a die, ``3d6e6``); ``typed``
    keeps them as typed.

Errors (``BadInput.key`` and its params):
    ``dice.empty``; ``dice.too_long`` (length, limit); ``dice.syntax`` (column, got,
    expected); ``dice.syntax_end`` (column, expected); ``dice.syntax_text`` (column, got: text
    that is no comment); ``dice.syntax_unknown``; ``dice.zero_dice``;
    ``dice.too_many_dice`` (limit); ``dice.bad_sides`` (sides, limit); ``dice.too_deep``
    (depth, limit); ``dice.bad_min_max`` (operation); ``dice.division_by_zero``;
    ``dice.bad_value`` (detail); ``dice.too_complex``; ``dice.number_too_big``;
    ``dice.advantage_needs_d20`` (word).

Result types (frozen): :class:`DiceRoll` with :class:`DiceGroup` per dice term and
:class:`DieResult` per die; see their docstrings for every field.
"""

from __future__ import annotations

import functools
import operator
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

import d20
import d20.diceast as d20_ast
import d20.expression as d20_expression
import lark.exceptions

from engines.core import BadInput, Rng

MAX_INPUT_CHARS = 200
MAX_DICE = 1000  # d20's own per-roll cap (RollContext), rerolls and explosions included
MAX_SIDES = 1000
MAX_NESTING = 10  # parentheses/sets inside each other
BREAKDOWN_LIMIT = 1500  # characters of Markdown; leaves room in a 2000-char Discord message

Mode = Literal["sum", "successes", "target"]

_COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge,
    ">": operator.gt,
    "<=": operator.le,
    "<": operator.lt,
    "==": operator.eq,
    "!=": operator.ne,
}
# A "W"/"w"/"D" directly before a die size, not inside a word: 3W6, w20, (2W6), 1W%.
_DIE_LETTER = re.compile(r"(?<![^\W\d_])[wWD](?=\d|%)")
# Every die letter of an expression (d20's own "d" too), in the order d20 reads the dice.
_ANY_DIE_LETTER = re.compile(r"(?<![^\W\d_])[dwWD](?=\d|%)")
_ANNOTATION = re.compile(r"\[.*?\]")
_LETTER_OR_LABEL = re.compile(r"(\[.*?\])|" + _DIE_LETTER.pattern)
# A comment whose first word reads like more dice notation: a number, possibly after operators
# ("2d6 3", "2d6 +1", "8d6 >=5"), or one or two letters and a number ("3 X6", "4d6 kh3",
# "2d6 w6"). A lone "-" or "(Angriff)" is a word of the comment.
_DICE_LIKE_WORD = re.compile(r"\(?[+\-*/%<>=!,.]*(?:\d|[^\W\d_]{1,2}[<>]?[\d%])")
_COMMENT_WORD_SHOWN = 20  # characters of the offending word quoted back
_TERMINAL_HINTS = {
    "LPAR": "(",
    "RPAR": ")",
    "U_OP": "+ -",
    "A_OP": "+ -",
    "M_OP": "* / // %",
    "INTEGER": "0-9",
    "DECIMAL": "0-9",
    "DICE_VALUE": "0-9 %",
    "D": "d",
    "COMMA": ",",
    "COMP_OPERATOR": "< > <= >= == !=",
    "SET_OPERATOR": "k p",
    "DICE_OPERATOR": "rr ro ra e mi ma",
    "SELTYPE": "l h < >",
    "ANNOTATION": "[…]",
    "PERCENT": "%",
}
_SILENT_TERMINALS = {"_WS", "$END", "COMMENT"}
# "1d20+5 vorteil Angriff": the advantage word right after the expression, then the comment.
_ADVANTAGE = re.compile(
    r"^(?P<expression>[^\[\]]*?\S)\s+(?P<word>adv|dis|vorteil|nachteil)(?=\s|$)(?P<rest>.*)$",
    re.IGNORECASE,
)
_ADVANTAGE_KEEP = {"adv": "kh1", "vorteil": "kh1", "dis": "kl1", "nachteil": "kl1"}
# The first plain d20 term (``1d20``, ``W20``), not one with its own operations.
_D20_TERM = re.compile(r"(?<!\w)1?([dwWD])20(?![\d%a-zA-Z])")
# Dice Maiden's exploding dice: ``3d6!`` (not the comparison ``!=``).
_EXPLODE_BANG = re.compile(r"(?<![^\W\d_])(\d*[dwWD](\d+))!(?!=)")
_SYMBOLS = {">=": "≥", "<=": "≤", "!=": "≠", "==": "=", ">": ">", "<": "<"}
_MARKDOWN_SPECIAL = re.compile(r"([\\*_~`|>])")


@dataclass(frozen=True, slots=True)
class DieResult:
    """One die as rolled.

    ``value``: the face that counts (after rerolls and ``mi``/``ma``); ``natural``: the face
    actually rolled before ``mi``/``ma`` forced it; ``rerolled``: earlier faces thrown away by
    ``rr``/``ro``, oldest first; ``kept``: False when ``k``/``p`` dropped it; ``exploded``: it
    triggered an extra die (``e``/``ra``); ``crit``/``fumble``: natural maximum / natural 1
    (never for ``d%``); ``success``: in success mode whether it counts, else ``None``.
    """

    value: int
    natural: int
    rerolled: tuple[int, ...]
    kept: bool
    exploded: bool
    crit: bool
    fumble: bool
    success: bool | None


@dataclass(frozen=True, slots=True)
class DiceGroup:
    """One dice term such as ``4d6kh3``.

    ``notation``: the term as d20 writes it; ``count``/``sides``: N and S (``d%`` has
    ``sides=100``, ``percentile=True`` and faces 0, 10, …, 90); ``operations``: e.g. ``"kh3"``;
    ``label``: its ``[annotation]`` without brackets or ``None``; ``dice``: every die including
    those added by explosions; ``kept``: False when an enclosing set operation dropped the
    whole group; ``subtotal``: sum of its kept dice.
    """

    notation: str
    count: int
    sides: int
    percentile: bool
    operations: str
    label: str | None
    dice: tuple[DieResult, ...]
    kept: bool

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
    ``dice_count``: dice before rerolls/explosions.
    """

    text: str
    typed: str
    expression: str
    comment: str | None
    labels: tuple[str, ...]
    mode: Mode
    success_rule: str | None
    dice_count: int


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


_ROLL_LOCK = threading.Lock()
_ROLLER = d20.Roller(d20.RollContext(max_rolls=MAX_DICE))


def check_notation(text: str) -> Notation:
    """Parse and validate ``text`` without rolling. Raises :class:`BadInput` (see module doc)."""
    return _parse(text).notation


def roll_notation(text: str, rng: Rng) -> tuple[DiceRoll, Rng]:
    """Roll ``text`` with dice drawn from ``rng``; returns the result and the advanced Rng.

    Raises :class:`BadInput` for anything that cannot be rolled (keys in the module doc).
    """
    parsed = _parse(text)
    expr, rolls = _evaluate(parsed.tree, rng)
    total, successes = _totals(expr, parsed.success, parsed.target)
    target_met = _meets(parsed.target, total) if parsed.target else None
    groups = tuple(_groups(expr, parsed.success, parsed.letters))
    breakdown, hidden = _breakdown(expr, parsed.success, total, parsed.letters, parsed.target)
    crit_type = _crit_type(expr)
    roll = DiceRoll(
        notation=parsed.notation,
        total=total,
        successes=successes,
        groups=groups,
        breakdown=breakdown,
        hidden_dice=hidden,
        crit=crit_type == d20.CritType.CRIT,
        fumble=crit_type == d20.CritType.FAIL,
        rolls=rolls,
        target_met=target_met,
    )
    return roll, rng.advanced()


# ---- parsing and validation -------------------------------------------------------------


def _parse(text: str) -> _Parsed:
    cleaned = " ".join(text.split())
    if not cleaned:
        raise BadInput("dice.empty")
    if len(cleaned) > MAX_INPUT_CHARS:
        raise BadInput("dice.too_long", length=len(cleaned), limit=MAX_INPUT_CHARS)
    return _parse_cleaned(cleaned)


@functools.lru_cache(maxsize=512)
def _parse_cleaned(cleaned: str) -> _Parsed:
    rolled, shorthand = _expand_shorthands(cleaned)
    translated = _translate_die_letters(rolled)
    try:
        tree = _ROLLER.parse(translated, allow_comments=True)
        comment_start = _comment_start(rolled, translated, tree.comment)
        _check_tree(tree)
        success = _success_rule(tree.roll)
        target = None if success else _target_rule(tree.roll)
        rule = success or target
        typed = rolled[:comment_start].strip() if shorthand is None else shorthand
        comment = rolled[comment_start:].strip() or None
        mode: Mode = "successes" if success else "target" if target else "sum"
        notation = Notation(
            text=cleaned,
            typed=typed,
            expression=str(tree.roll),
            comment=comment,
            labels=tuple(_labels(tree)),
            mode=mode,
            success_rule=f"{rule[0]} {rule[1]}" if rule else None,
            dice_count=sum(n.num for n in _ast_nodes(tree) if isinstance(n, d20_ast.Dice)),
        )
    except d20.RollSyntaxError as error:
        raise _syntax_error(error) from None
    except lark.exceptions.LarkError:
        raise BadInput("dice.syntax_unknown") from None
    except RecursionError:
        raise BadInput("dice.too_complex") from None
    return _Parsed(tree, notation, success, _die_letters(typed, tree), target)


def _expand_shorthands(cleaned: str) -> tuple[str, str | None]:
    """``cleaned`` with the other bots' shorthands written in d20's notation, and the
    expression as typed when a shorthand was used (else None): ``1W20+5 vorteil Angriff`` →
    ``2W20kh1+5 Angriff``, ``3d6! Schaden`` → ``3d6e6 Schaden``.

    Raises BadInput ``dice.advantage_needs_d20`` for an advantage word without a d20 term.
    """
    expanded, typed = cleaned, None
    advantage = _ADVANTAGE.match(expanded)
    if advantage is not None:
        expression, word = advantage["expression"], advantage["word"]
        keep = _ADVANTAGE_KEEP[word.lower()]
        if not _D20_TERM.search(expression):
            raise BadInput("dice.advantage_needs_d20", word=word)
        typed = f"{expression} {word}"
        expression = _D20_TERM.sub(lambda m: f"2{m[1]}20{keep}", expression, count=1)
        expanded = expression + advantage["rest"]
    comment_at = len(expanded)
    exploding = _EXPLODE_BANG.sub(lambda m: f"{m[1]}e{m[2]}", expanded[:comment_at])
    if exploding != expanded:
        typed = typed or _typed_part(cleaned)
        expanded = exploding
    return expanded, typed


def _typed_part(cleaned: str) -> str:
    """The expression part of ``cleaned`` up to where a comment could start (the first space
    followed by a word), for showing a shorthand back as typed."""
    match = re.search(r"\s(?=[^\W\d_])", cleaned)
    return cleaned[: match.start()] if match else cleaned


def _syntax_error(error: Any) -> BadInput:
    expected = _expected_hint(error.expected)
    got = str(error.got)
    if not got:
        return BadInput("dice.syntax_end", column=int(error.col), expected=expected)
    return BadInput("dice.syntax", column=int(error.col), got=got, expected=expected)


def _expected_hint(terminals: Any) -> str:
    hints: list[str] = []
    for name in sorted(str(t) for t in terminals):
        if name in _SILENT_TERMINALS:
            continue
        for hint in _TERMINAL_HINTS.get(name, name.lower()).split():
            if hint not in hints:
                hints.append(hint)
    return " ".join(hints)


def _translate_die_letters(cleaned: str) -> str:
    """German ``W`` (and ``D``) as d20's ``d``, outside ``[labels]``; one character for one, so
    positions stay valid."""
    return _LETTER_OR_LABEL.sub(lambda m: m.group(1) or "d", cleaned)


def _comment_start(cleaned: str, translated: str, comment: str | None) -> int:
    """Where the comment starts in ``cleaned`` (its length when there is none).

    d20 reads anything it cannot parse as a comment ("3X6" is 3 with the comment "X6"). We
    accept a comment only after a space and only when its first word does not read like more
    dice notation; otherwise raises :class:`BadInput` ``dice.syntax_text`` at that position.
    """
    if not comment or not translated.endswith(comment):
        return len(cleaned)
    start = len(cleaned) - len(comment)
    text = cleaned[start:]
    word_start = start + len(text) - len(text.lstrip())
    if word_start == len(cleaned):
        return len(cleaned)
    if word_start == start and not (start > 0 and cleaned[start - 1].isspace()):
        raise _text_error(cleaned[word_start:], word_start + 1)
    check_comment(cleaned[word_start:], word_start + 1)
    return start


def check_comment(comment: str, column: int) -> None:
    """Refuse a comment whose first word reads like dice notation (``3``, ``+1``, ``kh3``,
    ``w6``, ``X6``). ``column`` is the comment's 1-based position, for the message.

    Raises :class:`BadInput` ``dice.syntax_text`` (column, got).
    """
    if _DICE_LIKE_WORD.match(comment):
        raise _text_error(comment, column)


def _text_error(text: str, column: int) -> BadInput:
    word = text.split(" ", 1)[0][:_COMMENT_WORD_SHOWN]
    return BadInput("dice.syntax_text", column=column, got=word)


def _die_letters(typed: str, tree: Any) -> tuple[str, ...]:
    """The die letter of every dice term as typed (``W``, ``w``, ``d`` or ``D``), in d20's
    reading order; all ``d`` if the count ever disagreed with d20's dice terms."""
    letters = tuple(_ANY_DIE_LETTER.findall(_ANNOTATION.sub(" ", typed)))
    terms = sum(1 for n in _ast_nodes(tree) if isinstance(n, d20_ast.Dice))
    return letters if len(letters) == terms else ("d",) * terms


def _ast_nodes(tree: Any) -> Iterator[Any]:
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))


def _check_tree(tree: Any) -> None:
    """Enforce the limits d20 itself does not have (die size, nesting, mi/ma selectors)."""
    dice = 0
    stack: list[tuple[Any, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, d20_ast.Parenthetical | d20_ast.NumberSet):
            depth += 1
            if depth > MAX_NESTING:
                raise BadInput("dice.too_deep", depth=depth, limit=MAX_NESTING)
        if isinstance(node, d20_ast.Dice):
            if node.num < 1:
                raise BadInput("dice.zero_dice")
            dice += node.num
            if node.size != "%" and not 1 <= node.size <= MAX_SIDES:
                raise BadInput("dice.bad_sides", sides=node.size, limit=MAX_SIDES)
        if isinstance(node, d20_ast.OperatedSet):
            for op in node.operations:
                if op.op in ("mi", "ma") and any(sel.cat is not None for sel in op.sels):
                    raise BadInput("dice.bad_min_max", operation=str(op))
        stack.extend((child, depth) for child in node.children)
    if dice > MAX_DICE:
        raise BadInput("dice.too_many_dice", limit=MAX_DICE)


def _unannotated(node: Any) -> Any:
    while isinstance(node, d20_ast.AnnotatedNumber):
        node = node.value
    return node


def _success_rule(root: Any) -> tuple[str, int] | None:
    """``(op, target)`` when the whole expression is one dice group compared with an integer."""
    if not isinstance(root, d20_ast.BinOp) or root.op not in _COMPARISONS:
        return None
    left, right = _unannotated(root.left), _unannotated(root.right)
    if not isinstance(left, d20_ast.Dice | d20_ast.OperatedDice):
        return None
    if not isinstance(right, d20_ast.Literal) or not isinstance(right.value, int):
        return None
    return str(root.op), int(right.value)


def _target_rule(root: Any) -> tuple[str, int] | None:
    """``(op, target)`` when the whole expression is a total compared with an integer
    (``1d20+5>=15``) and not a single dice group (that counts successes instead)."""
    if not isinstance(root, d20_ast.BinOp) or root.op not in _COMPARISONS:
        return None
    right = _unannotated(root.right)
    if not isinstance(right, d20_ast.Literal) or not isinstance(right.value, int):
        return None
    return str(root.op), int(right.value)


def _meets(target: tuple[str, int], total: int) -> bool:
    return _COMPARISONS[target[0]](total, target[1])


def _labels(tree: Any) -> Iterator[str]:
    for node in _ast_nodes(tree):
        if isinstance(node, d20_ast.AnnotatedNumber):
            for annotation in node.annotations:
                yield str(annotation).strip()[1:-1].strip()


# ---- rolling ----------------------------------------------------------------------------


def _evaluate(tree: Any, rng: Rng) -> tuple[Any, int]:
    """Roll the parsed tree with d20, its module-level ``random`` swapped for one from ``rng``."""
    stream = rng.fork()
    with _ROLL_LOCK:
        saved = d20_expression.random
        d20_expression.random = stream
        try:
            result = _ROLLER.roll(tree)
            rolls = int(_ROLLER.context.rolls)
        except d20.TooManyRolls:
            raise BadInput("dice.too_many_dice", limit=MAX_DICE) from None
        except d20.RollError as error:
            raise _value_error(error) from None
        except RecursionError:
            raise BadInput("dice.too_complex") from None
        finally:
            d20_expression.random = saved
    return result.expr, rolls


def _value_error(error: Exception) -> BadInput:
    if "divide by zero" in str(error):
        return BadInput("dice.division_by_zero")
    return BadInput("dice.bad_value", detail=str(error))


def _totals(
    expr: Any, success: tuple[str, int] | None, target: tuple[str, int] | None = None
) -> tuple[int, int | None]:
    try:
        if target is not None:
            return int(expr.roll.left.total), None
        if success is not None:
            compare = _COMPARISONS[success[0]]
            count = sum(1 for die in expr.roll.left.keptset if compare(int(die.total), success[1]))
            return count, count
        return int(expr.total), None
    except d20.RollError as error:
        raise _value_error(error) from None
    except (OverflowError, ValueError):
        raise BadInput("dice.number_too_big") from None
    except RecursionError:
        raise BadInput("dice.too_complex") from None


def _crit_type(expr: Any) -> Any:
    left = expr
    while left.children:
        left = left.children[0]
    if isinstance(left, d20_expression.Dice) and len(left.keptset) == 1 and left.size == 20:
        if left.total == 1:
            return d20.CritType.FAIL
        if left.total == 20:
            return d20.CritType.CRIT
    return d20.CritType.NONE


# ---- structured result ------------------------------------------------------------------


def _is_success(success: tuple[str, int] | None, value: int) -> bool:
    return success is not None and _COMPARISONS[success[0]](value, success[1])


def _groups(
    expr: Any, success: tuple[str, int] | None, letters: tuple[str, ...]
) -> Iterator[DiceGroup]:
    stack: list[tuple[Any, bool]] = [(expr, True)]
    letter = iter(letters)
    while stack:
        node, counted = stack.pop()
        counted = counted and bool(node.kept)
        if isinstance(node, d20_expression.Dice):
            yield _group(node, counted, success, next(letter, "d"))
        else:
            stack.extend((child, counted) for child in reversed(node.children))


def _group(node: Any, counted: bool, success: tuple[str, int] | None, letter: str) -> DiceGroup:
    percentile = node.size == "%"
    sides = 100 if percentile else int(node.size)
    dice = tuple(_die(die, sides, percentile, success) for die in node.values)
    annotation = node.annotation
    return DiceGroup(
        notation=f"{node.num}{letter}{node.size}{_ops(node.operations)}",
        count=int(node.num),
        sides=sides,
        percentile=percentile,
        operations=_ops(node.operations),
        label=annotation.strip()[1:-1].strip() if annotation else None,
        dice=dice,
        kept=counted,
    )


def _die(die: Any, sides: int, percentile: bool, success: tuple[str, int] | None) -> DieResult:
    literals = die.values
    last = literals[-1]
    natural = int(last.values[0])
    value = int(last.values[-1])
    kept = bool(die.kept)
    single = len(literals) == 1  # no reroll: the common case, kept cheap for 1000-die rolls
    return DieResult(
        value=value,
        natural=natural,
        rerolled=() if single else tuple(int(v.values[0]) for v in literals[:-1]),
        kept=kept,
        exploded=bool(last.exploded) if single else any(v.exploded for v in literals),
        crit=not percentile and natural == sides,
        fumble=not percentile and natural == 1,
        success=(kept and _is_success(success, value)) if success else None,
    )


def _ops(operations: Any) -> str:
    return "".join(str(op) for op in operations)


# ---- Markdown breakdown -----------------------------------------------------------------


def _breakdown(
    expr: Any,
    success: tuple[str, int] | None,
    total: int,
    letters: tuple[str, ...],
    target: tuple[str, int] | None = None,
) -> tuple[str, int]:
    """d20-style Markdown, showing fewer dice per group until it fits ``BREAKDOWN_LIMIT``;
    each dice term written with the die letter the user typed. A target comparison shows the
    total, then the target and ✓ or ✗."""
    suffix = f" = `{total}` ✓" if success else f" = `{total}`"
    root = expr.roll
    if target is not None:
        mark = "✓" if _meets(target, total) else "✗"
        suffix = f" = `{total}` ({_SYMBOLS[target[0]]} {target[1]}) {mark}"
        root = expr.roll.left
    budget = BREAKDOWN_LIMIT // 3  # a die takes at least 3 characters ("1, "): no more can fit
    while True:
        writer = _MarkdownWriter(success, budget, letters)
        text = writer.write(root) + suffix
        if len(text) <= BREAKDOWN_LIMIT:
            return text, writer.hidden
        if budget == 0:
            return text[: BREAKDOWN_LIMIT - len(suffix) - 1] + "…" + suffix, writer.hidden
        shown = writer.shown
        budget = min(shown - 1, int(shown * BREAKDOWN_LIMIT / len(text) * 0.9))


def _escape_markdown(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


class _MarkdownWriter:
    """Mirrors d20's MarkdownStringifier, with success marking and a budget of dice shown."""

    def __init__(
        self, success: tuple[str, int] | None, budget: int, letters: tuple[str, ...]
    ) -> None:
        self.success = success
        self.budget = budget
        self.letters = iter(letters)
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
        return f"({self.write(node.value)}){_ops(node.operations)}"

    def _binop(self, node: Any) -> str:
        return f"{self.write(node.left)} {node.op} {self.write(node.right)}"

    def _unop(self, node: Any) -> str:
        return f"{node.op}{self.write(node.value)}"

    def _dice(self, node: Any) -> str:
        values = list(node.values)
        shown = values[: max(0, self.budget)]
        self.shown += len(shown)
        self.budget -= len(shown)
        faces = [self.write(die) for die in shown]
        if len(shown) < len(values):
            self.hidden += len(values) - len(shown)
            faces.append(f"… +{len(values) - len(shown)}")
        letter = next(self.letters, "d")
        return f"{node.num}{letter}{node.size}{_ops(node.operations)} ({', '.join(faces)})"

    def _die(self, die: Any) -> str:
        if len(die.values) == 1:  # fast path: one plain roll (most dice)
            literal = die.values[0]
            if literal.kept and len(literal.values) == 1 and not literal.exploded:
                text = str(literal.values[0])
                return f"**{text}**" if self._bold(die, literal) else text
        parts = []
        for literal in die.values:
            inside = self.write(literal)
            if self._bold(die, literal):
                inside = f"**{inside}**"
            parts.append(inside)
        return ", ".join(parts)

    def _bold(self, die: Any, literal: Any) -> bool:
        if self.success is None:
            return bool(literal.number == 1 or literal.number == die.size)
        return bool(
            literal is die.values[-1] and die.kept and _is_success(self.success, literal.number)
        )

    @staticmethod
    def _literal(node: Any) -> str:
        history = " → ".join(str(v) for v in node.values)
        return f"{history}!" if node.exploded else history
