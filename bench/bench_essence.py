"""Essence of the Arcane: step generation speed, perft, AI timing and AI match strength.

Matches as the issue states them: 100 games hard vs easy (random) and 100 games hard vs normal,
colours alternating, hard at its full budget. All 200 games share one pool of 2 worker
processes, the long hard-vs-normal games first, so both cores stay busy to the end. Seeds are
fixed, so the figures reproduce. ``ESSENCE_GAMES=20`` plays fewer games of each for a quick
look (the share figures then name the smaller count).

A step's time is the CPU time of the process choosing it (the target: the bot's own cost); its
wall time is shown too, but that grows with whatever else runs on the machine.
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

GAMES = int(os.environ.get("ESSENCE_GAMES", "100"))
WORKERS = 2
Result = tuple[int, int, list[tuple[float, float]], int]
# winner seat or -1, seat of hard, hard's (CPU, wall) seconds per step, turns


def _play_game(args: tuple[str, str, int]) -> Result:
    """One game of ``first`` against ``second``, colours by the seed's parity."""
    first, second, seed = args
    seat_of_first = seed % 2
    levels = (first, second) if seat_of_first == 0 else (second, first)
    state: Position = start_position(False, ())
    times: list[tuple[float, float]] = []
    step = 0
    while state.phase != "end":
        cpu, wall = time.process_time(), time.perf_counter()
        action = choose_step(state, levels[state.side], seed * 10_000 + step)
        if state.side == seat_of_first:
            times.append((time.process_time() - cpu, time.perf_counter() - wall))
        state, _events = ENGINE.apply(state, action, state.side)
        step += 1
    return state.side, seat_of_first, times, state.turn


def _matches(games: int) -> tuple[list[Result], list[Result], float]:
    """Hard vs normal and hard vs easy results, ``games`` each, and the wall seconds taken."""
    jobs = [("hard", "normal", seed) for seed in range(games)]
    jobs += [("hard", "easy", seed) for seed in range(games)]
    started = time.perf_counter()
    with ProcessPoolExecutor(WORKERS) as pool:
        results = list(pool.map(_play_game, jobs))
    return results[:games], results[games:], time.perf_counter() - started


def _match_figures(opponent: str, results: list[Result], target: float) -> list[Figure]:
    games = len(results)
    wins = sum(1 for winner, seat, _t, _n in results if winner == seat)
    draws = sum(1 for winner, _seat, _t, _n in results if winner < 0)
    turns = statistics.mean(n for _w, _s, _t, n in results)
    return [
        Figure(f"essence hard vs {opponent}: win share ({games} games)", wins / games * 100, "%",
               target, higher_is_better=True),
        Figure(f"essence hard vs {opponent}: draw share", draws / games * 100, "%"),
        Figure(f"essence hard vs {opponent}: mean turns per game", turns, "turns"),
    ]  # fmt: skip


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
    normal, easy, wall = _matches(GAMES)
    figures += _match_figures("random", easy, 95)
    figures += _match_figures("normal", normal, 70)
    steps = [times for _w, _s, game, _n in normal + easy for times in game]
    cpu = [c for c, _wall in steps]
    figures += [
        Figure("essence hard CPU seconds per step, median", statistics.median(cpu), "s"),
        Figure("essence hard CPU seconds per step, max", max(cpu), "s", 2.0),
        Figure("essence hard wall seconds per step, max", max(w for _c, w in steps), "s"),
        Figure(f"essence matches wall time ({2 * GAMES} games, {WORKERS} workers)", wall, "s"),
    ]
    return figures
