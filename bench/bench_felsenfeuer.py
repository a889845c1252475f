"""Felsenfeuer: bot-vs-bot duels per second (2 and 4 seats, heuristic bots) and the strength
of the bots: hard (rollouts) vs normal (heuristic) and hard vs random, seats alternating.

``FELSENFEUER_GAMES`` sets the games per match (default 20; the speed figures play the same
number of heuristic duels). Seeds are fixed, so the figures reproduce. Times are CPU seconds
of the process playing the games (the bots' own cost)."""

from __future__ import annotations

import os
import random
import time
from concurrent.futures import ProcessPoolExecutor

from bench.common import Figure
from engines.core import match as m
from engines.felsenfeuer.ai import choose
from engines.felsenfeuer.engine import ENGINE

GAMES = int(os.environ.get("FELSENFEUER_GAMES", "20"))
WORKERS = 2


def _duel(args: tuple[int, tuple[str, ...], int]) -> tuple[list[int], float, int]:
    """One duel; returns the winners, the CPU seconds and the actions played."""
    players, levels, seed = args
    started = time.process_time()
    match = m.start(ENGINE, {"rules": "adept"}, seed, players)
    rng = random.Random(seed)
    steps = 0
    while (result := m.outcome(ENGINE, match)) is None:
        seat = m.decisions(ENGINE, match)[0].seat
        action = choose(match.state, seat, levels[seat], rng)
        match, _ = m.apply(ENGINE, match, ENGINE.action_text(action), seat)
        steps += 1
    return sorted(result.winners), time.process_time() - started, steps


def _speed(pool: ProcessPoolExecutor, players: int) -> list[Figure]:
    jobs = [(players, ("normal",) * players, seed) for seed in range(GAMES)]
    results = list(pool.map(_duel, jobs))
    cpu = sum(r[1] for r in results)
    steps = sum(r[2] for r in results)
    target = 3.0 if players == 2 else 1.5
    return [
        Figure(f"felsenfeuer {players} seats: duels per CPU second", len(results) / cpu,
               "duels/s", target, higher_is_better=True),
        Figure(f"felsenfeuer {players} seats: actions per duel", steps / len(results), "actions"),
    ]  # fmt: skip


def _match(pool: ProcessPoolExecutor, strong: str, weak: str, target: float) -> list[Figure]:
    jobs = [(2, (strong, weak) if seed % 2 == 0 else (weak, strong), seed) for seed in range(GAMES)]
    results = list(pool.map(_duel, jobs))
    wins = sum(1 for seed, r in enumerate(results) if r[0] == [seed % 2])
    draws = sum(1 for r in results if not r[0])
    return [
        Figure(f"felsenfeuer {strong} vs {weak}: win share ({GAMES} duels)", wins / GAMES * 100,
               "%", target, higher_is_better=True),
        Figure(f"felsenfeuer {strong} vs {weak}: draw share", draws / GAMES * 100, "%"),
    ]  # fmt: skip


def run() -> list[Figure]:
    with ProcessPoolExecutor(WORKERS) as pool:
        return [
            *_speed(pool, 2),
            *_speed(pool, 4),
            *_match(pool, "normal", "random", 80.0),
            *_match(pool, "hard", "normal", 55.0),
            *_match(pool, "hard", "random", 80.0),
        ]
