"""``/telperinquar-draft``: the Telperinquár booster draft for 2-8 seats, people and bots.

Table of contents: each command and click goes to the shared game table (``bot.play``), which
invites the seats, opens each seat's pick privately (its booster, a select with every card's
name, costs and text), applies the picks through the game service and lets the bots pick. The
draft's table adds two things: every open pick gets its button (up to eight seats pick at
once), and when the draft ends each person's suggested 40-card deck is saved in their deck
store (``bot.telperinquar_draft``) and shown with how to play the matches
(``bot.play.specs.telperinquar_draft``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.app import SpielleiterBot
from bot.components import custom_id
from bot.fit import EMBED_DESCRIPTION, shorten
from bot.games import ACTIVE, load
from bot.i18n import cmd, options
from bot.play.commands import TableCog, add_table_commands
from bot.play.specs.telperinquar_draft import DEFAULT_LEVEL, LEVELS, SPEC
from bot.play.table import ROW_BUTTONS, GameTable
from bot.play.ui import Screen, button, make_view
from bot.replies import lang_for
from bot.services.decks import DeckService, GameRecord, SavedDeck
from engines.core import BadInput
from engines.core import match as m
from engines.core.choices import ChoiceTree

MAX_SEATS = 8


class DraftTable(GameTable):
    """The shared table with the draft's end (decks saved and shown) and a pick button for
    every open pick."""

    async def screen(
        self,
        record: GameRecord,
        match: m.Match,
        lang: str,
        *,
        path: tuple[str, ...] = (),
        tree: ChoiceTree[Any] | None = None,
        steps: Any = None,
        thinking: bool = False,
        page: int = 0,
        notes: Sequence[str] = (),
    ) -> Screen:
        screen = await super().screen(
            record,
            match,
            lang,
            path=path,
            tree=tree,
            steps=steps,
            thinking=thinking,
            page=page,
            notes=notes,
        )
        if _draft_over(self, match):  # drawing reads what the draft's end saved
            saved = await DeckService(self.bot.store).draft_decks(record, match, self.bot_id())
            _with_closing(screen, saved, lang)
        return screen

    async def show(
        self, record: GameRecord, screen: Screen, *, via: discord.Interaction[Any] | None = None
    ) -> None:
        """A board of the finished draft: each person's deck is saved first (once: saving
        again finds it), then the board says where."""
        match = load(record)
        if _draft_over(self, match):
            saved = await DeckService(self.bot.store).save_draft(record, match, self.bot_id())
            _with_closing(screen, saved, await self.board_lang(record))
        await super().show(record, screen, via=via)

    def meta_row(self, ctx: Any, seat: int, cid: Callable[..., str]) -> list[discord.ui.Item[Any]]:
        """Only resigning: a draft has no draw to offer (nobody wins it)."""
        return [button(self.text("button.resign", ctx.lang), cid("m", "resign"), "danger", "🏳️")]

    def components(self, ctx: Any, page: int = 0) -> discord.ui.View | None:
        view = super().components(ctx, page)
        if ctx.outcome is not None or ctx.thinking or ctx.record.status != ACTIVE:
            return view
        open_ = [
            d
            for d in m.decisions(self.spec.engine, ctx.match)
            if ctx.record.players[d.seat] != self.bot_id()
        ]
        if len(open_) <= ROW_BUTTONS:
            return view
        asks: list[discord.ui.Item[Any]] = [
            button(
                self.text("button.decide", ctx.lang, name=ctx.names[d.seat])[:80],
                custom_id(self.spec.prefix, ctx.record.id, d.id, "o"),
                "primary",
            )
            for d in open_
        ]
        meta = self.meta_row(ctx, open_[0].seat, lambda *p: self._meta_id(ctx.record, *p))
        rows = [asks[i : i + ROW_BUTTONS] for i in range(0, len(asks), ROW_BUTTONS)]
        return make_view([*rows, meta])


def _draft_over(table: GameTable, match: m.Match) -> bool:
    """The draft ended by its last pick (not by a resign or forfeit)."""
    return m.outcome(table.spec.engine, match) is not None and match.ended is None


def _with_closing(screen: Screen, saved: Sequence[SavedDeck], lang: str) -> None:
    """The board's text with the saved decks it does not name yet and how to play them."""
    text = screen.embed.description or ""
    missing = [deck for deck in saved if SPEC.closing_lines([deck], lang)[1] not in text]
    if not missing:
        return
    lines = SPEC.closing_lines(missing, lang)
    if lines[-1] in text:  # how to play is said already
        lines = lines[:-1]
    screen.embed.description = shorten("\n".join([text, *lines]), EMBED_DESCRIPTION, lang)


class TelperinquarDraft(TableCog):
    draft = app_commands.Group(
        name=cmd("tqdraft.cmd.group.name"), description=cmd("tqdraft.cmd.group.desc")
    )

    spec = SPEC
    table_class = DraftTable
    table: DraftTable

    @draft.command(name=cmd("tqdraft.cmd.start.name"), description=cmd("tqdraft.cmd.start.desc"))
    @options(
        "tqdraft.opt",
        spieler2="player2",
        spieler3="player3",
        spieler4="player4",
        spieler5="player5",
        spieler6="player6",
        spieler7="player7",
        spieler8="player8",
        bots="bots",
        bot="bot",
    )
    @app_commands.choices(
        bot=[
            app_commands.Choice(name=cmd(f"tqdraft.choice.level.{level}"), value=level)
            for level in LEVELS
        ]
    )
    async def start(
        self,
        interaction: discord.Interaction[Any],
        spieler2: discord.User | None = None,
        spieler3: discord.User | None = None,
        spieler4: discord.User | None = None,
        spieler5: discord.User | None = None,
        spieler6: discord.User | None = None,
        spieler7: discord.User | None = None,
        spieler8: discord.User | None = None,
        bots: app_commands.Range[int, 0, 7] | None = None,
        bot: str | None = None,
    ) -> None:
        lang = await lang_for(interaction)
        guests = (spieler2, spieler3, spieler4, spieler5, spieler6, spieler7, spieler8)
        seats = self.table.seating(
            interaction, guests, bots=bots, level=bot or DEFAULT_LEVEL, lang=lang
        )
        if not 2 <= len(seats.players) <= MAX_SEATS:
            raise BadInput("tqdraft.error.seats", count=len(seats.players))
        await self.table.create(
            interaction, seats.config(), seats.players, seats.names, invited=seats.invited
        )

    add_table_commands(draft, "tqdraft", "aufgeben", "liste", "export", "brett", "replay")


async def setup(bot: SpielleiterBot) -> None:
    await bot.add_cog(TelperinquarDraft(bot))
