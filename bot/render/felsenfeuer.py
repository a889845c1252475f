"""The Felsenfeuer board image, drawn from ``FelsenfeuerEngine.view_for`` (plain data only).

Top: the phase, the spell-phase counter, who holds the wizard stone and the initiative. Then
one band per seat (up to six): essences as large dice with their pips and the essence points,
the hand (a second hand beside it), the bag and a cauldron, the stone. In the Würfeldraft the
middle: the dice of each colour still there to take. Then one panel per
matrix: the Duellplatz marked, each owner's glyph row (glyphs stand at the edge; runes that are
no glyph lie a little forward, paler), frozen glyphs turned on a corner (as the rulebook turns
them), temples as a rune on its shrines, floating runes over the matrix's middle (a wave under
each, in its owner's colour), the markers and cauldrons lying there. The Spruchrune has a gold
ring. Last: the spell being resolved and the sentence about to run, the open decision, the
spheres in force and the legend of the marks.

Dice are coloured dice with pips: grün, grau, rot, schwarz, violett. The image's size is
bounded: at most ``MAX_MATRICES`` matrix panels (the rest summed up in one line), every row of
a seat holds at most its eight dice.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.render.base import (
    PALETTE,
    draw_text,
    fit_text,
    flow,
    font,
    line_step,
    palette_png,
    text_length,
    wrap_text,
)
from bot.render.felsenfeuer_text import middle

WIDTH = 1000
MARGIN = 16
HEADER = 58
SEAT_ROW = 62
MATRIX_TITLE = 26
MATRIX_ROW = 44
MAX_MATRICES = 4
POINTS_X = 272.0  # a seat's essence points; the stone left of them, the name before it
NAME_RIGHT = POINTS_X - 70
ROW_X = 204.0  # where a matrix's glyph rows begin
ROW_NAME_RIGHT = ROW_X - 10  # a glyph row's owner is named before its row
PALETTE_COLOURS = 128
LEGEND_STEP = 26  # between two lines of the legend
MIDDLE_ROW = 48  # the Würfeldraft's middle, under the seats

DIE = {  # fill, pip, edge
    "gruen": ("#3f9b4f", "#ffffff", "#1f5a2a"),
    "grau": ("#a3a8ae", "#1e1f22", "#5c6166"),
    "rot": ("#d64541", "#ffffff", "#7a1e1b"),
    "schwarz": ("#1b1b1f", "#ffffff", "#8a8d93"),
    "violett": ("#8a55c9", "#ffffff", "#4a2576"),
}
SEAT_COLOURS = ("#e69f00", "#56b4e9", "#009e73", "#f0e442", "#cc79a7", "#d55e00")
GOLD = "#f5c542"
ICE = "#9fe3ff"
PANEL = "#383a40"
DUELLPLATZ = "#4a4330"
EDGE = "#24221c"  # the edge of a matrix, where glyphs lie
GOLD_DIM = "#8c7a3c"
_PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def _tr(key: str, lang: str, **params: Any) -> str:
    return t(f"felsenfeuer.render.{key}", lang, **params)


def seat_name(seat: int, names: Sequence[str] | None) -> str:
    """A seat's whole name (each place fits it to its room: ``_text``, ``_name_block``)."""
    if names and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return f"P{seat + 1}"


