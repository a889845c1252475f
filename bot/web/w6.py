"""The W6 pages of the web companion: the campaigns of the signed-in server, the sheet editor
(every field, derived values, the sheet image, JSON import and export) and the GM's campaign
log with filters.

Permissions are the bot's (``bot.sheets.may_edit``): a player sees and edits their own
characters, the campaign's game masters every character and NPC; a campaign of another server
is "not found", as is a character of one. Saving goes through ``bot.sheets.Sheets`` (the
store the bot reads, one name per campaign, the revision guard), so ``/charakter zeigen``
shows the change at once.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from aiohttp import web

from bot.i18n import t
from bot.narration.w6 import entry_line
from bot.play.specs.w6_sheet import sheet_embed, sheet_view
from bot.render.sheet import render_sheet
from bot.sheets import Sheets, may_edit
from bot.store import StaleRevision
from bot.store.base import CampaignRecord, CharacterRecord
from bot.web.auth import WebUser
from bot.web.html import attr, csrf_field, esc, message, options, page, plain
from bot.web.request import (
    WebError,
    context,
    form_of,
    html_response,
    not_found,
    redirect,
    user_of,
)
from bot.web.sheet_form import form_fields, form_to_json, mark_invalid
from bot.workers import render_async
from engines.core import EngineError
from engines.core.jsontext import load_json
from engines.w6.sheet import Sheet
from engines.w6.sheet_io import (
    MAX_SHEET_BYTES,
    sheet_from_json,
    sheet_from_stored,
    sheet_to_json,
    sheet_to_text,
)

LOG_LIMIT = 500  # newest entries the log page filters
_MENTION = re.compile(r"<@!?(\d+)>")
# The derived values follow the form while the user types (nothing is saved until "Save").
SHEET_JS = """
const form = document.getElementById("sheet");
const target = document.getElementById("derived");
if (form && target) {
  let timer = null;
  let asked = 0;
  form.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const mine = ++asked;
      const response = await fetch(form.dataset.derived, {
        method: "POST", body: new FormData(form), credentials: "same-origin",
      });
      if (mine === asked && response.ok) { target.innerHTML = await response.text(); }
    }, 250);
  });
}
"""


def _int(text: str) -> int:
    """An id from the URL (no database id has more than 18 digits; more could pass 64 bits)."""
    if not text.isdecimal() or len(text) > 18:
        raise not_found()
    return int(text)


async def campaign_of(request: web.Request, campaign_id: int) -> CampaignRecord:
    """The campaign when it belongs to the signed-in server (else "not found")."""
    user = user_of(request)
    campaign = await context(request).store.get_campaign(campaign_id)
    if campaign is None or campaign.guild_id != user.guild_id:
        raise not_found()
    return campaign


async def character_of(request: web.Request) -> tuple[CampaignRecord, CharacterRecord]:
    """The character of the URL when the user may see and edit it: "not found" for another
    server's, the bot's own refusal (``w6cog.error.npc_gm_only`` / ``not_your_sheet``) for a
    sheet of this server that is not theirs."""
    user = user_of(request)
    record = await context(request).store.get_character(_int(request.match_info["sheet"]))
    if record is None:
        raise not_found()
    campaign = await campaign_of(request, record.campaign_id)
    if not may_edit(campaign, record, user.user_id):
        key = "w6cog.error.npc_gm_only" if record.owner_id is None else "w6cog.error.not_your_sheet"
        raise WebError(403, key)
    return campaign, record


def _visible(campaign: CampaignRecord, records: list[CharacterRecord], user: WebUser) -> list[Any]:
    return [r for r in records if may_edit(campaign, r, user.user_id)]


async def home(request: web.Request) -> web.Response:
    user = user_of(request)
    store = context(request).store
    lang = user.lang
    items = []
    for campaign in await store.campaigns(user.guild_id):
        records = _visible(campaign, await store.characters(campaign.id), user)
        if not campaign.is_gm(user.user_id) and not records:
            continue
        role = f" · {t('web.campaign.gm', lang)}" if campaign.is_gm(user.user_id) else ""
        state = f" ({t('web.campaign.archived', lang)})" if campaign.status != "active" else ""
        items.append(
            f'<li><a href="/w6/c/{campaign.id}">{esc(campaign.name)}</a>'
            f"{esc(state)}<span class='muted'>{esc(role)}</span></li>"
        )
    none = f"<p>{esc(t('web.home.no_campaigns', lang))}</p>"
    listed = f"<ul>{''.join(items)}</ul>" if items else none
    name, guild = user.name or user.user_id, user.guild_name or user.guild_id
    hello = t("web.home.hello", lang, name=name, guild=guild)
    body = f"<p>{esc(hello)}</p><h2>{esc(t('web.home.campaigns', lang))}</h2>{listed}"
    return html_response(page(t("web.home.title", lang), body, lang, user))


async def campaign_page(request: web.Request) -> web.Response:
    user = user_of(request)
    lang = user.lang
    campaign = await campaign_of(request, _int(request.match_info["campaign"]))
    records = _visible(campaign, await context(request).store.characters(campaign.id), user)

    def listing(chosen: list[CharacterRecord]) -> str:
        if not chosen:
            return f"<p>{esc(t('web.campaign.none', lang))}</p>"
        return (
            "<ul>"
            + "".join(f'<li><a href="/w6/s/{r.id}">{esc(r.name)}</a></li>' for r in chosen)
            + "</ul>"
        )

    body = f"<h2>{esc(t('web.campaign.characters', lang))}</h2>" + listing(
        [r for r in records if r.owner_id is not None]
    )
    if campaign.is_gm(user.user_id):
        body += f"<h2>{esc(t('web.campaign.npcs', lang))}</h2>" + listing(
            [r for r in records if r.owner_id is None]
        )
        body += f'<p><a href="/w6/c/{campaign.id}/log">{esc(t("web.campaign.log", lang))}</a></p>'
    return html_response(page(campaign.name, body, lang, user))


def _actor_names(
    campaign: CampaignRecord, records: list[CharacterRecord], user: WebUser, lang: str
) -> Callable[[re.Match[str]], str]:
    """A page knows no Discord names: ``<@id>`` in a log line reads as the viewer's own name,
    "game master", or the characters the player plays."""
    played: dict[int, list[str]] = {}
    for record in records:
        if record.owner_id is not None:
            played.setdefault(record.owner_id, []).append(record.name)

    def name(found: re.Match[str]) -> str:
        actor = int(found.group(1))
        if actor == user.user_id and user.name:
            return f"@{user.name}"
        if campaign.is_gm(actor):
            return f"@{t('web.campaign.gm', lang)}"
        return "@" + "/".join(played.get(actor, ["?"]))

    return name


async def log_page(request: web.Request) -> web.Response:
    """The campaign log for its game masters, filtered by kind and by text."""
    user = user_of(request)
    lang = user.lang
    campaign = await campaign_of(request, _int(request.match_info["campaign"]))
    if not campaign.is_gm(user.user_id):
        raise WebError(403, "w6cog.error.gm_only")
    store = context(request).store
    entries = await store.campaign_log(campaign.id, LOG_LIMIT)
    kinds = sorted({str(e.get("kind", "")) for e in entries})
    kind = request.query.get("kind", "")[:40]
    needle = request.query.get("q", "")[:100]
    who = _actor_names(campaign, await store.characters(campaign.id), user, lang)
    lines = [(e, _MENTION.sub(who, plain(entry_line(e, lang)))) for e in reversed(entries)]
    shown = [
        line
        for entry, line in lines
        if (not kind or entry.get("kind") == kind)
        and (not needle or needle.casefold() in line.casefold())
    ]
    choices = options([("", t("web.log.all", lang)), *((k, k) for k in kinds)], kind)
    form = (
        f'<form method="get"><label>{esc(t("web.log.kind", lang))} '
        f'<select name="kind">{choices}</select></label>'
        f'<label>{esc(t("web.log.search", lang))} <input name="q" value="{attr(needle)}"></label>'
        f'<button type="submit">{esc(t("web.log.filter", lang))}</button></form>'
    )
    count = t("web.log.count", lang, count=len(shown), total=len(entries))
    items = "".join(f"<li>{esc(line)}</li>" for line in shown)
    listed = f'<ul class="log">{items}</ul>' if shown else f"<p>{esc(t('web.log.empty', lang))}</p>"
    title = f"{campaign.name} – {t('web.campaign.log', lang)}"
    body = form + f'<p class="muted">{esc(count)}</p>' + listed
    return html_response(page(title, body, lang, user))


# ----------------------------------------------------------------------------- the sheet


def _derived(record: CharacterRecord, sheet: Sheet, lang: str) -> str:
    """The sheet's words as the bot shows them (``/charakter zeigen``'s embed), derived values
    included."""
    embed = sheet_embed(record, sheet, lang)
    parts = [
        f"<h3>{esc(field.name)}</h3><pre class='derived'>{esc(plain(field.value or ''))}</pre>"
        for field in embed.fields
    ]
    return "".join(parts)


async def _image(record: CharacterRecord, sheet: Sheet, lang: str) -> bytes:
    return await render_async(render_sheet, sheet_view(record, sheet, lang))


async def editor_page(
    request: web.Request,
    campaign: CampaignRecord,
    record: CharacterRecord,
    *,
    draft: dict[str, Any] | None = None,
    note: str = "",
    status: int = 200,
    preview: Sheet | None = None,
    invalid: object = None,
) -> web.Response:
    """The editor: the form (the draft as submitted after a mistake, else the stored sheet),
    the derived values and the image of the stored sheet (or of the preview)."""
    user = user_of(request)
    lang = user.lang
    stored = sheet_from_stored(record.sheet)
    shown = preview or stored
    data = draft if draft is not None else sheet_to_json(stored)
    if preview is not None:
        png = base64.b64encode(await _image(record, preview, lang)).decode()
        image = (
            f'<img class="sheet" alt="{attr(t("web.sheet.image", lang))}" '
            f'src="data:image/png;base64,{png}">'
        )
    else:
        image = (
            f'<img class="sheet" alt="{attr(t("web.sheet.image", lang))}" '
            f'src="/w6/s/{record.id}/sheet.png?r={record.revision}">'
        )
    form = (
        f'<form method="post" action="/w6/s/{record.id}" id="sheet" '
        f'data-derived="/w6/s/{record.id}/derived">{csrf_field(user)}'
        f'<input type="hidden" name="revision" value="{record.revision}">'
        f"{mark_invalid(form_fields(data, lang), invalid)}"
        f'<button type="submit" name="action" value="preview">'
        f"{esc(t('web.sheet.preview', lang))}</button> "
        f'<button type="submit" name="action" value="save" id="save">'
        f"{esc(t('web.sheet.save', lang))}</button>"
        "</form>"
    )
    json_tools = (
        f"<h2>{esc(t('web.sheet.json', lang))}</h2>"
        f'<p><a href="/w6/s/{record.id}/export" download>{esc(t("web.sheet.export", lang))}</a></p>'
        f'<form method="post" action="/w6/s/{record.id}/import">{csrf_field(user)}'
        f'<input type="hidden" name="revision" value="{record.revision}">'
        f'<label for="json">{esc(t("web.sheet.import", lang))}</label>'
        '<textarea id="json" name="json"></textarea>'
        f'<button type="submit">{esc(t("web.sheet.import_button", lang))}</button></form>'
    )
    side = (
        f"<h2>{esc(t('web.sheet.derived', lang))}</h2>"
        f'<div id="derived" aria-live="polite">{_derived(record, shown, lang)}</div>'
        f"<h2>{esc(t('web.sheet.image', lang))}</h2>{image}"
        '<script src="/static/sheet.js"></script>'
    )
    back = f'<p><a href="/w6/c/{campaign.id}">{esc(t("web.sheet.back", lang))}</a></p>'
    npc = f" ({t('web.sheet.npc', lang)})" if record.owner_id is None else ""
    body = back + note + f'<div class="cols"><div>{form}{json_tools}</div><div>{side}</div></div>'
    return html_response(page(f"{record.name}{npc}", body, lang, user), status)


def _error_note(error: EngineError, lang: str) -> str:
    return message(t(error.key, lang, **error.params), bad=True)


def _changed_fields(before: Sheet, after: Sheet) -> str:
    old, new = sheet_to_json(before), sheet_to_json(after)
    changed = [key for key in new if old.get(key) != new.get(key)]
    return ", ".join(changed)[:100] or "–"


async def _save(
    request: web.Request, campaign: CampaignRecord, record: CharacterRecord, sheet: Sheet,
    revision: str,
) -> CharacterRecord:  # fmt: skip
    """Save as the bot does; the form's revision guards against a change made meanwhile."""
    user = user_of(request)
    store = context(request).store
    if not revision.isdecimal() or len(revision) > 12:
        raise WebError(400, "web.error.bad_form")
    before = sheet_from_stored(record.sheet)
    saved = await Sheets(store).save(campaign, replace(record, revision=int(revision)), sheet)
    await store.add_log(
        campaign.id,
        user.user_id,
        "sheet",
        {"event": "edited", "name": sheet.name, "field": _changed_fields(before, sheet)},
    )
    return saved


