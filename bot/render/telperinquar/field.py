"""The Telperinquár field: each side's panel, one band per seat (hero, equipment, cards in
play, the Wesen row) and the header with the round, the phase and the stack."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from bot.render.base import PALETTE, draw_text, fitting_size, font
from bot.render.telperinquar.cards import _class_badge, _shield
from bot.render.telperinquar.common import (
    GOLD,
    GREEN,
    INK,
    INK_SOFT,
    PANEL,
    PARCHMENT,
    RED,
    TEAM_COLOURS,
    TYPE_COLOURS,
    _builtin,
    _png,
    _text,
    _tr,
)
from engines.telperinquar.cards import Card, Catalogue, hero_of
from engines.telperinquar.keywords import keywords

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
