"""Telperinquár images, drawn from plain data: a card (support, hero and level cards), a seat's
hand, the field of a duel or a 2 vs 2 (``Telperinquar.view_for``) and a deck summary.

A card is a frame in its type's colour with the name, the costs (play/use, e.g. ``4/2``), the
class symbols, the attribute requirements, the type's values, the marks (defensive shield,
InAktion, charges) and the rules text wrapped to its box (a long text gets a smaller font; a
word too long for a line is split with a hyphen). The field shows each side in its own panel,
one band per seat: the hero (class, level, LP, action pool, armour and resistance, hand, deck
and discard counts), its equipment and the cards in play, and the Wesen row by place (damage
taken this turn, wounded, InAktion, the enemy places a Wesen reaches in melee). Face-down cards
are drawn as backs and never show their name. Every word comes from ``data/i18n/tqrender.json``.
Renderers are synchronous; the caller runs them in a worker thread (``render_async``).
"""

from __future__ import annotations

import math
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import t
from bot.render.base import (
    PALETTE,
    block_leading,
    draw_text,
    ellipsize,
    fit_block,
    fitting_size,
    font,
    palette_png,
    text_length,
    wrap_text,
)
from engines.telperinquar.cards import (
    ATTRIBUTES,
    DRAFT,
    Card,
    Catalogue,
    Level,
    catalogue,
    hero_of,
    level_card_name,
    level_rows,
)
from engines.telperinquar.decks import Problem, validate
from engines.telperinquar.keywords import keywords

CARD_W = 250  # a card's design width; every size on a card scales with its drawn width
CARD_RATIO = 1.4
PARCHMENT = "#f3ead6"
INK = "#24201a"
INK_SOFT = "#5b5346"
GOLD = "#f5c542"
RED = "#d9534f"
GREEN = "#3ba55d"
PANEL = "#383a40"
TEAM_COLOURS = ("#e69f00", "#56b4e9")
TYPE_COLOURS = {
    "weapon": "#a8432f",
    "armour": "#6f7d8c",
    "shield": "#4f6f90",
    "gear": "#8a6a3f",
    "artifact": "#b8901c",
    "wesen": "#3f7f3b",
    "talent": "#c06a1f",
    "spell": "#5d48b8",
    "trap": "#5a4636",
    "hero": "#9b2d5a",
    "level": "#2f6f8f",
    "unknown": "#6b6b6b",
}
# the class marks: heroes.toml's symbols where the shipped font has them (the rogue's dagger
# emoji is not in DejaVu; it gets the dagger sign); the booster draft's hero is its own "class"
CLASS_GLYPHS = {"kaempfer": "⚔", "schurke": "†", "zauberer": "✦", "geistlicher": "☩", DRAFT: "◆"}
CLASS_COLOURS = {
    "kaempfer": "#b03a2e",
    "schurke": "#3d3d3d",
    "zauberer": "#4b3fa6",
    "geistlicher": "#c9a227",
    DRAFT: "#2f7f7a",
}
# the rulebook's attribute colours: "Blau = Kraft, Rot = Reflex, Lila = Geist, Hellbraun = Aura"
ATTRIBUTE_COLOURS = {
    "kraft": "#2f5fb3",
    "reflexe": "#b8322a",
    "geist": "#7d3c98",
    "aura": "#b08a5a",
}
PALETTE_COLOURS = 192


def _tr(key: str, lang: str, **params: Any) -> str:
    return t(f"tqrender.{key}", lang, **params)


def _png(image: Image.Image) -> bytes:
    return palette_png(image, PALETTE_COLOURS)


# ------------------------------------------------------------------ text


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    value: str,
    size: int,
    fill: str = PALETTE.text,
    style: str = "regular",
    anchor: str = "lm",
    limit: float = 0,
) -> float:
    """Draw one line (cut with an ellipsis beyond ``limit``); returns its width."""
    face = font(max(6, size), style)
    if limit:
        value = ellipsize(value, face, limit)
    draw_text(draw, xy, value, face, fill, anchor=anchor)
    return float(text_length(value, face))


# ------------------------------------------------------------------ cards


def _class_badge(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], cls: str, radius: float
) -> None:
    x, y = centre
    draw.ellipse(
        (x - radius, y - radius, x + radius, y + radius),
        fill=CLASS_COLOURS.get(cls, "#555555"),
        outline=INK,
    )
    _text(draw, (x, y + 1), CLASS_GLYPHS.get(cls, "?"), int(radius * 1.25), "#ffffff", anchor="mm")


def _shield(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, fill: str) -> None:
    """The defensive mark: a small heater shield with its top-left corner at (x, y)."""
    w, h = size * 0.8, size
    points = [(x, y), (x + w, y), (x + w, y + h * 0.55), (x + w / 2, y + h), (x, y + h * 0.55)]
    draw.polygon(points, fill=fill, outline=INK)
    draw.line([(x + w / 2, y + 2), (x + w / 2, y + h - 3)], fill="#ffffff", width=1)


def _chip(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    label: str,
    size: int,
    fill: str,
    ink: str = "#ffffff",
) -> float:
    """A rounded label; returns its width."""
    face = font(size, "bold")
    width = text_length(label, face) + size
    draw.rounded_rectangle((x, y, x + width, y + size * 1.5), radius=size * 0.5, fill=fill)
    draw_text(draw, (x + width / 2, y + size * 0.78), label, face, ink, anchor="mm")
    return float(width)


def _frame(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], kind: str, u: float
) -> tuple[float, float, float, float]:
    """The card's frame in its type's colour; returns the inner (parchment) box."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(
        box,
        radius=12 * u,
        fill=TYPE_COLOURS.get(kind, "#666666"),
        outline="#111111",
        width=max(1, round(2 * u)),
    )
    inner = (x0 + 7 * u, y0 + 7 * u, x1 - 7 * u, y1 - 7 * u)
    draw.rounded_rectangle(inner, radius=8 * u, fill=PARCHMENT)
    return inner


def _name_bar(
    draw: ImageDraw.ImageDraw,
    inner: tuple[float, float, float, float],
    name: str,
    kind: str,
    u: float,
    cost: str = "",
) -> float:
    """The name (shrunk to fit) and the cost badge; returns the y below the bar."""
    x0, y0, x1, _ = inner
    bar = (x0, y0, x1, y0 + 32 * u)
    draw.rounded_rectangle(bar, radius=8 * u, fill=TYPE_COLOURS.get(kind, "#666666"))
    right = x1 - 6 * u
    if cost:
        face = font(round(15 * u), "bold")
        width = text_length(cost, face) + 14 * u
        draw.rounded_rectangle(
            (x1 - width - 4 * u, y0 + 4 * u, x1 - 4 * u, y0 + 28 * u),
            radius=11 * u,
            fill=INK,
            outline=GOLD,
        )
        draw_text(draw, (x1 - 4 * u - width / 2, y0 + 16 * u), cost, face, GOLD, anchor="mm")
        right = x1 - width - 10 * u
    room = right - x0 - 8 * u
    size = fitting_size(name, room, round(17 * u), round(10 * u), "bold")
    _text(draw, (x0 + 8 * u, y0 + 16 * u), name, size, "#ffffff", "bold", limit=room)
    return y0 + 32 * u


def _type_line(card: Card, lang: str) -> str:
    label = _tr(f"type.{card.type}", lang)
    if card.type == "weapon":
        label += f" · {_tr('size.' + str(card.get('size')), lang)}"
    elif card.type == "armour":
        label += f" · {_tr('weight.' + str(card.get('weight')), lang)}"
    return label


def _stats(card: Card, lang: str) -> list[tuple[str, str]]:
    """The type's values as (label, value) rows."""
    get = card.get
    if card.type == "weapon":
        rows = [
            (_tr("stat.size", lang), _tr(f"size.{get('size')}", lang)),
            (_tr("stat.bonus", lang), f"{int(get('bonus')):+d}"),
            (_tr("stat.attack", lang), _tr(f"attack.{get('attack')}", lang)),
        ]
        return rows + ([("", _tr("flag.chain", lang))] if get("chain") else [])
    if card.type == "armour":
        return [
            (_tr("stat.weight", lang), _tr(f"weight.{get('weight')}", lang)),
            (_tr("stat.armour", lang), f"{int(get('armour')):+d}"),
            (_tr("stat.resistance", lang), f"{int(get('resistance')):+d}"),
        ]
    if card.type == "shield":
        return [(_tr("stat.armour", lang), f"{int(get('armour')):+d}")]
    if card.type != "wesen":
        return []
    rows = [
        (_tr("stat.life", lang), str(get("life"))),
        (_tr("stat.armour", lang), str(get("armour"))),
        (_tr("stat.resistance", lang), str(get("resistance"))),
        (
            _tr("stat.attack", lang),
            f"{int(get('bonus')):+d} {_tr('attack.' + get('attack'), lang)}",
        ),
    ]
    if get("abilities"):
        abilities = ", ".join(_tr(f"ability.{a}", lang) for a in get("abilities"))
        rows.append((_tr("stat.abilities", lang), abilities))
    if get("immune"):
        rows.append(
            (_tr("stat.immune", lang), ", ".join(_tr(f"source.{s}", lang) for s in get("immune")))
        )
    if get("double"):
        rows.append(
            (_tr("stat.double", lang), ", ".join(_tr(f"source.{s}", lang) for s in get("double")))
        )
    return rows


