"""Load: 50 heavy commands at once (``/roll 1000d6>=5``: a thousand dice, their picture) and,
while they are being worked on, light ones from another user (``/roll 3d6``), against the real
bot and the fake Discord in one process. Discord drops an interaction without a first reply
(an answer or a defer) after 3 s: every first reply must come before that, and the light
rolls must stay quick.

``tests/cog/test_load.py`` runs a small seeded sample of the same mix (:func:`mixed_load`)
and checks behaviour only: every interaction answered, heavy ones deferred, none an error.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from dataclasses import dataclass, field

from bench.common import Figure, latency_figures
from bot.sandbox.fake_discord import Exchange, FakeDiscord, Reply

HEAVY = "1000d6>=5"
LIGHT = "3d6"
HEAVY_COUNT = 50
LIGHT_COUNT = 40
LIGHT_SPACING = 0.05  # seconds between two light rolls (they arrive while the heavy ones run)
FIRST_REPLY_LIMIT_MS = 3000.0  # Discord's deadline for the first answer
LIGHT_TARGET_P99_MS = 500.0
ANSWER_TIMEOUT = 120.0


@dataclass
class Sent:
    """One interaction of the load: what was sent, when, and when its answers came."""

    heavy: bool
    exchange: Exchange
    pushed: float
    first_reply: Reply | None = None
    first_ms: float | None = None
    done_ms: float | None = None


@dataclass
class LoadResult:
    sent: list[Sent] = field(default_factory=list)

    def of(self, heavy: bool) -> list[Sent]:
        return [s for s in self.sent if s.heavy == heavy]


async def _follow(item: Sent) -> None:
    """Record the first reply's time, then the time the answer was complete (the message)."""
    item.first_reply = await item.exchange.callback(ANSWER_TIMEOUT)
    item.first_ms = (time.perf_counter() - item.pushed) * 1000
    await item.exchange.message(ANSWER_TIMEOUT)
    item.done_ms = (time.perf_counter() - item.pushed) * 1000


async def mixed_load(
    fake: FakeDiscord,
    *,
    heavy: int = HEAVY_COUNT,
    light: int = LIGHT_COUNT,
    spacing: float = LIGHT_SPACING,
    seed: int = 1,
) -> LoadResult:
    """Push ``heavy`` heavy rolls from several users at once, then ``light`` light rolls by
    another user ``spacing`` seconds apart (a seeded jitter), and wait for every answer."""
    rng = random.Random(seed)
    result = LoadResult()
    followers: list[asyncio.Task[None]] = []

    async def push(expression: str, user: str, is_heavy: bool) -> None:
        began = time.perf_counter()
        exchange = await fake.slash("roll", {"ausdruck": expression}, user=user)
        item = Sent(is_heavy, exchange, began)
        result.sent.append(item)
        followers.append(asyncio.create_task(_follow(item)))

    await asyncio.gather(
        *(push(HEAVY, f"spieler{i % 10}", True) for i in range(heavy)),
    )
    for _ in range(light):
        await push(LIGHT, "zuschauer", False)
        await asyncio.sleep(spacing * rng.uniform(0.5, 1.5))
    await asyncio.gather(*followers)
    return result


def figures(result: LoadResult) -> list[Figure]:
    heavy, light = result.of(True), result.of(False)
    firsts = [s.first_ms or 0.0 for s in result.sent]
    return [
        Figure(
            f"load: slowest first reply of {len(heavy)} heavy + {len(light)} light",
            max(firsts),
            "ms",
            FIRST_REPLY_LIMIT_MS,
        ),
        *latency_figures(
            f"load: light /roll {LIGHT} answer while {len(heavy)} x /roll {HEAVY} run",
            [s.first_ms or 0.0 for s in light],
            LIGHT_TARGET_P99_MS,
        ),
        *latency_figures(
            f"load: heavy /roll {HEAVY} first reply (defer)",
            [s.first_ms or 0.0 for s in heavy],
            FIRST_REPLY_LIMIT_MS,
        ),
        *latency_figures(
            f"load: heavy /roll {HEAVY} complete answer (with image)",
            [s.done_ms or 0.0 for s in heavy],
            None,
        ),
    ]


async def _measure() -> LoadResult:
    from tests.harness import bot_on_fake

    logging.getLogger("discord").setLevel(logging.WARNING)
    async with bot_on_fake() as (fake, _bot):
        await (await fake.slash("roll", {"ausdruck": HEAVY})).message(ANSWER_TIMEOUT)  # warm up
        return await mixed_load(fake)


def run() -> list[Figure]:
    return figures(asyncio.run(_measure()))


if __name__ == "__main__":
    for figure in run():
        print(figure.line())
