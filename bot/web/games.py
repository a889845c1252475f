"""The replay pages of the web companion: the server's games (finished ones, and the running
ones the viewer plays in), each stepped through with its board and narration, its record for
download and an animated GIF (``bot.web.replay``)."""

from __future__ import annotations

import json
from collections import OrderedDict

from aiohttp import web

from bot.games import ACTIVE, FINISHED, GameService
from bot.i18n import t
from bot.store.base import GameRecord
from bot.web import replay as rp
from bot.web.html import attr, esc, page, plain
from bot.web.request import WebContext, WebError, context, html_response, not_found, user_of
from bot.workers import run_heavy
from engines.core import IllegalAction

CACHE_SIZE = 16  # replays kept (a page, its images and its GIF replay the game once)
LIST_LIMIT = 100
REPLAY_JS = """
document.addEventListener("keydown", (event) => {
  const target = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
  const link = target && document.getElementById(target);
  if (link && !(event.target instanceof HTMLInputElement)) { link.click(); }
});
"""


def _int(text: str) -> int:
    if not text.isdecimal() or len(text) > 18:
        raise not_found()
    return int(text)


async def _record(request: web.Request) -> GameRecord:
    user = user_of(request)
    record = await context(request).store.get_game(_int(request.match_info["game"]))
    if record is None or record.guild_id != user.guild_id or not rp.replayable(record):
        raise not_found()
    return record


async def _replay(request: web.Request) -> rp.Replay:
    """The game replayed for the signed-in viewer (kept for the next request of the same
    revision: the page, its images and the GIF replay it once)."""
    user = user_of(request)
    record = await _record(request)
    try:
        seat = rp.viewer_seat(record, user.user_id)
    except IllegalAction as error:
        raise WebError(403, error.key) from error
    ctx = context(request)
    cache: OrderedDict[tuple[int, int, int | None], rp.Replay] = ctx.extras.setdefault(
        "replays", OrderedDict()
    )
    key = (record.id, record.revision, seat)
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    log = await ctx.store.game_actions(record.id)
    replay = await run_heavy(rp.build, record, log, seat)
    cache[key] = replay
    while len(cache) > CACHE_SIZE:
        cache.popitem(last=False)
    return replay


def _bot_id(ctx: WebContext) -> int:
    value = ctx.extras.get("bot_id", 0)
    return value if isinstance(value, int) else 0


def _title(record: GameRecord, lang: str) -> str:
    spec = rp.specs()[record.kind]
    return plain(spec.text("title", lang, id=record.id))


async def games_page(request: web.Request) -> web.Response:
    user = user_of(request)
    lang = user.lang
    records = await context(request).store.games_in_guild(
        user.guild_id, statuses=(ACTIVE, FINISHED), limit=LIST_LIMIT
    )
    items = []
    for record in records:
        if not rp.replayable(record):
            continue
        if record.status == ACTIVE and user.user_id not in record.players:
            continue
        names = record.display.get("names") or []
        state = t("web.games.running" if record.status == ACTIVE else "web.games.finished", lang)
        items.append(
            f'<li><a href="/games/{record.id}">{esc(_title(record, lang))}</a> '
            f"{esc(' · '.join(str(n) for n in names))} "
            f"<span class='muted'>({esc(state)})</span></li>"
        )
    body = f"<ul>{''.join(items)}</ul>" if items else f"<p>{esc(t('web.games.none', lang))}</p>"
    return html_response(page(t("web.games.title", lang), body, lang, user))


def _step_of(request: web.Request, replay: rp.Replay) -> int:
    text = request.query.get("step", "")
    if not text:
        return replay.count - 1
    if not text.isdecimal() or len(text) > 6:
        raise WebError(400, "web.error.bad_form")
    return min(int(text), replay.count - 1)