def _marks_line(
    draw: ImageDraw.ImageDraw,
    card: Card,
    x: float,
    y: float,
    u: float,
    lang: str,
    charges_left: int | None,
    right: float,
) -> float:
    """Requirements, the defensive shield, InAktion and charges in a row that wraps before
    ``right`` (a hand's narrow card: nothing reaches into the frame); returns its height (0
    when the card has none)."""
    size = round(11 * u)
    line = size * 1.5 + 5 * u
    items: list[tuple[float, Callable[[float, float], object]]] = []
    for attr in ATTRIBUTES:
        if attr in card.requires:
            label = f"{_tr('attr.' + attr, lang)} {card.requires[attr]}"
            width = text_length(label, font(size, "bold")) + size
            items.append((width, partial(_chip_at, draw, label, size, ATTRIBUTE_COLOURS[attr])))
    if card.defensive:
        word = _tr("flag.defensive", lang)
        width = size * 1.5 + 2 * u + text_length(word, font(size, "bold"))
        items.append((width, partial(_defensive_at, draw, word, size, u)))
    if card.inaktion:
        label = "↺ " + _tr("flag.inaktion", lang)
        width = text_length(label, font(size, "bold")) + size
        items.append((width, partial(_chip_at, draw, label, size, "#8a3b3b")))
    if card.charges:
        label = (
            _tr("charges", lang, count=card.charges)
            if charges_left is None
            else _tr("charges_left", lang, left=charges_left, count=card.charges)
        )
        width = text_length(label, font(size, "bold")) + size
        items.append((width, partial(_chip_at, draw, label, size, "#4a4a4a")))
    if not items:
        return 0.0
    start, rows = x, 1
    for width, paint in items:
        if x > start and x + width > right:  # no room left in this row: the next one
            x, y, rows = start, y + line, rows + 1
        paint(x, y)
        x += width + 6 * u
    return line * rows


def _chip_at(
    draw: ImageDraw.ImageDraw, label: str, size: int, fill: str, x: float, y: float
) -> None:
    _chip(draw, x, y, label, size, fill)


def _defensive_at(
    draw: ImageDraw.ImageDraw, word: str, size: int, u: float, x: float, y: float
) -> None:
    """The defensive shield and its word."""
    _shield(draw, x, y, size * 1.5, "#3b82c4")
    _text(draw, (x + size * 1.5 + 2 * u, y + size * 0.75), word, size, INK, "bold")


def _pack_rows(
    rows: Sequence[tuple[str, str]], face: ImageFont.FreeTypeFont, width: float
) -> list[tuple[str, str]]:
    """Rows whose value is a list too wide for one line go on over more rows (no label)."""
    out: list[tuple[str, str]] = []
    for label, value in rows:
        line = ""
        for item in value.split(", "):
            candidate = f"{line}, {item}" if line else item
            if line and text_length(candidate, face) > width:
                out.append((label, line + ","))
                label, line = "", item
            else:
                line = candidate
        out.append((label, line))
    return out


def _stats_box(
    draw: ImageDraw.ImageDraw,
    rows: Sequence[tuple[str, str]],
    box: tuple[float, float, float],
    u: float,
) -> float:
    """The type's values in a tinted box from (x0, y, x1); returns its height."""
    if not rows:
        return 0.0
    x0, y, x1 = box
    size = round(12 * u)
    step = size * 1.35
    label_w = max((text_length(label, font(size)) for label, _ in rows), default=0) + 8 * u
    label_w = min(label_w, (x1 - x0) * 0.42)
    rows = _pack_rows(rows, font(size, "bold"), x1 - x0 - label_w - 10 * u)
    height = step * len(rows) + 6 * u
    draw.rounded_rectangle((x0, y, x1, y + height), radius=6 * u, fill="#e4d8bd", outline="#c4b48f")
    for k, (label, value) in enumerate(rows):
        cy = y + 3 * u + step * (k + 0.5)
        if label:
            _text(draw, (x0 + 6 * u, cy), label, size, INK_SOFT, limit=label_w - 4 * u)
        _text(
            draw,
            (x0 + 6 * u + label_w, cy),
            value,
            size,
            INK,
            "bold",
            limit=x1 - x0 - label_w - 10 * u,
        )
    return height


def _classes_row(
    draw: ImageDraw.ImageDraw, classes: Sequence[str], right: float, y: float, u: float, lang: str
) -> None:
    if not classes:
        _text(draw, (right, y), _tr("all_classes", lang), round(10 * u), INK_SOFT, anchor="rm")
        return
    radius = 9 * u
    for k, cls in enumerate(reversed(classes)):
        _class_badge(draw, (right - radius - k * (2 * radius + 3 * u), y), cls, radius)


def _rules_text(
    draw: ImageDraw.ImageDraw, value: str, box: tuple[float, float, float, float], u: float
) -> None:
    x0, y0, x1, y1 = box
    if y1 - y0 < 10 * u:
        return
    draw.line([(x0 + 10 * u, y0), (x1 - 10 * u, y0)], fill="#c4b48f", width=max(1, round(u)))
    size, lines = fit_block(
        value, x1 - x0 - 8 * u, y1 - y0 - 8 * u, round(15 * u), max(8, round(9 * u))
    )
    face = font(size)
    for k, line in enumerate(lines):
        draw_text(draw, (x0 + 4 * u, y0 + 6 * u + k * block_leading(size)), line, face, INK)


def draw_card(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    width: float,
    card: Card,
    lang: str,
    *,
    charges_left: int | None = None,
) -> None:
    """A support card with its top-left corner at (x, y), ``width`` wide."""
    u = width / CARD_W
    box = (x, y, x + width, y + width * CARD_RATIO)
    inner = _frame(draw, box, card.type, u)
    name = card.name if lang == "de" else card.name_en
    top = _name_bar(draw, inner, name, card.type, u, f"{card.play}/{card.use}")
    ix0, _, ix1, iy1 = inner
    line_y = top + 12 * u
    _text(
        draw,
        (ix0 + 6 * u, line_y),
        _type_line(card, lang),
        round(12 * u),
        INK,
        "bold",
        limit=(ix1 - ix0) * 0.6,
    )
    _classes_row(draw, card.classes, ix1 - 5 * u, line_y, u, lang)
    y_next = line_y + 12 * u
    y_next += _marks_line(draw, card, ix0 + 5 * u, y_next, u, lang, charges_left, ix1 - 4 * u)
    y_next += _stats_box(draw, _stats(card, lang), (ix0 + 5 * u, y_next, ix1 - 5 * u), u)
    text = card.text_de if lang == "de" else card.text_en
    bottom = iy1 - 4 * u
    legend = _legend(card, lang)
    if legend and _rules_fit(text, (ix0 + 5 * u, y_next + 6 * u, ix1 - 5 * u, bottom), u, legend):
        bottom -= _legend_block(draw, legend, (ix0 + 5 * u, ix1 - 5 * u, bottom), u)
    _rules_text(draw, text, (ix0 + 5 * u, y_next + 6 * u, ix1 - 5 * u, bottom), u)


def _rules_fit(
    value: str, box: tuple[float, float, float, float], u: float, legend: Sequence[str]
) -> bool:
    """Whether the rules text still fits uncut above the legend (a small card in a hand
    keeps its text whole and leaves the legend to the big card)."""
    x0, y0, x1, y1 = box
    height = _legend_height(legend, x1 - x0, u)
    _size, lines = fit_block(
        value, x1 - x0 - 8 * u, y1 - height - y0 - 8 * u, round(15 * u), max(8, round(9 * u))
    )
    return not lines or not lines[-1].endswith("…")


