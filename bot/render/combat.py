"""The W6 combat status as an image: the AB order, one row per fighter with an LP bar, the KW
and Handlungen left, conditions, and whose turn it is (issue 10).

Drawn from a view (``W6Combat.view_for``): a row with values (the GM's view, a player's own
fighter) shows LP, KW and Handlungen as numbers and bars; an NPC in a player's view only its
LP bar in tenths (``lp_bar``) and its LP in words. Every word comes translated in
:class:`CombatImageText`; text is drawn through ``draw_text`` only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import ImageDraw

from bot.render.base import PALETTE, draw_text, ellipsize, font, new_canvas, png_bytes

WIDTH = 960
HEADER = 64
ROW = 56
MARGIN = 16
NAME_W = 300
BAR_W = 220
COLUMN_KW = NAME_W + BAR_W + 56
COLUMN_H = COLUMN_KW + 140
DOWN_COLOUR = "#6d6f78"
TURN_COLOUR = "#3f4147"


@dataclass(frozen=True)
class CombatImageText:
    """The words of the image in the reader's language: the title, the column heads, each
    fighter's LP in words (NPCs in a player's view), conditions and the 'to act' line."""

    title: str
    lp: str
    kw: str
    handlungen: str
    footer: str
    lp_words: Mapping[str, str]  # fighter id → LP in words, for rows without values
    conditions: Mapping[str, str]  # fighter id → conditions in words ("" for none)


def render_combat(view: Mapping[str, Any], text: CombatImageText) -> bytes:
    """The PNG of ``view`` with ``text``."""
    fighters: Sequence[Mapping[str, Any]] = view["fighters"]
    height = HEADER + ROW * max(1, len(fighters)) + 44
    image = new_canvas(WIDTH, height)
    draw = ImageDraw.Draw(image)
    draw_text(draw, (MARGIN, 20), text.title, font(26, "bold"), PALETTE.text)
    heads = font(16)
    draw_text(draw, (NAME_W + MARGIN, 44), text.lp, heads, PALETTE.muted)
    draw_text(draw, (COLUMN_KW, 44), text.kw, heads, PALETTE.muted)
    draw_text(draw, (COLUMN_H, 44), text.handlungen, heads, PALETTE.muted)
    for index, row in enumerate(fighters):
        _row(draw, HEADER + index * ROW, row, text)
    draw_text(draw, (MARGIN, height - 32), text.footer, font(18), PALETTE.muted)
    return png_bytes(image)


def _down(row: Mapping[str, Any]) -> bool:
    if any(c in ("bewusstlos", "sterbend") for c in row["conditions"]) or row.get("down"):
        return True
    return bool(row["lp"] <= 0) if "lp" in row else row.get("lp_state") == "sterbend"


def _row(
    draw: ImageDraw.ImageDraw, top: int, row: Mapping[str, Any], text: CombatImageText
) -> None:
    down = _down(row)
    if row["is_turn"]:
        draw.rectangle((0, top, WIDTH, top + ROW - 4), fill=TURN_COLOUR)
        draw.rectangle((0, top, 6, top + ROW - 4), fill=PALETTE.highlight)
    colour = DOWN_COLOUR if down else PALETTE.text
    mark = "✖" if down else ("▶" if row["is_turn"] else ("✋" if row["may_act"] else "•"))
    draw_text(draw, (MARGIN, top + 6), mark, font(20, "bold"), colour)
    name = ellipsize(str(row["name"]), font(22, "bold"), NAME_W - 52)
    draw_text(draw, (MARGIN + 30, top + 4), name, font(22, "bold"), colour)
    conditions = text.conditions.get(str(row["id"]), "")
    if conditions:
        small = ellipsize(conditions, font(15), NAME_W - 52)
        draw_text(draw, (MARGIN + 30, top + 31), small, font(15), PALETTE.failure if down
                  else PALETTE.muted)  # fmt: skip
    left = NAME_W + MARGIN
    if "lp" in row:
        share = max(0.0, min(1.0, row["lp"] / row["lp_max"])) if row["lp_max"] else 0.0
        label = f"{row['lp']}/{row['lp_max']}"
    else:
        share = max(0, min(10, int(row.get("lp_bar", 0)))) / 10
        label = text.lp_words.get(str(row["id"]), "")
    _bar(draw, left, top + 8, share, down)
    small_face = font(15)
    draw_text(draw, (left + 6, top + 31), ellipsize(label, small_face, BAR_W), small_face,
              PALETTE.muted)  # fmt: skip
    if "kw_left" in row:
        kw = f"{row['kw_left']}/{row['kw_phase']}"
        draw_text(draw, (COLUMN_KW, top + 10), kw, font(22), colour)
        _pips(draw, COLUMN_H, top + 14, row["handlungen_left"], row["handlungen_max"], down)


def _bar(draw: ImageDraw.ImageDraw, left: int, top: int, share: float, down: bool) -> None:
    draw.rounded_rectangle((left, top, left + BAR_W, top + 18), 5, fill="#1e1f22")
    if share > 0:
        fill = (
            PALETTE.success
            if share > 0.5
            else PALETTE.highlight
            if share > 0.25
            else (PALETTE.failure)
        )
        draw.rounded_rectangle(
            (left, top, left + max(10, int(BAR_W * share)), top + 18),
            5,
            fill=DOWN_COLOUR if down else fill,
        )


def _pips(draw: ImageDraw.ImageDraw, left: int, top: int, now: int, most: int, down: bool) -> None:
    """Handlungen left as filled circles out of the most (at most 12 drawn, then a number)."""
    if most > 12:
        draw_text(draw, (left, top - 4), f"{now}/{most}", font(22), PALETTE.text)
        return
    for i in range(most):
        x = left + i * 22
        filled = i < now and not down
        draw.ellipse((x, top, x + 16, top + 16), fill=PALETTE.player_b if filled else None,
                     outline=PALETTE.muted, width=2)  # fmt: skip
