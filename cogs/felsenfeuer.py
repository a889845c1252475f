"""``/felsenfeuer``: the wizards' dice duel for 2-6 seats, people and bots, by clicking or typing.

Table of contents: each command and click goes to the shared game table (``bot.play``), which
invites the seats, applies every decision through the game service (revision-guarded, judged
per decision, several seats in any order), opens each seat's decision privately, shows the
board the game's spec words and draws (``bot.play.specs.felsenfeuer``) and lets the bots answer.
``zauber`` and ``buch`` read the Kompendium.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands

from bot.app import SpielleiterBot
from bot.components import custom_id, values_of
from bot.games import GameRecord
from bot.i18n import cmd, options, t
from bot.narration.felsenfeuer import (
    SERVER_MARK,
    book_sections,
    find_spell,
    read_spell_file,
    server_book_lines,
    server_slugs,
    spell_choices,
    spell_text,
    template_file,
)
from bot.play.commands import TableCog, add_table_commands
from bot.play.spec import Steps
from bot.play.specs.felsenfeuer import (
    AUSWAHL,
    DEFAULT_LEVEL,
    LEVELS,
    MODES,
    ROLLS,
    RULES,
    SPEC,
    auswahl_of_slots,
    custom_auswahl,
    duel_options,
    slot_options,
)
from bot.play.table import GameTable, distinct_names
from bot.play.ui import MAX_ROWS
from bot.replies import lang_for, send
from bot.server_content import managed_guild
from bot.services.spellbooks import ContentRecord, SpellbookService
from bot.workers import run_heavy
from engines.core import BadInput
from engines.core import match as m
from engines.core.choices import ChoiceTree
from engines.core.contract import Decision


def _teams(text: str | None) -> list[int]:
    if not text:
        return []
    try:
        return [int(part) for part in text.replace(" ", "").split(",")]
    except ValueError:
        raise BadInput("felsenfeuercog.error.bad_teams") from None


class FelsenfeuerTable(GameTable):
    """The shared table with the Auswahl's custom select: beside the short list of common
    splits, one multi-select of die slots names any other split in one click (op ``a``)."""

    def choice_rows(
        self,
        record: GameRecord,
        match: m.Match,
        seat: int,
        decision: Decision,
        lang: str,
        path: tuple[str, ...],
        tree: ChoiceTree[Any],
        page: int,
        *,
        meta: bool,
    ) -> list[list[discord.ui.Item[Any]]]:
        rows = super().choice_rows(record, match, seat, decision, lang, path, tree, page, meta=meta)
        menu = custom_auswahl(match.state) if path == ("auswahl",) else None
        if menu is None or tree.action(path) is not None or len(rows) >= MAX_ROWS:
            return rows
        key = "auswahl.custom" if menu.exact else "auswahl.custom_bundles"
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_id(self.spec.prefix, record.id, decision.id, "a"),
            placeholder=self.text(key, lang, size=menu.size)[:150],
            min_values=menu.min_values,
            max_values=menu.max_values,
            options=[
                discord.SelectOption(
                    label=o.label, value=o.token, description=o.description, emoji=o.emoji
                )
                for o in slot_options(menu, lang)
            ],
        )
        at = next(
            (i for i, row in enumerate(rows) if not isinstance(row[0], discord.ui.Select)),
            len(rows),
        )
        return [*rows[:at], [select], *rows[at:]]

    async def _on_component(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        token: str,
        op: str,
        rest: list[str],
    ) -> None:
        if op != "a":
            await super()._on_component(interaction, game_id, token, op, rest)
            return
        record = await self.games.get(game_id)
        if record.kind != self.spec.kind or rest:
            raise BadInput(self.spec.key("error.bad_choice"))
        at = self._decision(record, interaction.user.id, token)
        menu = custom_auswahl(at.match.state)
        if menu is None:
            raise BadInput(self.spec.key("error.bad_choice"))
        text = auswahl_of_slots(menu, values_of(interaction))
        engine = self.spec.engine
        legal = engine.legal_actions(at.match.state, at.seat)
        action = next((a for a in legal if engine.action_text(a) == text), None)
        if action is None:  # no Auswahl open for the seat (answered meanwhile)
            raise BadInput(self.spec.key("error.bad_choice"))
        turn = await self.games.click(at, interaction.user.id, token, action)
        steps = Steps()
        steps.add(turn)
        await self._answer(interaction, turn, steps)


class Felsenfeuer(TableCog):
    felsenfeuer = app_commands.Group(
        name=cmd("felsenfeuercog.cmd.group.name"), description=cmd("felsenfeuercog.cmd.group.desc")
    )

    spec = SPEC
    table_class = FelsenfeuerTable
    table: FelsenfeuerTable

    @property
    def spellbooks(self) -> SpellbookService:
        """The server's own spell file, through the store the bot runs on."""
        return SpellbookService(self.bot.store)

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
        auswahl="auswahl",
        startspieler="start",
        weltentor="weltentor",
        zufallsrunen="roll",
        erdbeben="quake",
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
        auswahl=[
            app_commands.Choice(name=cmd(f"felsenfeuercog.choice.auswahl.{way}"), value=way)
            for way in AUSWAHL
        ],
        zufallsrunen=[
            app_commands.Choice(name=cmd(f"felsenfeuercog.choice.roll.{roll}"), value=roll)
            for roll in ROLLS
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
        auswahl: str | None = None,
        startspieler: app_commands.Range[int, 1, 6] | None = None,
        weltentor: bool | None = None,
        zufallsrunen: str | None = None,
        erdbeben: bool | None = None,
    ) -> None:
        lang = await lang_for(interaction)
        guests = (spieler2, spieler3, spieler4, spieler5, spieler6)
        seats = self.table.seating(
            interaction, guests, bots=bots, level=bot or DEFAULT_LEVEL, lang=lang
        )
        players, names = seats.players, seats.names
        if not 2 <= len(players) <= 6:
            raise BadInput("felsenfeuercog.error.seats", count=len(players))
        config: dict[str, Any] = {"rules": regeln or "adept"}
        if modus and modus != "normal":
            config["mode"] = modus
        if teams:
            config["teams"] = _teams(teams)
        config.update(duel_options(auswahl, startspieler, weltentor, zufallsrunen, erdbeben))
        if startspieler is not None and startspieler > len(players):
            raise BadInput("felsenfeuercog.error.start", seat=startspieler, count=len(players))
        # a mode, rules or teams that cannot be: now, before anything is stored or deferred
        self.table.games.check_config(self.spec.kind, config, len(players))
        spells = await self._server_spells(interaction)
        if spells:  # the server's own spell file, as it is now, for the whole duel
            config["spells"] = spells
        config.update(seats.config())
        await self.table.create(
            interaction, config, players, distinct_names(names), invited=seats.invited
        )

    @felsenfeuer.command(
        name=cmd("felsenfeuercog.cmd.spell.name"), description=cmd("felsenfeuercog.cmd.spell.desc")
    )
    @options("felsenfeuercog.opt", name="spell")
    async def zauber(self, interaction: discord.Interaction[Any], name: str) -> None:
        lang = await lang_for(interaction)
        spells = await self._server_spells(interaction)
        spell = find_spell(name, spells)
        if spell is None:
            raise BadInput("felsenfeuercog.error.no_spell", name=name)
        title, line, text = spell_text(spell, lang)
        embed = discord.Embed(title=title, description=f"*{line}*\n\n{text}")
        if spell.slug in server_slugs(spells):
            embed.set_footer(text=t("felsenfeuercog.spell.server", lang))
        elif spell.own:
            embed.set_footer(text=t("felsenfeuercog.spell.own", lang))
        await send(interaction, embed=embed)

    @zauber.autocomplete("name")
    async def _complete_spell(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        lang = await lang_for(interaction)
        spells = await self._server_spells(interaction)
        return [
            app_commands.Choice(name=label[:100], value=slug)
            for label, slug in spell_choices(current, spells, lang)
        ]

    @felsenfeuer.command(
        name=cmd("felsenfeuercog.cmd.book.name"), description=cmd("felsenfeuercog.cmd.book.desc")
    )
    async def buch(self, interaction: discord.Interaction[Any]) -> None:
        lang = await lang_for(interaction)
        spells = await self._server_spells(interaction)
        title = t("felsenfeuercog.book.title", lang, count=self.spellbooks.book_size(spells))
        embed = discord.Embed(title=title)
        for heading, lines in book_sections(lang, spells):
            embed.add_field(name=heading, value="\n".join(lines), inline=False)
        footer = t("felsenfeuercog.book.footer", lang)
        if spells:
            footer += " " + t("felsenfeuercog.book.footer_server", lang, mark=SERVER_MARK)
        embed.set_footer(text=footer)
        await send(interaction, embed=embed)

    # ------------------------------------------------------- the server's own spellbook

    zauberbuch = app_commands.Group(
        name=cmd("felsenfeuercog.cmd.spells.name"),
        description=cmd("felsenfeuercog.cmd.spells.desc"),
        parent=felsenfeuer,
    )

    @zauberbuch.command(
        name=cmd("felsenfeuercog.cmd.spells.upload.name"),
        description=cmd("felsenfeuercog.cmd.spells.upload.desc"),
    )
    @options("felsenfeuercog.opt", datei="file")
    async def hochladen(
        self, interaction: discord.Interaction[Any], datei: discord.Attachment
    ) -> None:
        lang, guild_id = await lang_for(interaction), managed_guild(interaction, "felsenfeuercog")
        self.spellbooks.check_size(datei.size)
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = await run_heavy(read_spell_file, await datei.read())  # every spell's test
        replaced = await self.spellbooks.put(guild_id, text, interaction.user.id)
        lines = server_book_lines(text, lang)
        key = "replaced" if replaced else "stored"
        head = t(f"felsenfeuercog.server.{key}", lang, count=len(lines))
        await send(interaction, "\n".join([head, *lines]), ephemeral=True)

    @zauberbuch.command(
        name=cmd("felsenfeuercog.cmd.spells.show.name"),
        description=cmd("felsenfeuercog.cmd.spells.show.desc"),
    )
    async def zeigen(self, interaction: discord.Interaction[Any]) -> None:
        lang = await lang_for(interaction)
        record = await self._server_file(interaction)
        if record is None:
            await send(interaction, t("felsenfeuercog.server.none", lang), ephemeral=True)
            return
        lines = server_book_lines(record.text, lang)
        by = t("felsenfeuercog.server.by", lang, user=f"<@{record.author_id}>")
        embed = discord.Embed(
            title=t("felsenfeuercog.server.title", lang, count=len(lines)),
            description="\n".join([by, "", *lines]),
        )
        embed.timestamp = datetime.fromtimestamp(record.updated_at, tz=UTC)
        await send(interaction, embed=embed)

    @zauberbuch.command(
        name=cmd("felsenfeuercog.cmd.spells.delete.name"),
        description=cmd("felsenfeuercog.cmd.spells.delete.desc"),
    )
    async def loeschen(self, interaction: discord.Interaction[Any]) -> None:
        lang, guild_id = await lang_for(interaction), managed_guild(interaction, "felsenfeuercog")
        gone = await self.spellbooks.delete(guild_id)
        key = "deleted" if gone else "none"
        await send(interaction, t(f"felsenfeuercog.server.{key}", lang), ephemeral=True)

    @zauberbuch.command(
        name=cmd("felsenfeuercog.cmd.spells.template.name"),
        description=cmd("felsenfeuercog.cmd.spells.template.desc"),
    )
    async def vorlage(self, interaction: discord.Interaction[Any]) -> None:
        lang = await lang_for(interaction)
        record = await self._server_file(interaction)
        text = record.text if record is not None else template_file()
        key = "download" if record is not None else "template"
        file = discord.File(io.BytesIO(text.encode("utf-8")), filename="zauberbuch.toml")
        await send(interaction, t(f"felsenfeuercog.server.{key}", lang), file=file, ephemeral=True)

    async def _server_file(self, interaction: discord.Interaction[Any]) -> ContentRecord | None:
        return await self.spellbooks.file(interaction.guild_id)

    async def _server_spells(self, interaction: discord.Interaction[Any]) -> str:
        """The server's own spell file ("" in a DM or without one)."""
        return await self.spellbooks.text(interaction.guild_id)

    add_table_commands(
        felsenfeuer, "felsenfeuercog", "zug", "aufgeben", "liste", "export", "brett", "replay"
    )


async def setup(bot: SpielleiterBot) -> None:
    await bot.add_cog(Felsenfeuer(bot))