def _legend_height(lines: Sequence[str], width: float, u: float) -> float:
    size = max(8, round(10 * u))
    rows = sum(len(wrap_text(line, font(size), width - 8 * u)) for line in lines)
    return rows * block_leading(size) + 8 * u


def _legend(card: Card, lang: str) -> list[str]:
    """What the card's ability words mean, one short sentence each ("Nebelgestalt: kein Ziel
    von Fernangriffen."): the card names them, the legend explains them."""
    words = [f"ability.{a}" for a in card.get("abilities") or []]
    words += ["flag.chain"] if card.type == "weapon" and card.get("chain") else []
    words += ["flag.ew"] if any(step.get("do") == "ew" for step in card.steps) else []
    out = []
    for key in words:
        meaning = f"legend.{key.split('.', 1)[1]}"
        out.append(f"{_tr(key, lang)}: {_tr(meaning, lang)}")
    return out


def _legend_block(
    draw: ImageDraw.ImageDraw, lines: Sequence[str], box: tuple[float, float, float], u: float
) -> float:
    """The legend at the bottom of the card (from x0 to x1, ending at ``bottom``), in small
    soft type under a rule; returns its height (0 without a legend)."""
    if not lines:
        return 0.0
    x0, x1, bottom = box
    size = max(8, round(10 * u))
    face = font(size)
    wrapped = [row for line in lines for row in wrap_text(line, face, x1 - x0 - 8 * u)]
    height = _legend_height(lines, x1 - x0, u)
    top = bottom - height
    draw.line([(x0 + 10 * u, top), (x1 - 10 * u, top)], fill="#c4b48f", width=max(1, round(u)))
    for k, row in enumerate(wrapped):
        draw_text(draw, (x0 + 4 * u, top + 5 * u + k * block_leading(size)), row, face, INK_SOFT)
    return height


def draw_hero_card(
    draw: ImageDraw.ImageDraw, x: float, y: float, width: float, cls: str, lang: str
) -> None:
    """A hero card: class symbol, allowed equipment, the unarmed value and its text."""
    u = width / CARD_W
    hero = hero_of(cls)
    inner = _frame(draw, (x, y, x + width, y + width * CARD_RATIO), "hero", u)
    top = _name_bar(draw, inner, hero.name if lang == "de" else hero.name_en, "hero", u)
    ix0, _, ix1, iy1 = inner
    _class_badge(draw, ((ix0 + ix1) / 2, top + 34 * u), cls, 24 * u)
    _text(
        draw,
        ((ix0 + ix1) / 2, top + 70 * u),
        _tr("type.hero", lang),
        round(12 * u),
        INK,
        "bold",
        anchor="mm",
    )
    second = [_tr(f"second.{s}", lang) for s in hero.second] or [_tr("second.none", lang)]
    rows = [
        (_tr("hero.weapons", lang), ", ".join(_tr(f"size.{s}", lang) for s in hero.weapons)),
        (_tr("hero.second", lang), ", ".join(second)),
        (_tr("hero.armour", lang), ", ".join(_tr(f"weight.{w}", lang) for w in hero.armour)),
        (_tr("hero.unarmed", lang), f"{hero.unarmed:+d}".replace("-", "−")),
    ]
    y_next = top + 84 * u
    y_next += _stats_box(draw, rows, (ix0 + 5 * u, y_next, ix1 - 5 * u), u)
    text = hero.text_de if lang == "de" else hero.text_en
    _rules_text(draw, text, (ix0 + 5 * u, y_next + 6 * u, ix1 - 5 * u, iy1 - 4 * u), u)


def draw_level_card(
    draw: ImageDraw.ImageDraw, x: float, y: float, width: float, cls: str, lang: str
) -> None:
    """A level card: the class's table of levels 1-10."""
    u = width / CARD_W
    inner = _frame(draw, (x, y, x + width, y + width * CARD_RATIO), "level", u)
    top = _name_bar(draw, inner, level_card_name(cls, lang), "level", u)
    ix0, _, ix1, iy1 = inner
    _class_badge(draw, (ix1 - 14 * u, top + 13 * u), cls, 9 * u)
    _text(draw, (ix0 + 6 * u, top + 13 * u), _tr("type.level", lang), round(12 * u), INK, "bold")
    heads = [
        _tr(f"level.col.{k}", lang) for k in ("level", "actions", "life", "resistance", "armour")
    ]
    heads += [_tr(f"attr_short.{a}", lang) for a in ATTRIBUTES]
    # the LP column holds "+10 (74)" (the draft hero's last row)
    weights = [1.0, 1.3, 2.4, 1.15, 1.15, 1.0, 1.0, 1.0, 1.0]
    unit = (ix1 - ix0 - 8 * u) / sum(weights)
    centres = [ix0 + 4 * u + unit * (sum(weights[:c]) + weights[c] / 2) for c in range(9)]
    size = round(10 * u)
    row_h = (iy1 - top - 92 * u) / 11
    table_y = top + 28 * u
    for c, head in enumerate(heads):
        room = unit * weights[c] + 2 * u
        cell = fitting_size(head, room, size, max(6, size - 3), "bold")
        _text(draw, (centres[c], table_y + row_h / 2), head, cell, INK, "bold", "mm", room)
    for r, row in enumerate(level_rows(cls)):
        ry = table_y + row_h * (r + 1)
        if r % 2 == 0:
            draw.rectangle((ix0 + 4 * u, ry, ix1 - 4 * u, ry + row_h), fill="#e4d8bd")
        life = f"+{row.life} ({row.life_max})" if r else str(row.life_max)
        values = [
            row.level,
            row.actions,
            life,
            row.resistance,
            row.armour,
            *(row.attribute(a) for a in ATTRIBUTES),
        ]
        for c, value in enumerate(values):
            room = unit * weights[c] + 2 * u
            cell = fitting_size(str(value), room, size, max(6, size - 3), "regular")
            _text(
                draw, (centres[c], ry + row_h / 2), str(value), cell, INK, anchor="mm", limit=room
            )
    note_top = table_y + row_h * 11 + 4 * u
    _rules_text(draw, _tr("level.note", lang), (ix0 + 5 * u, note_top, ix1 - 5 * u, iy1 - 2 * u), u)


def draw_unknown_card(
    draw: ImageDraw.ImageDraw, x: float, y: float, width: float, name: str, lang: str
) -> None:
    """A card the catalogue does not know (a user card since removed): its name only."""
    u = width / CARD_W
    inner = _frame(draw, (x, y, x + width, y + width * CARD_RATIO), "unknown", u)
    top = _name_bar(draw, inner, name, "unknown", u)
    _text(
        draw,
        ((inner[0] + inner[2]) / 2, top + 30 * u),
        _tr("type.unknown", lang),
        round(13 * u),
        INK_SOFT,
        anchor="mm",
    )


def draw_named_card(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    width: float,
    name: str,
    lang: str,
    cat: Catalogue,
    **kwargs: Any,
) -> None:
    """Any card a deck or hand may hold, by its (German or English) name."""
    known = cat.resolve(name)
    if known is None:
        draw_unknown_card(draw, x, y, width, name, lang)
    elif known[0] == "hero":
        draw_hero_card(draw, x, y, width, known[1], lang)
    elif known[0] == "level":
        draw_level_card(draw, x, y, width, known[1], lang)
    else:
        card = cat.support(known[1])
        assert card is not None
        draw_card(draw, x, y, width, card, lang, **kwargs)


def _single(width: int, paint: Any) -> bytes:
    margin = 8
    image = Image.new(
        "RGB", (width + 2 * margin, round(width * CARD_RATIO) + 2 * margin), PALETTE.background
    )
    paint(ImageDraw.Draw(image), margin, margin, width)
    return _png(image)


def card_png(card: Card, lang: str) -> bytes:
    """One support card, readable on its own (300 px wide)."""
    return _single(300, lambda draw, x, y, w: draw_card(draw, x, y, w, card, lang))


def hero_card_png(cls: str, lang: str) -> bytes:
    """The hero card of class ``cls``."""
    return _single(300, lambda draw, x, y, w: draw_hero_card(draw, x, y, w, cls, lang))


