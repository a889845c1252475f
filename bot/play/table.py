"""The Discord side of every game's life cycle, once: invitations, clicking through decisions,
the live board message, bot turns, idle reminders and forfeits, rematch and export.

A game cog composes one :class:`GameTable` with its :class:`~bot.play.spec.GameSpec` and
routes its commands to it; every click of the game's components (``custom_id`` prefix
``spec.prefix``) reaches :meth:`GameTable.on_component`. Nothing is kept in memory: every
choice so far lives in the ``custom_id``, so a button works after a restart.

``custom_id``: ``<prefix>:<game>:<token>:<op>:…``, where op is

- ``p:<path>[:<menu>]`` one click choice (a button carries the path with its token, a select
  the path before it); token: the id of the decision it was made for, so a click is stale
  exactly when that decision is answered, whatever other seats did meanwhile. The path is
  its tokens joined by ``.``, or option numbers (``#2``) where tokens are long or odd, so
  every ``custom_id`` fits Discord's 100 characters;
- ``pg:<path>:<page>`` the next page of options that did not fit (never dropped silently);
- ``o`` opens a decision privately (an ephemeral prompt built from that seat's view), for
  decisions of players whose turn it is not (reactions) and for games with private options;
- ``v`` shows the clicker their private view (a hand), ephemerally;
- ``m:<verb>`` resign (asked first) / draw votes; token: the game's revision;
- ``r`` rematch (token: the finished game's revision; one per game however often clicked);
- ``inv:<what>`` the invitation (token: the revision it was made for; answers per seat).

The game's ``display`` data (written without a revision bump) keep the players' names, its one
living board (the message, the revision and picture it shows, whom it called, its running
log), the language of the public board and the game's home (the thread it moved into from its
invitation, or why it has none): every screen goes through :meth:`GameTable.show`, which edits
the board in place and posts a new one (the old one stripped to a line) only when the person
to act changes after other messages came in between.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import hashlib
import io
import json
import logging
import time
import weakref
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NoReturn

import discord
from discord.ext import tasks

from bot.components import SEPARATOR, custom_id, custom_ids_of, values_of
from bot.fit import Whole, fit_params, join_limited, shorten
from bot.games import (
    ACCEPTED,
    ACTIVE,
    BOT,
    FINISHED,
    FORFEIT,
    HOST,
    INVITED,
    PENDING,
    READY,
    REFUSED,
    GameService,
    Seated,
    bot_seats,
    load,
    lobby_of,
    reaction_limit_s,
)
from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, t
from bot.play.spec import BoardContext, GameSpec, Option, Steps
from bot.play.ui import (
    INDEX,
    MAX_ROWS,
    WHOLE,
    Screen,
    button,
    decode_path,
    edit_kwargs,
    encode_path,
    in_time,
    make_view,
    option_ref,
    parse_path,
    pictured_at,
    send_kwargs,
    whole_steps,
)
from bot.render.base import clean_name
from bot.replies import LANGUAGE_PREF, lang_for, pinging, send, send_error
from bot.store import GameRecord, StaleRevision, StoreBusy
from bot.store.base import storage_failure
from engines.core import BadInput, IllegalAction
from engines.core import match as m
from engines.core.choices import ChoiceTree
from engines.core.contract import BotPlayer, Decision, timeout_action
from engines.core.errors import EngineError

log = logging.getLogger("spielleiter.play")

ROW_BUTTONS = 5
MAX_BUTTONS = 10  # more options than this go into select menus
SELECT_SIZE = 25
AUTOCOMPLETE_LIMIT = 25
CHAIN_LINES = 12  # a chained prompt repeats at most this many lines of the step it follows
BOT_GRACE_SECONDS = 30  # a bot turn left unplayed this long (a restart) is resumed
IDLE_CHECK_MINUTES = 1.0
NEUTRAL = 0x8A5CF6
LIVE_BOARDS_KEPT = 4096  # games whose display data the table remembers in memory
LOG_LINES = 6  # the running log on the board: its last lines
LEGAL_LIST = 500  # characters of the legal steps a refused typed step lists
REASON = 600  # characters of the reason it is refused
THREADS_PREF = "guild.game_threads"  # a server's own setting (on/off), kept under its id
GUILD_LANGUAGE_PREF = "guild.language"  # the server's game language (de/en), kept under its id
THREAD_ARCHIVE_MINUTES = 1440  # Discord's own auto-archive after a day without messages
THREAD_TYPES = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


@dataclass
class GameInfo:
    """What the table keeps per game beside the engine's record (its ``display`` data): the
    names, the living board (its message, the revision it shows, whom it last called, its
    running log and which picture it shows), the language of the public board and the game's
    home (``parent`` channel, ``invitation`` message there, its ``thread`` or the ``reason``
    why it has none, ``over`` once the invitation says who won, ``archived``)."""

    names: list[str]
    board: int | None = None
    board_revision: int = -1  # the game's revision the live board shows
    pings: list[int] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    image: str = ""  # a digest of the picture the board shows
    lang: str | None = None
    home: dict[str, Any] = field(default_factory=dict)
    call: int | None = None  # the short message that called the person to act (one at most)

    def dump(self) -> dict[str, Any]:
        return {
            "names": self.names,
            "board": self.board,
            "board_revision": self.board_revision,
            "pings": self.pings,
            "log": self.log,
            "image": self.image,
            "lang": self.lang,
            "home": self.home,
            "call": self.call,
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> GameInfo:
        return cls(
            list(data["names"]),
            data.get("board"),
            data.get("board_revision", -1),
            list(data.get("pings") or []),
            list(data.get("log") or []),
            str(data.get("image") or ""),
            data.get("lang"),
            dict(data.get("home") or {}),
            data.get("call"),
        )


def distinct_names(names: list[str]) -> list[str]:
    """``names`` with the seat's number after each name that several seats share (three bots
    of one level, two people called alike), so every sentence and image tells them apart.
    Each name is cleaned (``clean_name``): a line break or separator in a display name
    reaches no sentence or image."""
    names = [clean_name(name) or "?" for name in names]
    counts = Counter(names)
    return [f"{name} {seat + 1}" if counts[name] > 1 else name for seat, name in enumerate(names)]


# At start-up, the boards of games written this long before are checked (a stop between a
# game's write and its board's edit leaves the board behind).
REFRESH_WINDOW_S = 60 * 60


@dataclass
class Seating:
    """The seats of a new game: the host first, then the named people and the bot seats."""

    players: list[int]
    names: list[str]
    levels: dict[str, str]  # a bot seat (as text) → its level
    invited: bool  # someone other than the host and the bot must accept

    def config(self) -> dict[str, Any]:
        return {"ai_levels": dict(self.levels)} if self.levels else {}


class GameTable:
    """One game's Discord life cycle, for any engine (see the module docs)."""

    def __init__(self, bot: Any, spec: GameSpec) -> None:
        self.bot = bot
        self.spec = spec
        self.games = GameService(bot.store, bot.chance.bits)
        self.idle_loop = tasks.loop(minutes=IDLE_CHECK_MINUTES)(self._idle_tick)
        self._boards_refreshed = False  # see refresh_boards
        # The display data of recent games as last written here (a game lives in one shard's
        # process; newer than a record read before it was written), and a lock per game
        # while its board is being shown.
        self._infos: OrderedDict[int, dict[str, Any]] = OrderedDict()
        # the digest of the private image each seat's prompt shows (sent from here)
        self._hands: OrderedDict[tuple[int, int], str] = OrderedDict()
        self._board_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    def register(self) -> None:
        """Route the game's components here (the cog's ``cog_load``)."""
        self.bot.components.register(self.spec.prefix, self.on_component)

    def unregister(self) -> None:
        """Stop routing and sweeping (the cog's ``cog_unload``)."""
        self.bot.components.unregister(self.spec.prefix)
        self.idle_loop.cancel()

    def start_sweeping(self) -> None:
        """Sweep idle games every minute once connected (the cog's ``on_ready``; not at load:
        a bot that only loads its cogs, e.g. to print the command schema, never connects)."""
        if not self.idle_loop.is_running():
            self.idle_loop.start()

    async def _idle_tick(self) -> None:
        try:
            if not self._boards_refreshed:  # the first sweep after start-up
                self._boards_refreshed = True
                await self.refresh_boards(time.time() - REFRESH_WINDOW_S)
            await self.sweep_idle(time.time())
        except StoreBusy:  # a database locked from outside: the next sweep does it
            log.warning("the idle sweep found the database busy; it tries again next time")
        except Exception as error:
            if storage_failure(error) is None:
                log.exception("the idle sweep of %s failed", self.spec.kind)
            else:  # the database is away or full: the next sweep tries again
                log.warning("the idle sweep of %s found no storage: %r", self.spec.kind, error)

    def text(self, key: str, lang: str, /, **params: Any) -> str:
        return self.spec.text(key, lang, **params)

    # ------------------------------------------------------------------ starting

    def seating(
        self,
        interaction: discord.Interaction[Any],
        guests: Sequence[discord.abc.User | None],
        *,
        bots: int | None,
        level: str,
        lang: str,
    ) -> Seating:
        """The host, the named guests in order (the bot named as a guest takes a seat at
        ``level``), then ``bots`` bot seats (by default one when nobody else was named).
        Raises BadInput (``play.error.opponent_is_bot``) for another bot named as a guest."""
        me = self.bot_id()
        bot_label = self.spec.bot_name(self.bot_user_name(), level, lang)
        host = interaction.user
        seating = Seating([host.id], [host.display_name], {}, invited=False)

        def add_bot() -> None:
            seating.levels[str(len(seating.players))] = level
            seating.players.append(me)
            seating.names.append(bot_label)

        for guest in guests:
            if guest is None:
                continue
            if guest.id == me:
                add_bot()
            elif guest.bot:
                raise BadInput("play.error.opponent_is_bot")
            else:
                seating.players.append(guest.id)
                seating.names.append(guest.display_name)
                seating.invited = True
        for _ in range(bots if bots is not None else (0 if len(seating.players) > 1 else 1)):
            add_bot()
        return seating

    async def create(
        self,
        interaction: discord.Interaction[Any],
        config: dict[str, Any],
        players: list[int],
        names: list[str],
        *,
        invited: bool,
    ) -> None:
        """A new game in the interaction's channel: an invitation when ``invited`` (and some
        seat must answer), else the first board (and the bot's first turn, if it begins)."""
        humans = [p for p in players if p != self.bot_id()]
        if len(set(humans)) < len(humans):  # a game against yourself is no challenge
            raise BadInput(self.spec.key("error.self_challenge"))
        lang = await self.server_lang(interaction.guild_id) or await lang_for(interaction)
        if not invited and not interaction.response.is_done():
            await interaction.response.defer(thinking=True)  # stored and drawn first: < 3 s
        record = await self.games.create(
            self.spec.kind,
            config,
            channel_id=channel_of(interaction),
            guild_id=interaction.guild_id,
            players=players,
            invited=invited,
        )
        names = list(names)
        for seat, level in config.get("ai_levels", {}).items():  # named in the game's language
            if int(seat) < len(names):
                names[int(seat)] = self.spec.bot_name(self.bot_user_name(), level, lang)
        info = GameInfo(names, lang=lang)
        await self.save_info(record.id, info)
        if record.status == INVITED:
            await send(interaction, **self.invitation(record, info, lang))
            return
        await self.open_game(interaction, _with_display(record, info), lang)

    def invitation(self, record: GameRecord, info: GameInfo, lang: str) -> dict[str, Any]:
        """The invitation message: each seat's state, accept (with the setup choice where the
        game has one) and decline for the invited, start now / bot / re-invite for the host."""
        lobby = lobby_of(record)
        own = self.spec.invitation_text(record, info.names, lang)
        if own is not None:
            text = own
        else:
            lines = [
                self.text(
                    "invite.text",
                    lang,
                    inviter=f"<@{record.players[0]}>",
                    id=record.id,
                    game=self.text("game", lang),
                )
            ]
            for seat, state in enumerate(lobby.seats):
                who = f"<@{record.players[seat]}>" if state != BOT else f"🤖 {info.names[seat]}"
                line = f"{self.spec.seat_label(seat)} {who} · {self.text(f'seat.{state}', lang)}"
                choice = lobby.choices[seat]
                if choice is not None:
                    line += f" ({self.spec.choice_label(choice, lang)})"
                lines.append(line)
            text = "\n".join(lines)

        def cid(*parts: object) -> str:
            return custom_id(self.spec.prefix, record.id, record.revision, "inv", *parts)

        rows: list[list[discord.ui.Item[Any]]] = []
        setup = [] if self.spec.personal_setup else self.spec.setup_choices(lang)
        if setup:
            rows.append(
                [
                    discord.ui.Select(
                        custom_id=cid("c"),
                        placeholder=self.text("invite.choose", lang)[:150],
                        options=[
                            discord.SelectOption(label=label[:100], value=value)
                            for value, label in setup[:SELECT_SIZE]
                        ],
                    )
                ]
            )
        answer: list[discord.ui.Item[Any]] = []
        if not setup:
            answer.append(button(self.text("button.accept", lang), cid(1), "success"))
        answer.append(button(self.text("button.decline", lang), cid(0), "danger"))
        if len(record.players) > self.spec.engine.min_players and self.spec.starts_early(record):
            answer.append(button(self.text("button.start_now", lang), cid("s"), "primary", "▶"))
        rows.append(answer)
        open_seats = [i for i, s in enumerate(lobby.seats) if s == REFUSED]
        if open_seats and isinstance(self.spec.engine, BotPlayer):
            rows.append(
                [
                    button(
                        self.text("button.fill_bot", lang, seat=self.spec.seat_label(seat)),
                        cid("b", seat),
                        "secondary",
                        "🤖",
                    )
                    for seat in open_seats[:ROW_BUTTONS]
                ]
            )
        for seat in open_seats[: MAX_ROWS - len(rows)]:
            rows.append(
                [
                    discord.ui.UserSelect(
                        custom_id=cid("u", seat),
                        placeholder=self.text(
                            "invite.reinvite", lang, seat=self.spec.seat_label(seat)
                        )[:150],
                    )
                ]
            )
        pending = [record.players[i] for i, s in enumerate(lobby.seats) if s == PENDING]
        return {"content": text, "view": make_view(rows), "allowed_mentions": pinging(*pending)}

    async def _invitation_click(
        self, interaction: discord.Interaction[Any], record: GameRecord, rest: list[str]
    ) -> None:
        lang = await lang_for(interaction)
        what = rest[0] if rest else ""
        user = interaction.user.id
        info = self.info(record)
        public = info.lang or lang  # the invitation speaks the game's language, not the clicker's
        two = len(record.players) == 2  # a challenge of two: declined, it is over
        if what == "1" and self.spec.personal_setup:
            await self._personal_chooser(interaction, record, lang)
            return
        if what == "k" and rest[1:2] and rest[1].isdecimal():
            await self._personal_accept(interaction, record, int(rest[1]), lang)
            return
        if what == "1":
            record = await self.games.accept(record.id, user)
        elif what == "c":
            chosen = values_of(interaction)[:1]
            allowed = {value for value, _label in self.spec.setup_choices(lang)}
            if not chosen or chosen[0] not in allowed:
                raise BadInput(self.spec.key("error.bad_choice"))
            record = await self.games.accept(record.id, user, chosen[0])
        elif what == "0":
            record = await self.games.decline(record.id, user, close=two)
            if two:
                name = info.names[1]
                text = self.text("invite.declined", public, name=name, id=record.id)
                await interaction.response.edit_message(content=text, embed=None, view=None)
                return
        elif what == "s":
            keep = lobby_of(record).ready  # the seats that play; the others are dropped
            try:
                record = await self.games.start_now(record.id, user)
            except BadInput as refused:
                if len(keep) == len(record.players):
                    raise
                raise self._seats_missing(record, info, refused, lang) from None
            if len(keep) == len(record.players):
                info = GameInfo([info.names[i] for i in keep], info.board, lang=info.lang)
        elif what == "b" and rest[1:2] and rest[1].isdecimal():
            seat = int(rest[1])
            level = self.spec.default_level or _middle_level(self.spec)
            record = await self.games.fill_with_bot(record.id, user, seat, self.bot_id(), level)
            info.names[seat] = self.spec.bot_name(self.bot_user_name(), level, public)
        elif what == "u" and rest[1:2] and rest[1].isdecimal():
            seat = int(rest[1])
            chosen = values_of(interaction)[:1]
            if not chosen or not chosen[0].isdecimal():
                raise BadInput(self.spec.key("error.bad_choice"))
            guest = int(chosen[0])
            if guest == self.bot_id():
                raise BadInput(self.spec.key("error.opponent_is_bot"))
            record = await self.games.reinvite(record.id, user, seat, guest)
            info.names[seat] = _resolved_name(interaction, guest)
        else:
            raise BadInput(self.spec.key("error.bad_choice"))
        if what in ("1", "c"):
            taken = lobby_seat_of(record, user)
            if taken is not None:
                info.names[taken] = interaction.user.display_name
        await self.save_info(record.id, info)
        record = _with_display(record, info)
        if record.status != ACTIVE:
            await interaction.response.edit_message(**self.invitation(record, info, public))
            return
        invitation = interaction.message.id if interaction.message is not None else None
        await self.begin(interaction, record, lang, invitation=invitation)

    async def _personal_chooser(
        self, interaction: discord.Interaction[Any], record: GameRecord, lang: str
    ) -> None:
        """Accepting where each person picks among their own choices: those choices, only
        to them; their pick (``inv:k:<invitation message>``) accepts."""
        lobby = lobby_of(record)
        user = interaction.user.id
        seats = [i for i, p in enumerate(record.players) if p == user]
        if not seats:
            raise IllegalAction("error.not_invited")
        if not any(lobby.seats[i] == PENDING for i in seats):
            raise StaleRevision()
        choices = await self.spec.setup_choices_for(self.bot.store, record, user, lang)
        if not choices:
            raise BadInput(self.spec.key("error.no_setup_choice"))
        message = interaction.message.id if interaction.message is not None else 0
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_id(self.spec.prefix, record.id, record.revision, "inv", "k", message),
            placeholder=self.text("invite.choose", lang)[:150],
            options=[
                discord.SelectOption(label=label[:100], value=value[:100])
                for value, label in choices[:SELECT_SIZE]
            ],
        )
        text = self.text("invite.choose_own", lang, id=record.id)
        await send(interaction, text, view=make_view([[select]]), ephemeral=True)

    async def _personal_accept(
        self,
        interaction: discord.Interaction[Any],
        record: GameRecord,
        invitation: int,
        lang: str,
    ) -> None:
        """The person's own pick: accept with what it stands for, say so privately and
        update the invitation message (or show the board, once every seat is ready)."""
        user = interaction.user.id
        chosen = values_of(interaction)[:1]
        own = await self.spec.setup_choices_for(self.bot.store, record, user, lang)
        if not chosen or chosen[0] not in {value for value, _label in own}:
            raise BadInput(self.spec.key("error.bad_choice"))
        value = await self.spec.setup_value(self.bot.store, record, user, chosen[0])
        record = await self.games.accept(record.id, user, value)
        info = self.info(record)
        taken = lobby_seat_of(record, user)
        if taken is not None:
            info.names[taken] = interaction.user.display_name
        await self.save_info(record.id, info)
        record = _with_display(record, info)
        label = self.spec.choice_label(value, lang)
        done = self.text("invite.accepted_with", lang, choice=label)
        await interaction.response.edit_message(content=done, view=None)
        channel = self.bot.get_partial_messageable(record.channel_id)
        if record.status != ACTIVE:
            if invitation:
                message = channel.get_partial_message(invitation)
                with contextlib.suppress(discord.NotFound):  # deleted: nothing to update
                    await message.edit(**self.invitation(record, info, info.lang or lang))
            return
        await self.begin(interaction, record, lang, invitation=invitation or None)

    def _seats_missing(
        self, record: GameRecord, info: GameInfo, refused: BadInput, lang: str
    ) -> BadInput:
        """The host's early start that the game refuses without the seats still open (a
        scenario's every party, a fixed table): its reason, and which seats are missing."""
        lobby = lobby_of(record)
        missing = [
            f"{self.spec.seat_label(seat)} {info.names[seat]} ({self.text(f'seat.{state}', lang)})"
            for seat, state in enumerate(lobby.seats)
            if state not in READY
        ]
        reason = t(refused.key, lang, **refused.params)
        return BadInput(
            self.spec.key("error.seats_missing"),
            id=record.id,
            reason=reason,
            missing=", ".join(missing),
        )

    async def open_game(
        self, interaction: discord.Interaction[Any], record: GameRecord, lang: str
    ) -> None:
        """Show a started game that nobody had to accept (against the bot, a rematch)."""
        await self.begin(interaction, record, lang, invitation=None)

    async def begin(
        self,
        interaction: discord.Interaction[Any],
        record: GameRecord,
        lang: str,
        *,
        invitation: int | None,
    ) -> None:
        """A game that just started: in a server's text channel it moves into a thread of its
        own opened from its invitation (``invitation``; a game nobody had to accept gets a
        short one first), which then says where the game is, and the first board goes there.
        Where no thread can be, the game stays here and says why: the invitation clicked
        becomes the first board, else a new board is posted. The bot plays at once if it is
        due."""
        info = self.info(record)
        if info.lang is None:
            info.lang = await self.lang_of(record)
        lang = info.lang
        reason = await self._no_thread_reason(interaction, record)
        started = (
            self.started_text(record, info, lang)
            if reason is None
            else self.invitation(_as_started(record), info, lang)["content"]
        )
        quiet = discord.AllowedMentions.none()
        answered = interaction.response.is_done()
        if reason is None and invitation is None:  # the invitation of a game against the bot
            if answered:
                message = await interaction.followup.send(
                    content=started, allowed_mentions=quiet, wait=True
                )
                invitation = message.id
            else:
                response = await interaction.response.send_message(
                    content=started, allowed_mentions=quiet
                )
                invitation = response.message_id if response is not None else None
                answered = True
        elif reason is None and not answered and _on_message(interaction, invitation or 0):
            await interaction.response.edit_message(content=started, embed=None, view=None)
            answered = True
        record = await self.open_home(record, info, invitation, lang, reason)
        info = self.info(record)
        note = self.home_note(info, lang)
        bot_due = self.games.bot_due(record)
        elsewhere = "thread" in info.home or (invitation is not None and answered)
        if not elsewhere and not interaction.response.is_done():
            # the board answers here: acknowledged before it is drawn (Discord's 3 s)
            component = interaction.type == discord.InteractionType.component
            await interaction.response.defer(thinking=not component)
        screen = await self.screen(record, load(record), lang, thinking=bot_due)
        if elsewhere:
            parent = self.bot.get_partial_messageable(info.home["parent"])
            if invitation is not None:
                with contextlib.suppress(discord.NotFound):  # deleted: the board comes anyway
                    await parent.get_partial_message(invitation).edit(
                        content="\n".join(part for part in (started, note) if part)[:2000],
                        embed=None,
                        view=None,
                        allowed_mentions=quiet,
                    )
            await self.show(record, screen)
        else:
            if note:
                screen.content = "\n".join(p for p in (note, screen.content) if p)
            if invitation is not None and _on_message(interaction, invitation):
                await interaction.edit_original_response(**edit_kwargs(screen))
                await self.remember_board(record, invitation, screen)
            else:
                message = await interaction.followup.send(**send_kwargs(screen), wait=True)
                await self.remember_board(record, message.id, screen)
        if bot_due:
            await self.play_bot(record, lang)

    # ------------------------------------------------------------------ components

    async def on_component(self, interaction: discord.Interaction[Any], args: list[str]) -> None:
        if len(args) < 3 or not args[0].isdecimal() or not args[1]:
            raise BadInput(self.spec.key("error.bad_choice"))
        try:
            await self._on_component(interaction, int(args[0]), args[1], args[2], args[3:])
        except StaleRevision:
            if not await self._bring_up_to_date(interaction, int(args[0])):
                raise

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
        screen = await self._behind(record, message.id, await lang_for(interaction))
        if screen is None:
            return False  # the board shows the game's open decisions: the click was only late
        await interaction.response.edit_message(**edit_kwargs(screen))
        await self.remember_board(record, message.id, screen)
        return True

    async def _behind(self, record: GameRecord, board: int, lang: str) -> Screen | None:
        """The game's board as it should stand, when the board message ``board`` shows none of
        the game's open decisions (it is behind the game); None when it is current."""
        screen = await self.screen(record, load(record), lang, thinking=self.games.bot_due(record))
        channel = self.bot.get_partial_messageable(record.channel_id)
        shown = await channel.fetch_message(board)  # what Discord shows, not a client
        items = screen.view.children if screen.view is not None else []
        drawn = {str(cid) for item in items if (cid := getattr(item, "custom_id", None))}
        if _tokens(custom_ids_of(shown.components)) & _tokens(drawn):
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

    async def _on_component(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        token: str,
        op: str,
        rest: list[str],
    ) -> None:
        record = await self.games.get(game_id)
        if record.kind != self.spec.kind:
            raise BadInput(self.spec.key("error.bad_choice"))
        if op == "r":
            if not token.isdecimal():  # the rematch button carries the finished game's revision
                raise BadInput(self.spec.key("error.bad_choice"))
            await self.rematch(interaction, record, int(token))
        elif op == "inv":
            if record.status != INVITED:
                raise StaleRevision()
            await self._invitation_click(interaction, record, rest)
        elif op == "p":
            chosen = values_of(interaction)[:1]
            path = parse_path(rest[0] if rest else "") + tuple(chosen)
            await self.choose(interaction, record, path, token)
        elif op == "pg" and len(rest) == 2 and rest[1].isdecimal():
            await self.choose(interaction, record, parse_path(rest[0]), token, page=int(rest[1]))
        elif op == "o":
            await self.open_prompt(interaction, record, token)
        elif op == "v":
            await self.show_private(interaction, record)
        elif op == "m" and rest:
            if not token.isdecimal() or record.revision != int(token):
                raise StaleRevision()
            await self.meta_click(interaction, record, rest[0])
        else:
            raise BadInput(self.spec.key("error.bad_choice"))

    def _decision(self, record: GameRecord, user_id: int, decision: str) -> Seated:
        """The game loaded once for this click, with the clicker's seat, if ``decision`` is
        theirs and open. Raises IllegalAction (not their turn, another seat's decision),
        StaleRevision (answered)."""
        return self.games.seated(record, user_id, decision, keys=self.spec.key)

    async def choose(
        self,
        interaction: discord.Interaction[Any],
        record: GameRecord,
        path: tuple[str, ...],
        decision: str,
        *,
        page: int = 0,
    ) -> None:
        """One click choice: the next choices (the board or the private prompt updated in
        place), or the action once the clicker chose it to its last token. A click that
        completes an action only by skipping choices with one way on shows a button naming
        the whole action instead, which acts (unless the clicked label named it whole)."""
        at = self._decision(record, interaction.user.id, decision)
        match, seat = at.match, at.seat
        lang = await lang_for(interaction)
        tree = self.tree(match, seat)
        clicked = decode_path(tree, path, self.spec.key("error.bad_choice"))
        path = tree.follow(clicked)
        action = tree.action(path)
        if action is not None and (
            path == clicked or self._names_whole(record, match, seat, lang, tree, clicked)
        ):
            turn = await self.games.click(at, interaction.user.id, decision, action)
            steps = Steps()
            steps.add(turn)
            await self._answer(interaction, turn, steps)
            return
        if is_private(interaction):
            await interaction.response.edit_message(
                **self.prompt(record, match, seat, lang, path, tree, page)
            )
            return
        drawing = self.screen(record, match, lang, path=path, tree=tree, page=page)
        screen = await in_time(interaction, drawing, thinking=False)  # a slow one: deferred
        if interaction.response.is_done():
            await interaction.edit_original_response(**edit_kwargs(screen))
        else:
            await interaction.response.edit_message(**edit_kwargs(screen))
        if _on_message(interaction, self.info(record).board or 0):  # the board's picture now
            data = self._infos.get(record.id) or self.info(record).dump()
            self._infos[record.id] = {**data, "image": _digest(screen.image)}

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

    def tree(self, match: m.Match, seat: int) -> ChoiceTree[Any]:
        engine = self.spec.engine
        actions = engine.legal_actions(match.state, seat)
        return ChoiceTree(engine, actions, error_key=self.spec.key("error.bad_choice"))

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
        digest, key = _digest(image), (record.id, seat)
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
        match = load(record)
        view = self.spec.engine.view_for(match.state, seat)
        text = self.spec.private_text(view, lang) or self.text("private.none", lang)
        drawing = self.private_file(record, match, seat, lang)
        file = await in_time(interaction, drawing, ephemeral=True)
        extra = {"file": file} if file is not None else {}
        await send(interaction, text, ephemeral=True, **extra)

    async def meta_click(
        self, interaction: discord.Interaction[Any], record: GameRecord, verb: str
    ) -> None:
        lang = await lang_for(interaction)
        if verb == "resign":  # ask first: a resignation cannot be taken back
            GameService.seat_for(record, interaction.user.id)
            self._require_side(record, interaction.user.id, "!resign")
            confirm = button(
                self.text("button.resign_confirm", lang),
                custom_id(self.spec.prefix, record.id, record.revision, "m", "resign!"),
                "danger",
            )
            text = self.text("resign.confirm", lang)
            await send(interaction, text, view=make_view([[confirm]]), ephemeral=True)
            return
        texts = {
            "resign!": "!resign",
            "draw-offer": "!draw-offer",
            "draw-accept": "!draw-accept",
            "draw-decline": "!draw-decline",
        }
        if verb not in texts:
            raise BadInput(self.spec.key("error.bad_choice"))
        await self.act(interaction, record, texts[verb], record.revision)

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
            await interaction.followup.send(**self.invitation(record, new_info, lang))
            return
        await self.open_game(interaction, _with_display(record, new_info), lang)

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

    # ------------------------------------------------------------------ acting

    def require_turn(self, record: GameRecord, user_id: int) -> Seated:
        """The game loaded once, with the user's seat, if ``user_id`` may act in it now.
        Raises IllegalAction otherwise."""
        return self.games.seated(record, user_id, keys=self.spec.key)

    async def typed(
        self, interaction: discord.Interaction[Any], game_id: int | None, text: str
    ) -> None:
        """A step typed in notation or in the words the game shows (its colours and verbs in
        either language), or a meta action such as ``!resign``. A step the game refuses is
        answered with why and the steps the player may take now (the first ones and how many
        more)."""
        record = await self.game_for(interaction, game_id)
        text = self.spec.read_typed(text.strip())
        if not text.startswith("!"):
            at = self.require_turn(record, interaction.user.id)
            try:
                self.games.check_steps(at, [text])
            except (BadInput, IllegalAction) as refused:
                await self._refused_typed(interaction, at, refused)
        await self.act(interaction, record, text, None)

    async def _refused_typed(
        self, interaction: discord.Interaction[Any], at: Seated, refused: EngineError
    ) -> NoReturn:
        """Raises the refusal of a typed step with why and the steps the seat may take now
        (the first ones and how many more)."""
        lang = await lang_for(interaction)
        engine = self.spec.engine
        legal_actions = engine.legal_actions(at.match.state, at.seat)
        if not legal_actions:
            raise refused
        moves = [f"`{engine.action_text(a)}`" for a in legal_actions]
        reason = shorten(t(refused.key, lang, **fit_params(refused.params, lang)), REASON, lang)
        legal = join_limited(moves, LEGAL_LIST, lang)
        raise BadInput(self.spec.key("typed.refused"), reason=Whole(reason), moves=Whole(legal))

    async def act(
        self,
        interaction: discord.Interaction[Any],
        record: GameRecord,
        text: str,
        revision: int | None,
        *,
        decision: str | None = None,
    ) -> None:
        """Apply ``text`` for the user (a click: made for ``decision``, or for ``revision``),
        show the board, then let the bot answer if it is due."""
        match = None
        if not text.startswith("!"):
            match = self.require_turn(record, interaction.user.id).match
        self._require_side(record, interaction.user.id, text, match)
        turn = await self.games.act(
            record.id,
            interaction.user.id,
            text,
            revision,
            decision=decision,
            record=record,
            match=match,
        )
        steps = Steps()
        steps.add(turn)
        await self._answer(interaction, turn, steps)

    def _require_side(
        self, record: GameRecord, user_id: int, text: str, match: m.Match | None = None
    ) -> None:
        """A referee (a seat with no side) neither resigns nor offers a draw: the game needs
        it (see ARCHITECTURE.md, "the referee"). Raises IllegalAction for its ``!resign`` and
        ``!draw-offer``."""
        if text not in ("!resign", "!draw-offer") or not self.spec.neutral_seats:
            return
        if GameService.seat_for(record, user_id, match=match) in self.spec.neutral_seats:
            raise IllegalAction(self.spec.key("error.referee_stays"))

    async def typed_steps(
        self, interaction: discord.Interaction[Any], game_id: int | None, texts: list[str]
    ) -> None:
        """Several steps typed at once (a path of one figure): all are checked in order on the
        game as it stands first, so a path that fails anywhere applies nothing; then each is
        applied through the service and one board shows them all. Should another seat act in
        between (a game master's overrule) and a later step no longer be allowed, the steps
        so far stand, the board shows them and the user is told why the rest stopped."""
        record = await self.game_for(interaction, game_id)
        at = self.require_turn(record, interaction.user.id)
        self.games.check_steps(at, texts)
        steps = Steps()
        turn = None
        stopped: EngineError | None = None
        for text in texts:
            first = turn is None
            try:
                turn = await self.games.act(
                    record.id,
                    interaction.user.id,
                    text,
                    record=at.record if first else None,
                    match=at.match if first else None,
                )
            except EngineError as error:  # someone acted in between: the steps so far stand
                if turn is None:
                    raise
                stopped = error
                break
            steps.add(turn)
        if turn is None:
            raise BadInput(self.spec.key("error.bad_choice"))
        await self._answer(interaction, turn, steps)
        if stopped is not None:
            await send_error(interaction, stopped.key, **stopped.params)

    async def _answer(self, interaction: discord.Interaction[Any], turn: Any, steps: Steps) -> None:
        """Show the step(s) on the living board (in the game's language), then let the bot
        answer if it is due: a click on the board edits it; a private prompt's click edits
        the prompt; a typed step is answered privately. A board not drawn in time is
        acknowledged first (Discord's 3 s), then shown."""
        lang = await self.board_lang(turn.record)
        bot_due = self.games.bot_due(turn.record, turn.match)
        component = interaction.type == discord.InteractionType.component
        drawing = self.screen(turn.record, turn.match, lang, steps=steps, thinking=bot_due)
        screen = await in_time(
            interaction, drawing, ephemeral=not component, thinking=not component
        )
        if self.spec.picture_per_turn and m.to_act(self.spec.engine, turn.match) == {turn.actor}:
            screen.keep_image = True  # the seat goes on: the picture when its turn passes
        if component and not is_private(interaction):
            await self.show(turn.record, screen, via=interaction)
        else:
            own = await lang_for(interaction)
            if component and interaction.response.is_done():  # a prompt acknowledged first
                await interaction.edit_original_response(**await self._after_prompt(turn, own))
            elif component:  # an ephemeral prompt
                await interaction.response.edit_message(**await self._after_prompt(turn, own))
            else:
                await send(interaction, self._done_text(turn, own), ephemeral=True)
            await self.show(turn.record, screen)
        if bot_due:
            await self.play_bot(turn.record, lang)

    async def _after_prompt(self, turn: Any, lang: str) -> dict[str, Any]:
        """The private prompt after its step: done, or (a game whose prompts go on) the seat's
        next choice in the same message while the seat still has a decision, after what the
        step did; the seat's private image (its hand) stays while it is still true and is
        taken off once it is not (no picture per click: the text tells the hand, and "my
        cards" shows it again)."""
        done: dict[str, Any] = {"content": self._done_text(turn, lang), "view": None, "embed": None}
        seat, match, record = turn.actor, turn.match, turn.record
        if not self.spec.continue_prompt or record.status != ACTIVE:
            return done
        if seat not in m.to_act(self.spec.engine, match):
            return done
        tree = self.tree(match, seat)
        path = self.first_path(tree)
        following = self.prompt(record, match, seat, lang, path, tree, 0)
        seen = Steps([(seat, e) for e in turn.events]).visible(seat)  # what the step did
        ctx = self.context(record, match, lang)
        lines = [self.text("done", lang)]
        lines += [f"› {line}" for line in self.spec.narrate(seen, ctx)][-CHAIN_LINES:]
        following["content"] = ("\n".join(lines) + f"\n\n{following['content']}")[:2000]
        if await self.private_file(record, match, seat, lang, changed=True) is not None:
            following["attachments"] = []  # the picture is out of date: the text tells the hand
            self._hands[(record.id, seat)] = ""  # the prompt shows no picture now
        return {**following, "embed": None}

    def _done_text(self, turn: Any, lang: str) -> str:
        """The answer to a private prompt: done, and what only the actor may read of it."""
        info = self.info(turn.record)
        ctx = self.context(turn.record, turn.match, lang, names=info.names)
        own = Steps([(turn.actor, e) for e in turn.events if e.visible_to is not None])
        lines = [self.text("done", lang)]
        lines += [f"› {line}" for line in self.spec.narrate(own.visible(turn.actor), ctx)]
        return "\n".join(lines)

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
        screen = await self.screen(record, match or load(record), lang, steps=steps)
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
            digest = _digest(screen.image)
            keep = screen.keep_image or (screen.image is not None and digest == info.image)
            if record.status == FINISHED and not keep and not new:
                # the final picture is uploaded once, with the invitation that says who won
                # (the thread's first message, above the board); the board shows it from there
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
                    if not responded and via is not None and _on_message(via, old):
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
            strip: dict[str, Any] = {"content": _summary(screen, old_log), "embed": None}
            strip["view"] = None
            if not responded and via is not None and _on_message(via, old):
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
            info.image = _digest(screen.image)
            await self.save_info(record.id, info)
        if previous is not None and previous != message_id:
            strip: dict[str, Any] = {"content": _summary(screen, old_log), "embed": None}
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
            return _with_display(record, info)
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

    async def show_board(self, interaction: discord.Interaction[Any], game_id: int | None) -> None:
        """The current board again, as a new live board message (the old one stripped to a
        line), with its running log (a game from before the log: its last step replayed)."""
        record = await self.game_for(interaction, game_id, running_only=False)
        if record.status == INVITED:  # not begun: the invitation again, not a board yet
            lang = await lang_for(interaction)
            await send(interaction, **self.invitation(record, self.info(record), lang))
            return
        lang = await self.board_lang(record)
        elsewhere = channel_of(interaction) != record.channel_id  # asked in its parent channel
        await interaction.response.defer(thinking=True, ephemeral=elsewhere)
        steps = None if self.info(record).log else await self.last_steps(record)
        screen = await self.screen(record, load(record), lang, steps=steps)
        if elsewhere:  # only to the asker: the channel keeps the invitation alone
            await interaction.followup.send(**send_kwargs(screen), ephemeral=True)
            return
        message = await interaction.followup.send(**send_kwargs(screen), wait=True)
        await self.remember_board(record, message.id, screen)

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
        lines, running = _with_log(board.lines, self.info(record).log, notes)
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

    # ------------------------------------------------------------------ records

    async def export(self, interaction: discord.Interaction[Any], game_id: int | None) -> None:
        """The game record as the requester may read it: while it runs only what they may
        know (no seed, no other seat's secrets); once over the full record."""
        lang = await lang_for(interaction)
        record = await self.game_for(interaction, game_id, running_only=False)
        data = await self.games.export(record, interaction.user.id)
        await self.spec.export_extra(record, data, await self.bot.store.game_actions(record.id))
        data["names"] = self.info(record).names
        body = json.dumps(data, ensure_ascii=False, indent=1).encode()
        file = discord.File(io.BytesIO(body), filename=f"{self.spec.prefix}-{record.id}.json")
        text = self.text("export.done", lang, id=record.id, count=len(data["actions"]))
        await send(interaction, text, file=file, ephemeral=True)

    async def game_for(
        self,
        interaction: discord.Interaction[Any],
        game_id: int | None,
        *,
        running_only: bool = True,
    ) -> GameRecord:
        """The game a command means: the given id (a game of this channel, or of a thread
        opened here), else the caller's game in this channel.

        Raises IllegalAction when there is none or several could be meant.
        """
        channel = channel_of(interaction)
        kind = self.spec.kind
        if game_id is not None:
            record = await self.games.get(game_id)
            if record.kind != kind or channel not in (  # its thread, or where it began
                record.channel_id,
                self.info(record).home.get("parent"),
            ):
                raise IllegalAction(self.spec.key("error.not_here"), id=game_id)
            return record
        records = await self.games.running_in_channel(channel, kind)
        if not running_only and not records:
            records = await self.bot.store.games_in_channel(channel, kind=kind)
            records = sorted(records, key=lambda r: r.updated_at)[-1:]
        user = interaction.user.id
        mine = [r for r in records if user in r.players] or (records if not running_only else [])
        if running_only:  # a step or a meta action: an invitation beside it is not meant
            mine = [r for r in mine if r.status == ACTIVE] or mine
        if not mine:
            raise IllegalAction(self.spec.key("error.no_game"))
        if len(mine) > 1:
            due = [r for r in mine if self.user_to_act(r, user)]
            if len(due) != 1:
                ids = ", ".join(f"#{r.id}" for r in mine)
                raise IllegalAction(self.spec.key("error.which_game"), ids=ids)
            mine = due
        return mine[0]

    def user_to_act(self, record: GameRecord, user: int) -> bool:
        if record.status != ACTIVE:
            return False
        seats = m.to_act(self.spec.engine, load(record))
        return any(record.players[s] == user for s in seats)

    async def complete_game(self, interaction: discord.Interaction[Any]) -> list[tuple[str, int]]:
        """(label, id) of the running games in the channel, for autocomplete."""
        lang = await lang_for(interaction)
        records = await self.games.running_in_channel(channel_of(interaction), self.spec.kind)
        choices = []
        for record in records[:AUTOCOMPLETE_LIMIT]:
            label = self.spec.game_label(record.id, self.info(record, lang).names, lang)
            choices.append((label[:100], record.id))
        return choices

    async def listing(self, interaction: discord.Interaction[Any]) -> None:
        """The running games of this kind in the channel, ephemerally."""
        lang = await lang_for(interaction)
        records = await self.games.running_in_channel(channel_of(interaction), self.spec.kind)
        if not records:
            await send(interaction, self.text("list.empty", lang), ephemeral=True)
            return
        lines = []
        for record in records:
            match = load(record) if record.status == ACTIVE else None
            names = self.info(record, lang).names
            lines.append(self.spec.list_line(record, match, names, lang))
        embed = discord.Embed(
            title=self.text("list.title", lang),
            description="\n".join(lines)[:4000],
            colour=discord.Colour(NEUTRAL),
        )
        await send(interaction, embed=embed, ephemeral=True)

    async def complete_notation(
        self, interaction: discord.Interaction[Any], game_id: int | None, current: str
    ) -> list[str]:
        """The caller's legal actions in notation containing what they typed."""
        found = await self.seat_match(interaction, game_id)
        if found is None:
            return []
        match, seat = found
        engine = self.spec.engine
        typed = " ".join(current.lower().split())
        texts = [engine.action_text(a) for a in engine.legal_actions(match.state, seat)]
        return [text for text in texts if typed in text][:AUTOCOMPLETE_LIMIT]

    async def seat_match(
        self, interaction: discord.Interaction[Any], game_id: int | None
    ) -> tuple[m.Match, int] | None:
        """The caller's running game and seat in it, for autocomplete (None: there is none
        or it cannot be told which)."""
        try:
            record = await self.game_for(interaction, game_id)
            if record.status != ACTIVE:
                return None
            return load(record), GameService.seat_for(record, interaction.user.id)
        except (IllegalAction, BadInput):
            return None

    # ------------------------------------------------------------------ per game data

    def info(self, record: GameRecord, lang: str | None = None) -> GameInfo:
        """Names and live board of a game (as stored with ``record``); with ``lang``, the bot
        seats named in it (stored names carry the level in the starter's language)."""
        data = self._infos.get(record.id) or record.display
        if data:
            info = GameInfo.load(data)
        else:
            info = GameInfo([self.spec.seat_label(s) for s in range(len(record.players))])
        if lang is not None:
            for seat, level in record.config.get("ai_levels", {}).items():
                if int(seat) < len(info.names):
                    info.names[int(seat)] = self.spec.bot_name(self.bot_user_name(), level, lang)
        info.names = distinct_names(info.names)
        return info

    async def save_info(self, game_id: int, info: GameInfo) -> None:
        data = info.dump()
        await self.bot.store.set_game_display(game_id, data)
        self._infos[game_id] = copy.deepcopy(data)
        self._infos.move_to_end(game_id)
        while len(self._infos) > LIVE_BOARDS_KEPT:
            self._infos.popitem(last=False)

    async def lang_of(self, record: GameRecord, seat: int | None = None) -> str:
        """The language of a human player of the game (``seat`` or the first human)."""
        humans = [p for p in record.players if p != self.bot_id()]
        user = record.players[seat] if seat is not None else (humans or record.players)[0]
        return await self.bot.store.get_pref(user, LANGUAGE_PREF) or DEFAULT_LANGUAGE

    def bot_id(self) -> int:
        assert self.bot.user is not None
        return int(self.bot.user.id)

    def bot_user_name(self) -> str:
        assert self.bot.user is not None
        return str(self.bot.user.display_name)


