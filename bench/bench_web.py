"""The web companion, served in process over HTTP (aiohttp's test server, a real SQLite store):
page render p99 of the deck builder with 160 cards and of a W6 sheet editor, and the replay GIF
of a 60-step game (time and size)."""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from bench.common import Figure, latency_figures, time_ms_async
from bot.narration import telperinquar as tq
from bot.settings import Settings
from bot.sheets import Sheets
from bot.store import SqliteStore
from bot.web.auth import WebAuth
from bot.web.server import WebContext, create_app
from engines.core.content import data_dir
from engines.telperinquar.cards import catalogue
from engines.w6.sheet_io import sheet_from_text
from tests.games import stored_game

RUNS = 60
PAGE_P99_MS = 100.0
GIF_SECONDS = 5.0
GIF_MIB = 8.0
POOL = 160  # cards the deck builder lists (the built-in ones and a server's own file)
GUILD, USER = 1, 100

_OWN_CARD = """[[card]]
name = "Glasdolch {n}"
name_en = "Glass Dagger {n}"
type = "weapon"
rarity = "common"
classes = []
play = {cost}
use = 1
requires = {{reflexe = 2}}
size = "k"
bonus = 2
attack = "melee"
text_de = "Waffe (k), Beil +2."
text_en = "Weapon (k), melee +2."
[[card.step]]
text_de = "Angriff mit dieser Waffe."
text_en = "Attack with this weapon."
do = "strike"
kind = "physical"
range = "melee"
bonus = 2
"""


async def _setup(store: SqliteStore) -> tuple[int, int]:
    """A server card file filling the pool to 160 cards, a deck of 160 cards, a sheet and a
    finished 60-step game; returns (sheet id, game id)."""
    built_in = len(catalogue().cards) + 8  # support cards, four heroes, four level cards
    extra = max(0, POOL - built_in)
    text = "\n".join(_OWN_CARD.format(n=i, cost=1 + i % 5) for i in range(extra))
    await store.put_content(GUILD, tq.CARDS_KIND, text, USER)
    names = list(catalogue().cards)[:40]
    await store.create_deck(USER, "Stapel", [(name, 4) for name in names])
    campaign = await store.create_campaign(
        guild_id=GUILD, channel_id=5, name="Bench", gm_id=USER, settings={}
    )
    sheet = sheet_from_text((data_dir("w6") / "vorlage.json").read_text(encoding="utf-8"))
    record = await Sheets(store).create(campaign, sheet, USER, USER)
    # 59 random steps and a resign
    game = await stored_game(store, players=[USER, USER + 1], guild_id=GUILD, steps=59, seed=3)
    return record.id, game.id


async def _measure() -> list[Figure]:
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(Path(folder) / "web.sqlite")
        await store.open()
        sheet_id, game_id = await _setup(store)
        ctx = WebContext(store, Settings(web_port=0), WebAuth(store))
        token = await ctx.auth.new_link(USER, GUILD, lang="de", name="bench")
        async with TestClient(TestServer(create_app(ctx))) as client:
            await client.post("/login", data={"token": token})
            deck_page = await client.get("/tq/deck?name=Stapel")
            listed = (await deck_page.text()).count("<tr><td title=")  # the pool's rows

            async def deck() -> None:
                response = await client.get("/tq/deck?name=Stapel")
                await response.read()

            async def sheet() -> None:
                response = await client.get(f"/w6/s/{sheet_id}")
                await response.read()

            editor = await client.get(f"/w6/s/{sheet_id}")
            fields = (await editor.text()).count("<input ")
            if deck_page.status != 200 or editor.status != 200 or listed < POOL:
                raise RuntimeError(f"pages not served: {deck_page.status} {editor.status} {listed}")
            deck_ms = await time_ms_async(deck, RUNS)
            sheet_ms = await time_ms_async(sheet, RUNS)
            started = time.perf_counter()
            response = await client.get(f"/games/{game_id}/replay.gif")
            gif = await response.read()
            gif_seconds = time.perf_counter() - started
        steps = len(await store.game_actions(game_id))
        await store.close()
    return [
        *latency_figures(f"web: deck builder page ({listed} cards)", deck_ms, PAGE_P99_MS),
        *latency_figures(f"web: W6 sheet editor page ({fields} fields)", sheet_ms, PAGE_P99_MS),
        Figure(f"web: replay GIF of a {steps}-step game, time", gif_seconds, "s", GIF_SECONDS),
        Figure(f"web: replay GIF of a {steps}-step game, size", len(gif) / 2**20, "MiB", GIF_MIB),
    ]


def run() -> list[Figure]:
    return asyncio.run(_measure())
