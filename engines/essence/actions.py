"""Actions as small values and their text notation (what players type in Discord).

One frozen dataclass per kind of step (``Grow``, ``Move``, ... ``Summon``); its ``kind`` (a
class attribute, not a field) is the :class:`~engines.essence.board.Kind` it plays, and the
engine dispatches on the class, never on strings.

Notation (case and extra spaces do not matter; ``/1`` or ``'`` after a square sets that
mote's orientation to 1 after the step, the default is 0):

==============================  ================================================
``grow d1`` ``grow d1/1``         growth: +1 to the mote on d1
``move a1 c3/1`` ``a1-c3``        move (a bare ``a1 c3`` is a move too); with
``move a1 g1 w``                  Schleife a trailing direction picks the way round
``split d1 e2/1`` ``split d3/1 e2``  split d1, new mote on e2 (suffix on each square)
``heal d1 e1 2``                  heal: d1 gives 2, e1 gains 3
``void d5``                       shift the void to d5
``destab d1 2``                   destabilize from d1 with amount 2
``summon g1``                     Beschwörung: remove the 6 on g1, the void goes there
==============================  ================================================

German verbs are accepted too (``wachse``, ``bewege``, ``teile``, ``heile``, ``leere``,
``destabilisiere``, ``beschwoere``) and the directions ``no``/``o``/``so`` for ne/e/se.
``heal`` and ``destab`` default to amount 1 when the number is left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from engines.core.errors import BadInput
from engines.essence.board import DIRECTION_NAMES, Kind


@dataclass(frozen=True, slots=True)
class Grow:
    kind: ClassVar[Kind] = Kind.GROW
    square: str
    orient: int = 0


@dataclass(frozen=True, slots=True)
class Move:
    """``via`` is "" for the usual way (see RULES.md) or a direction name ("w", "ne" ...)."""

    kind: ClassVar[Kind] = Kind.MOVE
    source: str
    target: str
    orient: int = 0
    via: str = ""


@dataclass(frozen=True, slots=True)
class Split:
    kind: ClassVar[Kind] = Kind.SPLIT
    source: str
    target: str
    source_orient: int = 0
    new_orient: int = 0


@dataclass(frozen=True, slots=True)
class Heal:
    kind: ClassVar[Kind] = Kind.HEAL
    source: str
    target: str
    amount: int
    source_orient: int = 0
    target_orient: int = 0


@dataclass(frozen=True, slots=True)
class VoidShift:
    kind: ClassVar[Kind] = Kind.VOID
    target: str


@dataclass(frozen=True, slots=True)
class Destab:
    kind: ClassVar[Kind] = Kind.DESTAB
    source: str
    amount: int
    orient: int = 0


@dataclass(frozen=True, slots=True)
class Summon:
    kind: ClassVar[Kind] = Kind.SUMMON
    source: str


Action = Grow | Move | Split | Heal | VoidShift | Destab | Summon

_VERBS: dict[str, Kind] = {
    "grow": Kind.GROW, "wachse": Kind.GROW, "wachsen": Kind.GROW, "wachstum": Kind.GROW,
    "move": Kind.MOVE, "bewege": Kind.MOVE, "bewegen": Kind.MOVE, "zug": Kind.MOVE,
    "split": Kind.SPLIT, "teile": Kind.SPLIT, "teilen": Kind.SPLIT, "spalte": Kind.SPLIT,
    "heal": Kind.HEAL, "heile": Kind.HEAL, "heilen": Kind.HEAL,
    "void": Kind.VOID, "leere": Kind.VOID,
    "destab": Kind.DESTAB, "destabilize": Kind.DESTAB, "destabilise": Kind.DESTAB,
    "destabilisiere": Kind.DESTAB, "destabilisieren": Kind.DESTAB,
    "summon": Kind.SUMMON, "beschwoere": Kind.SUMMON, "beschwöre": Kind.SUMMON,
    "beschwoerung": Kind.SUMMON, "beschwörung": Kind.SUMMON,
}  # fmt: skip
_GERMAN_DIRECTIONS = {"no": "ne", "o": "e", "so": "se"}
_SQUARE = re.compile(r"^([a-z])([1-9])(?:/([01])|('))?$")


@dataclass(frozen=True, slots=True)
class _Square:
    name: str
    orient: int
    marked: bool  # an orientation suffix was written


def _words(text: str) -> list[str]:
    cleaned = re.sub(r"\s*/\s*", "/", text.strip().lower())
    cleaned = re.sub(r"([a-z][1-9](?:/[01]|')?)\s*-\s*(?=[a-z][1-9])", r"\1 ", cleaned)
    return [w for w in re.split(r"[\s,;]+", cleaned) if w]


def _bad(text: str) -> BadInput:
    return BadInput("essence.error.bad_notation", text=text)


def parse(text: str) -> Action:
    """Read one action. Raises BadInput (``essence.error.bad_notation``) if unreadable."""
    words = _words(text)
    if not words:
        raise _bad(text)
    verb = _VERBS.get(words[0])
    args = words[1:] if verb else words
    squares: list[_Square] = []
    numbers: list[int] = []
    directions: list[str] = []
    for word in args:
        match = _SQUARE.match(word)
        if match:
            orient = 1 if match.group(4) else int(match.group(3) or 0)
            marked = bool(match.group(3) or match.group(4))
            squares.append(_Square(match.group(1) + match.group(2), orient, marked))
        elif word.isdecimal() and len(word) <= 2:
            numbers.append(int(word))
        elif word in DIRECTION_NAMES or word in _GERMAN_DIRECTIONS:
            directions.append(_GERMAN_DIRECTIONS.get(word, word))
        else:
            raise _bad(text)
    action = _build(verb or Kind.MOVE, squares, numbers, directions)
    if action is None:
        raise _bad(text)
    return action


def _build(
    verb: Kind, squares: list[_Square], numbers: list[int], directions: list[str]
) -> Action | None:
    if directions and verb is not Kind.MOVE:
        return None
    shape = (len(squares), len(numbers))
    if verb is Kind.GROW and shape == (1, 0):
        return Grow(squares[0].name, squares[0].orient)
    if verb is Kind.MOVE and shape == (2, 0) and len(directions) <= 1 and not squares[0].marked:
        return Move(squares[0].name, squares[1].name, squares[1].orient, "".join(directions))
    if verb is Kind.SPLIT and shape == (2, 0):
        return Split(squares[0].name, squares[1].name, squares[0].orient, squares[1].orient)
    if verb is Kind.HEAL and len(squares) == 2 and len(numbers) <= 1:
        amount = numbers[0] if numbers else 1
        return Heal(squares[0].name, squares[1].name, amount, squares[0].orient,
                    squares[1].orient)  # fmt: skip
    if verb is Kind.DESTAB and len(squares) == 1 and len(numbers) <= 1:
        return Destab(squares[0].name, numbers[0] if numbers else 1, squares[0].orient)
    if verb in (Kind.VOID, Kind.SUMMON) and shape == (1, 0) and not squares[0].marked:
        return VoidShift(squares[0].name) if verb is Kind.VOID else Summon(squares[0].name)
    return None


def _sq(name: str, orient: int) -> str:
    return f"{name}/1" if orient else name


def text(action: Action) -> str:
    """The canonical notation; ``parse(text(a)) == a``."""
    if isinstance(action, Grow):
        return f"grow {_sq(action.square, action.orient)}"
    if isinstance(action, Move):
        via = f" {action.via}" if action.via else ""
        return f"move {action.source} {_sq(action.target, action.orient)}{via}"
    if isinstance(action, Split):
        return f"split {_sq(action.source, action.source_orient)} " + _sq(
            action.target, action.new_orient
        )
    if isinstance(action, Heal):
        source = _sq(action.source, action.source_orient)
        return f"heal {source} {_sq(action.target, action.target_orient)} {action.amount}"
    if isinstance(action, VoidShift):
        return f"void {action.target}"
    if isinstance(action, Destab):
        return f"destab {_sq(action.source, action.orient)} {action.amount}"
    return f"summon {action.source}"
