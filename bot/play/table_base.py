"""The shared game table's ground floor (``bot.play.table``): its limits, a game's display data
(:class:`GameInfo`: names, the living board, its running log, the game's home), the seating
of a new game, the small helpers every part uses, and :class:`TableBase`: the table's
service and spec, a game's display data read and written, and the records (finding a
game for a command, listing, export, autocompletes).
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import io
import json
import logging
import weakref
from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import discord

from bot.components import SEPARATOR
from bot.games import ACCEPTED, ACTIVE, BOT, HOST, GameService, bot_seats, lobby_of
from bot.i18n import DEFAULT_LANGUAGE
from bot.play.spec import GameSpec
from bot.play.ui import Screen
from bot.render.base import clean_name
from bot.replies import LANGUAGE_PREF, lang_for, send
from bot.store import GameRecord
from engines.core import BadInput, IllegalAction
from engines.core import match as m
from engines.core.contract import BotPlayer

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


class TableBase:
    """What every part of the table stands on (see ``bot.play.table``)."""

    # ------------------------------------------------------------------ init

    def __init__(self, bot: Any, spec: GameSpec) -> None:
        self.bot = bot
        self.spec = spec
        self.games = GameService(bot.store, bot.chance.bits)
        # The display data of recent games as last written here (a game lives in one shard's
        # process; newer than a record read before it was written), and a lock per game
        # while its board is being shown.
        self._infos: OrderedDict[int, dict[str, Any]] = OrderedDict()
        # the digest of the private image each seat's prompt shows (sent from here)
        self._hands: OrderedDict[tuple[int, int], str] = OrderedDict()
        self._board_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    def text(self, key: str, lang: str, /, **params: Any) -> str:
        return self.spec.text(key, lang, **params)

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
        seats = m.to_act(self.spec.engine, self.games.match_of(record))
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
            match = self.games.match_of(record) if record.status == ACTIVE else None
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
            return self.games.match_of(record), GameService.seat_for(record, interaction.user.id)
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


def middle_level(spec: GameSpec) -> str:
    """The level a bot fills a seat at when the game names none: the middle one."""
    engine = spec.engine
    levels = engine.bot_levels if isinstance(engine, BotPlayer) else ()
    return levels[len(levels) // 2] if levels else ""


def resolved_name(interaction: discord.Interaction[Any], user_id: int) -> str:
    data: dict[str, Any] = dict(interaction.data or {})
    resolved: dict[str, Any] = data.get("resolved") or {}
    users: dict[str, Any] = resolved.get("users") or {}
    user: dict[str, Any] = users.get(str(user_id)) or {}
    return str(user.get("global_name") or user.get("username") or f"<@{user_id}>")


def as_started(record: GameRecord) -> GameRecord:
    """A started game as its last lobby: the host, the bots and everyone else accepted, with
    the seats' choices (the started game keeps no lobby)."""
    bots = bot_seats(record)
    seats = [HOST if i == 0 else BOT if i in bots else ACCEPTED for i in range(len(record.players))]
    choices = record.config.get("seat_choices") or [None] * len(seats)
    return replace(record, snapshot={"lobby": {"seats": seats, "choices": list(choices)}})


def component_tokens(custom_ids: set[str]) -> set[str]:
    """The decision ids (or revisions) that the components ``prefix:game:token:…`` were made
    for: a board whose tokens are none of the game's open ones is behind the game."""
    return {parts[2] for cid in custom_ids if len(parts := cid.split(SEPARATOR)) > 3}


def with_log(
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


def image_digest(image: bytes | None) -> str:
    return hashlib.sha1(image).hexdigest() if image is not None else ""


def on_message(interaction: discord.Interaction[Any], message_id: int) -> bool:
    """Whether ``interaction`` is a click on message ``message_id``."""
    return interaction.message is not None and interaction.message.id == message_id


def step_summary(screen: Screen, log_before: list[str]) -> str:
    """The one line an old board keeps: the game and the last step it showed."""
    title = screen.embed.title or ""
    last = log_before[-1].removeprefix("› ") if log_before else ""
    return shorten_line(f"**{title}** · {last}" if last else f"**{title}**")


def shorten_line(text: str, limit: int = 300) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def with_display(record: GameRecord, info: GameInfo) -> GameRecord:
    """``record`` with ``info`` as its display data (as just stored)."""
    return replace(record, display=info.dump())