async def replay_page(request: web.Request) -> web.Response:
    user = user_of(request)
    lang = user.lang
    ctx = context(request)
    replay = await _replay(request)
    index = _step_of(request, replay)
    shown = await rp.show(replay, index, lang, _bot_id(ctx))
    record = replay.record
    base = f"/games/{record.id}"

    def link(target: int, label: str, anchor: str) -> str:
        if target == index or not 0 <= target < replay.count:
            return f"<span class='muted'>{esc(label)}</span>"
        return f'<a id="{anchor}" href="{base}?step={target}">{esc(label)}</a>'

    nav = " · ".join(
        [
            link(0, t("web.games.first", lang), "first"),
            link(index - 1, t("web.games.prev", lang), "prev"),
            esc(t("web.games.position", lang, step=index, count=len(replay.steps))),
            link(index + 1, t("web.games.next", lang), "next"),
            link(replay.count - 1, t("web.games.last", lang), "last"),
        ]
    )
    if index == 0:
        action = t("web.games.start", lang)
    else:
        step = replay.steps[index - 1]
        said = step.action if step.action is not None else t("web.games.secret", lang)
        action = f"{replay.names[step.seat]}: {said}"
    image = ""
    if shown.image is not None:
        image = (
            f'<img class="board" alt="{attr(t("web.games.board", lang))}" '
            f'src="{base}/step/{index}.png?r={record.revision}">'
        )
    words = "".join(f"<li>{esc(plain(line))}</li>" for line in shown.lines if line.strip())
    private = ""
    if shown.private:
        private = (
            f"<h3>{esc(t('web.games.your_view', lang))}</h3>"
            f"<pre class='derived'>{esc(plain(shown.private))}</pre>"
        )
    steps = "".join(
        f'<li><a href="{base}?step={i + 1}">'
        f"{esc(replay.names[s.seat])}: "
        f"{esc(s.action if s.action is not None else t('web.games.secret', lang))}</a></li>"
        for i, s in enumerate(replay.steps)
    )
    downloads = (
        f'<p><a href="{base}/record" download>{esc(t("web.games.record", lang))}</a> · '
        f'<a href="{base}/replay.gif">{esc(t("web.games.gif", lang))}</a></p>'
    )
    body = (
        f'<p class="nav" id="nav">{nav}</p><p id="action"><strong>{esc(action)}</strong></p>'
        f'<div class="cols"><div>{image}</div><div><ul id="narration">{words}</ul>{private}'
        f"{downloads}<h3>{esc(t('web.games.steps', lang))}</h3><ol>{steps}</ol></div></div>"
        '<script src="/static/replay.js"></script>'
    )
    return html_response(page(_title(record, lang), body, lang, user))


async def step_png(request: web.Request) -> web.Response:
    user = user_of(request)
    replay = await _replay(request)
    index = _int(request.match_info["step"])
    if index >= replay.count:
        raise not_found()
    shown = await rp.show(replay, index, user.lang, _bot_id(context(request)))
    if shown.image is None:
        raise not_found()
    return web.Response(body=shown.image, content_type="image/png")


async def record_json(request: web.Request) -> web.Response:
    """The record as ``/… export`` gives it to this viewer (full once the game is over)."""
    user = user_of(request)
    replay = await _replay(request)
    record = replay.record
    data = await GameService(context(request).store).export(record, user.user_id)
    data["names"] = replay.names
    return web.Response(
        text=json.dumps(data, ensure_ascii=False, indent=1),
        content_type="application/json",
        charset="utf-8",
        headers={"Content-Disposition": f'attachment; filename="{record.kind}-{record.id}.json"'},
    )


async def replay_gif(request: web.Request) -> web.Response:
    user = user_of(request)
    replay = await _replay(request)
    data = await rp.gif(replay, user.lang, _bot_id(context(request)))
    if data is None:
        raise not_found()
    return web.Response(body=data, content_type="image/gif")


async def replay_js(request: web.Request) -> web.Response:
    return web.Response(text=REPLAY_JS, content_type="text/javascript", charset="utf-8")


def add_routes(app: web.Application) -> None:
    app.router.add_get("/static/replay.js", replay_js)
    app.router.add_get("/games", games_page)
    app.router.add_get("/games/{game}", replay_page)
    app.router.add_get("/games/{game}/step/{step}.png", step_png)
    app.router.add_get("/games/{game}/record", record_json)
    app.router.add_get("/games/{game}/replay.gif", replay_gif)
