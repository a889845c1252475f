"""Signing in to the web companion without passwords: ``/web`` gives a one-time link, the link
becomes a browser session.

A link is short-lived, single use and bound to the Discord user and the server it came from;
a session is scoped to that server too and carries its own CSRF secret. The store keeps only
the SHA-256 of each token (a copy of the database signs nobody in), so several shard processes
on one database share links and sessions.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.store import Store
from bot.store.base import WebTokenRecord

LINK, SESSION = "link", "session"
LINK_MINUTES = 10
SESSION_HOURS = 12
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,100}$")
Clock = Callable[[], float]


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def well_formed(token: str) -> bool:
    """Whether ``token`` looks like one we hand out (anything else is refused unread)."""
    return bool(_TOKEN.match(token))


@dataclass(frozen=True)
class WebUser:
    """Who a session belongs to, as the sign-in link knew it."""

    user_id: int
    guild_id: int
    lang: str
    name: str
    guild_name: str
    manager: bool  # Manage Server or the owner, when the link was asked for
    csrf: str
    session_hash: str

    def csrf_ok(self, token: str | None) -> bool:
        return token is not None and hmac.compare_digest(token.encode(), self.csrf.encode())


class WebAuth:
    """Links and sessions in the store; ``clock`` gives the time (tests pass their own)."""

    def __init__(self, store: Store, clock: Clock = time.time) -> None:
        self.store = store
        self.clock = clock

    async def new_link(
        self,
        user_id: int,
        guild_id: int,
        *,
        lang: str,
        name: str,
        guild_name: str = "",
        manager: bool = False,
    ) -> str:
        """A new sign-in link token for the user on that server."""
        token = secrets.token_urlsafe(32)
        now = self.clock()
        data = {"lang": lang, "name": name[:100], "guild": guild_name[:100], "manager": manager}
        await self.store.put_web_token(
            token_hash(token), LINK, user_id, guild_id, data, now + LINK_MINUTES * 60, now=now
        )
        return token

    async def redeem(self, token: str) -> tuple[str, WebUser] | None:
        """Use a link once: a new session token and its user, or None (unknown, used, expired)."""
        if not well_formed(token):
            return None
        now = self.clock()
        link = await self.store.take_web_token(token_hash(token), LINK, now)
        if link is None:
            return None
        session = secrets.token_urlsafe(32)
        data = {**link.data, "csrf": secrets.token_urlsafe(24)}
        await self.store.put_web_token(
            token_hash(session),
            SESSION,
            link.user_id,
            link.guild_id,
            data,
            now + SESSION_HOURS * 3600,
            now=now,
        )
        found = await self.store.get_web_token(token_hash(session), SESSION, now)
        return None if found is None else (session, _user(found))

    async def session(self, token: str | None) -> WebUser | None:
        """The signed-in user of a session cookie, or None."""
        if token is None or not well_formed(token):
            return None
        found = await self.store.get_web_token(token_hash(token), SESSION, self.clock())
        return None if found is None else _user(found)

    async def sign_out(self, user: WebUser) -> None:
        await self.store.delete_web_token(user.session_hash)


def _user(record: WebTokenRecord) -> WebUser:
    data = record.data
    return WebUser(
        user_id=record.user_id,
        guild_id=record.guild_id,
        lang=str(data.get("lang", "de")),
        name=str(data.get("name", "")),
        guild_name=str(data.get("guild", "")),
        manager=bool(data.get("manager", False)),
        csrf=str(data.get("csrf", "")),
        session_hash=record.token_hash,
    )