def draw_die(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    size: float,
    colour: str,
    pips: int | None,
    *,
    frozen: bool = False,
    pale: bool = False,
    ring: str | None = None,
) -> None:
    """A die of ``colour`` with ``pips`` (None: no face, in a hand or bag). A frozen die is
    turned on a corner; a pale one lies forward (a rune that is no glyph)."""
    fill, pip, edge = DIE.get(colour, ("#777777", "#ffffff", "#333333"))
    x, y = centre
    h = size / 2
    if ring:
        r = h + 4 if not frozen else h * 1.42 + 4
        draw.ellipse((x - r, y - r, x + r, y + r), outline=ring, width=3)
    if frozen:
        d = h * 1.3
        points = [(x, y - d), (x + d, y), (x, y + d), (x - d, y)]
        draw.polygon(points, fill=fill, outline=ICE)
        draw.line([*points, points[0]], fill=ICE, width=2)
    else:
        draw.rounded_rectangle(
            (x - h, y - h, x + h, y + h), radius=size * 0.18, fill=fill, outline=edge, width=2
        )
        if pale:
            draw.rounded_rectangle(
                (x - h + 3, y - h + 3, x + h - 3, y + h - 3), radius=size * 0.12,
                outline=PALETTE.background, width=2,
            )  # fmt: skip
    if pips:
        step = size * 0.26
        dot = max(2.0, size * 0.09)
        for dx, dy in _PIPS.get(int(pips), []):
            px, py = x + dx * step, y + dy * step
            draw.ellipse((px - dot, py - dot, px + dot, py + dot), fill=pip)


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], value: str, size: int,
          fill: str = PALETTE.text, style: str = "regular", anchor: str = "lm",
          limit: float = 0, min_size: int = 11) -> None:  # fmt: skip
    """One line; with a ``limit`` (pixels) a longer text is drawn smaller (down to
    ``min_size``) and only cut with an ellipsis when even that is too wide."""
    if limit:
        rows, size = fit_text(value, limit, size, style=style, min_size=min_size)
        value = rows[0]
    draw_text(draw, xy, value, font(size, style), fill, anchor=anchor)


def _name_block(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], name: str,
                size: int, fill: str, *, min_size: int, lines: int) -> None:  # fmt: skip
    """``name`` in ``box`` (left, top, right, bottom), vertically centred: shrunk, then
    wrapped onto up to ``lines`` lines, an ellipsis only when nothing else fits."""
    left, top, right, bottom = box
    rows, size = fit_text(name, right - left, size, style="bold", min_size=min_size,
                          lines=lines, height=bottom - top)  # fmt: skip
    step = line_step(size)
    y = (top + bottom) / 2 - step * (len(rows) - 1) / 2
    for row in rows:
        draw_text(draw, (left, y), row, font(size, "bold"), fill, anchor="lm")
        y += step


def _matrix_rows(view: Mapping[str, Any], matrix: Mapping[str, Any]) -> list[int]:
    """The seats that have glyphs or runes on ``matrix`` (one glyph row each)."""
    dice = view["dice"]
    owners = {dice[i]["owner"] for i in [*matrix["glyphs"], *matrix["runes"]]}
    return sorted(owners)


def _shown_matrices(view: Mapping[str, Any]) -> tuple[list[Mapping[str, Any]], int]:
    """The matrix panels drawn (the Duellplatz and the start first, then those with most
    dice) and how many more there are."""
    dp = view.get("duellplatz")
    used = [m for m in view["matrices"]
            if m["glyphs"] or m["runes"] or m["floating"] or m["markers"] or m["cauldrons"]
            or m["index"] == dp or m["start"]]  # fmt: skip
    used.sort(key=lambda m: (m["index"] != dp, not m["start"],
                             -len(m["glyphs"]) - len(m["runes"]), m["index"]))  # fmt: skip
    shown = sorted(used[:MAX_MATRICES], key=lambda m: m["index"])
    return shown, len(used) - len(shown)


def _matrix_height(view: Mapping[str, Any], matrix: Mapping[str, Any]) -> int:
    rows = len(_matrix_rows(view, matrix)) + (1 if matrix["floating"] else 0)
    return MATRIX_TITLE + max(1, rows) * MATRIX_ROW + 10


def _stack_lines(view: Mapping[str, Any], lang: str) -> list[tuple[str, str, str]]:
    """(kind, text, colour) lines of the spells being resolved, innermost last."""
    lines: list[tuple[str, str, str]] = []
    for entry in view.get("stack") or []:
        if entry.get("kind") not in ("spell", "blood"):
            continue
        caster = int(entry.get("caster", -1))
        label = _tr("blood" if entry.get("kind") == "blood" or entry.get("blood") else "spell",
                    lang, name=entry.get("name", "?"))  # fmt: skip
        lines.append(("spell", label, SEAT_COLOURS[caster % 6] if caster >= 0 else GOLD))
        sentence = entry.get(f"text_{lang}") or entry.get("text_de")
        if sentence:
            lines.append(("sentence", f"„{sentence}“" if lang == "de" else f"“{sentence}”",
                          PALETTE.text))  # fmt: skip
    return lines[-6:]


