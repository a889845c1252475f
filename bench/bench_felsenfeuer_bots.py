"""Felsenfeuer: the bots against an opponent the project's bots have never seen.

The yardstick is ``bench.ff_greedy``, a one-ply greedy player written from the public engine
contract only. Figures (issue 22, "Bots that play well"), each with its 95 % Wilson interval:

- hard vs greedy, two players (target: hard wins at least 75 %);
- hard vs greedy, three players: one hard seat, two greedy ones (target: at least 50 %);
- normal vs random, two players (target: at least 90 %);
- normal vs greedy, two players (no target; reported);
- hard vs normal, two players (target: at least 55 %, the levels keep their order);
- the CPU seconds of each bot step (hard and normal decisions): mean and max (target: 2 s).

Seats turn with the seed (the bot sits at ``seed % players``), adept rules, a random start
player from the seed. ``FELSENFEUER_BOT_GAMES`` sets the duels per figure (default 40); the
seeds are fixed (``FELSENFEUER_BOT_SEED``, default 1000), so the figures reproduce.
``python -m bench.bench_felsenfeuer_bots [hard2 hard3 normal_random normal_greedy
hard_normal]`` prints the chosen figures alone."""

from __future__ import annotations

import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from bench import ff_greedy
from bench.common import Figure
from engines.core import match as m
from engines.felsenfeuer.ai import choose
from engines.felsenfeuer.engine import ENGINE

GAMES = int(os.environ.get("FELSENFEUER_BOT_GAMES", "40"))
SEED = int(os.environ.get("FELSENFEUER_BOT_SEED", "1000"))
WORKERS = 2
STEP_LIMIT_S = 2.0


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win share (as fractions)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _act(kind: str, state: object, seat: int, rng: random.Random) -> object:
    if kind == "greedy":
        return ff_greedy.choose(state, seat, rng)
    return choose(state, seat, kind, rng)  # type: ignore[arg-type]


def duel(args: tuple[tuple[str, ...], int]) -> tuple[list[int], list[float]]:
    """One duel with ``kinds`` per seat: the winners and the CPU seconds of each step of a
    project bot (``normal`` or ``hard``)."""
    kinds, seed = args
    match = m.start(ENGINE, {"rules": "adept"}, seed, len(kinds))
    rng = random.Random(seed)
    steps: list[float] = []
    while (result := m.outcome(ENGINE, match)) is None:
        seat = m.decisions(ENGINE, match)[0].seat
        started = time.process_time()
        action = _act(kinds[seat], match.state, seat, rng)
        if kinds[seat] in ("normal", "hard"):
            steps.append(time.process_time() - started)
        match, _ = m.apply(ENGINE, match, ENGINE.action_text(action), seat)
    return sorted(result.winners), steps


def series(
    pool: ProcessPoolExecutor | None, bot: str, other: str, players: int, games: int
) -> tuple[int, int, list[float]]:
    """``games`` duels of one ``bot`` seat (turning with the seed) against ``other`` seats:
    (the bot's wins, draws, the CPU seconds of its and every project bot's steps)."""
    jobs = []
    for i in range(games):
        seed = SEED + i
        kinds = [other] * players
        kinds[seed % players] = bot
        jobs.append((tuple(kinds), seed))
    results = list(pool.map(duel, jobs) if pool else map(duel, jobs))
    wins = sum(1 for (kinds, seed), r in zip(jobs, results, strict=True) if seed % players in r[0]
               and len(r[0]) == 1)  # fmt: skip
    draws = sum(1 for r in results if not r[0])
    return wins, draws, [s for r in results for s in r[1]]


MATCHES = {  # name: (bot, other, players, target %)
    "hard2": ("hard", "greedy", 2, 75.0),
    "hard3": ("hard", "greedy", 3, 50.0),
    "normal_random": ("normal", "random", 2, 90.0),
    "normal_greedy": ("normal", "greedy", 2, None),
    "hard_normal": ("hard", "normal", 2, 55.0),  # the levels keep their order
}


def figures(pool: ProcessPoolExecutor | None, names: list[str], games: int) -> list[Figure]:
    out: list[Figure] = []
    steps: list[float] = []
    for name in names:
        bot, other, players, target = MATCHES[name]
        wins, draws, cpu = series(pool, bot, other, players, games)
        steps += cpu
        low, high = wilson(wins, games)
        label = (f"ff {bot} vs {other} {players}p: {wins}/{games} won, {draws} drawn, "
                 f"95% CI {100 * low:.0f}-{100 * high:.0f}%")  # fmt: skip
        out.append(Figure(label, 100 * wins / games, "%", target, higher_is_better=True))
    if steps:
        out += [
            Figure("felsenfeuer bot step CPU mean", sum(steps) / len(steps), "s", STEP_LIMIT_S),
            Figure("felsenfeuer bot step CPU max", max(steps), "s", STEP_LIMIT_S),
        ]
    return out


def run() -> list[Figure]:
    with ProcessPoolExecutor(WORKERS) as pool:
        return figures(pool, list(MATCHES), GAMES)


if __name__ == "__main__":
    chosen = sys.argv[1:] or list(MATCHES)
    with ProcessPoolExecutor(WORKERS) as main_pool:
        for figure in figures(main_pool, chosen, GAMES):
            print(figure.line(), flush=True)
