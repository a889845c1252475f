"""``/web``: a one-time sign-in link to the web companion (``bot/web``), only for the asker."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SpielleiterBot
from bot.i18n import cmd, t
from bot.replies import lang_for, send
from bot.web.auth import LINK_MINUTES
from engines.core import BadInput


class Web(commands.Cog):
    def __init__(self, bot: SpielleiterBot) -> None:
        self.bot = bot

    @app_commands.command(name=cmd("web.cmd.name"), description=cmd("web.cmd.desc"))
    async def web(self, interaction: discord.Interaction[Any]) -> None:
        lang = await lang_for(interaction)
        server = self.bot.web
        if server is None:
            raise BadInput("web.error.off")
        if interaction.guild_id is None:
            raise BadInput("web.error.server_only")
        guild = interaction.guild
        owner = guild is not None and guild.owner_id == interaction.user.id
        url = await server.sign_in_link(
            interaction.user.id,
            interaction.guild_id,
            lang=lang,
            name=interaction.user.display_name,
            guild_name=guild.name if guild is not None else "",
            manager=owner or interaction.permissions.manage_guild,
        )
        await send(interaction, t("web.link", lang, minutes=LINK_MINUTES, url=url), ephemeral=True)


async def setup(bot: SpielleiterBot) -> None:
    await bot.add_cog(Web(bot))
