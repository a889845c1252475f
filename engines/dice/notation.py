"""General dice notation, parsed and rolled by the d20 library (never by our own parser).

API (everything else here is private):

``roll_notation(text: str, rng: Rng) -> tuple[DiceRoll, Rng]``
    Rolls ``text`` and returns the result and the advanced ``Rng`` (one counter step per
    roll). The same ``Rng`` always gives the same result. Raises :class:`BadInput` with one of
    the keys listed under *Errors*; no d20 or lark exception ever escapes.

``check_comment(comment: str, column: int) -> None``
    Refuses a comment whose first word reads like dice notation (``dice.syntax_text``).

``split_repeat(typed: str) -> tuple[str, str]``
    A repeated roll's prefix and its one set: ``("6#", "4d6kh3")``, or ``("", typed)``.

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
    ``3d6!`` (Dice Maiden's exploding dice: every maximum adds a die, ``3d6e6``),
    ``1d20+5 vs 15`` (a target to meet or beat: ``>= 15``, said as a hit or a miss with the
    margin), ``6d10 t7 f1`` (Dice Maiden: successes from 7, every 1 takes one away) and Fudge
    dice ``4dF`` (faces -1, 0, +1; rolled by d20 as ``(4d3 - 8)``); ``typed`` keeps them as
    typed. *Repeated rolls*: ``6#4d6kh3`` or ``6x4d6kh3`` rolls the expression 6 times (1 to
    ``MAX_REPEAT`` sets, ``MAX_DICE`` dice over all of them); the result has ``sets``.

Errors (``BadInput.key`` and its params):
    ``dice.empty``; ``dice.too_long`` (length, limit); ``dice.syntax`` (column, got,
    expected); ``dice.syntax_end`` (column, expected); ``dice.syntax_text`` (column, got: text
    that is no comment); ``dice.syntax_unknown``; ``dice.zero_dice``;
    ``dice.too_many_dice`` (limit); ``dice.bad_sides`` (sides, limit); ``dice.too_deep``
    (depth, limit); ``dice.bad_min_max`` (operation); ``dice.division_by_zero``;
    ``dice.bad_value`` (detail); ``dice.too_complex``; ``dice.number_too_big``;
    ``dice.advantage_needs_d20`` (word); ``dice.bad_repeat`` (count, limit: ``MAX_REPEAT``);
    ``dice.too_many_sets`` (sets, dice, total, limit); ``dice.versus_comparison`` (target);
    ``dice.count_needs_one_group``; ``dice.fudge_operations`` (operation).

Result types (frozen): :class:`DiceRoll` with :class:`DiceGroup` per dice term and
:class:`DieResult` per die (defined in :mod:`engines.dice.results`, the Markdown breakdown in
:mod:`engines.dice.breakdown`); see their docstrings for every field.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import d20
import d20.diceast as d20_ast
import d20.expression as d20_expression
import lark.exceptions

from engines.core import BadInput, Rng
from engines.dice.breakdown import (
    _breakdown,
    _groups,
)
from engines.dice.results import (
    _COMPARISONS,
    DiceGroup,
    DiceRoll,
    DieResult,
    Mode,
    Notation,
    _is_success,
    _margin,
    _meets,
    _Parsed,
)

__all__ = [
    "BREAKDOWN_LIMIT",
    "MAX_DICE",
    "MAX_INPUT_CHARS",
    "MAX_NESTING",
    "MAX_REPEAT",
    "MAX_SIDES",
    "DiceGroup",
    "DiceRoll",
    "DieResult",
    "Mode",
    "Notation",
    "check_comment",
    "check_notation",
    "roll_notation",
    "split_repeat",
]

MAX_INPUT_CHARS = 200
MAX_DICE = 1000  # d20's own per-roll cap (RollContext), rerolls and explosions included
MAX_SIDES = 1000
MAX_NESTING = 10  # parentheses/sets inside each other
MAX_REPEAT = 20  # sets of a repeated roll (6#4d6kh3)
BREAKDOWN_LIMIT = 1500  # characters of Markdown; leaves room in a 2000-char Discord message


# A "W"/"w"/"D" directly before a die size, not inside a word: 3W6, w20, (2W6), 1W%.
_DIE_LETTER = re.compile(r"(?<![^\W\d_])[wWD](?=\d|%)")
# Every die letter of an expression (d20's own "d" too), in the order d20 reads the dice, and
# the F of a Fudge die (4dF, 4WF).
# The F ends the term or an operation follows (4dFkh2 is then refused with a clear message).
_FUDGE_END = r"(?=$|[^\w%]|(?:k|p|rr|ro|ra|e|mi|ma)[hl<>]?\d)"
_ANY_DIE_LETTER = re.compile(r"(?<![^\W\d_])([dwWD])(?:(?=\d|%)|([fF])" + _FUDGE_END + ")")
# A Fudge die's F, read as d20's d3 (one character for one, so positions stay valid).
_FUDGE_DIE = re.compile(r"(?<![^\W\d_])(\d*[dwWD])[fF]" + _FUDGE_END)
# "6#4d6kh3", "6 # 4d6kh3", "6x4d6kh3": the same roll N times.
_REPEAT = re.compile(r"(?P<count>\d{1,9})(?:\s*#\s*(?=\S)|[xX×](?=\(|\d*[dwWD][\d%fF]))")
# "1d20+5 vs 15 Angriff": a target to meet or beat, then the comment.
_VERSUS = re.compile(
    r"^(?P<expression>.*?\S)\s*\bvs\.?\s*(?P<target>[-−]?\d{1,9})(?=\s|$)(?P<rest>.*)$",
    re.IGNORECASE,
)
# A word of three or more letters (not dice notation): a comment has started.
_COMMENT_WORD = re.compile(r"(?:^|\s)(?!(?:adv|dis|vorteil|nachteil)\b)[^\W\d_]{3,}", re.I)
_COMPARISON = re.compile(r"[<>=]|!=")
# Dice Maiden's success and failure counts: "6d10 t7 f1", "6d10t7".
_COUNT = re.compile(
    r"^(?P<expression>[^\s\[\]]*?[dwWD]\d+[^\s\[\]]*?)\s*[tT](?P<target>\d{1,4})"
    r"(?:\s*[fF](?P<fail>\d{1,4}))?(?=\s|$)(?P<rest>.*)$"
)
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


_ROLL_LOCK = threading.Lock()
_ROLLER = d20.Roller(d20.RollContext(max_rolls=MAX_DICE))


def split_repeat(typed: str) -> tuple[str, str]:
    """``"6#4d6kh3"`` → ``("6#", "4d6kh3")``; ``("", typed)`` for a roll that is not repeated."""
    repeat = _REPEAT.match(typed)
    return (typed[: repeat.end()], typed[repeat.end() :]) if repeat else ("", typed)


def check_notation(text: str) -> Notation:
    """Parse and validate ``text`` without rolling. Raises :class:`BadInput` (see module doc)."""
    return _parse(text).notation


def roll_notation(text: str, rng: Rng) -> tuple[DiceRoll, Rng]:
    """Roll ``text`` with dice drawn from ``rng``; returns the result and the advanced Rng.

    Raises :class:`BadInput` for anything that cannot be rolled (keys in the module doc).
    """
    parsed = _parse(text)
    stream = rng.fork()
    if parsed.one is None:
        roll = _roll_once(parsed, parsed.notation, stream, MAX_DICE, BREAKDOWN_LIMIT)
    else:
        roll = _roll_sets(parsed, parsed.one, stream)
    return roll, rng.advanced()


def _roll_sets(parsed: _Parsed, one: Notation, stream: Any) -> DiceRoll:
    """A repeated roll: every set rolled from the same stream, all of them together within
    ``MAX_DICE`` dice (rerolls and explosions included)."""
    count = parsed.notation.repeat
    line_limit = BREAKDOWN_LIMIT // count - len(f"`#{count}` ") - 1
    sets: list[DiceRoll] = []
    for _ in range(count):
        used = sum(s.rolls for s in sets)
        sets.append(_roll_once(parsed, one, stream, MAX_DICE - used, line_limit))
    if parsed.target is not None:
        total = sum(1 for s in sets if s.target_met)
    else:
        total = sum(s.total for s in sets)
    successes = sum(s.successes or 0 for s in sets) if parsed.success else None
    failures = sum(s.failures or 0 for s in sets) if parsed.failure else None
    return DiceRoll(
        notation=parsed.notation,
        total=total,
        successes=successes,
        groups=tuple(g for s in sets for g in s.groups),
        breakdown="\n".join(f"`#{i}` {s.breakdown}" for i, s in enumerate(sets, start=1)),
        hidden_dice=sum(s.hidden_dice for s in sets),
        crit=False,
        fumble=False,
        rolls=sum(s.rolls for s in sets),
        failures=failures,
        sets=tuple(sets),
    )


def _roll_once(parsed: _Parsed, notation: Notation, stream: Any, dice: int, chars: int) -> DiceRoll:
    """One roll of ``parsed.tree`` from ``stream`` with at most ``dice`` dice thrown and a
    breakdown of at most ``chars`` characters."""
    expr, rolls = _evaluate(parsed.tree, stream, dice)
    total, successes, failures = _totals(expr, parsed)
    target_met = _meets(parsed.target, total) if parsed.target else None
    margin = _margin(parsed.target, total) if parsed.target else None
    fudge = _fudge_dice(expr, parsed.fudge)
    groups = tuple(_groups(expr, parsed, fudge))
    breakdown, hidden = _breakdown(expr, parsed, (total, successes, failures), fudge, chars)
    crit_type = _crit_type(expr)
    return DiceRoll(
        notation=notation,
        total=total,
        successes=successes,
        groups=groups,
        breakdown=breakdown,
        hidden_dice=hidden,
        crit=crit_type == d20.CritType.CRIT,
        fumble=crit_type == d20.CritType.FAIL,
        rolls=rolls,
        target_met=target_met,
        failures=failures,
        margin=margin,
    )


# ---- parsing and validation -------------------------------------------------------------


def _parse(text: str) -> _Parsed:
    cleaned = " ".join(text.split())
    if not cleaned:
        raise BadInput("dice.empty")
    if len(cleaned) > MAX_INPUT_CHARS:
        raise BadInput("dice.too_long", length=len(cleaned), limit=MAX_INPUT_CHARS)
    repeat = _REPEAT.match(cleaned)
    if repeat is None:
        return _parse_cleaned(cleaned)
    return _parse_repeated(cleaned, repeat)


def _parse_repeated(cleaned: str, repeat: re.Match[str]) -> _Parsed:
    """``6#4d6kh3`` / ``6x4d6kh3``: one set parsed, rolled ``count`` times (at most
    ``MAX_REPEAT``, and ``MAX_DICE`` dice over all sets)."""
    count = int(repeat["count"])
    if not 1 <= count <= MAX_REPEAT:
        raise BadInput("dice.bad_repeat", count=count, limit=MAX_REPEAT)
    prefix = repeat.end()
    try:
        one = _parse_cleaned(cleaned[prefix:])
    except BadInput as error:
        column = error.params.get("column")
        if not isinstance(column, int):
            raise
        raise BadInput(error.key, **{**error.params, "column": column + prefix}) from None
    if one.notation.dice_count * count > MAX_DICE:
        dice = one.notation.dice_count
        raise BadInput(
            "dice.too_many_sets", sets=count, dice=dice, total=dice * count, limit=MAX_DICE
        )
    notation = dataclasses.replace(
        one.notation,
        text=cleaned,
        typed=cleaned[:prefix] + one.notation.typed,
        dice_count=one.notation.dice_count * count,
        repeat=count,
    )
    return dataclasses.replace(one, notation=notation, one=one.notation)


@functools.lru_cache(maxsize=512)
def _parse_cleaned(cleaned: str) -> _Parsed:
    shorthand = _expand_shorthands(cleaned)
    rolled = shorthand.text
    fudge_marked = _FUDGE_DIE.sub(lambda m: m[1] + "3", rolled)
    translated = _translate_die_letters(fudge_marked)
    try:
        tree = _ROLLER.parse(translated, allow_comments=True)
        comment_start = _comment_start(rolled, translated, tree.comment)
        letters, fudge = _die_terms(rolled[:comment_start], tree)
        if any(fudge):
            tree = _wrap_fudge(copy.deepcopy(tree), fudge)  # d20 caches the parsed tree
        _check_tree(tree)
        # "vs" always compares the total, also of a single group (1d20 vs 15, 8d6 vs 30)
        success = None if shorthand.versus else _success_rule(tree.roll)
        target = None if success else _target_rule(tree.roll)
        if shorthand.counted and success is None:
            raise BadInput("dice.count_needs_one_group")
        rule = success or target
        comment = rolled[comment_start:].strip() or None
        # Every shorthand keeps the comment as it is, so the typed expression ends where the
        # comment's text starts in what the user typed.
        typed = cleaned[: len(cleaned) - (len(rolled) - comment_start)].strip()
        mode: Mode = "successes" if success else "target" if target else "sum"
        failure = shorthand.failure
        notation = Notation(
            text=cleaned,
            typed=typed,
            expression=str(tree.roll),
            comment=comment,
            labels=tuple(_labels(tree)),
            mode=mode,
            success_rule=f"{rule[0]} {rule[1]}" if rule else None,
            dice_count=sum(n.num for n in _ast_nodes(tree) if isinstance(n, d20_ast.Dice)),
            failure_rule=f"{failure[0]} {failure[1]}" if failure else None,
            versus=shorthand.versus and target is not None,
        )
    except d20.RollSyntaxError as error:
        raise _syntax_error(error) from None
    except lark.exceptions.LarkError:
        raise BadInput("dice.syntax_unknown") from None
    except RecursionError:
        raise BadInput("dice.too_complex") from None
    return _Parsed(tree, notation, success, letters, target, failure, fudge)


@dataclass(frozen=True, slots=True)
class _Shorthand:
    """What :func:`_expand_shorthands` made of the input: ``text`` in d20's notation (the
    comment unchanged at its end), ``counted``: Dice Maiden's ``t7`` (must count successes),
    ``failure``: its ``f1`` as ``("<=", 1)``, ``versus``: a target given as ``vs N``."""

    text: str
    counted: bool = False
    failure: tuple[str, int] | None = None
    versus: bool = False


def _expand_shorthands(cleaned: str) -> _Shorthand:
    """``cleaned`` with the other bots' shorthands written in d20's notation:
    ``1W20+5 vorteil Angriff`` → ``2W20kh1+5 Angriff``, ``1d20+5 vs 15`` → ``1d20+5>=15``,
    ``6d10 t7 f1`` → ``6d10>=7`` (failures counted separately), ``3d6! Schaden`` →
    ``3d6e6 Schaden``. The comment is never changed.

    Raises BadInput ``dice.advantage_needs_d20`` for an advantage word without a d20 term,
    ``dice.versus_comparison`` for ``vs`` after a comparison.
    """
    expanded = cleaned
    advantage = _ADVANTAGE.match(expanded)
    if advantage is not None:
        expression, word = advantage["expression"], advantage["word"]
        keep = _ADVANTAGE_KEEP[word.lower()]
        if not _D20_TERM.search(expression):
            raise BadInput("dice.advantage_needs_d20", word=word)
        expression = _D20_TERM.sub(lambda m: f"2{m[1]}20{keep}", expression, count=1)
        expanded = expression + advantage["rest"]
    versus = _VERSUS.match(expanded)
    if versus is not None and _COMMENT_WORD.search(_ANNOTATION.sub(" ", versus["expression"])):
        versus = None  # "2W6 Angriff vs 3 Orks": a comment that mentions vs
    if versus is not None:
        target = int(versus["target"].replace("−", "-"))
        if _COMPARISON.search(_ANNOTATION.sub(" ", versus["expression"])):
            raise BadInput("dice.versus_comparison", target=target)
        expanded = f"{versus['expression']}>={target}{versus['rest']}"
    count = _COUNT.match(expanded)
    failure = None
    if count is not None:
        expanded = f"{count['expression']}>={count['target']}{count['rest']}"
        if count["fail"] is not None:
            failure = ("<=", int(count["fail"]))
    end = _typed_end(expanded)
    expanded = _EXPLODE_BANG.sub(lambda m: f"{m[1]}e{m[2]}", expanded[:end]) + expanded[end:]
    return _Shorthand(expanded, count is not None, failure, versus is not None)


def _typed_end(text: str) -> int:
    """Where a comment could start in ``text``: the first space followed by a word that does
    not read like dice notation."""
    for match in re.finditer(r"\s(?=[^\W\d_])", text):
        if not _DICE_LIKE_WORD.match(text, match.end()):
            return match.start()
    return len(text)


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


def _die_terms(typed: str, tree: Any) -> tuple[tuple[str, ...], tuple[bool, ...]]:
    """The die letter of every dice term as typed (``W``, ``w``, ``d`` or ``D``) and whether
    it is a Fudge die (``dF``), in d20's reading order; all ``d`` and no Fudge die if the
    count ever disagreed with d20's dice terms."""
    found = _ANY_DIE_LETTER.findall(_ANNOTATION.sub(" ", typed))
    terms = sum(1 for n in _ast_nodes(tree) if isinstance(n, d20_ast.Dice))
    if len(found) != terms:
        return ("d",) * terms, (False,) * terms
    return tuple(letter for letter, _ in found), tuple(bool(f) for _, f in found)


