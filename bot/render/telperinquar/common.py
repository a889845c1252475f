"""The colours, sizes and text helpers every Telperinquár image shares."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.render.base import PALETTE, draw_text, ellipsize, font, palette_png, text_length
from engines.telperinquar.cards import DRAFT, Catalogue, catalogue

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


def _builtin() -> Catalogue:
    return catalogue()