async def sheet_post(request: web.Request) -> web.Response:
    campaign, record = await character_of(request)
    lang = user_of(request).lang
    form = await form_of(request)
    form["notizen"] = form.get("notizen", "").replace("\r\n", "\n")
    draft = form_to_json(form)
    try:
        sheet = sheet_from_json(draft)
        if form.get("action") == "preview":
            note = message(t("web.sheet.preview_note", lang))
            return await editor_page(
                request, campaign, record, draft=draft, note=note, preview=sheet
            )
        record = await _save(request, campaign, record, sheet, form.get("revision", ""))
    except StaleRevision:
        fresh = await context(request).store.get_character(record.id) or record
        note = message(t("web.error.changed_since", lang, name=fresh.name), bad=True)
        return await editor_page(request, campaign, fresh, note=note, status=409)
    except EngineError as error:
        note, invalid = _error_note(error, lang), error.params.get("field")
        return await editor_page(
            request, campaign, record, draft=draft, note=note, status=400, invalid=invalid
        )
    return redirect(f"/w6/s/{record.id}?saved=1")


async def sheet_derived(request: web.Request) -> web.Response:
    """The derived values of the form as it is now, nothing saved (the editor's script asks
    while the user types): an HTML fragment, or the engine's message for a mistake."""
    _campaign, record = await character_of(request)
    lang = user_of(request).lang
    form = await form_of(request)
    form["notizen"] = form.get("notizen", "").replace("\r\n", "\n")
    try:
        fragment = _derived(record, sheet_from_json(form_to_json(form)), lang)
    except EngineError as error:
        fragment = _error_note(error, lang)
    return html_response(fragment)


