"""The fake Discord's values: constants, errors, users, channels, guilds, recorded
requests, stored messages and the exchanges of an interaction."""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import json
import re
import time
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from aiohttp import web

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


class Waiter(Protocol):
    """What an :class:`Exchange` needs of the fake (its ``FakeBase``): waiting on a condition
    and raising what the fake refused meanwhile. A protocol, so the values below do not
    import the fake that holds them."""

    def raise_reported_errors(self) -> None: ...

    async def wait(self, check: Callable[[], T | None], timeout: float, what: str) -> T: ...


class Exchange:
    """An interaction the fake pushed, and everything the bot answered to it, in order."""

    def __init__(
        self,
        fake: Waiter,
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


def _names(entry: Mapping[str, Any]) -> set[str]:
    """The name of a command or option and its localized names."""
    return {entry["name"], *(entry.get("name_localizations") or {}).values()}
