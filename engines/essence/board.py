"""Board geometry, the position value and its text notation (see ``data/essence/RULES.md``).

A cell holds ``0`` (empty) or a mote code ``±(strength * 2 + orientation)``: positive for
player 1 (A, seat 0), negative for player 2 (B, seat 1). The void is kept as a square index
(its cell is always 0). Squares are indexed ``rank * size + file`` with file 0 = a, rank 0 = 1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from engines.core.errors import BadInput


class Variant(StrEnum):
    """The optional rules a game is started with (rulebook: Varianten)."""

    BESTIMMT = "bestimmt"
    SCHLEIFE = "schleife"
    BESCHWOERUNG = "beschwoerung"


class Phase(StrEnum):
    """Where a turn stands: growth, the first action, the second action, or the game is over."""

    GROWTH = "g"
    FIRST = "a1"
    SECOND = "a2"
    END = "end"


class Kind(StrEnum):
    """The kind of a step (growth or one of the actions); a step's number is its index."""

    GROW = "grow"
    MOVE = "move"
    SPLIT = "split"
    HEAL = "heal"
    VOID = "void"
    DESTAB = "destab"
    SUMMON = "summon"


# the members as module names: looked up on their enum class they cost more than a global,
# and the hot paths of the rules and the AI compare by identity (``pos.phase is END``)
GROWTH, FIRST, SECOND, END = Phase
BESTIMMT, SCHLEIFE, BESCHWOERUNG = Variant
VARIANTS = tuple(Variant)
VARIANT_ALIASES = {"beschwörung": "beschwoerung", "beschworung": "beschwoerung"}

GROW, MOVE, SPLIT, HEAL, VOID, DESTAB, SUMMON = range(7)
KIND_NAMES: tuple[Kind, ...] = tuple(Kind)
ACTION_KINDS = KIND_NAMES[1:]

DIRECTION_NAMES = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
DELTAS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
_ORTHO = (0, 2, 4, 6)
_DIAG = (1, 3, 5, 7)
# Directions per face and orientation (binding reading; rulebook lines 117-125).
# Faces 2 and 3: orientation 0 = NE/SW diagonal, 1 = NW/SE. Face 6: 0 = E/W, 1 = N/S.
FACE_DIRECTIONS: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = (
    ((), ()),
    (_ORTHO, _ORTHO),
    ((1, 5), (7, 3)),
    ((*_ORTHO, 1, 5), (*_ORTHO, 7, 3)),
    (_DIAG, _DIAG),
    (tuple(range(8)), tuple(range(8))),
    ((*_DIAG, 2, 6), (*_DIAG, 0, 4)),
)
ORIENTABLE = (False, False, True, True, False, False, True)
ORIENT_OPTIONS: tuple[tuple[int, ...], ...] = tuple(
    (0, 1) if ORIENTABLE[face] else (0,) for face in range(7)
)

PHASES = tuple(Phase)
QUIET_LIMIT = 30  # turn ends in a row without a capture -> draw (see RULES.md)
TURN_LIMIT = 200  # the game is drawn when turn 200 ends (see RULES.md)


@dataclass(frozen=True, slots=True)
class Geometry:
    """Precomputed lines and neighbours for one board size and wrap setting."""

    size: int
    wrap: bool
    rays: tuple[tuple[tuple[int, ...], ...], ...]  # [square][direction] -> squares in order
    wraps_from: tuple[tuple[int, ...], ...]  # [square][direction] -> first step that wraps
    neighbours: tuple[tuple[int, ...], ...]  # the 8 surrounding squares, never wrapping


