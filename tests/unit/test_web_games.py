"""The companion's replays over HTTP: a server's games, stepping through a record with its
boards and narration, the record download and the animated GIF; who may see what."""

from __future__ import annotations

import io
import json
import re

import pytest
from PIL import Image

from bot.i18n import t
from bot.web import replay as rp
from bot.web.html import esc
from tests.games import stored_game
from tests.unit.test_web import ALICE, BOB, GM, OTHER_GUILD, Env, env

__all__ = ["env"]


async def test_a_finished_game_is_stepped_through_by_anyone_of_its_server(env: Env) -> None:
    game = await stored_game(env.store, players=[ALICE, BOB], names=["Alia", "Bo"], steps=8)
    assert game.status == "finished"
    log = await env.store.game_actions(game.id)
    gm = await env.signed_in(GM)  # no player of it
    listing = await (await gm.get("/games")).text()
    assert f'href="/games/{game.id}"' in listing and "Alia · Bo" in listing
    start = await (await gm.get(f"/games/{game.id}?step=0")).text()
    assert esc(t("web.games.start", "de")) in start
    assert 'id="next"' in start and 'id="prev"' not in start
    second = await (await gm.get(f"/games/{game.id}?step=2")).text()
    seat, text = log[1]
    assert esc(f"{['Alia', 'Bo'][seat]}: {text}") in second
    assert re.search(r'<ul id="narration"><li>', second)  # the step narrated
    assert esc(t("essenzcog.status.waiting", "de")) not in second  # the game went on from there
    image = await gm.get(f"/games/{game.id}/step/2.png")
    assert (await image.read()).startswith(b"\x89PNG")
    last = await (await gm.get(f"/games/{game.id}")).text()
    assert esc(t("web.games.position", "de", step=len(log), count=len(log))) in last
    record = json.loads(await (await gm.get(f"/games/{game.id}/record")).text())
    assert record["seed"] == game.seed and len(record["actions"]) == len(log)
    animation = await gm.get(f"/games/{game.id}/replay.gif")
    with Image.open(io.BytesIO(await animation.read())) as gif:
        assert gif.format == "GIF" and gif.n_frames == len(log) + 1


async def test_a_running_game_only_for_its_players(env: Env) -> None:
    game = await stored_game(env.store, players=[ALICE, BOB], steps=4, finish=False)
    assert game.status == "active"
    alice = await env.signed_in(ALICE)
    assert f'href="/games/{game.id}"' in await (await alice.get("/games")).text()
    assert (await alice.get(f"/games/{game.id}?step=1")).status == 200
    gm = await env.signed_in(GM)
    assert f'href="/games/{game.id}"' not in await (await gm.get("/games")).text()
    refused = await gm.get(f"/games/{game.id}")
    assert refused.status == 403
    assert (await gm.get(f"/games/{game.id}/replay.gif")).status == 403
    elsewhere = await env.signed_in(ALICE, OTHER_GUILD)
    assert (await elsewhere.get(f"/games/{game.id}")).status == 404


async def test_odd_steps_and_ids_are_refused_cleanly(env: Env) -> None:
    game = await stored_game(env.store, players=[ALICE, BOB], steps=3)
    alice = await env.signed_in(ALICE)
    for query in ("?step=-1", "?step=x", "?step=" + "9" * 30, "?step=<script>"):
        response = await alice.get(f"/games/{game.id}{query}")
        assert response.status == 400 and "<script>" not in await response.text()
    far = await alice.get(f"/games/{game.id}?step=999")
    assert far.status == 200  # the last position
    for path in ("/games/x", f"/games/{game.id}/step/99.png", "/games/999999"):
        assert (await alice.get(path)).status == 404, path


def test_long_games_are_sampled_and_the_gif_fits_its_cap() -> None:
    assert rp.sampled(5) == [0, 1, 2, 3, 4]
    picked = rp.sampled(500, 80)
    assert picked[0] == 0 and picked[-1] == 499 and len(picked) <= 80
    frame = io.BytesIO()
    Image.effect_noise((600, 400), 90).convert("RGB").save(frame, "PNG")
    frames = [frame.getvalue()] * 6
    small = rp.animate(frames, max_bytes=60_000)
    assert len(small) <= 60_000
    with Image.open(io.BytesIO(small)) as gif:
        assert gif.width < 480


@pytest.mark.parametrize(
    ("kind", "config", "players"),
    [
        ("felsenfeuer", {"phase_limit": 12}, 2),
        ("telperinquar", {"turn_limit": 50}, 2),
        ("telperinquar-draft", {"booster": 4, "rounds": 2}, 2),
        ("armageddon", {"scenario": "scharmuetzel"}, 3),
    ],
)
async def test_every_table_game_replays(
    env: Env, kind: str, config: dict[str, object], players: int
) -> None:
    seats = [ALICE, BOB, GM][:players]
    game = await stored_game(env.store, players=seats, kind=kind, config=dict(config), steps=10)
    log = await env.store.game_actions(game.id)
    gm = await env.signed_in(ALICE, lang="en")  # a player: the draft goes on after a resign
    for step in sorted({0, 1, len(log) // 2, len(log)}):
        page = await gm.get(f"/games/{game.id}?step={step}")
        assert page.status == 200, (kind, step)
        if 'class="board"' in await page.text():
            image = await gm.get(f"/games/{game.id}/step/{step}.png")
            assert (await image.read()).startswith(b"\x89PNG")
    animation = await gm.get(f"/games/{game.id}/replay.gif")
    assert animation.status in (200, 404)  # 404: a game that draws no board (the draft)
