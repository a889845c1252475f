"""The web companion over HTTP (aiohttp's test client against the real application on a real
store): signing in with a one-time link, sessions, CSRF, permissions, the sheet editor and
hostile input on every form."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from bot.i18n import t
from bot.settings import Settings, SettingsError
from bot.sheets import Sheets
from bot.store import SqliteStore
from bot.store.base import CampaignRecord, CharacterRecord
from bot.web.auth import LINK_MINUTES, SESSION_HOURS, WebAuth
from bot.web.html import esc, plain
from bot.web.server import COOKIE, WebContext, create_app
from engines.w6.sheet_io import sheet_from_json, sheet_from_stored

GUILD, OTHER_GUILD = 1, 2
GM, ALICE, BOB = 100, 200, 300


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def thoin(name: str = "Thoin") -> dict[str, Any]:
    return {
        "schema": "w6.sheet",
        "version": 1,
        "name": name,
        "rasse": "Zwerg",
        "pm": {"K": 4, "G": 3, "M": 3, "B": 3},
        "eigenschaften": {"Kraft": 5},
        "fertigkeiten": {"Spaltwaffen": 2},
        "lp": 30,
        "lp_max": 30,
        "kw": 12,
        "handlungen": [4, 6, 9],
        "waffen": [{"name": "Axt", "fertigkeit": "Spaltwaffen", "schaden": "1-2", "zusatz": "K"}],
        "ruestung": [{"name": "Helm", "zone": "Kopf", "rs": 2, "be": 1}],
        "notizen": "Zeile 1\nZeile 2",
    }


@dataclass
class Env:
    store: SqliteStore
    clock: Clock
    ctx: WebContext
    server: TestServer
    campaign: CampaignRecord
    alice_sheet: CharacterRecord
    npc: CharacterRecord
    clients: list[TestClient]

    async def client(self) -> TestClient:
        client = TestClient(self.server)
        await client.start_server()
        self.clients.append(client)
        return client

    async def link(self, user: int, guild: int = GUILD, lang: str = "de") -> str:
        return await self.ctx.auth.new_link(user, guild, lang=lang, name=f"user{user}")

    async def signed_in(self, user: int, guild: int = GUILD, lang: str = "de") -> TestClient:
        client = await self.client()
        response = await sign_in(client, await self.link(user, guild, lang))
        assert response.status == 200, await response.text()
        return client


async def sign_in(client: TestClient, token: str) -> ClientResponse:
    return await client.post("/login", data={"token": token})


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf" value="([^"]+)"', html)
    assert match, "no CSRF field on the page"
    return match.group(1)


def form_of(html: str, action: str) -> dict[str, str]:
    """The fields of the form posting to ``action`` as the browser would send them."""
    start = html.index(f'action="{action}"')
    end = html.index("</form>", start)
    part = html[start:end]
    fields: dict[str, str] = {}
    for tag in re.findall(r"<input [^>]*>", part):
        name = re.search(r'name="([^"]+)"', tag)
        if name is None:
            continue
        value = re.search(r'value="([^"]*)"', tag)
        if 'type="checkbox"' in tag:
            if " checked" in tag:
                fields[name.group(1)] = "on"
            continue
        fields[name.group(1)] = _unescape(value.group(1)) if value else ""
    textareas = r'<textarea [^>]*name="([^"]+)"[^>]*>(.*?)</textarea>'
    for name, body in re.findall(textareas, part, re.S):
        fields[name] = _unescape(body.removeprefix("\n"))
    for name, body in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', part, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected>', body)
        fields[name] = _unescape(chosen.group(1)) if chosen else ""
    return fields


def _unescape(text: str) -> str:
    import html

    return html.unescape(text)


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    store = SqliteStore(tmp_path / "web.sqlite")
    await store.open()
    clock = Clock()
    ctx = WebContext(store, Settings(web_port=0), WebAuth(store, clock))
    campaign = await store.create_campaign(
        guild_id=GUILD, channel_id=10, name="Die Mine", gm_id=GM, settings={}
    )
    sheets = Sheets(store)
    alice_sheet = await sheets.create(campaign, sheet_from_json(thoin()), ALICE, ALICE)
    npc = await sheets.create(campaign, sheet_from_json(thoin("Grimbart")), None, GM)
    server = TestServer(create_app(ctx))
    await server.start_server()
    environment = Env(store, clock, ctx, server, campaign, alice_sheet, npc, [])
    try:
        yield environment
    finally:
        for client in environment.clients:
            await client.close()
        await server.close()
        await store.close()


async def test_a_link_signs_in_once_with_a_safe_cookie(env: Env) -> None:
    client = await env.client()
    token = await env.link(ALICE)
    shown = await client.get(f"/login/{token}")  # a link preview fetching it uses nothing up
    assert shown.status == 200 and 'action="/login"' in await shown.text()
    response = await client.post("/login", data={"token": token}, allow_redirects=False)
    assert response.status == 303 and response.headers["Location"] == "/"
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    assert f"Max-Age={SESSION_HOURS * 3600}" in cookie
    home = await client.get("/")
    text = await home.text()
    assert home.status == 200 and "Die Mine" in text
    assert home.headers["Referrer-Policy"] == "same-origin"
    assert "frame-ancestors 'none'" in home.headers["Content-Security-Policy"]
    again = await (await env.client()).post("/login", data={"token": token})
    assert again.status == 403
    assert esc(plain(t("web.error.link_invalid", "de"))) in await again.text()


async def test_the_cookie_is_secure_behind_https(env: Env, tmp_path: Path) -> None:
    ctx = WebContext(env.store, Settings(web_port=0, web_url="https://x.example"), env.ctx.auth)
    async with TestClient(TestServer(create_app(ctx))) as client:
        response = await sign_in(client, await env.link(ALICE))
        assert "Secure" in response.history[0].headers["Set-Cookie"]


async def test_an_expired_link_and_an_expired_session_are_refused(env: Env) -> None:
    client = await env.client()
    token = await env.link(ALICE)
    env.clock.now += LINK_MINUTES * 60 + 1
    assert (await sign_in(client, token)).status == 403
    signed = await env.signed_in(ALICE)
    assert (await signed.get("/")).status == 200
    env.clock.now += SESSION_HOURS * 3600 + 1
    expired = await signed.get("/")
    assert expired.status == 401
    assert esc(t("web.error.signed_out", "de")) in await expired.text()


async def test_malformed_and_unknown_links_change_nothing(env: Env) -> None:
    client = await env.client()
    for token in ("", "x", "a" * 500, "../../etc", "<script>", "A" * 43):
        response = await client.post("/login", data={"token": token})
        assert response.status == 403, token
    assert (await client.get("/login/%3Cscript%3E")).status == 400
    assert (await client.get("/")).status == 401


async def test_a_link_from_another_server_sees_nothing_of_this_one(env: Env) -> None:
    elsewhere = await env.signed_in(ALICE, OTHER_GUILD)
    home = await (await elsewhere.get("/")).text()
    assert "Die Mine" not in home
    assert esc(t("web.home.no_campaigns", "de")) in home
    for path in (
        f"/w6/c/{env.campaign.id}",
        f"/w6/s/{env.alice_sheet.id}",
        f"/w6/s/{env.alice_sheet.id}/export",
        f"/w6/s/{env.alice_sheet.id}/sheet.png",
    ):
        response = await elsewhere.get(path)
        assert response.status == 404, path


async def test_a_forged_or_another_users_cookie_opens_nothing_of_theirs(env: Env) -> None:
    bob = await env.signed_in(BOB)
    refused = await bob.get(f"/w6/s/{env.alice_sheet.id}")
    assert refused.status == 403
    assert esc(t("w6cog.error.not_your_sheet", "de")) in await refused.text()
    forged = await env.client()
    forged.session.cookie_jar.update_cookies({COOKIE: "A" * 43})
    assert (await forged.get("/")).status == 401
    assert (await forged.get(f"/w6/s/{env.alice_sheet.id}")).status == 401


async def test_a_player_is_refused_the_npc_page_the_gm_is_not(env: Env) -> None:
    alice = await env.signed_in(ALICE)
    campaign = await (await alice.get(f"/w6/c/{env.campaign.id}")).text()
    assert "Thoin" in campaign and "Grimbart" not in campaign
    for path in (f"/w6/s/{env.npc.id}", f"/w6/s/{env.npc.id}/export"):
        refused = await alice.get(path)
        assert refused.status == 403
        text = await refused.text()
        assert esc(t("w6cog.error.npc_gm_only", "de")) in text and "Spaltwaffen" not in text
    assert (await alice.get(f"/w6/c/{env.campaign.id}/log")).status == 403
    gm = await env.signed_in(GM, lang="en")
    page = await gm.get(f"/w6/s/{env.npc.id}")
    assert page.status == 200 and "Grimbart" in await page.text()
    assert "Grimbart" in await (await gm.get(f"/w6/c/{env.campaign.id}")).text()


async def test_the_sheet_editor_names_its_fields_in_the_readers_language(env: Env) -> None:
    """An English reader sees English field names (not the sheet's German JSON keys), a
    German reader German ones; the form's field names stay what the importer reads."""
    for lang, shown, hidden in (("en", "HP max.", "LP max."), ("de", "LP max.", "HP max.")):
        client = await env.signed_in(ALICE, lang=lang)
        page = await (await client.get(f"/w6/s/{env.alice_sheet.id}")).text()
        for key in ("lp_max", "kw", "rasse", "schaden", "stabilitaet"):
            assert f"{esc(t(f'web.field.{key}', lang))} <input" in page or (
                f"<th>{esc(t(f'web.field.{key}', lang))}</th>" in page
            ), (lang, key)
        assert shown in page and hidden not in page
        assert form_of(page, f"/w6/s/{env.alice_sheet.id}")["lp_max"]


async def test_saving_a_field_writes_the_bots_sheet_and_the_log(env: Env) -> None:
    alice = await env.signed_in(ALICE)
    page = await (await alice.get(f"/w6/s/{env.alice_sheet.id}")).text()
    form = form_of(page, f"/w6/s/{env.alice_sheet.id}")
    assert form["waffen.0.name"] == "Axt" and form["ruestung.0.zone"] == "Kopf"
    assert form["notizen"] == "Zeile 1\nZeile 2"
    form.update({"lp": "17", "eigenschaften.1.name": "Geschick", "eigenschaften.1.value": "4"})
    form["notizen"] = "Zeile 1\r\nZeile 2"  # as a browser sends a textarea
    saved = await alice.post(f"/w6/s/{env.alice_sheet.id}", data={**form, "action": "save"})
    assert saved.status == 200 and esc(plain(t("web.sheet.saved", "de"))) in await saved.text()
    record = await env.store.get_character(env.alice_sheet.id)
    assert record is not None
    sheet = sheet_from_stored(record.sheet)
    assert sheet.lp == 17 and dict(sheet.eigenschaften) == {"Kraft": 5, "Geschick": 4}
    assert sheet.notizen == "Zeile 1\nZeile 2" and sheet.waffen[0].name == "Axt"
    assert sheet.ruestung[0].zone == "Kopf"
    log = await env.store.campaign_log(env.campaign.id)
    assert log[-1]["data"] == {"event": "edited", "name": "Thoin", "field": "eigenschaften, lp"}


async def test_a_bad_value_names_its_field_and_changes_nothing(env: Env) -> None:
    alice = await env.signed_in(ALICE, lang="en")
    page = await (await alice.get(f"/w6/s/{env.alice_sheet.id}")).text()
    form = form_of(page, f"/w6/s/{env.alice_sheet.id}")
    form["waffen.0.schaden"] = "viel"
    response = await alice.post(f"/w6/s/{env.alice_sheet.id}", data={**form, "action": "save"})
    assert response.status == 400
    text = await response.text()
    expected = t("w6.sheet.bad_ratio", "en", field="waffen.Axt.schaden", value="viel")
    assert esc(plain(expected)) in text
    assert 'value="viel"' in text  # the form keeps what was typed
    marked = re.findall(r"<input [^>]*aria-invalid[^>]*>", text)
    assert len(marked) == 1 and 'name="waffen.0.schaden"' in marked[0]
    record = await env.store.get_character(env.alice_sheet.id)
    assert record is not None and record.revision == env.alice_sheet.revision


async def test_a_change_made_meanwhile_in_discord_is_not_overwritten(env: Env) -> None:
    alice = await env.signed_in(ALICE)
    page = await (await alice.get(f"/w6/s/{env.alice_sheet.id}")).text()
    form = form_of(page, f"/w6/s/{env.alice_sheet.id}")
    data = thoin()
    data["lp"] = 5
    await env.store.update_character(
        env.alice_sheet.id, expected_revision=env.alice_sheet.revision, name="Thoin", sheet=data
    )
    form["lp"] = "20"
    response = await alice.post(f"/w6/s/{env.alice_sheet.id}", data={**form, "action": "save"})
    assert response.status == 409
    record = await env.store.get_character(env.alice_sheet.id)
    assert record is not None and record.sheet["lp"] == 5


async def test_preview_shows_derived_values_and_saves_nothing(env: Env) -> None:
    alice = await env.signed_in(ALICE)
    page = await (await alice.get(f"/w6/s/{env.alice_sheet.id}")).text()
    assert f'src="/w6/s/{env.alice_sheet.id}/sheet.png' in page
    form = form_of(page, f"/w6/s/{env.alice_sheet.id}")
    form["ruestung.1.name"], form["ruestung.1.zone"], form["ruestung.1.rs"] = "Brust", "Torso", "3"
    preview = await alice.post(f"/w6/s/{env.alice_sheet.id}", data={**form, "action": "preview"})
    text = await preview.text()
    assert preview.status == 200 and "data:image/png;base64," in text
    assert "Brust (Torso, RS 3, BE 0)" in text
    record = await env.store.get_character(env.alice_sheet.id)
    assert record is not None and len(record.sheet["ruestung"]) == 1
    image = await alice.get(f"/w6/s/{env.alice_sheet.id}/sheet.png")
    assert image.content_type == "image/png" and (await image.read()).startswith(b"\x89PNG")


async def test_json_export_and_import_round_trip(env: Env) -> None:
    alice = await env.signed_in(ALICE)
    exported = await alice.get(f"/w6/s/{env.alice_sheet.id}/export")
    assert "attachment" in exported.headers["Content-Disposition"]
    data = json.loads(await exported.text())
    assert data["name"] == "Thoin"
    page = await (await alice.get(f"/w6/s/{env.alice_sheet.id}")).text()
    data["kw"] = 14
    imported = await alice.post(
        f"/w6/s/{env.alice_sheet.id}/import",
        data={
            "csrf": csrf_of(page),
            "revision": str(env.alice_sheet.revision),
            "json": json.dumps(data),
        },
    )
    assert imported.status == 200
    record = await env.store.get_character(env.alice_sheet.id)
    assert record is not None and record.sheet["kw"] == 14
    broken = await alice.post(
        f"/w6/s/{env.alice_sheet.id}/import",
        data={"csrf": csrf_of(page), "revision": str(record.revision), "json": '{"name": '},
    )
    assert broken.status == 400


async def test_every_post_needs_this_sessions_csrf_token(env: Env) -> None:
    alice = await env.signed_in(ALICE)
    bob = await env.signed_in(BOB)
    bob_page = await (await bob.get("/")).text()
    page = await (await alice.get(f"/w6/s/{env.alice_sheet.id}")).text()
    form = form_of(page, f"/w6/s/{env.alice_sheet.id}")
    form["lp"] = "1"
    for token in (None, "", "falsch", csrf_of(bob_page)):
        data = {**form, "action": "save"}
        if token is None:
            del data["csrf"]
        else:
            data["csrf"] = token
        response = await alice.post(f"/w6/s/{env.alice_sheet.id}", data=data)
        assert response.status == 403, token
        assert esc(t("web.error.csrf", "de")) in await response.text()
    assert (await alice.post("/logout", data={})).status == 403
    record = await env.store.get_character(env.alice_sheet.id)
    assert record is not None and record.sheet["lp"] == 30


async def test_signing_out_ends_the_session(env: Env) -> None:
    alice = await env.signed_in(ALICE)
    page = await (await alice.get("/")).text()
    out = await alice.post("/logout", data={"csrf": csrf_of(page)})
    assert out.status == 200
    assert (await alice.get("/")).status == 401


HOSTILE = [
    "",
    " ",
    "-",
    "x" * 5000,
    "\x00",
    "\u202e\u200b",
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "-99999999999999999999",
    "1e9",
    "１２",
    "{{name}}",
    "%s%n",
    "Axt",
]


async def test_hostile_input_in_every_field_is_refused_or_kept_cleanly(env: Env) -> None:
    gm = await env.signed_in(GM)
    path = f"/w6/s/{env.npc.id}"
    page = await (await gm.get(path)).text()
    form = form_of(page, path)
    names = [name for name in form if name not in ("csrf", "revision")]
    assert len(names) > 60  # every field of the sheet is on the form
    for index, name in enumerate(names):
        value = HOSTILE[index % len(HOSTILE)]
        current = await env.store.get_character(env.npc.id)
        assert current is not None
        data = {**form, name: value, "revision": str(current.revision), "action": "save"}
        response = await gm.post(path, data=data)
        text = await response.text()
        assert response.status in (200, 400), (name, value, response.status)
        assert "<script>alert" not in text and "<img src=x" not in text
        after = await env.store.get_character(env.npc.id)
        assert after is not None
        sheet_from_stored(after.sheet)  # whatever was saved still loads
        derived = await gm.post(f"{path}/derived", data=data)
        assert derived.status == 200 and "<script>alert" not in await derived.text()
    for extra in (
        {"waffen.999.name": "x"},
        {"pm.5.name": "Z" * 70, "pm.5.value": "1"},
        {"eigenschaften.0.value": "\x00"},
        {"fix.schwelle": "<b>"},
        {"unbekannt": "1"},
    ):
        current = await env.store.get_character(env.npc.id)
        assert current is not None
        data = {**form, **extra, "revision": str(current.revision), "action": "save"}
        assert (await gm.post(path, data=data)).status in (200, 400)
    csrf = csrf_of(page)
    for body in ("[]", "null", '{"schema": "w6.sheet"}', "\x00", "{" * 5000, "x" * 300_000):
        response = await gm.post(
            f"{path}/import", data={"csrf": csrf, "revision": "0", "json": body}
        )
        assert response.status in (400, 409, 413), body[:20]
    for query in ("?kind=<script>", "?q=" + "%00" * 50, "?kind=sheet&q=x" * 3):
        response = await gm.get(f"/w6/c/{env.campaign.id}/log{query}")
        assert response.status == 200 and "<script>" not in await response.text()
    for bad in (
        "/w6/s/abc",
        "/w6/s/99999999999999999999999",
        "/w6/s/" + "9" * 19,  # past 64 bits
        "/w6/c/" + "9" * 19 + "/log",
        "/w6/c/-1",
        "/nirgends",
    ):
        assert (await gm.get(bad)).status == 404, bad
    assert (await gm.put(path, data=form)).status == 405


async def test_the_gm_filters_the_campaign_log(env: Env) -> None:
    data = {"name": "Thoin", "amount": 3, "lp": 27, "lp_max": 30}
    await env.store.add_log(env.campaign.id, GM, "damage", data)
    gm = await env.signed_in(GM)
    everything = await (await gm.get(f"/w6/c/{env.campaign.id}/log")).text()
    assert "Thoin" in everything and "Grimbart" in everything
    only_damage = await (await gm.get(f"/w6/c/{env.campaign.id}/log?kind=damage")).text()
    assert "Grimbart" not in only_damage and "Thoin" in only_damage
    assert "&lt;@" not in everything  # no raw mentions: names the page knows
    assert "@user100" in everything  # the GM's own sign-in name
    await env.store.add_log(env.campaign.id, ALICE, "damage", data)
    played = await (await gm.get(f"/w6/c/{env.campaign.id}/log?kind=damage")).text()
    assert "@Thoin" in played
    searched = await (await gm.get(f"/w6/c/{env.campaign.id}/log?q=grimbart")).text()
    assert "Grimbart" in searched and esc(t("web.log.count", "de", count=1, total=4)) in searched


def test_the_web_settings_and_their_mistakes() -> None:
    off = Settings.load(env={}, dotenv=None)
    assert off.web_port is None and off.web_host == "127.0.0.1"
    on = Settings.load(
        env={"SPIELLEITER_WEB_PORT": "8080", "SPIELLEITER_WEB_URL": "https://sl.example/"},
        dotenv=None,
    )
    assert (on.web_port, on.web_url, on.web_base) == (8080, "https://sl.example", on.web_url)
    local = Settings.load(env={"SPIELLEITER_WEB_PORT": "8080"}, dotenv=None)
    assert local.web_base == "http://127.0.0.1:8080"
    for env in (
        {"SPIELLEITER_WEB_PORT": "achtzig"},
        {"SPIELLEITER_WEB_PORT": "70000"},
        {"SPIELLEITER_WEB_URL": "ftp://x"},
    ):
        with pytest.raises(SettingsError, match=next(iter(env))):
            Settings.load(env=env, dotenv=None)


async def test_derived_values_follow_the_form_without_saving(env: Env) -> None:
    alice = await env.signed_in(ALICE)
    path = f"/w6/s/{env.alice_sheet.id}"
    form = form_of(await (await alice.get(path)).text(), path)
    form.update({"ruestung.1.name": "Brust", "ruestung.1.zone": "Torso", "ruestung.1.rs": "3"})
    derived = await alice.post(f"{path}/derived", data=form)
    assert derived.status == 200 and "Brust (Torso, RS 3, BE 0)" in await derived.text()
    form["kw"] = "viel"
    wrong = await (await alice.post(f"{path}/derived", data=form)).text()
    assert 'role="alert"' in wrong and "kw" in wrong
    assert (await alice.post(f"{path}/derived", data={**form, "csrf": "x"})).status == 403
    record = await env.store.get_character(env.alice_sheet.id)
    assert record is not None and record.revision == env.alice_sheet.revision


async def test_a_form_posted_from_another_site_is_refused(env: Env) -> None:
    client = await env.client()
    token = await env.link(ALICE)
    evil = {"Origin": "https://evil.example"}
    for origin in ("https://evil.example", "null", f"http://{env.server.host}:1"):
        refused = await client.post("/login", data={"token": token}, headers={"Origin": origin})
        assert refused.status == 403, origin
    own = {"Origin": f"http://{env.server.host}:{env.server.port}"}
    signed = await client.post("/login", data={"token": token}, headers=own)
    assert signed.status == 200  # the link was not used up by the refused post
    page = await (await client.get("/")).text()
    refused = await client.post("/logout", data={"csrf": csrf_of(page)}, headers=evil)
    assert refused.status == 403 and (await client.get("/")).status == 200


def test_the_field_an_error_names_is_marked_once() -> None:
    from bot.web.sheet_form import form_fields, mark_invalid

    fields = form_fields(thoin(), "de")
    for path, name in (
        ("lp", 'name="lp"'),
        ("pm.K", 'name="pm.'),
        ("eigenschaften.Kraft", 'name="eigenschaften.'),
        ("ruestung.Helm.zone", 'name="ruestung.0.zone"'),
        ("notizen", 'name="notizen"'),
    ):
        marked = mark_invalid(fields, path)
        tags = re.findall(r"<(?:input|select|textarea) [^>]*aria-invalid[^>]*>", marked)
        assert len(tags) == 1 and name in tags[0], path
    assert mark_invalid(fields, "gibt.es.nicht") == fields
    assert mark_invalid(fields, None) == fields


async def test_an_unexpected_error_is_a_page_with_a_code_and_a_logged_traceback(
    env: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    alice = await env.signed_in(ALICE, lang="en")

    async def broken(campaign_id: int) -> list[CharacterRecord]:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(env.store, "characters", broken)
    response = await alice.get("/")
    text = await response.text()
    found = re.search(r"code ([0-9a-f]{6})", text)
    assert response.status == 500 and found and "disk on fire" not in text
    assert f"unexpected error {found.group(1)}" in caplog.text and "disk on fire" in caplog.text
