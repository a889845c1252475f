"""The W6 dice image: rows of dice with pips, marked dice (a W6 success, a 5 or 6) highlighted,
dropped dice dimmed. It draws plain view data; the message text stays the source of truth
(screen readers), the image only makes a large pool quick to take in.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.base import PALETTE, font, new_canvas, png_bytes

DIE = 48
GAP = 10
MARGIN = 16
PER_ROW = 10
LABEL_HEIGHT = 24
PIP_RADIUS = 5
FACE = "#f2f3f5"
FACE_DROPPED = "#4e5058"
PIP = "#1e1f22"
PIP_MARKED = "#ffffff"
PIP_DROPPED = "#b5bac1"

# Pip centres on a 3x3 grid (column, row) for each W6 face.
_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
}


@dataclass(frozen=True, slots=True)
class DieView:
    """One die: its face, whether it counts as marked (a success) and whether it was dropped."""

    value: int
    marked: bool = False
    dropped: bool = False


@dataclass(frozen=True, slots=True)
class DiceRow:
    """A group of dice with an optional caption (a part of a Komplexe Probe, a contest side)."""

    label: str
    dice: tuple[DieView, ...]


@dataclass(frozen=True, slots=True)
class DiceImage:
    rows: tuple[DiceRow, ...]

    @property
    def dice_count(self) -> int:
        return sum(len(row.dice) for row in self.rows)


def _lines(row: DiceRow) -> int:
    return max(1, -(-len(row.dice) // PER_ROW))


def _size(image: DiceImage) -> tuple[int, int]:
    widest = max((min(len(row.dice), PER_ROW) for row in image.rows), default=1)
    width = 2 * MARGIN + max(1, widest) * (DIE + GAP) - GAP
    height = 2 * MARGIN - GAP
    for row in image.rows:
        height += (LABEL_HEIGHT if row.label else 0) + _lines(row) * (DIE + GAP)
    return max(width, 160), max(height, DIE + 2 * MARGIN)


@lru_cache(maxsize=256)
def _tile(die: DieView) -> Image.Image:
    """One die drawn once on the background (a pool of 1000 dice pastes a dozen tiles
    instead of drawing 1000 dice: same pixels, a tenth of the time holding the GIL)."""
    tile = new_canvas(DIE + 1, DIE + 1)
    _die(ImageDraw.Draw(tile), 0, 0, die)
    return tile


def _die(draw: ImageDraw.ImageDraw, left: int, top: int, die: DieView) -> None:
    if die.dropped:
        face, pip, outline = FACE_DROPPED, PIP_DROPPED, PALETTE.muted
    elif die.marked:
        face, pip, outline = PALETTE.success, PIP_MARKED, PALETTE.highlight
    else:
        face, pip, outline = FACE, PIP, PALETTE.grid
    box = (left, top, left + DIE, top + DIE)
    draw.rounded_rectangle(box, radius=8, fill=face, outline=outline, width=3)
    pips = _PIPS.get(die.value)
    if pips is None:  # not a W6 face: write the number
        centre = (left + DIE / 2, top + DIE / 2)
        draw.text(centre, str(die.value), font=font(20, "bold"), fill=pip, anchor="mm")
        return
    step = DIE / 4
    for column, row in pips:
        x = left + step * (column + 1)
        y = top + step * (row + 1)
        r = PIP_RADIUS
        draw.ellipse((x - r, y - r, x + r, y + r), fill=pip)
    if die.dropped:
        draw.line((left + 6, top + DIE - 6, left + DIE - 6, top + 6), fill=PALETTE.failure, width=3)


def render_dice(image: DiceImage) -> bytes:
    """PNG of every row of dice (up to ten per line), captions above their rows."""
    width, height = _size(image)
    canvas = new_canvas(width, height)
    draw = ImageDraw.Draw(canvas)
    top = MARGIN
    for row in image.rows:
        if row.label:
            draw.text((MARGIN, top), row.label[:60], font=font(16, "bold"), fill=PALETTE.text)
            top += LABEL_HEIGHT
        for index, die in enumerate(row.dice):
            line, column = divmod(index, PER_ROW)
            canvas.paste(_tile(die), (MARGIN + column * (DIE + GAP), top + line * (DIE + GAP)))
        top += _lines(row) * (DIE + GAP)
    return png_bytes(canvas)
