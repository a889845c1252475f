"""The slash commands every game on the shared table has, written once: a move in notation
(``zug``), resign (``aufgeben``), the channel's games (``liste``), export (``export``), the
board again (``brett``) and the game as a GIF (``replay``), each with its autocomplete (the
user's games; the notation the seat may type). A cog adds them to its own group, in the order
it lists them, between its own commands; names and descriptions come from the cog's own
catalog domain (``<domain>.cmd.move.name``, ``<domain>.opt.game.name`` …)::

    class Essence(commands.Cog):
        essenz = app_commands.Group(...)
        ...  # its own commands
        add_table_commands(essenz, "essenzcog", "zug", "aufgeben")

The callbacks are bound to the cog (discord.py copies the group with every command for each
cog instance), which has the game table as ``self.table``. A game command of the cog's own
offers the user's games with ``offer_games(command, …)`` (its option ``spiel``).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import cmd, options, t
from bot.play.spec import GameSpec
from bot.play.table import GameTable
from bot.replies import lang_for, send
from bot.web import replay

if TYPE_CHECKING:
    from bot.app import SpielleiterBot


class TableCog(commands.Cog):
    """A game cog on the shared table: its clicks are routed to the table while it is loaded,
    and its idle games are swept once the bot is connected (not at load: a bot that only loads
    its cogs, e.g. to print the command schema, never connects). A subclass names its
    ``spec`` (and a ``table_class`` of its own where the game adds to the table)."""

    spec: ClassVar[GameSpec]
    table_class: ClassVar[type[GameTable]] = GameTable

    def __init__(self, bot: SpielleiterBot) -> None:
        self.bot = bot
        self.table = self.table_class(bot, self.spec)
        self.games = self.table.games

    async def cog_load(self) -> None:
        self.table.register()

    async def cog_unload(self) -> None:
        self.table.unregister()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        self.table.start_sweeping()

    async def sweep_idle(self, now: float) -> None:
        """Resume bot turns left over (a restart), remind and forfeit idle players."""
        await self.table.sweep_idle(now)


class TableCommands:
    """The callbacks (``self`` is the cog, with its ``GameTable`` as ``self.table``)."""

    table: Any

    async def zug(
        self, interaction: discord.Interaction[Any], notation: str, spiel: int | None = None
    ) -> None:
        await self.table.typed(interaction, spiel, notation)

    async def aufgeben(
        self, interaction: discord.Interaction[Any], spiel: int | None = None
    ) -> None:
        await self.table.typed(interaction, spiel, "!resign")

    async def liste(self, interaction: discord.Interaction[Any]) -> None:
        await self.table.listing(interaction)

    async def export(self, interaction: discord.Interaction[Any], spiel: int | None = None) -> None:
        await self.table.export(interaction, spiel)

    async def brett(self, interaction: discord.Interaction[Any], spiel: int | None = None) -> None:
        await self.table.show_board(interaction, spiel)

    async def replay(self, interaction: discord.Interaction[Any], spiel: int | None = None) -> None:
        """The game as a short GIF (``bot.web.replay``): a finished one for anyone, a running
        one for its players (the public boards only)."""
        lang = await lang_for(interaction)
        record = await self.table.game_for(interaction, spiel, running_only=False)
        bot_id = interaction.client.user.id if interaction.client.user else 0
        # refused (privately) before the answer is deferred in public
        await replay.check_replay(record, interaction.user.id, lang, bot_id)
        await interaction.response.defer(thinking=True)
        data, steps = await replay.gif_for(
            interaction.client.store, record, interaction.user.id, lang, bot_id
        )
        title = self.table.spec.text("title", lang, id=record.id)
        file = discord.File(io.BytesIO(data), filename=f"{self.table.spec.prefix}-{record.id}.gif")
        await send(interaction, t("web.replay.posted", lang, game=title, count=steps), file=file)

    async def complete_game(
        self, interaction: discord.Interaction[Any], current: int | str | None
    ) -> list[app_commands.Choice[int]]:
        games = await self.table.complete_game(interaction)
        return [app_commands.Choice(name=label, value=game) for label, game in games]

    async def complete_notation(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "spiel", None)
        game = game if isinstance(game, int) else None
        texts = await self.table.complete_notation(interaction, game, current)
        return [app_commands.Choice(name=text, value=text) for text in texts]


complete_game = TableCommands.complete_game

# command → (catalog stem of its name and description, its options: parameter → option stem)
STANDARD: dict[str, tuple[str, dict[str, str]]] = {
    "zug": ("move", {"notation": "notation", "spiel": "game"}),
    "aufgeben": ("resign", {"spiel": "game"}),
    "liste": ("list", {}),
    "export": ("export", {"spiel": "game"}),
    "brett": ("board", {"spiel": "game"}),
    "replay": ("replay", {"spiel": "game"}),
}


def add_table_commands(group: app_commands.Group, domain: str, *names: str) -> None:
    """Add the standard commands ``names`` (of ``STANDARD``) to ``group``, in that order,
    named and described from ``domain``'s catalog."""
    for name in names:
        stem, params = STANDARD[name]
        command: app_commands.Command[Any, ..., None] = app_commands.Command(
            name=cmd(f"{domain}.cmd.{stem}.name"),
            description=cmd(f"{domain}.cmd.{stem}.desc"),
            callback=getattr(TableCommands, name),
            parent=group,
        )
        if params:
            options(f"{domain}.opt", **params)(command)
        if "spiel" in params:
            offer_games(command)
        if "notation" in params:
            command.autocomplete("notation")(TableCommands.complete_notation)
        group.add_command(command)


def offer_games(*commands: Any) -> None:
    """The user's games as the autocomplete of each command's option ``spiel``."""
    for command in commands:
        command.autocomplete("spiel")(complete_game)
