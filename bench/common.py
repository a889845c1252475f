"""Shared pieces of the benchmarks: a figure with its target, and percentile timing."""

from __future__ import annotations

import contextlib
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Figure:
    """One measured figure. ``higher_is_better`` flips the comparison with ``target``."""

    name: str
    value: float
    unit: str
    target: float | None = None
    higher_is_better: bool = False

    @property
    def meets_target(self) -> bool | None:
        if self.target is None:
            return None
        return self.value >= self.target if self.higher_is_better else self.value <= self.target

    def line(self) -> str:
        if self.target is None:
            verdict, target = "", ""
        else:
            sign = ">=" if self.higher_is_better else "<="
            target = f"target {sign} {self.target:g} {self.unit}"
            verdict = "OK" if self.meets_target else "MISSED"
        return f"{self.name:<52} {self.value:>12.3f} {self.unit:<8} {target:<28} {verdict}"


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[index]


def time_ms(fn: Callable[[], object], runs: int, warmup: int = 5) -> list[float]:
    """Wall milliseconds of ``runs`` calls of ``fn`` after ``warmup`` calls."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


async def time_ms_async(
    fn: Callable[[], Awaitable[object]], runs: int, warmup: int = 5
) -> list[float]:
    for _ in range(warmup):
        await fn()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        await fn()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def latency_figures(name: str, samples: list[float], target_p99: float | None) -> list[Figure]:
    return [
        Figure(f"{name} p50", statistics.median(samples), "ms"),
        Figure(f"{name} p99", percentile(samples, 99), "ms", target_p99),
    ]


@contextlib.asynccontextmanager
async def bot_on_fake_discord() -> AsyncIterator[tuple[Any, Any]]:
    """The real bot on the fake Discord with a fresh database, commands synced and the
    start-up heap frozen as the real process does (else a cog bench's p99 is the collector)."""
    from bot.app import freeze_startup_heap
    from bot.sandbox.fake_discord import FakeDiscord
    from tests.harness import running_bot, settings_for

    fake = FakeDiscord()
    await fake.start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            settings = settings_for(fake, Path(folder) / "bench.sqlite")
            async with running_bot(fake, settings) as bot:
                await fake.wait_for_sync()
                freeze_startup_heap()
                yield fake, bot
    finally:
        await fake.stop()
