"""The dice cog end to end, in process: an INTERACTION_CREATE pushed by the fake Discord over
its gateway → the real bot (discord.py, store, engine, renderer) → the interaction callback
received by the fake. p50/p99 for a ``/roll`` and for a 15-die ``/probe`` (with its PNG)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from bench.common import Figure, latency_figures
from bot.sandbox.fake_discord import Exchange
from tests.harness import bot_on_fake

RUNS = 200
WARMUP = 10
TARGET_P99_MS = 50.0


async def _time(push: Callable[[], Awaitable[Exchange]]) -> list[float]:
    samples = []
    for index in range(WARMUP + RUNS):
        start = time.perf_counter()
        exchange = await push()
        reply = await exchange.callback()
        elapsed = (time.perf_counter() - start) * 1000
        if reply.type != 4:
            raise RuntimeError(f"unexpected reply {reply!r}")
        if index >= WARMUP:
            samples.append(elapsed)
    return samples


async def _measure() -> tuple[list[float], list[float]]:
    logging.getLogger("discord").setLevel(logging.WARNING)
    async with bot_on_fake() as (fake, _bot):
        roll = await _time(lambda: fake.slash("roll", {"ausdruck": "4W6kh3+2 Angriff"}))
        probe = await _time(lambda: fake.slash("probe", {"wert": 12, "bonus": 3, "erfolge": 4}))
    return roll, probe


def run() -> list[Figure]:
    roll, probe = asyncio.run(_measure())
    return [
        *latency_figures("dice cog: /roll 4W6kh3+2, interaction → reply", roll, TARGET_P99_MS),
        *latency_figures(
            "dice cog: /probe 15 W6 with PNG, interaction → reply", probe, TARGET_P99_MS
        ),
    ]
