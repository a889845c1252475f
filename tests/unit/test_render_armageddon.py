"""The Armageddon map image: every shipped scenario and a 30x30 map render to a PNG of
sensible size, a region zooms in, overcrowding, hunger and hostile names do not break it."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from bot.render.armageddon import MAX_WIDTH, MapText, default_text, render_map
from engines.armageddon.__main__ import started
from engines.armageddon.engine import ENGINE, new_state
from engines.armageddon.scenario import scenario_names
from tests.armageddon_maps import random_scenario


def _image(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@pytest.mark.parametrize("name", scenario_names())
def test_every_scenario_renders(name: str) -> None:
    view = ENGINE.view_for(started(name), None)
    image = _image(render_map(view))
    assert image.format == "PNG" and 400 < image.width <= MAX_WIDTH


def test_a_region_is_drawn_larger_than_in_the_whole_map() -> None:
    view = ENGINE.view_for(started("belagerung"), None)
    whole = _image(render_map(view))
    zoom = _image(render_map(view, region=("d2", "g5")))
    per_field_whole = whole.width / view["size"][0]  # ten fields wide
    per_field_zoom = zoom.width / 6  # four fields and a ring of their neighbours ...
    assert per_field_zoom >= per_field_whole  # ... each at least as large


def test_a_30x30_map_fits_the_width() -> None:
    text = random_scenario(7, 2, cols=30, rows=30)
    state = new_state(text, "gross", 1, 3)
    image = _image(render_map(ENGINE.view_for(state, None)))
    assert image.width <= MAX_WIDTH and image.height > image.width / 2


def test_hostile_names_and_pending_troubles_are_drawn() -> None:
    state = started("scharmuetzel")
    state = replace(state, crowds=(("f:a2:0", 1),))
    view = ENGINE.view_for(state, None)
    text = MapText("Evil\r\nname\u202e", "Runde\x00 1", ("1: \u2066x", "2"))
    assert _image(render_map(view, text)).width > 0
    assert default_text(view).parties[0].startswith("1: rot")


def test_a_zoom_on_a_small_map_enlarges_its_fields() -> None:
    view = ENGINE.view_for(started("scharmuetzel"), None)
    whole = _image(render_map(view))
    zoom = _image(render_map(view, region=("c2", "f5")))
    per_field_whole = whole.width / view["size"][0]
    assert zoom.width / 6.5 > 1.5 * per_field_whole  # c-f and the ring b, g


@pytest.mark.parametrize("count", range(1, 8))
def test_several_figures_in_one_field_never_overlap(count: int) -> None:
    import math

    from bot.render.armageddon import _slots

    size = 54.0
    radius = size * (0.21 if count <= 4 else 0.16) * 1.15  # a large one at most
    spots = _slots(count, size)
    assert len(spots) == count
    for i, a in enumerate(spots):
        for b in spots[i + 1 :]:
            assert math.dist(a, b) >= 2 * radius * 0.95, (count, a, b)


def test_a_rider_follows_its_carrier_and_every_figure_gets_a_spot() -> None:
    from bot.render.armageddon import _ordered

    figs = [
        {"id": "pf7", "carrier": "", "hover": False},
        {"id": "k9", "carrier": "", "hover": False},
        {"id": "r8", "carrier": "pf7", "hover": False},
        {"id": "z1", "carrier": "", "hover": True},
    ]
    assert [g["id"] for g in _ordered(figs)] == ["pf7", "r8", "k9"]


def test_red_and_orange_are_distinct_colours() -> None:
    from bot.render.armageddon import PARTY

    def rgb(colour: str) -> tuple[int, ...]:
        return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))

    red, orange = rgb(PARTY["rot"]), rgb(PARTY["orange"])
    assert red[0] > 180 and red[1] < 70  # a red, not an orange
    assert sum(abs(a - b) for a, b in zip(red, orange, strict=True)) > 150


def test_the_legend_fits_a_narrow_map_and_explains_the_ring_and_terrain_colours() -> None:
    from bot.narration.armageddon import map_text
    from bot.render.armageddon import (
        MARGIN,
        MIN_WIDTH,
        TERRAIN,
        _legend_lines,
        _mark_width,
        _party_rows,
        _width,
    )

    text = "parteien: 6\nkarte:\nT W\n S T\nende\n" + "".join(
        f"figur: {p} krieger a1\n" for p in range(1, 7)
    )
    view = ENGINE.view_for(new_state(text, "schmal", 1, 7), None)
    for lang, ring, swamp in (("de", "violetter Ring", "Sumpf"), ("en", "violet ring", "Swamp")):
        words = map_text(view, ["Spielleitung", *[f"Partei Nummer {p}" for p in range(6)]],
                         lang, 3)  # fmt: skip
        image = _image(render_map(view, words))
        assert image.width == MIN_WIDTH  # two fields wide: the image keeps room for words
        lines = _legend_lines(words, image.width)
        shown = [item for line in lines for _swatch, item in line]
        assert any(ring in item for item in shown) and swamp in shown
        assert [s for line in lines for s, _i in line if s[:1] == "#"] == list(TERRAIN.values())
        for line in lines:  # every line within the image, no item cut
            used = sum(_width(item, 11) + _mark_width(s) + 12 for s, item in line) - 12
            assert MARGIN + used <= image.width - MARGIN, line
        rows = _party_rows(words, image.width)
        assert len(rows) > 1 and sum(len(r) for r in rows) == 6  # the parties wrap


def test_the_legend_explains_walls_and_gates_in_the_readers_language() -> None:
    """The map draws walls and gates (open and closed) on the edges: the legend shows a sample
    of each with its name, German or English as the rest of the map's words."""
    from bot.narration.armageddon import map_text
    from bot.render.armageddon import _legend_lines

    view = ENGINE.view_for(started("belagerung"), None)
    for lang, wall, gate in (("de", "Mauer", "Tor (zu)"), ("en", "wall", "gate (closed)")):
        words = map_text(view, ["Spielleitung", "Anna", "Bert"], lang, 3)
        marks = {words: mark for line in _legend_lines(words, 1100) for mark, words in line}
        assert marks.get(wall) == "=wall" and marks.get(gate) == "=gate", (lang, marks)
        assert "=open" in marks.values()


