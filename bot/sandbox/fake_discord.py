"""A loopback fake of Discord's REST API and gateway for tests and the local playground.

The real discord.py client talks to it when ``discord.http.Route.BASE`` is set to
:attr:`FakeDiscord.api_base` and ``DiscordWebSocket.DEFAULT_GATEWAY`` to
:attr:`FakeDiscord.gateway_url`. It records every request, keeps the messages the bot sends,
answers the login and command-sync calls, and pushes INTERACTION_CREATE payloads built from the
synced command schema (slash commands, button clicks, select choices, modal submits,
autocomplete) for any user, channel, guild and locale.

Typical use::

    fake = FakeDiscord()
    await fake.start()
    ...  # start a bot pointed at fake.api_base / fake.gateway_url
    await fake.wait_until_ready()
    ex = await fake.slash("roll", {"ausdruck": "3W6"}, user="alice", locale="de")
    message = await ex.message()          # the visible answer, after a defer as well
    click = await fake.click(message, "essenz:1:0:a", user="bob")
    await click.callback()                # the raw callback (type 7 for an update)
    await fake.stop()

Like Discord, it refuses bodies over Discord's payload limits (:mod:`bot.sandbox.fake_limits`:
content, embeds, components, modals, autocomplete choices, flags, command schemas, file sizes) with
HTTP 400 ``{"code": 50035, "message": "Invalid Form Body", "errors": {...}}``; each refusal is
kept in :attr:`FakeDiscord.refused` and (unless ``report_refusals=False``) reported as a bot
error, so no test passes with a reply Discord would refuse.

Waiting helpers raise :class:`FakeTimeout` (an ``AssertionError``) with the latest requests in
the message, and :class:`BotFailed` as soon as an error was reported with :meth:`report_error`.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import itertools
import json
import mimetypes
import re
import secrets
import time
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import BodyPartReader, WSMsgType, web

from bot.sandbox import fake_limits

T = TypeVar("T")

JSON_CONTENT_TYPE = "application/json"
API_PREFIX = "/api/v10"
DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 64
LOADING = 128
DEFAULT_TIMEOUT = 5.0

# Interaction types and callback types (Discord API).
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CALLBACK_MESSAGE = 4
CALLBACK_DEFER = 5
CALLBACK_DEFER_UPDATE = 6
CALLBACK_UPDATE = 7
CALLBACK_AUTOCOMPLETE = 8
CALLBACK_MODAL = 9

# Application command option types.
OPT_SUBCOMMAND, OPT_GROUP, OPT_STRING, OPT_INTEGER, OPT_BOOLEAN = 1, 2, 3, 4, 5
OPT_USER, OPT_CHANNEL, OPT_ROLE, OPT_MENTIONABLE, OPT_NUMBER, OPT_ATTACHMENT = 6, 7, 8, 9, 10, 11

# Component types.
ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT = 5, 6, 7, 8
LABEL = 18
SELECT_TYPES = (STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT)

ALL_PERMISSIONS = str((1 << 50) - 1)
# Permission bits the fake checks (Discord's values).
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
PUBLIC_THREAD = 11
THREAD_ARCHIVE_MINUTES = (60, 1440, 4320, 10080)  # the auto-archive durations Discord takes
BOT_ID = 700000000000000001
GUILD_ID = 810000000000000001
FIRST_CHANNEL_ID = 810000000000000011

LOCALE_ALIASES = {"en": "en-US", "english": "en-US", "deutsch": "de", "de-DE": "de"}


class PayloadRefused(AssertionError):
    """The bot sent a body real Discord answers with 400 Invalid Form Body."""

    def __init__(self, request: RecordedRequest, errors: Mapping[str, Any]) -> None:
        self.request = request
        self.errors = dict(errors)
        lines = "; ".join(fake_limits.flatten(errors))
        super().__init__(f"Discord refuses {request.method} {request.path}: {lines}")


class CallbackTooLate(PayloadRefused):
    """The bot answered an interaction more than 3 s after it arrived (Discord: 10062 Unknown
    interaction; the user saw "The application did not respond")."""

    def __init__(self, request: RecordedRequest, late: float) -> None:
        self.late = late
        errors = {"_errors": [{"code": "10062", "message": f"callback after {late:.2f} s"}]}
        super().__init__(request, errors)


EMPTY = "Cannot send an empty message"
CALLBACK_DEADLINE = 3.0  # seconds Discord waits for an interaction's first answer


class FakeTimeout(AssertionError):
    """Nothing matching arrived at the fake Discord in time."""


class BotFailed(AssertionError):
    """The bot reported an unhandled error (see :meth:`FakeDiscord.report_error`)."""


def _now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


def stable_user_id(name: str) -> int:
    """A snowflake-sized id that is the same for ``name`` in every process."""
    return 200000000000000000 + zlib.crc32(name.lower().encode())


# --------------------------------------------------------------------------- value types


@dataclass(frozen=True)
class FakeUser:
    id: int
    name: str
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name.capitalize(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(frozen=True)
class FakeChannel:
    id: int
    name: str
    guild_id: int | None
    type: int = 0  # 0 guild text, 1 DM, 11 public thread
    position: int = 0
    recipient: FakeUser | None = None
    parent_id: int | None = None  # a thread's text channel

    @property
    def is_dm(self) -> bool:
        return self.guild_id is None

    @property
    def is_thread(self) -> bool:
        return self.type == PUBLIC_THREAD

    def payload(self) -> dict[str, Any]:
        if self.is_dm:
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "flags": 0,
                "recipients": [self.recipient.payload()] if self.recipient else [],
            }
        if self.is_thread:
            return {
                "id": str(self.id),
                "type": PUBLIC_THREAD,
                "guild_id": str(self.guild_id),
                "name": self.name,
                "parent_id": str(self.parent_id),
                "owner_id": str(BOT_ID),
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "message_count": 0,
                "member_count": 1,
                "flags": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": _now_iso(),
                    "locked": False,
                },
            }
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "topic": None,
            "nsfw": False,
            "parent_id": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }


@dataclass(frozen=True)
class FakeGuild:
    id: int
    name: str
    channels: tuple[FakeChannel, ...]
    locale: str = "de"

    def payload(self, bot_user: FakeUser) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(stable_user_id("owner")),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [
                {
                    "id": str(self.id),
                    "name": "@everyone",
                    "color": 0,
                    "hoist": False,
                    "position": 0,
                    "permissions": ALL_PERMISSIONS,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": self.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": _now_iso(),
            "large": False,
            "unavailable": False,
            "member_count": 3,
            "voice_states": [],
            "members": [_member_payload(bot_user)],
            "channels": [c.payload() for c in self.channels],
            "threads": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


def default_guild() -> FakeGuild:
    names = ("allgemein", "spieltisch", "wuerfel")
    channels = tuple(
        FakeChannel(id=FIRST_CHANNEL_ID + i, name=n, guild_id=GUILD_ID, position=i)
        for i, n in enumerate(names)
    )
    return FakeGuild(id=GUILD_ID, name="Spielleiter Testgilde", channels=channels)


def guild_on_shard(shard_id: int, shard_count: int, name: str | None = None) -> FakeGuild:
    """A guild (with the default guild's channel names) whose events go to ``shard_id``."""
    base = (GUILD_ID >> 22) + 1000 * (shard_id + 1)
    snowflake = next(i for i in itertools.count(base) if i % shard_count == shard_id) << 22
    channels = tuple(
        FakeChannel(id=snowflake + 11 + i, name=n, guild_id=snowflake, position=i)
        for i, n in enumerate(("allgemein", "spieltisch", "wuerfel"))
    )
    return FakeGuild(id=snowflake, name=name or f"Gilde {shard_id}", channels=channels)


def _member_payload(user: FakeUser, *, with_user: bool = True) -> dict[str, Any]:
    member: dict[str, Any] = {
        "roles": [],
        "nick": None,
        "avatar": None,
        "joined_at": "2024-01-01T00:00:00+00:00",
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
        "permissions": ALL_PERMISSIONS,
    }
    if with_user:
        member["user"] = user.payload()
    return member


@dataclass(frozen=True)
class UploadedFile:
    """One file of a multipart request: form field name, file name, content type, bytes."""

    field: str
    filename: str
    content_type: str
    data: bytes


@dataclass
class RecordedRequest:
    """One request the bot made. ``json`` is the JSON body or the multipart ``payload_json``."""

    method: str
    path: str  # relative to the API base, e.g. "/channels/1/messages"
    query: dict[str, str]
    json: Any
    files: list[UploadedFile]
    status: int = 0
    exchange: Exchange | None = None
    authorization: str | None = None  # "Bot <token>": tells apart processes given own tokens

    def __repr__(self) -> str:
        body = json.dumps(self.json, ensure_ascii=False)[:160] if self.json is not None else ""
        files = f" +{len(self.files)} file(s)" if self.files else ""
        return f"<{self.method} {self.path} -> {self.status} {body}{files}>"


@dataclass
class StoredAttachment:
    id: int
    filename: str
    content_type: str
    data: bytes
    description: str | None = None

    def payload(self, base: str, channel_id: int) -> dict[str, Any]:
        url = f"{base}/attachments/{channel_id}/{self.id}/{self.filename}"
        out: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            out["description"] = self.description
        return out


@dataclass
class StoredMessage:
    """A message as Discord keeps it; edits change it in place (``edits`` counts them)."""

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[StoredAttachment] = field(default_factory=list)
    flags: int = 0
    interaction: dict[str, Any] | None = None  # interaction_metadata
    webhook_id: int | None = None
    deleted: bool = False
    edits: int = 0
    created_at: str = field(default_factory=_now_iso)
    edited_at: str | None = None
    allowed_mentions: dict[str, Any] | None = None  # as sent with the content; None: not sent

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def pings(self) -> set[str]:
        """Whom the content notifies as Discord reads it with ``allowed_mentions``: user ids,
        ``role:<id>`` and ``everyone`` (for @everyone and @here)."""
        return pinged(self.content, self.allowed_mentions)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def files(self) -> list[StoredAttachment]:
        return self.attachments

    def walk_components(self) -> list[dict[str, Any]]:
        """Every interactive component (buttons, selects) in display order."""
        return [c for c in _walk(self.components) if c.get("type") in (BUTTON, *SELECT_TYPES)]

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.walk_components() if c["type"] == BUTTON]

    @property
    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.walk_components() if c["type"] in SELECT_TYPES]

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.walk_components() if "custom_id" in c]

    def component(self, custom_id: str) -> dict[str, Any]:
        """The component with ``custom_id``; raises ``LookupError`` naming the ones there are."""
        for comp in self.walk_components():
            if comp.get("custom_id") == custom_id:
                return comp
        raise LookupError(f"no component {custom_id!r} on message {self.id}: {self.custom_ids}")

    @property
    def text(self) -> str:
        """Content plus embed titles, descriptions and fields, for loose assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for f in embed.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
            parts.append(embed.get("footer", {}).get("text", ""))
        return "\n".join(p for p in parts if p)

    def payload(self, base: str) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": 20 if self.interaction else 0,
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.created_at,
            "edited_timestamp": self.edited_at,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload(base, self.channel_id) for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            out["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            out["webhook_id"] = str(self.webhook_id)
            out["application_id"] = str(self.webhook_id)
        if self.interaction is not None:
            out["interaction_metadata"] = self.interaction
        return out


def pinged(content: str, allowed: Mapping[str, Any] | None) -> set[str]:
    """Discord's rule: without ``allowed_mentions`` every mention in the content notifies; with
    it, a kind in ``parse`` notifies all of that kind, ``users``/``roles`` name single ones."""
    parse = {"users", "roles", "everyone"} if allowed is None else set(allowed.get("parse", []))
    users = {str(u) for u in (allowed or {}).get("users", [])}
    roles = {str(r) for r in (allowed or {}).get("roles", [])}
    found = {u for u in re.findall(r"<@!?(\d+)>", content) if "users" in parse or u in users}
    found |= {
        f"role:{r}" for r in re.findall(r"<@&(\d+)>", content) if "roles" in parse or r in roles
    }
    if "everyone" in parse and re.search(r"@(everyone|here)", content):
        found.add("everyone")
    return found


def _walk(components: Iterable[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    for comp in components:
        yield comp
        if "components" in comp:
            yield from _walk(comp["components"])
        if "component" in comp:
            yield from _walk([comp["component"]])
        if "accessory" in comp:
            yield from _walk([comp["accessory"]])


@dataclass
class Reply:
    """One thing the bot did in answer to an interaction.

    ``kind`` is ``callback``, ``followup``, ``edit`` (original or followup) or ``delete``.
    ``json`` is the request body as sent; for a callback ``type`` is the callback type and
    ``data`` its data, otherwise ``data`` is the body itself. ``message`` is the stored message it
    created or changed (live: later edits show up there).
    """

    kind: str
    request: RecordedRequest
    message: StoredMessage | None

    @property
    def json(self) -> Any:
        return self.request.json

    @property
    def type(self) -> int | None:
        return self.json.get("type") if self.kind == "callback" and self.json else None

    @property
    def data(self) -> dict[str, Any]:
        body = self.json or {}
        if self.kind == "callback":
            return body.get("data") or {}
        return body

    @property
    def content(self) -> str | None:
        return self.data.get("content")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.data.get("embeds") or []

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.data.get("components") or []

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def files(self) -> list[UploadedFile]:
        return self.request.files

    @property
    def choices(self) -> list[dict[str, Any]]:
        return self.data.get("choices") or []

    def __repr__(self) -> str:
        return f"<Reply {self.kind} {self.request!r}>"


class Exchange:
    """An interaction the fake pushed, and everything the bot answered to it, in order."""

    def __init__(
        self,
        fake: FakeDiscord,
        payload: dict[str, Any],
        user: FakeUser,
        channel: FakeChannel,
        source: StoredMessage | None,
    ) -> None:
        self.fake = fake
        self.payload = payload
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.user = user
        self.channel = channel
        self.source = source  # the message whose component was used
        self.pushed_at = time.monotonic()  # Discord wants the callback within 3 s of this
        self._source_edits = source.edits if source is not None else 0
        self.replies: list[Reply] = []
        self.original: StoredMessage | None = None
        self.followups: list[StoredMessage] = []

    @property
    def callback_reply(self) -> Reply | None:
        return next((r for r in self.replies if r.kind == "callback"), None)

    async def reply(self, index: int = 0, timeout: float = DEFAULT_TIMEOUT) -> Reply:
        """The ``index``-th reply (0 is the callback)."""
        return await self.fake.wait(
            lambda: self.replies[index] if len(self.replies) > index else None,
            timeout,
            f"reply #{index} to interaction {self.id}",
        )

    async def callback(self, timeout: float = DEFAULT_TIMEOUT) -> Reply:
        """The interaction callback (the first response)."""
        return await self.fake.wait(
            lambda: self.callback_reply, timeout, f"callback to interaction {self.id}"
        )

    async def followup(self, index: int = 0, timeout: float = DEFAULT_TIMEOUT) -> Reply:
        """The ``index``-th followup sent through the interaction webhook."""

        def check() -> Reply | None:
            found = [r for r in self.replies if r.kind == "followup"]
            return found[index] if len(found) > index else None

        return await self.fake.wait(check, timeout, f"followup #{index} to interaction {self.id}")

    async def wait_for(
        self, predicate: Callable[[Reply], bool], timeout: float = DEFAULT_TIMEOUT
    ) -> Reply:
        """The first reply for which ``predicate`` is true."""
        return await self.fake.wait(
            lambda: next((r for r in self.replies if predicate(r)), None),
            timeout,
            f"a matching reply to interaction {self.id}",
        )

    async def message(self, timeout: float = DEFAULT_TIMEOUT) -> StoredMessage:
        """The message the user sees as the answer: the original response once it is filled
        (after a defer: the first edit or followup), or the updated source message for an
        update-type callback."""

        def check() -> StoredMessage | None:
            msg = self.original
            if msg is None or msg.loading:
                return None
            cb = self.callback_reply
            if (
                cb is not None
                and cb.type == CALLBACK_DEFER_UPDATE
                and msg.edits == self._source_edits
            ):
                return None
            return msg

        return await self.fake.wait(check, timeout, f"the answer to interaction {self.id}")

    async def choices(self, timeout: float = DEFAULT_TIMEOUT) -> list[dict[str, Any]]:
        """The autocomplete choices (callback type 8)."""
        reply = await self.callback(timeout)
        if reply.type != CALLBACK_AUTOCOMPLETE:
            raise AssertionError(f"expected an autocomplete result, got {reply!r}")
        return reply.choices

    async def modal(self, timeout: float = DEFAULT_TIMEOUT) -> dict[str, Any]:
        """The modal the bot opened (callback type 9): ``{"custom_id", "title", "components"}``."""
        reply = await self.callback(timeout)
        if reply.type != CALLBACK_MODAL:
            raise AssertionError(f"expected a modal, got {reply!r}")
        return reply.data

    async def settle(self, quiet: float = 0.1, timeout: float = DEFAULT_TIMEOUT) -> list[Reply]:
        """Wait for the callback, then until no reply came for ``quiet`` seconds."""
        await self.callback(timeout)
        seen = -1
        while seen != len(self.replies):
            seen = len(self.replies)
            await asyncio.sleep(quiet)
        self.fake.raise_reported_errors()
        return list(self.replies)

    def __repr__(self) -> str:
        kind = self.payload.get("data", {}).get("name") or self.payload.get("data", {}).get(
            "custom_id"
        )
        return f"<Exchange {self.id} {kind!r} replies={len(self.replies)}>"


@dataclass
class _Session:
    ws: web.WebSocketResponse
    session_id: str
    seq: int = 0
    ready: bool = False
    shard: tuple[int, int] = (0, 1)  # (shard id, shard count); an unsharded client is (0, 1)


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord routes a guild's events to (direct messages: shard 0)."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


# --------------------------------------------------------------------------- the server


class FakeDiscord:
    """The loopback Discord. Create, ``await start()``, point a client at it, ``await stop()``."""

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

    # ----------------------------------------------------------------- lifecycle

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        return self

    async def stop(self) -> None:
        for ws in list(self._sockets):
            await ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

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

    # ----------------------------------------------------------------- waiting

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

    # ----------------------------------------------------------------- gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        self._sockets.add(ws)
        session: _Session | None = None
        try:
            await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op = frame.get("op")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11}))
                elif op == 2:
                    session = await self._identify(ws, frame["d"])
                elif op == 6:
                    session = await self._resume(ws, frame["d"])
        finally:
            self._sockets.discard(ws)
            if session is not None and self._live.get(session.shard[0]) is session:
                del self._live[session.shard[0]]
            self._touch()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> _Session | None:
        self.identifies.append(data)
        shard = data.get("shard")
        if shard is not None and not (
            isinstance(shard, list) and len(shard) == 2 and 0 <= shard[0] < shard[1]
        ):
            await ws.close(code=4010, message=b"Invalid shard.")
            return None
        session = _Session(ws=ws, session_id=secrets.token_hex(16))
        if shard is not None:
            session.shard = (shard[0], shard[1])
        guilds = [g for g in self.guilds if self._serves(session, g.id)]
        self._sessions[session.session_id] = session
        ready = {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
        }
        if shard is not None:
            ready["shard"] = list(session.shard)
        await self._send(session, "READY", ready)
        for guild in guilds:
            await self._send(session, "GUILD_CREATE", guild.payload(self.bot_user))
        session.ready = True
        self._live[session.shard[0]] = session
        self._identified.add(session.shard[0])
        self._touch()
        return session

    @staticmethod
    def _serves(session: _Session, guild_id: int | None) -> bool:
        shard_id, count = session.shard
        return shard_of(guild_id, count) == shard_id

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> _Session | None:
        self.resumes.append(data)
        session = self._sessions.get(data.get("session_id", ""))
        if session is None:
            await ws.send_str(json.dumps({"op": 9, "d": False}))
            return None
        session.ws = ws
        session.ready = True
        await self._send(session, "RESUMED", {})
        self._live[session.shard[0]] = session
        self._touch()
        return session

    async def _send(self, session: _Session, event: str, data: Any) -> None:
        session.seq += 1
        frame = {"op": 0, "t": event, "s": session.seq, "d": data}
        await session.ws.send_str(json.dumps(frame))

    async def dispatch(
        self, event: str, data: Any, timeout: float = 10.0, *, shard: int | None = None
    ) -> None:
        """Push a gateway DISPATCH event to the shard of its guild (DMs: shard 0), as Discord
        routes them, or to ``shard`` (two processes seeing one game, as while a bot reshards);
        waits for that shard's connection."""
        raw_guild = data.get("guild_id") if isinstance(data, dict) else None
        guild_id = int(raw_guild) if raw_guild is not None else None

        def target() -> _Session | None:
            if not self._live:
                return None
            count = next(iter(self._live.values())).shard[1]
            shard_id = shard_of(guild_id, count) if shard is None else shard
            return self._live[shard_id] if self.shard_connected(shard_id) else None

        session = await self.wait(target, timeout, "the gateway handshake")
        await self._send(session, event, data)

    async def reconnect_request(self, shard_id: int = 0) -> None:
        """Ask the bot (its session of ``shard_id``) to reconnect (op 7); it will RESUME."""
        session = self._live[shard_id]
        await session.ws.send_str(json.dumps({"op": 7, "d": None}))

    # ----------------------------------------------------------------- REST

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body, files = await self._read_body(request)
        rec = RecordedRequest(
            method=request.method,
            path=path,
            query=dict(request.query),
            json=body,
            files=files,
            authorization=request.headers.get("Authorization"),
        )
        self.requests.append(rec)
        try:
            response = await self._route(rec)
        finally:
            self._touch()
        rec.status = response.status
        return response

    async def _read_body(self, request: web.Request) -> tuple[Any, list[UploadedFile]]:
        if not request.can_read_body:
            return None, []
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            body: Any = None
            files: list[UploadedFile] = []
            while (part := await reader.next()) is not None:
                assert isinstance(part, BodyPartReader)
                data = await part.read()
                name = part.name or ""
                if name == "payload_json":
                    body = json.loads(data)
                else:
                    files.append(
                        UploadedFile(
                            field=name,
                            filename=part.filename or name,
                            content_type=part.headers.get("Content-Type", ""),
                            data=bytes(data),
                        )
                    )
            return body, files
        raw = await request.read()
        if not raw:
            return None, []
        try:
            return json.loads(raw), []
        except ValueError:
            return raw.decode(errors="replace"), []

    _ROUTES: tuple[tuple[str, str, str], ...] = (
        ("GET", r"/users/@me", "_get_me"),
        ("GET", r"/oauth2/applications/@me", "_get_app"),
        ("GET", r"/applications/@me", "_get_app"),
        ("GET", r"/gateway", "_get_gateway"),
        ("GET", r"/gateway/bot", "_get_gateway_bot"),
        ("PUT", r"/applications/(?P<app>\d+)/commands", "_put_commands"),
        ("PUT", r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands", "_put_commands"),
        ("GET", r"/applications/(?P<app>\d+)/commands", "_get_commands"),
        ("GET", r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands", "_get_commands"),
        ("POST", r"/applications/(?P<app>\d+)/commands", "_post_command"),
        ("POST", r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands", "_post_command"),
        ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", "_callback"),
        ("POST", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", "_followup"),
        ("GET", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>[^/]+)", "_wh_get"),
        ("PATCH", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>[^/]+)", "_wh_edit"),
        ("DELETE", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>[^/]+)", "_wh_del"),
        ("POST", r"/users/@me/channels", "_open_dm"),
        ("GET", r"/users/(?P<uid>\d+)", "_get_user"),
        ("GET", r"/channels/(?P<cid>\d+)", "_get_channel"),
        ("PATCH", r"/channels/(?P<cid>\d+)", "_patch_channel"),
        ("POST", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/threads", "_start_thread"),
        ("POST", r"/channels/(?P<cid>\d+)/messages", "_post_message"),
        ("GET", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", "_get_message"),
        ("PATCH", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", "_patch_message"),
        ("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", "_delete_message"),
        ("POST", r"/channels/(?P<cid>\d+)/typing", "_no_content"),
        ("GET", r"/guilds/(?P<gid>\d+)/members/(?P<uid>\d+)", "_get_member"),
        ("GET", r"/attachments/(?P<cid>\d+)/(?P<aid>\d+)/(?P<fname>[^/]+)", "_get_attachment"),
    )

    async def _route(self, rec: RecordedRequest) -> web.Response:
        for method, pattern, handler in self._ROUTES:
            if rec.method == method and (m := re.fullmatch(pattern, rec.path)):
                result: web.Response = await getattr(self, handler)(rec, **m.groupdict())
                return result
        self.unhandled.append(rec)
        return self._error(404, 0, f"fake Discord has no route {rec.method} {rec.path}")

    @staticmethod
    def _json(data: Any, status: int = 200) -> web.Response:
        return web.Response(
            status=status, body=json.dumps(data).encode(), content_type=JSON_CONTENT_TYPE
        )

    def _error(self, status: int, code: int, message: str) -> web.Response:
        return self._json({"message": message, "code": code}, status)

    def _refuse(self, rec: RecordedRequest, problems: fake_limits.Problems) -> web.Response | None:
        """Discord's 400 Invalid Form Body for a body over its limits (413 for a file over
        the upload limit), else ``None``."""
        big = [f for f in rec.files if len(f.data) > fake_limits.FILE_SIZE]
        if big:
            problems = [*problems, *(((f.field,), "FILE_TOO_LARGE", "too large") for f in big)]
        if not problems:
            return None
        errors = fake_limits.tree(problems)
        refusal = PayloadRefused(rec, errors)
        self.refused.append(refusal)
        if self.report_refusals:
            self.report_error(refusal)
        if big:
            return self._error(413, 40005, "Request entity too large")
        return self._json(fake_limits.invalid_form_body(errors), 400)

    def _refuse_message(
        self, rec: RecordedRequest, *, flags: int, new: bool = False
    ) -> web.Response | None:
        """A body over Discord's limits, or (``new``: a message being created) an empty one."""
        if refused := self._refuse(rec, fake_limits.check_message(rec.json or {}, flags=flags)):
            return refused
        return self._refuse_empty(rec, rec.json) if new else None

    def _refuse_empty(self, rec: RecordedRequest, body: Any) -> web.Response | None:
        """Discord's 400 ``Cannot send an empty message`` (code 50006) for a new message with
        nothing to show, else ``None``."""
        if not fake_limits.is_empty(body, len(rec.files)):
            return None
        refusal = PayloadRefused(rec, {"_errors": [{"code": "50006", "message": EMPTY}]})
        self.refused.append(refusal)
        if self.report_refusals:
            self.report_error(refusal)
        return self._error(400, 50006, EMPTY)

    async def _no_content(self, rec: RecordedRequest, **_: str) -> web.Response:
        return web.Response(status=204)

    async def _get_me(self, rec: RecordedRequest) -> web.Response:
        return self._json({**self.bot_user.payload(), "verified": True, "mfa_enabled": False})

    async def _get_app(self, rec: RecordedRequest) -> web.Response:
        return self._json(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "icon": None,
                "description": "fake application",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.user("owner").payload(),
                "summary": "",
                "verify_key": "0" * 64,
                "team": None,
                "flags": 0,
                "bot": self.bot_user.payload(),
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(self.guilds),
            }
        )

    async def _get_gateway(self, rec: RecordedRequest) -> web.Response:
        return self._json({"url": self.gateway_url})

    async def _get_gateway_bot(self, rec: RecordedRequest) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return self._json(
            {"url": self.gateway_url, "shards": self.shard_count, "session_start_limit": limit}
        )

    async def _put_commands(
        self, rec: RecordedRequest, app: str, guild: str | None = None
    ) -> web.Response:
        if refused := self._refuse(rec, fake_limits.check_commands(rec.json)):
            return refused
        stored = self.register_commands(rec.json or [], int(guild) if guild else None)
        self.sync_count += 1
        return self._json(stored)

    async def _get_commands(
        self, rec: RecordedRequest, app: str, guild: str | None = None
    ) -> web.Response:
        return self._json(self.commands.get(int(guild) if guild else None, []))

    async def _post_command(
        self, rec: RecordedRequest, app: str, guild: str | None = None
    ) -> web.Response:
        problems: fake_limits.Problems = []
        fake_limits.check_command(problems, rec.json or {}, ())
        if refused := self._refuse(rec, problems):
            return refused
        scope = int(guild) if guild else None
        others = [c for c in self.commands.get(scope, []) if c["name"] != rec.json["name"]]
        stored = self.register_commands([*others, rec.json], scope)
        return self._json(next(c for c in stored if c["name"] == rec.json["name"]), 201)

    # --- messages

    def _new_message(
        self,
        channel_id: int,
        body: Mapping[str, Any] | None,
        files: Sequence[UploadedFile],
        *,
        webhook: bool = False,
        interaction: dict[str, Any] | None = None,
    ) -> StoredMessage:
        guild_id = None
        with contextlib.suppress(LookupError):
            guild_id = self.channel(channel_id).guild_id
        msg = StoredMessage(
            id=self.snowflake(),
            channel_id=channel_id,
            guild_id=guild_id,
            author=self.bot_user,
            webhook_id=self.application_id if webhook else None,
            interaction=interaction,
        )
        self._apply_body(msg, body or {}, files, edit=False)
        self.messages[msg.id] = msg
        return msg

    def _apply_body(
        self,
        msg: StoredMessage,
        body: Mapping[str, Any],
        files: Sequence[UploadedFile],
        *,
        edit: bool,
    ) -> None:
        if "content" in body:
            msg.content = body["content"] or ""
            msg.allowed_mentions = body.get("allowed_mentions")
        if "embeds" in body:
            msg.embeds = list(body["embeds"] or [])
        if "components" in body:
            msg.components = list(body["components"] or [])
        if "flags" in body and body["flags"] is not None:
            flags = int(body["flags"])
            # An edit cannot make a message ephemeral or public.
            msg.flags = (flags & ~EPHEMERAL) | (msg.flags & EPHEMERAL) if edit else flags
        msg.attachments = self._attachments(msg, body, files)
        if edit:
            msg.flags &= ~LOADING
            msg.edits += 1
            msg.edited_at = _now_iso()

    def _attachments(
        self, msg: StoredMessage, body: Mapping[str, Any], files: Sequence[UploadedFile]
    ) -> list[StoredAttachment]:
        """Keep the listed existing attachments and add the uploaded files (``files[n]``)."""
        uploads = {f.field: f for f in files}
        new: list[StoredAttachment] = []
        if "attachments" not in body:
            new = list(msg.attachments)
            listed: list[Mapping[str, Any]] = [{"id": i} for i in range(len(files))]
        else:
            listed = body["attachments"] or []
        existing = {a.id: a for a in msg.attachments}
        for entry in listed:
            ident = int(entry["id"])
            upload = uploads.get(f"files[{ident}]")
            if upload is not None:
                new.append(
                    StoredAttachment(
                        id=self.snowflake(),
                        filename=entry.get("filename") or upload.filename,
                        content_type=upload.content_type,
                        data=upload.data,
                        description=entry.get("description"),
                    )
                )
            elif ident in existing:
                new.append(existing[ident])
        return new

    def _message_or_404(
        self, mid: str, *, via_channel: bool = False
    ) -> StoredMessage | web.Response:
        """The stored message; through the channel routes an ephemeral one does not exist."""
        msg = self.messages.get(int(mid))
        if msg is None or msg.deleted or (via_channel and msg.ephemeral):
            return self._error(404, 10008, "Unknown Message")
        return msg

    async def _post_message(self, rec: RecordedRequest, cid: str) -> web.Response:
        try:
            chan = self.channel(int(cid))
        except LookupError:
            return self._error(404, 10003, "Unknown Channel")
        if chan.is_thread and self._lacks(chan, SEND_MESSAGES_IN_THREADS):
            return self._error(403, 50013, "Missing Permissions")
        if refused := self._refuse_message(rec, flags=fake_limits.CHANNEL_FLAGS, new=True):
            return refused
        self.archived.discard(chan.id)  # posting in an archived thread unarchives it
        msg = self._new_message(int(cid), rec.json, rec.files)
        return self._json(msg.payload(self.api_base))

    async def _get_message(self, rec: RecordedRequest, cid: str, mid: str) -> web.Response:
        msg = self._message_or_404(mid, via_channel=True)
        return msg if isinstance(msg, web.Response) else self._json(msg.payload(self.api_base))

    async def _patch_message(self, rec: RecordedRequest, cid: str, mid: str) -> web.Response:
        msg = self._message_or_404(mid, via_channel=True)
        if isinstance(msg, web.Response):
            return msg
        if refused := self._refuse_message(rec, flags=fake_limits.CHANNEL_FLAGS):
            return refused
        self._apply_body(msg, rec.json or {}, rec.files, edit=True)
        return self._json(msg.payload(self.api_base))

    async def _delete_message(self, rec: RecordedRequest, cid: str, mid: str) -> web.Response:
        msg = self._message_or_404(mid, via_channel=True)
        if isinstance(msg, web.Response):
            return msg
        msg.deleted = True
        return web.Response(status=204)

    async def _get_attachment(
        self, rec: RecordedRequest, cid: str, aid: str, fname: str
    ) -> web.Response:
        for msg in self.messages.values():
            for att in msg.attachments:
                if att.id == int(aid):
                    return web.Response(body=att.data, content_type=att.content_type or None)
        return self._error(404, 0, "Unknown attachment")

    async def _open_dm(self, rec: RecordedRequest) -> web.Response:
        chan = self.dm_channel(int(rec.json["recipient_id"]))
        return self._json(chan.payload())

    async def _get_user(self, rec: RecordedRequest, uid: str) -> web.Response:
        return self._json(self.user(int(uid)).payload())

    async def _get_member(self, rec: RecordedRequest, gid: str, uid: str) -> web.Response:
        return self._json(_member_payload(self.user(int(uid))))

    async def _get_channel(self, rec: RecordedRequest, cid: str) -> web.Response:
        try:
            return self._json(self._channel_payload(self.channel(int(cid))))
        except LookupError:
            return self._error(404, 10003, "Unknown Channel")

    async def _patch_channel(self, rec: RecordedRequest, cid: str) -> web.Response:
        """Only what the bot changes on a thread: archive or unarchive it, rename it."""
        thread = self.threads.get(int(cid))
        if thread is None:
            return self._error(404, 10003, "Unknown Channel")
        body = rec.json or {}
        if "name" in body:
            name = str(body["name"] or "")
            if not 1 <= len(name) <= 100:
                return self._error(400, 50035, "Invalid Form Body: name must be 1-100 characters")
            thread = self.threads[thread.id] = FakeChannel(
                thread.id, name, thread.guild_id, PUBLIC_THREAD, parent_id=thread.parent_id
            )
        if body.get("archived") is True:
            self.archived.add(thread.id)
        elif body.get("archived") is False:
            self.archived.discard(thread.id)
        return self._json(self._channel_payload(thread))

    async def _start_thread(self, rec: RecordedRequest, cid: str, mid: str) -> web.Response:
        """A public thread from a message of a text channel, as Discord opens it: its id is the
        message's, one per message; not in a DM or a thread, not without the permission."""
        try:
            chan = self.channel(int(cid))
        except LookupError:
            return self._error(404, 10003, "Unknown Channel")
        if chan.is_dm or chan.is_thread or chan.type != 0:
            return self._error(400, 50024, "Cannot execute action on this channel type")
        if self._lacks(chan, CREATE_PUBLIC_THREADS):
            return self._error(403, 50013, "Missing Permissions")
        msg = self._message_or_404(mid, via_channel=True)
        if isinstance(msg, web.Response):
            return msg
        if msg.channel_id != chan.id:
            return self._error(404, 10008, "Unknown Message")
        if msg.id in self.threads:
            return self._error(400, 160004, "A thread has already been created for this message")
        body = rec.json or {}
        name = str(body.get("name") or "")
        duration = body.get("auto_archive_duration", 1440)
        if not 1 <= len(name) <= 100 or duration not in THREAD_ARCHIVE_MINUTES:
            return self._error(400, 50035, "Invalid Form Body: thread name or archive duration")
        thread = FakeChannel(msg.id, name, chan.guild_id, PUBLIC_THREAD, parent_id=chan.id)
        self.threads[thread.id] = thread
        return self._json(self._channel_payload(thread), 201)

    # --- interaction responses

    def _exchange(self, token: str, rec: RecordedRequest) -> Exchange | web.Response:
        ex = self.exchanges.get(token)
        if ex is None:
            return self._error(404, 10015, "Unknown Webhook")
        rec.exchange = ex
        return ex

    async def _callback(self, rec: RecordedRequest, iid: str, token: str) -> web.Response:
        ex = self._exchange(token, rec)
        if isinstance(ex, web.Response):
            return self._error(404, 10062, "Unknown interaction")
        if ex.callback_reply is not None:
            return self._error(400, 40060, "Interaction has already been acknowledged.")
        late = time.monotonic() - ex.pushed_at
        if late > self.callback_deadline:  # Discord has forgotten the interaction by then
            self.late_callbacks.append((ex, late))
            refusal = CallbackTooLate(rec, late)
            self.refused.append(refusal)
            if self.report_refusals:
                self.report_error(refusal)
            return self._error(404, 10062, "Unknown interaction")
        if refused := self._refuse(rec, fake_limits.check_callback(rec.json)):
            return refused
        body = rec.json or {}
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        if kind == CALLBACK_MESSAGE and (refused := self._refuse_empty(rec, data)):
            return refused
        message: StoredMessage | None = None
        if kind in (CALLBACK_MESSAGE, CALLBACK_DEFER):
            first = dict(data) if kind == CALLBACK_MESSAGE else {}
            first["flags"] = int(data.get("flags") or 0) | (
                LOADING if kind == CALLBACK_DEFER else 0
            )
            message = self._new_message(
                ex.channel.id, first, rec.files, webhook=True, interaction=self._metadata(ex)
            )
            ex.original = message
        elif kind in (CALLBACK_UPDATE, CALLBACK_DEFER_UPDATE):
            if ex.source is None:
                return self._error(400, 50035, "update callback on an interaction without message")
            # Discord updates the one message, whatever copy of it the clicking client showed
            message = self.messages.get(ex.source.id, ex.source)
            if kind == CALLBACK_UPDATE:
                self._apply_body(message, data, rec.files, edit=True)
            ex.original = message
        ex.replies.append(Reply("callback", rec, message))
        interaction = {
            "id": str(ex.id),
            "type": ex.payload["type"],
            "response_message_loading": kind == CALLBACK_DEFER,
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
        if message is not None:
            interaction["response_message_id"] = str(message.id)
        resource: dict[str, Any] = {"type": kind}
        if message is not None and kind in (CALLBACK_MESSAGE, CALLBACK_UPDATE):
            resource["message"] = message.payload(self.api_base)
        return self._json({"interaction": interaction, "resource": resource})

    def _metadata(self, ex: Exchange) -> dict[str, Any]:
        owner = "0" if ex.channel.guild_id is not None else "1"
        owner_id = ex.channel.guild_id if ex.channel.guild_id is not None else ex.user.id
        return {
            "id": str(ex.id),
            "type": ex.payload["type"],
            "user": ex.user.payload(),
            "authorizing_integration_owners": {owner: str(owner_id)},
        }

    async def _followup(self, rec: RecordedRequest, app: str, token: str) -> web.Response:
        ex = self._exchange(token, rec)
        if isinstance(ex, web.Response):
            return ex
        if ex.callback_reply is None:
            return self._error(404, 10015, "Unknown Webhook")
        if refused := self._refuse_message(rec, flags=fake_limits.INTERACTION_FLAGS, new=True):
            return refused
        body = rec.json or {}
        original = ex.original
        cb = ex.callback_reply
        if original is not None and original.loading and cb.type == CALLBACK_DEFER:
            # Discord: the first followup after a deferred (thinking) response edits it.
            self._apply_body(original, body, rec.files, edit=True)
            message = original
        else:
            message = self._new_message(
                ex.channel.id, body, rec.files, webhook=True, interaction=self._metadata(ex)
            )
            ex.followups.append(message)
        ex.replies.append(Reply("followup", rec, message))
        return self._json(message.payload(self.api_base))

    def _webhook_message(self, ex: Exchange, mid: str) -> StoredMessage | web.Response:
        if mid == "@original":
            if ex.original is None or ex.original.deleted:
                return self._error(404, 10008, "Unknown Message")
            return ex.original
        msg = self._message_or_404(mid)
        if isinstance(msg, StoredMessage) and msg is not ex.original and msg not in ex.followups:
            return self._error(404, 10008, "Unknown Message")
        return msg

    async def _wh_get(self, rec: RecordedRequest, app: str, token: str, mid: str) -> web.Response:
        ex = self._exchange(token, rec)
        if isinstance(ex, web.Response):
            return ex
        msg = self._webhook_message(ex, mid)
        return msg if isinstance(msg, web.Response) else self._json(msg.payload(self.api_base))

    async def _wh_edit(self, rec: RecordedRequest, app: str, token: str, mid: str) -> web.Response:
        ex = self._exchange(token, rec)
        if isinstance(ex, web.Response):
            return ex
        msg = self._webhook_message(ex, mid)
        if isinstance(msg, web.Response):
            return msg
        if refused := self._refuse_message(rec, flags=fake_limits.INTERACTION_FLAGS):
            return refused
        self._apply_body(msg, rec.json or {}, rec.files, edit=True)
        ex.replies.append(Reply("edit", rec, msg))
        return self._json(msg.payload(self.api_base))

    async def _wh_del(self, rec: RecordedRequest, app: str, token: str, mid: str) -> web.Response:
        ex = self._exchange(token, rec)
        if isinstance(ex, web.Response):
            return ex
        msg = self._webhook_message(ex, mid)
        if isinstance(msg, web.Response):
            return msg
        msg.deleted = True
        ex.replies.append(Reply("delete", rec, msg))
        return web.Response(status=204)

    # ----------------------------------------------------------------- pushing interactions

    def _base_interaction(
        self, kind: int, user: FakeUser, channel: FakeChannel, locale: str
    ) -> dict[str, Any]:
        interaction_id = self.snowflake()
        locale = LOCALE_ALIASES.get(locale, locale)
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "token": f"fake-{interaction_id}-{secrets.token_hex(8)}",
            "version": 1,
            "channel_id": str(channel.id),
            "channel": self._channel_payload(channel),
            "locale": locale,
            "app_permissions": str(
                int(ALL_PERMISSIONS)
                & ~(
                    self.denied.get(channel.id, 0)
                    | self.denied.get(channel.parent_id or channel.id, 0)
                )
            ),
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        guild = self._guild_of(channel)
        if guild is not None:
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
            payload["guild_locale"] = guild.locale
            payload["member"] = _member_payload(user)
            payload["context"] = 0
            payload["authorizing_integration_owners"] = {"0": str(guild.id)}
        else:
            payload["user"] = user.payload()
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"1": str(user.id)}
        return payload

    async def _push(
        self,
        payload: dict[str, Any],
        user: FakeUser,
        channel: FakeChannel,
        source: StoredMessage | None = None,
        shard: int | None = None,
    ) -> Exchange:
        ex = Exchange(self, payload, user, channel, source)
        self.exchanges[ex.token] = ex
        await self.dispatch("INTERACTION_CREATE", payload, shard=shard)
        return ex

    def _command_path(
        self, name: str, guild_id: int | None
    ) -> tuple[dict[str, Any], list[str], list[dict[str, Any]]]:
        """Resolve ``"essenz start"`` to (root command, sub path, the leaf's option schema)."""
        words = name.strip().lstrip("/").split()
        root = self.command(words[0], guild_id)
        schema = root.get("options") or []
        path: list[str] = []
        for word in words[1:]:
            sub = next(
                (
                    o
                    for o in schema
                    if word in _names(o) and o["type"] in (OPT_SUBCOMMAND, OPT_GROUP)
                ),
                None,
            )
            if sub is None:
                subs = [o["name"] for o in schema if o["type"] in (OPT_SUBCOMMAND, OPT_GROUP)]
                raise LookupError(f"/{root['name']} has no subcommand {word!r}; there are {subs}")
            path.append(sub["name"])
            schema = sub.get("options") or []
        if any(o["type"] in (OPT_SUBCOMMAND, OPT_GROUP) for o in schema):
            subs = [o["name"] for o in schema]
            raise LookupError(f"/{name} needs a subcommand: {subs}")
        return root, path, schema

    def _command_data(
        self,
        name: str,
        options: Mapping[str, Any],
        channel: FakeChannel,
        *,
        focused: str | None = None,
    ) -> dict[str, Any]:
        root, path, schema = self._command_path(name, channel.guild_id)
        resolved: dict[str, dict[str, Any]] = {}
        by_name = {alias: o for o in schema for alias in _names(o)}
        built = []
        given = set()
        for typed, value in options.items():
            opt = by_name.get(typed)
            if opt is None:
                raise ValueError(f"/{name} has no option {typed!r}; options: {list(by_name)}")
            key = opt["name"]
            given.add(key)
            if typed == focused:
                built.append(
                    {"name": key, "type": opt["type"], "value": str(value), "focused": True}
                )
            else:
                converted = self._convert(opt, value, channel, resolved)
                built.append({"name": key, "type": opt["type"], "value": converted})
        if focused is None:
            missing = [o["name"] for o in schema if o.get("required") and o["name"] not in given]
            if missing:
                raise ValueError(f"/{name}: required option(s) missing: {missing}")
        nested: list[dict[str, Any]] = built
        for depth in range(len(path) - 1, -1, -1):  # innermost subcommand first
            kind = OPT_SUBCOMMAND if depth == len(path) - 1 else OPT_GROUP
            nested = [{"name": path[depth], "type": kind, "options": nested}]
        data: dict[str, Any] = {
            "id": root["id"],
            "name": root["name"],
            "type": root.get("type", 1),
            "options": nested,
        }
        if root.get("guild_id"):
            data["guild_id"] = root["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _convert(
        self,
        opt: Mapping[str, Any],
        value: Any,
        channel: FakeChannel,
        resolved: dict[str, dict[str, Any]],
    ) -> Any:
        kind = opt["type"]
        if kind in (OPT_USER, OPT_MENTIONABLE):
            user = self.user(_mention_id(value))
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            if channel.guild_id is not None:
                member = _member_payload(user, with_user=False)
                resolved.setdefault("members", {})[str(user.id)] = member
            return str(user.id)
        if kind == OPT_CHANNEL:
            chan = self.channel(_channel_ref(value))
            entry = {**chan.payload(), "permissions": ALL_PERMISSIONS}
            resolved.setdefault("channels", {})[str(chan.id)] = entry
            return str(chan.id)
        if kind == OPT_ROLE:
            role_id = int(str(value).strip("<@&>"))
            role = {"id": str(role_id), "name": f"role{role_id}", "color": 0, "hoist": False,
                    "position": 1, "permissions": "0", "managed": False, "mentionable": True,
                    "flags": 0}  # fmt: skip
            resolved.setdefault("roles", {})[str(role_id)] = role
            return str(role_id)
        if kind == OPT_ATTACHMENT:
            filename, data = value if isinstance(value, tuple) else ("upload.bin", bytes(value))
            kind = mimetypes.guess_type(filename)[0] or "application/octet-stream"
            att = StoredAttachment(self.snowflake(), filename, kind, data)
            holder = StoredMessage(self.snowflake(), channel.id, channel.guild_id, self.user())
            holder.attachments.append(att)
            holder.deleted = True
            self.messages[holder.id] = holder
            resolved.setdefault("attachments", {})[str(att.id)] = att.payload(
                self.api_base, channel.id
            )
            return str(att.id)
        converted = _scalar(opt, value)
        _check_limits(opt, converted)
        return converted

    async def slash(
        self,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        user: FakeUser | str | int | None = None,
        channel: FakeChannel | str | int | None = None,
        locale: str = "de",
    ) -> Exchange:
        """Push a slash command. ``name`` may hold subcommands (``"essenz start"``); option
        values are converted by the synced schema (users by name/id/FakeUser/mention, channels by
        name/id, choices by value or display name). Raises ``LookupError`` / ``ValueError`` for
        something Discord's client would not let a user send."""
        u, chan = self.user(user), self.channel(channel)
        payload = self._base_interaction(APPLICATION_COMMAND, u, chan, locale)
        payload["data"] = self._command_data(name, options or {}, chan)
        return await self._push(payload, u, chan)

    async def autocomplete(
        self,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        focused: str | None = None,
        user: FakeUser | str | int | None = None,
        channel: FakeChannel | str | int | None = None,
        locale: str = "de",
        timeout: float = DEFAULT_TIMEOUT,
    ) -> list[dict[str, Any]]:
        """Push an autocomplete request for ``focused`` (default: the last option given) and
        return the choices the bot answered with."""
        options = dict(options or {})
        if focused is None:
            if not options:
                raise ValueError("autocomplete needs the typed option value")
            focused = list(options)[-1]
        options.setdefault(focused, "")
        u, chan = self.user(user), self.channel(channel)
        payload = self._base_interaction(AUTOCOMPLETE, u, chan, locale)
        payload["data"] = self._command_data(name, options, chan, focused=focused)
        ex = await self._push(payload, u, chan)
        return await ex.choices(timeout)

    def _message(self, message: StoredMessage | int) -> StoredMessage:
        msg = self.messages[message] if isinstance(message, int) else message
        if msg.deleted:
            raise LookupError(f"message {msg.id} was deleted")
        return msg

    async def click(
        self,
        message: StoredMessage | int,
        custom_id: str | int,
        *,
        user: FakeUser | str | int | None = None,
        locale: str = "de",
        shard: int | None = None,
    ) -> Exchange:
        """Press a button on a stored message: by ``custom_id``, or by 1-based position among the
        message's buttons when an int is given (to the guild's shard, or to ``shard``). Raises
        ``LookupError`` for a missing button and ``ValueError`` for a disabled or link button."""
        msg = self._message(message)
        if isinstance(custom_id, int):
            buttons = msg.buttons
            if not 1 <= custom_id <= len(buttons):
                raise LookupError(f"message {msg.id} has {len(buttons)} button(s)")
            comp = buttons[custom_id - 1]
        else:
            comp = msg.component(custom_id)
        if comp["type"] != BUTTON:
            raise ValueError(f"{comp.get('custom_id')!r} is not a button")
        if comp.get("disabled"):
            raise ValueError(f"button {comp.get('custom_id')!r} is disabled")
        if "custom_id" not in comp:
            raise ValueError("link/premium buttons do not send interactions")
        return await self._component(msg, comp, [], user, locale, shard)

    async def select(
        self,
        message: StoredMessage | int,
        custom_id: str,
        values: Sequence[Any],
        *,
        user: FakeUser | str | int | None = None,
        locale: str = "de",
        shard: int | None = None,
    ) -> Exchange:
        """Choose ``values`` in a select menu of a stored message. String selects check the
        values against the options; user selects take names/ids/FakeUsers."""
        msg = self._message(message)
        comp = msg.component(custom_id)
        if comp["type"] not in SELECT_TYPES:
            raise ValueError(f"{custom_id!r} is not a select menu")
        if comp.get("disabled"):
            raise ValueError(f"select {custom_id!r} is disabled")
        if comp["type"] == STRING_SELECT:
            allowed = [o["value"] for o in comp.get("options", [])]
            labels = {o["label"]: o["value"] for o in comp.get("options", [])}
            values = [labels.get(str(v), str(v)) for v in values]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(f"{bad} not among the options {allowed}")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise ValueError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        return await self._component(msg, comp, list(values), user, locale, shard)

    async def _component(
        self,
        msg: StoredMessage,
        comp: Mapping[str, Any],
        values: list[Any],
        who: FakeUser | str | int | None,
        locale: str,
        shard: int | None = None,
    ) -> Exchange:
        u, chan = self.user(who), self.channel(msg.channel_id)
        payload = self._base_interaction(MESSAGE_COMPONENT, u, chan, locale)
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": comp["type"]}
        if comp["type"] in SELECT_TYPES:
            resolved: dict[str, dict[str, Any]] = {}
            if comp["type"] in (USER_SELECT, MENTIONABLE_SELECT):
                opt = {"type": OPT_USER}
                values = [self._convert(opt, v, chan, resolved) for v in values]
            elif comp["type"] == CHANNEL_SELECT:
                opt = {"type": OPT_CHANNEL}
                values = [self._convert(opt, v, chan, resolved) for v in values]
            data["values"] = [str(v) for v in values]
            if resolved:
                data["resolved"] = resolved
        payload["data"] = data
        payload["message"] = msg.payload(self.api_base)
        return await self._push(payload, u, chan, source=msg, shard=shard)

    async def forge_component(
        self,
        message: StoredMessage | int,
        custom_id: str,
        *,
        component_type: int = BUTTON,
        values: Sequence[str] = (),
        user: FakeUser | str | int | None = None,
        locale: str = "de",
    ) -> Exchange:
        """Push a component interaction for ``custom_id`` on ``message`` whether or not the
        message has that component (a crafted or stale client): no checks on the id, the
        values or the component's state; select values are sent as given."""
        comp = {"custom_id": custom_id, "type": component_type}
        if component_type in SELECT_TYPES and component_type != STRING_SELECT:
            comp["type"] = STRING_SELECT  # raw values only: no resolved users or channels
        ex = await self._component(self._message(message), comp, list(values), user, locale)
        return ex

    async def forge_modal(
        self,
        custom_id: str,
        fields: Mapping[str, str],
        *,
        user: FakeUser | str | int | None = None,
        channel: FakeChannel | str | int | None = None,
        locale: str = "de",
    ) -> Exchange:
        """Push a modal submission the bot never opened: ``custom_id`` and text inputs
        ``fields`` (input custom_id → value) exactly as given."""
        u, chan = self.user(user), self.channel(channel)
        payload = self._base_interaction(MODAL_SUBMIT, u, chan, locale)
        rows = [
            {"type": ACTION_ROW, "components": [{"type": TEXT_INPUT, "custom_id": k, "value": v}]}
            for k, v in fields.items()
        ]
        payload["data"] = {"custom_id": custom_id, "components": rows}
        return await self._push(payload, u, chan)

    async def submit_modal(
        self,
        opened_by: Exchange,
        values: Mapping[str, Any],
        *,
        user: FakeUser | str | int | None = None,
        locale: str = "de",
        timeout: float = DEFAULT_TIMEOUT,
    ) -> Exchange:
        """Submit the modal that the bot opened in answer to ``opened_by``; ``values`` maps the
        inputs' custom_ids to text (or a list for selects inside the modal). Inputs not given are
        sent empty; a required one missing raises ``ValueError``."""
        modal = await opened_by.modal(timeout)
        who = user if user is not None else opened_by.user
        u, chan = self.user(who), opened_by.channel
        unknown = set(values) - {
            c["custom_id"] for c in _walk(modal.get("components", [])) if "custom_id" in c
        }
        if unknown:
            raise ValueError(f"modal {modal['custom_id']!r} has no input(s) {sorted(unknown)}")
        payload = self._base_interaction(MODAL_SUBMIT, u, chan, locale)
        payload["data"] = {
            "custom_id": modal["custom_id"],
            "components": [_submitted(c, values) for c in modal.get("components", [])],
        }
        if opened_by.source is not None:
            payload["message"] = opened_by.source.payload(self.api_base)
        return await self._push(payload, u, chan, source=opened_by.source)


def _names(entry: Mapping[str, Any]) -> set[str]:
    """The name of a command or option and its localized names."""
    return {entry["name"], *(entry.get("name_localizations") or {}).values()}


def _submitted(comp: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """The submission shape of one modal component, mirroring the modal's layout."""
    kind = comp["type"]
    if kind == ACTION_ROW:
        return {"type": 1, "components": [_submitted(c, values) for c in comp["components"]]}
    if kind == LABEL:
        return {"type": LABEL, "component": _submitted(comp["component"], values)}
    custom_id = str(comp.get("custom_id", ""))
    if kind == TEXT_INPUT:
        value = str(values.get(custom_id, comp.get("value") or ""))
        if comp.get("required", True) and not value:
            raise ValueError(f"modal input {custom_id!r} is required")
        return {"type": TEXT_INPUT, "custom_id": custom_id, "value": value}
    if kind in SELECT_TYPES:
        chosen = values.get(custom_id, [])
        chosen = [chosen] if isinstance(chosen, str) else list(chosen)
        return {"type": kind, "custom_id": custom_id, "values": [str(v) for v in chosen]}
    return {"type": kind, **({"custom_id": custom_id} if custom_id else {})}


def _mention_id(value: Any) -> FakeUser | str | int:
    if isinstance(value, FakeUser | int):
        return value
    text = str(value).strip()
    if m := re.fullmatch(r"<@!?(\d+)>", text):
        return int(m.group(1))
    if text.isdigit():
        return int(text)
    return text


def _channel_ref(value: Any) -> FakeChannel | str | int:
    if isinstance(value, FakeChannel | int):
        return value
    text = str(value).strip()
    if m := re.fullmatch(r"<#(\d+)>", text):
        return int(m.group(1))
    return int(text) if text.isdigit() else text


_TRUE = {"true", "yes", "ja", "1", "on", "wahr"}
_FALSE = {"false", "no", "nein", "0", "off", "falsch"}


def _scalar(opt: Mapping[str, Any], value: Any) -> Any:
    kind = opt["type"]
    choices = opt.get("choices")
    if choices:
        for choice in choices:
            names = {choice["name"], *(choice.get("name_localizations") or {}).values()}
            if str(value) in names or str(value) == str(choice["value"]):
                value = choice["value"]
                break
        else:
            shown = [c["value"] for c in choices]
            raise ValueError(f"option {opt['name']!r} must be one of {shown}, not {value!r}")
    try:
        if kind == OPT_INTEGER:
            return int(value)
        if kind == OPT_NUMBER:
            return float(value)
    except (TypeError, ValueError):
        raise ValueError(f"option {opt['name']!r} needs a number, not {value!r}") from None
    if kind == OPT_BOOLEAN:
        if isinstance(value, bool):
            return value
        text = str(value).lower()
        if text not in _TRUE | _FALSE:
            raise ValueError(f"option {opt['name']!r} needs true/false, not {value!r}")
        return text in _TRUE
    return str(value)


def _check_limits(opt: Mapping[str, Any], value: Any) -> None:
    name = opt["name"]
    if isinstance(value, str):
        if len(value) < opt.get("min_length", 0) or len(value) > opt.get("max_length", 6000):
            raise ValueError(f"option {name!r}: length {len(value)} outside the allowed range")
    elif isinstance(value, int | float) and not isinstance(value, bool):
        lo, hi = opt.get("min_value"), opt.get("max_value")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise ValueError(f"option {name!r} must be within {lo}..{hi}, not {value}")
