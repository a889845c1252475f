"""``/felsenfeuer``: the wizards' dice duel for 2-6 seats, people and bots, by clicking or typing.

Table of contents: each command and click goes to the shared game table (``bot.play``), which
invites the seats, applies every decision through the game service (revision-guarded, judged
per decision, several seats in any order), opens each seat's decision privately, shows the
board the game's spec words and draws (``bot.narration.felsenfeuer``) and lets the bots answer.
``zauber`` and ``buch`` read the Kompendium.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SpielleiterBot
from bot.i18n import cmd, options, t
from bot.narration.felsenfeuer import (
    DEFAULT_LEVEL,
    LEVELS,
    MODES,
    RULES,
    SPEC,
    book_sections,
    find_spell,
    spell_choices,
    spell_text,
)
from bot.play.commands import add_table_commands
from bot.play.table import GameTable
from bot.replies import lang_for, send
from engines.core import BadInput
from engines.felsenfeuer.engine import settings_of
from engines.felsenfeuer.spells import spellbook


def _teams(text: str | None) -> list[int]:
    if not text:
        return []
    try:
        return [int(part) for part in text.replace(" ", "").split(",")]
    except ValueError:
        raise BadInput("felsenfeuercog.error.bad_teams") from None


class Felsenfeuer(commands.Cog):
    felsenfeuer = app_commands.Group(
        name=cmd("felsenfeuercog.cmd.group.name"), description=cmd("felsenfeuercog.cmd.group.desc")
    )

    def __init__(self, bot: SpielleiterBot) -> None:
        self.bot = bot
        self.table = GameTable(bot, SPEC)
        self.games = self.table.games

    async def cog_load(self) -> None:
        self.table.register()

    async def cog_unload(self) -> None:
        self.table.unregister()

    # ---------------------------------------------------------------------- commands

    @felsenfeuer.command(
        name=cmd("felsenfeuercog.cmd.start.name"), description=cmd("felsenfeuercog.cmd.start.desc")
    )
    @options(
        "felsenfeuercog.opt",
        spieler2="player2",
        spieler3="player3",
        spieler4="player4",
        spieler5="player5",
        spieler6="player6",
        bots="bots",
        bot="bot",
        modus="mode",
        regeln="rules",
        teams="teams",
    )
    @app_commands.choices(
        bot=[
            app_commands.Choice(name=cmd(f"felsenfeuercog.choice.level.{level}"), value=level)
            for level in LEVELS
        ],
        modus=[
            app_commands.Choice(name=cmd(f"felsenfeuercog.choice.mode.{mode}"), value=mode)
            for mode in MODES
        ],
        regeln=[
            app_commands.Choice(name=cmd(f"felsenfeuercog.choice.rules.{rules}"), value=rules)
            for rules in RULES
        ],
    )
    async def start(
        self,
        interaction: discord.Interaction[Any],
        spieler2: discord.User | None = None,
        spieler3: discord.User | None = None,
        spieler4: discord.User | None = None,
        spieler5: discord.User | None = None,
        spieler6: discord.User | None = None,
        bots: app_commands.Range[int, 0, 5] | None = None,
        bot: str | None = None,
        modus: str | None = None,
        regeln: str | None = None,
        teams: str | None = None,
    ) -> None:
        lang = await lang_for(interaction)
        me = self.table.bot_id()
        level = bot or DEFAULT_LEVEL
        bot_label = SPEC.bot_name(self.table.bot_user_name(), level, lang)
        user = interaction.user
        players, names = [user.id], [user.display_name]
        levels: dict[str, str] = {}
        for guest in (spieler2, spieler3, spieler4, spieler5, spieler6):
            if guest is None:
                continue
            if guest.id == me:  # the bot named as a player takes a seat at the level
                levels[str(len(players))] = level
                players.append(me)
                names.append(bot_label)
                continue
            if guest.bot:
                raise BadInput("play.error.opponent_is_bot")
            players.append(guest.id)
            names.append(guest.display_name)
        invited = any(p not in (user.id, me) for p in players)
        count = bots if bots is not None else (0 if len(players) > 1 else 1)
        for _ in range(count):
            levels[str(len(players))] = level
            players.append(me)
            names.append(bot_label)
        if not 2 <= len(players) <= 6:
            raise BadInput("felsenfeuercog.error.seats", count=len(players))
        config: dict[str, Any] = {"rules": regeln or "adept"}
        if modus and modus != "normal":
            config["mode"] = modus
        if teams:
            config["teams"] = _teams(teams)
        settings_of(config, 0, len(players))  # a mode, rules or teams that cannot be: now
        if levels:
            config["ai_levels"] = levels
        await self.table.create(interaction, config, players, names, invited=invited)

    @felsenfeuer.command(
        name=cmd("felsenfeuercog.cmd.spell.name"), description=cmd("felsenfeuercog.cmd.spell.desc")
    )
    @options("felsenfeuercog.opt", name="spell")
    async def zauber(self, interaction: discord.Interaction[Any], name: str) -> None:
        lang = await lang_for(interaction)
        spell = find_spell(name)
        if spell is None:
            raise BadInput("felsenfeuercog.error.no_spell", name=name)
        title, line, text = spell_text(spell, lang)
        embed = discord.Embed(title=title, description=f"*{line}*\n\n{text}")
        if spell.own:
            embed.set_footer(text=t("felsenfeuercog.spell.own", lang))
        await send(interaction, embed=embed)

    @zauber.autocomplete("name")
    async def _complete_spell(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=label[:100], value=slug)
            for label, slug in spell_choices(current)
        ]

    @felsenfeuer.command(
        name=cmd("felsenfeuercog.cmd.book.name"), description=cmd("felsenfeuercog.cmd.book.desc")
    )
    async def buch(self, interaction: discord.Interaction[Any]) -> None:
        lang = await lang_for(interaction)
        title = t("felsenfeuercog.book.title", lang, count=len(spellbook()))
        embed = discord.Embed(title=title)
        for heading, lines in book_sections(lang):
            embed.add_field(name=heading, value="\n".join(lines), inline=False)
        embed.set_footer(text=t("felsenfeuercog.book.footer", lang))
        await send(interaction, embed=embed)

    add_table_commands(felsenfeuer, "felsenfeuercog", "zug", "aufgeben", "liste", "export", "brett")

    # ---------------------------------------------------------------------- idle games

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        self.table.start_sweeping()

    async def sweep_idle(self, now: float) -> None:
        """Resume bot turns left over (a restart), remind and forfeit idle players."""
        await self.table.sweep_idle(now)


async def setup(bot: SpielleiterBot) -> None:
    await bot.add_cog(Felsenfeuer(bot))
