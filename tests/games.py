"""Stored games for tests and benchmarks of what reads them (replays): a seeded random game of
any registered engine, written to a store as the game service writes it."""

from __future__ import annotations

import random
from typing import Any

from bot.store import Store
from bot.store.base import GameRecord
from bot.web.replay import specs
from engines.core import match as m
from engines.core import registry

specs()  # every table game's engine registered


def random_log(
    kind: str, config: dict[str, Any], seed: int, players: int, steps: int
) -> tuple[m.Match, list[tuple[int, str]]]:
    """Up to ``steps`` random legal actions (fewer when the game ends first)."""
    engine = registry()[kind]
    chooser = random.Random(seed)
    match = m.start(engine, config, seed, players)
    log: list[tuple[int, str]] = []
    while len(log) < steps and m.outcome(engine, match) is None:
        decision = chooser.choice(m.decisions(engine, match))
        action = chooser.choice(list(engine.legal_actions(match.state, decision.seat)))
        text = engine.action_text(action)
        match, _events = m.apply(engine, match, text, decision.seat)
        log.append((decision.seat, text))
    return match, log


async def stored_game(
    store: Store,
    *,
    players: list[int],
    guild_id: int = 1,
    channel_id: int = 77,
    kind: str = "essence",
    config: dict[str, Any] | None = None,
    steps: int = 12,
    seed: int = 7,
    finish: bool = True,
    names: list[str] | None = None,
) -> GameRecord:
    """A game of ``steps`` random steps; with ``finish`` the last seat then resigns (a
    finished game), else it stays running."""
    engine = registry()[kind]
    config = {"variants": []} if config is None and kind == "essence" else dict(config or {})
    match, log = random_log(kind, config, seed, len(players), steps)
    if finish and m.outcome(engine, match) is None:
        seat = len(players) - 1
        match, _events = m.apply(engine, match, "!resign", seat)
        log.append((seat, "!resign"))
    start = m.start(engine, config, seed, len(players))
    record = await store.create_game(
        kind=kind,
        engine_version=engine.version,
        config=config,
        seed=seed,
        guild_id=guild_id,
        channel_id=channel_id,
        players=players,
        status="active",
        snapshot=m.to_json(engine, start),
        display={"names": names or [f"Spieler {i + 1}" for i in range(len(players))]},
    )
    ended = m.outcome(engine, match) is not None
    return await store.update_game(
        record.id,
        expected_revision=record.revision,
        snapshot=m.to_json(engine, match),
        actions=log,
        status="finished" if ended else None,
    )
