"""Rendering helpers shared by every board and sheet image (one module for fonts, colours,
grids and PNG encoding). Renderers draw a ``view`` (plain data), never engine internals."""

from bot.render.base import (
    ASSETS,
    Palette,
    clean_name,
    clean_text,
    draw_text,
    font,
    grid_board,
    new_canvas,
    png_bytes,
    text_center,
    text_length,
)

__all__ = [
    "ASSETS",
    "Palette",
    "clean_name",
    "clean_text",
    "draw_text",
    "font",
    "grid_board",
    "new_canvas",
    "png_bytes",
    "text_center",
    "text_length",
]
