"""A player that clicks any game on the shared table through the fake Discord, as people
would: for each open decision of a person it opens the private prompt (or clicks the board),
takes a step offered whole where there is one (else a seeded random choice) and goes on in a
continued prompt; the bot answers in between. Used by the table's cog tests (message counts)
and its bench (``bench/bench_table.py``)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.games import GameService, load
from engines.core import match as m

BACK = ("Zurück", "Back")


@dataclass
class Tally:
    """What a played stretch did: clicks, decisions opened, steps of people and, per step,
    its clicks."""

    clicks: int = 0
    decisions: int = 0
    steps: int = 0
    public: int = 0
    private: int = 0
    images: int = 0
    per_step: list[int] = field(default_factory=list)
    turns: int = 0  # changes of the person whose decision is played (the first one counts)
    last_seat: int | None = None


def user_of(fake: Any, user_id: int) -> str:
    return str(fake.user(user_id).name)


async def settled(fake: Any, bot: Any, game_id: int) -> Any:
    """The game once nobody but a person is due (the bot has played, its board is shown)."""
    service = GameService(bot.store)
    for _attempt in range(1500):
        record = await bot.store.get_game(game_id)
        if record.status != "active" or not service.bot_due(record):
            board = fake.messages.get((record.display or {}).get("board") or 0)
            if board is None or ("denkt nach" not in board.text and not board.loading):
                await bot.finish_interactions()
                return await bot.store.get_game(game_id)
        await asyncio.sleep(0.01)
    raise AssertionError("the bot never finished")


def choices(message: Any) -> list[tuple[str, str | None]]:
    """Every click choice on ``message``: (custom id, select value or None)."""
    found: list[tuple[str, str | None]] = []
    for button in message.buttons:
        cid = button.get("custom_id", "")
        if (":p:" in cid or ":pg:" in cid) and button.get("label") not in BACK:
            found.append((cid, None))
    for select in message.selects:
        if ":p:" in select["custom_id"]:
            found += [(select["custom_id"], o["value"]) for o in select["options"]]
    return found


def is_whole(choice: tuple[str, str | None]) -> bool:
    """A whole step in one click (``=<n>``, see ``bot.play.ui.WHOLE``)."""
    cid, value = choice
    return (value or "").startswith("=") or cid.split(":p:", 1)[-1].split(".")[-1].startswith("=")


async def click(fake: Any, message: Any, choice: tuple[str, str | None], user: str) -> Any:
    cid, value = choice
    if value is None:
        return await fake.click(message, cid, user=user)
    return await fake.select(message, cid, [value], user=user)


async def play(
    fake: Any,
    bot: Any,
    game_id: int,
    engine: Any,
    rng: random.Random,
    tally: Tally,
    limit: int,
    check: Callable[[], None] = lambda: None,
) -> None:
    """Play the people's decisions of game ``game_id`` by clicks until ``limit`` clicks or
    the end; ``check()`` after every click that settled."""
    record = await settled(fake, bot, game_id)
    while record.status == "active" and tally.clicks < limit:
        bots = {int(s) for s in record.config.get("ai_levels", {})}
        mine = [d for d in m.decisions(engine, load(record)) if d.seat not in bots and d.waits]
        if not mine:
            record = await settled(fake, bot, game_id)
            continue
        decision = mine[0]
        if decision.seat != tally.last_seat:
            tally.turns, tally.last_seat = tally.turns + 1, decision.seat
        user = user_of(fake, record.players[decision.seat])
        board = fake.messages[record.display["board"]]
        before = len(await bot.store.game_actions(game_id))
        opener = next((c for c in board.custom_ids if c.endswith(f":{decision.id}:o")), None)
        clicks = 0
        tally.decisions += 1
        if opener is not None:
            opened = await fake.click(board, opener, user=user)
            clicks += 1
            message = await opened.message()
        else:
            message = board
        for _click_no in range(40):
            offered = choices(message)
            if not offered or tally.clicks + clicks >= limit:
                break
            whole = [c for c in offered if is_whole(c)]  # the common step, offered whole
            answer = await click(fake, message, rng.choice(whole or offered), user)
            clicks += 1
            await answer.callback()
            stepped = len(await bot.store.game_actions(game_id)) > before
            if stepped and not message.ephemeral:
                break  # a step on the board: the board goes on with the next decision
            message = await answer.message()  # a private prompt goes on in place
        tally.clicks += clicks
        record = await settled(fake, bot, game_id)
        check()
        actions = await bot.store.game_actions(game_id)
        own = [a for a in actions[before:] if a[0] == decision.seat]
        if own:
            tally.steps += len(own)
            tally.per_step.append(clicks)