def test_a_zoom_shows_its_fields_whole_in_a_dimmed_ring_of_neighbours() -> None:
    """A zoom on the castle (e2-h5) draws every field asked for whole, a margin away from the
    image's edge, in a ring of their neighbours (columns d and i, rows 1 and 6) drawn dimmed,
    not bare background: the leftmost column asked for is no longer at the cut."""
    from bot.render.armageddon import MARGIN, TERRAIN, _Grid, _parse, zoom_box

    view = ENGINE.view_for(started("belagerung"), None)
    box, asked, size, width = zoom_box(view, ("e2", "h5"))
    assert asked == (4, 1, 7, 4) and box == (3, 0, 8, 5)
    image = _image(render_map(view, region=("e2", "h5"))).convert("RGB")
    assert image.width == width
    grid = _Grid(size, box[0], box[1], MARGIN, 86 + MARGIN / 2)
    for c in range(asked[0], asked[2] + 1):
        for r in range(asked[1], asked[3] + 1):  # a whole field of margin on every side
            xs = [x for x, _y in grid.corners(c, r)]
            assert min(xs) >= MARGIN + 1.5 * size and max(xs) <= width - MARGIN - 1.5 * size
    x, y = grid.centre(*_parse("d3"))
    ring = image.getpixel((round(x), round(y + 0.35 * size)))  # below figures, above labels
    lowland = tuple(int(TERRAIN["T"][i : i + 2], 16) for i in (1, 3, 5))
    background = image.getpixel((3, image.height // 2))
    assert ring != background and sum(ring) < sum(lowland) - 100, (ring, lowland)
    x, y = grid.centre(*_parse("e5"))  # the first column asked for: at full colour
    assert image.getpixel((round(x), round(y + 0.35 * size))) != ring