@lru_cache(maxsize=8)
def geometry(size: int, wrap: bool) -> Geometry:
    rays: list[tuple[tuple[int, ...], ...]] = []
    wraps_from: list[tuple[int, ...]] = []
    neighbours: list[tuple[int, ...]] = []
    for square in range(size * size):
        file, rank = square % size, square // size
        square_rays: list[tuple[int, ...]] = []
        square_wraps: list[int] = []
        for df, dr in DELTAS:
            ray: list[int] = []
            first_wrap = size  # never
            for step in range(1, size):
                f, r = file + df * step, rank + dr * step
                inside = 0 <= f < size and 0 <= r < size
                if not inside and not wrap:
                    break
                if not inside:
                    first_wrap = min(first_wrap, step)
                ray.append((r % size) * size + f % size)
            square_rays.append(tuple(ray))
            square_wraps.append(first_wrap)
        rays.append(tuple(square_rays))
        wraps_from.append(tuple(square_wraps))
        neighbours.append(
            tuple(
                (rank + dr) * size + file + df
                for df, dr in DELTAS
                if 0 <= file + df < size and 0 <= rank + dr < size
            )
        )
    return Geometry(size, wrap, tuple(rays), tuple(wraps_from), tuple(neighbours))


@lru_cache(maxsize=4)
def square_names(size: int) -> tuple[str, ...]:
    """The names of all squares of a board of ``size``, by index."""
    return tuple("abcdefg"[square % size] + str(square // size + 1) for square in range(size**2))


def square_name(square: int, size: int) -> str:
    return square_names(size)[square]


def square_index(name: str, size: int) -> int | None:
    """The index of ``name`` on a board of ``size``, or None when it is off the board."""
    if len(name) != 2 or name[0] not in "abcdefghijklmnopqrstuvwxyz" or not name[1].isdecimal():
        return None
    file, rank = ord(name[0]) - ord("a"), int(name[1]) - 1
    if not (0 <= file < size and 0 <= rank < size):
        return None
    return rank * size + file


def mote(owner: int, strength: int, orientation: int) -> int:
    code = strength * 2 + (orientation if ORIENTABLE[strength] else 0)
    return code if owner == 0 else -code


def owner_of(code: int) -> int:
    return 0 if code > 0 else 1


def strength_of(code: int) -> int:
    return (code if code > 0 else -code) >> 1


def orientation_of(code: int) -> int:
    return (code if code > 0 else -code) & 1


@dataclass(frozen=True, slots=True)
class Position:
    """A whole game position. ``side`` is the seat to act (in phase ``end``: the winner's seat,
    -1 for a draw). ``used`` is the first action's kind in phase ``a2`` (else None). ``quiet``
    counts turn ends since the last capture. ``last`` holds the squares of the last step (for
    the renderer)."""

    size: int
    cells: tuple[int, ...]
    void: int
    side: int
    phase: Phase
    used: Kind | None
    turn: int
    variants: tuple[Variant, ...]
    quiet: int = 0
    last: tuple[int, ...] = ()

    @property
    def key(self) -> tuple[object, ...]:
        """Identity of the position for perft (everything but ``last``)."""
        return (self.cells, self.void, self.side, self.phase, self.used, self.turn, self.quiet)


def normalize_variants(names: list[str] | tuple[str, ...]) -> tuple[Variant, ...]:
    """Canonical order of the variant names. Raises BadInput for an unknown name."""
    chosen: set[str] = set()
    for raw in names:
        name = VARIANT_ALIASES.get(raw.strip().lower(), raw.strip().lower())
        if name not in VARIANTS:
            raise BadInput("essence.error.bad_variant", variant=raw)
        chosen.add(name)
    return tuple(v for v in VARIANTS if v in chosen)


def start_position(quick: bool, variants: tuple[Variant, ...]) -> Position:
    """The setup of the binding reading (rulebook lines 35-49)."""
    size = 5 if quick else 7
    cells = [0] * (size * size)
    top = (size - 1) * size
    for owner, base in ((0, 0), (1, top)):
        west_corner_orient = 0 if owner == 0 else 1  # the corner 2s point through the centre
        cells[base] = mote(owner, 2, west_corner_orient)
        cells[base + size // 2] = mote(owner, 1, 0)
        cells[base + size - 1] = mote(owner, 2, 1 - west_corner_orient)
    centre = (size // 2) * size + size // 2
    return Position(size, tuple(cells), centre, 0, Phase.FIRST, None, 1, variants)


_TOKEN = re.compile(r"[.x]|[AB][1-6]'?")


def to_fen(pos: Position) -> str:
    """The position in the notation of RULES.md (a 7th field only when ``quiet`` > 0)."""
    size = pos.size
    rows = []
    for rank in range(size - 1, -1, -1):
        row = []
        for file in range(size):
            square = rank * size + file
            code = pos.cells[square]
            if square == pos.void:
                row.append("x")
            elif code == 0:
                row.append(".")
            else:
                row.append(
                    "AB"[owner_of(code)]
                    + str(strength_of(code))
                    + ("'" if orientation_of(code) else "")
                )
        rows.append("".join(row))
    side = pos.side + 1
    fields = [
        "/".join(rows),
        str(side),
        pos.phase,
        pos.used or "-",
        str(pos.turn),
        ",".join(pos.variants) or "-",
    ]
    if pos.quiet:
        fields.append(str(pos.quiet))
    return " ".join(fields)


def _bad(reason: str, text: str) -> BadInput:
    return BadInput("essence.error.bad_position", reason=reason, text=text)


def _parse_board(board: str, text: str) -> tuple[int, list[int], int]:
    rows = board.split("/")
    size = len(rows)
    if size not in (5, 7):
        raise _bad("size", text)
    cells = [0] * (size * size)
    voids = []
    for index, row in enumerate(rows):
        tokens = _TOKEN.findall(row)
        if "".join(tokens) != row or len(tokens) != size:
            raise _bad("rank", text)
        rank = size - 1 - index
        for file, token in enumerate(tokens):
            square = rank * size + file
            if token == "x":
                voids.append(square)
            elif token != ".":
                strength = int(token[1])
                orient = 1 if token.endswith("'") else 0
                if orient and not ORIENTABLE[strength]:
                    raise _bad("orientation", text)
                cells[square] = mote("AB".index(token[0]), strength, orient)
    if len(voids) != 1:
        raise _bad("void", text)
    return size, cells, voids[0]


def _int_field(value: str, text: str, reason: str) -> int:
    if not value.isdecimal():
        raise _bad(reason, text)
    return int(value)


def from_fen(text: str) -> Position:
    """Parse the notation. Raises BadInput (``essence.error.bad_position``) when malformed or
    inconsistent (side against turn parity, phase against used type, a side without motes)."""
    fields = text.split()
    if len(fields) not in (6, 7):
        raise _bad("fields", text)
    board, side_text, phase, used_text, turn_text, variant_text = fields[:6]
    size, cells, void = _parse_board(board, text)
    side = _int_field(side_text, text, "side") - 1
    turn = _int_field(turn_text, text, "turn")
    quiet = _int_field(fields[6], text, "quiet") if len(fields) == 7 else 0
    if phase not in PHASES:
        raise _bad("phase", text)
    if used_text != "-" and used_text not in ACTION_KINDS:
        raise _bad("used", text)
    used = None if used_text == "-" else Kind(used_text)
    try:
        variants = () if variant_text == "-" else normalize_variants(variant_text.split(","))
    except BadInput:
        raise _bad("variants", text) from None
    if turn < 1:
        raise _bad("turn", text)
    if phase == "end":
        if side not in (-1, 0, 1) or used:
            raise _bad("end", text)
    elif side != (turn - 1) % 2:
        raise _bad("side", text)
    elif (phase == "a2") != bool(used):
        raise _bad("used", text)
    elif phase == "g" and turn <= 2:
        raise _bad("growth", text)
    owners = {owner_of(c) for c in cells if c}
    if phase != "end" and owners != {0, 1}:
        raise _bad("motes", text)
    return Position(size, tuple(cells), void, side, Phase(phase), used, turn, variants, quiet)
