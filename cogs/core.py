"""``/hilfe`` (every command, in the user's language), ``/sprache`` (language preference) and
``/einstellungen`` (a server's own settings: whether games get a thread of their own, and the
language their public boards speak)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SpielleiterBot
from bot.components import custom_id, values_of
from bot.i18n import cmd, language_of, options, t
from bot.play.table import GUILD_LANGUAGE_PREF, THREADS_PREF
from bot.play.ui import make_view
from bot.replies import LANGUAGE_PREF, lang_for, remember_language, send
from bot.server_content import managed_guild
from engines.core import BadInput

EMBED_COLOUR = discord.Colour(0x8A5CF6)
FIELD_LIMIT = 1024
# /hilfe thema:…: each topic's sections, in order (texts in core.json: core.help.<topic>.*)
CHEAT_SHEETS: dict[str, tuple[str, ...]] = {
    "dice": ("basics", "keep", "explode", "advantage", "repeat", "successes", "more"),
    "combat": ("flow", "attack", "techniques", "defence", "gm"),
}
# /hilfe groups the commands by area (texts core.help.area.<area>); a command of no area is
# listed under "more" (a new command is never left out)
AREAS: dict[str, tuple[str, ...]] = {
    "dice": ("roll", "würfel", "probe", "probe-komplex", "probe-konkurrierend"),
    "campaign": ("kampagne", "charakter", "sl"),
    "combat": ("kampf",),
    "games": (
        "essenz",
        "felsenfeuer",
        "telperinquar",
        "telperinquar-draft",
        "telperinquar-wurf",
        "armageddon",
    ),
    "more": ("hilfe", "sprache"),
}
HELP_PREFIX = "hilfe"
EMBED_LIMIT = 5800  # all text of one embed together (Discord: 6,000)


class Core(commands.Cog):
    def __init__(self, bot: SpielleiterBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.components.register(HELP_PREFIX, self.on_area)

    async def cog_unload(self) -> None:
        self.bot.components.unregister(HELP_PREFIX)

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
        await send(interaction, ephemeral=True, **self._overview(lang))

    def _grouped(self) -> dict[str, list[Any]]:
        """The tree's commands by area (every command in exactly one)."""
        grouped: dict[str, list[Any]] = {area: [] for area in AREAS}
        for command in self.bot.tree.get_commands():
            area = next((a for a, names in AREAS.items() if command.name in names), "more")
            grouped[area].append(command)
        return {area: found for area, found in grouped.items() if found}

    def _overview(self, lang: str) -> dict[str, Any]:
        """The first page: one short field per area (its commands and what each is for) and a
        select that opens an area with every subcommand."""
        embed = discord.Embed(
            title=t("core.help.title", lang),
            description=t("core.help.intro", lang),
            colour=EMBED_COLOUR,
        )
        grouped = self._grouped()
        for area, found in grouped.items():
            lines = [
                f"`/{_localized(c, 'name', lang)}` — {_localized(c, 'description', lang)}"
                for c in sorted(found, key=lambda c: _localized(c, "name", lang))
            ]
            value = _fit_lines(lines, FIELD_LIMIT)
            embed.add_field(name=t(f"core.help.area.{area}", lang), value=value, inline=False)
        return {"embed": embed, "view": _area_select(grouped, lang)}

    async def on_area(self, interaction: discord.Interaction[Any], args: list[str]) -> None:
        """An area chosen in the select: its commands with every subcommand, in place."""
        lang = await lang_for(interaction)
        chosen = values_of(interaction)
        grouped = self._grouped()
        if len(chosen) != 1 or chosen[0] not in grouped:
            raise BadInput("error.unknown_component")
        embed = area_embed(chosen[0], grouped[chosen[0]], lang)
        view = _area_select(grouped, lang, chosen[0])
        await interaction.response.edit_message(embed=embed, view=view)

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
        chosen = None if sprache == "auto" else sprache
        await self.bot.store.set_pref(interaction.user.id, LANGUAGE_PREF, chosen)
        remember_language(self.bot, interaction.user.id, chosen)
        lang = sprache if sprache != "auto" else language_of(interaction.locale)
        await send(interaction, t(f"core.language.set.{sprache}", lang), ephemeral=True)

    @app_commands.command(
        name=cmd("core.cmd.settings.name"), description=cmd("core.cmd.settings.desc")
    )
    @options("core.opt", threads="threads", sprache="game_language")
    @app_commands.choices(
        threads=[
            app_commands.Choice(name=cmd(f"core.choice.threads.{value}"), value=value)
            for value in ("on", "off", "default")
        ],
        sprache=[
            app_commands.Choice(name=cmd(f"core.choice.game_language.{value}"), value=value)
            for value in ("de", "en", "host")
        ],
    )
    async def einstellungen(
        self,
        interaction: discord.Interaction[Any],
        threads: str | None = None,
        sprache: str | None = None,
    ) -> None:
        """Shown to anyone on the server; changed only by whoever may manage it. The game
        language is what the public board of a game started from now on speaks (the host's
        where none is set); private prompts follow each reader."""
        lang = await lang_for(interaction)
        if threads is None and sprache is None:
            if interaction.guild_id is None:
                await send(interaction, t("core.error.server_only", lang), ephemeral=True)
                return
            state = await self._threads_state(interaction.guild_id)
            spoken = await self.bot.store.get_pref(interaction.guild_id, GUILD_LANGUAGE_PREF)
            text = t(
                "core.settings.shown",
                lang,
                state=t(f"core.settings.state.{state}", lang),
                language=t(f"core.choice.game_language.{spoken or 'host'}", lang),
            )
            await send(interaction, text, ephemeral=True)
            return
        guild_id = managed_guild(interaction, "core")
        lines = []
        if threads is not None:
            await self.bot.store.set_pref(
                guild_id, THREADS_PREF, None if threads == "default" else threads
            )
            state = t(f"core.settings.state.{await self._threads_state(guild_id)}", lang)
            lines.append(t(f"core.settings.threads.{threads}", lang, state=state))
        if sprache is not None:
            chosen = None if sprache == "host" else sprache
            await self.bot.store.set_pref(guild_id, GUILD_LANGUAGE_PREF, chosen)
            lines.append(t(f"core.settings.language.{sprache}", lang))
        await send(interaction, "\n".join(lines), ephemeral=True)

    async def _threads_state(self, guild_id: int) -> str:
        own = await self.bot.store.get_pref(guild_id, THREADS_PREF)
        if own in ("on", "off"):
            return str(own)
        return "on" if self.bot.settings.game_threads else "off"


