"""The ``/armageddon`` cog: one step end to end against the fake Discord (interaction pushed in
→ the bot's answer recorded, the new board with its map image included).

A game master leads the skirmish (8×6 map, 22 figures) for Alice and Bob; each step is a
random legal action of the seat the game waits for: typed (``/armageddon zug``) or clicked
in the seat's private prompt (open the decision, then each click; the click that plays the
step counts until the living board shows it with its map). ``ARMAGEDDON_COG_STEPS=10`` takes
fewer samples for a quick look.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from typing import Any

from bench.common import Figure, bot_on_fake_discord, latency_figures

STEPS = int(os.environ.get("ARMAGEDDON_COG_STEPS", "40"))
GM, PLAYERS = "greta", ("alice", "bob")


async def _end_to_end() -> list[Figure]:

    typed: list[float] = []
    clicks: list[float] = []
    async with bot_on_fake_discord() as (fake, bot):
        await _play(fake, bot, typed, clicks)
    return [
        *latency_figures("armageddon typed step e2e (fake Discord)", typed, 100.0),
        *latency_figures("armageddon click e2e (fake Discord)", clicks, 100.0),
    ]


async def _new_game(fake: Any) -> int:
    options = {"szenario": "scharmuetzel", "partei1": PLAYERS[0], "partei2": PLAYERS[1]}
    invitation = await (await fake.slash("armageddon start", options, user=GM)).message()
    for user in PLAYERS:
        answer = await fake.click(invitation, 1, user=user)
        invitation = await answer.message()
    game_id = int(invitation.custom_ids[0].split(":")[1])
    await (await fake.slash("armageddon zug", {"notation": "start"}, user=GM)).message()
    return game_id


async def _play(fake: Any, bot: Any, typed: list[float], clicks: list[float]) -> None:
    from bot.games import load
    from engines.armageddon import ENGINE
    from engines.core import match as m

    rng = random.Random(5)
    game_id = await _new_game(fake)
    users = (GM, *PLAYERS)
    for step in range(STEPS * 2):
        if len(typed) >= STEPS and len(clicks) >= STEPS:
            break
        record = await bot.store.get_game(game_id)
        if record.status != "active":
            game_id = await _new_game(fake)
            continue
        match = load(record)
        decision = next(d for d in m.decisions(ENGINE, match) if d.waits)
        actions = ENGINE.legal_actions(match.state, decision.seat)
        moves = [a for a in actions if a.verb not in ("end", "done")]
        action = rng.choice(moves if moves and rng.random() < 0.85 else list(actions))
        user = users[decision.seat]
        if step % 2:
            began = time.perf_counter()
            notation = {"notation": ENGINE.action_text(action)}
            await (await fake.slash("armageddon zug", notation, user=user)).message()
            typed.append((time.perf_counter() - began) * 1000)
        else:
            await _click_through(fake, bot, record, decision.id, action, clicks, user)
    await asyncio.sleep(0.5)  # let the last answer's bookkeeping finish before the bot closes


async def _click_through(
    fake: Any,
    bot: Any,
    record: Any,
    decision: str,
    action: Any,
    clicks: list[float],
    user: str,
) -> None:
    from engines.armageddon import ENGINE

    opener = f"armag:{record.id}:{decision}:o"
    board = fake.messages[record.display["board"]]
    while opener not in board.custom_ids:  # the board of the last step is still being posted
        await asyncio.sleep(0.002)
        board = fake.messages[(await bot.store.get_game(record.id)).display["board"]]
    began = time.perf_counter()
    opened = await fake.click(board, opener, user=user)
    prompt = await opened.message()
    clicks.append((time.perf_counter() - began) * 1000)
    wanted = ENGINE.action_path(action)
    for depth in range(1, len(wanted) + 1):
        token = wanted[depth - 1]
        began = time.perf_counter()
        shown = (await bot.store.get_game(record.id)).display["board"]
        edits = fake.messages[shown].edits
        selects = [s for s in prompt.selects if token in [o["value"] for o in s["options"]]]
        buttons = [c for c in prompt.custom_ids if c.endswith(":p:" + ".".join(wanted[:depth]))]
        if selects:
            ex = await fake.select(prompt, selects[0]["custom_id"], [token], user=user)
        elif buttons:
            ex = await fake.click(prompt, buttons[0], user=user)
        else:  # chosen already: the only way on
            continue
        await ex.callback()
        prompt = await ex.message()
        stored = await bot.store.get_game(record.id)
        if stored.revision != record.revision:  # the step counts until the board shows it
            while fake.messages[shown].edits == edits and (
                (await bot.store.get_game(record.id)).display["board"] == shown
            ):
                await asyncio.sleep(0.002)
        clicks.append((time.perf_counter() - began) * 1000)
        if (await bot.store.get_game(record.id)).revision != record.revision:
            return


def run() -> list[Figure]:
    return asyncio.run(_end_to_end())


if __name__ == "__main__":
    for figure in run():
        print(figure.line())