def _wrap(value: str) -> list[str]:
    """A spell's sentence (15 px) in lines of at most 740 px: the measure of the 95
    characters it was wrapped at before, now in pixels, so no line runs off the board. Line
    breaks in an uploaded sentence are spaces, as before (no board grows tall by them)."""
    return wrap_text(" ".join(value.split()), font(15), 740)


def draw_board(
    view: Mapping[str, Any], lang: str = "de", names: Sequence[str] | None = None
) -> Image.Image:
    seats = view["seats"]
    shown, hidden = _shown_matrices(view)
    stack = _stack_lines(view, lang)
    stack_rows = sum(len(_wrap(text)) for kind, text, _ in stack if kind == "sentence")
    stack_rows += sum(1 for kind, _, _ in stack if kind == "spell")
    decision = view.get("decision")
    spheres = view.get("spheres") or []
    footer = 36 + LEGEND_STEP * (len(_legend_lines(lang)) - 1)
    footer += 22 * (stack_rows + (1 if decision else 0) + len(spheres) + (1 if hidden else 0))
    drafting = view.get("phase") == "draft"
    height = (HEADER + len(seats) * SEAT_ROW + 12 + (MIDDLE_ROW if drafting else 0)
              + sum(_matrix_height(view, m) + 8 for m in shown) + footer + MARGIN)  # fmt: skip
    image = Image.new("RGB", (WIDTH, height), PALETTE.background)
    draw = ImageDraw.Draw(image)
    _header(draw, view, lang, names)
    y = HEADER
    for seat in seats:
        _seat_band(draw, view, seat, y, lang, names)
        y += SEAT_ROW
    y += 12
    if drafting:
        _middle_band(draw, view, y, lang)
        y += MIDDLE_ROW
    for matrix in shown:
        y = _matrix_panel(draw, view, matrix, y, lang, names) + 8
    y += 6
    for kind, text, colour in stack:
        if kind == "spell":
            _text(draw, (MARGIN, y + 10), text, 16, colour, "bold")
            y += 22
        else:
            for line in _wrap(text):
                _text(draw, (MARGIN + 18, y + 10), line, 15, colour)
                y += 22
    if decision:
        who = seat_name(int(decision["seat"]), names)
        _text(draw, (MARGIN, y + 10), _tr("decision", lang, player=who), 15, GOLD, "bold",
              limit=WIDTH - 2 * MARGIN)  # fmt: skip
        y += 22
    for sphere in spheres:
        label = _tr("sphere", lang, name=sphere.get("name", "?"),
                    text=sphere.get(f"text_{lang}") or sphere.get("text_de", ""))  # fmt: skip
        _text(draw, (MARGIN, y + 10), label, 14, ICE, limit=WIDTH - 2 * MARGIN)
        y += 22
    if hidden:
        _text(draw, (MARGIN, y + 10), _tr("more_matrices", lang, count=hidden), 14,
              PALETTE.muted)  # fmt: skip
        y += 22
    _legend(draw, y + 6, lang)
    return image


_LEGEND = ("glyph", "rune", "frozen", "spruchrune", "float", "effect")
_LEGEND_MARK = {"glyph": 40, "rune": 32, "frozen": 36, "spruchrune": 36, "float": 36, "effect": 26}


def _legend_lines(lang: str) -> list[list[tuple[str, float]]]:
    """The legend's items (key, x) in lines that fit the width; an item is never cut."""
    widths = [
        _LEGEND_MARK[key] + text_length(_tr(f"legend.{key}", lang), font(12)) + 14
        for key in _LEGEND
    ]
    rows = flow(widths, MARGIN, WIDTH - MARGIN)
    return [[(_LEGEND[index], x) for index, x in row] for row in rows]


