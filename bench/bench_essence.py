"""Essence of the Arcane: step generation speed, perft, AI timing and AI match strength.

Matches: 100 games hard vs easy (random) and 50 games hard vs normal (set
``ESSENCE_NORMAL_GAMES=100`` for the full hundred; hard vs normal games run 20-100 turns at about
12 s a game, so 100 of them alone take ~10 minutes on 2 cores), colours alternating, on 2 worker
processes, hard at its full budget. Seeds are fixed, so the figures reproduce.
"""

from __future__ import annotations

import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from bench.common import Figure
from engines.essence.ai import choose_step
from engines.essence.board import Position, start_position
from engines.essence.engine import ENGINE
from engines.essence.rules import legal_steps, perft, play

GAMES = 100
NORMAL_GAMES = int(os.environ.get("ESSENCE_NORMAL_GAMES", "50"))
WORKERS = 2


def _play_game(args: tuple[str, str, int]) -> tuple[int, int, list[float], int]:
    """One game; returns (winner seat or -1, seat of the first level, its step times, turns)."""
    first, second, seed = args
    seat_of_first = seed % 2
    levels = (first, second) if seat_of_first == 0 else (second, first)
    state: Position = start_position(False, ())
    times: list[float] = []
    step = 0
    while state.phase != "end":
        started = time.perf_counter()
        action = choose_step(state, levels[state.side], seed * 10_000 + step)
        if state.side == seat_of_first:
            times.append(time.perf_counter() - started)
        state, _events = ENGINE.apply(state, action, state.side)
        step += 1
    return state.side, seat_of_first, times, state.turn


def _match(first: str, second: str, games: int) -> tuple[float, float, list[float], float]:
    """(win share, draw share, step times of ``first``, mean turns) over ``games`` games."""
    with ProcessPoolExecutor(WORKERS) as pool:
        results = list(pool.map(_play_game, [(first, second, s) for s in range(games)]))
    wins = sum(1 for winner, seat, _t, _n in results if winner == seat)
    draws = sum(1 for winner, _seat, _t, _n in results if winner < 0)
    times = [t for _w, _s, ts, _n in results for t in ts]
    turns = statistics.mean(n for _w, _s, _t, n in results)
    return wins / games, draws / games, times, turns


def _successors_per_second() -> float:
    start = start_position(False, ())
    positions = [start]
    for pos in positions[:200]:
        positions.extend(play(pos, s) for s in legal_steps(pos)[:5])
    sample = positions[:2000]
    count = 0
    started = time.perf_counter()
    for pos in sample:
        for step in legal_steps(pos):
            play(pos, step)
            count += 1
    return count / (time.perf_counter() - started)


def run() -> list[Figure]:
    figures = [Figure("essence steps generated+played per second", _successors_per_second(),
                      "1/s", 50_000, higher_is_better=True)]  # fmt: skip
    started = time.perf_counter()
    count = perft(start_position(False, ()), 3)
    figures.append(Figure(f"essence perft(3) from start ({count})",
                          time.perf_counter() - started, "s", 2.0))  # fmt: skip
    share, draws, times, turns = _match("hard", "easy", GAMES)
    figures += [
        Figure("essence hard vs random: win share (100 games)", share * 100, "%", 95, True),
        Figure("essence hard vs random: draw share", draws * 100, "%"),
        Figure("essence hard vs random: mean turns per game", turns, "turns"),
    ]
    share, draws, hard_times, turns = _match("hard", "normal", NORMAL_GAMES)
    figures += [
        Figure(
            f"essence hard vs normal: win share ({NORMAL_GAMES} games)", share * 100, "%", 70, True
        ),
        Figure("essence hard vs normal: draw share", draws * 100, "%"),
        Figure("essence hard vs normal: mean turns per game", turns, "turns"),
    ]
    all_times = times + hard_times
    figures += [
        Figure("essence hard seconds per step, median", statistics.median(all_times), "s"),
        Figure("essence hard seconds per step, max", max(all_times), "s", 2.0),
    ]
    return figures
