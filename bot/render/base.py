"""Fonts from ``assets/fonts`` (DejaVu, free licence, full German glyphs), a palette, a
coordinate grid and PNG encoding. Renderers are synchronous; ``bot.workers`` runs them away from
the event loop (``render_async``)."""

from __future__ import annotations

import io
import logging
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engines.core.content import assets_dir

log = logging.getLogger("spielleiter.render")
ASSETS = assets_dir()
FONT_FILES = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "mono": "DejaVuSansMono.ttf",
}


@dataclass(frozen=True)
class Palette:
    background: str = "#2b2d31"  # Discord dark theme
    panel: str = "#313338"
    board_light: str = "#e8dcc4"
    board_dark: str = "#d6c6a5"
    grid: str = "#8a7a5c"
    text: str = "#f2f3f5"
    text_dark: str = "#1e1f22"
    muted: str = "#b5bac1"
    player_a: str = "#d9534f"
    player_b: str = "#3b82c4"
    highlight: str = "#f5c542"
    success: str = "#3ba55d"
    failure: str = "#ed4245"
    void: str = "#14101f"


PALETTE = Palette()


@lru_cache(maxsize=64)
def font(size: int, style: str = "regular") -> ImageFont.FreeTypeFont:
    """The shipped font in ``style`` (regular, bold, mono) at ``size`` pixels."""
    return ImageFont.truetype(str(ASSETS / "fonts" / FONT_FILES[style]), size)


def new_canvas(width: int, height: int, colour: str = PALETTE.background) -> Image.Image:
    return Image.new("RGB", (width, height), colour)


# characters that must never reach a text layout: controls (``\r`` fails Pillow's raqm
# layout, ``\n`` breaks a one-line box), lone surrogates, line and paragraph separators
_BREAKING = frozenset(("Cc", "Cs", "Zl", "Zp"))
# directional overrides and isolates: a name could reorder the text drawn after it
_BIDI = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean_text(text: str) -> str:
    """``text`` safe to draw on one line: control, surrogate and separator characters become
    a space, directional overrides are dropped. Every renderer draws text through this (via
    ``draw_text``), so no name can break an image."""
    if text.isprintable():
        return text
    return "".join(
        " " if unicodedata.category(ch) in _BREAKING else ch for ch in text if ch not in _BIDI
    )


def clean_name(text: str) -> str:
    """A name (a display name, a server's card or spell name) as one tidy line: cleaned
    (``clean_text``), runs of spaces made one, no space at either end. Names are cleaned so
    where they enter (seats, uploads); renderers clean again whatever they draw."""
    return " ".join(clean_text(text).split())


def text_length(text: str, face: ImageFont.FreeTypeFont) -> float:
    """The width of ``text`` (cleaned, as ``draw_text`` draws it) in ``face``: the one way
    renderers measure text, so a name that would break the layout is measured as drawn."""
    return float(face.getlength(clean_text(text)))


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    font: ImageFont.FreeTypeFont,
    fill: str,
    anchor: str | None = None,
    **kwargs: Any,
) -> None:
    """``draw.text`` with the text cleaned (``clean_text``): the one way renderers draw text."""
    draw.text(xy, clean_text(text), font=font, fill=fill, anchor=anchor, **kwargs)


def text_center(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    text: str,
    size: int,
    fill: str,
    style: str = "regular",
) -> None:
    draw_text(draw, centre, text, font(size, style), fill, anchor="mm")


@lru_cache(maxsize=4096)
def _has_glyph(ch: str, style: str) -> bool:
    """Whether the shipped font draws ``ch`` (not its empty box: most emoji are not in it)."""
    face = font(16, style)
    missing = face.getmask("\ue000")  # a private-use point: the font's "no glyph" box
    mask = face.getmask(ch)
    return not (mask.size == missing.size and bytes(mask) == bytes(missing))


def drawable(text: str, style: str = "regular") -> str:
    """``text`` without the characters the font would draw as an empty box (an emoji in a
    name); unchanged when it has none, or when nothing else would be left."""
    kept = "".join(ch for ch in text if ch.isspace() or _has_glyph(ch, style))
    if kept == text or not kept.strip():
        return text
    return re.sub(r" {2,}", " ", kept).strip()


