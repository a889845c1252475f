"""Telperinquár card sheets: a seat's hand and a draft booster, cards numbered, faces cached."""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from bot.render.base import PALETTE
from bot.render.telperinquar.cards import draw_named_card
from bot.render.telperinquar.common import CARD_RATIO, GOLD, INK, _builtin, _png, _text, _tr
from engines.telperinquar.cards import Catalogue

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
