"""A W6 character sheet as an image: a title, then boxes of label/value rows in two columns.

The cog builds the :class:`SheetView` (already translated); derived values are drawn in the
highlight colour with a ``=`` marker so that entered and computed values are told apart.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import ImageDraw

from bot.render.base import PALETTE, draw_text, font, new_canvas, png_bytes

WIDTH = 960
MARGIN = 24
COLUMN_GAP = 16
TITLE_SIZE = 34
SUBTITLE_SIZE = 18
HEADING_SIZE = 19
ROW_SIZE = 16
ROW_HEIGHT = 22
BOX_PADDING = 10
HEADER_HEIGHT = 96
MAX_ROWS = 40
MAX_TEXT = 60


@dataclass(frozen=True, slots=True)
class Row:
    label: str
    value: str
    derived: bool = False


@dataclass(frozen=True, slots=True)
class Section:
    title: str
    rows: tuple[Row, ...]


@dataclass(frozen=True, slots=True)
class SheetView:
    title: str
    subtitle: str
    sections: tuple[Section, ...]
    legend: str = ""


def _box_height(section: Section) -> int:
    rows = max(1, min(len(section.rows), MAX_ROWS))
    return BOX_PADDING * 2 + HEADING_SIZE + 8 + rows * ROW_HEIGHT


def _columns(sections: tuple[Section, ...]) -> tuple[list[Section], list[Section]]:
    """Greedy split: each section goes into the currently shorter column."""
    left: list[Section] = []
    right: list[Section] = []
    heights = [0, 0]
    for section in sections:
        column = 0 if heights[0] <= heights[1] else 1
        (left if column == 0 else right).append(section)
        heights[column] += _box_height(section) + COLUMN_GAP
    return left, right


def _clip(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def _draw_section(draw: ImageDraw.ImageDraw, section: Section, x: int, y: int, width: int) -> int:
    height = _box_height(section)
    draw.rounded_rectangle((x, y, x + width, y + height), radius=8, fill=PALETTE.panel)
    draw_text(
        draw,
        (x + BOX_PADDING, y + BOX_PADDING),
        _clip(section.title),
        font(HEADING_SIZE, "bold"),
        PALETTE.highlight,
    )
    row_y = y + BOX_PADDING + HEADING_SIZE + 8
    rows = section.rows[:MAX_ROWS] or (Row("–", ""),)
    for row in rows:
        colour = PALETTE.highlight if row.derived else PALETTE.text
        label = f"= {row.label}" if row.derived else row.label
        draw_text(draw, (x + BOX_PADDING, row_y), _clip(label), font(ROW_SIZE), PALETTE.muted)
        draw_text(
            draw,
            (x + width - BOX_PADDING, row_y),
            _clip(row.value),
            font(ROW_SIZE, "bold"),
            colour,
            anchor="ra",
        )
        row_y += ROW_HEIGHT
    return height


def render_sheet(view: SheetView) -> bytes:
    """The sheet as PNG bytes (run it through ``render_async``)."""
    left, right = _columns(view.sections)
    column_width = (WIDTH - 2 * MARGIN - COLUMN_GAP) // 2
    heights = [sum(_box_height(s) + COLUMN_GAP for s in column) for column in (left, right)]
    height = HEADER_HEIGHT + max([*heights, 0]) + MARGIN + (24 if view.legend else 0)
    image = new_canvas(WIDTH, height)
    draw = ImageDraw.Draw(image)
    draw_text(draw, (MARGIN, MARGIN), _clip(view.title), font(TITLE_SIZE, "bold"), PALETTE.text)
    draw_text(
        draw,
        (MARGIN, MARGIN + TITLE_SIZE + 10),
        _clip(view.subtitle),
        font(SUBTITLE_SIZE),
        PALETTE.muted,
    )
    for index, column in enumerate((left, right)):
        x = MARGIN + index * (column_width + COLUMN_GAP)
        y = HEADER_HEIGHT
        for section in column:
            y += _draw_section(draw, section, x, y, column_width) + COLUMN_GAP
    if view.legend:
        draw_text(draw, (MARGIN, height - MARGIN - 12), view.legend, font(14), PALETTE.highlight)
    return png_bytes(image)
