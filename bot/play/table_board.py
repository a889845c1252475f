"""The shared game table's boards and the game's home: a seat's choice tree, the context a spec
draws from, the screen of a game (board, components, the choices in rows and pages, the meta
row), the board's language, the last step of a board shown again (through the service), the
thread a game opens in its channel, the note where it lives, the end announced in the
parent channel and finished threads archived.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import discord

from bot.components import custom_id
from bot.games import ACTIVE, FINISHED
from bot.i18n import LANGUAGES
from bot.play.spec import BoardContext, Steps
from bot.play.table_base import (
    GUILD_LANGUAGE_PREF,
    MAX_BUTTONS,
    NEUTRAL,
    ROW_BUTTONS,
    SELECT_SIZE,
    THREAD_ARCHIVE_MINUTES,
    THREAD_TYPES,
    THREADS_PREF,
    GameInfo,
    TableBase,
    with_display,
    with_log,
)
from bot.play.ui import (
    INDEX,
    MAX_ROWS,
    WHOLE,
    Screen,
    button,
    encode_path,
    make_view,
    option_ref,
    whole_steps,
)
from bot.store import GameRecord
from engines.core import match as m
from engines.core.choices import ChoiceTree
from engines.core.contract import Decision
from engines.core.errors import EngineError

log = logging.getLogger("spielleiter.play")


class TableBoard(TableBase):
    """See the module docs; part of ``bot.play.table.GameTable``."""

    # ------------------------------------------------------------------ components

    def tree(self, match: m.Match, seat: int) -> ChoiceTree[Any]:
        engine = self.spec.engine
        actions = engine.legal_actions(match.state, seat)
        return ChoiceTree(engine, actions, error_key=self.spec.key("error.bad_choice"))

    # ------------------------------------------------------------------ the game's home

    async def threads_on(self, guild_id: int | None) -> bool:
        """Whether games of the server get their own thread: its setting, else the bot's."""
        if guild_id is None:
            return False
        own = await self.bot.store.get_pref(guild_id, THREADS_PREF)
        if own in ("on", "off"):
            return bool(own == "on")
        return bool(self.bot.settings.game_threads)

    def thread_name(self, record: GameRecord, info: GameInfo, lang: str) -> str:
        """ "<Game> #<id> · <players>" (the board's title and the names), at most Discord's
        100 characters."""
        return " ".join(self.started_text(record, info, lang).split())[:100]

    def started_text(self, record: GameRecord, info: GameInfo, lang: str) -> str:
        """The game and its players in one line (a started game's invitation, its thread)."""
        names = ", ".join(" ".join(name.split()) for name in info.names)
        title = self.text("title", lang, id=record.id)
        return self.text("home.started", lang, title=title, names=names)

    async def open_home(
        self,
        record: GameRecord,
        info: GameInfo,
        message_id: int | None,
        lang: str,
        reason: str | None,
    ) -> GameRecord:
        """Where a starting game lives: without a ``reason`` against it, a thread of its own
        opened from its invitation message ``message_id`` (the game moves there), else the
        channel it was started in, with the reason (a DM, a thread already, no permission,
        the server's setting, a failure) kept for the invitation to say. Returns the record
        as it lives now."""
        parent = record.channel_id
        home: dict[str, Any] = {"parent": parent, "invitation": message_id}
        if reason is None and message_id is None:
            reason = "failed"
        if reason is None and message_id is not None:
            try:
                data = await self.bot.http.start_thread_with_message(
                    parent,
                    message_id,
                    name=self.thread_name(record, info, lang),
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                )
            except discord.Forbidden:
                reason = "permission"
            except discord.HTTPException:
                log.warning("game %s: no thread could be opened", record.id, exc_info=True)
                reason = "failed"
            else:
                home["thread"] = int(data["id"])
        if reason is not None:
            home["reason"] = reason
        info.home = home
        info.lang = info.lang or lang
        await self.save_info(record.id, info)
        thread = home.get("thread")
        if thread is None:
            return with_display(record, info)
        await self.bot.store.set_game_channel(record.id, thread)
        return replace(record, channel_id=thread, display=info.dump())

    async def _no_thread_reason(
        self, interaction: discord.Interaction[Any], record: GameRecord
    ) -> str | None:
        """Why the game cannot have a thread of its own (None: it can)."""
        if record.guild_id is None or interaction.guild_id is None:
            return "dm"
        if not await self.threads_on(record.guild_id):
            return "off"
        channel = interaction.channel
        if isinstance(channel, discord.Thread) or (
            channel is not None and getattr(channel, "type", None) in THREAD_TYPES
        ):
            return "thread"
        if not interaction.app_permissions.create_public_threads:
            return "permission"
        return None

    def home_note(self, info: GameInfo, lang: str) -> str:
        """Where the game is, for its invitation: its thread, or why it stayed here."""
        thread = info.home.get("thread")
        if thread is not None:
            return self.text("home.thread", lang, thread=f"<#{thread}>")
        reason = info.home.get("reason")
        if reason in (None, "off"):
            return ""
        return self.text(f"home.no_thread.{reason}", lang)

    async def _announce_end(
        self, record: GameRecord, screen: Screen, info: GameInfo | None = None
    ) -> str | None:
        """Once a game in its own thread is over: its invitation in the parent channel says
        who won, with the final picture (once). Returns the url of that picture as uploaded
        (None: none was). ``info``: the game's, as the caller holds it (kept up to date)."""
        info = info or self.info(record)
        home = info.home
        if home.get("thread") is None or not home.get("invitation") or home.get("over"):
            return None
        lang = info.lang or await self.lang_of(record)
        home["over"] = True
        await self.save_info(record.id, info)
        text = self.text(
            "home.over",
            lang,
            title=self.text("title", lang, id=record.id),
            names=", ".join(info.names),
            result=screen.status,
            thread=f"<#{home['thread']}>",
        )
        parent = self.bot.get_partial_messageable(home["parent"])
        file = screen.new_file()
        try:
            edited = await parent.get_partial_message(home["invitation"]).edit(
                content=text[:2000],
                embed=None,
                view=None,
                attachments=[file] if file is not None else [],
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.info("game %s: its invitation could not say who won", record.id)
            return None
        return edited.attachments[0].url if file is not None and edited.attachments else None

    async def archive_finished(self, now: float) -> None:
        """Archive the thread of every finished game of this kind (in this process's shards)
        once it has been over for the archive time."""
        minutes = self.bot.settings.thread_archive_minutes
        records = await self.bot.store.games_idle_since(
            now - minutes * 60, unreminded_only=True, status=FINISHED
        )
        for record in records:
            home = (record.display or {}).get("home") or {}
            if home.get("thread") is None or home.get("archived"):  # nothing to archive, ever:
                await self.games.mark_reminded(record)  # not listed again (any game)
                continue
            if record.kind != self.spec.kind or not self.bot.owns_guild(record.guild_id):
                continue  # its own table archives it
            info = self.info(record)
            thread = info.home["thread"]
            try:
                await self.bot.http.edit_channel(thread, archived=True)
            except discord.HTTPException:
                log.info("game %s: its thread could not be archived", record.id)
            info.home["archived"] = True
            await self.save_info(record.id, info)
            await self.games.mark_reminded(record)

    async def server_lang(self, guild_id: int | None) -> str | None:
        """The server's game language (``/einstellungen``), None where it has none: a new
        game then speaks its host's."""
        if guild_id is None:
            return None
        own = await self.bot.store.get_pref(guild_id, GUILD_LANGUAGE_PREF)
        return own if own in LANGUAGES else None

    async def board_lang(self, record: GameRecord) -> str:
        """The language of the public board: the game's (its host's when it began)."""
        return self.info(record).lang or await self.lang_of(record)

    async def last_steps(self, record: GameRecord) -> Steps | None:
        """The events of the game's last logged step (replayed by the service), so a board
        shown again still says what happened last; None before the first step."""
        try:
            last = await self.games.last_step(record)
        except EngineError:  # a log the engine no longer replays: the board without it
            log.warning("game %s: its log does not replay; the board shows no last step", record.id)
            return None
        if last is None:
            return None
        seat, events = last
        return Steps([(seat, event) for event in events], [0])

    def context(
        self,
        record: GameRecord,
        match: m.Match,
        lang: str,
        *,
        names: list[str] | None = None,
        steps: Steps | None = None,
        path: tuple[str, ...] = (),
        tree: ChoiceTree[Any] | None = None,
        thinking: bool = False,
        seat: int | None = None,
    ) -> BoardContext:
        names = names if names is not None else self.info(record, lang).names
        return BoardContext(
            record, match, names, lang, self.bot_id(), steps, path, tree, thinking, seat
        )

    async def screen(
        self,
        record: GameRecord,
        match: m.Match,
        lang: str,
        *,
        path: tuple[str, ...] = (),
        tree: ChoiceTree[Any] | None = None,
        steps: Steps | None = None,
        thinking: bool = False,
        page: int = 0,
        notes: Sequence[str] = (),
    ) -> Screen:
        """The public board message: the spec's texts and image, and the components. The
        steps just played (after the ``notes`` the table adds, e.g. a reaction passed in time)
        join the board's running log (its last :data:`LOG_LINES` lines, kept with the game):
        the board tells the last few steps, never a message per step."""
        ctx = self.context(
            record, match, lang, steps=steps, path=path, tree=tree, thinking=thinking
        )
        board = await self.spec.board(ctx)
        lines, running = with_log(board.lines, self.info(record).log, notes)
        embed = discord.Embed(
            title=board.title,
            description="\n".join(lines)[:4000],
            colour=discord.Colour(board.colour if board.colour is not None else NEUTRAL),
        )
        if board.image is not None:
            embed.set_image(url=f"attachment://{board.filename}")
        if board.footer:
            embed.set_footer(text=board.footer)
        return Screen(
            board.content,
            embed,
            None,
            self.components(ctx, page),
            board.pings,
            image=board.image,
            filename=board.filename,
            log=running,
            status=next((line.strip("*") for line in lines if line.startswith("**")), ""),
            keep_image=thinking,
        )

    def components(self, ctx: BoardContext, page: int = 0) -> discord.ui.View | None:
        """Rematch once over; while running, the click tree on the board (an open game with
        one decision) or one private prompt button per open decision, and the meta row."""
        record, match, lang = ctx.record, ctx.match, ctx.lang
        if ctx.outcome is not None or record.status == FINISHED:
            rematch = button(
                self.text("button.rematch", lang),
                custom_id(self.spec.prefix, record.id, record.revision, "r"),
                "success",
            )
            return make_view([[rematch]])
        if ctx.thinking or record.status != ACTIVE:
            return None
        open_ = [
            d
            for d in m.decisions(self.spec.engine, match)
            if record.players[d.seat] != self.bot_id()
        ]
        if not open_:
            return None
        if self.spec.board_choices and len(open_) == 1:
            decision = open_[0]
            tree = ctx.tree or self.tree(match, decision.seat)
            rows = self.choice_rows(
                record, match, decision.seat, decision, lang, ctx.path, tree, page, meta=True
            )
            return make_view(rows)
        if ctx.path:
            return None
        asks: list[discord.ui.Item[Any]] = [
            button(
                self.text("button.decide", lang, name=ctx.names[d.seat])[:80],
                custom_id(self.spec.prefix, record.id, d.id, "o"),
                "primary",
            )
            for d in open_[:ROW_BUTTONS]
        ]
        playing = [d.seat for d in open_ if d.seat not in self.spec.neutral_seats]
        seat = playing[0] if playing else open_[0].seat
        meta = self.meta_row(ctx, seat, lambda *p: self._meta_id(record, *p))
        if self.spec.private_view and len(meta) < ROW_BUTTONS:
            meta.append(
                button(
                    self.text("button.private", lang),
                    custom_id(self.spec.prefix, record.id, record.revision, "v"),
                    "secondary",
                    "🂠",
                )
            )
        return make_view([asks, meta])

    def _meta_id(self, record: GameRecord, *parts: object) -> str:
        return custom_id(self.spec.prefix, record.id, record.revision, *parts)

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
        """The click choices after ``path`` for ``decision``: buttons for a few, select menus
        for many, a page button when even the menus do not hold them all; at the root the
        meta row (``meta``), deeper a back button."""
        ctx = self.context(record, match, lang, path=path, tree=tree, seat=seat)
        encoded = encode_path(tree, path)

        def cid(*parts: object) -> str:
            """A click choice carries its decision."""
            return custom_id(self.spec.prefix, record.id, decision.id, *parts)

        last: list[discord.ui.Item[Any]] = []
        if path and tree.follow(tree.back(path)) != path:  # a real choice was made
            back = encode_path(tree, tree.back(path))
            last.append(button(self.text("button.back", lang), cid("p", back), "secondary", "↩"))
        elif meta:
            last = self.meta_row(ctx, seat, lambda *p: self._meta_id(record, *p))
        if tree.action(path) is not None:  # complete, not clicked to its end: confirm it
            whole = self.spec.action_option(ctx, path)
            confirm = button(whole.label, cid("p", encoded), whole.style, whole.emoji)
            return [[confirm], last] if last else [[confirm]]
        options = self.spec.options(ctx, path, tree.options(path))
        steps = whole_steps(tree, path)
        picked = self.spec.shortcuts(ctx, path, steps)
        if picked:  # whole steps, one click each (and, unless they are all, the choices)
            wholes = [
                replace(self.spec.step_option(ctx, path, steps[i]), token=f"{WHOLE}{i}")
                for i in picked
            ]
            chosen = {steps[i] for i in picked}
            depth = len(path)
            covered = {  # a choice all of whose steps are offered whole is not offered again
                o.token
                for o in options
                if all(step in chosen for step in steps if step[depth] == o.token)
            }
            options = wholes + [o for o in options if o.token not in covered]
        usual, rare = self.spec.more(ctx, path, options)
        shift, turn = 0, None  # with a rest: page 0 the usual options and "mehr", then the rest
        if rare and page <= 0:
            options = usual
            label = self.text("button.more_steps", lang)
            turn = button(label, cid("pg", encoded, 1), "secondary", "➕")
        elif rare:
            options, shift, page = rare, 1, page - 1
            turn = button(self.text("button.back", lang), cid("pg", encoded, 0), "secondary", "↩")

        few = len(options) <= MAX_BUTTONS
        on_buttons = [o for o in options if o.select is False or (o.select is None and few)]
        in_selects = [o for o in options if o not in on_buttons]
        on_buttons, spill = on_buttons[: ROW_BUTTONS * 2], on_buttons[ROW_BUTTONS * 2 :]
        in_selects = spill + in_selects
        items: list[discord.ui.Item[Any]] = [
            button(o.label, cid("p", encode_path(tree, (*path, o.token))), o.style, o.emoji)
            for o in on_buttons
        ]
        if turn is not None:
            items.append(turn)
        button_rows = [items[i : i + ROW_BUTTONS] for i in range(0, len(items), ROW_BUTTONS)]
        room = MAX_ROWS - len(button_rows) - 1
        chunks = [in_selects[i : i + SELECT_SIZE] for i in range(0, len(in_selects), SELECT_SIZE)]
        pages = max(1, -(-len(chunks) // max(room, 1)))
        page = min(max(page, 0), pages - 1)
        shown = chunks[page * room : (page + 1) * room]
        select_rows: list[list[discord.ui.Item[Any]]] = []
        for index, chunk in enumerate(shown):
            select: discord.ui.Select[Any] = discord.ui.Select(
                custom_id=cid("p", encoded, page * room + index),
                placeholder=(
                    self.text("select.step", lang)  # whole steps: no longer "which mote?"
                    if all(o.token.startswith(WHOLE) for o in chunk)
                    else self.spec.placeholder(path, lang)
                )[:150],
                options=[
                    discord.SelectOption(
                        label=o.label[:100],
                        value=o.token
                        if len(o.token) <= 100 and INDEX not in o.token
                        else option_ref(tree, path, o.token),
                        description=o.description[:100] if o.description else None,
                        emoji=o.emoji,
                    )
                    for o in chunk
                ],
            )
            select_rows.append([select])
        if pages > 1:
            following = (page + 1) % pages
            label = self.text("button.more", lang, page=following + 1, pages=pages)
            more = button(label, cid("pg", encoded, following + shift), "secondary", "▶")
            if len(last) < ROW_BUTTONS:
                last.append(more)
            else:
                last[-1] = more
        rows = select_rows + button_rows
        if last:
            rows.append(last)
        return rows

    def meta_row(
        self, ctx: BoardContext, seat: int, cid: Callable[..., str]
    ) -> list[discord.ui.Item[Any]]:
        """Draw and resign buttons. A draw offer by the seat to act with one other player
        left is answered by that player only: its buttons name who they are for. A referee
        (``GameSpec.neutral_seats``) acting is offered neither a draw nor to resign, only the
        answers to a draw the players offered."""
        lang, match = ctx.lang, ctx.match
        row: list[discord.ui.Item[Any]] = []
        offerer = match.draw_offer_by
        others = [s for s in match.remaining if s != seat]
        referee = seat in self.spec.neutral_seats
        if offerer is None and referee:
            return row
        if offerer is None:
            row.append(
                button(
                    self.text("button.draw_offer", lang), cid("m", "draw-offer"), "secondary", "🤝"
                )
            )
        elif offerer == seat and len(others) == 1:
            answerer = ctx.names[others[0]]
            row.append(
                button(
                    self.text("button.draw_accept_for", lang, name=answerer),
                    cid("m", "draw-accept"),
                    "success",
                    "🤝",
                )
            )
            row.append(
                button(
                    self.text("button.draw_decline_for", lang, name=answerer),
                    cid("m", "draw-decline"),
                    "secondary",
                )
            )
        else:
            row.append(
                button(
                    self.text("button.draw_accept", lang), cid("m", "draw-accept"), "success", "🤝"
                )
            )
            row.append(
                button(
                    self.text("button.draw_decline", lang), cid("m", "draw-decline"), "secondary"
                )
            )
        if not referee:
            row.append(button(self.text("button.resign", lang), cid("m", "resign"), "danger", "🏳️"))
        return row
