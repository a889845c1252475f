"""The web companion's HTTP server (aiohttp), run inside the bot process on the store the bot
uses, so what a page saves is what the bot reads at once.

Every request passes one middleware: the session cookie is looked up (``request[USER]``),
every POST but the sign-in itself must carry the session's CSRF token, and errors become a page
in the user's language (engine and store errors with the bot's own messages; anything else
"something went wrong (code X)" with the traceback in the log). Responses carry a strict
Content-Security-Policy (no script but our own files, no framing) and no referrer to other
sites (a sign-in link never leaks through one); a POST whose browser says it comes from another
site (``Origin``, also ``null``) is refused before anything else.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from bot.i18n import t
from bot.settings import Settings
from bot.store import Store
from bot.web import content, games, telperinquar, w6
from bot.web.auth import SESSION_HOURS, WebAuth, well_formed
from bot.web.html import CSS, attr, esc, message, page
from bot.web.request import (
    CONTEXT,
    USER,
    WebContext,
    WebError,
    context,
    form_of,
    html_response,
    lang_of,
    redirect,
    signed_in,
    user_of,
)
from engines.core import EngineError

log = logging.getLogger("spielleiter.web")
COOKIE = "spielleiter_session"
MAX_BODY = 256 * 1024  # a sheet document is at most 200 kB; a form a little more
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'self'; img-src 'self' data:; script-src 'self'; "
        "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",  # a sign-in link never leaves as a referrer
    "Cache-Control": "no-store",
}


def secure_cookies(settings: Settings) -> bool:
    return bool(settings.web_url and settings.web_url.startswith("https://"))


@web.middleware
async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        response = await _guarded(request, handler)
    except web.HTTPException as http:
        if http.status == 413:
            response = _error_page(request, 413, "web.error.too_big", max=MAX_BODY // 1024)
        elif http.status == 404:
            response = _error_page(request, 404, "web.error.not_found")
        elif http.status == 405:
            response = _error_page(request, 405, "web.error.bad_form")
        else:
            response = http
    except WebError as error:
        response = _error_page(request, error.status, error.key, **error.params)
    except EngineError as error:
        response = _error_page(request, 400, error.key, **error.params)
    except Exception:
        code = secrets.token_hex(3)
        log.exception("unexpected error %s in %s %s", code, request.method, request.path)
        response = _error_page(request, 500, "error.unexpected", code=code)
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


async def _guarded(request: web.Request, handler: Handler) -> web.StreamResponse:
    ctx = context(request)
    request[USER] = await ctx.auth.session(request.cookies.get(COOKIE))
    if request.method == "POST" and not same_origin(request, ctx.settings):
        raise WebError(403, "web.error.csrf")  # a form posted from another site
    if request.method == "POST" and request.path != "/login":
        user = user_of(request)
        try:
            form = await form_of(request)
        except ValueError as error:  # a body that is no form
            raise WebError(400, "web.error.bad_form") from error
        if not user.csrf_ok(form.get("csrf")):
            raise WebError(403, "web.error.csrf")
    elif request.method not in ("GET", "HEAD", "POST"):
        raise WebError(405, "web.error.bad_form")
    return await handler(request)


def same_origin(request: web.Request, settings: Settings) -> bool:
    """A browser's ``Origin`` of a POST is this companion (its host as the request names it,
    or the public address); a client that sends none is left to the CSRF token."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    allowed = {f"http://{request.host}", f"https://{request.host}"}
    if settings.web_url:
        scheme, _sep, rest = settings.web_url.partition("://")
        allowed.add(f"{scheme}://{rest.split('/', 1)[0]}")
    return origin in allowed


def _error_page(request: web.Request, status: int, key: str, **params: Any) -> web.Response:
    lang = lang_of(request)
    text = t(key, lang, **params)
    title = t("web.title", lang)
    body = message(text, bad=True)
    if status == 401:
        body += f'<p><a href="/">{esc(t("web.home.title", lang))}</a></p>'
    return html_response(page(title, body, lang, signed_in(request)), status)


