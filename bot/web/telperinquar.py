"""The Telperinquár pages of the web companion: the card browser (class, type, attribute,
cost, text), the deck builder on the same decks the bot plays (``tq_decks``: add and remove
with counts, the rules' verdict with every reason, the cost curve and classes, text lists in
and out) and a server's own card file, viewed and checked before an upload.

Everything is the bot's own code: ``bot.narration.telperinquar`` for names, lists, the store
writes and the card file check, ``engines.telperinquar.decks.validate`` for the rules; the
cards are the server's (its uploaded file included), as ``/telperinquar`` plays them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from urllib.parse import quote

from aiohttp import web

from bot.i18n import t
from bot.limits import MAX_CONTENT_BYTES
from bot.narration import telperinquar as tq
from bot.render.telperinquar import deck_png
from bot.services.decks import DeckService
from bot.store.base import DeckRecord
from bot.web.auth import WebUser
from bot.web.html import attr, csrf_field, esc, message, options, page, plain, upload_note
from bot.web.request import WebError, context, form_of, html_response, redirect, user_of
from bot.workers import render_async
from engines.core import EngineError
from engines.telperinquar.cards import (
    ATTRIBUTES,
    CARD_TYPES,
    CLASSES,
    Catalogue,
    heroes,
    level_card_name,
)
from engines.telperinquar.decks import validate

MAX_DELTA = 40  # copies one click may add or remove
KINDS = ("hero", "level", *CARD_TYPES)


def _deck_url(name: str, suffix: str = "") -> str:
    return f"/tq/deck{suffix}?name={quote(name, safe='')}"


def _name_param(request: web.Request, form: Mapping[str, str] | None = None) -> str:
    raw = (form or {}).get("name") if form is not None else request.query.get("name")
    if not raw:
        raise WebError(404, "web.error.not_found")
    return raw[:200]


async def _catalogue(user: WebUser, request: web.Request) -> Catalogue:
    return await DeckService(context(request).store).server_catalogue(user.guild_id)


# ----------------------------------------------------------------------------- cards


class CardRow:
    """One card as the browser lists it (names in both languages for the search)."""

    __slots__ = ("classes", "german", "kind", "play", "requires", "search", "shown", "text", "use")

    def __init__(self, german: str, lang: str, cat: Catalogue) -> None:
        self.german = german
        self.kind = tq.card_kind(german, cat)
        self.shown = tq.card_name(german, lang, cat)
        card = cat.support(german)
        if card is not None:
            self.classes = card.classes
            self.play, self.use = card.play, card.use
            self.requires = dict(card.requires)
            self.text = card.text_de if lang == "de" else card.text_en
            names = f"{card.name} {card.name_en}"
        else:
            known = cat.resolve(german)
            cls = known[1] if known else ""
            self.classes = (cls,) if cls else ()
            self.play = self.use = 0
            self.requires = {}
            self.text = tq.card_text(german, lang, cat)[1]
            names = f"{german} {tq.card_name(german, 'en', cat)}"
        self.search = f"{names} {self.text}".casefold()


def card_rows(lang: str, cat: Catalogue) -> list[CardRow]:
    names = [h.name for h in heroes().values()] + [level_card_name(c) for c in CLASSES]
    return [CardRow(name, lang, cat) for name in [*names, *cat.cards]]


def filtered(rows: Sequence[CardRow], query: Mapping[str, str]) -> list[CardRow]:
    """The rows matching the filters: class (a card for every class counts), type, an
    attribute the card requires, its play cost, text in either language."""
    cls, kind = query.get("cls", ""), query.get("type", "")
    attribute, cost = query.get("attr", ""), query.get("cost", "")
    needle = query.get("q", "").strip().casefold()[:100]
    out = []
    for row in rows:
        if cls and row.classes and cls not in row.classes:
            continue
        if kind and row.kind != kind:
            continue
        if attribute and attribute not in row.requires:
            continue
        if cost and (
            not cost.isdecimal() or row.kind in ("hero", "level") or row.play != int(cost)
        ):
            continue
        if needle and needle not in row.search:
            continue
        out.append(row)
    return out


def _filters(query: Mapping[str, str], lang: str, hidden: str = "") -> str:
    classes = options(
        [("", t("web.log.all", lang)), *((c, tq.class_name(c, lang)) for c in CLASSES)],
        query.get("cls", ""),
    )
    kinds = options(
        [("", t("web.log.all", lang)), *((k, plain(t(f"tqcog.kind.{k}", lang))) for k in KINDS)],
        query.get("type", ""),
    )
    attributes = options(
        [("", t("web.log.all", lang)), *((a, t(f"tqcog.attr.{a}", lang)) for a in ATTRIBUTES)],
        query.get("attr", ""),
    )
    return (
        f'<form method="get" class="filters">{hidden}'
        f'<label>{esc(t("web.tq.class", lang))} <select name="cls">{classes}</select></label>'
        f'<label>{esc(t("web.tq.type", lang))} <select name="type">{kinds}</select></label>'
        f"<label>{esc(t('web.tq.attribute', lang))} "
        f'<select name="attr">{attributes}</select></label>'
        f'<label>{esc(t("web.tq.cost", lang))} <input name="cost" class="n" '
        f'value="{attr(query.get("cost", "")[:3])}"></label>'
        f'<label>{esc(t("web.log.search", lang))} <input name="q" '
        f'value="{attr(query.get("q", "")[:100])}"></label>'
        f'<button type="submit">{esc(t("web.log.filter", lang))}</button></form>'
    )


def _requires(row: CardRow, lang: str) -> str:
    return ", ".join(f"{t(f'tqcog.attr.{a}', lang)} {v}" for a, v in row.requires.items())


def _card_table(rows: Sequence[CardRow], lang: str, add: str = "") -> str:
    """The cards as a table; with ``add`` (a deck name and the CSRF field) a + button each."""
    header = "".join(
        f"<th>{esc(t(key, lang))}</th>"
        for key in ("web.sheet.entry_name", "web.tq.type", "web.tq.class", "web.tq.cost")
    )
    header += f"<th>{esc(t('web.tq.attribute', lang))}</th><th></th>"
    lines = []
    for row in rows:
        classes = ", ".join(tq.class_name(c, lang) for c in row.classes if c in CLASSES)
        costs = "" if row.kind in ("hero", "level") else f"{row.play}/{row.use}"
        button = ""
        if add:
            button = (
                f'<form method="post" action="/tq/deck/card">{add}'
                f'<input type="hidden" name="card" value="{attr(row.german)}">'
                f'<input name="delta" value="1" class="c" inputmode="numeric" '
                f'aria-label="{attr(t("web.tq.copies", lang, name=row.shown))}">'
                f'<button type="submit" aria-label="+ {attr(row.shown)}">+</button></form>'
            )
        name = (
            f'<a href="/tq/card.png?name={quote(row.german, safe="")}">{esc(row.shown)}</a>'
            f'<br><span class="muted">{esc(plain(row.text))}</span>'
            if not add
            else esc(row.shown)
        )
        lines.append(
            f'<tr><td title="{attr(row.text)}">{name}</td>'
            f"<td>{esc(plain(t(f'tqcog.kind.{row.kind}', lang)))}</td><td>{esc(classes)}</td>"
            f"<td>{esc(costs)}</td><td>{esc(_requires(row, lang))}</td><td>{button}</td></tr>"
        )
    return f'<table class="cards"><tr>{header}</tr>{"".join(lines)}</table>'


async def cards_page(request: web.Request) -> web.Response:
    user = user_of(request)
    lang = user.lang
    rows = filtered(card_rows(lang, await _catalogue(user, request)), request.query)
    count = f'<p class="muted">{esc(t("web.tq.count", lang, count=len(rows)))}</p>'
    body = _filters(request.query, lang) + count + _card_table(rows, lang)
    return html_response(page(t("web.tq.cards", lang), body, lang, user))


async def card_png(request: web.Request) -> web.Response:
    """One card drawn as the bot draws it (``/telperinquar karte``)."""
    user = user_of(request)
    cat = await _catalogue(user, request)
    name = request.query.get("name", "")[:100]
    if cat.resolve(name) is None:
        raise WebError(404, "web.error.not_found")
    image = await tq.card_image(tq.resolve_card(name, cat), user.lang, cat)
    return web.Response(body=image, content_type="image/png")


# ----------------------------------------------------------------------------- decks


async def decks_page(request: web.Request) -> web.Response:
    return await _decks_page(request)


async def _decks_page(request: web.Request, note: str = "", status: int = 200) -> web.Response:
    user = user_of(request)
    lang = user.lang
    store = context(request).store
    cat = await _catalogue(user, request)
    decks = await store.decks(user.user_id)
    items = "".join(
        f'<li><a href="{attr(_deck_url(d.name))}">{esc(d.name)}</a> '
        f"<span class='muted'>{esc(plain(tq.verdict_line(d, lang, cat)))}</span></li>"
        for d in decks
    )
    listed = f"<ul>{items}</ul>" if decks else f"<p>{esc(plain(t('tqcog.deck.none', lang)))}</p>"
    new = (
        f'<form method="post" action="/tq/decks">{csrf_field(user)}'
        f'<label>{esc(t("web.tq.new_deck", lang))} <input name="name" maxlength="40"></label>'
        f'<button type="submit" id="new-deck">{esc(t("web.tq.create", lang))}</button></form>'
    )
    links = (
        f'<p><a href="/tq/cards">{esc(t("web.tq.cards", lang))}</a> · '
        f'<a href="/tq/cardfile">{esc(t("web.tq.card_file", lang))}</a></p>'
    )
    return html_response(
        page(t("web.tq.decks", lang), note + listed + new + links, lang, user), status
    )


async def create_deck(request: web.Request) -> web.Response:
    user = user_of(request)
    form = await form_of(request)
    try:
        record = await DeckService(context(request).store).new_deck(
            user.user_id, form.get("name", "")
        )
    except EngineError as error:
        return await _decks_page(
            request, message(t(error.key, user.lang, **error.params), bad=True), 400
        )
    return redirect(_deck_url(record.name))


async def _deck(request: web.Request, name: str) -> DeckRecord:
    user = user_of(request)
    deck = await context(request).store.get_deck(user.user_id, name)
    if deck is None:
        raise WebError(404, "tq.deck.not_found", name=name[:40])
    return deck


def curve(deck: DeckRecord, cat: Catalogue) -> Counter[int]:
    """Copies of support cards per play cost."""
    counts: Counter[int] = Counter()
    for name, count in deck.cards:
        card = cat.support(name)
        if card is not None:
            counts[card.play] += count
    return counts


def _summary(deck: DeckRecord, lang: str, cat: Catalogue) -> str:
    info = validate(dict(deck.cards), cat)
    if info.legal:
        classes = ", ".join(tq.class_name(c, lang) for c in info.classes)
        verdict = message(t("tq.deck.legal", lang, classes=classes))
    else:
        reasons = "".join(f"<li>{esc(plain(tq.problem_text(p, lang)))}</li>" for p in info.problems)
        verdict = f'<div class="msg bad" role="alert" id="verdict"><ul>{reasons}</ul></div>'
    costs = curve(deck, cat)
    highest = max(costs.values(), default=0)
    bars = "".join(
        f"<tr><td>{cost}</td><td><span class='bar'>"
        f"{'█' * round(12 * costs[cost] / highest)}</span> {costs[cost]}</td></tr>"
        for cost in sorted(costs)
    )
    kinds: Counter[str] = Counter()
    for name, count in deck.cards:
        kinds[tq.card_kind(name, cat)] += count
    kind_line = " · ".join(
        f"{plain(t(f'tqcog.kind.{k}', lang))} {n}" for k, n in sorted(kinds.items())
    )
    by_class: Counter[str] = Counter()
    for name, count in deck.cards:
        card = cat.support(name)
        if card is not None:
            for cls in card.classes or ("",):
                by_class[cls] += count
    class_line = " · ".join(
        f"{tq.class_name(c, lang) if c else t('web.tq.any_class', lang)} {n}"
        for c, n in sorted(by_class.items(), key=lambda item: (item[0] == "", item[0]))
        if not c or c in CLASSES
    )
    size = t("tqcog.deck.title", lang, name=deck.name, count=deck.size)
    return (
        f'<p id="size">{esc(plain(size))}</p>{verdict}'
        f'<h3>{esc(t("web.tq.curve", lang))}</h3><table class="curve">{bars}</table>'
        f'<p class="muted">{esc(kind_line)}</p>'
        f'<p class="muted" id="classes">{esc(t("web.tq.classes", lang))}: '
        f"{esc(class_line or '–')}</p>"
    )


def _deck_list(deck: DeckRecord, lang: str, cat: Catalogue, hidden: str) -> str:
    rows = []
    for name, count in sorted(deck.cards, key=lambda item: tq.card_name(item[0], lang, cat)):
        shown = tq.card_name(name, lang, cat)
        buttons = "".join(
            f'<form method="post" action="/tq/deck/card">{hidden}'
            f'<input type="hidden" name="card" value="{attr(name)}">'
            f'<input type="hidden" name="delta" value="{delta}">'
            f'<button type="submit" aria-label="{label} {attr(shown)}">{label}</button></form>'
            for delta, label in ((-1, "−"), (1, "+"))
        )
        rows.append(
            f"<tr><td>{count}×</td><td>{esc(shown)}</td><td class='row'>{buttons}</td></tr>"
        )
    return f'<table class="deck">{"".join(rows)}</table>'


async def deck_page(request: web.Request) -> web.Response:
    return await _deck_page(request, _name_param(request), request.query)


async def _deck_page(
    request: web.Request,
    name: str,
    query: Mapping[str, str],
    note: str = "",
    status: int = 200,
) -> web.Response:
    user = user_of(request)
    lang = user.lang
    deck = await _deck(request, name)
    cat = await _catalogue(user, request)
    hidden = csrf_field(user) + f'<input type="hidden" name="name" value="{attr(deck.name)}">'
    pool = filtered(card_rows(lang, cat), query)
    name_field = f'<input type="hidden" name="name" value="{attr(deck.name)}">'
    tools = (
        f'<p><a href="{attr(_deck_url(deck.name, "/export"))}" download>'
        f"{esc(t('web.tq.export', lang))}</a> · "
        f'<a href="{attr(_deck_url(deck.name, "/image"))}">'
        f"{esc(t('web.sheet.image', lang))}</a></p>"
        f'<form method="post" action="/tq/deck/import">{hidden}'
        f'<label for="list">{esc(t("web.tq.import", lang))}</label>'
        f'<textarea id="list" name="list">\n{esc(tq.deck_text(deck, cat))}</textarea>'
        f'<button type="submit" id="import">'
        f"{esc(t('web.sheet.import_button', lang))}</button></form>"
    )
    manage = (
        f"<h3>{esc(t('web.tq.manage', lang))}</h3>"
        f'<form method="post" action="/tq/deck/rename">{hidden}'
        f'<label>{esc(t("web.tq.new_name", lang))} <input name="new" maxlength="40"></label> '
        f'<button type="submit" name="copy" value="">{esc(t("web.tq.rename", lang))}</button> '
        f'<button type="submit" name="copy" value="1">{esc(t("web.tq.copy", lang))}</button>'
        f'</form><form method="post" action="/tq/deck/delete">{hidden}'
        f'<label><input type="checkbox" name="sure"> {esc(t("web.tq.delete_sure", lang))}</label> '
        f'<button type="submit" id="delete">{esc(t("web.tq.delete", lang))}</button></form>'
    )
    left = (
        _summary(deck, lang, cat)
        + f"<h3>{esc(t('web.tq.in_deck', lang))}</h3>"
        + _deck_list(deck, lang, cat, hidden)
        + tools
        + manage
    )
    right = (
        f"<h3>{esc(t('web.tq.cards', lang))}</h3>"
        + _filters(query, lang, name_field)
        + _card_table(pool, lang, add=hidden)
    )
    back = f'<p><a href="/tq/decks">{esc(t("web.tq.decks", lang))}</a></p>'
    body = back + note + f'<div class="cols"><div>{left}</div><div>{right}</div></div>'
    return html_response(page(deck.name, body, lang, user), status)


async def change_card(request: web.Request) -> web.Response:
    user = user_of(request)
    form = await form_of(request)
    name = _name_param(request, form)
    delta_text = form.get("delta", "")
    if not delta_text.lstrip("-").isdecimal() or len(delta_text) > 3:
        raise WebError(400, "web.error.bad_form")
    delta = int(delta_text)
    if delta == 0 or abs(delta) > MAX_DELTA:
        raise WebError(400, "web.error.bad_form")
    cat = await _catalogue(user, request)
    await DeckService(context(request).store).change_card(
        user.user_id,
        name,
        form.get("card", "")[:100],
        delta,
        user.lang,
        cat,
    )
    return redirect(_deck_url(name))


async def import_list(request: web.Request) -> web.Response:
    user = user_of(request)
    form = await form_of(request)
    name = _name_param(request, form)
    text = form.get("list", "")
    if len(text.encode()) > tq.MAX_IMPORT_BYTES:
        raise WebError(413, "web.error.too_big", max=tq.MAX_IMPORT_BYTES // 1024)
    await _deck(request, name)
    cat = await _catalogue(user, request)
    record, reasons = await DeckService(context(request).store).import_deck(
        user.user_id, name, text, user.lang, cat
    )
    if record is None:
        items = "".join(f"<li>{esc(plain(r))}</li>" for r in reasons)
        note = f'<div class="msg bad" role="alert"><ul>{items}</ul></div>'
        return await _deck_page(request, name, {}, note, 400)
    return redirect(_deck_url(record.name))


async def rename_deck(request: web.Request) -> web.Response:
    """Rename the deck, or copy it under a new name (as ``/telperinquar deck umbenennen`` and
    ``kopieren``)."""
    user = user_of(request)
    form = await form_of(request)
    name = _name_param(request, form)
    try:
        record = await DeckService(context(request).store).renamed(
            user.user_id,
            name,
            form.get("new", ""),
            copy=bool(form.get("copy")),
        )
    except EngineError as error:
        note = message(t(error.key, user.lang, **error.params), bad=True)
        return await _deck_page(request, name, {}, note, 400)
    return redirect(_deck_url(record.name))


async def delete_deck(request: web.Request) -> web.Response:
    """Delete the deck once the user ticked that they are sure."""
    user = user_of(request)
    form = await form_of(request)
    name = _name_param(request, form)
    deck = await _deck(request, name)
    if form.get("sure") != "on":
        note = message(t("web.tq.delete_unsure", user.lang), bad=True)
        return await _deck_page(request, deck.name, {}, note, 400)
    await context(request).store.delete_deck(user.user_id, deck.name)
    return redirect("/tq/decks")


async def export_list(request: web.Request) -> web.Response:
    user = user_of(request)
    deck = await _deck(request, _name_param(request))
    text = tq.deck_text(deck, await _catalogue(user, request))
    return web.Response(
        text=text,
        content_type="text/plain",
        charset="utf-8",
        headers={"Content-Disposition": f'attachment; filename="{tq.file_name(deck.name)}"'},
    )


async def deck_image(request: web.Request) -> web.Response:
    user = user_of(request)
    deck = await _deck(request, _name_param(request))
    cat = await _catalogue(user, request)
    data = await render_async(deck_png, dict(deck.cards), user.lang, title=deck.name, catalogue=cat)
    return web.Response(body=data, content_type="image/png")


# ----------------------------------------------------------------------------- card file


async def card_file_page(request: web.Request) -> web.Response:
    """The server's own card file (its cards and text) and a form that checks a file before
    it is uploaded with ``/telperinquar karten``."""
    user = user_of(request)
    lang = user.lang
    stored = await DeckService(context(request).store).server_cards(user.guild_id)
    return _card_file(user, lang, stored, "", stored_text=stored)


def _card_file(user: WebUser, lang: str, text: str, note: str, *, stored_text: str) -> web.Response:
    if stored_text:
        cards, _ = tq.check_card_file(stored_text, lang)
        names = ", ".join(c.name if lang == "de" else c.name_en for c in cards)
        current = f"<p>{esc(t('web.tq.file_cards', lang, count=len(cards)))}: {esc(names)}</p>"
    else:
        current = f"<p>{esc(t('web.tq.no_file', lang))}</p>"
    form = (
        f'<form method="post" action="/tq/cardfile">{csrf_field(user)}'
        f'<label for="file">{esc(t("web.tq.check_file", lang))}</label>'
        f'<textarea id="file" name="text" rows="20">\n{esc(text)}</textarea>'
        f'<button type="submit" id="check">{esc(t("web.tq.check", lang))}</button></form>'
    )
    body = current + note + upload_note(user, lang) + form
    return html_response(page(t("web.tq.card_file", lang), body, lang, user))


async def check_card_file(request: web.Request) -> web.Response:
    user = user_of(request)
    lang = user.lang
    form = await form_of(request)
    text = form.get("text", "").replace("\r\n", "\n")
    if len(text.encode()) > MAX_CONTENT_BYTES:
        raise WebError(413, "web.error.too_big", max=MAX_CONTENT_BYTES // 1024)
    cards, mistakes = tq.check_card_file(text, lang)
    if mistakes:
        items = "".join(f"<li>{esc(plain(m))}</li>" for m in mistakes)
        note = f'<div class="msg bad" role="alert"><ul>{items}</ul></div>'
    else:
        note = message(t("web.tq.file_ok", lang, count=len(cards)))
    stored = await DeckService(context(request).store).server_cards(user.guild_id)
    return _card_file(user, lang, text, note, stored_text=stored)


def add_routes(app: web.Application) -> None:
    app.router.add_get("/tq/cards", cards_page)
    app.router.add_get("/tq/card.png", card_png)
    app.router.add_get("/tq/decks", decks_page)
    app.router.add_post("/tq/decks", create_deck)
    app.router.add_get("/tq/deck", deck_page)
    app.router.add_post("/tq/deck/card", change_card)
    app.router.add_post("/tq/deck/import", import_list)
    app.router.add_post("/tq/deck/rename", rename_deck)
    app.router.add_post("/tq/deck/delete", delete_deck)
    app.router.add_get("/tq/deck/export", export_list)
    app.router.add_get("/tq/deck/image", deck_image)
    app.router.add_get("/tq/cardfile", card_file_page)
    app.router.add_post("/tq/cardfile", check_card_file)