def level_card_png(cls: str, lang: str) -> bytes:
    """The level card of class ``cls`` (its table of levels 1-10)."""
    return _single(340, lambda draw, x, y, w: draw_level_card(draw, x, y, w, cls, lang))


def named_card_png(name: str, lang: str, *, catalogue: Catalogue | None = None) -> bytes:
    """Any card by name: a support, hero or level card (an unknown name: a plain card)."""
    cat = catalogue or _builtin()
    return _single(300, lambda draw, x, y, w: draw_named_card(draw, x, y, w, name, lang, cat))


# ------------------------------------------------------------------ hand


HAND_MAX_WIDTH = 1560
HAND_GAP = 10


def _hand_layout(count: int) -> tuple[int, int]:
    """(cards per row, card width) for a hand of ``count``: one row up to 8, else two or
    more rows of at most 10."""
    per_row = count if count <= 8 else min(10, math.ceil(count / 2))
    per_row = max(1, per_row)
    width = min(220, (HAND_MAX_WIDTH - HAND_GAP * (per_row + 1)) // per_row)
    return per_row, width


def hand_png(
    view: Mapping[str, Any], seat: int, lang: str, *, catalogue: Catalogue | None = None
) -> bytes:
    """The hand of ``seat`` from its own view, cards numbered 1..n in the view's order.
    Raises ValueError for a view without that seat's hand (another seat's view)."""
    players = view.get("players") or []
    if not 0 <= seat < len(players) or "hand" not in players[seat]:
        raise ValueError("hand_png needs the seat's own view (with its hand)")
    names = [str(entry.get("name", "?")) for entry in players[seat]["hand"]]
    title = _tr("hand.title", lang, count=len(names))
    return _png(_card_sheet(names, title, lang, catalogue or _builtin()))


def pack_png(names: Sequence[str], lang: str, *, catalogue: Catalogue | None = None) -> bytes:
    """A draft booster: its cards whole, numbered in the order of the pick list."""
    title = _tr("pack.title", lang, count=len(names))
    return _png(_card_sheet(list(names), title, lang, catalogue or _builtin()))


def _card_sheet(names: list[str], title: str, lang: str, cat: Catalogue) -> Image.Image:
    per_row, width = _hand_layout(len(names))
    rows = max(1, math.ceil(len(names) / per_row))
    card_h = round(width * CARD_RATIO)
    header = 44
    total_w = max(420, per_row * (width + HAND_GAP) + HAND_GAP)
    height = header + rows * (card_h + 34) + HAND_GAP
    image = Image.new("RGB", (total_w, height), PALETTE.background)
    draw = ImageDraw.Draw(image)
    _text(draw, (HAND_GAP + 4, 22), title, 20, GOLD, "bold")
    if not names:
        _text(draw, (HAND_GAP + 4, header + 30), _tr("hand.empty", lang), 16, PALETTE.muted)
    for index, name in enumerate(names):
        r, c = divmod(index, per_row)
        x = HAND_GAP + c * (width + HAND_GAP)
        y = header + r * (card_h + 34)
        _number(draw, (x + width / 2, y + 14), index + 1)
        image.paste(_card_face(name, lang, width, cat), (x, y + 30))
    return image


_FACES: OrderedDict[tuple[str, ...], Image.Image] = OrderedDict()
_FACES_LOCK = threading.Lock()  # hands are drawn in worker threads
FACES_KEPT = 400  # card faces kept for hands: a hand shows the same cards step after step


def _card_face(name: str, lang: str, width: int, cat: Catalogue) -> Image.Image:
    """A card as a hand shows it, on the background, drawn once per card, language and size
    (read only: it is pasted)."""
    known = cat.resolve(name)
    card = cat.support(known[1]) if known is not None and known[0] == "card" else None
    key = (name, lang, str(width), repr(known), repr(card))
    with _FACES_LOCK:
        face = _FACES.get(key)
        if face is not None:
            _FACES.move_to_end(key)
            return face
    face = Image.new("RGB", (width, round(width * CARD_RATIO)), PALETTE.background)
    draw_named_card(ImageDraw.Draw(face), 0, 0, width, name, lang, cat)
    with _FACES_LOCK:
        _FACES[key] = face
        while len(_FACES) > FACES_KEPT:
            _FACES.popitem(last=False)
    return face


def _number(draw: ImageDraw.ImageDraw, centre: tuple[float, float], number: int) -> None:
    x, y = centre
    draw.ellipse((x - 13, y - 13, x + 13, y + 13), fill=GOLD, outline="#111111")
    _text(draw, (x, y + 1), str(number), 15, INK, "bold", anchor="mm")


def _builtin() -> Catalogue:
    return catalogue()


# ------------------------------------------------------------------ field


FIELD_W = 1460
MARGIN = 14
BAND_H = 206
HERO_W = 250
EQUIP_W = 380
SLOT_GAP = 6
SLOT_W = (FIELD_W - 2 * MARGIN - 36 - HERO_W - EQUIP_W - 4 * SLOT_GAP) // 5
SLOT_H = 168
CHIP_H = 22


def _seat_name(seat: int, names: Sequence[str]) -> str:
    if seat < len(names) and names[seat]:
        return str(names[seat])
    return f"P{seat + 1}"


def _sides(view: Mapping[str, Any]) -> list[list[int]]:
    """The seats of each side, the viewer's side (the seat with a hand) last (at the bottom)."""
    players = view["players"]
    sides: dict[int, list[int]] = {}
    for seat, p in enumerate(players):
        sides.setdefault(int(p.get("team", seat)), []).append(seat)
    ordered = [sides[k] for k in sorted(sides)]
    viewer = next((s for s, p in enumerate(players) if "hand" in p), None)
    if viewer is not None:
        ordered.sort(key=lambda seats: viewer in seats)
    return ordered


def _card_of(entry: Mapping[str, Any], cat: Catalogue) -> Card | None:
    if entry.get("hidden") and "name" not in entry:
        return None
    return cat.support(str(entry.get("name", "")))


def _stack_lines(
    view: Mapping[str, Any], names: Sequence[str], lang: str, cat: Catalogue
) -> list[str]:
    """The declared actions, first declared first, in words."""
    owners: dict[str, tuple[int, str]] = {}
    for seat, p in enumerate(view["players"]):
        for zone in ("equip", "field", "row"):
            for entry in p.get(zone, []):
                card = _card_of(entry, cat)
                label = (card.name if lang == "de" else card.name_en) if card else "?"
                owners[str(entry["id"])] = (seat, label)
    lines = []
    for k, text in enumerate(view.get("stack") or []):
        lines.append(f"{k + 1}. " + _stack_line(str(text), owners, names, lang))
    return lines


def _stack_line(
    text: str, owners: Mapping[str, tuple[int, str]], names: Sequence[str], lang: str
) -> str:
    verb, *args = text.split()
    cards = [a for a in args if a in owners]
    seat = owners[cards[0]][0] if cards else -1
    player = _seat_name(seat, names) if seat >= 0 else "?"
    card = " + ".join(owners[c][1] for c in cards) or "?"
    target = next((a for a in args if a not in cards), None)
    if verb in ("react", "reveal", "play"):
        return _tr(f"stack.{verb}", lang, player=player, card=card)
    if verb == "hide":  # laid face down: never named
        return _tr("stack.hide", lang, player=player)
    if verb in ("arm", "move") and target is not None:
        where = _target_name(target, owners, names, lang)
        return _tr(f"stack.{verb}", lang, player=player, card=card, target=where)
    if verb in ("use", "dual") and target is None:
        return _tr("stack.use", lang, player=player, card=card)
    if verb in ("use", "dual") and target is not None:
        return _tr(
            "stack.use_target",
            lang,
            player=player,
            card=card,
            target=_target_name(target, owners, names, lang),
        )
    return _tr("stack.other", lang, player=player, action=text)


def _target_name(
    target: str, owners: Mapping[str, tuple[int, str]], names: Sequence[str], lang: str
) -> str:
    if target.startswith("h") and target[1:].isdigit():
        return _tr("stack.hero", lang, player=_seat_name(int(target[1:]), names))
    if target in owners:
        seat, label = owners[target]
        return f"{label} ({_seat_name(seat, names)})"
    return target


def _header_height(stack: Sequence[str], view: Mapping[str, Any]) -> int:
    extra = (len(stack) + 1) * 22 + 8 if stack else 0
    return 78 + extra + (22 if view.get("ask") is not None and not stack else 0)


def field_png(
    view: Mapping[str, Any],
    lang: str,
    *,
    names: Sequence[str],
    catalogue: Catalogue | None = None,
    show_own_hidden: bool = False,
) -> bytes:
    """The whole table from ``view``: each side in its panel (the viewer's side at the
    bottom), the round, the phase, who moves and the declared actions. Face-down cards show
    no name (``show_own_hidden``: the viewer's own face-down cards do, for a private image)."""
    return _png(
        draw_field(view, lang, names=names, catalogue=catalogue, show_own_hidden=show_own_hidden)
    )


def draw_field(
    view: Mapping[str, Any],
    lang: str,
    *,
    names: Sequence[str],
    catalogue: Catalogue | None = None,
    show_own_hidden: bool = False,
) -> Image.Image:
    cat = catalogue or _builtin()
    stack = _stack_lines(view, names, lang, cat)
    sides = _sides(view)
    header = _header_height(stack, view)
    teams = len(sides) > 1 and any(len(s) > 1 for s in sides)
    side_h = [len(seats) * BAND_H + (30 if teams else 0) + 10 for seats in sides]
    height = header + sum(side_h) + 12 * (len(sides) - 1) + 40 + MARGIN
    image = Image.new("RGB", (FIELD_W, height), PALETTE.background)
    draw = ImageDraw.Draw(image)
    _field_header(draw, view, names, lang, stack)
    y = header
    for seats, h in zip(sides, side_h, strict=True):
        _side_panel(
            draw,
            view,
            seats,
            (y, h),
            names,
            lang,
            cat,
            teams=teams,
            show_own_hidden=show_own_hidden,
        )
        y += h + 12
    footer = _tr("legend", lang)
    _text(draw, (MARGIN, y + 8), footer, 12, PALETTE.muted, limit=FIELD_W - 2 * MARGIN)
    return image


def _field_header(
    draw: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
    names: Sequence[str],
    lang: str,
    stack: Sequence[str],
) -> None:
    _text(draw, (MARGIN, 22), "Telperinquár", 24, GOLD, "bold")
    parts = [
        _tr(f"mode.{view.get('mode', 'duel')}", lang),
        _tr("round", lang, round=view.get("round", 1)),
        _tr(f"phase.{view.get('phase', 'main')}", lang),
    ]
    if view.get("over"):
        parts.append(_tr("over", lang) + ": " + _result(view, names, lang))
    else:
        parts.append(_tr("turn", lang, player=_seat_name(int(view.get("mover", 0)), names)))
    if view.get("svo"):
        parts.append(_tr("svo", lang))
    _text(draw, (210, 22), " · ".join(parts), 18, PALETTE.text, limit=FIELD_W - 230)
    order = " → ".join(_seat_name(int(s), names) for s in view.get("order") or [])
    if order:
        label = _tr("order", lang, order=order)
        _text(draw, (FIELD_W - MARGIN, 60), label, 13, PALETTE.muted, anchor="rm", limit=620)
    y = 50.0
    ask = view.get("ask")
    if stack:
        _text(draw, (MARGIN, y + 10), _tr("stack.title", lang), 15, GOLD, "bold")
        for line in stack:
            y += 22
            _text(draw, (MARGIN + 16, y + 10), line, 15, PALETTE.text, limit=FIELD_W - 60)
        y += 22
    if ask is not None:
        _text(
            draw,
            (MARGIN + 16, y + 10),
            _tr("stack.waiting", lang, player=_seat_name(int(ask), names)),
            15,
            GOLD,
        )


def _result(view: Mapping[str, Any], names: Sequence[str], lang: str) -> str:
    """Who won (the side with a hero standing), or a draw (the turn limit ended the game)."""
    standing = [s for s, p in enumerate(view["players"]) if not p.get("out")]
    sides = {int(view["players"][s].get("team", s)) for s in standing}
    if len(sides) != 1:
        return _tr("draw", lang)
    winners = ", ".join(_seat_name(s, names) for s, p in enumerate(view["players"])
                        if int(p.get("team", s)) in sides)  # fmt: skip
    return _tr("winners", lang, players=winners)


def _side_panel(
    draw: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
    seats: Sequence[int],
    area: tuple[float, float],
    names: Sequence[str],
    lang: str,
    cat: Catalogue,
    *,
    teams: bool,
    show_own_hidden: bool,
) -> None:
    y, h = area
    team = int(view["players"][seats[0]].get("team", 0))
    colour = TEAM_COLOURS[team % 2]
    draw.rounded_rectangle(
        (MARGIN - 6, y, FIELD_W - MARGIN + 6, y + h),
        radius=12,
        outline=colour,
        width=3,
        fill="#2f3136",
    )
    top = y + 6
    if teams:
        label = (
            _tr("team", lang, team=team + 1)
            + ": "
            + " · ".join(_seat_name(s, names) for s in seats)
        )
        _text(draw, (MARGIN + 6, y + 18), label, 16, colour, "bold", limit=FIELD_W - 60)
        top += 30
    for k, seat in enumerate(seats):
        _seat_band(
            draw, view, seat, top + k * BAND_H, names, lang, cat, show_own_hidden=show_own_hidden
        )


def _seat_band(
    draw: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
    seat: int,
    y: float,
    names: Sequence[str],
    lang: str,
    cat: Catalogue,
    *,
    show_own_hidden: bool,
) -> None:
    p = view["players"][seat]
    draw.rounded_rectangle((MARGIN, y, FIELD_W - MARGIN, y + BAND_H - 8), radius=8, fill=PANEL)
    _hero_box(draw, view, seat, (MARGIN + 8, y + 6), names, lang, cat)
    x = MARGIN + 8 + HERO_W + 10
    _equipment(draw, p, (x, y + 6), lang, cat)
    x += EQUIP_W + 10
    own = show_own_hidden and "hand" in p
    row = list(p.get("row") or [])
    label = _tr("wesen_row", lang, count=len(row))
    width = _text(draw, (x, y + 14), label, 12, PALETTE.muted, "bold")
    if not p.get("out"):
        exposed = _exposed(view, seat, cat)
        mark = " · " + _tr("exposed" if exposed else "protected", lang)
        _text(draw, (x + width, y + 14), mark, 12, RED if exposed else GREEN, "bold")
    _wesen_row(draw, view, seat, (x, y + 26), lang, cat, own=own)


def _exposed(view: Mapping[str, Any], seat: int, cat: Catalogue) -> bool:
    """Whether a melee attack may reach the seat's hero (RULES.md 'Threat range'): no
    visible, non-flying Wesen stands before it, or an enemy melee Wesen has none of them in
    its reach (the places beside its own), so the hero is its target."""

    def face_up(s: int) -> list[tuple[int, Card]]:
        row = view["players"][s].get("row") or []
        cards = [(i, _card_of(e, cat)) for i, e in enumerate(row) if not e.get("hidden")]
        return [(i, c) for i, c in cards if c is not None and c.type == "wesen"]

    def flies(card: Card) -> bool:
        return any(k.flies for k in keywords(card.get("abilities") or []))

    guards = face_up(seat)
    if not [c for _, c in guards if not flies(c)]:
        return True
    side = view["players"][seat].get("team", seat)
    for enemy, p in enumerate(view["players"]):
        if p.get("team", enemy) == side or p.get("out"):
            continue
        for place, card in face_up(enemy):
            if card.get("attack") not in ("melee", "melee_magic"):
                continue
            near = [c for i, c in guards if abs(i - place) <= 1 and (flies(card) or not flies(c))]
            if not near:
                return True
    return False


def _hero_box(
    draw: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
    seat: int,
    xy: tuple[float, float],
    names: Sequence[str],
    lang: str,
    cat: Catalogue,
) -> None:
    p = view["players"][seat]
    x, y = xy
    out = bool(p.get("out"))
    colour = TEAM_COLOURS[int(p.get("team", seat)) % 2] if not out else PALETTE.muted
    draw.rounded_rectangle(
        (x, y, x + HERO_W, y + BAND_H - 20), radius=8, fill="#26282c", outline=colour, width=2
    )
    classes = list(p.get("classes") or [])
    for k, cls in enumerate(classes):
        _class_badge(draw, (x + 20 + 26 * k, y + 22), cls, 12)
    name_x = x + 14 + 26 * len(classes)
    name = _seat_name(seat, names)
    room = x + HERO_W - name_x - 8
    size = fitting_size(name, room, 18, 13, "bold")
    _text(draw, (name_x, y + 22), name, size, colour, "bold", limit=room)
    lv = p.get("levels") or {}
    cls_line = " / ".join(
        f"{_hero_name(c, lang)} {_tr('level', lang, level=lv.get(c, 1))}" for c in classes
    )
    size = fitting_size(cls_line, HERO_W - 20, 14, 10, "regular")
    _text(draw, (x + 10, y + 48), cls_line, size, PALETTE.text, limit=HERO_W - 20)
    _life_bar(
        draw,
        (x + 10, y + 62, x + HERO_W - 10, y + 84),
        int(p.get("life", 0)),
        int(p.get("max_life", 1)),
        lang,
        out=bool(p.get("out")),
    )
    _text(draw, (x + 10, y + 98), _tr("actions", lang, count=p.get("actions", 0)), 14, GOLD, "bold")
    _text(
        draw,
        (x + 10, y + 118),
        _tr("defence", lang, armour=p.get("armour", 0), resistance=p.get("resistance", 0)),
        13,
        PALETTE.text,
        limit=HERO_W - 20,
    )
    piles = _tr(
        "piles",
        lang,
        hand=p.get("hand_count", 0),
        deck=p.get("deck_count", 0),
        discard=len(p.get("discard") or []),
    )
    _text(draw, (x + 10, y + 138), piles, 12, PALETTE.muted, limit=HERO_W - 20)
    _text(
        draw,
        (x + 10, y + 164),
        _status(view, seat, lang),
        14,
        _status_colour(view, seat),
        "bold",
        limit=HERO_W - 20,
    )


def _status(view: Mapping[str, Any], seat: int, lang: str) -> str:
    p = view["players"][seat]
    if p.get("out"):
        return "✗ " + _tr("fallen", lang)
    parts = []
    if not view.get("over") and int(view.get("mover", -1)) == seat:
        parts.append("▶ " + _tr("moving", lang))
    if view.get("ask") is not None and int(view["ask"]) == seat:
        parts.append(_tr("asked", lang))
    return " · ".join(parts)


def _status_colour(view: Mapping[str, Any], seat: int) -> str:
    if view["players"][seat].get("out"):
        return RED
    if not view.get("over") and int(view.get("mover", -1)) == seat:
        return GOLD
    return PALETTE.muted


def _hero_name(cls: str, lang: str) -> str:
    try:
        hero = hero_of(cls)
    except KeyError:  # a class this version does not know: its key, never a crash
        return cls
    return hero.name if lang == "de" else hero.name_en


def _life_bar(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    life: int,
    maximum: int,
    lang: str,
    *,
    out: bool = False,
) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=5, fill="#4a1f1f")
    share = max(0.0, min(1.0, life / maximum)) if maximum > 0 else 0.0
    if share > 0:
        fill = GREEN if share > 0.5 else ("#d9a53f" if share > 0.25 else RED)
        draw.rounded_rectangle((x0, y0, x0 + (x1 - x0) * share, y1), radius=5, fill=fill)
    draw_text(
        draw,
        ((x0 + x1) / 2, (y0 + y1) / 2 + 1),
        _tr("life", lang, life=max(life, 0), max=maximum)
        if life > 0 or out
        else _tr("life_down", lang),
        font(14, "bold"),
        "#ffffff",
        anchor="mm",
        stroke_width=2,
        stroke_fill="#1e1f22",
    )


