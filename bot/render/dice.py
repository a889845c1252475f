"""Dice images: every die in the shape players know (d4 triangle, d6 with pips, d8 diamond, d10
kite, d12 pentagon, d20 hexagon, d100 and others as a rounded square with the number, a Fudge
die as a square with −, + or a blank face), marked dice (a success) highlighted, failures (Dice
Maiden's ``f1``) in red, dropped dice dimmed and struck through, exploded dice with a star,
natural maxima and ones outlined, and the result written on top. A pool too large to show die by
die becomes a compact summary: how many dice, their lowest and highest face and their sum, and
how often each face came up as bars (at most 20: one per face up to a d20, else ten bands).

It draws plain view data; the message text stays the source of truth (screen readers), the image
only makes a large pool quick to take in.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from PIL import ImageDraw

from bot.render.base import PALETTE, draw_text, font, new_canvas, png_bytes, text_length

DIE = 48
GAP = 10
MARGIN = 16
PER_ROW = 10
LABEL_HEIGHT = 24
CAPTION_HEIGHT = 34
PIP_RADIUS = 5
SUMMARY_FROM = 60  # more dice than this in one image: one bar per face instead of every die
BAR_WIDTH = 26
BAR_HEIGHT = 120
BANDS = 10  # bars of a summary for dice with more than 20 sides
STATS_HEIGHT = 22
FACE = "#f2f3f5"
FACE_DROPPED = "#4e5058"
PIP = "#1e1f22"
PIP_MARKED = "#ffffff"
PIP_DROPPED = "#b5bac1"
STAR = "#f5c542"

# Pip centres on a 3x3 grid (column, row) for each W6 face.
_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
}
# Outline corners of each die shape, as (x, y) in a unit box (0..1); None: a rounded square.
_SHAPES: dict[int, tuple[tuple[float, float], ...]] = {
    4: ((0.5, 0.04), (0.97, 0.92), (0.03, 0.92)),
    8: ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5)),
    10: ((0.5, 0.0), (0.98, 0.42), (0.5, 1.0), (0.02, 0.42)),
    12: tuple(
        (
            0.5 + 0.5 * math.cos(math.radians(-90 + 72 * i)),
            0.53 + 0.5 * math.sin(math.radians(-90 + 72 * i)),
        )
        for i in range(5)
    ),
    20: tuple(
        (
            0.5 + 0.5 * math.cos(math.radians(-90 + 60 * i)),
            0.5 + 0.5 * math.sin(math.radians(-90 + 60 * i)),
        )
        for i in range(6)
    ),
}


@dataclass(frozen=True, slots=True)
class DieView:
    """One die: its face and size, and how it counts. ``marked``: a success; ``dropped``: not
    kept; ``exploded``: it added a die; ``crit`` / ``fumble``: a natural maximum / one (drawn
    for sums, where they matter); ``failed``: a failure that takes a success away; ``fudge``: a
    Fudge die, ``value`` -1, 0 or +1 drawn as −, blank or +; ``percentile``: a ``d%`` die."""

    value: int
    marked: bool = False
    dropped: bool = False
    sides: int = 6
    exploded: bool = False
    crit: bool = False
    fumble: bool = False
    failed: bool = False
    fudge: bool = False
    percentile: bool = False  # a d% die: faces 0, 10, …, 90


@dataclass(frozen=True, slots=True)
class DiceRow:
    """A group of dice with an optional caption (a part of a Komplexe Probe, a contest side)."""

    label: str
    dice: tuple[DieView, ...]


@dataclass(frozen=True, slots=True)
class DiceImage:
    """Rows of dice and ``caption``, the result written on top (``Σ 17``, ``✓ 7``)."""

    rows: tuple[DiceRow, ...]
    caption: str = ""

    @property
    def dice_count(self) -> int:
        return sum(len(row.dice) for row in self.rows)

    @property
    def summarized(self) -> bool:
        """Too many dice to draw one by one: each row becomes bars per face."""
        return self.dice_count > SUMMARY_FROM


def render_dice(image: DiceImage) -> bytes:
    """PNG of every row of dice (up to ten per line), captions above their rows, the result on
    top; a summary of bars per face for a pool of more than :data:`SUMMARY_FROM` dice."""
    rows = [_RowLayout(row, image.summarized) for row in image.rows]
    caption = math.ceil(text_length(image.caption[:60], font(24, "bold")))
    width = max([2 * MARGIN + row.width for row in rows] + [200, 2 * MARGIN + caption])
    height = 2 * MARGIN - GAP + (CAPTION_HEIGHT if image.caption else 0)
    height += sum(row.height for row in rows)
    canvas = new_canvas(width, max(height, DIE + 2 * MARGIN))
    draw = ImageDraw.Draw(canvas)
    top = MARGIN
    if image.caption:
        draw_text(draw, (MARGIN, top), image.caption[:60], font(24, "bold"), PALETTE.text)
        top += CAPTION_HEIGHT
    for row in rows:
        row.draw(draw, top)
        top += row.height
    return png_bytes(canvas)


class _RowLayout:
    """Where one row goes: its label, then its dice (or its summary bars)."""

    def __init__(self, row: DiceRow, summarized: bool) -> None:
        self.row = row
        self.summarized = summarized
        self.label_height = LABEL_HEIGHT if row.label else 0
        label = math.ceil(text_length(row.label[:60], font(16, "bold")))  # never cut off
        if summarized:
            self.faces = _face_counts(row.dice)
            self.bar = _bar_width(self.faces)
            self.stats = _stats(row.dice)
            stats_width = math.ceil(text_length(self.stats, font(14)))
            self.width = max(len(self.faces) * (self.bar + 4), stats_width, label)
            self.height = self.label_height + STATS_HEIGHT + BAR_HEIGHT + 44
        else:
            lines = max(1, -(-len(row.dice) // PER_ROW))
            self.width = max(max(1, min(len(row.dice), PER_ROW)) * (DIE + GAP) - GAP, label)
            self.height = self.label_height + lines * (DIE + GAP)

    def draw(self, draw: ImageDraw.ImageDraw, top: int) -> None:
        if self.row.label:
            draw_text(draw, (MARGIN, top), self.row.label[:60], font(16, "bold"), PALETTE.text)
            top += self.label_height
        if self.summarized:
            draw_text(draw, (MARGIN, top), self.stats, font(14), PALETTE.muted)
            _bars(draw, MARGIN, top + STATS_HEIGHT, self.faces, self.bar)
            return
        for index, die in enumerate(self.row.dice):
            line, column = divmod(index, PER_ROW)
            _die(draw, MARGIN + column * (DIE + GAP), top + line * (DIE + GAP), die)


def _colours(die: DieView) -> tuple[str, str, str]:
    """Face, ink and outline colours of ``die``."""
    if die.dropped:
        return FACE_DROPPED, PIP_DROPPED, PALETTE.muted
    if die.marked:
        return PALETTE.success, PIP_MARKED, PALETTE.highlight
    if die.failed:
        return PALETTE.failure, PIP_MARKED, PALETTE.text_dark
    if die.crit:
        return FACE, PIP, PALETTE.highlight
    if die.fumble:
        return FACE, PIP, PALETTE.failure
    return FACE, PIP, PALETTE.grid


def _die(draw: ImageDraw.ImageDraw, left: int, top: int, die: DieView) -> None:
    face, ink, outline = _colours(die)
    shape = None if die.fudge else _SHAPES.get(die.sides)
    if shape is None:
        box = (left, top, left + DIE, top + DIE)
        draw.rounded_rectangle(box, radius=8, fill=face, outline=outline, width=3)
    else:
        corners = [(left + x * DIE, top + y * DIE) for x, y in shape]
        draw.polygon(corners, fill=face, outline=outline, width=3)
    if die.fudge:
        _fudge_face(draw, left, top, die.value, ink)
    elif die.sides == 6 and die.value in _PIPS:
        _pips(draw, left, top, die.value, ink)
    else:
        _number(draw, left, top, die, ink)
    if die.dropped:
        draw.line((left + 6, top + DIE - 6, left + DIE - 6, top + 6), fill=PALETTE.failure, width=3)
    if die.exploded:
        _star(draw, left + DIE - 4, top + 4)


def _fudge_face(draw: ImageDraw.ImageDraw, left: int, top: int, value: int, ink: str) -> None:
    """A Fudge die: a bar for −, a cross for +, nothing for the blank face."""
    middle_x, middle_y, arm = left + DIE / 2, top + DIE / 2, DIE * 0.28
    if value != 0:
        draw.line((middle_x - arm, middle_y, middle_x + arm, middle_y), fill=ink, width=6)
    if value > 0:
        draw.line((middle_x, middle_y - arm, middle_x, middle_y + arm), fill=ink, width=6)


def _pips(draw: ImageDraw.ImageDraw, left: int, top: int, value: int, ink: str) -> None:
    step = DIE / 4
    for column, row in _PIPS[value]:
        x = left + step * (column + 1)
        y = top + step * (row + 1)
        draw.ellipse((x - PIP_RADIUS, y - PIP_RADIUS, x + PIP_RADIUS, y + PIP_RADIUS), fill=ink)


def _number(draw: ImageDraw.ImageDraw, left: int, top: int, die: DieView, ink: str) -> None:
    text = str(die.value)
    size = {1: 22, 2: 20, 3: 16}.get(len(text), 12)
    if die.sides in (4, 12):  # the number sits where the shape is widest
        size -= 4
    y_shift = {4: 8, 10: -2, 12: 2}.get(die.sides, 0)
    centre = (left + DIE / 2, top + DIE / 2 + y_shift)
    draw_text(draw, centre, text, font(size, "bold"), ink, anchor="mm")


def _star(draw: ImageDraw.ImageDraw, x: float, y: float, radius: float = 9) -> None:
    """A five-pointed star centred at (x, y): this die exploded."""
    points = []
    for i in range(10):
        r = radius if i % 2 == 0 else radius * 0.45
        angle = math.radians(-90 + 36 * i)
        points.append((x + r * math.cos(angle), y + r * math.sin(angle)))
    draw.polygon(points, fill=STAR, outline=PALETTE.text_dark)


@dataclass(frozen=True, slots=True)
class _Face:
    """One bar of a summary: a face (or a band of faces), how many dice showed it, and how
    many of those count (successes, or kept dice)."""

    label: str
    count: int
    marked: int


def _face_counts(dice: tuple[DieView, ...]) -> list[_Face]:
    """Bars for the faces of ``dice``: one per face up to 20 sides (−, 0, + for Fudge dice),
    else ten bands of equal width (1–100, …, 901–1000 for a d1000), so a summary stays a few
    hundred pixels wide whatever the die."""
    counts: Counter[int] = Counter()
    marked: Counter[int] = Counter()
    named: tuple[tuple[int, str], ...] = ()
    if any(die.fudge for die in dice):
        named = ((-1, "−"), (0, "0"), (1, "+"))
    elif any(die.percentile for die in dice):
        named = tuple((face, str(face)) for face in range(0, 100, 10))
    if named:
        for die in dice:
            counts[die.value] += 1
            marked[die.value] += die.marked and not die.dropped
        return [_Face(label, counts[k], marked[k]) for k, label in named]
    sides = max((die.sides for die in dice), default=6)
    band = 1 if sides <= 20 else -(-sides // BANDS)
    bands = -(-sides // band)
    for die in dice:
        key = min(max((die.value - 1) // band, 0), bands - 1)
        counts[key] += 1
        marked[key] += die.marked and not die.dropped
    if band == 1:
        return [_Face(str(k + 1), counts[k], marked[k]) for k in range(bands)]
    return [
        _Face(f"{k * band + 1}–{min((k + 1) * band, sides)}", counts[k], marked[k])
        for k in range(bands)
    ]


def _stats(dice: tuple[DieView, ...]) -> str:
    """The summary line above the bars: how many dice, the sum of those kept (not for dice
    counted as successes), lowest and highest face (symbols and numbers only: the image is the
    same in every language)."""
    values = [die.value for die in dice]
    kept = sum(die.value for die in dice if not die.dropped)
    if not values:
        return ""
    count = f"n = {len(values)}"
    if any(die.fudge for die in dice):
        return f"{count} · Σ {kept}"
    spread = f"min {min(values)} · max {max(values)}"
    if any(die.marked or die.failed for die in dice):  # counted, not summed: no Σ of faces
        return f"{count} · {spread}"
    return f"{count} · Σ {kept} · {spread}"


def _bar_width(faces: list[_Face]) -> int:
    """Wide enough for the longest face label under its bar."""
    widest = max((text_length(face.label, font(11, "bold")) for face in faces), default=0)
    return max(BAR_WIDTH, math.ceil(widest) + 4)


def _bars(
    draw: ImageDraw.ImageDraw, left: int, top: int, faces: list[_Face], bar: int = BAR_WIDTH
) -> None:
    tallest = max((face.count for face in faces), default=1) or 1
    small = font(11, "bold")
    for index, face in enumerate(faces):
        x = left + index * (bar + 4)
        height = round(BAR_HEIGHT * face.count / tallest)
        bottom = top + 16 + BAR_HEIGHT
        draw.rectangle((x, bottom - height, x + bar, bottom), fill=FACE)
        if face.marked:
            lit = round(BAR_HEIGHT * face.marked / tallest)
            draw.rectangle((x, bottom - lit, x + bar, bottom), fill=PALETTE.success)
        centre_x = x + bar / 2
        count_y = bottom - height - 8
        draw_text(draw, (centre_x, count_y), str(face.count), small, PALETTE.text, anchor="mm")
        draw_text(draw, (centre_x, bottom + 12), face.label, small, PALETTE.muted, anchor="mm")
