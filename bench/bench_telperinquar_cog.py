"""The ``/telperinquar`` cog end to end against the fake Discord: one step (interaction pushed in
→ the answer recorded, the new field image included) typed with ``/telperinquar zug``, and one
private prompt opened (the hand image included) and clicked.

A duel of Alice and Bob (no bot: its thinking is measured in bench_telperinquar), each step by
whoever is to act, a seeded random legal action; a finished game is followed by a new one.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from bench.common import Figure, bot_on_fake_discord, latency_figures

STEPS = 120
PLAYERS = ("alice", "bob")
TARGET_MS = 100.0


async def _end_to_end() -> list[Figure]:

    typed: list[float] = []
    opened: list[float] = []
    clicked: list[float] = []
    async with bot_on_fake_discord() as (fake, bot):
        await _play(fake, bot, typed, opened, clicked)
    return [
        *latency_figures("telperinquar typed step e2e (fake Discord)", typed, TARGET_MS),
        *latency_figures("telperinquar private prompt opened e2e", opened, TARGET_MS),
        *latency_figures("telperinquar prompt click e2e", clicked, TARGET_MS),
    ]


async def _play(
    fake: Any, bot: Any, typed: list[float], opened: list[float], clicked: list[float]
) -> None:
    from bot.games import load
    from engines.core import match as m
    from engines.telperinquar import ENGINE

    rng = random.Random(3)
    game_id = await _new_game(fake, bot)
    for step in range(STEPS):
        record = await bot.store.get_game(game_id)
        if record.status != "active":
            game_id = await _new_game(fake, bot)
            continue
        match = load(record)
        decision = m.decisions(ENGINE, match)[0]
        user = PLAYERS[decision.seat]
        actions = list(ENGINE.legal_actions(match.state, decision.seat))
        opener = f"tq:{game_id}:{decision.id}:o"
        board = await _board_with(fake, bot, game_id, opener)  # the last step's board is up
        if step % 2:
            action = rng.choice(actions)
            began = time.perf_counter()
            ex = await fake.slash("telperinquar zug", {"notation": str(action)}, user=user)
            await ex.message()
            typed.append((time.perf_counter() - began) * 1000)
            continue
        began = time.perf_counter()
        ex = await fake.click(board, opener, user=user)
        prompt = await ex.message()
        opened.append((time.perf_counter() - began) * 1000)
        buttons = [b["custom_id"] for b in prompt.buttons if ":p:" in b["custom_id"]]
        selects = [s for s in prompt.selects if ":p:" in s["custom_id"]]
        began = time.perf_counter()
        if buttons:
            ex = await fake.click(prompt, rng.choice(buttons), user=user)
        else:  # the steps offered whole in a menu
            menu = rng.choice(selects)
            value = rng.choice(menu["options"])["value"]
            ex = await fake.select(prompt, menu["custom_id"], [value], user=user)
        await ex.message()
        clicked.append((time.perf_counter() - began) * 1000)
    await asyncio.sleep(0.5)  # let the last answer's bookkeeping finish before the bot closes


async def _board_with(fake: Any, bot: Any, game_id: int, opener: str) -> Any:
    """The live board once it offers ``opener`` (the board after a private step is posted
    right after the prompt's answer)."""
    for _attempt in range(400):
        record = await bot.store.get_game(game_id)
        board = fake.messages.get(record.display.get("board") or 0)
        if board is not None and opener in board.custom_ids:
            return board
        await asyncio.sleep(0.01)
    raise RuntimeError(f"no board offered {opener}")


async def _new_game(fake: Any, bot: Any) -> int:
    """Alice challenges Bob, Bob accepts with a starter deck: the game's id."""
    start = await fake.slash("telperinquar start", {"gegner": PLAYERS[1]}, user=PLAYERS[0])
    invitation = await start.message()
    accept = next(c for c in invitation.custom_ids if c.endswith(":inv:1"))
    chooser = await (await fake.click(invitation, accept, user=PLAYERS[1])).message()
    select = chooser.selects[0]
    await (
        await fake.select(chooser, select["custom_id"], ["zauberer"], user=PLAYERS[1])
    ).callback()
    game_id = int(accept.split(":")[1])
    for _attempt in range(400):
        record = await bot.store.get_game(game_id)
        if record.status == "active" and record.display.get("board"):
            return game_id
        await asyncio.sleep(0.01)
    raise RuntimeError("the game did not start")


def run() -> list[Figure]:
    return asyncio.run(_end_to_end())


if __name__ == "__main__":
    for figure in run():
        print(figure.line())
