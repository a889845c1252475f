"""``/hilfe`` (every command, in the user's language), ``/sprache`` (language preference) and
``/einstellungen`` (a server's own settings: whether games get a thread of their own)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SpielleiterBot
from bot.i18n import cmd, language_of, options, t
from bot.play.table import THREADS_PREF
from bot.replies import LANGUAGE_PREF, lang_for, send
from bot.server_content import managed_guild

EMBED_COLOUR = discord.Colour(0x8A5CF6)
FIELD_LIMIT = 1024
# /hilfe thema:…: each topic's sections, in order (texts in core.json: core.help.<topic>.*)
CHEAT_SHEETS: dict[str, tuple[str, ...]] = {
    "dice": ("basics", "keep", "explode", "advantage", "successes", "more"),
    "combat": ("flow", "attack", "techniques", "defence", "gm"),
}


class Core(commands.Cog):
    def __init__(self, bot: SpielleiterBot) -> None:
        self.bot = bot

    @app_commands.command(name=cmd("core.cmd.help.name"), description=cmd("core.cmd.help.desc"))
    @options("core.opt", thema="topic")
    @app_commands.choices(
        thema=[
            app_commands.Choice(name=cmd(f"core.choice.topic.{topic}"), value=topic)
            for topic in CHEAT_SHEETS
        ]
    )
    async def hilfe(self, interaction: discord.Interaction[Any], thema: str | None = None) -> None:
        lang = await lang_for(interaction)
        if thema is not None:
            await send(interaction, embed=cheat_sheet(thema, lang), ephemeral=True)
            return
        embed = discord.Embed(
            title=t("core.help.title", lang),
            description=t("core.help.intro", lang),
            colour=EMBED_COLOUR,
        )
        commands_here = self.bot.tree.get_commands()
        for command in sorted(commands_here, key=lambda c: _localized(c, "name", lang)):
            embed.add_field(
                name=f"/{_localized(command, 'name', lang)}",
                value=self._describe(command, lang),
                inline=False,
            )
        await send(interaction, embed=embed, ephemeral=True)

    def _describe(self, command: Any, lang: str) -> str:
        lines = [_localized(command, "description", lang)]
        for sub in getattr(command, "commands", []):
            name, text = _localized(sub, "name", lang), _localized(sub, "description", lang)
            lines.append(f"• `{name}` — {text}")
        return "\n".join(lines)[:FIELD_LIMIT]

    @app_commands.command(
        name=cmd("core.cmd.language.name"), description=cmd("core.cmd.language.desc")
    )
    @options("core.opt", sprache="language")
    @app_commands.choices(
        sprache=[
            app_commands.Choice(name=cmd("core.choice.language.de"), value="de"),
            app_commands.Choice(name=cmd("core.choice.language.en"), value="en"),
            app_commands.Choice(name=cmd("core.choice.language.auto"), value="auto"),
        ]
    )
    async def sprache(self, interaction: discord.Interaction[Any], sprache: str) -> None:
        await self.bot.store.set_pref(
            interaction.user.id, LANGUAGE_PREF, None if sprache == "auto" else sprache
        )
        lang = sprache if sprache != "auto" else language_of(interaction.locale)
        await send(interaction, t(f"core.language.set.{sprache}", lang), ephemeral=True)

    @app_commands.command(
        name=cmd("core.cmd.settings.name"), description=cmd("core.cmd.settings.desc")
    )
    @options("core.opt", threads="threads")
    @app_commands.choices(
        threads=[
            app_commands.Choice(name=cmd(f"core.choice.threads.{value}"), value=value)
            for value in ("on", "off", "default")
        ]
    )
    async def einstellungen(
        self, interaction: discord.Interaction[Any], threads: str | None = None
    ) -> None:
        """Shown to anyone on the server; changed only by whoever may manage it."""
        lang = await lang_for(interaction)
        if threads is None:
            if interaction.guild_id is None:
                await send(interaction, t("core.error.server_only", lang), ephemeral=True)
                return
            state = await self._threads_state(interaction.guild_id)
            text = t("core.settings.shown", lang, state=t(f"core.settings.state.{state}", lang))
            await send(interaction, text, ephemeral=True)
            return
        guild_id = managed_guild(interaction, "core")
        await self.bot.store.set_pref(
            guild_id, THREADS_PREF, None if threads == "default" else threads
        )
        state = t(f"core.settings.state.{await self._threads_state(guild_id)}", lang)
        await send(
            interaction, t(f"core.settings.threads.{threads}", lang, state=state), ephemeral=True
        )

    async def _threads_state(self, guild_id: int) -> str:
        own = await self.bot.store.get_pref(guild_id, THREADS_PREF)
        if own in ("on", "off"):
            return str(own)
        return "on" if self.bot.settings.game_threads else "off"


def cheat_sheet(topic: str, lang: str) -> discord.Embed:
    """The short reference for ``topic`` (a key of :data:`CHEAT_SHEETS`) in ``lang``."""
    prefix = f"core.help.{topic}"
    embed = discord.Embed(
        title=t(f"{prefix}.title", lang),
        description=t(f"{prefix}.intro", lang),
        colour=EMBED_COLOUR,
    )
    for section in CHEAT_SHEETS[topic]:
        embed.add_field(
            name=t(f"{prefix}.{section}.name", lang),
            value=t(f"{prefix}.{section}.value", lang),
            inline=False,
        )
    return embed


def _localized(command: Any, field: str, lang: str) -> str:
    """A command's name or description in ``lang`` (discord.py keeps the translatable
    ``locale_str`` in ``_locale_<field>``; the public attribute is the plain default)."""
    value = getattr(command, f"_locale_{field}", None) or getattr(command, field)
    key = value.extras.get("key") if isinstance(value, app_commands.locale_str) else None
    return t(key, lang) if key else str(value)


async def setup(bot: SpielleiterBot) -> None:
    await bot.add_cog(Core(bot))
