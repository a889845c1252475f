"""The web companion in Chromium: signed in through the link the fake Discord's ``/web`` gave,
against the real bot process's server and store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from bot.sandbox.fake_discord import FakeDiscord, stable_user_id
from bot.web.html import plain
from engines.telperinquar.decks import starter_text
from tests.cog.test_w6 import import_sheet, start_campaign, thoin_json
from tests.cog.test_web import web_link
from tests.games import stored_game
from tests.harness import embed_text, running_bot, settings_for


@pytest.fixture
async def web_bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Any]:
    settings = settings_for(fake, tmp_path / "browser.sqlite", web_port=0)
    async with running_bot(fake, settings) as client:
        await fake.wait_for_sync()
        yield client


async def sign_in(page: Any, fake: FakeDiscord, user: str, locale: str = "de") -> str:
    link = await web_link(fake, user, locale)
    await page.goto(link)
    await page.click("#signin")
    await page.wait_for_url(link.split("/login/")[0] + "/")
    return link.split("/login/")[0]


async def test_edit_a_sheet_field_and_see_it_in_charakter_zeigen(
    fake: FakeDiscord, web_bot: Any, page: Any
) -> None:
    await start_campaign(fake)
    await import_sheet(fake, "alice", thoin_json())
    await sign_in(page, fake, "alice")
    await page.click("text=Die Mine")
    await page.click("text=Thoin")
    await page.fill('input[name="rasse"]', "Hügelzwerg")
    await page.fill('input[name="lp"]', "21")
    await page.click("#save")
    await page.wait_for_selector(f"text={t('web.sheet.saved', 'de').split(' –')[0]}")
    assert await page.input_value('input[name="lp"]') == "21"
    shown = await (await fake.slash("charakter zeigen", user="alice")).message()
    assert "Hügelzwerg" in embed_text(shown) and "LP 21/30" in embed_text(shown)


async def test_a_bad_value_is_shown_at_its_field_in_english(
    fake: FakeDiscord, web_bot: Any, page: Any
) -> None:
    await start_campaign(fake)
    await import_sheet(fake, "alice", thoin_json())
    await sign_in(page, fake, "alice", locale="en-GB")
    await page.click("text=Die Mine")
    await page.click("text=Thoin")
    await page.fill('input[name="waffen.0.schaden"]', "lots")
    await page.click("#save")
    alert = await page.text_content("[role=alert]")
    assert alert is not None and "waffen.Axt.schaden" in alert and "lots" in alert
    focused = await page.evaluate("document.activeElement.name")
    assert focused == "waffen.0.schaden"  # the field named is marked and focused


async def test_a_player_is_refused_an_npc_page(fake: FakeDiscord, web_bot: Any, page: Any) -> None:
    await start_campaign(fake)
    await import_sheet(fake, "gm", {**thoin_json(), "name": "Grimbart"}, npc=True)
    gm_page = await page.context.browser.new_page()
    base = await sign_in(gm_page, fake, "gm")
    await gm_page.click("text=Die Mine")
    await gm_page.click("text=Grimbart")
    npc_url = gm_page.url
    await gm_page.close()
    assert npc_url.startswith(base + "/w6/s/")
    await sign_in(page, fake, "alice")
    response = await page.goto(npc_url)
    assert response is not None and response.status == 403
    assert await page.text_content("[role=alert]") == t("w6cog.error.npc_gm_only", "de")
    assert "Spaltwaffen" not in await page.content()


async def test_build_and_save_a_legal_deck_and_see_it_in_the_bot(
    fake: FakeDiscord, web_bot: Any, page: Any
) -> None:
    await sign_in(page, fake, "alice")
    await page.click(f"text={t('web.nav.decks', 'de')}")
    await page.fill('input[name="name"]', "Stahl")
    await page.click("#new-deck")
    verdict = await page.text_content("#verdict")
    assert verdict is not None and plain(t("tq.deck.no_hero", "de")) in verdict
    await page.fill("#list", starter_text("kaempfer"))
    await page.click("#import")
    await page.wait_for_selector("#verdict", state="detached")  # legal: no reasons left
    await page.click('table.deck button[aria-label="− Streitkolben"]')
    verdict = await page.text_content("#verdict")
    assert verdict is not None and "39" in verdict
    await page.select_option('select[name="type"]', "weapon")
    await page.fill('input[name="q"]', "kolben")
    await page.click(f"text={t('web.log.filter', 'de')}")
    await page.click('table.cards button[aria-label="+ Streitkolben"]')
    await page.wait_for_selector("#verdict", state="detached")
    size = await page.text_content("#size")
    assert size is not None and "40" in size
    listed = await (await fake.slash("telperinquar deck liste", {}, user="alice")).callback()
    assert "✅ **Stahl** · 40" in embed_text(listed)


async def test_step_through_a_replay(fake: FakeDiscord, web_bot: Any, page: Any) -> None:
    channel = fake.channel()
    players = [stable_user_id("alice"), stable_user_id("bob")]
    game = await stored_game(
        web_bot.store, players=players, guild_id=channel.guild_id, channel_id=channel.id, steps=5
    )
    log = await web_bot.store.game_actions(game.id)
    await sign_in(page, fake, "carol")
    await page.click(f"text={t('web.nav.games', 'de')}")
    await page.click(f"a[href='/games/{game.id}']")
    await page.click("#first")
    assert await page.text_content("#action") == t("web.games.start", "de")
    for step, (seat, text) in enumerate(log[:3], start=1):
        await page.keyboard.press("ArrowRight")  # the page's little script: → is "next"
        await page.wait_for_url(f"**/games/{game.id}?step={step}")
        assert await page.text_content("#action") == f"Spieler {seat + 1}: {text}"
        loaded = await page.eval_on_selector("img.board", "img => img.complete && img.naturalWidth")
        assert loaded
    await page.click("#prev")
    await page.wait_for_url(f"**/games/{game.id}?step=2")


async def test_derived_values_follow_typing(fake: FakeDiscord, web_bot: Any, page: Any) -> None:
    await start_campaign(fake)
    await import_sheet(fake, "alice", thoin_json())
    await sign_in(page, fake, "alice")
    await page.click("text=Die Mine")
    await page.click("text=Thoin")
    await page.fill('input[name="ruestung.0.name"]', "Brust")
    await page.select_option('select[name="ruestung.0.zone"]', "Torso")
    await page.fill('input[name="ruestung.0.rs"]', "3")
    await page.wait_for_selector("#derived >> text=Brust (Torso, RS 3, BE 0)")
    shown = await (await fake.slash("charakter zeigen", user="alice")).message()
    assert "Brust" not in embed_text(shown)  # typing saves nothing
