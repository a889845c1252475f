"""Reading the games' content in the web companion, and checking a file before it is uploaded:
the Felsenfeuer spellbook by colour and pips with search in both languages (the server's own
spells marked) and a spell file checked with every mistake's line; the Armageddon scenarios
with their map drawn, and a scenario file checked (file and line of a mistake) and previewed.

The checks are the bot's own (``engines.felsenfeuer.uploads.upload_problems``, what
``/felsenfeuer zauberbuch hochladen`` runs; ``bot.play.specs.armageddon.scenario_config``, what
``/armageddon start`` runs), so a file that passes here is taken there.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping

from aiohttp import web

from bot.i18n import t
from bot.narration import felsenfeuer as ff
from bot.play.specs import armageddon as arm
from bot.render.felsenfeuer_text import colour_name
from bot.web.html import attr, csrf_field, esc, message, options, page, plain, upload_note
from bot.web.request import WebError, context, form_of, html_response, user_of
from bot.workers import run_heavy
from engines.armageddon import ENGINE as ARMAGEDDON
from engines.armageddon.engine import preview
from engines.armageddon.scenario import load, parse, scenario_names
from engines.core import EngineError
from engines.felsenfeuer.model import COLOURS
from engines.felsenfeuer.spells import MAX_EXTRA_BYTES, Spell, book_for
from engines.felsenfeuer.uploads import upload_problems

_LINE = re.compile(r"line (\d+): (.*)", re.DOTALL)


# ----------------------------------------------------------------------------- Felsenfeuer


async def _server_spells(request: web.Request) -> str:
    user = user_of(request)
    record = await context(request).store.get_content(user.guild_id, ff.SPELLS_KIND)
    return record.text if record is not None else ""


def _matches(spell: Spell, query: Mapping[str, str]) -> bool:
    colour, pips = query.get("colour", ""), query.get("pips", "")
    needle = query.get("q", "").strip().casefold()[:100]
    if colour and spell.colour != colour:
        return False
    if pips and (not pips.isdecimal() or spell.pips != int(pips)):
        return False
    text = f"{spell.name} {spell.slug} {spell.keyword} {spell.text_de} {spell.text_en}"
    return not needle or needle in text.casefold()


async def spellbook_page(request: web.Request) -> web.Response:
    user = user_of(request)
    lang = user.lang
    server = await _server_spells(request)
    own = ff.server_slugs(server)
    book = sorted(
        book_for(server).values(),
        key=lambda s: (COLOURS.index(s.colour) if s.colour in COLOURS else 9, s.pips, s.name),
    )
    shown = [spell for spell in book if _matches(spell, request.query)]
    colours = options(
        [("", t("web.log.all", lang)), *((c, colour_name(c, lang)) for c in COLOURS)],
        request.query.get("colour", ""),
    )
    pips = sorted({spell.pips for spell in book})
    pip_choices = options(
        [("", t("web.log.all", lang)), *((str(p), str(p)) for p in pips)],
        request.query.get("pips", ""),
    )
    form = (
        '<form method="get" class="filters">'
        f'<label>{esc(t("web.ff.colour", lang))} <select name="colour">{colours}</select></label>'
        f'<label>{esc(t("web.ff.pips", lang))} <select name="pips">{pip_choices}</select></label>'
        f'<label>{esc(t("web.log.search", lang))} <input name="q" '
        f'value="{attr(request.query.get("q", "")[:100])}"></label>'
        f'<button type="submit">{esc(t("web.log.filter", lang))}</button></form>'
    )
    sections: list[str] = []
    heading = ""
    for spell in shown:
        colour = colour_name(spell.colour, lang).capitalize()
        if colour != heading:
            heading = colour
            sections.append(f"<h2>{esc(colour)}</h2>")
        title, line, text = ff.spell_text(spell, lang)
        mark = (
            f" <span class='muted'>({esc(t('web.ff.server', lang))})</span>"
            if spell.slug in own
            else ""
        )
        sections.append(
            f'<article class="spell" id="{attr(spell.slug)}"><h3>{esc(plain(title))}{mark}</h3>'
            f"<p class='muted'>{esc(plain(line))}</p><p>{esc(plain(text))}</p></article>"
        )
    count = f'<p class="muted">{esc(t("web.ff.count", lang, count=len(shown)))}</p>'
    links = f'<p><a href="/ff/spellfile">{esc(t("web.ff.check_title", lang))}</a></p>'
    body = form + count + "".join(sections) + links
    return html_response(page(t("web.ff.title", lang), body, lang, user))


def _problem_lines(problems: tuple[str, ...], lang: str) -> list[str]:
    lines = []
    for problem in problems:
        found = _LINE.match(problem)
        if found and int(found.group(1)) > 0:
            lines.append(t("web.file.line", lang, line=int(found.group(1)), problem=found.group(2)))
        else:
            lines.append(problem)
    return lines


def _file_form(action: str, label: str, text: str, lang: str, csrf: str) -> str:
    return (
        f'<form method="post" action="{action}">{csrf}'
        f'<label for="file">{esc(label)}</label>'
        f'<textarea id="file" name="text" rows="20">\n{esc(text)}</textarea>'
        f'<button type="submit" id="check">{esc(t("web.tq.check", lang))}</button></form>'
    )


async def spell_file_page(request: web.Request) -> web.Response:
    user = user_of(request)
    lang = user.lang
    server = await _server_spells(request)
    text, note = server or ff.template_file(), ""
    if request.method == "POST":
        form = await form_of(request)
        text = form.get("text", "").replace("\r\n", "\n")
        if len(text.encode()) > MAX_EXTRA_BYTES:
            raise WebError(413, "web.error.too_big", max=MAX_EXTRA_BYTES // 1024)
        problems = await run_heavy(upload_problems, text)  # every spell's own test too
        if problems:
            items = "".join(f"<li>{esc(line)}</li>" for line in _problem_lines(problems, lang))
            note = f'<div class="msg bad" role="alert"><ul>{items}</ul></div>'
        else:
            count = len(ff.server_book_lines(text, lang))
            note = message(t("web.ff.file_ok", lang, count=count))
    label = t("web.ff.check_file", lang)
    editor = _file_form("/ff/spellfile", label, text, lang, csrf_field(user))
    body = note + upload_note(user, lang) + editor
    return html_response(page(t("web.ff.check_title", lang), body, lang, user))


# ----------------------------------------------------------------------------- Armageddon


async def _map_png(config: dict[str, str], lang: str) -> tuple[str, bytes]:
    """The head line and the starting map of a (checked) scenario config."""
    name, _parties = arm.scenario_of(config)
    view = preview(config)
    image = await arm.map_image(view, [t("armageddoncog.gm", lang)], lang, 0)
    return name, image


async def scenarios_page(request: web.Request) -> web.Response:
    user = user_of(request)
    lang = user.lang
    items = []
    for name in scenario_names():
        sc = parse(*load(name))
        head = t(
            "armageddoncog.scenario.head", lang, name=sc.name, parties=sc.parties,
            rounds=sc.rounds, cols=sc.cols, rows=sc.rows,
        )  # fmt: skip
        items.append(f'<li><a href="/arm/scenario?name={attr(name)}">{esc(plain(head))}</a></li>')
    own = []
    for game_id, name in await _played(request):
        own.append(f'<li><a href="/arm/played?game={game_id}">{esc(name)}</a></li>')
    played = f"<h2>{esc(t('web.arm.played', lang))}</h2><ul>{''.join(own)}</ul>" if own else ""
    links = f'<p><a href="/arm/check">{esc(t("web.arm.check_title", lang))}</a></p>'
    body = f"<ul>{''.join(items)}</ul>{played}{links}"
    return html_response(page(t("web.arm.title", lang), body, lang, user))


async def _played(request: web.Request) -> list[tuple[int, str]]:
    """The server's own scenario files, as its finished games were played with them (the
    newest game of each file; a finished game's record is open to its server)."""
    user = user_of(request)
    games = await context(request).store.games_in_guild(user.guild_id, statuses=("finished",))
    seen: set[str] = set()
    found = []
    for game in games:
        text = game.config.get("scenario_text")
        if game.kind != ARMAGEDDON.name or not isinstance(text, str) or text in seen:
            continue
        seen.add(text)
        try:
            name, _parties = arm.scenario_of(game.config)
        except EngineError:  # a file of an older format
            continue
        found.append((game.id, f"{name} ({game.config.get('file', '')})"))
    return found


