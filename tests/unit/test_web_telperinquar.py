"""The web companion's Telperinquár pages over HTTP: the card browser's filters, the deck
builder on the bot's own decks (counts, the rules' verdict with its reasons, curve, text lists)
and the server card file check; CSRF and hostile input on every form."""

from __future__ import annotations

import re
from urllib.parse import quote

from bot.i18n import t
from bot.narration import telperinquar as tq
from bot.web.html import esc, plain
from engines.telperinquar.decks import starter_text
from tests.cog.test_telperinquar import OWN_CARD
from tests.unit.test_web import ALICE, BOB, HOSTILE, Env, csrf_of, env

__all__ = ["env"]  # the fixture, shared with test_web


def deck_url(name: str) -> str:
    return f"/tq/deck?name={quote(name, safe='')}"


async def test_the_card_browser_filters_by_class_type_attribute_cost_and_text(env: Env) -> None:
    alice = await env.signed_in(ALICE, lang="en")
    everything = await (await alice.get("/tq/cards")).text()
    assert "Dagger" in everything and "Long Sword" in everything
    weapons = await (await alice.get("/tq/cards?type=weapon")).text()
    assert "Dagger" in weapons and t("tqcog.kind.spell", "en") not in weapons.split("</select>")[-1]
    reflexes = await (await alice.get("/tq/cards?attr=reflexe&cost=1&type=weapon")).text()
    assert "Dagger" in reflexes and "Long Sword" not in reflexes
    searched = await (await alice.get("/tq/cards?q=dolch")).text()  # German name, English page
    assert "Dagger" in searched
    assert 'href="/tq/card.png?name=Dolch"' in weapons
    image = await alice.get("/tq/card.png?name=Dolch")
    assert (await image.read()).startswith(b"\x89PNG")
    assert (await alice.get("/tq/card.png?name=%3Cscript%3E")).status == 404
    nothing = await (await alice.get("/tq/cards?cost=99")).text()
    assert esc(t("web.tq.count", "en", count=0)) in nothing


async def test_a_deck_is_built_checked_and_saved_where_the_bot_reads_it(env: Env) -> None:
    alice = await env.signed_in(ALICE)
    page = await (await alice.get("/tq/decks")).text()
    csrf = csrf_of(page)
    made = await alice.post("/tq/decks", data={"csrf": csrf, "name": "Stahl"})
    text = await made.text()
    assert made.status == 200 and esc(plain(t("tq.deck.no_hero", "de"))) in text
    imported = await alice.post(
        "/tq/deck/import",
        data={"csrf": csrf, "name": "Stahl", "list": starter_text("kaempfer")},
    )
    text = await imported.text()
    record = await env.store.get_deck(ALICE, "Stahl")
    assert record is not None and tq.deck_is_legal(record)
    classes = tq.class_name("kaempfer", "de")
    assert esc(plain(t("tq.deck.legal", "de", classes=classes))) in text
    summary = re.search(r'<p class="muted" id="classes">([^<]*)</p>', text)
    assert summary and f"{classes} " in summary.group(1)
    card = record.cards[-1][0]
    removed = await alice.post(
        "/tq/deck/card", data={"csrf": csrf, "name": "Stahl", "card": card, "delta": "-1"}
    )
    size = record.size - 1
    assert esc(plain(t("tq.deck.too_few", "de", count=size, min=40))) in await removed.text()
    await alice.post(
        "/tq/deck/card", data={"csrf": csrf, "name": "Stahl", "card": card, "delta": "1"}
    )
    again = await env.store.get_deck(ALICE, "Stahl")
    assert again is not None and dict(again.cards) == dict(record.cards)
    three = await alice.post(
        "/tq/deck/card", data={"csrf": csrf, "name": "Stahl", "card": "Dolch", "delta": "3"}
    )
    assert "3×" in await three.text()
    await alice.post(
        "/tq/deck/card", data={"csrf": csrf, "name": "Stahl", "card": "Dolch", "delta": "-3"}
    )
    exported = await alice.get("/tq/deck/export?name=Stahl")
    assert await exported.text() == tq.deck_text(record)
    image = await alice.get("/tq/deck/image?name=Stahl")
    assert (await image.read()).startswith(b"\x89PNG")
    listing = await (await alice.get("/tq/decks")).text()
    assert "Stahl" in listing and "✅" in listing


async def test_another_users_decks_are_not_there_for_them(env: Env) -> None:
    await env.store.create_deck(ALICE, "Geheim", (("Dolch", 2),))
    bob = await env.signed_in(BOB)
    assert "Geheim" not in await (await bob.get("/tq/decks")).text()
    assert (await bob.get(deck_url("Geheim"))).status == 404
    assert (await bob.get("/tq/deck/export?name=Geheim")).status == 404
    csrf = csrf_of(await (await bob.get("/tq/decks")).text())
    changed = await bob.post(
        "/tq/deck/card", data={"csrf": csrf, "name": "Geheim", "card": "Dolch", "delta": "2"}
    )
    assert changed.status == 400
    deck = await env.store.get_deck(ALICE, "Geheim")
    assert deck is not None and deck.cards == (("Dolch", 2),)


