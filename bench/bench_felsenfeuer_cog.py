"""The ``/felsenfeuer`` cog end to end against the fake Discord: every click of a duel of
Alice and Bob (two people, no bot seat: the bots' thinking is not in these figures; the
``felsenfeuer`` bench measures it as CPU per decision), each from the interaction pushed in
to the bot's answer recorded, and each whole step from its last click until the public board
shows the new state with its new image. Beside the wall-clock figures (which a loaded,
shared machine stretches), the CPU milliseconds the process spent on each (the bot and the
fake Discord run in this one process, so the fake's own work is in them too).

The clicks are those a player makes: the "decide" button on the board (the private prompt
opens), then each choice of the step (the sealed Auswahl as a common split, a glyph's colour,
pips and matrix, a spell, a target …), chosen by a seeded random player."""

from __future__ import annotations

import asyncio
import os
import random
import time
from typing import Any

from bench.common import Figure, bot_on_fake_discord, latency_figures

STEPS = 100  # decisions taken (each one or more clicks): p99 over more than a handful
PLAYERS = ("alice", "bob")


async def _end_to_end() -> list[Figure]:

    clicks: list[tuple[float, float]] = []
    steps: list[tuple[float, float]] = []
    async with bot_on_fake_discord() as (fake, bot):
        await _play(fake, bot, clicks, steps)
    return [
        *latency_figures("felsenfeuer click e2e (fake Discord, no bot)", _wall(clicks), 100.0),
        *latency_figures("felsenfeuer click e2e CPU", _cpu(clicks), 100.0),
        *latency_figures("felsenfeuer step e2e: last click to new board", _wall(steps), 100.0),
        *latency_figures("felsenfeuer step e2e CPU", _cpu(steps), 100.0),
        Figure("load average (1 min) at the end: the machine's other work", os.getloadavg()[0], ""),
    ]


def _wall(samples: list[tuple[float, float]]) -> list[float]:
    return [wall for wall, _cpu in samples]


def _cpu(samples: list[tuple[float, float]]) -> list[float]:
    return [cpu for _wall, cpu in samples]


def _since(began: tuple[float, float]) -> tuple[float, float]:
    """Wall and CPU milliseconds since ``began`` (a ``_now()``)."""
    wall, cpu = _now()
    return (wall - began[0]) * 1000, (cpu - began[1]) * 1000


def _now() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


async def _new_duel(fake: Any) -> int:
    """Alice invites Bob, Bob accepts: the duel's number."""
    start = await fake.slash("felsenfeuer start", {"spieler2": PLAYERS[1]}, user=PLAYERS[0])
    invitation = await start.message()
    accept = next(b["custom_id"] for b in invitation.buttons if b.get("label") == "Annehmen")
    board = await (await fake.click(invitation, accept, user=PLAYERS[1])).message()
    return int(board.custom_ids[0].split(":")[1])


async def _play(
    fake: Any, bot: Any, clicks: list[tuple[float, float]], steps: list[tuple[float, float]]
) -> None:
    from bot.games import load
    from engines.core import match as m
    from engines.felsenfeuer import ENGINE

    rng = random.Random(5)
    game_id = await _new_duel(fake)
    for _step in range(STEPS):
        record = await bot.store.get_game(game_id)
        if record.status != "active":
            game_id = await _new_duel(fake)
            record = await bot.store.get_game(game_id)
        decision = m.decisions(ENGINE, load(record))[0]
        opener = f"felsen:{game_id}:{decision.id}:o"
        board = await _board_offering(fake, bot, game_id, opener)
        began = _now()
        opened = await fake.click(board, opener, user=PLAYERS[decision.seat])
        prompt = await opened.message()
        clicks.append(_since(began))
        edits = board.edits
        last = await _click_through(fake, prompt, PLAYERS[decision.seat], rng, clicks)
        while fake.messages[board.id].edits == edits and _since(last)[0] < 10_000:
            await asyncio.sleep(0.001)
        steps.append(_since(last))
    await asyncio.sleep(0.5)  # let the last answer's bookkeeping finish before the bot closes


async def _board_offering(fake: Any, bot: Any, game_id: int, opener: str) -> Any:
    """The live board once it offers ``opener`` (a new duel's board may still be posted)."""
    for _attempt in range(2000):
        board_id = (await bot.store.get_game(game_id)).display.get("board")
        board = fake.messages.get(board_id) if board_id is not None else None
        if board is not None and opener in board.custom_ids:
            return board
        await asyncio.sleep(0.005)
    raise AssertionError("no board offered the decision")


async def _click_through(
    fake: Any, prompt: Any, user: str, rng: random.Random, clicks: list[tuple[float, float]]
) -> tuple[float, float]:
    """Click the decision to its end; when its last click began."""
    began = _now()
    for _click in range(20):
        if not prompt.components:
            return began
        buttons = [
            b for b in prompt.buttons if ":p:" in b["custom_id"] and b.get("label") != "Zurück"
        ]
        selects = [s for s in prompt.selects if ":p:" in s["custom_id"]]
        began = _now()
        if selects and (not buttons or rng.random() < 0.5):
            select = rng.choice(selects)
            value = rng.choice(select["options"])["value"]
            answer = await fake.select(prompt, select["custom_id"], [value], user=user)
        else:
            answer = await fake.click(prompt, rng.choice(buttons)["custom_id"], user=user)
        await answer.callback()
        prompt = await answer.message()
        clicks.append(_since(began))
    raise AssertionError("a decision took more than 20 clicks")


def run() -> list[Figure]:
    return asyncio.run(_end_to_end())


if __name__ == "__main__":
    for figure in run():
        print(figure.line())
