"""``/armageddon``: a game master and 2-6 parties on a hex map of Kleinfelder.

Table of contents: the game master starts a game with a shipped scenario or an uploaded file
(validated, mistakes named by line) and invites one person per party; the shared game table
(``bot.play``) runs invitations, every click of every seat's decision, the board with its map
each step and the records. The spec words and draws it all (``bot.play.specs.armageddon``).
``weg`` moves one figure over several fields, ``ueberstimmen`` is the game master's overrule
with a note for the log (``gm undo`` takes back the last movement, ``gm move``/``add``/
``restore`` correct the position), ``notiz`` adds a note to an overrule just clicked,
``karte`` shows the map or a zoomed region, ``szenario`` a shipped scenario with its file to
edit.
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from bot.app import SpielleiterBot
from bot.games import load
from bot.i18n import cmd, options, t
from bot.narration.armageddon import GM
from bot.play.commands import TableCog, add_table_commands, offer_games
from bot.play.specs.armageddon import (
    MAX_UPLOAD,
    SPEC,
    map_image,
    note_text,
    overrule_text,
    path_completions,
    path_steps,
    scenario_choices,
    scenario_config,
    scenario_of,
    scenario_summary,
    zoom_region,
)
from bot.replies import lang_for, send
from engines.armageddon import ENGINE
from engines.core import BadInput

Choices = list[app_commands.Choice[str]]


class Armageddon(TableCog):
    armageddon = app_commands.Group(
        name=cmd("armageddoncog.cmd.group.name"), description=cmd("armageddoncog.cmd.group.desc")
    )

    spec = SPEC

    # ---------------------------------------------------------------------- starting

    @armageddon.command(
        name=cmd("armageddoncog.cmd.start.name"), description=cmd("armageddoncog.cmd.start.desc")
    )
    @options(
        "armageddoncog.opt",
        szenario="scenario",
        datei="file",
        partei1="player1",
        partei2="player2",
        partei3="player3",
        partei4="player4",
        partei5="player5",
        partei6="player6",
        runden="rounds",
    )
    async def start(
        self,
        interaction: discord.Interaction[Any],
        szenario: str | None = None,
        datei: discord.Attachment | None = None,
        partei1: discord.User | None = None,
        partei2: discord.User | None = None,
        partei3: discord.User | None = None,
        partei4: discord.User | None = None,
        partei5: discord.User | None = None,
        partei6: discord.User | None = None,
        runden: app_commands.Range[int, 1, 99] | None = None,
    ) -> None:
        upload = None
        if datei is not None:
            if datei.size > MAX_UPLOAD:
                raise BadInput("armageddoncog.error.too_big", max=MAX_UPLOAD // 1000)
            upload = (datei.filename, await datei.read())
        config = scenario_config(szenario, upload)
        name, parties = scenario_of(config)
        seats = [partei1, partei2, partei3, partei4, partei5, partei6]
        guests = [guest for guest in seats if guest is not None]
        if len(guests) != parties or None in seats[:parties]:
            raise BadInput(
                "armageddoncog.error.players", scenario=name, parties=parties, count=len(guests)
            )
        if any(guest.bot or guest.id == self.table.bot_id() for guest in guests):
            raise BadInput("armageddoncog.error.opponent_is_bot")
        if runden is not None:
            config["rounds"] = runden
        user = interaction.user
        players = [user.id] + [guest.id for guest in guests]
        names = [user.display_name] + [guest.display_name for guest in guests]
        await self.table.create(interaction, config, players, names, invited=True)

    @armageddon.command(
        name=cmd("armageddoncog.cmd.scenario.name"),
        description=cmd("armageddoncog.cmd.scenario.desc"),
    )
    @options("armageddoncog.opt", name="name")
    async def szenario(self, interaction: discord.Interaction[Any], name: str) -> None:
        lang = await lang_for(interaction)
        head, text, view = scenario_summary(name, lang)
        await interaction.response.defer(ephemeral=True, thinking=True)  # the map is drawn
        image = await map_image(view, [t("armageddoncog.gm", lang)], lang, 0)
        embed = discord.Embed(title=head, description=t("armageddoncog.scenario.edit", lang))
        embed.set_image(url=f"attachment://{name}.png")
        files = [
            discord.File(io.BytesIO(image), filename=f"{name}.png"),
            discord.File(io.BytesIO(text.encode()), filename=f"{name}.txt"),
        ]
        await send(interaction, embed=embed, files=files, ephemeral=True)

    @start.autocomplete("szenario")
    @szenario.autocomplete("name")
    async def _complete_scenario(
        self, interaction: discord.Interaction[Any], current: str
    ) -> Choices:
        return [
            app_commands.Choice(name=label[:100], value=name)
            for label, name in scenario_choices(current)
        ]

    # ---------------------------------------------------------------------- playing

    add_table_commands(armageddon, "armageddoncog", "zug")

    @armageddon.command(
        name=cmd("armageddoncog.cmd.path.name"), description=cmd("armageddoncog.cmd.path.desc")
    )
    @options("armageddoncog.opt", pfad="path", spiel="game")
    async def weg(
        self, interaction: discord.Interaction[Any], pfad: str, spiel: int | None = None
    ) -> None:
        await self.table.typed_steps(interaction, spiel, path_steps(pfad))

    @weg.autocomplete("pfad")
    async def _complete_path(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        found = await self.table.seat_match(interaction, _game(interaction))
        if found is None:
            return []
        paths = path_completions(*found, current)
        return [app_commands.Choice(name=path[:100], value=path[:100]) for path in paths]

    @armageddon.command(
        name=cmd("armageddoncog.cmd.overrule.name"),
        description=cmd("armageddoncog.cmd.overrule.desc"),
    )
    @options("armageddoncog.opt", aktion="action", notiz="note", spiel="game")
    async def ueberstimmen(
        self,
        interaction: discord.Interaction[Any],
        aktion: str,
        notiz: app_commands.Range[str, 1, 200],
        spiel: int | None = None,
    ) -> None:
        record = await self.table.game_for(interaction, spiel)
        if record.players[GM] != interaction.user.id:
            raise BadInput("armageddoncog.error.gm_only")
        await self.table.act(interaction, record, overrule_text(aktion, notiz), None)

    @armageddon.command(
        name=cmd("armageddoncog.cmd.note.name"), description=cmd("armageddoncog.cmd.note.desc")
    )
    @options("armageddoncog.opt", text="text", spiel="game")
    async def notiz(
        self,
        interaction: discord.Interaction[Any],
        text: app_commands.Range[str, 1, 200],
        spiel: int | None = None,
    ) -> None:
        """A note to the game master's last overrule (one clicked in the prompt has none)."""
        record = await self.table.game_for(interaction, spiel)
        if record.players[GM] != interaction.user.id:
            raise BadInput("armageddoncog.error.gm_only")
        await self.table.act(interaction, record, note_text(text), None)

    @ueberstimmen.autocomplete("aktion")
    async def _complete_overrule(
        self, interaction: discord.Interaction[Any], current: str
    ) -> Choices:
        texts = await self.table.complete_notation(interaction, _game(interaction), current)
        return [app_commands.Choice(name=text, value=text) for text in texts if text[:3] == "gm "]

    @armageddon.command(
        name=cmd("armageddoncog.cmd.map.name"), description=cmd("armageddoncog.cmd.map.desc")
    )
    @options("armageddoncog.opt", bereich="region", zentrum="centre", radius="radius", spiel="game")
    async def karte(
        self,
        interaction: discord.Interaction[Any],
        bereich: str | None = None,
        zentrum: str | None = None,
        radius: app_commands.Range[int, 1, 20] | None = None,
        spiel: int | None = None,
    ) -> None:
        lang = await lang_for(interaction)
        record = await self.table.game_for(interaction, spiel, running_only=False)
        view = ENGINE.view_for(load(record).state, None)
        region = zoom_region(view, bereich, zentrum, radius)
        names = self.table.info(record, lang).names
        await interaction.response.defer(ephemeral=True, thinking=True)  # the map is drawn
        image = await map_image(view, names, lang, record.id, region)
        file = discord.File(io.BytesIO(image), filename=f"armageddon-{record.id}-karte.png")
        text = t("armageddoncog.map.shown", lang, id=record.id)
        await send(interaction, text, file=file, ephemeral=True)

    # ---------------------------------------------------------------------- the usual

    add_table_commands(
        armageddon, "armageddoncog", "aufgeben", "liste", "export", "brett", "replay"
    )
    offer_games(weg, ueberstimmen, notiz, karte)


def _game(interaction: discord.Interaction[Any]) -> int | None:
    game = getattr(interaction.namespace, "spiel", None)
    return game if isinstance(game, int) else None


async def setup(bot: SpielleiterBot) -> None:
    await bot.add_cog(Armageddon(bot))
