"""End-to-end latency of one command in-process: INTERACTION_CREATE pushed by the fake Discord
over the websocket → the real bot → the callback request arriving back at the fake.

Target: p99 < 100 ms for ``/hilfe`` (and ``/roll`` once ``cogs/dice.py`` exists).
"""

from __future__ import annotations

import time
from typing import Any

from bench.common import Figure, latency_figures
from bot.sandbox.fake_discord import FakeDiscord

RUNS = 300
WARMUP = 20
TARGET_P99_MS = 100.0


async def _time_command(
    fake: FakeDiscord, name: str, options: dict[str, Any], runs: int
) -> list[float]:
    samples = []
    for index in range(WARMUP + runs):
        start = time.perf_counter()
        ex = await fake.slash(name, options, user=f"bench{index % 7}", locale="de")
        await ex.callback(timeout=10)
        if index >= WARMUP:
            samples.append((time.perf_counter() - start) * 1000)
    return samples


async def run() -> list[Figure]:
    from tests.harness import bot_on_fake

    figures: list[Figure] = []
    async with bot_on_fake() as (fake, bot):
        assert bot.is_ready()
        cases: list[tuple[str, dict[str, Any]]] = [("hilfe", {})]
        synced = {c["name"]: c for c in fake.commands.get(None, [])}
        if "roll" in synced:  # once cogs/dice.py is loaded
            first = synced["roll"]["options"][0]["name"]  # the dice expression
            cases.append(("roll", {first: "3W6+2"}))
        for name, options in cases:
            samples = await _time_command(fake, name, options, RUNS)
            figures += latency_figures(f"/{name} interaction → callback", samples, TARGET_P99_MS)
    return figures