def _legend(draw: ImageDraw.ImageDraw, y: float, lang: str) -> None:
    """What the marks mean: the edge with glyphs, a rune, a frozen glyph, the Spruchrune (a
    gold ring), a floating rune (a wave under it: no ring, not to be taken for the
    Spruchrune), a die that counts otherwise."""
    for n, line in enumerate(_legend_lines(lang)):
        cy = y + 12 + LEGEND_STEP * n
        for key, x in line:
            if key == "glyph":
                draw.rounded_rectangle((x, cy - 11, x + 24, cy + 11), radius=4, fill=EDGE,
                                       outline=GOLD_DIM)  # fmt: skip
                draw_die(draw, (x + 12, cy), 16, "grau", 3)
            elif key == "rune":
                draw_die(draw, (x + 8, cy), 16, "grau", 3, pale=True)
            elif key == "frozen":
                draw_die(draw, (x + 10, cy), 13, "grau", 3, frozen=True)
            elif key == "spruchrune":
                draw_die(draw, (x + 10, cy), 14, "grau", 3, ring=GOLD)
            elif key == "float":
                draw_die(draw, (x + 11, cy - 4), 13, "grau", 3)
                float_mark(draw, x + 11, cy + 8, 10, PALETTE.muted)
            else:
                draw.ellipse((x + 2, cy - 4, x + 10, cy + 4), fill=ICE, outline="#111111")
            _text(draw, (x + _LEGEND_MARK[key] - 10, cy), _tr(f"legend.{key}", lang), 12,
                  PALETTE.muted)  # fmt: skip


def float_mark(draw: ImageDraw.ImageDraw, x: float, y: float, half: float, colour: str) -> None:
    """The mark of a floating rune: a wave under the die (in its owner's colour), where the
    Spruchrune has its gold ring."""
    steps = 24
    points = [
        (x - half + 2 * half * k / steps, y + 0.3 * half * math.sin(2 * math.pi * 2 * k / steps))
        for k in range(steps + 1)
    ]
    draw.line(points, fill=colour, width=2, joint="curve")


def title_parts(view: Mapping[str, Any], lang: str) -> list[str]:
    """The header's words: phase, rules, mode and the duel options a table must keep in mind
    all game long (Weltentor, the Erdbeben house rule)."""
    title = [_tr(f"phase.{view['phase']}", lang), _tr(f"rules.{view.get('rules', 'adept')}", lang)]
    if view.get("mode") in ("pentagramm", "gilde"):
        title.append(_tr(f"mode.{view['mode']}", lang))
    title += [_tr(option, lang) for option in ("weltentor", "quake") if view.get(option)]
    return title


def _header(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], lang: str,
            names: Sequence[str] | None) -> None:  # fmt: skip
    _text(draw, (MARGIN, 20), "Felsenfeuer", 22, GOLD, "bold")
    _text(draw, (190, 20), " · ".join(title_parts(view, lang)), 17, PALETTE.text,
          limit=WIDTH - 190 - 190)  # fmt: skip
    counter = _tr("phases", lang, phases=view.get("phases", 0), limit=view.get("phase_limit", 0))
    _text(draw, (WIDTH - MARGIN, 20), counter, 15, PALETTE.muted, anchor="rm")
    parts = []
    stone = view.get("stone")
    if stone is not None and view["phase"] in ("action", "spell"):
        key = "stone_marker" if view.get("stone_on_marker") else "stone"
        parts.append(_tr(key, lang, player=seat_name(int(stone), names)))
    if view.get("initiative") is not None:
        parts.append(_tr("initiative", lang, player=seat_name(int(view["initiative"]), names)))
    if view.get("winners"):
        who = ", ".join(seat_name(int(s), names) for s in view["winners"])
        parts.append(_tr("winners", lang, players=who))
    elif view["phase"] == "end":
        parts.append(_tr("draw", lang))
    _text(draw, (MARGIN, 44), "   ".join(parts), 15, PALETTE.text, limit=WIDTH - 2 * MARGIN)


def _stone(draw: ImageDraw.ImageDraw, x: float, y: float, on_marker: bool) -> None:
    """The wizard stone: a grey-gold pentagon (on the marker: with a gold ring)."""
    r = 11
    points = [(x, y - r), (x + r, y - 3), (x + 7, y + r), (x - 7, y + r), (x - r, y - 3)]
    draw.polygon(points, fill="#c9c2a8", outline="#5d5640")
    if on_marker:
        draw.ellipse((x - r - 4, y - r - 4, x + r + 4, y + r + 4), outline=GOLD, width=2)


