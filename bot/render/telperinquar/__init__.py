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

from bot.render.telperinquar.cards import (
    card_png,
    draw_card,
    draw_hero_card,
    draw_level_card,
    draw_named_card,
    draw_unknown_card,
    hero_card_png,
    level_card_png,
    named_card_png,
)
from bot.render.telperinquar.common import (
    ATTRIBUTE_COLOURS,
    CARD_RATIO,
    CARD_W,
    CLASS_COLOURS,
    CLASS_GLYPHS,
    GOLD,
    GREEN,
    INK,
    INK_SOFT,
    PALETTE_COLOURS,
    PANEL,
    PARCHMENT,
    RED,
    TEAM_COLOURS,
    TYPE_COLOURS,
)
from bot.render.telperinquar.deck import DECK_W, deck_png
from bot.render.telperinquar.field import (
    BAND_H,
    CHIP_H,
    EQUIP_W,
    FIELD_W,
    HERO_W,
    MARGIN,
    SLOT_GAP,
    SLOT_H,
    SLOT_W,
    draw_field,
    field_png,
)
from bot.render.telperinquar.hand import FACES_KEPT, HAND_GAP, HAND_MAX_WIDTH, hand_png, pack_png

__all__ = [
    "ATTRIBUTE_COLOURS",
    "BAND_H",
    "CARD_RATIO",
    "CARD_W",
    "CHIP_H",
    "CLASS_COLOURS",
    "CLASS_GLYPHS",
    "DECK_W",
    "EQUIP_W",
    "FACES_KEPT",
    "FIELD_W",
    "GOLD",
    "GREEN",
    "HAND_GAP",
    "HAND_MAX_WIDTH",
    "HERO_W",
    "INK",
    "INK_SOFT",
    "MARGIN",
    "PALETTE_COLOURS",
    "PANEL",
    "PARCHMENT",
    "RED",
    "SLOT_GAP",
    "SLOT_H",
    "SLOT_W",
    "TEAM_COLOURS",
    "TYPE_COLOURS",
    "card_png",
    "deck_png",
    "draw_card",
    "draw_field",
    "draw_hero_card",
    "draw_level_card",
    "draw_named_card",
    "draw_unknown_card",
    "field_png",
    "hand_png",
    "hero_card_png",
    "level_card_png",
    "named_card_png",
    "pack_png",
]