async def played_page(request: web.Request) -> web.Response:
    user = user_of(request)
    lang = user.lang
    wanted = request.query.get("game", "")
    game_id = next((g for g, _name in await _played(request) if str(g) == wanted), None)
    record = await context(request).store.get_game(game_id) if game_id is not None else None
    if record is None:
        raise WebError(404, "web.error.not_found")
    config = {"scenario_text": record.config["scenario_text"], "file": record.config.get("file")}
    name, image = await _map_png({k: str(v) for k, v in config.items() if v}, lang)
    data = base64.b64encode(image).decode()
    body = (
        f'<img class="board" alt="{attr(name)}" src="data:image/png;base64,{data}">'
        f"<h2>{esc(t('web.arm.file', lang))}</h2>"
        f"<pre class='derived'>{esc(record.config['scenario_text'])}</pre>"
        f'<p><a href="/games/{record.id}">{esc(t("web.arm.the_game", lang))}</a></p>'
    )
    return html_response(page(name, body, lang, user))


def _shipped(request: web.Request) -> str:
    name = request.query.get("name", "")
    if name not in scenario_names():
        raise WebError(404, "web.error.not_found")
    return name


async def scenario_page(request: web.Request) -> web.Response:
    user = user_of(request)
    lang = user.lang
    name = _shipped(request)
    head, text, _view = arm.scenario_summary(name, lang)
    body = (
        f"<p>{esc(plain(head))}</p>"
        f'<img class="board" alt="{attr(head)}" src="/arm/scenario.png?name={attr(name)}">'
        f"<h2>{esc(t('web.arm.file', lang))}</h2><pre class='derived'>{esc(text)}</pre>"
    )
    return html_response(page(plain(head.split("·")[0]).strip() or name, body, lang, user))


