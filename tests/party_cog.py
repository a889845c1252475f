"""A test-only cog for the N-seat party engine (``tests/party.py``): what a new game writes to
get the whole Discord life cycle of ``bot.play`` — its engine name, a renderer, its words
(narration, click labels, the private hand) and its setup choice — and nothing else: no
component code, no invitation, bot, idle, rematch or export logic of its own.

Registered only by the fixture of ``tests/cog/test_play_table.py`` (never by the real bot).
Its texts are plain test strings (German and English) rather than catalog entries.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from PIL import ImageDraw

from bot.play.spec import BoardContext, GameSpec, Option, Steps
from bot.play.table import GameTable
from bot.render.base import draw_text, font, new_canvas, png_bytes
from bot.workers import render_async
from engines.core import Outcome
from tests.party import COLOURS, PARTY

WORDS = {
    "de": {
        "title": "Schatzkammer #{id}",
        "played": "{name} spielt {card} offen aus.",
        "added": "{name} legt {card} verdeckt zum eigenen Schatz.",
        "passed": "{name} passt.",
        "left": "{name} verlässt die Schatzkammer.",
        "hand": "Deine Hand: {hand} · dein Schatz: {treasure}",
        "points": "nach Punkten",
        "last_side": "als letzte Seite",
        "tie": "Gleichstand.",
        "play": "Offen ausspielen",
        "add": "Verdeckt ablegen",
        "pass": "Passen",
        "red": "Rot",
        "blue": "Blau",
        "green": "Grün",
        "gold": "Gold",
    },
    "en": {
        "title": "Treasury #{id}",
        "played": "{name} plays {card} face up.",
        "added": "{name} lays {card} face down to their treasure.",
        "passed": "{name} passes.",
        "left": "{name} leaves the treasury.",
        "hand": "Your hand: {hand} · your treasure: {treasure}",
        "points": "on points",
        "last_side": "as the last side",
        "tie": "A tie.",
        "play": "Play face up",
        "add": "Lay face down",
        "pass": "Pass",
        "red": "Red",
        "blue": "Blue",
        "green": "Green",
        "gold": "Gold",
    },
}


def word(key: str, lang: str, **params: Any) -> str:
    return WORDS.get(lang, WORDS["de"])[key].format(**params)


def _draw(view: Mapping[str, Any]) -> bytes:
    image = new_canvas(320, 120)
    draw = ImageDraw.Draw(image)
    table = " ".join(card for _seat, card in view["table"]) or "—"
    draw_text(draw, (10, 10), f"Tisch: {table}", font(14), "#202020")
    sizes = " / ".join(str(n) for n in view["hand_sizes"])
    draw_text(draw, (10, 40), f"Karten: {sizes}", font(14), "#202020")
    return png_bytes(image)


class PartySpec(GameSpec):
    kind = PARTY.name
    prefix = "party"
    private_view = True
    default_level = "random"

    def setup_choices(self, lang: str) -> list[tuple[str, str]]:
        return [(colour, word(colour, lang)) for colour in COLOURS]

    async def render(self, view: Mapping[str, Any], ctx: BoardContext) -> bytes | None:
        return await render_async(_draw, view)

    def narrate(self, steps: Steps, ctx: BoardContext) -> list[str]:
        lines = []
        for actor, event in steps.items:
            if event.type in WORDS["de"]:
                name = ctx.names[int(event.data.get("player", actor))]
                lines.append(word(event.type, ctx.lang, **{**event.data, "name": name}))
            else:  # resign, draw votes, forfeits: the shared words
                lines += super().narrate(Steps([(actor, event)]), ctx)
        return lines

    def outcome_text(self, outcome: Outcome, ctx: BoardContext) -> str:
        if outcome.reason in ("points", "tie", "last_side"):
            if outcome.is_draw:
                return word("tie", ctx.lang)
            names = [ctx.names[s] for s in sorted(outcome.winners)]
            return self.won_text(names, word(outcome.reason, ctx.lang), ctx.lang)
        return super().outcome_text(outcome, ctx)

    def private_text(self, view: Mapping[str, Any], lang: str) -> str:
        hand = ", ".join(view.get("hand", [])) or "—"
        treasure = ", ".join(view.get("treasure", [])) or "—"
        return word("hand", lang, hand=hand, treasure=treasure)

    def options(self, ctx: BoardContext, path: tuple[str, ...], tokens: list[str]) -> list[Option]:
        return [
            Option(token, word(token, ctx.lang) if token in WORDS["de"] else token)
            for token in tokens
        ]


SPEC = PartySpec()


class PartyTest(commands.Cog):
    party = app_commands.Group(name="party", description="Schatzkammer (test game)")

    def __init__(self, bot: Any) -> None:
        self.table = GameTable(bot, SPEC)

    async def cog_load(self) -> None:
        self.table.register()

    async def cog_unload(self) -> None:
        self.table.unregister()

    @party.command(name="start", description="Invite up to three others")
    async def start(
        self,
        interaction: discord.Interaction[Any],
        zweiter: discord.User,
        dritter: discord.User | None = None,
        bot: bool = False,
        alle: bool = False,
        karten: int = 3,
        verbuendet: bool = False,
    ) -> None:
        guests = [u for u in (zweiter, dritter) if u is not None]
        players = [interaction.user.id, *(u.id for u in guests)]
        names = [interaction.user.display_name, *(u.display_name for u in guests)]
        config: dict[str, Any] = {"hand": karten}
        if verbuendet:  # the host and the second play together
            config["teams"] = [0, 0, *range(1, len(players) - 1 + bot)]
        if alle:  # every seat must play: the engine refuses an early start without them
            config["seats"] = len(players) + bot
        if bot:
            config["ai_levels"] = {str(len(players)): "random"}
            players.append(self.table.bot_id())
            names.append(SPEC.bot_name(self.table.bot_user_name(), "random", "de"))
        await self.table.create(interaction, config, players, names, invited=True)

    @party.command(name="zug", description="Play by notation")
    async def zug(
        self, interaction: discord.Interaction[Any], notation: str, spiel: int | None = None
    ) -> None:
        await self.table.typed(interaction, spiel, notation)

    @party.command(name="aufgeben", description="Resign")
    async def aufgeben(self, interaction: discord.Interaction[Any]) -> None:
        await self.table.typed(interaction, None, "!resign")

    @party.command(name="brett", description="The board again")
    async def brett(self, interaction: discord.Interaction[Any]) -> None:
        await self.table.show_board(interaction, None)

    @party.command(name="export", description="Export")
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        await self.table.export(interaction, None)


async def setup(bot: Any) -> None:
    await bot.add_cog(PartyTest(bot))