def _fit_lines(lines: list[str], limit: int) -> str:
    """``lines`` joined, as many whole lines as fit in ``limit`` characters."""
    kept: list[str] = []
    for line in lines:
        if len("\n".join([*kept, line])) > limit:
            break
        kept.append(line)
    return "\n".join(kept) or "–"


def _area_select(grouped: dict[str, list[Any]], lang: str, chosen: str = "") -> discord.ui.View:
    options = [
        discord.SelectOption(
            label=t(f"core.help.area.{area}", lang)[:100], value=area, default=area == chosen
        )
        for area in grouped
    ]
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=custom_id(HELP_PREFIX, "bereich"),
        placeholder=t("core.help.pick_area", lang)[:150],
        options=options,
    )
    return make_view([[select]])


def area_embed(area: str, found: list[Any], lang: str) -> discord.Embed:
    """One area: each command with all its subcommands (a long command over several fields,
    never cut off in the middle)."""
    embed = discord.Embed(
        title=t("core.help.area_title", lang, area=t(f"core.help.area.{area}", lang)),
        colour=EMBED_COLOUR,
    )
    total = len(embed.title or "")
    for command in sorted(found, key=lambda c: _localized(c, "name", lang)):
        name = f"/{_localized(command, 'name', lang)}"
        lines = [_localized(command, "description", lang)]
        for sub in getattr(command, "commands", []):
            sub_name, text = _localized(sub, "name", lang), _localized(sub, "description", lang)
            lines.append(f"• `{sub_name}` — {text}")
        chunk: list[str] = []
        for line in lines:
            if chunk and len("\n".join([*chunk, line])) > FIELD_LIMIT:
                total += _add(embed, name, chunk)
                name, chunk = f"{name} …", []
            chunk.append(line[:FIELD_LIMIT])
        total += _add(embed, name, chunk)
        if total > EMBED_LIMIT:  # cannot happen with today's commands; never a 400
            embed.remove_field(-1)
            break
    return embed


def _add(embed: discord.Embed, name: str, lines: list[str]) -> int:
    value = "\n".join(lines)
    embed.add_field(name=name[:256], value=value, inline=False)
    return len(name) + len(value)


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