async def test_every_deck_form_needs_the_csrf_token(env: Env) -> None:
    await env.store.create_deck(ALICE, "Stahl")
    alice = await env.signed_in(ALICE)
    for path, data in (
        ("/tq/decks", {"name": "Neu"}),
        ("/tq/deck/card", {"name": "Stahl", "card": "Dolch", "delta": "1"}),
        ("/tq/deck/import", {"name": "Stahl", "list": "4 Dolch"}),
        ("/tq/cardfile", {"text": OWN_CARD}),
    ):
        assert (await alice.post(path, data=data)).status == 403, path
    assert [d.name for d in await env.store.decks(ALICE)] == ["Stahl"]
    deck = await env.store.get_deck(ALICE, "Stahl")
    assert deck is not None and deck.cards == ()


async def test_hostile_input_on_every_deck_form(env: Env) -> None:
    await env.store.create_deck(ALICE, "Stahl")
    alice = await env.signed_in(ALICE)
    csrf = csrf_of(await (await alice.get("/tq/decks")).text())
    for value in HOSTILE:
        made = await alice.post("/tq/decks", data={"csrf": csrf, "name": value})
        assert made.status in (200, 400), value
        assert "<script>alert" not in await made.text()
        for field, data in (
            ("card", {"name": "Stahl", "card": value, "delta": "1"}),
            ("delta", {"name": "Stahl", "card": "Dolch", "delta": value}),
            ("name", {"name": value, "card": "Dolch", "delta": "1"}),
        ):
            response = await alice.post("/tq/deck/card", data={"csrf": csrf, **data})
            assert response.status in (200, 400, 404), (field, value)
            assert "<script>alert" not in await response.text()
        listed = await alice.post(
            "/tq/deck/import", data={"csrf": csrf, "name": "Stahl", "list": value}
        )
        assert listed.status in (200, 400, 413), value
        checked = await alice.post("/tq/cardfile", data={"csrf": csrf, "text": value})
        assert checked.status in (200, 413) and "<script>alert" not in await checked.text()
        for query in (f"?q={quote(value)}", f"?cost={quote(value)}", f"?cls={quote(value)}"):
            assert (await alice.get("/tq/cards" + query)).status == 200
    huge = await alice.post(
        "/tq/deck/import", data={"csrf": csrf, "name": "Stahl", "list": "1 Dolch\n" * 20_000}
    )
    assert huge.status == 413
    deck = await env.store.get_deck(ALICE, "Stahl")
    assert deck is not None and all(count <= 99 for _, count in deck.cards)


async def test_a_card_file_is_checked_with_its_mistakes_before_upload(env: Env) -> None:
    alice = await env.signed_in(ALICE, lang="en")
    csrf = csrf_of(await (await alice.get("/tq/cardfile")).text())
    good = await alice.post("/tq/cardfile", data={"csrf": csrf, "text": OWN_CARD})
    assert esc(t("web.tq.file_ok", "en", count=1)) in await good.text()
    broken = OWN_CARD.replace('type = "weapon"', 'type = "kanone"')
    bad = await alice.post("/tq/cardfile", data={"csrf": csrf, "text": broken})
    _cards, mistakes = tq.check_card_file(broken, "en")
    text = await bad.text()
    assert mistakes and all(esc(plain(m)) in text for m in mistakes)
    await env.store.put_content(1, tq.CARDS_KIND, OWN_CARD, ALICE)
    shown = await (await alice.get("/tq/cardfile")).text()
    assert "Glass Dagger" in shown
    assert "Glass Dagger" in await (await alice.get("/tq/cards?q=glass")).text()


async def test_a_deck_is_renamed_copied_and_deleted_only_when_sure(env: Env) -> None:
    await env.store.create_deck(ALICE, "Stahl", (("Dolch", 2),))
    await env.store.create_deck(ALICE, "Eisen")
    alice = await env.signed_in(ALICE)
    csrf = csrf_of(await (await alice.get("/tq/decks")).text())
    renamed = await alice.post(
        "/tq/deck/rename", data={"csrf": csrf, "name": "Stahl", "new": "Erz"}
    )
    assert renamed.status == 200 and renamed.url.query.get("name") == "Erz"
    copied = await alice.post(
        "/tq/deck/rename", data={"csrf": csrf, "name": "Erz", "new": "Erz 2", "copy": "1"}
    )
    assert copied.status == 200
    taken = await alice.post("/tq/deck/rename", data={"csrf": csrf, "name": "Erz", "new": "Eisen"})
    assert taken.status == 400
    assert esc(plain(t("tq.deck.exists", "de", name="Eisen"))) in await taken.text()
    for value in HOSTILE:
        odd = await alice.post("/tq/deck/rename", data={"csrf": csrf, "name": "Erz", "new": value})
        assert odd.status in (200, 400, 404) and "<script>alert" not in await odd.text()
    names = {d.name for d in await env.store.decks(ALICE)}
    assert {"Eisen", "Erz 2"} <= names
    kept = await alice.post("/tq/deck/delete", data={"csrf": csrf, "name": "Eisen"})
    assert kept.status == 400 and await env.store.get_deck(ALICE, "Eisen") is not None
    gone = await alice.post("/tq/deck/delete", data={"csrf": csrf, "name": "Eisen", "sure": "on"})
    assert gone.status == 200 and await env.store.get_deck(ALICE, "Eisen") is None
    copy = await env.store.get_deck(ALICE, "Erz 2")
    assert copy is not None and copy.cards == (("Dolch", 2),)
