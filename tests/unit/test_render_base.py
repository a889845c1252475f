"""The shared rendering helpers: fonts with German glyphs, the board grid, PNG encoding."""

from __future__ import annotations

import io

from PIL import Image

from bot.render import font, grid_board, new_canvas, png_bytes
from bot.workers import render_async


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


BREAKING = ["Tho\rin", "Tho\nin", "Th\x00oin", "Tho\u2028in", "Tho\ud800in", "\u202eniohT"]


def test_clean_text_keeps_names_on_one_drawable_line() -> None:
    from bot.render import clean_text

    assert [clean_text(name) for name in BREAKING] == [
        "Tho in",
        "Tho in",
        "Th oin",
        "Tho in",
        "Tho in",
        "niohT",
    ]
    assert clean_text("Zwerg 🧔\u200d♂️ Äß") == "Zwerg 🧔\u200d♂️ Äß"


def test_no_name_breaks_a_sheet_or_dice_image() -> None:
    from bot.render.dice import DiceImage, DiceRow, DieView, render_dice
    from bot.render.sheet import Row, Section, SheetView, render_sheet

    for name in BREAKING:
        section = Section(name, (Row(name, name),))
        sheet = render_sheet(SheetView(title=name, subtitle=name, sections=(section,), legend=name))
        dice = render_dice(DiceImage((DiceRow(name, (DieView(3),)),)))
        for png in (sheet, dice):
            Image.open(io.BytesIO(png)).verify()


def test_every_renderer_draws_text_through_the_cleaning_helper() -> None:
    from pathlib import Path

    import bot.render

    folder = Path(bot.render.__file__).parent
    for path in sorted(folder.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        calls = source.count("draw.text(")
        if path.name == "base.py":
            assert calls == 1, "base.draw_text is the one place that calls draw.text"
        else:
            assert calls == 0, f"{path.name} draws text without draw_text"


def test_every_renderer_measures_text_as_it_draws_it() -> None:
    """Measuring a name before cleaning it failed Pillow's layout (``\\r``, U+001C, U+0085,
    U+2029…): every width goes through ``text_length``, which cleans first (issue 18)."""
    from pathlib import Path

    import bot.render
    from bot.render.base import fit_text, text_length

    folder = Path(bot.render.__file__).parent
    for path in sorted(folder.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        raw = sum(source.count(f".{call}(") for call in ("getlength", "getbbox", "textlength"))
        raw += sum(source.count(f".{call}(") for call in ("textbbox", "multiline_text"))
        assert raw == (1 if path.name == "base.py" else 0), f"{path.name} measures raw text"
    name = "Ev\r\nil\x1c\x1d\x1e\x85\u2029Name"
    assert text_length(name, font(16)) == font(16).getlength("Ev  il     Name")
    lines, _size = fit_text(name, 40, 16, lines=2)
    assert all(line.isprintable() for line in lines)


def test_distinct_names_cleans_every_seat_name() -> None:
    from bot.play.table import distinct_names

    assert distinct_names(["Ev\r\nil\u2029", "Ev il", "\x1c"]) == ["Ev il 1", "Ev il 2", "?"]


def test_fit_text_shrinks_then_wraps_and_cuts_only_as_a_last_resort() -> None:
    from bot.render.base import fit_text, line_step

    name = "Eleonora von Sternenfall"
    wide = font(17, "bold").getlength(name)
    assert fit_text(name, wide + 1, 17, style="bold") == ([name], 17)
    shrunk, size = fit_text(name, wide * 0.85, 17, style="bold", min_size=12)
    assert shrunk == [name] and 12 <= size < 17
    rows, size = fit_text(name, wide * 0.6, 17, style="bold", min_size=12, lines=2)
    assert rows == ["Eleonora von", "Sternenfall"]
    assert all(font(size, "bold").getlength(row) <= wide * 0.6 for row in rows)
    hyphen, _ = fit_text("Maximilian-Alexander", 110, 14, style="bold", min_size=11, lines=2)
    assert hyphen == ["Maximilian-", "Alexander"]
    cut, size = fit_text("W" * 32, 120, 14, style="bold", min_size=11, lines=2)
    assert len(cut) == 2 and cut[-1].endswith("…") and size == 11
    assert all(font(11, "bold").getlength(row) <= 120 for row in cut)
    tall, size = fit_text("Eleonora von Sternenfall die Weise", 150, 17, min_size=10, lines=3,
                          height=40)  # fmt: skip
    assert len(tall) * line_step(size) <= 40 and "…" not in "".join(tall)


def test_one_ellipsis_one_shrink_one_wrap_for_every_renderer() -> None:
    """The text layout every renderer uses (issue 20): a line cut with an ellipsis and no
    space before it, the largest size that fits (also for a supersampling renderer), lines
    broken at spaces and after a word's own hyphen (a hyphen before a space keeps its space),
    a new line at a line break, and at most ``lines`` lines with the rest on the last."""
    from pathlib import Path

    import bot.render
    from bot.render.base import ellipsize, fitting_size, text_length, wrap_text

    face = font(15)
    assert ellipsize("Alrik", face, 200) == "Alrik"
    room = text_length("Eleonora von …", face) + 0.5
    cut = ellipsize("Eleonora von Sternenfall", face, room)
    assert cut == "Eleonora von…" and text_length(cut, face) <= room
    wide = text_length("Alice", font(19 * 2, "bold"))
    assert fitting_size("Alice", wide / 2, 19, 14, "bold", scale=2) == 19
    assert fitting_size("Alice", wide / 2 - 1, 19, 14, "bold", scale=2) < 19
    assert fitting_size("Alice", 1, 19, 14) == 14  # nothing fits: the smallest
    one_line = text_length("Nord- und Südwind", face) + 1
    assert wrap_text("Nord- und Südwind", face, one_line) == ["Nord- und Südwind"]
    narrow = text_length("Maximilian-", face) + 1
    assert wrap_text("Maximilian-Alexander", face, narrow) == ["Maximilian-", "Alexander"]
    assert wrap_text("eins\n\nzwei", face, 200) == ["eins", "", "zwei"]
    status = "Alice gewinnt, alle Motes von Bob sind vom Brett"
    two = wrap_text(status, face, text_length("Alice gewinnt,", face) + 1, lines=2)
    assert two == ["Alice gewinnt,", "alle Motes von Bob sind vom Brett"]
    assert wrap_text(status, face, 10, lines=1) == [status]
    # no renderer keeps a wrap, shrink or ellipsis loop of its own
    folder = Path(bot.render.__file__).parent
    for path in sorted(folder.glob("*.py")):
        if path.name != "base.py":
            source = path.read_text(encoding="utf-8")
            assert "textwrap" not in source and '+ "…", ' not in source, path.name


def test_fit_text_leaves_out_what_the_font_cannot_draw() -> None:
    from bot.render.base import drawable, fit_text

    assert fit_text("✨ Luna ✨", 400, 17, style="bold") == (["Luna"], 17)
    assert drawable("Zwerg Äß ★ ◆") == "Zwerg Äß ★ ◆"  # German letters and marks stay
    assert drawable("✨✨") == "✨✨"  # nothing else to draw: left as it is


def test_flow_lays_items_in_rows_that_fit_and_never_cuts_one() -> None:
    from bot.render.base import flow

    assert flow([40, 40, 40], 10, 100) == [[(0, 10), (1, 50)], [(2, 10)]]
    assert flow([200, 30], 10, 100) == [[(0, 10)], [(1, 10)]]  # too wide: a row of its own
    assert flow([], 10, 100) == [[]]