def _wrap_fudge(tree: Any, fudge: tuple[bool, ...]) -> Any:
    """``tree`` with every Fudge term (parsed as ``Nd3``) written ``(Nd3 - 2N)``, so each die
    counts -1, 0 or +1 in every total. Raises BadInput ``dice.fudge_operations`` for a Fudge
    term with operations (``4dFkh2``): its faces are not numbers to keep or explode."""
    flags = iter(fudge)
    stack: list[tuple[Any, Any]] = [(tree, None)]
    while stack:
        node, parent = stack.pop()
        if isinstance(node, d20_ast.Dice):
            if next(flags, False):
                if isinstance(parent, d20_ast.OperatedDice):
                    operation = "".join(str(op) for op in parent.operations)
                    raise BadInput("dice.fudge_operations", operation=operation)
                offset = d20_ast.Literal(2 * node.num)
                wrapped = d20_ast.Parenthetical(d20_ast.BinOp(node, "-", offset))
                parent.set_child(parent.children.index(node), wrapped)
            continue
        stack.extend((child, node) for child in reversed(node.children))
    return tree


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
    left, number = _unannotated(root.left), _whole_number(root.right)
    if not isinstance(left, d20_ast.Dice | d20_ast.OperatedDice) or number is None:
        return None
    return str(root.op), number


