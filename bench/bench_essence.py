"""Essence of the Arcane: step generation speed, perft, AI timing and AI match strength.

Matches (colours alternate with the seed's parity; seeds fixed, so the figures reproduce):

- hard vs easy (random) and hard vs normal, as the issue first stated them;
- hard vs greedy and normal vs greedy: ``greedy`` plans its own whole turn for the most
  material and never looks at the reply (issue 10: hard must win at least 90%);
- each match reports the win share overall and per seat (as player 1 and as player 2).

``ESSENCE_GAMES`` (default 100) sets the games per match, ``ESSENCE_MATCHES`` (default all:
``greedy,normal,normal-greedy,random``) which matches run, e.g. ``ESSENCE_GAMES=20
ESSENCE_MATCHES=greedy python -m bench.run essence`` for a quick look, and
``ESSENCE_FIRST_SEED`` (default 0) the first game's seed, so a long sample can be played in
chunks (seeds 0-19, then ``ESSENCE_FIRST_SEED=20`` ...) and added up. All games share one pool
of 2 worker processes, the long ones first, so both cores stay busy to the end.

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
FIRST_SEED = int(os.environ.get("ESSENCE_FIRST_SEED", "0"))
WORKERS = 2
# name: (level measured, its opponent, target win share in %)
MATCHES = {
    "greedy": ("hard", "greedy", 90.0),
    "normal": ("hard", "normal", 70.0),
    "normal-greedy": ("normal", "greedy", None),
    "random": ("hard", "easy", 95.0),
}
SELECTED = os.environ.get("ESSENCE_MATCHES", ",".join(MATCHES)).split(",")
Result = tuple[int, int, list[tuple[float, float]], int]
# winner seat or -1, seat of the measured level, its (CPU, wall) seconds per step, turns


def play_game(first: str, second: str, seed: int) -> Result:
    """One game of level ``first`` against ``second``; ``first`` sits in seat ``seed % 2``."""
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


def _job(args: tuple[str, str, int]) -> Result:
    return play_game(*args)


def _matches(names: list[str], games: int) -> tuple[dict[str, list[Result]], float]:
    """The results of the named matches, ``games`` each, and the wall seconds taken."""
    seeds = range(FIRST_SEED, FIRST_SEED + games)
    jobs = [(MATCHES[name][0], MATCHES[name][1], seed) for name in names for seed in seeds]
    started = time.perf_counter()
    with ProcessPoolExecutor(WORKERS) as pool:
        results = list(pool.map(_job, jobs))
    split = {name: results[i * games : (i + 1) * games] for i, name in enumerate(names)}
    return split, time.perf_counter() - started


def _match_figures(name: str, results: list[Result]) -> list[Figure]:
    level, opponent, target = MATCHES[name]
    title = f"essence {level} vs {opponent if opponent != 'easy' else 'random'}"
    games = len(results)
    wins = sum(1 for winner, seat, _t, _n in results if winner == seat)
    draws = sum(1 for winner, _seat, _t, _n in results if winner < 0)
    turns = statistics.mean(n for _w, _s, _t, n in results)
    figures = [
        Figure(f"{title}: win share ({games} games)", wins / games * 100, "%", target,
               higher_is_better=True),
    ]  # fmt: skip
    for seat in (0, 1):
        played = [r for r in results if r[1] == seat]
        if played:
            won = sum(1 for winner, s, _t, _n in played if winner == s)
            figures.append(
                Figure(f"{title}: as player {seat + 1} ({won} of {len(played)})",
                       won / len(played) * 100, "%")
            )  # fmt: skip
    figures += [
        Figure(f"{title}: draw share", draws / games * 100, "%"),
        Figure(f"{title}: mean turns per game", turns, "turns"),
    ]
    return figures


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


def _time_figures(level: str, results: list[Result], target: float | None) -> list[Figure]:
    steps = [times for _w, _s, game, _n in results for times in game]
    if not steps:
        return []
    cpu = [c for c, _wall in steps]
    return [
        Figure(
            f"essence {level} CPU seconds per step, median", statistics.median(cpu), "s", target
        ),
        Figure(f"essence {level} CPU seconds per step, max", max(cpu), "s", target),
        Figure(f"essence {level} wall seconds per step, max", max(w for _c, w in steps), "s"),
    ]


def run() -> list[Figure]:
    figures = [Figure("essence steps generated+played per second", _successors_per_second(),
                      "1/s", 50_000, higher_is_better=True)]  # fmt: skip
    started = time.perf_counter()
    count = perft(start_position(False, ()), 3)
    figures.append(Figure(f"essence perft(3) from start ({count})",
                          time.perf_counter() - started, "s", 2.0))  # fmt: skip
    names = [name for name in MATCHES if name in SELECTED]
    results, wall = _matches(names, GAMES)
    for name in names:
        figures += _match_figures(name, results[name])
    for level, target in (("hard", 2.0), ("normal", None)):
        measured = [r for name in names if MATCHES[name][0] == level for r in results[name]]
        figures += _time_figures(level, measured, target)
    figures.append(
        Figure(f"essence matches wall time ({len(names) * GAMES} games, {WORKERS} workers)",
               wall, "s")
    )  # fmt: skip
    return figures
