"""The table in a real channel, per game: a game against the bot (Armageddon: a game master
and two people, it has no bot) started in a text channel with threads on and played by
clicks as a player would (a seeded random player clicks the board or opens its private
prompt and clicks it through), counting what the channel sees:

- new public messages per click (the board is one living message; target <= 0.1),
- new private messages per decision (one prompt per decision, edited through its clicks;
  target 1),
- images uploaded per click (a new picture only where it changed; target <= 1),
- clicks per step (each logged step of a person; target <= 2 for the common step: the
  player takes a step offered whole where the prompt offers one, else a random choice).

The invitation in the parent channel and the first board are there before the first click.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bench.common import Figure

CLICKS = 80  # clicks per game kind: enough steps for an average, short for a shared machine
GAMES = 6  # at most this many games of a kind (a game the bot wins fast ends early)
BACK = ("Zurück", "Back")


@dataclass
class Tally:
    clicks: int = 0
    decisions: int = 0
    steps: int = 0
    public: int = 0
    private: int = 0
    images: int = 0
    per_step: list[int] = field(default_factory=list)


def _user_of(fake: Any, user_id: int) -> str:
    return str(fake.user(user_id).name)


async def _settled(fake: Any, bot: Any, game_id: int) -> Any:
    """The game once nobody but a person is due (the bot has played, its board is shown)."""
    from bot.games import GameService

    service = GameService(bot.store)
    for _attempt in range(1000):
        record = await bot.store.get_game(game_id)
        if record.status != "active" or not service.bot_due(record):
            board = fake.messages.get((record.display or {}).get("board") or 0)
            if board is None or ("denkt nach" not in board.text and not board.loading):
                await bot.finish_interactions()
                return await bot.store.get_game(game_id)
        await asyncio.sleep(0.01)
    raise AssertionError("the bot never finished")


def _choices(message: Any) -> list[tuple[str, str | None]]:
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


def _is_whole(choice: tuple[str, str | None]) -> bool:
    """A whole step in one click (``=<n>``, see ``bot.play.ui.WHOLE``)."""
    cid, value = choice
    return (value or "").startswith("=") or cid.split(":p:", 1)[-1].split(".")[-1].startswith("=")


async def _click(fake: Any, message: Any, choice: tuple[str, str | None], user: str) -> Any:
    cid, value = choice
    if value is None:
        return await fake.click(message, cid, user=user)
    return await fake.select(message, cid, [value], user=user)


async def _play(
    fake: Any, bot: Any, game_id: int, engine: Any, rng: random.Random, tally: Tally
) -> None:
    from bot.games import load
    from engines.core import match as m

    record = await _settled(fake, bot, game_id)
    while record.status == "active" and tally.clicks < CLICKS:
        match = load(record)
        bots = {int(s) for s in record.config.get("ai_levels", {})}
        mine = [d for d in m.decisions(engine, match) if d.seat not in bots]
        if not mine:
            record = await _settled(fake, bot, game_id)
            continue
        decision = mine[0]
        user = _user_of(fake, record.players[decision.seat])
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
            choices = _choices(message)
            if not choices or tally.clicks + clicks >= CLICKS:
                break
            whole = [c for c in choices if _is_whole(c)]  # the common step, offered whole
            answer = await _click(fake, message, rng.choice(whole or choices), user)
            clicks += 1
            await answer.callback()
            stepped = len(await bot.store.game_actions(game_id)) > before
            if stepped and not message.ephemeral:
                break  # a step on the board: the board goes on with the next decision
            message = await answer.message()  # a private prompt goes on in place
        tally.clicks += clicks
        record = await _settled(fake, bot, game_id)
        actions = await bot.store.game_actions(game_id)
        own = [a for a in actions[before:] if a[0] == decision.seat]
        if own:
            tally.steps += len(own)
            tally.per_step.append(clicks)


async def _measure(
    name: str, start: Callable[[Any, Any, int], Awaitable[int]], engine_name: str
) -> list[Figure]:
    from engines.core import registry
    from tests.harness import bot_on_fake

    tally = Tally()
    rng = random.Random(11)
    async with bot_on_fake(game_threads=True) as (fake, bot):
        engine = registry()[engine_name]  # registered once the bot loaded the games
        for number in range(GAMES):  # games one after the other until enough clicks
            if tally.clicks >= CLICKS:
                break
            game_id = await start(fake, bot, number)
            await _settled(fake, bot, game_id)  # its first board is there before any click
            requests = len(fake.requests)
            known = set(fake.messages)
            await _play(fake, bot, game_id, engine, rng, tally)
            await bot.finish_interactions()
            for mid, message in fake.messages.items():
                if mid in known:
                    continue
                if message.ephemeral:
                    tally.private += 1
                else:
                    tally.public += 1
            for request in fake.requests[requests:]:
                tally.images += sum(1 for f in request.files if f.filename.endswith(".png"))
    clicks = max(tally.clicks, 1)
    steps = max(tally.steps, 1)
    return [
        Figure(f"{name}: clicks played", tally.clicks, "clicks"),
        Figure(f"{name}: new public messages per click", tally.public / clicks, "msg", 0.1),
        Figure(
            f"{name}: new private messages per decision",
            tally.private / max(tally.decisions, 1),
            "msg",
            1.0,
        ),
        Figure(f"{name}: images per click", tally.images / clicks, "img", 1.0),
        Figure(f"{name}: clicks per step", tally.clicks / steps, "clicks", 2.0),
    ]


async def _thread_game(fake: Any, bot: Any, invitation: Any) -> int:
    thread = await fake.wait(lambda: fake.thread_of(invitation), 10, "the game's thread")
    for _attempt in range(500):
        records = await bot.store.games_in_channel(thread.id)
        if records:
            return int(records[0].id)
        await asyncio.sleep(0.01)
    raise AssertionError("no game in the thread")


async def _essence(fake: Any, bot: Any, _number: int) -> int:
    started = await fake.slash("essenz start", {"bot": "easy", "schnell": True}, user="alice")
    return await _thread_game(fake, bot, await started.message())


async def _felsenfeuer(fake: Any, bot: Any, _number: int) -> int:
    started = await fake.slash("felsenfeuer start", {"bot": "random"}, user="alice")
    return await _thread_game(fake, bot, await started.message())


async def _telperinquar(fake: Any, bot: Any, number: int) -> int:
    if not number:
        options = {"klasse": "geistlicher", "neuer_name": "Licht"}
        await (await fake.slash("telperinquar deck starter", options, user="alice")).callback()
    started = await fake.slash("telperinquar start", {"deck": "Licht"}, user="alice")
    return await _thread_game(fake, bot, await started.message())


async def _draft(fake: Any, bot: Any, _number: int) -> int:
    started = await fake.slash("telperinquar-draft start", {"bots": 1}, user="alice")
    return await _thread_game(fake, bot, await started.message())


async def _run() -> list[Figure]:
    figures: list[Figure] = []
    for name, start, engine in (
        ("essence", _essence, "essence"),
        ("felsenfeuer", _felsenfeuer, "felsenfeuer"),
        ("telperinquar", _telperinquar, "telperinquar"),
        ("telperinquar draft", _draft, "telperinquar-draft"),
    ):
        figures += await _measure(name, start, engine)
    return figures


def run() -> list[Figure]:
    return asyncio.run(_run())


if __name__ == "__main__":
    for figure in run():
        print(figure.line())
