"""What every page of the web companion uses on a request: the companion's context (store,
settings, sign-in), the signed-in user and their language, the posted form, an HTML answer,
a redirect, and ``WebError`` (a refusal with a catalog message and an HTTP status). The pages
(``content``, ``games``, ``telperinquar``, ``w6``) build on this; ``bot.web.server`` adds
the middleware, the sign-in pages and the application that routes to them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bot.settings import Settings
from bot.store import Store
from bot.web.auth import WebAuth, WebUser


class WebError(Exception):
    """A request refused with a message from the catalog and an HTTP status."""

    def __init__(self, status: int, key: str, **params: Any) -> None:
        super().__init__(key)
        self.status = status
        self.key = key
        self.params = params


def not_found() -> WebError:
    """Missing, or another server's: the same answer, so nothing leaks across servers."""
    return WebError(404, "web.error.not_found")


@dataclass
class WebContext:
    """What the pages use: the store, the settings and the sign-in service."""

    store: Store
    settings: Settings
    auth: WebAuth
    extras: dict[str, Any] = field(default_factory=dict)


CONTEXT = web.AppKey("context", WebContext)


USER: web.RequestKey[WebUser | None] = web.RequestKey("user")


def context(request: web.Request) -> WebContext:
    return request.app[CONTEXT]


def signed_in(request: web.Request) -> WebUser | None:
    """The signed-in user, or None."""
    value = request.get(USER)
    return value if isinstance(value, WebUser) else None


def user_of(request: web.Request) -> WebUser:
    """The signed-in user; raises WebError 401 when nobody is."""
    user = signed_in(request)
    if user is None:
        raise WebError(401, "web.error.signed_out")
    return user


def lang_of(request: web.Request) -> str:
    user = signed_in(request)
    if user is not None:
        return user.lang
    accepted = request.headers.get("Accept-Language", "").strip().lower()
    return "en" if accepted.startswith("en") else "de"


def html_response(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html", charset="utf-8")


async def form_of(request: web.Request) -> dict[str, str]:
    """The posted form as text fields (files and repeated names: the first text value)."""
    posted = await request.post()
    fields: dict[str, str] = {}
    for key, value in posted.items():
        if isinstance(value, str) and key not in fields:
            fields[key] = value
    return fields


def redirect(location: str) -> web.Response:
    """See other (after a form): the browser asks for ``location`` with a GET."""
    return web.Response(status=303, headers={"Location": location})