def _seat_band(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], seat: Mapping[str, Any],
               y: int, lang: str, names: Sequence[str] | None) -> None:  # fmt: skip
    index = int(seat["seat"])
    colour = SEAT_COLOURS[index % 6]
    out = bool(seat["out"])
    draw.rounded_rectangle((MARGIN, y + 3, WIDTH - MARGIN, y + SEAT_ROW - 3), radius=8,
                           fill=PANEL if not out else "#2f3034")  # fmt: skip
    draw.rectangle((MARGIN, y + 3, MARGIN + 6, y + SEAT_ROW - 3), fill=colour)
    info = []
    if view.get("teams"):
        info.append(_tr("team", lang, team=int(seat["team"]) + 1))
    if seat.get("role"):
        info.append(_tr(f"role.{seat['role']}", lang))
    if out:
        info.append(_tr("out", lang))
    bottom = y + (38 if info else SEAT_ROW - 4)
    _name_block(draw, (MARGIN + 16, y + 5, NAME_RIGHT, bottom), seat_name(index, names), 17,
                colour if not out else PALETTE.muted, min_size=12,
                lines=2 if info else 3)  # fmt: skip
    if info:
        _text(draw, (MARGIN + 16, y + 48), " · ".join(info), 12, PALETTE.muted,
              limit=NAME_RIGHT - MARGIN - 16, min_size=10)  # fmt: skip
    # the stone and the initiative
    if view.get("stone") == index and view["phase"] in ("action", "spell"):
        _stone(draw, POINTS_X - 40, y + SEAT_ROW / 2, bool(view.get("stone_on_marker")))
    # essences and points
    x = POINTS_X
    points = int(seat["essence_points"])
    _text(draw, (x, y + SEAT_ROW / 2), str(points), 24, PALETTE.text, "bold", anchor="mm")
    _text(draw, (x, y + SEAT_ROW - 10), _tr("points", lang), 10, PALETTE.muted, anchor="mm")
    x += 36
    for essence in seat["essences"]:
        draw_die(draw, (x, y + SEAT_ROW / 2), 36, essence["colour"], essence["pips"] or None)
        x += 42
    x = max(x, POINTS_X + 36 + 2 * 42) + 10
    # hands
    hands = seat["hands"]
    for number, hand in enumerate(hands):
        if number == 1 and not hand:
            continue
        label = _tr("hand2" if number else "hand", lang)
        _text(draw, (x, y + 14), label, 12, PALETTE.muted)
        for k, die_colour in enumerate(hand[:8]):
            draw_die(draw, (x + 9 + 22 * (k % 8), y + 38), 18, die_colour, None)
        x += max(text_length(label, font(12)) + 16, 22 * min(8, len(hand)) + 12)
    # bag (and cauldron)
    label = _tr("cauldron" if seat.get("cauldron") is not None else "bag", lang)
    if seat.get("cauldron") is not None:
        label += f" (M{int(seat['cauldron'])})"
    _text(draw, (x, y + 14), label, 12, PALETTE.muted)
    for k, die_colour in enumerate(seat["bag"][:8]):
        cx, cy = x + 8 + 18 * k, y + 38
        fill = DIE.get(die_colour, DIE["grau"])[0]
        draw.ellipse((cx - 7, cy - 7, cx + 7, cy + 7), fill=fill, outline="#111111")
    if view["phase"] in ("auswahl", "draft", "essence"):
        picked = seat.get("picked") or []
        px = WIDTH - MARGIN - 20 - 20 * len(picked[:8])
        for k, die_colour in enumerate(picked[:8]):
            draw_die(draw, (px + 20 * k, y + 38), 16, die_colour, None)
        if view["phase"] == "auswahl":
            done = _tr("chosen" if seat.get("auswahl_done") else "choosing", lang)
            _text(draw, (WIDTH - MARGIN - 12, y + 14), done, 12, PALETTE.muted, anchor="rm")


