"""Saved rolls used in an expression: what ``/roll feuerball+2 auf den Ork`` rolls when
``feuerball`` was saved as ``8W6>=5``.

API:

``expand_saved(name: str, saved: str, rest: str) -> str``
    The expression to roll for ``<name><rest>``. The saved roll keeps the form the user typed
    (their ``W``), and the comment starts with the name, so the shown roll (and a re-roll of
    it) says which saved roll it was:

    - ``rest`` empty: ``saved`` as it is; without a comment of its own, the name becomes one
      (``8W6>=5 feuerball``).
    - ``rest`` a comment (a space, then a word): ``8W6>=5 feuerball auf den Ork``.
    - an operator after a roll that sums: ``(2W6+3)+2 feuerball`` (a comment follows the name).
    - an operator after a roll that counts successes: only ``+N``/``-N``, meaning N more or
      fewer dice (``feuerball+2`` → ``10W6>=5 feuerball+2``), optionally followed by a comment.
      Adding a number to a count of successes would mix dice and successes.
    - an operator after a target roll: it changes the total before the comparison
      (``angriff +2`` with ``1W20+5 vs 15`` → ``(1W20+5)+2 vs 15 angriff``), not the verdict.
    - ``vs N`` after a roll that sums: a target for this roll (``(1W20+5) vs 15 angriff``).
    - a repeated roll (``6#4W6kh3``): the operator applies to every set (``6#(4W6kh3)+2``).

    Raises :class:`BadInput`: every notation error of ``saved`` or of the result (a column in
    a message counts from the name's first character); ``dice.saved_success_modifier`` (name,
    expression) for another operator after a success roll; ``dice.zero_dice`` when ``-N``
    leaves no die; ``dice.syntax_text`` (column, got) for text glued to the name or a comment
    that starts like dice notation.
"""

from __future__ import annotations

import re

from engines.core import BadInput
from engines.dice.notation import Notation, check_comment, check_notation, split_repeat

_OPERATOR_START = re.compile(r"\s*(?:[-+*/%<>=!]|vs\.?\s*\d)", re.IGNORECASE)
# The comparison that ends a target roll as typed: ">=15", " vs 15".
# An advantage word stays behind the whole expression: (1W20+5)+2 vorteil, not (… vorteil)+2.
_ADVANTAGE_TAIL = re.compile(r"\s+(?:adv|dis|vorteil|nachteil)$", re.IGNORECASE)
_TARGET_TAIL = re.compile(r"\s*(?:\bvs\.?\s*|[<>]=?|==|!=)\s*[-−]?\d+$", re.IGNORECASE)
_COUNT_CHANGE = re.compile(r"\s*([+-])\s*(\d{1,4})(?=\s|$)(.*)", re.DOTALL)
_LEADING_COUNT = re.compile(r"(\d*)([dwWD])")


def expand_saved(name: str, saved: str, rest: str) -> str:
    """The expression rolled for ``<name><rest>``; see the module doc for the forms and errors."""
    notation = check_notation(saved)
    if not rest.strip():
        return notation.text if notation.comment else f"{notation.text} {name}"
    if _OPERATOR_START.match(rest):
        prefix, one = split_repeat(notation.typed)
        if prefix:
            return prefix + expand_saved(name, one, rest)
        if notation.mode == "successes":
            return _more_dice(name, notation, rest)
        if notation.mode == "target":
            return _with_target(name, notation, rest)
        return _with_operator(name, notation, rest)
    if not rest[0].isspace():  # glued to the name, e.g. "feuerball.": no comment
        raise BadInput("dice.syntax_text", column=len(name) + 1, got=rest.split(" ", 1)[0][:20])
    comment = " ".join(rest.split())
    check_comment(comment, len(name) + len(rest) - len(rest.lstrip()) + 1)
    return f"{notation.typed} {name} {comment}"


def _with_operator(name: str, notation: Notation, rest: str) -> str:
    base, advantage = _split_advantage(notation.typed)
    wrapped = f"({base})"
    try:
        combined = check_notation(wrapped + rest)
    except BadInput as error:
        raise _shifted(error, len(wrapped), len(name)) from None
    comment = f" {combined.comment}" if combined.comment else ""
    if advantage:
        return f"{check_notation(combined.typed + advantage).typed} {name}{comment}"
    return f"{combined.typed} {name}{comment}"


def _split_advantage(typed: str) -> tuple[str, str]:
    """A saved roll's expression and its advantage word (``" vorteil"``, or "")."""
    found = _ADVANTAGE_TAIL.search(typed)
    return (typed, "") if found is None else (typed[: found.start()], found.group(0))


def _with_target(name: str, notation: Notation, rest: str) -> str:
    """The operator changes the total, and the saved comparison follows it."""
    tail = _TARGET_TAIL.search(notation.typed)
    if tail is None:
        return _with_operator(name, notation, rest)
    base, advantage = _split_advantage(notation.typed[: tail.start()])
    wrapped = f"({base})"
    try:
        combined = check_notation(wrapped + rest)
    except BadInput as error:
        raise _shifted(error, len(wrapped), len(name)) from None
    expression = f"{combined.typed}{advantage}{tail.group(0)}"
    check_notation(expression)
    comment = f" {combined.comment}" if combined.comment else ""
    return f"{expression} {name}{comment}"


def _more_dice(name: str, notation: Notation, rest: str) -> str:
    change = _COUNT_CHANGE.fullmatch(rest)
    lead = _LEADING_COUNT.match(notation.typed)
    if change is None or lead is None:
        raise BadInput("dice.saved_success_modifier", name=name, expression=notation.typed)
    sign, number, tail = change.groups()
    count = int(lead.group(1) or 1) + (int(number) if sign == "+" else -int(number))
    if count < 1:
        raise BadInput("dice.zero_dice")
    label = f"{name}{sign}{number}"
    comment = " ".join(tail.split())
    if comment:
        check_comment(comment, len(name) + len(rest) - len(tail.lstrip()) + 1)
        label = f"{label} {comment}"
    expression = f"{count}{lead.group(2)}{notation.typed[lead.end() :]}"
    check_notation(expression)
    return f"{expression} {label}"


def _shifted(error: BadInput, wrapped: int, name: int) -> BadInput:
    """``error`` with a column behind the ``wrapped`` saved roll moved to where the user typed
    it (behind the ``name``)."""
    column = error.params.get("column")
    if not isinstance(column, int) or column <= wrapped:
        return error
    return BadInput(error.key, **{**error.params, "column": column - wrapped + name})
