"""The companion's content pages over HTTP: the Felsenfeuer spellbook (colour, pips, search in
both languages, a server's own spells) and a spell file checked line by line; the Armageddon
scenarios with their maps and a scenario file checked and previewed."""

from __future__ import annotations

import re

from bot.i18n import t
from bot.narration import felsenfeuer as ff
from bot.web.html import esc
from engines.armageddon.scenario import load
from engines.felsenfeuer.spells import spellbook
from tests.games import stored_game
from tests.unit.test_web import ALICE, BOB, GM, HOSTILE, OTHER_GUILD, Env, csrf_of, env

__all__ = ["env"]


async def test_the_spellbook_by_colour_pips_and_text_in_both_languages(env: Env) -> None:
    alice = await env.signed_in(ALICE, lang="en")
    book = spellbook()
    everything = await (await alice.get("/ff/spells")).text()
    assert everything.count('<article class="spell"') == len(book)
    red = await (await alice.get("/ff/spells?colour=rot&pips=2")).text()
    expected = [s for s in book.values() if s.colour == "rot" and s.pips == 2]
    assert red.count('<article class="spell"') == len(expected) > 0
    spell = next(iter(book.values()))
    word = spell.text_en.split()[-1].strip(".").casefold()
    found = await (await alice.get(f"/ff/spells?q={word}")).text()
    assert f'id="{spell.slug}"' in found and esc(spell.text_en) in found
    german = await env.signed_in(ALICE)
    page = await (await german.get(f"/ff/spells?q={spell.name}")).text()
    assert esc(spell.text_de) in page


async def test_a_servers_own_spells_are_in_the_book_marked(env: Env) -> None:
    await env.store.put_content(1, ff.SPELLS_KIND, ff.template_file(), ALICE)
    alice = await env.signed_in(ALICE)
    page = await (await alice.get("/ff/spells?q=glutfunke")).text()
    assert "Glutfunke" in page and esc(t("web.ff.server", "de")) in page


async def test_a_spell_file_is_checked_with_every_mistakes_line(env: Env) -> None:
    alice = await env.signed_in(ALICE)
    form = await (await alice.get("/ff/spellfile")).text()
    csrf = csrf_of(form)
    good = await alice.post("/ff/spellfile", data={"csrf": csrf, "text": ff.template_file()})
    assert 'class="msg"' in await good.text()
    broken = ff.template_file().replace('colour = "rot"', 'colour = "blau"', 1)
    spell_line = broken.splitlines().index("[[spell]]") + 1  # the mistake's spell starts there
    checked = await (await alice.post("/ff/spellfile", data={"csrf": csrf, "text": broken})).text()
    assert 'role="alert"' in checked
    assert esc(f"Zeile {spell_line}: Glutfunke: colour 'blau'") in checked
    assert (await alice.post("/ff/spellfile", data={"text": broken})).status == 403


async def test_scenarios_with_their_map_and_a_file_checked_and_previewed(env: Env) -> None:
    alice = await env.signed_in(ALICE)
    listing = await (await alice.get("/arm/scenarios")).text()
    names = re.findall(r'/arm/scenario\?name=([a-z]+)"', listing)
    assert "scharmuetzel" in names
    page = await (await alice.get("/arm/scenario?name=scharmuetzel")).text()
    assert 'src="/arm/scenario.png?name=scharmuetzel"' in page
    image = await alice.get("/arm/scenario.png?name=scharmuetzel")
    assert (await image.read()).startswith(b"\x89PNG")
    assert (await alice.get("/arm/scenario?name=../x")).status == 404
    csrf = csrf_of(await (await alice.get("/arm/check")).text())
    text = load("scharmuetzel")[0]
    good = await (await alice.post("/arm/check", data={"csrf": csrf, "text": text})).text()
    assert "data:image/png;base64," in good
    broken = text.replace("parteien: 2", "parteien: zwei")
    bad = await (
        await alice.post("/arm/check", data={"csrf": csrf, "text": broken, "file": "mein.txt"})
    ).text()
    assert 'role="alert"' in bad and "mein.txt" in bad and "data:image" not in bad


async def test_hostile_files_and_filters_are_refused_cleanly(env: Env) -> None:
    alice = await env.signed_in(ALICE)
    csrf = csrf_of(await (await alice.get("/arm/check")).text())
    for value in [*HOSTILE, "[[spell]]\nname = 1\n", "name: x\nkarte:\n" + "T " * 5000]:
        for path in ("/ff/spellfile", "/arm/check"):
            response = await alice.post(path, data={"csrf": csrf, "text": value, "file": value})
            assert response.status in (200, 413), (path, value[:20])
            assert "<script>alert" not in await response.text()
        for query in (f"?colour={value[:50]}", f"?pips={value[:50]}", f"?q={value[:50]}"):
            assert (await alice.get("/ff/spells" + query)).status == 200


async def test_the_servers_own_scenarios_from_its_finished_games(env: Env) -> None:
    text = load("scharmuetzel")[0].replace("Scharmützel am Hügel", "Unser Hügel")
    config = {"scenario_text": text, "file": "huegel.txt"}
    players = [GM, ALICE, BOB]
    finished = await stored_game(env.store, players=players, kind="armageddon", config=config)
    running = await stored_game(
        env.store, players=players, kind="armageddon", config=config, finish=False
    )
    elsewhere = await stored_game(
        env.store, players=players, kind="armageddon", config=config, guild_id=OTHER_GUILD
    )
    assert finished.status == "finished" and running.status == "active"
    alice = await env.signed_in(ALICE)
    listing = await (await alice.get("/arm/scenarios")).text()
    assert f'href="/arm/played?game={finished.id}"' in listing and "Unser Hügel" in listing
    assert f"game={running.id}" not in listing and f"game={elsewhere.id}" not in listing
    page = await (await alice.get(f"/arm/played?game={finished.id}")).text()
    assert "data:image/png;base64," in page and "Unser Hügel" in page
    for game in (running.id, elsewhere.id, "x", ""):
        assert (await alice.get(f"/arm/played?game={game}")).status == 404
