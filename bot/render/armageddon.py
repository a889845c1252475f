"""The Armageddon map, drawn from the engine's view (plain data, ``ArmageddonEngine.view_for``).

Hexes carry their terrain colour, height (darker and a small number) and coordinates; rivers,
moats, bridges, walls, gates (open: a gap, closed: a bar) and lost Zugänge lie on the edges;
towers and Bergfriede show their floors, Handelszentren a coin. Figures are tokens in their
party's colour with their short name (``k3``), large figures as a bigger token, riders and
crews beside their carrier, tower floors as ``^2``; a hovering wizard is a diamond. Each
hex shows its room (``used/capacity``, red when overcrowded) and is outlined in the colour of
the side holding the majority there; the steps of the current turn are arrows.

``render_map(view, text, region=("c3", "h8"))`` draws only that rectangle of fields, larger,
for big maps: each of them whole, in a dimmed ring of their neighbours. Everything is drawn
at twice the size and reduced once. The legend names the terrain colours, shows a sample of
each edge (river, moat, bridge, wall, gates) and says what the marks mean.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.render.base import PALETTE, draw_text, flow, font, palette_png, text_length

SCALE = 2
HEADER = 86
FOOTER = 52  # the notes, then the legend
ZOOM_WIDTH = 1100  # a zoomed region is scaled up to about this width
ZOOM_SIZE = 110.0  # … with hexes at most this large
ZOOM_RING = 1  # a zoom shows this many fields around the region, dimmed, so its edge is whole
VEIL = 150  # how far those fields fade into the background (of 255)
MARGIN = 24
MAX_WIDTH = 1500  # the whole map at most this wide (zoom into a region for detail)
MIN_WIDTH = 460  # a narrow map still gets room for its header and legend
LEGEND_SIZE = 11.0
LEGEND_STEP = 15  # between two legend lines
ENCHANT = "#b266ff"  # the ring of a figure under a spell

TERRAIN = {
    "T": "#b9d98c",  # Tiefland
    "H": "#d9cf86",  # Hochland
    "B": "#a99a86",  # Bergland
    "W": "#5f9a5a",  # Wald
    "S": "#7fa59a",  # Sumpf
    "~": "#5b8fd1",  # Wasser
}
PARTY = {
    "rot": "#d62728",
    "blau": "#0072b2",
    "gruen": "#009e73",
    "gelb": "#f0e442",
    "lila": "#cc79a7",
    "orange": "#ff9f1c",
    "weiss": "#f5f5f5",
    "schwarz": "#303030",
}
DARK_TEXT = {"gelb", "weiss", "orange"}
RIVER = "#2f6fc0"
MOAT = "#1f3f6a"
BRIDGE = "#8b5a2b"
WALL = "#3c3c3c"
GATE_CLOSED = "#8b5a2b"
GATE_OPEN = "#f5f5f5"
LAST = "#ffd400"
OVER = "#e0201b"
GRID = "#5a6b4a"


LEGEND = (
    "k5² Figur auf Turmebene 2 · T2/B3 Turm/Bergfried mit Stockwerken · 0|1|2/4 Belegung je "
    "Ebene/Raum · ■ großes Gerät füllt das Feld · $ Handelszentrum · ▲ Höhe · ◆ Zauberer · "
    "◯ violetter Ring: verzaubert"
)
TERRAIN_NAMES = ("Tiefland", "Hochland", "Bergland", "Wald", "Sumpf", "Wasser")
EDGE_MARKS = ("river", "moat", "bridge", "wall", "gate", "open")  # drawn on the edges
EDGE_NAMES = ("Fluss", "Graben", "Brücke", "Mauer", "Tor (zu)", "Tor (offen)")


@dataclass(frozen=True)
class MapText:
    """The words around the map (the cog fills them in the reader's language)."""

    title: str
    status: str
    parties: tuple[str, ...] = ()  # one label per party, e.g. "1 Anna (rot) 7"
    notes: str | None = None  # the line under the map (None: German words from the view)
    legend: str = LEGEND  # what the marks mean, in the reader's language (items: " · ")
    terrain: tuple[str, ...] = TERRAIN_NAMES  # the names of T, H, B, W, S, ~ (the colours)
    edges: tuple[str, ...] = EDGE_NAMES  # the names of the EDGE_MARKS (a sample line each)


def default_text(view: Mapping[str, Any]) -> MapText:
    """German words from the view alone (the command line, the bench)."""
    phase = {"setup": "Aufbau", "move": "Bewegung", "act": "Handlung", "end": "Ende"}
    status = f"Runde {view['round']}/{view['rounds']} · {phase.get(str(view['phase']), '')}"
    if view["active"]:
        status += f" · Partei {view['active']} am Zug"
    parties = tuple(
        f"{p['seat']}: {p['colour']} ({p['score']})" for p in view["parties"] if not p["out"]
    )
    return MapText(str(view["scenario"]), status, parties)


@dataclass(frozen=True)
class _Grid:
    size: float  # circumradius of a hex at 1x
    col0: int
    row0: int
    left: float
    top: float

    def centre(self, col: int, row: int) -> tuple[float, float]:
        w = math.sqrt(3) * self.size
        x = self.left + (col - self.col0) * w + (w / 2 if row % 2 else 0) + w / 2
        y = self.top + (row - self.row0) * 1.5 * self.size + self.size
        return x, y

    def corners(self, col: int, row: int) -> list[tuple[float, float]]:
        x, y = self.centre(col, row)
        return [
            (x + self.size * math.cos(math.radians(a)), y + self.size * math.sin(math.radians(a)))
            for a in (-90, -30, 30, 90, 150, 210)
        ]


# corner indices (of ``corners``) bounding the edge in each direction
_EDGE_CORNERS = {"no": (0, 1), "o": (1, 2), "so": (2, 3), "sw": (3, 4), "w": (4, 5), "nw": (5, 0)}


def _parse(name: str) -> tuple[int, int]:
    letters = name.rstrip("0123456789")
    col = 0
    for ch in letters:
        col = col * 26 + (ord(ch) - 96)
    return col - 1, int(name[len(letters) :]) - 1


class _Pen:
    def __init__(self, image: Image.Image) -> None:
        self.draw = ImageDraw.Draw(image)
        self.fade = False  # a zoom's ring: every colour faded towards the background

    def ink(self, colour: str | None) -> str | None:
        return _faded(colour) if self.fade and colour is not None else colour

    def poly(
        self,
        points: Sequence[tuple[float, float]],
        fill: str | None,
        outline: str | None = None,
        width: float = 1,
    ) -> None:
        pts = [(x * SCALE, y * SCALE) for x, y in points]
        # Pillow draws a wide outline through a full-size mask: lines are far faster
        self.draw.polygon(pts, fill=self.ink(fill))
        if outline is not None:
            self.draw.line(
                [*pts, pts[0]], fill=self.ink(outline), width=max(1, round(width * SCALE))
            )

    def line(self, points: Sequence[tuple[float, float]], fill: str, width: float) -> None:
        pts = [(x * SCALE, y * SCALE) for x, y in points]
        self.draw.line(pts, fill=self.ink(fill), width=max(1, round(width * SCALE)), joint="curve")

    def circle(
        self,
        c: tuple[float, float],
        r: float,
        fill: str | None,
        outline: str | None = None,
        width: float = 1,
    ) -> None:
        x, y = c
        box = [(x - r) * SCALE, (y - r) * SCALE, (x + r) * SCALE, (y + r) * SCALE]
        self.draw.ellipse(
            box, fill=self.ink(fill), outline=self.ink(outline), width=max(1, round(width * SCALE))
        )

    def text(
        self,
        at: tuple[float, float],
        value: str,
        size: float,
        fill: str,
        style: str = "regular",
        anchor: str = "mm",
    ) -> None:
        draw_text(
            self.draw,
            (at[0] * SCALE, at[1] * SCALE),
            value,
            font(max(6, round(size * SCALE)), style),
            self.ink(fill) or fill,
            anchor=anchor,
        )


def render_map(
    view: Mapping[str, Any],
    text: MapText | None = None,
    region: tuple[str, str] | None = None,
) -> bytes:
    """The PNG of ``view``; ``region`` (two corner fields) zooms into a rectangle."""
    image = draw_map(view, text or default_text(view), region)
    return palette_png(image, 128)


Box = tuple[int, int, int, int]  # first column, first row, last column, last row (0-based)


def zoom_box(
    view: Mapping[str, Any], region: tuple[str, str] | None
) -> tuple[Box, Box, float, int]:
    """The fields drawn, the fields asked for, the hex size and the image width: the whole map,
    or a zoom's fields, each whole, in a ring of their neighbours (dimmed, for context)."""
    cols, rows = int(view["size"][0]), int(view["size"][1])
    box = asked = (0, 0, cols - 1, rows - 1)
    if region is not None:
        (ca, ra), (cb, rb) = _parse(region[0]), _parse(region[1])
        asked = (min(ca, cb), min(ra, rb), max(ca, cb), max(ra, rb))
        box = (
            max(0, asked[0] - ZOOM_RING),
            max(0, asked[1] - ZOOM_RING),
            min(cols - 1, asked[2] + ZOOM_RING),
            min(rows - 1, asked[3] + ZOOM_RING),
        )
    ncols = box[2] - box[0] + 1
    size = min(54.0, (MAX_WIDTH - 2 * MARGIN) / (math.sqrt(3) * (ncols + 0.5)))
    if region is not None:  # a zoom scales its fields up to a legible size
        size = min(ZOOM_SIZE, (ZOOM_WIDTH - 2 * MARGIN) / (math.sqrt(3) * (ncols + 0.5)))
    size = max(size, 14.0)
    width = max(MIN_WIDTH, round(2 * MARGIN + math.sqrt(3) * size * (ncols + 0.5)))
    return box, asked, size, width


def draw_map(
    view: Mapping[str, Any], text: MapText, region: tuple[str, str] | None = None
) -> Image.Image:
    box, asked, size, width = zoom_box(view, region)
    col0, row0, col1, row1 = box
    nrows = row1 - row0 + 1
    labels = _party_rows(text, width)
    head = HEADER + 20 * (len(labels) - 1)
    grid = _Grid(size, col0, row0, MARGIN, head + MARGIN / 2)
    legend = _legend_lines(text, width)
    foot = FOOTER + LEGEND_STEP * (len(legend) - 1)
    height = round(head + MARGIN + size * (1.5 * nrows + 0.5) + foot)
    key = tuple(
        (str(f["name"]), int(f["col"]), int(f["row"]), str(f["terrain"]), int(f["height"]),
         int(f["room"][0]["capacity"]))
        for f in view["fields"]
    )  # fmt: skip
    image = _background(key, grid, box, asked, width, height).copy()
    pen = _Pen(image)
    colours = {int(p["seat"]): str(p["colour"]) for p in view["parties"]}
    block_of = {int(p["seat"]): int(p["block"]) for p in view["parties"]}

    def inside(name: str) -> bool:
        c, r = _parse(name)
        return col0 <= c <= col1 and row0 <= r <= row1

    fields = [f for f in view["fields"] if inside(str(f["name"]))]
    for st in view.get("stellungen", []):
        if st["hunger"]:
            for name in st["fields"]:
                if inside(name):
                    pen.fade = not _within_name(name, asked)
                    pen.poly(grid.corners(*_parse(name)), None, OVER, 2)
    # a zoom's ring fades into the background (first, under the sharp border of the fields
    # asked for); what lies beyond the ring is left out (it would stick out of the image)
    edges = [
        (_touches(e, asked), e)
        for e in view["edges"]
        if (inside(str(e["a"])) and inside(str(e["b"]))) or (region is None or _touches(e, asked))
    ]
    for sharp, e in sorted(edges, key=lambda pair: pair[0]):
        pen.fade = not sharp
        _edge(pen, grid, e, inside)
    for f in fields:
        pen.fade = not _within(f, asked)
        _majority(pen, grid, f, colours, block_of)
    figures_by_field: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for fig in view["figures"]:
        if inside(str(fig["field"])):
            figures_by_field[str(fig["field"])].append(fig)
    for f in fields:
        pen.fade = not _within(f, asked)
        _contents(pen, grid, f, figures_by_field.get(str(f["name"]), []), colours)
    pen.fade = False
    for move in view.get("last", []):
        if inside(str(move["from"])) and inside(str(move["to"])):
            _arrow(pen, grid, str(move["from"]), str(move["to"]))
    _header(pen, text, labels, view)
    _footer(pen, view, height - foot, text.notes)
    _legend(pen, legend, height)
    return image.reduce(SCALE)


def _in_box(c: int, r: int, box: Box) -> bool:
    return box[0] <= c <= box[2] and box[1] <= r <= box[3]


def _within_name(name: str, box: Box) -> bool:
    return _in_box(*_parse(name), box)


def _within(f: Mapping[str, Any], box: Box) -> bool:
    return _in_box(int(f["col"]), int(f["row"]), box)


def _touches(e: Mapping[str, Any], box: Box) -> bool:
    return any(_within_name(str(e[k]), box) for k in ("a", "b"))


@lru_cache(maxsize=8)
def _background(
    fields: tuple[tuple[str, int, int, str, int, int], ...],
    grid: _Grid,
    box: Box,
    asked: Box,
    width: int,
    height: int,
) -> Image.Image:
    """The terrain of the map (the same in every image of that scenario and region; a zoom's
    ring faded)."""
    image = Image.new("RGB", (width * SCALE, height * SCALE), PALETTE.background)
    pen = _Pen(image)
    col0, row0, col1, row1 = box
    for name, c, r, terrain, height_level, capacity in fields:
        if col0 <= c <= col1 and row0 <= r <= row1:
            pen.fade = not _in_box(c, r, asked)
            _hex(pen, grid, name, c, r, terrain, height_level, capacity)
    return image


def _hex(
    pen: _Pen, grid: _Grid, name: str, c: int, r: int, terrain: str, height: int, capacity: int
) -> None:
    colour = TERRAIN.get(terrain, "#888888")
    if height:
        colour = _darker(colour, 0.12 * height)
    pen.poly(grid.corners(c, r), colour, GRID, 1)
    x, y = grid.centre(c, r)
    s = grid.size
    pen.text((x, y - 0.72 * s), name, s * 0.22, "#1e1f22")
    if height:
        pen.text((x - 0.62 * s, y - 0.3 * s), f"▲{height}", s * 0.2, "#1e1f22")
    if capacity:  # an empty field: its room, quietly
        pen.text((x, y + 0.7 * s), f"0/{capacity}", s * 0.17, "#55624a")


@lru_cache(maxsize=256)
def _faded(colour: str) -> str:
    """``colour`` faded towards the background by VEIL (of 255): a zoom's ring."""
    a, b = colour.lstrip("#"), PALETTE.background.lstrip("#")
    if len(a) != 6:
        return colour
    k = VEIL / 255
    mix = (round(int(a[i : i + 2], 16) * (1 - k) + int(b[i : i + 2], 16) * k) for i in (0, 2, 4))
    return "#" + "".join(f"{v:02x}" for v in mix)


def _darker(colour: str, amount: float) -> str:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    k = max(0.0, 1 - amount)
    return f"#{int(r * k):02x}{int(g * k):02x}{int(b * k):02x}"


def _edge_points(
    grid: _Grid, e: Mapping[str, Any]
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    token = str(e["edge"])
    name, _s, d = token.partition("/")
    c, r = _parse(name)
    i, j = _EDGE_CORNERS[d]
    corners = grid.corners(c, r)
    return corners[i], corners[j]


def _edge(pen: _Pen, grid: _Grid, e: Mapping[str, Any], inside: Any) -> None:
    pts = _edge_points(grid, e)
    if pts is not None:
        _edge_marks(pen, pts[0], pts[1], e, grid.size)


def _edge_marks(
    pen: _Pen, a: tuple[float, float], b: tuple[float, float], e: Mapping[str, Any], s: float
) -> None:
    """What lies on the edge from ``a`` to ``b`` (hexes of size ``s``); the legend's samples
    are drawn by the same hand."""
    (ax, ay), (bx, by) = a, b
    if e.get("river"):
        pen.line([(ax, ay), (bx, by)], RIVER, s * 0.2)
    if e.get("moat"):
        pen.line([(ax, ay), (bx, by)], MOAT, s * 0.16)
    if e.get("bridge"):
        mx, my = (ax + bx) / 2, (ay + by) / 2
        nx, ny = -(by - ay), bx - ax
        norm = math.hypot(nx, ny) or 1
        nx, ny = nx / norm * s * 0.3, ny / norm * s * 0.3
        pen.line([(mx - nx, my - ny), (mx + nx, my + ny)], BRIDGE, s * 0.22)
    if e.get("wall"):
        if e.get("gate"):
            t1 = (ax + (bx - ax) * 0.3, ay + (by - ay) * 0.3)
            t2 = (ax + (bx - ax) * 0.7, ay + (by - ay) * 0.7)
            pen.line([(ax, ay), t1], WALL, s * 0.16)
            pen.line([t2, (bx, by)], WALL, s * 0.16)
            pen.line(
                [t1, t2],
                GATE_OPEN if e.get("open") else GATE_CLOSED,
                s * (0.06 if e.get("open") else 0.14),
            )
        else:
            pen.line([(ax, ay), (bx, by)], WALL, s * 0.16)
    if e.get("blocked"):
        mx, my = (ax + bx) / 2, (ay + by) / 2
        d = s * 0.14
        pen.line([(mx - d, my - d), (mx + d, my + d)], OVER, s * 0.07)
        pen.line([(mx - d, my + d), (mx + d, my - d)], OVER, s * 0.07)


def _majority(
    pen: _Pen,
    grid: _Grid,
    f: Mapping[str, Any],
    colours: Mapping[int, str],
    block_of: Mapping[int, int],
) -> None:
    holders = f["room"][0]["majority"]
    if not holders:
        return
    c, r = int(f["col"]), int(f["row"])
    colour = PARTY.get(colours.get(int(holders[0]), ""), "#ffffff")
    x, y = grid.centre(c, r)
    inner = [(x + (px - x) * 0.9, y + (py - y) * 0.9) for px, py in grid.corners(c, r)]
    pen.poly(inner, None, colour, max(1.5, grid.size * 0.07))


_LARGE = {"geraet", "schiff", "fabelwesen"}
_SUPER = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")  # a tower level: k5²


def _contents(
    pen: _Pen,
    grid: _Grid,
    f: Mapping[str, Any],
    figs: list[Mapping[str, Any]],
    colours: Mapping[int, str],
) -> None:
    c, r = int(f["col"]), int(f["row"])
    x, y = grid.centre(c, r)
    s = grid.size
    if "tower" in f:
        t = f["tower"]
        side = s * 0.34
        owner = PARTY.get(colours.get(int(t["owner"]), ""), "#ffffff")
        square = [
            (x - side, y - side),
            (x + side, y - side),
            (x + side, y + side),
            (x - side, y + side),
        ]
        pen.poly(square, "#9a9183", owner, 2)
        pen.text(
            (x, y - side - s * 0.02),
            ("B" if t["bergfried"] else "T") + str(t["floors"]),
            s * 0.18,
            "#f2f3f5",
            "bold",
            "md",
        )
    if "hz" in f:
        owner = PARTY.get(colours.get(int(f["hz"]), ""), "#cccccc")
        pen.circle((x + s * 0.55, y - s * 0.32), s * 0.15, "#e8c547", owner, 2)
        pen.text((x + s * 0.55, y - s * 0.32), "$", s * 0.18, "#1e1f22", "bold")
    room = f["room"]
    ground = room[0]

    def used(lv: Mapping[str, Any]) -> str:
        return "■" if lv.get("filled") else str(lv["used"])

    occupied = any(lv["used"] or lv.get("filled") for lv in room)
    label = f"{used(ground)}/{ground['capacity']}" if ground["capacity"] and occupied else ""
    if ground.get("filled"):
        label = "■"
    if len(room) > 1 and occupied:  # a tower: each floor from the Grundfeste up
        label = "|".join(used(lv) for lv in room) + f"/{ground['capacity']}"
    over = any(lv["over"] for lv in room)
    if label:  # over the terrain's own "/capacity"
        patch = TERRAIN.get(str(f["terrain"]), "#888888")
        if int(f["height"]):
            patch = _darker(patch, 0.12 * int(f["height"]))
        half = s * 0.06 * len(label) + s * 0.08
        box = [
            (x - half, y + 0.58 * s),
            (x + half, y + 0.58 * s),
            (x + half, y + 0.82 * s),
            (x - half, y + 0.82 * s),
        ]
        pen.poly(box, patch)
        pen.text(
            (x, y + 0.7 * s),
            label,
            s * 0.19,
            OVER if over else "#1e1f22",
            "bold" if over else "regular",
        )
    order = _ordered(figs)
    hovering = [g for g in figs if g["hover"]]
    slots = _slots(len(order), s)
    radius = s * (0.21 if len(order) <= 4 else 0.16)  # several figures: each its own spot
    at_of: dict[str, tuple[float, float]] = {}
    for (dx, dy), g in zip(slots, order, strict=False):
        at_of[str(g["id"])] = (x + dx, y + dy)
    for g in order:  # a rider is tied to its carrier by a line
        here, there = at_of.get(str(g["id"])), at_of.get(str(g["carrier"]))
        if g["carrier"] and here and there:
            pen.line([here, there], "#1e1f22", max(1.0, s * 0.03))
    for g in order:
        if str(g["id"]) not in at_of:
            continue
        big = (g["cls"] in _LARGE or g["kind"] == "elefant") and not g["carrier"]
        size = radius * (1.15 if big else 0.85 if g["carrier"] else 1.0)
        _token(pen, at_of[str(g["id"])], g, colours, size, big)
    if len(order) > len(slots):
        pen.text(
            (x + s * 0.55, y + s * 0.35), f"+{len(order) - len(slots)}", s * 0.2, "#1e1f22", "bold"
        )
    for k, w in enumerate(hovering[:2]):
        _wizard(pen, (x - s * 0.55 + k * s * 0.3, y - s * 0.35), w, colours, s * 0.16)


def _ordered(figs: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The figures standing on a field, each followed by those it carries (not hovering)."""
    ids = {str(g["id"]) for g in figs}
    carried: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for g in figs:
        if g["carrier"] and str(g["carrier"]) in ids:
            carried[str(g["carrier"])].append(g)
    out: list[Mapping[str, Any]] = []

    def add(g: Mapping[str, Any]) -> None:
        out.append(g)
        for rider in carried.get(str(g["id"]), []):
            add(rider)

    for g in figs:
        if not g["hover"] and (not g["carrier"] or str(g["carrier"]) not in ids):
            add(g)
    return out


def _slots(n: int, s: float) -> list[tuple[float, float]]:
    """Spots for ``n`` figures in a hex that do not overlap (at most 7; more show as +N)."""
    if n <= 1:
        return [(0.0, 0.05 * s)]
    if n <= 4:
        d = s * 0.26
        return [(-d, -d * 0.85), (d, -d * 0.85), (-d, d * 0.95), (d, d * 0.95)][:n]
    d = s * 0.38  # a ring of six around the centre, and the centre
    ring = [
        (d * math.cos(math.radians(a)), d * 0.95 * math.sin(math.radians(a)))
        for a in (-150, -90, -30, 30, 90, 150)
    ]
    return [*ring, (0.0, 0.0)][:n]


def _short(g: Mapping[str, Any]) -> str:
    name = str(g["id"])
    return name if len(name) <= 4 else name[:4]


def _token(
    pen: _Pen,
    at: tuple[float, float],
    g: Mapping[str, Any],
    colours: Mapping[int, str],
    radius: float,
    big: bool,
) -> None:
    colour_name = colours.get(int(g["owner"]), "")
    fill = PARTY.get(colour_name, "#9e9e9e")
    ink = "#1e1f22" if colour_name in DARK_TEXT or not colour_name else "#ffffff"
    x, y = at
    if big:
        edge = "#1e1f22"
        if "control" in g and not int(g["control"]):  # a device nobody controls: white edge
            edge = "#f2f3f5"
        elif "control" in g and int(g["control"]) != int(g["owner"]):  # lent or held by others
            edge = PARTY.get(colours.get(int(g["control"]), ""), "#9e9e9e")
        pen.poly(
            [
                (x - radius, y - radius * 0.8),
                (x + radius, y - radius * 0.8),
                (x + radius, y + radius * 0.8),
                (x - radius, y + radius * 0.8),
            ],
            fill,
            edge,
            2.5,
        )
    else:
        pen.circle(at, radius, fill, "#1e1f22", 1)
    if g.get("enchant"):
        pen.circle(at, radius * 1.18, None, ENCHANT, 1.5)
    label = _short(g) + (str(g["level"]).translate(_SUPER) if g["level"] else "")
    pen.text(at, label, radius * (0.8 if len(label) <= 3 else 0.62), ink, "bold")
    if g.get("facing"):
        dirs = {"o": 0, "no": -60, "nw": -120, "w": 180, "sw": 120, "so": 60}
        a = math.radians(dirs.get(str(g["facing"]), 0))
        tip = (x + radius * 1.6 * math.cos(a), y + radius * 1.6 * math.sin(a))
        wing = radius * 0.45
        left = (
            x + radius * math.cos(a) - wing * math.sin(a),
            y + radius * math.sin(a) + wing * math.cos(a),
        )
        right = (
            x + radius * math.cos(a) + wing * math.sin(a),
            y + radius * math.sin(a) - wing * math.cos(a),
        )
        pen.poly([tip, left, right], "#1e1f22", "#f2f3f5", 1)  # the facing: a clear arrowhead


def _wizard(
    pen: _Pen, at: tuple[float, float], g: Mapping[str, Any], colours: Mapping[int, str], r: float
) -> None:
    x, y = at
    fill = PARTY.get(colours.get(int(g["owner"]), ""), "#9e9e9e")
    pen.poly([(x, y - r * 1.3), (x + r, y), (x, y + r * 1.3), (x - r, y)], fill, "#f2f3f5", 1.5)
    pen.text(
        (x, y),
        "Z",
        r * 0.9,
        "#1e1f22" if colours.get(int(g["owner"])) in DARK_TEXT else "#ffffff",
        "bold",
    )


def _arrow(pen: _Pen, grid: _Grid, a: str, b: str) -> None:
    (ca, ra), (cb, rb) = _parse(a), _parse(b)
    (x1, y1), (x2, y2) = grid.centre(ca, ra), grid.centre(cb, rb)
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy) or 1
    ux, uy = dx / length, dy / length
    start = (x1 + ux * grid.size * 0.25, y1 + uy * grid.size * 0.25)
    end = (x2 - ux * grid.size * 0.3, y2 - uy * grid.size * 0.3)
    pen.line([start, end], LAST, max(2.0, grid.size * 0.08))
    head = grid.size * 0.2
    left = (end[0] - ux * head - uy * head * 0.6, end[1] - uy * head + ux * head * 0.6)
    right = (end[0] - ux * head + uy * head * 0.6, end[1] - uy * head - ux * head * 0.6)
    pen.poly([end, left, right], LAST, LAST, 1)


def _width(value: str, size: float, style: str = "regular") -> float:
    """How wide ``value`` is drawn at ``size`` (1x pixels)."""
    return text_length(value, font(max(6, round(size * SCALE)), style)) / SCALE


def _party_rows(text: MapText, width: int) -> list[list[tuple[int, float]]]:
    """The party labels (index, x) in rows that fit the width: a narrow map wraps them."""
    widths = [20 + _width(label, 14, "bold") + 24 for label in text.parties]
    return flow(widths, MARGIN, width - MARGIN)


def _header(
    pen: _Pen, text: MapText, rows: list[list[tuple[int, float]]], view: Mapping[str, Any]
) -> None:
    pen.text((MARGIN, 20), text.title, 20, PALETTE.text, "bold", "lm")
    pen.text((MARGIN, 44), text.status, 15, PALETTE.muted, "regular", "lm")
    shown = [p for p in view["parties"] if not p["out"]]
    for r, row in enumerate(rows):
        y = 68 + 20 * r
        for i, x in row:
            if i >= len(shown):
                continue
            party, label = shown[i], text.parties[i]
            colour = PARTY.get(str(party["colour"]), "#9e9e9e")
            active = int(party["seat"]) == int(view["active"])
            pen.circle((x + 8, y), 7, colour, "#f2f3f5" if active else None, 2)
            pen.text((x + 20, y), label, 14, PALETTE.text, "bold" if active else "regular", "lm")


def _footer(pen: _Pen, view: Mapping[str, Any], top: int, notes: str | None = None) -> None:
    line = top + 14
    if notes is not None:  # the reader's words (the cog)
        if notes:
            pen.text((MARGIN, line), notes, 14, OVER, "bold", "lm")
        return
    crowds = view.get("crowds") or []
    hungry = [st.get("title") or st["name"] for st in view.get("stellungen", []) if st["hunger"]]
    parts = []
    if crowds:
        parts.append("Überbesetzt: " + ", ".join(str(c["place"]) for c in crowds))
    if hungry:
        parts.append("Hunger: " + ", ".join(hungry))
    if view.get("pending"):
        parts.append(f"Erklärung wartet: {view['pending']['target']}")
    if parts:
        pen.text((MARGIN, line), " · ".join(parts), 14, OVER, "bold", "lm")


_SAMPLE = 22.0  # the length of an edge's sample line in the legend
_SAMPLE_EDGE = {  # the edge each legend sample stands for
    "river": {"river": True},
    "moat": {"moat": True},
    "bridge": {"river": True, "bridge": True},
    "wall": {"wall": True},
    "gate": {"wall": True, "gate": True},
    "open": {"wall": True, "gate": True, "open": True},
}


def _mark_width(mark: str) -> float:
    """The room a legend item's mark takes before its words: a terrain swatch ('#…'), an
    edge's sample line ('=wall'), or nothing."""
    return 14.0 if mark.startswith("#") else _SAMPLE + 5 if mark.startswith("=") else 0.0


def _legend_lines(text: MapText, width: int) -> list[list[tuple[str, str]]]:
    """The legend in lines that fit the width: first the terrain colours (a swatch each), then
    what lies on the edges (a sample line each: rivers, walls, gates), then what the marks
    mean; an item is never cut. Each entry: (swatch colour, '=' edge mark or '', words)."""
    items: list[tuple[str, str]] = list(zip(TERRAIN.values(), text.terrain, strict=False))
    items += [("=" + mark, name) for mark, name in zip(EDGE_MARKS, text.edges, strict=False)]
    items += [("", item.strip()) for item in text.legend.split(" · ") if item.strip()]
    lines: list[list[tuple[str, str]]] = [[]]
    x = float(MARGIN)
    for mark, words in items:
        wide = _width(words, LEGEND_SIZE) + _mark_width(mark) + 12
        group = mark[:1]
        if lines[-1] and (x + wide > width - MARGIN or group != lines[-1][-1][0][:1]):
            lines.append([])
            x = float(MARGIN)
        lines[-1].append((mark, words))
        x += wide
    return lines


def _legend(pen: _Pen, lines: list[list[tuple[str, str]]], height: int) -> None:
    """What the colours and marks mean, small and quiet at the foot."""
    top = height - 12 - LEGEND_STEP * (len(lines) - 1)
    for n, line in enumerate(lines):
        y, x = top + LEGEND_STEP * n, float(MARGIN)
        for mark, words in line:
            if mark.startswith("#"):
                pen.poly([(x, y - 5), (x + 10, y - 5), (x + 10, y + 5), (x, y + 5)], mark, GRID)
            elif mark.startswith("="):  # on a patch of lowland, as on the map
                patch = [(x, y - 6), (x + _SAMPLE, y - 6), (x + _SAMPLE, y + 6), (x, y + 6)]
                pen.poly(patch, TERRAIN["T"])
                _edge_marks(pen, (x, y), (x + _SAMPLE, y), _SAMPLE_EDGE[mark[1:]], 24.0)
            x += _mark_width(mark)
            pen.text((x, y), words, LEGEND_SIZE, PALETTE.muted, "regular", "lm")
            x += _width(words, LEGEND_SIZE) + 12