def _equipment(
    draw: ImageDraw.ImageDraw,
    p: Mapping[str, Any],
    xy: tuple[float, float],
    lang: str,
    cat: Catalogue,
) -> None:
    """Equipment (left column) and the other cards in play (right column)."""
    x, y = xy
    widths = ((EQUIP_W - 8) * 0.54, (EQUIP_W - 8) * 0.46)  # equipment chips carry values
    equip = list(p.get("equip") or [])
    field = list(p.get("field") or [])
    _text(
        draw,
        (x, y + 9),
        _tr("equipment", lang, count=len(equip)),
        12,
        PALETTE.muted,
        "bold",
        limit=widths[0],
    )
    in_play = _tr("in_play", lang)
    _text(draw, (x + widths[0] + 8, y + 9), in_play, 12, PALETTE.muted, "bold", limit=widths[1])
    room = int((BAND_H - 46) // (CHIP_H + 3))
    for column, entries in ((0, equip), (1, field)):
        cx = x + column * (widths[0] + 8)
        shown = entries if len(entries) <= room else entries[: room - 1]
        for k, entry in enumerate(shown):
            _card_chip(draw, (cx, y + 22 + k * (CHIP_H + 3), widths[column]), entry, lang, cat)
        if len(shown) < len(entries):
            _text(
                draw,
                (cx + 6, y + 22 + len(shown) * (CHIP_H + 3) + CHIP_H / 2),
                _tr("more", lang, count=len(entries) - len(shown)),
                12,
                PALETTE.muted,
            )


def _chip_value(card: Card, lang: str) -> str:
    get = card.get
    if card.type == "weapon":
        return f"{int(get('bonus')):+d} {_tr('attack_short.' + str(get('attack')), lang)}"
    if card.type == "armour":
        return f"{get('armour')}/{get('resistance')}"
    if card.type == "shield":
        return f"{int(get('armour')):+d}"
    return ""


def _charges(left: int) -> str:
    """Charges left as dots (more than three: a dot and the number; none: a ring)."""
    if left <= 0:
        return "○"
    return "●" * left if left <= 3 else f"●{left}"


def _card_chip(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float],
    entry: Mapping[str, Any],
    lang: str,
    cat: Catalogue,
) -> None:
    """A card in play as a coloured strip: name, its value, charges and the InAktion mark."""
    x, y, width = box
    card = _card_of(entry, cat)
    kind = card.type if card else str(entry.get("type", "unknown"))
    used = bool(entry.get("inaktion"))
    draw.rounded_rectangle(
        (x, y, x + width, y + CHIP_H),
        radius=5,
        fill=TYPE_COLOURS.get(kind, "#666666") if not used else "#55504a",
        outline="#111111",
    )
    right = x + width - 5
    marks = []
    if used:
        marks.append("↺")
    if card and card.charges:
        marks.append(_charges(int(entry.get("charges", card.charges))))
    value = _chip_value(card, lang) if card else ""
    tail = " ".join(filter(None, [value, *marks]))
    if tail:
        right -= (
            _text(draw, (right, y + CHIP_H / 2 + 1), tail, 12, "#ffffff", "bold", anchor="rm") + 6
        )
    if card and card.defensive:
        _shield(draw, x + 4, y + 4, 14, "#3b82c4")
        x += 14
    name = (card.name if lang == "de" else card.name_en) if card else str(entry.get("name", "?"))
    size = fitting_size(name, right - x - 8, 12, 8, "regular")
    colour = "#ffffff" if not used else "#d0ccc4"
    _text(draw, (x + 6, y + CHIP_H / 2 + 1), name, size, colour, limit=right - x - 8)


