"""The Essence board renderer: image size, faces in their orientation, positions that differ."""

from __future__ import annotations

import io

from PIL import Image

from bot.render.base import fitting_size, font, wrap_text
from bot.render.essence import (
    SCALE,
    BoardText,
    Selection,
    draw_board,
    render_board,
)
from engines.essence import ENGINE
from engines.essence.board import from_fen

TEXT = BoardText(("Alice", "Bob"), "Alice ist am Zug", "Noch möglich: Bewegen", "Grundregeln", 0)


def view_of(fen: str) -> dict[str, object]:
    return ENGINE.view_for(from_fen(fen), None)


def png_image(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_board_sizes_for_both_boards() -> None:
    full = png_image(render_board(ENGINE.view_for(ENGINE.initial_state({}, 0, 2), None), TEXT))
    quick_state = ENGINE.initial_state({"quick": True}, 0, 2)
    quick = png_image(render_board(ENGINE.view_for(quick_state, None), TEXT))
    assert full.size == (648, 814)
    assert quick.size == (645, 811)  # 5 x 117 px squares


def test_different_positions_give_different_images() -> None:
    start = ENGINE.initial_state({}, 0, 2)
    after, _ = ENGINE.apply(start, ENGINE.parse_action("move d1 d2"), 0)
    first = draw_board(ENGINE.view_for(start, None), TEXT)
    second = draw_board(ENGINE.view_for(after, None), TEXT)
    assert first.tobytes() != second.tobytes()


def test_orientation_turns_the_pips() -> None:
    plain = "......./......./......./...x.../......./..B2..../A2...... 1 a1 - 1 -"
    turned = "......./......./......./...x.../......./..B2..../A2'...... 1 a1 - 1 -"
    zero = draw_board(view_of(plain), TEXT)
    one = draw_board(view_of(turned), TEXT)
    assert zero.tobytes() != one.tobytes()
    # Orientation 0 of a 2 has a pip towards the north-east corner of a1, 1 towards the north-west.
    cell = 588 // 7
    left, top = 30, 74 + 30 + 6 * cell
    north_east = (left + cell // 2 + 16, top + cell // 2 - 16)
    north_west = (left + cell // 2 - 16, top + cell // 2 - 16)
    assert sum(zero.getpixel(north_east)) < 150 < sum(zero.getpixel(north_west))
    assert sum(one.getpixel(north_west)) < 150 < sum(one.getpixel(north_east))


def test_selection_marks_targets() -> None:
    view = ENGINE.view_for(ENGINE.initial_state({}, 0, 2), None)
    bare = draw_board(view, TEXT)
    marked = draw_board(view, TEXT, Selection("d1", ("d2", "c1")))
    assert bare.tobytes() != marked.tobytes()


def test_a_long_status_wraps_and_a_long_name_shrinks() -> None:
    status = "Spielleiter (normal) gewinnt – alle gegnerischen Motes sind vom Brett"
    face = font(38, "bold")
    lines = wrap_text(status, face, 1176, lines=2)
    assert len(lines) == 2 and " ".join(lines) == status
    assert all(face.getlength(line) <= 1176 for line in lines)
    assert wrap_text(status, face, 1176, lines=1) == [status]  # one line: the pen cuts it with "…"
    assert fitting_size("★ Spielleiter (normal)", 230, 19, 14, "bold", scale=SCALE) < 19
    assert fitting_size("Alice", 230, 19, 14, "bold", scale=SCALE) == 19


def test_each_action_of_the_last_turn_is_numbered() -> None:
    """Two actions of one answer (the bot's two) are told apart: numbers 1 and 2 in the
    corners of the squares each touched; the squares stay marked as before."""
    view = dict(ENGINE.view_for(ENGINE.initial_state({}, 0, 2), None))
    view["last"] = ["d1", "d2", "d4", "d5"]
    marked = draw_board(view, TEXT)
    numbered = draw_board({**view, "last_steps": [["d1", "d2"], ["d4", "d5"]]}, TEXT)
    swapped = draw_board({**view, "last_steps": [["d4", "d5"], ["d1", "d2"]]}, TEXT)
    assert marked.tobytes() != numbered.tobytes()
    assert numbered.tobytes() != swapped.tobytes()  # which action came first shows
