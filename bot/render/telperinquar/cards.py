"""Telperinquár card faces: support, hero, level and unknown cards, their badges, marks,
rules text and keyword legend, and the single-card images."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.render.base import (
    PALETTE,
    block_leading,
    draw_text,
    fit_block,
    fitting_size,
    font,
    text_length,
    wrap_text,
)
from bot.render.telperinquar.common import (
    ATTRIBUTE_COLOURS,
    CARD_RATIO,
    CARD_W,
    CLASS_COLOURS,
    CLASS_GLYPHS,
    GOLD,
    INK,
    INK_SOFT,
    PARCHMENT,
    TYPE_COLOURS,
    _builtin,
    _png,
    _text,
    _tr,
)
from engines.telperinquar.cards import (
    ATTRIBUTES,
    Card,
    Catalogue,
    hero_of,
    level_card_name,
    level_rows,
)


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