async def sheet_js(request: web.Request) -> web.Response:
    return web.Response(text=SHEET_JS, content_type="text/javascript", charset="utf-8")


async def sheet_import(request: web.Request) -> web.Response:
    campaign, record = await character_of(request)
    lang = user_of(request).lang
    form = await form_of(request)
    try:
        sheet = sheet_from_json(load_json(form.get("json", ""), max_bytes=MAX_SHEET_BYTES))
        record = await _save(request, campaign, record, sheet, form.get("revision", ""))
    except StaleRevision:
        fresh = await context(request).store.get_character(record.id) or record
        note = message(t("web.error.changed_since", lang, name=fresh.name), bad=True)
        return await editor_page(request, campaign, fresh, note=note, status=409)
    except EngineError as error:
        note = _error_note(error, lang)
        return await editor_page(request, campaign, record, note=note, status=400)
    return redirect(f"/w6/s/{record.id}?imported=1")


async def sheet_export(request: web.Request) -> web.Response:
    _campaign, record = await character_of(request)
    text = sheet_to_text(sheet_from_stored(record.sheet))
    name = "".join(ch for ch in record.name if ch.isalnum()) or "charakter"
    return web.Response(
        text=text,
        content_type="application/json",
        charset="utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name[:40]}.json"'},
    )