def _wesen_row(
    draw: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
    seat: int,
    xy: tuple[float, float],
    lang: str,
    cat: Catalogue,
    *,
    own: bool,
) -> None:
    x, y = xy
    row = list(view["players"][seat].get("row") or [])
    for place in range(5):
        sx = x + place * (SLOT_W + SLOT_GAP)
        box = (sx, y, sx + SLOT_W, y + SLOT_H)
        if place >= len(row):
            draw.rounded_rectangle(box, radius=8, outline="#4e5058", width=2)
            _text(
                draw,
                (sx + SLOT_W / 2, y + SLOT_H / 2),
                f"{place + 1} · " + _tr("empty_place", lang),
                13,
                "#6d6f78",
                anchor="mm",
            )
            continue
        entry = row[place]
        if entry.get("hidden"):
            _card_back(draw, box, place, lang, entry if own else None, cat)
        else:
            _wesen_card(draw, box, place, entry, view, lang, cat)


def _card_back(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    place: int,
    lang: str,
    entry: Mapping[str, Any] | None,
    cat: Catalogue,
) -> None:
    """A face-down card; ``entry`` (the owner's own private image only) adds its name."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=8, fill="#3a2d4f", outline="#9d87c9", width=2)
    for k in range(int(x0) - int(y1 - y0), int(x1), 14):
        draw.line(
            [
                (max(x0 + 3, k), y0 + 3 + max(0, x0 + 3 - k)),
                (min(x1 - 3, k + (y1 - y0)), y1 - 3 - max(0, k + (y1 - y0) - x1 + 3)),
            ],
            fill="#4a3b63",
            width=3,
        )
    cx = (x0 + x1) / 2
    draw.ellipse((cx - 22, y0 + 52, cx + 22, y0 + 96), fill="#2b2140", outline="#9d87c9")
    _text(draw, (cx, y0 + 75), "?", 28, "#c9b8ec", "bold", anchor="mm")
    _text(draw, (x0 + 8, y0 + 14), str(place + 1), 14, "#c9b8ec", "bold")
    _text(draw, (cx, y1 - 40), _tr("hidden", lang), 13, "#c9b8ec", "bold", anchor="mm")
    card = _card_of(entry, cat) if entry is not None else None
    if card is not None:
        label = card.name if lang == "de" else card.name_en
        _text(draw, (cx, y1 - 20), label, 12, "#ffffff", anchor="mm", limit=x1 - x0 - 10)


def _threat(view: Mapping[str, Any], place: int, card: Card, lang: str) -> str:
    """The enemy places a Wesen reaches in melee (RULES.md 'Threat range')."""
    if card.get("attack") not in ("melee", "melee_magic"):
        return _tr("ranged_only", lang)
    first, last = max(1, place), min(5, place + 2)
    if first == last:
        return _tr("threat_one", lang, first=first)
    return _tr("threat", lang, first=first, last=last)


def _wesen_card(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    place: int,
    entry: Mapping[str, Any],
    view: Mapping[str, Any],
    lang: str,
    cat: Catalogue,
) -> None:
    x0, y0, x1, y1 = box
    card = _card_of(entry, cat)
    if card is None:
        draw.rounded_rectangle(box, radius=8, fill=TYPE_COLOURS["unknown"])
        _text(
            draw,
            (x0 + 8, y0 + 14),
            str(entry.get("name", "?")),
            12,
            "#ffffff",
            "bold",
            limit=x1 - x0 - 12,
        )
        return
    used = bool(entry.get("inaktion"))
    draw.rounded_rectangle(
        box,
        radius=8,
        fill=TYPE_COLOURS.get(card.type, "#666666"),
        outline=GOLD if not used else "#777777",
        width=2,
    )
    inner = (x0 + 4, y0 + 24, x1 - 4, y1 - 4)
    draw.rounded_rectangle(inner, radius=6, fill=PARCHMENT if not used else "#cfc6b3")
    _text(draw, (x0 + 8, y0 + 13), str(place + 1), 13, GOLD, "bold")
    name = card.name if lang == "de" else card.name_en
    room = x1 - x0 - (44 if used else 28)  # the InAktion mark keeps its own corner
    size = fitting_size(name, room, 13, 10, "bold")
    _text(draw, (x0 + 22, y0 + 13), name, size, "#ffffff", "bold", limit=room)
    if card.type == "wesen":
        _wesen_values(draw, inner, place, entry, card, view, lang)
    else:  # a revealed trap before it resolves
        _text(draw, (x0 + 8, y0 + 40), _tr(f"type.{card.type}", lang), 12, INK, "bold")
    if entry.get("wounded"):
        _wounded_band(draw, box, lang)
    if used:
        _text(draw, (x1 - 8, y0 + 13), "↺", 15, "#ffffff", "bold", anchor="rm")


def _wesen_values(
    draw: ImageDraw.ImageDraw,
    inner: tuple[float, float, float, float],
    place: int,
    entry: Mapping[str, Any],
    card: Card,
    view: Mapping[str, Any],
    lang: str,
) -> None:
    x0, y0, x1, _ = inner
    life = int(card.get("life"))
    dmg = int(entry.get("dmg", 0))
    x = x0 + 4
    x += _text(draw, (x, y0 + 12), f"♥ {life}", 14, INK, "bold") + 6
    if dmg:
        label = _tr("damage", lang, amount=dmg)
        size = fitting_size(label, x1 - x - 3, 12, 9, "bold")
        _text(draw, (x, y0 + 12), label, size, RED, "bold", limit=x1 - x - 3)
    attack = f"{int(card.get('bonus')):+d} {_tr('attack_short.' + str(card.get('attack')), lang)}"
    _text(draw, (x0 + 4, y0 + 32), attack, 13, INK, "bold", limit=x1 - x0 - 8)
    armour = f"{_tr('stat.armour', lang)} {card.get('armour')} · {_tr('stat.resistance', lang)[:3]}"
    _text(
        draw,
        (x0 + 4, y0 + 51),
        f"{armour} {card.get('resistance')}",
        12,
        INK_SOFT,
        limit=x1 - x0 - 8,
    )
    abilities = [_tr(f"ability.{a}", lang) for a in card.get("abilities") or []]
    line_y = y0 + 70
    for ability in abilities[:2]:
        size = fitting_size(ability, x1 - x0 - 8, 11, 9, "bold")
        _text(draw, (x0 + 4, line_y), ability, size, "#2f4f7f", "bold", limit=x1 - x0 - 8)
        line_y += 15
    if len(abilities) > 2:
        _text(draw, (x0 + 4, line_y), _tr("more", lang, count=len(abilities) - 2), 11, INK_SOFT)
    if card.charges:
        _text(
            draw,
            (x1 - 4, y0 + 32),
            _charges(int(entry.get("charges", card.charges))),
            12,
            INK,
            anchor="rm",
        )
    _text(
        draw,
        (x0 + 4, inner[3] - 12),
        _threat(view, place, card, lang),
        12,
        "#8a3b3b",
        "bold",
        limit=x1 - x0 - 8,
    )


def _wounded_band(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], lang: str
) -> None:
    x0, _, x1, y1 = box
    band = (x0 + 2, y1 - 50, x1 - 2, y1 - 32)
    draw.rectangle(band, fill=RED)
    _text(
        draw,
        ((x0 + x1) / 2, (band[1] + band[3]) / 2 + 1),
        "✚ " + _tr("wounded", lang),
        12,
        "#ffffff",
        "bold",
        anchor="mm",
    )


# ------------------------------------------------------------------ deck


DECK_W = 1100


def _deck_cards(
    entries: Mapping[str, int], cat: Catalogue
) -> tuple[list[tuple[Card, int]], list[str], int, int]:
    """(support cards with counts, hero classes, level card count, unknown card count)."""
    support: list[tuple[Card, int]] = []
    hero_classes: list[str] = []
    level_count = unknown = 0
    for name, count in entries.items():
        known = cat.resolve(name)
        if known is None:
            unknown += count
        elif known[0] == "hero":
            hero_classes += [known[1]] * count
        elif known[0] == "level":
            level_count += count
        else:
            card = cat.support(known[1])
            if card is not None:
                support.append((card, count))
    return support, hero_classes, level_count, unknown


def deck_png(
    entries: Mapping[str, int], lang: str, *, title: str, catalogue: Catalogue | None = None
) -> bytes:
    """A deck's summary: count and legality, hero and level cards, the cost curve, the card
    types, the attribute needs and the list of cards."""
    cat = catalogue or _builtin()
    counts = {name: int(n) for name, n in entries.items() if int(n) > 0}
    support, hero_classes, level_count, _ = _deck_cards(counts, cat)
    info = validate(counts, cat)
    listed = sorted(counts.items(), key=lambda kv: _list_order(kv[0], cat, lang))
    list_rows = math.ceil(len(listed) / 3)
    problems = [_problem_text(p, lang, cat) for p in info.problems]
    height = 120 + 22 * len(problems[:8]) + 250 + 40 + 22 * list_rows + MARGIN
    image = Image.new("RGB", (DECK_W, height), PALETTE.background)
    draw = ImageDraw.Draw(image)
    y = _deck_header(draw, title, counts, hero_classes, level_count, info.legal, problems, lang)
    _curve(draw, (MARGIN, y, 380, 230), support, lang)
    _types(draw, (MARGIN + 400, y, 300, 230), support, lang)
    _attributes(
        draw, (MARGIN + 720, y, DECK_W - 2 * MARGIN - 720, 230), support, hero_classes, lang
    )
    y += 250
    _deck_list(draw, y, listed, lang, cat)
    return _png(image)


def _problem_text(item: Problem, lang: str, cat: Catalogue) -> str:
    """A validation problem in words, its card names in ``lang``."""
    params = dict(item.kwargs)
    known = cat.resolve(str(params.get("name", "")))
    if known is not None:
        params["name"] = _display_name(str(params["name"]), known, cat, lang)
    return t(item.key, lang, **params)


def _list_order(name: str, cat: Catalogue, lang: str) -> tuple[int, int, str]:
    known = cat.resolve(name)
    kind = known[0] if known else "unknown"
    card = cat.support(known[1]) if known and kind == "card" else None
    type_rank = list(TYPE_COLOURS).index(card.type) if card else 0
    return ({"hero": 0, "level": 1, "card": 2}.get(kind, 3), type_rank, name.casefold())


def _deck_header(
    draw: ImageDraw.ImageDraw,
    title: str,
    counts: Mapping[str, int],
    hero_classes: Sequence[str],
    level_count: int,
    legal: bool,
    problems: Sequence[str],
    lang: str,
) -> float:
    _text(draw, (MARGIN, 24), title, 24, GOLD, "bold", limit=DECK_W - 380)
    total = sum(counts.values())
    mark = _tr("deck.legal" if legal else "deck.illegal", lang)
    right = float(DECK_W - MARGIN)
    right -= _text(draw, (right, 24), mark, 18, GREEN if legal else RED, "bold", anchor="rm")
    _text(
        draw, (right - 16, 24), _tr("deck.cards", lang, count=total), 18, PALETTE.text, anchor="rm"
    )
    x = float(MARGIN)
    for k, cls in enumerate(dict.fromkeys(hero_classes)):
        _class_badge(draw, (x + 12 + 28 * k, 62), cls, 12)
    x += 28 * len(set(hero_classes)) + 6
    who = ", ".join(_hero_name(c, lang) for c in hero_classes) or _tr("deck.none", lang)
    line = (
        _tr("deck.heroes", lang, heroes=who) + " · " + _tr("deck.levels", lang, count=level_count)
    )
    _text(draw, (x, 62), line, 16, PALETTE.text, limit=DECK_W - x - MARGIN)
    y = 92.0
    for problem in problems[:8]:
        _text(draw, (MARGIN + 8, y), "✗ " + problem, 14, RED, limit=DECK_W - 3 * MARGIN)
        y += 22
    if len(problems) > 8:
        _text(draw, (MARGIN + 8, y), _tr("more", lang, count=len(problems) - 8), 14, RED)
    return 100 + 22 * len(problems[:8]) + 10


def _panel(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], title: str) -> None:
    x, y, w, h = box
    draw.rounded_rectangle((x, y, x + w, y + h), radius=10, fill=PANEL)
    _text(draw, (x + 12, y + 16), title, 15, GOLD, "bold", limit=w - 20)


def _curve(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    support: Sequence[tuple[Card, int]],
    lang: str,
) -> None:
    """Bars of the play costs 0..7+ (each bar stacked by the cards' type colour)."""
    x, y, w, h = box
    _panel(draw, box, _tr("deck.curve", lang))
    buckets: list[Counter[str]] = [Counter() for _ in range(8)]
    for card, count in support:
        buckets[min(7, card.play)][card.type] += count
    tallest = max((sum(b.values()) for b in buckets), default=0) or 1
    bar_w = (w - 40) / 8
    base = y + h - 28
    scale = (h - 80) / tallest
    for k, bucket in enumerate(buckets):
        bx = x + 20 + k * bar_w
        top = base
        for kind in TYPE_COLOURS:
            if bucket[kind]:
                draw.rectangle(
                    (bx + 4, top - bucket[kind] * scale, bx + bar_w - 4, top),
                    fill=TYPE_COLOURS[kind],
                )
                top -= bucket[kind] * scale
        total = sum(bucket.values())
        if total:
            _text(
                draw, (bx + bar_w / 2, top - 10), str(total), 13, PALETTE.text, "bold", anchor="mm"
            )
        label = f"{k}+" if k == 7 else str(k)
        _text(draw, (bx + bar_w / 2, base + 13), label, 13, PALETTE.muted, anchor="mm")


def _types(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    support: Sequence[tuple[Card, int]],
    lang: str,
) -> None:
    x, y, w, h = box
    _panel(draw, box, _tr("deck.types", lang))
    by_type: Counter[str] = Counter()
    for card, count in support:
        by_type[card.type] += count
    most = max(by_type.values(), default=0) or 1
    row_y = y + 38
    step = min(21.0, (h - 44) / max(1, len(by_type)))
    label_w = 110
    for kind, count in sorted(by_type.items(), key=lambda kv: (-kv[1], kv[0])):
        _text(
            draw,
            (x + 12, row_y + 8),
            _tr(f"type.{kind}", lang),
            13,
            PALETTE.text,
            limit=label_w - 6,
        )
        bar = (w - label_w - 50) * count / most
        draw.rounded_rectangle(
            (x + label_w, row_y + 1, x + label_w + max(4, bar), row_y + 15),
            radius=4,
            fill=TYPE_COLOURS[kind],
        )
        _text(draw, (x + label_w + bar + 8, row_y + 8), str(count), 13, PALETTE.text, "bold")
        row_y += step


def _attributes(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    support: Sequence[tuple[Card, int]],
    classes: Sequence[str],
    lang: str,
) -> None:
    """Per attribute: how many cards need it, the highest value needed and the level at
    which the deck's hero first has it."""
    x, y, w, h = box
    _panel(draw, box, _tr("deck.attributes", lang))
    row_y = y + 52
    for attr in ATTRIBUTES:
        needs = [(card.requires[attr], count) for card, count in support if attr in card.requires]
        cards = sum(count for _, count in needs)
        highest = max((value for value, _ in needs), default=0)
        _chip(draw, x + 12, row_y - 10, _tr(f"attr.{attr}", lang), 13, ATTRIBUTE_COLOURS[attr])
        value = _tr("deck.attribute_line", lang, count=cards, max=highest) if cards else "—"
        _text(draw, (x + w - 14, row_y), value, 15, PALETTE.text, "bold", anchor="rm")
        reached = _level_reaching(classes, attr, highest) if cards else None
        if cards and classes:
            note = (_tr("deck.from_level", lang, level=reached) if reached is not None
                    else _tr("deck.never", lang))  # fmt: skip
            colour = PALETTE.muted if reached is not None else RED
            _text(draw, (x + w - 14, row_y + 18), note, 12, colour, anchor="rm")
        row_y += (h - 60) / len(ATTRIBUTES)


def _level_reaching(classes: Sequence[str], attr: str, value: int) -> int | None:
    """The first level at which one of ``classes`` has ``attr`` of at least ``value``."""
    found = [row.level for cls in classes for row in _rows_of(cls) if row.attribute(attr) >= value]
    return min(found, default=None)


def _rows_of(cls: str) -> tuple[Level, ...]:
    try:
        return level_rows(cls)
    except KeyError:
        return ()


def _deck_list(
    draw: ImageDraw.ImageDraw,
    y: float,
    listed: Sequence[tuple[str, int]],
    lang: str,
    cat: Catalogue,
) -> None:
    _text(draw, (MARGIN, y + 10), _tr("deck.list", lang), 15, GOLD, "bold")
    col_w = (DECK_W - 2 * MARGIN) / 3
    rows = math.ceil(len(listed) / 3) or 1
    for k, (name, count) in enumerate(listed):
        col, row = divmod(k, rows)
        cx, cy = MARGIN + col * col_w, y + 34 + row * 22
        known = cat.resolve(name)
        kind = known[0] if known else "unknown"
        card = cat.support(known[1]) if known and kind == "card" else None
        colour = TYPE_COLOURS[card.type if card else kind if kind != "card" else "unknown"]
        draw.rounded_rectangle((cx, cy - 8, cx + 8, cy + 8), radius=2, fill=colour)
        label = _display_name(name, known, cat, lang)
        cost = f"  {card.play}/{card.use}" if card else ""
        _text(draw, (cx + 14, cy), f"{count}× {label}{cost}", 14, PALETTE.text, limit=col_w - 24)


def _display_name(name: str, known: tuple[str, str, str] | None, cat: Catalogue, lang: str) -> str:
    if known is None:
        return f"{name} ({_tr('deck.unknown', lang)})"
    kind, key, _ = known
    if kind == "hero":
        return _hero_name(key, lang)
    if kind == "level":
        return level_card_name(key, lang)
    card = cat.support(key)
    return (card.name if lang == "de" else card.name_en) if card else name


__all__ = [
    "card_png",
    "deck_png",
    "draw_card",
    "draw_field",
    "field_png",
    "hand_png",
    "hero_card_png",
    "level_card_png",
    "named_card_png",
]