def _middle_band(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], y: int, lang: str) -> None:
    """The Würfeldraft's middle: how many dice of each colour are still there to take."""
    left = middle(view)
    draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + MIDDLE_ROW - 8), radius=8, fill=PANEL)
    cy = y + (MIDDLE_ROW - 8) / 2
    _text(draw, (MARGIN + 12, cy), _tr("middle", lang, count=sum(left.values())), 14, GOLD,
          "bold", limit=ROW_X - MARGIN - 24)  # fmt: skip
    x = ROW_X
    for colour, count in left.items():
        if count:
            draw_die(draw, (x + 12, cy), 24, colour, None)
        else:  # none left: an empty outline
            draw.rounded_rectangle((x, cy - 12, x + 24, cy + 12), radius=4,
                                   outline=PALETTE.muted, width=1)  # fmt: skip
        _text(draw, (x + 30, cy), f"×{count}", 15, PALETTE.text if count else PALETTE.muted,
              "bold")  # fmt: skip
        x += 84


def _matrix_panel(draw: ImageDraw.ImageDraw, view: Mapping[str, Any],
                  matrix: Mapping[str, Any], y: int, lang: str,
                  names: Sequence[str] | None) -> int:  # fmt: skip
    index = int(matrix["index"])
    is_dp = view.get("duellplatz") == index
    height = _matrix_height(view, matrix)
    draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + height), radius=10,
                           fill=DUELLPLATZ if is_dp else PANEL,
                           outline=GOLD if is_dp else "#4e5058", width=2)  # fmt: skip
    title = _tr("matrix", lang, index=index)
    if matrix["start"]:
        title += " · " + _tr("start", lang)
    if is_dp:
        title += " · " + _tr("duellplatz", lang)
    _text(draw, (MARGIN + 12, y + 14), title, 15, GOLD if is_dp else PALETTE.text, "bold")
    room = WIDTH - 2 * MARGIN - 60 - text_length(title, font(15, "bold"))
    _lying_here(draw, matrix, WIDTH - MARGIN - 12, y + 14, room, lang, names)
    dice = view["dice"]
    row_y = y + MATRIX_TITLE + MATRIX_ROW / 2
    for owner in _matrix_rows(view, matrix):
        colour = SEAT_COLOURS[owner % 6]
        _name_block(draw, (MARGIN + 12, row_y - 20, ROW_NAME_RIGHT, row_y + 20),
                    seat_name(owner, names), 14, colour, min_size=11, lines=2)  # fmt: skip
        x = ROW_X
        glyphs = [dice[i] for i in matrix["glyphs"] if dice[i]["owner"] == owner]
        runes = [dice[i] for i in matrix["runes"] if dice[i]["owner"] == owner]
        # the glyph row at the matrix's edge (a dark strip); temples: a rune on its shrines
        if glyphs:
            width = _row_width(glyphs, dice)
            draw.rounded_rectangle((x - 4, row_y - 21, x + width + 2, row_y + 19), radius=6,
                                   fill=EDGE, outline=GOLD_DIM)  # fmt: skip
        x = _dice_row(draw, glyphs, dice, x, row_y - 1)
        if runes:
            x += 14
            _dice_row(draw, runes, dice, x, row_y + 3, pale=True)
        row_y += MATRIX_ROW
    if matrix["floating"]:
        _text(draw, (MARGIN + 12, row_y), _tr("floating", lang), 13, ICE, "bold")
        x = ROW_X
        room = int((WIDTH - MARGIN - 12 - ROW_X) // 44)  # floating runes that fit in a row
        floating = list(matrix["floating"])
        shown = floating if len(floating) <= room else floating[: room - 1]
        if len(shown) < len(floating):  # the rest counted at the row's end
            _text(draw, (WIDTH - MARGIN - 16, row_y), f"+{len(floating) - len(shown)}", 15,
                  ICE, "bold", anchor="rm")  # fmt: skip
        for i in shown:
            die = dice[i]
            cx = x + 16
            owner_colour = SEAT_COLOURS[int(die["owner"]) % 6]  # whose rune floats
            draw_die(draw, (cx, row_y - 4), 26, die["colour"], die["pips"],
                     ring=GOLD if die["spruchrune"] else None)  # fmt: skip
            float_mark(draw, cx, row_y + 16, 17, owner_colour)  # a wave, not a ring
            x += 44
    return y + height


def _lying_here(draw: ImageDraw.ImageDraw, matrix: Mapping[str, Any], right: float, y: float,
                room: float, lang: str, names: Sequence[str] | None) -> None:  # fmt: skip
    """Whose essence markers and cauldrons lie on ``matrix``, right-aligned at ``right``: the
    names when they fit (smaller if need be), else a disc in each seat's colour."""
    groups = [(key, [int(s) for s in matrix[key]]) for key in ("markers", "cauldrons")
              if matrix[key]]  # fmt: skip
    if not groups:
        return
    text = " · ".join(_tr(key, lang, players=", ".join(seat_name(s, names) for s in seats))
                      for key, seats in groups)  # fmt: skip
    if text_length(text, font(11)) <= room:
        _text(draw, (right, y), text, 13, PALETTE.muted, anchor="rm", limit=room)
        return
    x = right
    for key, seats in reversed(groups):
        for seat in reversed(seats):
            draw.ellipse((x - 12, y - 6, x, y + 6), fill=SEAT_COLOURS[seat % 6],
                         outline="#111111")  # fmt: skip
            x -= 16
        label = _tr(f"{key}_here", lang)
        _text(draw, (x, y), label, 13, PALETTE.muted, anchor="rm")
        x -= text_length(label, font(13)) + 14


def _effect_marks(draw: ImageDraw.ImageDraw, die: Mapping[str, Any], x: float, y: float) -> None:
    """A 'zählt als' effect on a die: dots of the colours it counts as (below it) and an ice
    dot when its pips count other than they show (top right)."""
    counted = list(die.get("counts_as_colours") or [])
    if counted and counted != [die["colour"]]:
        left = x - 4 * (len(counted) - 1)
        for k, colour in enumerate(counted):
            fill = DIE.get(colour, DIE["grau"])[0]
            draw.ellipse((left + 8 * k - 3, y + 17, left + 8 * k + 3, y + 23), fill=fill,
                         outline="#111111")  # fmt: skip
    if die.get("base_pips") is not None and die.get("pips") != die.get("base_pips"):
        draw.ellipse((x + 11, y - 19, x + 19, y - 11), fill=ICE, outline="#111111")


def _row_width(row: Sequence[Mapping[str, Any]], dice: Sequence[Mapping[str, Any]]) -> float:
    width = 0.0
    for die in row:
        if die["shrine_of"] is not None:
            continue
        shrines = sum(1 for d in dice if d["shrine_of"] == die["id"])
        width += 46 + 22 * shrines if shrines else (42 if die["frozen"] else 38)
    return width - 6


def _dice_row(draw: ImageDraw.ImageDraw, row: Sequence[Mapping[str, Any]],
              dice: Sequence[Mapping[str, Any]], x: float, y: float,
              pale: bool = False) -> float:  # fmt: skip
    """Draw ``row`` from ``x``; shrines sit under their temple rune. Returns the next x."""
    tops = [d for d in row if d["shrine_of"] is None]
    for die in tops:
        shrines = [d for d in dice if d["shrine_of"] == die["id"]]
        if shrines:  # a temple: its rune, then its shrines, in one gold frame
            width = 36 + 22 * len(shrines)
            draw.rounded_rectangle((x - 2, y - 18, x + width, y + 18), radius=6,
                                   outline=GOLD, width=2)  # fmt: skip
            draw_die(
                draw,
                (x + 16, y),
                26,
                die["colour"],
                die["pips"],
                frozen=bool(die["frozen"]),
                ring=GOLD if die["spruchrune"] else None,
            )
            for k, shrine in enumerate(shrines):
                draw_die(draw, (x + 42 + 22 * k, y + 5), 18, shrine["colour"], shrine["pips"])
            draw.polygon([(x + 32, y - 6), (x + width - 4, y - 6), (x + 18 + width / 2, y - 15)],
                         fill=GOLD)  # fmt: skip
            x += width + 10
            continue
        draw_die(draw, (x + 16, y), 26 if pale else 30, die["colour"], die["pips"],
                 frozen=bool(die["frozen"]), pale=pale,
                 ring=GOLD if die["spruchrune"] else None)  # fmt: skip
        _effect_marks(draw, die, x + 16, y)
        x += 42 if die["frozen"] else 38
    return x


def render_board(
    view: Mapping[str, Any], lang: str = "de", names: Sequence[str] | None = None
) -> bytes:
    """The PNG of ``view`` in ``lang`` (seat names optional, else P1…P6)."""
    image = draw_board(view, lang, names)
    return palette_png(image, PALETTE_COLOURS)
