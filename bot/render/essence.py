"""The Essence of the Arcane board image, drawn from the engine's view (plain data).

The board has coordinates on every side, motes as dice whose pips show the face in its
orientation (faces 2, 3 and 6 have two; ``data/essence/RULES.md``), the void, the squares of
the last step, and optionally a chosen mote with the squares it can reach. Players differ by
colour (orange / blue from the Okabe-Ito palette, safe for colour-blind eyes) *and* by shape:
A's motes are square dice, B's are round, and each carries its letter in the header.

Everything is drawn at twice the size and scaled down once, which gives smooth edges.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.render.base import (
    PALETTE,
    clean_text,
    draw_text,
    ellipsize,
    fitting_size,
    font,
    palette_png,
    wrap_text,
)

SCALE = 2
BOARD_PX = 588  # the board's side at 1x, whatever its size (7x7 or 5x5)
MARGIN = 30
HEADER = 74
FOOTER = 92
PALETTE_COLOURS = 128


@dataclass(frozen=True)
class Colours:
    background: str = PALETTE.background
    board_light: str = "#ece3cf"
    board_dark: str = "#dccdaf"
    grid: str = "#a8977a"
    label: str = PALETTE.muted
    text: str = PALETTE.text
    muted: str = PALETTE.muted
    player: tuple[str, str] = ("#e69f00", "#0072b2")  # Okabe-Ito orange and blue
    outline: tuple[str, str] = ("#7a4f00", "#00395a")
    pip: tuple[str, str] = ("#1e1f22", "#ffffff")
    last: str = "#f0e442"  # Okabe-Ito yellow
    last_edge: str = "#9c8f00"
    selected: str = "#cc79a7"  # Okabe-Ito reddish purple
    target: str = "#3a2a4a"
    void_core: str = "#0d0716"
    void_glow: str = "#7b4fbf"


COLOURS = Colours()
# Pip positions on a face, as multiples of the pip offset from the centre (x right, y up).
_C, _N, _NE, _E, _SE, _S, _SW, _W, _NW = (
    (0, 0),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
)
# Faces 2 and 3: orientation 0 points NE/SW, 1 points NW/SE. Face 6: orientation 0 has its
# side pips east and west (moves E/W), 1 north and south (RULES.md, board.FACE_DIRECTIONS).
FACE_PIPS: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {
    (1, 0): (_C,),
    (2, 0): (_NE, _SW),
    (2, 1): (_NW, _SE),
    (3, 0): (_NE, _C, _SW),
    (3, 1): (_NW, _C, _SE),
    (4, 0): (_NE, _SE, _SW, _NW),
    (5, 0): (_NE, _SE, _SW, _NW, _C),
    (6, 0): (_NE, _SE, _SW, _NW, _E, _W),
    (6, 1): (_NE, _SE, _SW, _NW, _N, _S),
}


@dataclass(frozen=True)
class BoardText:
    """The translated words the image shows (the cog fills them in the reader's language)."""

    names: tuple[str, str]
    status: str
    detail: str = ""
    variants: str = ""
    to_act: int | None = None  # the seat whose header chip is marked
    winner: int | None = None


@dataclass(frozen=True)
class Selection:
    """A click in progress: the chosen square and the squares its remaining choices reach."""

    source: str | None = None
    targets: Sequence[str] = field(default_factory=tuple)


def render_board(
    view: Mapping[str, Any], text: BoardText, selection: Selection | None = None
) -> bytes:
    """The PNG of ``view`` (``EssenceEngine.view_for``) with ``text`` around it.

    The image has few colours, so a 128-colour palette looks the same and encodes in a third
    of the time at half the size.
    """
    image = draw_board(view, text, selection)
    return palette_png(image, PALETTE_COLOURS)


def draw_board(
    view: Mapping[str, Any], text: BoardText, selection: Selection | None = None
) -> Image.Image:
    size = int(view["size"])
    board = _area(size)
    width = board.cell * size + 2 * MARGIN
    image = _background(size, str(view["files"])).copy()
    pen = _Pen(ImageDraw.Draw(image))
    _header(pen, text, width)
    _marks(pen, board, view, selection)
    _void(pen, board, str(view["void"]))
    for mote in view["cells"]:
        _mote(pen, board, mote)
    _step_numbers(pen, board, view.get("last_steps") or [])
    if selection is not None:
        _targets(pen, board, selection)
    _footer(pen, text, width, HEADER + board.cell * size + 2 * MARGIN)
    return image.reduce(SCALE)


def _area(size: int) -> _BoardArea:
    return _BoardArea(MARGIN, HEADER + MARGIN, BOARD_PX // size, size)


@lru_cache(maxsize=4)
def _background(size: int, files: str) -> Image.Image:
    """The empty board with its coordinates (the same in every image of that size)."""
    board = _area(size)
    width = BOARD_PX // size * size + 2 * MARGIN
    height = HEADER + BOARD_PX // size * size + 2 * MARGIN + FOOTER
    image = Image.new("RGB", (width * SCALE, height * SCALE), COLOURS.background)
    pen = _Pen(ImageDraw.Draw(image))
    for square in board.squares():
        pen.rect(board.box(square), _shade(square), COLOURS.grid, 1)
    _coordinates(pen, board, files)
    return image


def _shade(square: str) -> str:
    file, rank = ord(square[0]) - 97, int(square[1:]) - 1
    return COLOURS.board_light if (file + rank) % 2 else COLOURS.board_dark


class _Pen:
    """Draws in 1x coordinates on the 2x image."""

    def __init__(self, draw: ImageDraw.ImageDraw) -> None:
        self.draw = draw

    @staticmethod
    def _box(box: Sequence[float]) -> list[float]:
        return [v * SCALE for v in box]

    def rect(
        self,
        box: Sequence[float],
        fill: str | None,
        outline: str | None = None,
        width: float = 1,
        radius: float = 0,
    ) -> None:
        self.draw.rounded_rectangle(
            self._box(box), radius * SCALE, fill=fill, outline=outline, width=round(width * SCALE)
        )

    def circle(
        self,
        centre: tuple[float, float],
        radius: float,
        fill: str | None,
        outline: str | None = None,
        width: float = 1,
    ) -> None:
        x, y = centre
        self.draw.ellipse(
            self._box((x - radius, y - radius, x + radius, y + radius)),
            fill=fill,
            outline=outline,
            width=round(width * SCALE),
        )

    def text(
        self,
        at: tuple[float, float],
        value: str,
        size: int,
        fill: str,
        style: str = "regular",
        anchor: str = "mm",
        max_width: float | None = None,
    ) -> None:
        face = font(size * SCALE, style)
        if max_width is not None:
            value = ellipsize(clean_text(value), face, max_width * SCALE)
        draw_text(self.draw, (at[0] * SCALE, at[1] * SCALE), value, face, fill, anchor=anchor)


@dataclass(frozen=True)
class _BoardArea:
    left: float
    top: float
    cell: float
    size: int

    def box(self, square: str) -> tuple[float, float, float, float]:
        file, rank = ord(square[0]) - ord("a"), int(square[1:]) - 1
        x = self.left + file * self.cell
        y = self.top + (self.size - 1 - rank) * self.cell
        return x, y, x + self.cell, y + self.cell

    def centre(self, square: str) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box(square)
        return (x0 + x1) / 2, (y0 + y1) / 2

    def squares(self) -> list[str]:
        return [f"{chr(97 + f)}{r + 1}" for r in range(self.size) for f in range(self.size)]


def _marks(
    pen: _Pen, board: _BoardArea, view: Mapping[str, Any], selection: Selection | None
) -> None:
    """The squares of the last step, and the chosen mote of a click in progress."""
    for square in view.get("last") or []:
        x0, y0, x1, y1 = board.box(square)
        fill = _mix(_shade(square), COLOURS.last, 0.6)
        pen.rect((x0 + 2, y0 + 2, x1 - 2, y1 - 2), fill, COLOURS.last_edge, 3)
    if selection is not None and selection.source:
        x0, y0, x1, y1 = board.box(selection.source)
        pen.rect((x0 + 1, y0 + 1, x1 - 1, y1 - 1), None, COLOURS.selected, 5)


def _step_numbers(pen: _Pen, board: _BoardArea, steps: Sequence[Sequence[str]]) -> None:
    """Each action of the last turn numbered (1, 2 …) in the corner of the squares it
    touched, so two actions of one answer can be told apart."""
    numbers: dict[str, list[str]] = {}
    for index, squares in enumerate(steps, start=1):
        for square in squares:
            numbers.setdefault(square, []).append(str(index))
    radius = board.cell * 0.14
    for square, marks in numbers.items():
        x0, y0, _x1, _y1 = board.box(square)
        label = "·".join(marks)
        width = radius * (1 + 0.55 * (len(label) - 1))
        centre = (x0 + 3 + width, y0 + 3 + radius)
        box = (centre[0] - width, centre[1] - radius, centre[0] + width, centre[1] + radius)
        pen.rect(box, COLOURS.pip[0], COLOURS.last, 2, radius)
        pen.text(centre, label, round(radius * 1.3), COLOURS.last, "bold")


def _coordinates(pen: _Pen, board: _BoardArea, files: str) -> None:
    size = 15 if board.size == 7 else 17
    bottom = board.top + board.size * board.cell
    right = board.left + board.size * board.cell
    for index, letter in enumerate(files):
        x = board.left + (index + 0.5) * board.cell
        for y in (board.top - MARGIN / 2, bottom + MARGIN / 2):
            pen.text((x, y), letter, size, COLOURS.label, "bold")
    for rank in range(board.size):
        y = board.top + (board.size - 0.5 - rank) * board.cell
        for x in (board.left - MARGIN / 2, right + MARGIN / 2):
            pen.text((x, y), str(rank + 1), size, COLOURS.label, "bold")


def _void(pen: _Pen, board: _BoardArea, square: str) -> None:
    centre = board.centre(square)
    outer = board.cell * 0.42
    steps = 6
    for index in range(steps):
        share = index / steps
        pen.circle(
            centre,
            outer * (1 - share * 0.55),
            _mix(COLOURS.void_glow, COLOURS.void_core, 0.35 + share * 0.65),
        )
    pen.circle(centre, outer * 0.4, COLOURS.void_core)
    pen.circle(centre, outer, None, "#2a1840", 2)


def _mote(pen: _Pen, board: _BoardArea, mote: Mapping[str, Any]) -> None:
    owner = int(mote["owner"])
    centre = board.centre(str(mote["square"]))
    half = board.cell * 0.39
    box = (centre[0] - half, centre[1] - half, centre[0] + half, centre[1] + half)
    shadow = (box[0] + 2, box[1] + 3, box[2] + 2, box[3] + 3)
    if owner == 0:
        pen.rect(shadow, "#8f8570", radius=half * 0.3)
        pen.rect(box, COLOURS.player[0], COLOURS.outline[0], 2.5, radius=half * 0.3)
    else:
        pen.circle((centre[0] + 2, centre[1] + 3), half, "#8f8570")
        pen.circle(centre, half, COLOURS.player[1], COLOURS.outline[1], 2.5)
    strength = int(mote["strength"])
    orientation = int(mote.get("orientation") or 0)
    offset = half * (0.52 if owner == 0 else 0.47)
    radius = board.cell * (0.068 if board.size == 7 else 0.06)
    for dx, dy in FACE_PIPS[(strength, orientation)]:
        pen.circle((centre[0] + dx * offset, centre[1] - dy * offset), radius, COLOURS.pip[owner])


def _targets(pen: _Pen, board: _BoardArea, selection: Selection) -> None:
    for square in selection.targets:
        centre = board.centre(square)
        pen.circle(centre, board.cell * 0.14, COLOURS.selected, "#ffffff", 2)


def _header(pen: _Pen, text: BoardText, width: float) -> None:
    half = width / 2
    for seat in (0, 1):
        left = MARGIN if seat == 0 else half + 6
        right = half - 6 if seat == 0 else width - MARGIN
        box = (left, 12, right, HEADER - 8)
        active = text.to_act == seat or text.winner == seat
        pen.rect(
            box,
            "#3a3c42" if active else "#2f3136",
            COLOURS.player[seat] if active else "#45474d",
            3 if active else 1,
            radius=10,
        )
        icon = (left + 28, (12 + HEADER - 8) / 2)
        if seat == 0:
            pen.rect(
                (icon[0] - 15, icon[1] - 15, icon[0] + 15, icon[1] + 15),
                COLOURS.player[0],
                COLOURS.outline[0],
                2,
                radius=5,
            )
        else:
            pen.circle(icon, 15, COLOURS.player[1], COLOURS.outline[1], 2)
        pen.text(icon, "AB"[seat], 17, COLOURS.pip[seat], "bold")
        mark = "★ " if text.winner == seat else ("▶ " if text.to_act == seat else "")
        name, style, room = (
            mark + text.names[seat],
            "bold" if active else "regular",
            right - left - 64,
        )
        size = fitting_size(name, room, 19, 14, style, scale=SCALE)
        pen.text((left + 54, icon[1]), name, size, COLOURS.text, style, "lm", room)


def _footer(pen: _Pen, text: BoardText, width: float, top: float) -> None:
    """The status (on two lines when it is long and there is no detail), detail, variants."""
    limit = width - 2 * MARGIN
    status = wrap_text(
        text.status, font(19 * SCALE, "bold"), limit * SCALE, lines=1 if text.detail else 2
    )
    for index, line in enumerate(status):
        pen.text((MARGIN, top + 2 + 26 * index), line, 19, COLOURS.text, "bold", "lt", limit)
    pen.text((MARGIN, top + 32), text.detail, 15, COLOURS.text, "regular", "lt", limit)
    pen.text(
        (MARGIN, top + 56), text.variants, 15, COLOURS.muted, "regular", "lt", width - 2 * MARGIN
    )


def _mix(first: str, second: str, share: float) -> str:
    a = [int(first[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(second[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * share):02x}" for x, y in zip(a, b, strict=True))