# ---- text layout: the one place renderers shorten, shrink and wrap text ---------------------
#
# ``ellipsize`` cuts one line, ``fitting_size`` shrinks it, ``wrap_text`` breaks a text into
# lines; ``fit_text`` (a name: as few lines as can be, each as large as can be) and ``fit_block``
# (a paragraph: the largest size at which it fits a box) put them together. Everything is
# measured with ``text_length``, as ``draw_text`` draws it.

ELLIPSIS = "…"
# a word, or the part of one up to and with a hyphen inside it ("Maximilian-" of
# "Maximilian-Alexander"): where a line may break
_WORD_PARTS = re.compile(r"\S+?-(?=\S)|\S+")


def line_step(size: int) -> int:
    """The distance between two lines of a short text (a name) at ``size`` pixels."""
    return size + max(2, size // 5)


def block_leading(size: int) -> float:
    """The distance between two lines of a paragraph (a card's rules text) at ``size``."""
    return size * 1.22


def ellipsize(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` cut with an ellipsis to ``width`` pixels in ``face`` (unchanged when it
    fits; no space left before the ellipsis): the one way renderers shorten a line."""
    if text_length(text, face) <= width:
        return text
    while text and text_length(text + ELLIPSIS, face) > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS


def fitting_size(
    text: str, width: float, largest: int, smallest: int, style: str = "regular", *, scale: int = 1
) -> int:
    """The largest size from ``largest`` down to ``smallest`` at which ``text`` is no wider
    than ``width`` (``smallest`` when none is). A renderer that draws ``scale`` times larger
    and scales down (supersampling) passes ``scale``: measured at ``size * scale``."""
    size = largest
    while size > smallest and text_length(text, font(size * scale, style)) > width * scale:
        size -= 1
    return size


def _split_word(word: str, face: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """A word wider than a line, in pieces that end with a hyphen (never a silent cut)."""
    pieces: list[str] = []
    while text_length(word, face) > width and len(word) > 1:
        cut = len(word) - 1
        while cut > 1 and text_length(word[:cut] + "-", face) > width:
            cut -= 1
        pieces.append(word[:cut] + "-")
        word = word[cut:]
    return [*pieces, word]


def _wrapped(text: str, face: ImageFont.FreeTypeFont, width: float) -> list[tuple[str, int]]:
    """The lines of ``wrap_text``, each with where it starts in ``text``."""
    lines: list[tuple[str, int]] = []
    offset = 0
    for paragraph in text.split("\n"):
        line, start, end = "", offset, offset
        for part in _WORD_PARTS.finditer(paragraph):
            word = part.group()
            at = offset + part.start()
            spaced = bool(line) and part.start() + offset > end  # a space before this word
            joined = f"{line} {word}" if spaced else line + word
            end = offset + part.end()
            if text_length(joined, face) <= width:
                line, start = joined, start if line else at
                continue
            if line:
                lines.append((line, start))
            *whole, line = _split_word(word, face, width)
            for piece in whole:
                lines.append((piece, at))
                at += len(piece) - 1  # the hyphen added is not in the text
            start = at
        lines.append((line, start))
        offset += len(paragraph) + 1
    return lines


def wrap_text(
    text: str, face: ImageFont.FreeTypeFont, width: float, *, lines: int = 0
) -> list[str]:
    """``text`` in lines no wider than ``width`` pixels in ``face``: broken at spaces and
    after a hyphen inside a word, a word wider than a line split into pieces ending with a
    hyphen, a new line at each line break of ``text``. With ``lines``, at most that many:
    the last holds the rest of the text however wide it is (for ``ellipsize``)."""
    wrapped = _wrapped(text, face, width)
    if lines and len(wrapped) > lines:
        rest = text[wrapped[lines - 1][1] :].replace("\n", " ").strip()
        return [line for line, _ in wrapped[: lines - 1]] + [rest]
    return [line for line, _ in wrapped]


def fit_text(
    text: str,
    width: float,
    size: int,
    *,
    style: str = "regular",
    min_size: int | None = None,
    lines: int = 1,
    height: float = 0,
) -> tuple[list[str], int]:
    """``text`` (cleaned, and without characters the font has no glyph for) fitted to
    ``width`` pixels: at ``size`` on one line if it fits, else shrunk step by step to
    ``min_size``, then wrapped onto as few lines as fit (up to ``lines``, each time at the
    largest size that fits), and only if even that is too long, the last line cut with an
    ellipsis. With a ``height``, wrapped lines (``line_step``
    apart) stay within it. Returns the lines and the size to draw them at."""
    text = drawable(clean_text(text), style)
    smallest = min(size, min_size or size)
    one = fitting_size(text, width, size, smallest, style)
    if text_length(text, font(one, style)) <= width:
        return [text], one
    for count in range(2, lines + 1):  # as few lines as can be, each as large as can be
        for each in range(size, smallest - 1, -1):
            if height and count * line_step(each) > height and each > smallest:
                continue
            wrapped = wrap_text(text, font(each, style), width)
            if len(wrapped) <= count:
                return wrapped, each
    face = font(smallest, style)
    kept = wrap_text(text, face, width)[:lines]
    return [*kept[:-1], ellipsize(kept[-1] + ELLIPSIS, face, width)], smallest


def fit_block(
    text: str, width: float, height: float, largest: int, smallest: int, style: str = "regular"
) -> tuple[int, list[str]]:
    """A paragraph in a box: the largest size (``largest`` … ``smallest``) at which ``text``
    wrapped to ``width`` fits ``height`` (lines ``block_leading`` apart), with its lines. At
    the smallest size a text still too long ends its last line with "…"."""
    size = max(smallest, largest)
    while True:
        face = font(size, style)
        lines = wrap_text(text, face, width)
        room = max(1, int(height // block_leading(size)))
        if len(lines) <= room:
            return size, lines
        if size <= smallest:
            kept = lines[:room]
            kept[-1] = ellipsize(kept[-1] + " " + ELLIPSIS, face, width)
            return size, kept
        size -= 1


@dataclass(frozen=True)
class BoardGeometry:
    """Where the squares of a ``files`` × ``ranks`` board lie (rank 1 at the bottom)."""

    files: int
    ranks: int
    cell: int
    margin: int

    def square(self, file: int, rank: int) -> tuple[int, int, int, int]:
        """Pixel box of the square at 0-based ``file`` (west→east), ``rank`` (south→north)."""
        left = self.margin + file * self.cell
        top = self.margin + (self.ranks - 1 - rank) * self.cell
        return left, top, left + self.cell, top + self.cell

    def centre(self, file: int, rank: int) -> tuple[float, float]:
        left, top, right, bottom = self.square(file, rank)
        return (left + right) / 2, (top + bottom) / 2


def grid_board(
    image: Image.Image,
    files: int,
    ranks: int,
    cell: int,
    margin: int,
    palette: Palette = PALETTE,
) -> BoardGeometry:
    """Draw a checkered board with coordinates (files a…, ranks 1…) and return its geometry."""
    draw = ImageDraw.Draw(image)
    geometry = BoardGeometry(files, ranks, cell, margin)
    for f in range(files):
        for r in range(ranks):
            shade = palette.board_light if (f + r) % 2 else palette.board_dark
            draw.rectangle(geometry.square(f, r), fill=shade, outline=palette.grid)
    label = max(12, cell // 4)
    for f in range(files):
        x = geometry.centre(f, 0)[0]
        for y in (margin / 2, margin + ranks * cell + margin / 2):
            text_center(draw, (x, y), chr(97 + f), label, palette.muted)
    for r in range(ranks):
        y = geometry.centre(0, r)[1]
        for x in (margin / 2, margin + files * cell + margin / 2):
            text_center(draw, (x, y), str(r + 1), label, palette.muted)
    return geometry


def png_bytes(image: Image.Image) -> bytes:
    """The image as PNG (optimised for size: Discord shows it, every byte is uploaded)."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=6)
    return buffer.getvalue()


def palette_png(image: Image.Image, colours: int) -> bytes:
    """The image as a PNG of at most ``colours`` colours: a board has few colours, so the
    palette looks the same and encodes in a third of the time at half the size."""
    palette = image.quantize(colors=colours, method=Image.Quantize.FASTOCTREE)
    buffer = io.BytesIO()
    palette.save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()


def flow(widths: Sequence[float], left: float, right: float) -> list[list[tuple[int, float]]]:
    """Items of ``widths`` laid out in rows between ``left`` and ``right``: each row the items
    (index, x) that fit, an item never cut (one too wide for any row gets a row of its own)."""
    rows: list[list[tuple[int, float]]] = [[]]
    x = left
    for index, wide in enumerate(widths):
        if rows[-1] and x + wide > right:
            rows.append([])
            x = left
        rows[-1].append((index, x))
        x += wide
    return rows
