"""A Telperinquár deck summary: count and legality, cost curve, card types, attribute needs
and the list of cards."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.render.base import PALETTE
from bot.render.telperinquar.cards import _chip, _class_badge
from bot.render.telperinquar.common import (
    ATTRIBUTE_COLOURS,
    GOLD,
    GREEN,
    PANEL,
    RED,
    TYPE_COLOURS,
    _builtin,
    _png,
    _text,
    _tr,
)
from bot.render.telperinquar.field import MARGIN, _hero_name
from engines.telperinquar.cards import (
    ATTRIBUTES,
    Card,
    Catalogue,
    Level,
    level_card_name,
    level_rows,
)
from engines.telperinquar.decks import Problem, validate

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