def _target_rule(root: Any) -> tuple[str, int] | None:
    """``(op, target)`` when the whole expression is a total compared with an integer
    (``1d20+5>=15``) and not a single dice group (that counts successes instead)."""
    if not isinstance(root, d20_ast.BinOp) or root.op not in _COMPARISONS:
        return None
    number = _whole_number(root.right)
    return None if number is None else (str(root.op), number)


def _whole_number(node: Any) -> int | None:
    """The whole number ``node`` is (``15``, ``-2`` for a target below zero), else None."""
    node = _unannotated(node)
    sign = 1
    if isinstance(node, d20_ast.UnOp) and node.op in "+-":
        sign, node = (-1 if node.op == "-" else 1), _unannotated(node.value)
    if not isinstance(node, d20_ast.Literal) or not isinstance(node.value, int):
        return None
    return sign * int(node.value)


def _labels(tree: Any) -> Iterator[str]:
    for node in _ast_nodes(tree):
        if isinstance(node, d20_ast.AnnotatedNumber):
            for annotation in node.annotations:
                yield str(annotation).strip()[1:-1].strip()


# ---- rolling ----------------------------------------------------------------------------


def _evaluate(tree: Any, stream: Any, limit: int) -> tuple[Any, int]:
    """Roll the parsed tree with d20, its module-level ``random`` swapped for ``stream`` (from
    the roll's ``Rng``), throwing at most ``limit`` dice."""
    with _ROLL_LOCK:
        saved = d20_expression.random
        d20_expression.random = stream
        _ROLLER.context.max_rolls = limit
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
            _ROLLER.context.max_rolls = MAX_DICE
    return result.expr, rolls


