"""One game write to the store (revision-guarded snapshot + action log), p50/p99."""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

from bench.common import Figure, latency_figures
from bot.store import SqliteStore

RUNS = 500
TARGET_P99_MS = 20.0


async def _measure() -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(Path(folder) / "bench.sqlite")
        await store.open()
        game = await store.create_game(
            kind="essence",
            engine_version=1,
            config={},
            seed=1,
            guild_id=1,
            channel_id=1,
            players=[1, 2],
            status="active",
            snapshot={"board": "x" * 400},
        )
        samples = []
        revision = game.revision
        for i in range(RUNS):
            start = time.perf_counter()
            game = await store.update_game(
                game.id,
                expected_revision=revision,
                snapshot={"board": "y" * 400, "i": i},
                actions=[(i % 2, "move a1 b2")],
            )
            samples.append((time.perf_counter() - start) * 1000)
            revision = game.revision
        await store.close()
    return samples


def run() -> list[Figure]:
    samples = asyncio.run(_measure())
    return latency_figures("store: one game write (snapshot + log)", samples, TARGET_P99_MS)
