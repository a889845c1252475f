"""Telperinquár bots against an independent one-ply greedy opponent (bench/tq_greedy.py,
written from the public engine contract only): each bot level's win rate with its 95%
interval (Wilson; draws count half), and the CPU time of one bot step (mean and max).

Duels with the starter decks, every pair of classes in turn, sides alternating, fixed seeds.
``TELPERINQUAR_GREEDY_GAMES`` sets the duels per level (default 96: eight of every ordered
class pair; with 24 the 95% interval was 36 points wide and two sets of 40 duels gave the same
bot 57 and 66%),
``TELPERINQUAR_GREEDY_SEED`` the first seed (default 1: seeds 1 … GAMES; e.g. 101 for a
second, independent set)."""

from __future__ import annotations

import os
import random
import time
from itertools import permutations

from bench.common import Figure
from bench.tq_greedy import choose as greedy
from engines.telperinquar.balance import wilson
from engines.telperinquar.cards import CLASSES
from engines.telperinquar.engine import ENGINE

GAMES = int(os.environ.get("TELPERINQUAR_GREEDY_GAMES", "96"))
SEED = int(os.environ.get("TELPERINQUAR_GREEDY_SEED", "1"))
PAIRS = list(permutations(CLASSES, 2))


def duel(level: str, seed: int) -> tuple[float, list[float]]:
    """One duel of ``level`` against the greedy player: (the bot's score 1/0.5/0, CPU
    seconds of each of the bot's steps)."""
    bot_seat = seed % 2
    decks = list(PAIRS[(seed // 2) % len(PAIRS)])
    state = ENGINE.initial_state({"mode": "duel", "decks": decks, "turn_limit": 600}, seed, 2)
    rng = random.Random(seed)
    steps: list[float] = []
    for _ in range(20_000):  # a safety net: a duel that does not end is a draw
        if ENGINE.outcome(state) is not None:
            break
        (decision,) = ENGINE.decisions(state)
        seat = decision.seat
        if seat == bot_seat:
            started = time.process_time()
            action = ENGINE.choose_action(state, seat, level, 1.0, rng)
            steps.append(time.process_time() - started)
        else:
            action = greedy(ENGINE, state, seat, rng)
        state, _ = ENGINE.apply(state, action, seat)
    result = ENGINE.outcome(state)
    if result is None or not result.winners:
        return 0.5, steps
    return (1.0 if bot_seat in result.winners else 0.0), steps


def against_greedy(
    level: str, games: int = GAMES, seed: int = SEED
) -> tuple[float, int, list[float]]:
    """(score, games, step times) of ``level`` against the greedy player."""
    score = 0.0
    steps: list[float] = []
    for n in range(games):
        won, times = duel(level, seed + n)
        score += won
        steps += times
    return score, games, steps


def run() -> list[Figure]:
    figures: list[Figure] = []
    for level, target in (("normal", None), ("hard", 75.0)):
        score, games, steps = against_greedy(level)
        low, high = wilson(score, games)
        figures += [
            Figure(f"telperinquar {level} vs greedy: win share ({games} duels from seed {SEED})",
                   100 * score / games, "%", target, higher_is_better=True),
            Figure(f"telperinquar {level} vs greedy: 95% interval low", 100 * low, "%"),
            Figure(f"telperinquar {level} vs greedy: 95% interval high", 100 * high, "%"),
            Figure(f"telperinquar {level}: bot step CPU mean", 1000 * sum(steps) / len(steps),
                   "ms", 2000.0),
            Figure(f"telperinquar {level}: bot step CPU max", 1000 * max(steps), "ms", 2000.0),
        ]  # fmt: skip
    return figures


if __name__ == "__main__":
    for figure in run():
        print(figure.line())
