"""The shared game table's prompts: a decision opened privately (its first path, a seat's
private prompt and image, the time limit), the decision a click was made for, boards brought
up to date after a restart (a stale click, the first sweep), the private view, and the
rematch.
"""

from __future__ import annotations

import io
import logging
import time
from typing import Any

import discord

from bot.components import custom_ids_of
from bot.games import (
    ACTIVE,
    FINISHED,
    INVITED,
    PENDING,
    GameService,
    Seated,
    lobby_of,
    reaction_limit_s,
)
from bot.play.table_base import (
    LIVE_BOARDS_KEPT,
    GameInfo,
    component_tokens,
    image_digest,
    is_private,
    with_display,
)
from bot.play.table_start import TableStart
from bot.play.ui import Screen, edit_kwargs, in_time, make_view
from bot.replies import lang_for, send
from bot.store import GameRecord, StaleRevision
from engines.core import IllegalAction
from engines.core import match as m
from engines.core.choices import ChoiceTree
from engines.core.contract import Decision, timeout_action

log = logging.getLogger("spielleiter.play")


class TablePrompt(TableStart):
    """See the module docs; part of ``bot.play.table.GameTable``."""

    # ------------------------------------------------------------------ components

    async def _bring_up_to_date(self, interaction: discord.Interaction[Any], game_id: int) -> bool:
        """A stale click on the game's live board while that board itself is behind the game
        (the bot stopped between the game's write and the board's edit): the board is drawn
        as the game stands, in place. False (the click is just stale) otherwise."""
        message = interaction.message
        if message is None or is_private(interaction) or interaction.response.is_done():
            return False
        record = await self.games.get(game_id)
        if record.status != ACTIVE or record.kind != self.spec.kind:
            return False
        if self.info(record).board != message.id:
            return False
        screen = await self._behind(record, message.id, await self.board_lang(record))
        if screen is None:
            return False  # the board shows the game's open decisions: the click was only late
        await interaction.response.edit_message(**edit_kwargs(screen))
        await self.remember_board(record, message.id, screen)
        return True

    async def _behind(self, record: GameRecord, board: int, lang: str) -> Screen | None:
        """The game's board as it should stand, when the board message ``board`` shows none of
        the game's open decisions (it is behind the game); None when it is current."""
        screen = await self.screen(
            record, self.games.match_of(record), lang, thinking=self.games.bot_due(record)
        )
        channel = self.bot.get_partial_messageable(record.channel_id)
        shown = await channel.fetch_message(board)  # what Discord shows, not a client
        items = screen.view.children if screen.view is not None else []
        drawn = {str(cid) for item in items if (cid := getattr(item, "custom_id", None))}
        if component_tokens(custom_ids_of(shown.components)) & component_tokens(drawn):
            return None
        return screen

    async def refresh_boards(self, since: float) -> int:
        """At start-up: the boards of this process's running games written since ``since``
        (the bot may have stopped between a game's write and its board's edit) brought up to
        date where they are behind. Returns how many were redrawn."""
        redrawn = 0
        for record in await self.bot.store.games_idle_since(time.time() + 1):
            if record.kind != self.spec.kind or record.updated_at < since:
                continue
            board = self.info(record).board
            if board is None or not self.bot.owns_guild(record.guild_id):
                continue
            try:
                screen = await self._behind(record, board, await self.lang_of(record))
                if screen is not None:
                    message = self.bot.get_partial_messageable(record.channel_id)
                    await message.get_partial_message(board).edit(**edit_kwargs(screen))
                    redrawn += 1
            except discord.HTTPException:  # the board is gone: the next step posts one
                log.info("could not bring the board of game %s up to date", record.id)
        return redrawn

    def _decision(self, record: GameRecord, user_id: int, decision: str) -> Seated:
        """The game loaded once for this click, with the clicker's seat, if ``decision`` is
        theirs and open. Raises IllegalAction (not their turn, another seat's decision),
        StaleRevision (answered)."""
        return self.games.seated(record, user_id, decision, keys=self.spec.key)

    def _names_whole(
        self,
        record: GameRecord,
        match: m.Match,
        seat: int,
        lang: str,
        tree: ChoiceTree[Any],
        clicked: tuple[str, ...],
    ) -> bool:
        """Whether the option clicked last was labelled with the whole action it completes."""
        if not clicked:
            return False
        ctx = self.context(record, match, lang, tree=tree, seat=seat)
        return self.spec.option_at(ctx, clicked[:-1], clicked[-1]).whole

    @staticmethod
    def first_path(tree: ChoiceTree[Any]) -> tuple[str, ...]:
        """Where a seat's prompt starts: past the choices with one way on; a single action of
        several choices as its confirming button, one of a single choice as that option."""
        path = tree.follow(())
        return () if len(path) == 1 and tree.action(path) is not None else path

    async def open_prompt(
        self, interaction: discord.Interaction[Any], record: GameRecord, decision: str
    ) -> None:
        """The clicker's decision, privately: their view and the click choices for it (with
        the picture of their hand where it changed since their last prompt showed it)."""
        at = self._decision(record, interaction.user.id, decision)
        match, seat = at.match, at.seat
        lang = await lang_for(interaction)
        tree = self.tree(match, seat)
        path = self.first_path(tree)
        prompt = self.prompt(record, match, seat, lang, path, tree, 0)
        drawing = self.private_file(record, match, seat, lang, changed=True)
        file = await in_time(interaction, drawing, ephemeral=True)
        if file is not None:
            prompt["file"] = file
        await send(interaction, ephemeral=True, **prompt)

    async def private_file(
        self, record: GameRecord, match: m.Match, seat: int, lang: str, *, changed: bool = False
    ) -> discord.File | None:
        """The seat's private image (its hand) as an attachment, if the game draws one (with
        ``changed``: only if it differs from the one its prompt shows already)."""
        view = self.spec.engine.view_for(match.state, seat)
        ctx = self.context(record, match, lang, seat=seat)
        image = await self.spec.private_image(view, ctx)
        if image is None:
            return None
        digest, key = image_digest(image), (record.id, seat)
        if changed and self._hands.get(key) == digest:
            return None
        self._hands[key] = digest
        self._hands.move_to_end(key)
        while len(self._hands) > LIVE_BOARDS_KEPT:
            self._hands.popitem(last=False)
        return discord.File(io.BytesIO(image), filename=f"{self.spec.prefix}-{record.id}-hand.png")

    def prompt(
        self,
        record: GameRecord,
        match: m.Match,
        seat: int,
        lang: str,
        path: tuple[str, ...],
        tree: ChoiceTree[Any],
        page: int,
    ) -> dict[str, Any]:
        """An ephemeral prompt for ``seat``: only from that seat's view."""
        decision = next(d for d in m.decisions(self.spec.engine, match) if d.seat == seat)
        view = self.spec.engine.view_for(match.state, seat)
        ctx = self.context(record, match, lang, path=path, tree=tree, seat=seat)
        lines = [self.spec.private_text(view, lang), f"*{self.spec.prompt(ctx)}*"]
        lines.append(self.time_limit_note(record, match, decision, lang))
        rows = self.choice_rows(record, match, seat, decision, lang, path, tree, page, meta=False)
        return {"content": "\n".join(line for line in lines if line), "view": make_view(rows)}

    def time_limit_note(
        self, record: GameRecord, match: m.Match, decision: Decision, lang: str
    ) -> str:
        """For a reaction the game passes when its time is up: how long the seat has."""
        limit = reaction_limit_s(record, self.bot.settings.reaction_minutes * 60)
        engine = self.spec.engine
        if limit <= 0 or timeout_action(engine, match.state, decision) is None:
            return ""
        return self.text("timeout_note", lang, minutes=round(limit / 60))

    async def show_private(self, interaction: discord.Interaction[Any], record: GameRecord) -> None:
        """The clicker's private view (their hand), only to them."""
        seat = GameService.seat_for(record, interaction.user.id)
        lang = await lang_for(interaction)
        match = self.games.match_of(record)
        view = self.spec.engine.view_for(match.state, seat)
        text = self.spec.private_text(view, lang) or self.text("private.none", lang)
        drawing = self.private_file(record, match, seat, lang)
        file = await in_time(interaction, drawing, ephemeral=True)
        extra = {"file": file} if file is not None else {}
        await send(interaction, text, ephemeral=True, **extra)

    async def rematch(
        self, interaction: discord.Interaction[Any], old: GameRecord, revision: int
    ) -> None:
        """One rematch per finished game: the first click uses the old game up (its revision
        moves on), every other click on that button, also at the same moment, is told so.
        Against bots only the seats move on by one (the other side begins); otherwise the
        seats follow the spec's ``rematch_order`` (by default the clicker hosts and invites the
        others)."""
        if old.status != FINISHED:
            raise IllegalAction(self.spec.key("error.not_finished"))
        GameService.seat_for(old, interaction.user.id)
        try:
            old = await self.games.claim(old, revision)
        except StaleRevision:
            raise IllegalAction(self.spec.key("rematch.taken")) from None
        lang = await lang_for(interaction)
        info = self.info(old)
        me = self.bot_id()
        clicker = interaction.user.id
        levels = {int(s): v for s, v in old.config.get("ai_levels", {}).items()}
        config = {k: v for k, v in old.config.items() if k not in ("ai_levels", "seat_choices")}
        humans = [s for s, p in enumerate(old.players) if p != me]
        if len(humans) == 1:  # against bots: the seats move on, so the other side begins
            order = [*range(1, len(old.players)), 0]
            invited = False
        else:
            order = self.spec.rematch_order(old.players.index(clicker), len(old.players))
            invited = True
        players = [old.players[s] for s in order]
        new_levels = {str(i): levels[s] for i, s in enumerate(order) if s in levels}
        if new_levels:
            config["ai_levels"] = new_levels
        if "teams" in config:
            config["teams"] = [config["teams"][s] for s in order]
        chosen = old.config.get("seat_choices")
        if chosen and self.spec.personal_setup:  # own decks: each seat keeps its own
            config["seat_choices"] = [
                chosen[s] if old.players[s] in (clicker, me) else None for s in order
            ]
        record = await self.games.create(
            self.spec.kind,
            config,
            channel_id=old.channel_id,
            guild_id=old.guild_id,
            players=players,
            invited=invited,
        )
        if record.status == INVITED and players[0] != clicker:  # the spec keeps another host
            record = await self._clicker_accepts(record, clicker)
        await interaction.response.edit_message(view=None)
        new_info = GameInfo([info.names[s] for s in order], lang=info.lang)
        await self.save_info(record.id, new_info)
        if record.status == INVITED:
            await interaction.followup.send(**self.invitation(record, new_info, info.lang or lang))
            return
        await self.open_game(interaction, with_display(record, new_info), lang)

    async def _clicker_accepts(self, record: GameRecord, clicker: int) -> GameRecord:
        """The rematch's clicker has said yes by clicking: their seat is accepted (with the
        setup choice it keeps), whoever hosts."""
        lobby = lobby_of(record)
        seat = next(
            (i for i, p in enumerate(record.players) if p == clicker and lobby.seats[i] == PENDING),
            None,
        )
        if seat is None:
            return record
        return await self.games.accept(record.id, clicker, lobby.choices[seat])