async def sheet_png(request: web.Request) -> web.Response:
    _campaign, record = await character_of(request)
    lang = user_of(request).lang
    data = await _image(record, sheet_from_stored(record.sheet), lang)
    return web.Response(body=data, content_type="image/png")


async def saved_note(request: web.Request) -> web.Response:
    """The editor after a save or import, saying so."""
    campaign, record = await character_of(request)
    lang = user_of(request).lang
    note = ""
    if "saved" in request.query:
        note = message(t("web.sheet.saved", lang))
    elif "imported" in request.query:
        note = message(t("web.sheet.imported", lang))
    return await editor_page(request, campaign, record, note=note)


def add_routes(app: web.Application) -> None:
    app.router.add_get("/", home)
    app.router.add_get("/w6/c/{campaign}", campaign_page)
    app.router.add_get("/w6/c/{campaign}/log", log_page)
    app.router.add_get("/w6/s/{sheet}", saved_note)
    app.router.add_post("/w6/s/{sheet}", sheet_post)
    app.router.add_post("/w6/s/{sheet}/import", sheet_import)
    app.router.add_post("/w6/s/{sheet}/derived", sheet_derived)
    app.router.add_get("/static/sheet.js", sheet_js)
    app.router.add_get("/w6/s/{sheet}/export", sheet_export)
    app.router.add_get("/w6/s/{sheet}/sheet.png", sheet_png)
