"""The shared game table's living board: every screen shown through :meth:`TableShow.show`
(one board message edited in place, a new one only when the person to act changes after
other messages, the old one stripped to a line, the call of the person to act), the bot's
turns, and the idle sweep (reminders, forfeits, reactions timed out).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord

from bot.games import FINISHED, FORFEIT, bot_seats
from bot.play.spec import Steps
from bot.play.table_base import BOT_GRACE_SECONDS, image_digest, on_message, step_summary
from bot.play.table_board import TableBoard
from bot.play.ui import Screen, edit_kwargs, pictured_at, send_kwargs
from bot.replies import pinging
from bot.store import GameRecord, StaleRevision

log = logging.getLogger("spielleiter.play")


class TableShow(TableBoard):
    """See the module docs; part of ``bot.play.table.GameTable``."""

    # ------------------------------------------------------------------ the bot

    async def play_bot(self, record: GameRecord, lang: str) -> None:
        """Let the service play everything the bot is due to play now (off the event loop;
        the board said it is thinking, after the steps before it, which its running log
        keeps), then show the board after it."""
        steps = Steps()
        record, turns = await self.games.play_bots(record)
        for turn in turns:
            steps.add(turn)
        match = turns[-1].match if turns and turns[-1].record.revision == record.revision else None
        screen = await self.screen(record, match or self.games.match_of(record), lang, steps=steps)
        await self.show(record, screen)

    # ------------------------------------------------------------------ idle games

    async def sweep_idle(self, now: float) -> None:
        """Archive the threads of games over for a while, resume bot turns left over (a
        restart), pass for the players whose reaction is not answered within the reaction
        limit, then remind the players who keep a game waiting and forfeit for them after the
        configured times (all decided by the service).
        Only games in guilds of this process's shards: with several shard processes on one
        database each game is swept by exactly one of them."""
        mine = self.bot.owns_guild
        await self.archive_finished(now)
        for record in await self.bot.store.games_idle_since(now - BOT_GRACE_SECONDS):
            if not mine(record.guild_id):
                continue
            if record.kind == self.spec.kind and self.games.bot_due(record):
                await self.play_bot(record, await self.board_lang(record))
        settings = self.bot.settings
        passes = await self.games.reactions_due(
            now, settings.reaction_minutes * 60, kind=self.spec.kind, bots={self.bot_id()}
        )
        for idle in passes:
            if mine(idle.record.guild_id):
                await self.time_out(idle.record, idle.seat, idle.decision)
        due = await self.games.idle_due(
            now,
            settings.idle_reminder_minutes * 60,
            settings.idle_forfeit_minutes * 60,
            kind=self.spec.kind,
            bots={self.bot_id()},
        )
        for idle in due:
            if not mine(idle.record.guild_id):
                continue
            if idle.due == FORFEIT and idle.seat in self.spec.neutral_seats:
                continue  # a referee is reminded, never forfeited: the game waits for it
            if idle.due == FORFEIT:
                await self.forfeit(idle.record, idle.seat, idle.decision)
            else:
                await self.remind(idle.record, idle.seat)

    async def forfeit(self, record: GameRecord, seat: int, decision: str | None) -> None:
        try:
            turn = await self.games.forfeit(record, seat, decision)
        except StaleRevision:
            return
        steps = Steps()
        steps.add(turn)
        lang = await self.board_lang(record)
        record = turn.record
        bot_due = self.games.bot_due(record, turn.match)
        await self.show(
            record, await self.screen(record, turn.match, lang, steps=steps, thinking=bot_due)
        )
        if bot_due:  # a forfeit in a game of several can hand the turn to the bot
            await self.play_bot(record, lang)

    async def time_out(self, record: GameRecord, seat: int, decision: str | None) -> None:
        """The seat's reaction is answered with the game's pass; the board says so."""
        try:
            turn = await self.games.time_out(record, seat, decision or "")
        except StaleRevision:  # answered meanwhile
            return
        steps = Steps()
        steps.add(turn)
        lang = await self.board_lang(record)
        record = turn.record
        names = self.info(record, lang).names
        note = self.text("timed_out", lang, name=names[seat] if seat < len(names) else "?")
        bot_due = self.games.bot_due(record, turn.match)
        screen = await self.screen(
            record, turn.match, lang, steps=steps, thinking=bot_due, notes=[note]
        )
        await self.show(record, screen)
        if bot_due:  # the pass can hand the next reaction or the turn to the bot
            await self.play_bot(record, lang)

    async def remind(self, record: GameRecord, seat: int) -> None:
        minutes = self.bot.settings.idle_forfeit_minutes - self.bot.settings.idle_reminder_minutes
        text = self.text(
            "reminder",
            await self.lang_of(record, seat),
            mention=f"<@{record.players[seat]}>",
            id=record.id,
            hours=max(1, round(minutes / 60)),
        )
        channel = self.bot.get_partial_messageable(record.channel_id)
        await channel.send(text, allowed_mentions=pinging(record.players[seat]))
        await self.games.mark_reminded(record)

    # ------------------------------------------------------------------ showing

    async def reply_new(
        self, interaction: discord.Interaction[Any], record: GameRecord, screen: Screen
    ) -> None:
        """Answer with a new board message (where the game lives in the interaction's channel
        and has no board yet, or a board shown again); the previous board is stripped."""
        if interaction.response.is_done():  # acknowledged while the board was drawn
            message = await interaction.followup.send(**send_kwargs(screen), wait=True)
            await self.remember_board(record, message.id, screen)
            return
        response = await interaction.response.send_message(**send_kwargs(screen))
        message_id = response.message_id if response is not None else None
        if message_id is not None:
            await self.remember_board(record, message_id, screen)

    async def show(
        self,
        record: GameRecord,
        screen: Screen,
        *,
        via: discord.Interaction[Any] | None = None,
    ) -> None:
        """Show ``screen`` (the game as ``record``) on the game's one living board: edited in
        place, unless the person to act changed and other messages came after the board (it
        would scroll away): then a new board carries the ping and the old one is stripped to a
        one-line summary. ``via``: the click on the board that led here (its answer edits the
        board, or strips it). A late screen of an older revision than the board shows is
        dropped. The first board of a finished game in its own thread also tells the
        invitation in the parent channel who won."""
        channel = self.bot.get_partial_messageable(record.channel_id)
        responded = via is None or via.response.is_done()
        async with self._board_lock(record.id):
            info = self.info(record)
            if info.board is not None and record.revision < info.board_revision:
                if not responded and via is not None:
                    await via.response.defer()
                return
            pings = list(screen.pings)
            changed = bool(pings) and set(pings) != set(info.pings)
            new = info.board is None
            if info.board is not None and changed:
                new = await self._scrolled(record.channel_id, info.board, info.call)
            # An edit notifies nobody: a person whose turn it now is (and who did not just
            # click) is called once by a short message, the game's only one (the last goes).
            call = bool(
                changed and not new and screen.content and (via is None or via.user.id not in pings)
            )
            old_call = info.call if (call or new) else None
            digest = image_digest(screen.image)
            keep = screen.keep_image or (screen.image is not None and digest == info.image)
            home = info.home
            due = home.get("thread") and home.get("invitation") and not home.get("over")
            if record.status == FINISHED and due and not keep and not new:
                # the final picture is uploaded once, with the invitation that says who won
                # (the thread's first message, above the board); the board shows it from there
                if not responded and via is not None:  # acknowledged first: Discord's 3 s
                    await via.response.defer()
                    responded = True
                url = await self._announce_end(record, screen, info)
                if url is not None:
                    screen, digest = pictured_at(screen, url), ""
            old, old_log = info.board, info.log
            info.board_revision = max(record.revision, info.board_revision)
            if pings:
                info.pings = pings
            info.log = list(screen.log)
            if not keep:
                info.image = digest
            if not new and old is not None:
                await self.save_info(record.id, info)  # before the edit: what it shows now
                kwargs = edit_kwargs(screen, keep_image=keep)
                try:
                    if not responded and via is not None and on_message(via, old):
                        await via.response.edit_message(**kwargs)
                        responded = True
                    else:
                        await channel.get_partial_message(old).edit(**kwargs)
                except discord.NotFound:  # the board was deleted: a new one
                    new = True
            if new:
                message = await channel.send(**send_kwargs(screen))
                info.board, info.image, info.call = message.id, digest, None
                if old is None and not info.pings:  # the first board, while a bot thinks:
                    bots = bot_seats(record)  # the host started the game and is watching
                    people = [u for i, u in enumerate(record.players) if i not in bots]
                    info.pings = people[:1]
                await self.save_info(record.id, info)
            elif call:
                called = await channel.send(
                    content=screen.content, allowed_mentions=pinging(*pings)
                )
                info.call = called.id
                await self.save_info(record.id, info)
        if old_call is not None:  # the call before: the person it called has acted
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old_call).delete()
        if new and old is not None:
            strip: dict[str, Any] = {"content": step_summary(screen, old_log), "embed": None}
            strip["view"] = None
            if not responded and via is not None and on_message(via, old):
                await via.response.edit_message(**strip, attachments=[])
                responded = True
            else:
                await self._strip(channel.get_partial_message(old), record.id, strip)
        if not responded and via is not None:  # a click on a message that is no board now
            await via.response.defer()
        if record.status == FINISHED:
            await self._announce_end(record, screen)

    async def _scrolled(self, channel_id: int, board: int, call: int | None = None) -> bool:
        """Whether other messages came after the board ``board`` in its channel (the game's
        own call to the person to act, ``call``, does not count)."""
        try:
            data = await self.bot.http.get_channel(channel_id)
        except discord.HTTPException:
            return True
        last = data.get("last_message_id")
        return last is not None and int(last) not in (board, call)

    async def _strip(
        self, message: discord.PartialMessage, game_id: int, strip: dict[str, Any]
    ) -> None:
        """An old board reduced to one line, without its buttons and picture."""
        try:
            await message.edit(**strip, attachments=[])
        except discord.HTTPException:
            log.info("could not strip the old board %s of game %s", message.id, game_id)

    async def remember_board(self, record: GameRecord, message_id: int, screen: Screen) -> None:
        """``message_id`` (showing ``record``) is the game's live board now; the one before is
        stripped to a line. Steps of several seats answered at once post their boards in any
        order: a board showing an older revision than the live one is taken down instead."""
        channel = self.bot.get_partial_messageable(record.channel_id)
        async with self._board_lock(record.id):
            info = self.info(record)
            if record.revision < info.board_revision and message_id != info.board:
                await self._take_down(channel.get_partial_message(message_id), record.id)
                return
            previous, old_log = info.board, info.log
            info.board = message_id
            info.board_revision = max(record.revision, info.board_revision)
            if screen.pings:
                info.pings = list(screen.pings)
            info.log = list(screen.log)
            info.image = image_digest(screen.image)
            await self.save_info(record.id, info)
        if previous is not None and previous != message_id:
            strip: dict[str, Any] = {"content": step_summary(screen, old_log), "embed": None}
            strip["view"] = None
            await self._strip(channel.get_partial_message(previous), record.id, strip)

    def _board_lock(self, game_id: int) -> asyncio.Lock:
        lock = self._board_locks.get(game_id)
        if lock is None:
            lock = self._board_locks[game_id] = asyncio.Lock()
        return lock

    async def _take_down(self, message: discord.PartialMessage, game_id: int) -> None:
        """A board that came after a newer one: deleted (or, if that fails, its buttons)."""
        try:
            await message.delete()
        except discord.HTTPException:
            try:
                await message.edit(content=None, view=None)
            except discord.HTTPException:
                log.info(
                    "could not take down the outdated board %s of game %s", message.id, game_id
                )