async def scenario_png(request: web.Request) -> web.Response:
    user = user_of(request)
    _name, image = await _map_png({"scenario": _shipped(request)}, user.lang)
    return web.Response(body=image, content_type="image/png")


async def scenario_check(request: web.Request) -> web.Response:
    user = user_of(request)
    lang = user.lang
    text, note, preview = load(scenario_names()[0])[0], "", ""
    if request.method == "POST":
        form = await form_of(request)
        text = form.get("text", "").replace("\r\n", "\n")
        file = (form.get("file", "") or "szenario.txt")[:60]
        try:
            config = arm.scenario_config(None, (file, text.encode()))
            name, image = await _map_png(config, lang)
        except EngineError as error:
            note = message(t(error.key, lang, **error.params), bad=True)
        else:
            note = message(t("web.arm.file_ok", lang, name=name))
            data = base64.b64encode(image).decode()
            preview = f'<img class="board" alt="{attr(name)}" src="data:image/png;base64,{data}">'
    label = t("web.arm.check_file", lang)
    body = note + preview + _file_form("/arm/check", label, text, lang, csrf_field(user))
    return html_response(page(t("web.arm.check_title", lang), body, lang, user))


def add_routes(app: web.Application) -> None:
    app.router.add_get("/ff/spells", spellbook_page)
    app.router.add_get("/ff/spellfile", spell_file_page)
    app.router.add_post("/ff/spellfile", spell_file_page)
    app.router.add_get("/arm/scenarios", scenarios_page)
    app.router.add_get("/arm/scenario", scenario_page)
    app.router.add_get("/arm/scenario.png", scenario_png)
    app.router.add_get("/arm/played", played_page)
    app.router.add_get("/arm/check", scenario_check)
    app.router.add_post("/arm/check", scenario_check)
