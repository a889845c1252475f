"""Building the companion's HTML: every value that came from a user or the store goes through
:func:`esc` (or :func:`attr`), so no name, note or log line can become markup."""

from __future__ import annotations

import html
from collections.abc import Iterable

from bot.i18n import t
from bot.web.auth import WebUser

CSS = """
:root { --bg:#f6f4ef; --fg:#222; --muted:#666; --accent:#8a5cf6; --bad:#b00020; --ok:#1b6e2a; }
* { box-sizing: border-box; }
body { margin:0; font:16px/1.45 system-ui, sans-serif; background:var(--bg); color:var(--fg); }
header { display:flex; gap:1rem; align-items:center; padding:.6rem 1rem; background:#2b2140;
  color:#fff; }
header a { color:#fff; text-decoration:none; font-weight:600; }
header form { margin-left:auto; }
main { max-width:1100px; margin:0 auto; padding:1rem; }
h1 { margin-top:.2rem; }
fieldset { border:1px solid #ccc; margin:0 0 1rem; padding:.6rem .8rem; background:#fff; }
legend { font-weight:600; }
label { display:inline-block; margin:.2rem .6rem .2rem 0; }
input[type=text], input:not([type]), select, textarea { font:inherit; padding:.15rem .3rem; }
input.n { width:5rem; }
input.c { width:2.5rem; }
[aria-invalid="true"] { border:2px solid var(--bad); background:#fff0f0; }
textarea { width:100%; min-height:6rem; }
table { border-collapse:collapse; }
td, th { padding:.15rem .4rem; text-align:left; vertical-align:top; }
.msg { padding:.5rem .8rem; margin:0 0 1rem; border-left:4px solid var(--ok); background:#fff; }
.msg.bad { border-color:var(--bad); color:var(--bad); }
.muted { color:var(--muted); font-size:.9rem; }
.cols { display:flex; flex-wrap:wrap; gap:1rem; align-items:flex-start; }
.cols > * { flex:1 1 420px; }
img.sheet, img.board { max-width:100%; border:1px solid #ccc; }
pre.derived { white-space:pre-wrap; background:#fff; padding:.5rem; border:1px solid #ccc; }
ul.log { list-style:none; padding:0; } ul.log li { padding:.2rem 0; border-bottom:1px solid #ddd; }
button { font:inherit; padding:.25rem .8rem; cursor:pointer; }
table.cards form, table.deck form { display:inline; margin:0; }
table.cards button, table.deck button { padding:0 .5rem; }
table.cards tr:nth-child(even), table.deck tr:nth-child(even) { background:#fff; }
.filters label { margin-right:.8rem; }
header { flex-wrap:wrap; }
article.spell { background:#fff; border:1px solid #ddd; padding:.3rem .8rem; margin:.5rem 0; }
article.spell h3 { margin:.2rem 0; }
"""


def esc(value: object) -> str:
    """Text for an element's content."""
    return html.escape(str(value), quote=True)


def attr(value: object) -> str:
    """Text for a double-quoted attribute value."""
    return html.escape(str(value), quote=True)


def plain(text: str) -> str:
    """A catalog text written for Discord, without its Markdown marks (``**``, backticks)."""
    return text.replace("**", "").replace("`", "")


def csrf_field(user: WebUser) -> str:
    return f'<input type="hidden" name="csrf" value="{attr(user.csrf)}">'


def upload_note(user: WebUser, lang: str) -> str:
    """Whether the user may upload a server content file (as ``/web`` saw their rights)."""
    key = "web.file.may_upload" if user.manager else "web.file.manager_only"
    return f'<p class="muted">{esc(t(key, lang))}</p>'


def message(text: str, *, bad: bool = False) -> str:
    kind = "msg bad" if bad else "msg"
    role = "alert" if bad else "status"
    return f'<div class="{kind}" role="{role}">{esc(plain(text))}</div>'


def page(title: str, body: str, lang: str, user: WebUser | None = None) -> str:
    """A whole page: header (with sign-out for a signed-in user), title and ``body``."""
    signout = ""
    if user is not None:
        links = (
            ("/", "web.nav.w6"),
            ("/tq/decks", "web.nav.decks"),
            ("/tq/cards", "web.nav.cards"),
            ("/ff/spells", "web.nav.felsenfeuer"),
            ("/arm/scenarios", "web.nav.armageddon"),
            ("/games", "web.nav.games"),
        )
        signout = "".join(f'<a href="{href}">{esc(t(key, lang))}</a>' for href, key in links)
        signout += (
            f'<form method="post" action="/logout">{csrf_field(user)}'
            f'<button type="submit">{esc(t("web.signout", lang))}</button></form>'
        )
    return (
        f'<!doctype html><html lang="{attr(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)} · Spielleiter</title>"
        '<link rel="stylesheet" href="/static/web.css"></head><body>'
        f"<header><strong>Spielleiter</strong>{signout}</header>"
        f"<main><h1>{esc(title)}</h1>{body}</main></body></html>"
    )


def options(values: Iterable[tuple[str, str]], chosen: str) -> str:
    """``<option>`` elements (value, label), ``chosen`` selected."""
    return "".join(
        f'<option value="{attr(v)}"{" selected" if v == chosen else ""}>{esc(label)}</option>'
        for v, label in values
    )
