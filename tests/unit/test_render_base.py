"""The shared rendering helpers: fonts with German glyphs, the board grid, PNG encoding."""

from __future__ import annotations

import io

from PIL import Image

from bot.render import font, grid_board, new_canvas, png_bytes, render_async


def test_font_has_german_glyphs() -> None:
    regular = font(20)
    for glyph in "äöüÄÖÜß":
        assert regular.getbbox(glyph)[2] > 0


def test_grid_board_geometry_puts_rank_one_at_the_bottom() -> None:
    image = new_canvas(7 * 40 + 60, 7 * 40 + 60)
    geometry = grid_board(image, 7, 7, 40, 30)
    a1 = geometry.square(0, 0)
    g7 = geometry.square(6, 6)
    assert a1[1] > g7[1] and a1[0] < g7[0]
    assert image.getpixel((int(geometry.centre(0, 0)[0]), int(geometry.centre(0, 0)[1])))


async def test_png_is_real_and_rendered_off_the_loop() -> None:
    def draw() -> bytes:
        return png_bytes(new_canvas(10, 10))

    data = await render_async(draw)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert Image.open(io.BytesIO(data)).size == (10, 10)