# ----------------------------------------------------------------------------- sign-in


async def css(request: web.Request) -> web.Response:
    return web.Response(text=CSS, content_type="text/css", charset="utf-8")


async def sign_in_page(request: web.Request) -> web.Response:
    """The link from ``/web``: a button that signs in (a GET never uses the link up, so a link
    preview that fetches it changes nothing)."""
    token = request.match_info["token"]
    lang = lang_of(request)
    if not well_formed(token):
        raise WebError(400, "web.error.link_invalid")
    body = (
        f"<p>{esc(t('web.signin.text', lang))}</p>"
        f'<form method="post" action="/login"><input type="hidden" name="token" '
        f'value="{attr(token)}"><button type="submit" id="signin">'
        f"{esc(t('web.signin.button', lang))}</button></form>"
    )
    return html_response(page(t("web.signin.title", lang), body, lang))


async def sign_in(request: web.Request) -> web.StreamResponse:
    ctx = context(request)
    try:
        form = await form_of(request)
    except ValueError as error:
        raise WebError(400, "web.error.bad_form") from error
    redeemed = await ctx.auth.redeem(form.get("token", ""))
    if redeemed is None:
        raise WebError(403, "web.error.link_invalid")
    session, _user = redeemed
    response = redirect("/")
    response.set_cookie(
        COOKIE,
        session,
        max_age=SESSION_HOURS * 3600,
        path="/",
        httponly=True,
        samesite="Lax",
        secure=secure_cookies(ctx.settings),
    )
    return response


async def sign_out(request: web.Request) -> web.StreamResponse:
    user = user_of(request)
    await context(request).auth.sign_out(user)
    lang = user.lang
    response = html_response(page(t("web.signout", lang), message(t("web.signed_out", lang)), lang))
    response.del_cookie(COOKIE, path="/")
    return response


def create_app(ctx: WebContext) -> web.Application:
    """The companion's application: sign-in and every page."""
    app = web.Application(middlewares=[guard], client_max_size=MAX_BODY)
    app[CONTEXT] = ctx
    app.router.add_get("/static/web.css", css)
    app.router.add_get("/login/{token}", sign_in_page)
    app.router.add_post("/login", sign_in)
    app.router.add_post("/logout", sign_out)
    w6.add_routes(app)
    telperinquar.add_routes(app)
    games.add_routes(app)
    content.add_routes(app)
    return app


class WebServer:
    """The companion served on ``settings.web_host``:``settings.web_port`` (0: a free port,
    for tests); ``base_url`` is where links point."""

    def __init__(
        self, store: Store, settings: Settings, auth: WebAuth | None = None, *, bot_id: int = 0
    ) -> None:
        self.ctx = WebContext(store, settings, auth or WebAuth(store), {"bot_id": bot_id})
        self.port: int | None = None
        self._runner: web.AppRunner | None = None

    @property
    def base_url(self) -> str:
        if self.ctx.settings.web_url:
            return self.ctx.settings.web_url.rstrip("/")
        return f"http://127.0.0.1:{self.port}"

    async def sign_in_link(
        self,
        user_id: int,
        guild_id: int,
        *,
        lang: str,
        name: str,
        guild_name: str = "",
        manager: bool = False,
    ) -> str:
        """A new one-time sign-in link for the user on that server."""
        token = await self.ctx.auth.new_link(
            user_id, guild_id, lang=lang, name=name, guild_name=guild_name, manager=manager
        )
        return f"{self.base_url}/login/{token}"

    async def start(self) -> None:
        runner = web.AppRunner(create_app(self.ctx), access_log=None)
        await runner.setup()
        self._runner = runner  # cleaned up by stop(), also when the port cannot be had
        site = web.TCPSite(runner, self.ctx.settings.web_host, self.ctx.settings.web_port or 0)
        await site.start()
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else self.ctx.settings.web_port
        log.info("web companion on %s (listening on port %s)", self.base_url, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
