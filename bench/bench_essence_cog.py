"""The ``/essenz`` cog: board render time, and whole steps end to end against the fake Discord
(interaction pushed in → the bot's answer recorded), AI time separately.

The end-to-end figures are a game of Alice and Bob (no AI in them; a challenge of oneself is
refused), each step by whoever is to act: typed steps (``/essenz zug``) and
clicks (each click of a step built by clicking: choosing the mote, the type, the target … and the
one that plays the step). Each answer includes the new board image.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from bench.common import Figure, bot_on_fake_discord, latency_figures, time_ms
from bot.play.specs.essence import choice_tree
from bot.play.ui import whole_steps
from bot.render.essence import BoardText, render_board
from engines.essence import ENGINE
from engines.essence.ai import choose_step
from engines.essence.board import Position

TEXT = BoardText(("Alice", "Bob"), "Alice ist am Zug · Runde 3", "Noch möglich: Bewegen", "", 0)
STEPS = 60
PLAYERS = ("alice", "bob")
AI_STEPS = 30


def _positions(count: int, seed: int = 7) -> list[Position]:
    rng = random.Random(seed)
    positions: list[Position] = []
    state = ENGINE.initial_state({"variants": ["bestimmt"]}, 0, 2)
    while len(positions) < count:
        positions.append(state)
        actions = ENGINE.legal_actions(state, state.side)
        if not actions:
            state = ENGINE.initial_state({}, 0, 2)
            continue
        state, _ = ENGINE.apply(state, rng.choice(list(actions)), state.side)
    return positions


def _render_figures() -> list[Figure]:
    views = [ENGINE.view_for(p, None) for p in _positions(40)]
    index = 0

    def render() -> None:
        nonlocal index
        render_board(views[index % len(views)], TEXT)
        index += 1

    return latency_figures("essence board render (7x7, PNG)", time_ms(render, 80), 100.0)


def _ai_figures() -> list[Figure]:
    figures: list[Figure] = []
    positions = _positions(AI_STEPS * 3, seed=11)[::3]
    for level in ("normal", "hard"):
        samples = []
        for seed, pos in enumerate(positions):
            started = time.perf_counter()
            choose_step(pos, level, seed)
            samples.append((time.perf_counter() - started) * 1000)
        target = 2000.0 if level == "hard" else None
        figures += latency_figures(f"essence AI {level} one step (not in e2e)", samples, target)
    return figures


async def _end_to_end() -> list[Figure]:

    typed: list[float] = []
    clicks: list[float] = []
    async with bot_on_fake_discord() as (fake, bot):
        await _play(fake, bot, typed, clicks)
    return [
        *latency_figures("essence typed step e2e (fake Discord)", typed, 100.0),
        *latency_figures("essence click e2e (fake Discord)", clicks, 100.0),
    ]


async def _play(fake: Any, bot: Any, typed: list[float], clicks: list[float]) -> None:
    from bot.games import load

    rng = random.Random(3)
    board, game_id = await _new_game(fake)
    for step in range(STEPS):
        record = await bot.store.get_game(game_id)
        if record.status != "active":
            board, game_id = await _new_game(fake)
            continue
        state = load(record).state
        user = PLAYERS[state.side]
        action = rng.choice(list(ENGINE.legal_actions(state, state.side)))
        if step % 2:
            began = time.perf_counter()
            notation = {"notation": ENGINE.action_text(action)}
            ex = await fake.slash("essenz zug", notation, user=user)
            await ex.message()  # answered privately; the living board is edited
            typed.append((time.perf_counter() - began) * 1000)
            await bot.finish_interactions()
            board = fake.messages[(await bot.store.get_game(game_id)).display["board"]]
        else:
            board = await _click_through(fake, board, state, action, clicks, user)
    await asyncio.sleep(0.5)  # let the last answer's bookkeeping finish before the bot closes


async def _new_game(fake: Any) -> tuple[Any, int]:
    """Alice challenges Bob, Bob accepts: the first board and the game's id."""
    start = await fake.slash("essenz start", {"gegner": PLAYERS[1]}, user=PLAYERS[0])
    invitation = await start.message()
    accept = await fake.click(invitation, 1, user=PLAYERS[1])
    board = await accept.message()
    return board, int(board.custom_ids[0].split(":")[1])


async def _click_through(
    fake: Any, board: Any, state: Position, action: Any, clicks: list[float], user: str
) -> Any:
    tree = choice_tree(ENGINE.legal_actions(state, state.side))
    wanted = ENGINE.action_path(action)
    path: tuple[str, ...] = ()
    while tree.action(path) is None:
        token = wanted[len(path)]
        prefix = ".".join(path)
        began = time.perf_counter()
        selects = [s for s in board.selects if f":p:{prefix}:" in s["custom_id"]]
        steps = whole_steps(tree, path)
        if tuple(wanted) in steps:  # the step offered whole: one pick
            value = f"={steps.index(tuple(wanted))}"
            whole = [s for s in selects if value in [o["value"] for o in s["options"]]]
            if whole:
                ex = await fake.select(board, whole[0]["custom_id"], [value], user=user)
                await ex.callback()
                clicks.append((time.perf_counter() - began) * 1000)
                return await ex.message()
        chosen = [s for s in selects if token in [o["value"] for o in s["options"]]]
        if chosen:
            ex = await fake.select(board, chosen[0]["custom_id"], [token], user=user)
        else:
            ending = f":p:{'.'.join((*path, token))}"
            cid = next(c for c in board.custom_ids if c.endswith(ending))
            ex = await fake.click(board, cid, user=user)
        await ex.callback()
        board = await ex.message()
        clicks.append((time.perf_counter() - began) * 1000)
        clicked = (*path, token)
        path = tree.follow(clicked)
        if len(clicked) == 1 and path != clicked and tree.action(path) is not None:
            board = await _confirm(fake, board, path, clicks, user)  # a mote with one step
    return board


async def _confirm(
    fake: Any, board: Any, path: tuple[str, ...], clicks: list[float], user: str
) -> Any:
    """Click the button that names the whole step (a click completed it by skipping)."""
    began = time.perf_counter()
    cid = next(c for c in board.custom_ids if c.endswith(f":p:{'.'.join(path)}"))
    ex = await fake.click(board, cid, user=user)
    await ex.callback()
    clicks.append((time.perf_counter() - began) * 1000)
    return await ex.message()


def run() -> list[Figure]:
    figures = _render_figures()
    figures += asyncio.run(_end_to_end())
    figures += _ai_figures()
    return figures


if __name__ == "__main__":
    for figure in run():
        print(figure.line())