# ------------------------------------------------------------------------ helpers


def channel_of(interaction: discord.Interaction[Any]) -> int:
    return interaction.channel_id or interaction.user.id


def is_private(interaction: discord.Interaction[Any]) -> bool:
    """Whether a click came from an ephemeral message (a private prompt)."""
    return interaction.message is not None and interaction.message.flags.ephemeral


def lobby_seat_of(record: GameRecord, user_id: int) -> int | None:
    """The seat ``user_id`` just took in an invitation (their accepted seat)."""
    if "lobby" not in record.snapshot:
        return record.seat_of(user_id)
    lobby = lobby_of(record)
    seats = [i for i, p in enumerate(record.players) if p == user_id]
    return next((i for i in seats if lobby.seats[i] in (ACCEPTED, HOST)), None)


def _middle_level(spec: GameSpec) -> str:
    """The level a bot fills a seat at when the game names none: the middle one."""
    engine = spec.engine
    levels = engine.bot_levels if isinstance(engine, BotPlayer) else ()
    return levels[len(levels) // 2] if levels else ""


def _resolved_name(interaction: discord.Interaction[Any], user_id: int) -> str:
    data: dict[str, Any] = dict(interaction.data or {})
    resolved: dict[str, Any] = data.get("resolved") or {}
    users: dict[str, Any] = resolved.get("users") or {}
    user: dict[str, Any] = users.get(str(user_id)) or {}
    return str(user.get("global_name") or user.get("username") or f"<@{user_id}>")


def _as_started(record: GameRecord) -> GameRecord:
    """A started game as its last lobby: the host, the bots and everyone else accepted, with
    the seats' choices (the started game keeps no lobby)."""
    bots = bot_seats(record)
    seats = [HOST if i == 0 else BOT if i in bots else ACCEPTED for i in range(len(record.players))]
    choices = record.config.get("seat_choices") or [None] * len(seats)
    return replace(record, snapshot={"lobby": {"seats": seats, "choices": list(choices)}})


def _tokens(custom_ids: set[str]) -> set[str]:
    """The decision ids (or revisions) that the components ``prefix:game:token:…`` were made
    for: a board whose tokens are none of the game's open ones is behind the game."""
    return {parts[2] for cid in custom_ids if len(parts := cid.split(SEPARATOR)) > 3}


def _with_log(
    lines: list[str], log_before: list[str], notes: Sequence[str] = ()
) -> tuple[list[str], list[str]]:
    """The board's lines with the running log: the ``notes`` and the steps narrated now
    (lines ``› …``) after the earlier ones, at most :data:`LOG_LINES` in all, where the board
    narrates (else before its status line); and the running log to keep."""
    narrated = [line for line in lines if line.startswith("› ")]
    new = [f"› {note}" for note in notes] + narrated
    running = (log_before + new)[-LOG_LINES:]
    said = {line.removeprefix("› ") for line in running}
    lines = [line for line in lines if line not in said]  # a state line the log tells already
    if narrated:
        first = lines.index(narrated[0])
        rest = [line for line in lines[first:] if not line.startswith("› ")]
        return lines[:first] + running + rest, running
    if not running:
        return lines, running
    at = next((i for i, line in enumerate(lines) if line.startswith("**")), len(lines))
    if at and lines[at - 1] == "":
        return lines[:at] + running + [""] + lines[at:], running
    return [*lines[:at], "", *running, "", *lines[at:]], running


def _digest(image: bytes | None) -> str:
    return hashlib.sha1(image).hexdigest() if image is not None else ""


def _on_message(interaction: discord.Interaction[Any], message_id: int) -> bool:
    """Whether ``interaction`` is a click on message ``message_id``."""
    return interaction.message is not None and interaction.message.id == message_id


def _summary(screen: Screen, log_before: list[str]) -> str:
    """The one line an old board keeps: the game and the last step it showed."""
    title = screen.embed.title or ""
    last = log_before[-1].removeprefix("› ") if log_before else ""
    return shorten_line(f"**{title}** · {last}" if last else f"**{title}**")


def shorten_line(text: str, limit: int = 300) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _with_display(record: GameRecord, info: GameInfo) -> GameRecord:
    """``record`` with ``info`` as its display data (as just stored)."""
    return replace(record, display=info.dump())


__all__ = ["GameInfo", "GameTable", "Option", "Screen", "Steps"]
