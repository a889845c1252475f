"""The fake Discord's state: its records, waiting for a condition, lookups of users,
channels and commands, threads and permissions."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from aiohttp import web

from bot.sandbox.fake_discord.model import (
    API_PREFIX,
    BOT_ID,
    CALLBACK_DEADLINE,
    DEFAULT_TIMEOUT,
    DISCORD_EPOCH_MS,
    BotFailed,
    Exchange,
    FakeChannel,
    FakeGuild,
    FakeTimeout,
    FakeUser,
    PayloadRefused,
    RecordedRequest,
    StoredMessage,
    T,
    _names,
    _Session,
    default_guild,
    stable_user_id,
)


class FakeBase:
    """The records of the loopback Discord and the lookups every part uses."""

    def __init__(
        self,
        guilds: Sequence[FakeGuild] | None = None,
        *,
        bot_name: str = "Spielleiter",
        bot_id: int = BOT_ID,
        host: str = "127.0.0.1",
        port: int = 0,
        report_refusals: bool = True,
        shard_count: int = 1,
    ) -> None:
        self.guilds: list[FakeGuild] = list(guilds) if guilds is not None else [default_guild()]
        self.bot_user = FakeUser(bot_id, bot_name, bot=True)
        self.application_id = bot_id
        self.host = host
        self.port = port
        self.requests: list[RecordedRequest] = []
        self.unhandled: list[RecordedRequest] = []  # requests no route of the fake knows
        # Bodies real Discord would refuse (answered 400 Invalid Form Body); with
        # ``report_refusals`` each is also reported as a bot error, so the test fails.
        self.refused: list[PayloadRefused] = []
        self.report_refusals = report_refusals
        # Interactions answered after ``callback_deadline`` seconds (refused as Discord does,
        # and reported like a refused body): the interaction and how late its answer was.
        self.callback_deadline = CALLBACK_DEADLINE
        self.late_callbacks: list[tuple[Exchange, float]] = []
        self.messages: dict[int, StoredMessage] = {}
        self.exchanges: dict[str, Exchange] = {}  # by token
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # None = global
        self.sync_count = 0
        self.identifies: list[dict[str, Any]] = []
        self.resumes: list[dict[str, Any]] = []
        self.errors: list[BaseException] = []
        self.errors_raised = False  # a wait already failed because of them
        self.users: dict[int, FakeUser] = {}
        self.dm_channels: dict[int, FakeChannel] = {}  # by user id
        self.threads: dict[int, FakeChannel] = {}  # by id (a thread's id is its message's)
        self.archived: set[int] = set()  # threads archived (posting in one unarchives it)
        self.denied: dict[int, int] = {}  # channel id → permission bits the bot lacks there
        self._ids = itertools.count(1)
        self._sessions: dict[str, _Session] = {}
        self.shard_count = shard_count  # what GET /gateway/bot recommends
        self._live: dict[int, _Session] = {}  # the connected session of each shard id
        self._identified: set[int] = set()  # every shard id a bot identified for
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._sockets: set[web.WebSocketResponse] = set()

    # ----------------------------------------------------------------- waiting

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """Use as ``discord.http.Route.BASE`` / ``DISCORD_API_BASE_URL``."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """Use as ``DiscordWebSocket.DEFAULT_GATEWAY`` / ``DISCORD_GATEWAY_URL``."""
        return f"ws://{self.host}:{self.port}/gateway"

    def shard_connected(self, shard_id: int) -> bool:
        session = self._live.get(shard_id)
        return session is not None and session.ready and not session.ws.closed

    @property
    def connected(self) -> bool:
        """Every shard a bot identified for has a live session (one process: its shards;
        several: all of theirs, so a killed one shows as a disconnect)."""
        return bool(self._identified) and all(self.shard_connected(i) for i in self._identified)

    def _touch(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def report_error(self, error: BaseException) -> None:
        """Record an unhandled bot error; every pending and later wait raises :class:`BotFailed`."""
        self.errors.append(error)
        self._touch()

    def raise_reported_errors(self) -> None:
        """Raise :class:`BotFailed` for the first reported error, if any."""
        if self.errors:
            self.errors_raised = True
            first = self.errors[0]
            raise BotFailed(f"the bot reported {len(self.errors)} error(s): {first!r}") from first

    async def wait(self, check: Callable[[], T | None], timeout: float, what: str) -> T:
        """Wait until ``check()`` returns something other than ``None`` and return it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            self.raise_reported_errors()
            result = check()
            if result is not None:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                recent = "\n  ".join(repr(r) for r in self.requests[-8:]) or "(none)"
                raise FakeTimeout(
                    f"timed out after {timeout}s waiting for {what}; latest requests:\n  {recent}"
                )
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    async def wait_until_ready(self, timeout: float = 10.0, *, synced: bool = False) -> None:
        """Wait for IDENTIFY → READY → GUILD_CREATE (and, with ``synced``, a command sync)."""
        await self.wait(lambda: self.connected or None, timeout, "the gateway handshake")
        if synced:
            await self.wait_for_sync(timeout)

    async def wait_for_sync(self, timeout: float = 10.0, count: int = 1) -> None:
        """Wait until the bot has overwritten its commands ``count`` times in total."""
        await self.wait(lambda: self.sync_count >= count or None, timeout, "a command sync")

    async def wait_for_request(
        self, predicate: Callable[[RecordedRequest], bool], timeout: float = DEFAULT_TIMEOUT
    ) -> RecordedRequest:
        """The first recorded request (old or new) matching ``predicate``."""
        return await self.wait(
            lambda: next((r for r in self.requests if predicate(r)), None),
            timeout,
            "a matching request",
        )

    async def wait_for_message(
        self,
        predicate: Callable[[StoredMessage], bool] = lambda m: True,
        *,
        channel: FakeChannel | int | str | None = None,
        after: int = 0,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> StoredMessage:
        """The first stored message with id > ``after`` (in ``channel``) matching ``predicate``."""
        channel_id = self.channel(channel).id if channel is not None else None

        def check() -> StoredMessage | None:
            for msg in self.messages.values():
                here = channel_id is None or msg.channel_id == channel_id
                if msg.id > after and here and not msg.deleted and predicate(msg):
                    return msg
            return None

        return await self.wait(check, timeout, "a matching message")

    # ----------------------------------------------------------------- lookups

    def snowflake(self) -> int:
        ms = int(dt.datetime.now(dt.UTC).timestamp() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._ids) & 0x3FFFFF)

    def user(self, who: FakeUser | str | int | None = None) -> FakeUser:
        """A fake user: by name (stable id from the name), by id, or the default ``alice``."""
        if isinstance(who, FakeUser):
            self.users.setdefault(who.id, who)
            return who
        if who is None:
            who = "alice"
        if isinstance(who, int):
            if who == self.bot_user.id:
                return self.bot_user
            return self.users.setdefault(who, FakeUser(who, f"user{who}"))
        name = who.lstrip("@")
        found = FakeUser(stable_user_id(name), name)
        return self.users.setdefault(found.id, found)

    @property
    def guild(self) -> FakeGuild:
        """The first (default) guild."""
        return self.guilds[0]

    def channel(self, which: FakeChannel | str | int | None = None) -> FakeChannel:
        """A guild channel by name (``#`` optional) or id, a DM channel by id, or the default."""
        if isinstance(which, FakeChannel):
            return which
        if which is None:
            return self.guild.channels[0]
        for guild in self.guilds:
            for chan in guild.channels:
                if chan.id == which or (isinstance(which, str) and chan.name == which.lstrip("#")):
                    return chan
        for chan in self.dm_channels.values():
            if chan.id == which:
                return chan
        for chan in self.threads.values():
            if chan.id == which or (isinstance(which, str) and chan.name == which.lstrip("#")):
                return chan
        raise LookupError(f"no channel {which!r}")

    # ----------------------------------------------------------------- threads

    def thread_of(self, message: StoredMessage | int) -> FakeChannel | None:
        """The thread opened from ``message`` (None: none was)."""
        mid = message if isinstance(message, int) else message.id
        return self.threads.get(mid)

    def deny(self, channel: FakeChannel | str | int | None, permissions: int) -> None:
        """The bot lacks ``permissions`` (bits, e.g. :data:`CREATE_PUBLIC_THREADS`) in
        ``channel`` (and the threads in it), as a server's channel overwrite would say."""
        chan = self.channel(channel)
        self.denied[chan.id] = self.denied.get(chan.id, 0) | permissions

    def _lacks(self, channel: FakeChannel, permission: int) -> bool:
        """Whether the bot lacks ``permission`` in ``channel`` (a thread: or its parent)."""
        denied = self.denied.get(channel.id, 0)
        if channel.parent_id is not None:
            denied |= self.denied.get(channel.parent_id, 0)
        return bool(denied & permission)

    def _channel_payload(self, channel: FakeChannel) -> dict[str, Any]:
        """A channel as Discord shows it now: its last message and, for a thread, whether it
        is archived."""
        data = channel.payload()
        if not channel.is_dm:
            public = [
                m.id
                for m in self.messages.values()
                if m.channel_id == channel.id and not m.deleted and not m.ephemeral
            ]
            data["last_message_id"] = str(max(public)) if public else None
        if channel.is_thread:
            data["thread_metadata"]["archived"] = channel.id in self.archived
        return data

    def dm_channel(self, user: FakeUser | str | int | None = None) -> FakeChannel:
        """The DM channel between the bot and ``user`` (created on first use)."""
        u = self.user(user)
        if u.id not in self.dm_channels:
            self.dm_channels[u.id] = FakeChannel(
                id=self.snowflake(), name=f"dm-{u.name}", guild_id=None, type=1, recipient=u
            )
        return self.dm_channels[u.id]

    def _guild_of(self, channel: FakeChannel) -> FakeGuild | None:
        return next((g for g in self.guilds if g.id == channel.guild_id), None)

    def channel_messages(
        self, channel: FakeChannel | str | int | None = None
    ) -> list[StoredMessage]:
        chan = self.channel(channel)
        return [m for m in self.messages.values() if m.channel_id == chan.id and not m.deleted]

    def dm_messages(self, user: FakeUser | str | int | None = None) -> list[StoredMessage]:
        return self.channel_messages(self.dm_channel(user))

    def command(self, name: str, guild_id: int | None = None) -> dict[str, Any]:
        """The synced schema of the top-level command ``name`` (guild scope first)."""
        scopes = [guild_id, None] if guild_id is not None else [None, *self.commands]
        for scope in scopes:
            for cmd in self.commands.get(scope, []):
                if name in _names(cmd) and cmd.get("type", 1) == 1:
                    return cmd
        known = sorted({c["name"] for cmds in self.commands.values() for c in cmds})
        raise LookupError(f"no synced command /{name}; known: {known}")

    def register_commands(
        self, payloads: Sequence[Mapping[str, Any]], guild_id: int | None = None
    ) -> list[dict[str, Any]]:
        """Store a command schema as a bulk overwrite would (without counting it as a sync)."""
        old = {(c["name"], c.get("type", 1)): c["id"] for c in self.commands.get(guild_id, [])}
        stored = []
        for raw in payloads:
            cmd = dict(raw)
            key = (cmd["name"], cmd.get("type", 1))
            cmd["id"] = old.get(key) or str(self.snowflake())
            cmd["application_id"] = str(self.application_id)
            cmd["version"] = str(self.snowflake())
            cmd.setdefault("type", 1)
            cmd.setdefault("description", "")
            cmd.setdefault("default_member_permissions", None)
            cmd.setdefault("nsfw", False)
            if guild_id is not None:
                cmd["guild_id"] = str(guild_id)
            stored.append(cmd)
        self.commands[guild_id] = stored
        self._touch()
        return stored
