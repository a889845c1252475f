"""``/essenz``: Essence of the Arcane against a person or the bot, by clicking or typing.

Table of contents: each command and click goes to the shared game table (``bot.play``), which
applies it through the game service (revision-guarded, judged per decision), shows the board
the game's spec words and draws (``bot.play.specs.essence``), and lets the bot answer. Clicking
builds one step choice by choice (mote → action type → target / amount / orientation) from the
engine's legal actions; typing takes the step in notation.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.app import SpielleiterBot
from bot.games import load
from bot.i18n import cmd, options, t
from bot.play.commands import TableCog, add_table_commands, offer_games
from bot.play.specs.essence import DEFAULT_LEVEL, LEVELS, SPEC, position_text
from bot.replies import lang_for, send
from engines.core import BadInput

VARIANT_CHOICES = (
    "bestimmt",
    "schleife",
    "beschwoerung",
    "bestimmt,schleife",
    "bestimmt,beschwoerung",
    "schleife,beschwoerung",
    "bestimmt,schleife,beschwoerung",
)


class Essence(TableCog):
    essenz = app_commands.Group(
        name=cmd("essenzcog.cmd.group.name"), description=cmd("essenzcog.cmd.group.desc")
    )

    spec = SPEC

    # ---------------------------------------------------------------------- commands

    @essenz.command(
        name=cmd("essenzcog.cmd.start.name"), description=cmd("essenzcog.cmd.start.desc")
    )
    @options("essenzcog.opt", gegner="opponent", bot="bot", varianten="variants", schnell="quick")
    @app_commands.choices(
        bot=[
            app_commands.Choice(name=cmd(f"essenzcog.choice.level.{level}"), value=level)
            for level in LEVELS
        ],
        varianten=[
            app_commands.Choice(name=cmd(f"essenzcog.choice.variants.{value}"), value=value)
            for value in VARIANT_CHOICES
        ],
    )
    async def start(
        self,
        interaction: discord.Interaction[Any],
        gegner: discord.User | None = None,
        bot: str | None = None,
        varianten: str | None = None,
        schnell: bool = False,
    ) -> None:
        lang = await lang_for(interaction)
        me = self.table.bot_id()
        against_bot = gegner is None or gegner.id == me
        if gegner is not None and not against_bot and bot is not None:
            raise BadInput("essenzcog.error.two_opponents")
        if gegner is not None and gegner.bot and not against_bot:
            raise BadInput("essenzcog.error.opponent_is_bot")
        config: dict[str, Any] = {"variants": varianten.split(",") if varianten else []}
        config["quick"] = schnell
        user = interaction.user
        if against_bot:
            level = bot or DEFAULT_LEVEL
            config["ai_levels"] = {"1": level}
            players = [user.id, me]
            names = [user.display_name, SPEC.bot_name(self.table.bot_user_name(), level, lang)]
        else:
            assert gegner is not None
            players = [user.id, gegner.id]
            names = [user.display_name, gegner.display_name]
        invited = not against_bot
        await self.table.create(interaction, config, players, names, invited=invited)

    add_table_commands(essenz, "essenzcog", "zug", "aufgeben")

    @essenz.command(name=cmd("essenzcog.cmd.draw.name"), description=cmd("essenzcog.cmd.draw.desc"))
    @options("essenzcog.opt", aktion="draw", spiel="game")
    @app_commands.choices(
        aktion=[
            app_commands.Choice(name=cmd(f"essenzcog.choice.draw.{verb}"), value=verb)
            for verb in ("offer", "accept", "decline")
        ]
    )
    async def remis(
        self, interaction: discord.Interaction[Any], aktion: str, spiel: int | None = None
    ) -> None:
        await self.table.typed(interaction, spiel, f"!draw-{aktion}")

    add_table_commands(essenz, "essenzcog", "liste", "export")

    @essenz.command(
        name=cmd("essenzcog.cmd.position.name"), description=cmd("essenzcog.cmd.position.desc")
    )
    @options("essenzcog.opt", spiel="game")
    async def position(
        self, interaction: discord.Interaction[Any], spiel: int | None = None
    ) -> None:
        lang = await lang_for(interaction)
        record = await self.table.game_for(interaction, spiel, running_only=False)
        text = t("essenzcog.position", lang, id=record.id, position=position_text(load(record)))
        await send(interaction, text, ephemeral=True)

    add_table_commands(essenz, "essenzcog", "brett", "replay")
    offer_games(remis, position)


async def setup(bot: SpielleiterBot) -> None:
    await bot.add_cog(Essence(bot))