def _value_error(error: Exception) -> BadInput:
    if "divide by zero" in str(error):
        return BadInput("dice.division_by_zero")
    return BadInput("dice.bad_value", detail=str(error))


def _totals(expr: Any, parsed: _Parsed) -> tuple[int, int | None, int | None]:
    """``(total, successes, failures)``: in success mode the total is the successes minus the
    failures (Dice Maiden's ``f``), counted over the kept dice."""
    try:
        if parsed.target is not None:
            return int(expr.roll.left.total), None, None
        if parsed.success is not None:
            kept = [int(die.total) for die in expr.roll.left.keptset]
            count = sum(1 for value in kept if _is_success(parsed.success, value))
            if parsed.failure is None:
                return count, count, None
            failures = sum(1 for value in kept if _is_success(parsed.failure, value))
            return count - failures, count, failures
        return int(expr.total), None, None
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


def _dice_nodes(expr: Any) -> Iterator[Any]:
    """The rolled dice terms in reading order."""
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, d20_expression.Dice):
            yield node
        else:
            stack.extend(reversed(node.children))


def _fudge_dice(expr: Any, fudge: tuple[bool, ...]) -> frozenset[int]:
    """The ``id`` of every rolled dice term that is a Fudge term (rolled as d3)."""
    if not any(fudge):
        return frozenset()
    return frozenset(id(n) for n, f in zip(_dice_nodes(expr), fudge, strict=False) if f)
