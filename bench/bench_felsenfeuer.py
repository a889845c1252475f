"""Felsenfeuer: bot-vs-bot duels per second (2 and 4 seats, heuristic bots), the strength
of the bots (hard vs normal, hard vs random, seats alternating), each colour's win share and
the time to draw a six-seat board image.

``FELSENFEUER_GAMES`` sets the games per match (default 20; the speed figures play the same
number of heuristic duels). The colour figures play every pair of one-colour Auswahls (8 dice
of one colour, magister rules, the whole Kompendium) against each other, both seatings,
heuristic bots: a colour's win share is its wins over its duels (draws count half); balanced
colours sit near 50 %. The render figure draws the views of a real six-seat Gilden-Duell.
The "hard side" figures seat ``hard`` for one side (a team, a guild, one seat of the Pentagramm)
against ``normal`` everywhere else, the side turning with the seed, and give the CPU
milliseconds of each hard decision; ``python -m bench.bench_felsenfeuer strength`` prints the
bots' figures alone. Seeds are fixed, so the figures reproduce. Times are CPU
seconds of the process playing the games (the bots' own cost), so a shared, loaded machine
does not stretch them."""

from __future__ import annotations

import os
import random
import time
from concurrent.futures import ProcessPoolExecutor

from bench.common import Figure, percentile
from engines.core import match as m
from engines.felsenfeuer.actions import Auswahl
from engines.felsenfeuer.ai import choose
from engines.felsenfeuer.engine import ENGINE
from engines.felsenfeuer.model import COLOURS
from engines.felsenfeuer.work import Work

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


def _colour_duel(args: tuple[str, str, int]) -> list[int]:
    """A one-colour Auswahl for each seat (seat 0 plays ``a``, seat 1 ``b``); the winners."""
    a, b, seed = args
    match = m.start(ENGINE, {"rules": "magister", "supply": 16, "start": 0}, seed, 2)
    for seat, colour in ((0, a), (1, b)):
        counts = "-".join("8" if c == colour else "0" for c in COLOURS)
        match, _ = m.apply(ENGINE, match, ENGINE.action_text(Auswahl.of(counts)), seat)
    rng = random.Random(seed)
    while (result := m.outcome(ENGINE, match)) is None:
        seat = m.decisions(ENGINE, match)[0].seat
        action = choose(match.state, seat, "normal", rng)
        match, _ = m.apply(ENGINE, match, ENGINE.action_text(action), seat)
    return sorted(result.winners)


def colour_shares(pool: ProcessPoolExecutor | None, rounds: int) -> dict[str, float]:
    """Each colour's win share (%) over ``rounds`` of every ordered pair of colours."""
    jobs = [(a, b, seed) for seed in range(rounds) for a in COLOURS for b in COLOURS if a != b]
    results = list(pool.map(_colour_duel, jobs) if pool else map(_colour_duel, jobs))
    score = dict.fromkeys(COLOURS, 0.0)
    played = dict.fromkeys(COLOURS, 0)
    for (a, b, _seed), winners in zip(jobs, results, strict=True):
        played[a] += 1
        played[b] += 1
        if not winners:
            score[a] += 0.5
            score[b] += 0.5
        else:
            score[a if winners == [0] else b] += 1.0
    return {c: 100.0 * score[c] / played[c] for c in COLOURS}


def _colours(pool: ProcessPoolExecutor) -> list[Figure]:
    rounds = max(1, GAMES // 10)
    shares = colour_shares(pool, rounds)
    spread = max(shares.values()) - min(shares.values())
    return [
        *[Figure(f"felsenfeuer colour {c}: win share ({rounds * 8} one-colour duels)", v, "%")
          for c, v in shares.items()],
        Figure("felsenfeuer colours: spread of win shares", spread, "points", 30.0,
               higher_is_better=False),
    ]  # fmt: skip


def six_seat_views(limit: int = 40) -> list[dict[str, object]]:
    """Views of a real six-seat duel (Gilden-Duell, heuristic bots), one per action."""
    match = m.start(ENGINE, {"rules": "magister", "mode": "gilde"}, 3, 6)
    rng = random.Random(3)
    views = []
    while m.outcome(ENGINE, match) is None and len(views) < limit:
        seat = m.decisions(ENGINE, match)[0].seat
        match, _ = m.apply(
            ENGINE, match, ENGINE.action_text(choose(match.state, seat, "normal", rng)), seat
        )
        views.append(ENGINE.view_for(match.state, 0))
    return views


def _render() -> list[Figure]:
    from bot.render.felsenfeuer import render_board

    views = six_seat_views()[-20:]
    started = time.process_time()
    for view in views:
        render_board(view, "de")
    per_image = (time.process_time() - started) / len(views) * 1000
    return [Figure("felsenfeuer six-seat board image: render time", per_image, "ms", 150.0)]


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


def _sided_duel(args: tuple[int, dict[str, object], int]) -> tuple[int, int, list[float]]:
    """A duel where ``hard`` plays every seat of the side (team) of seat ``seed % players`` and
    ``normal`` the others: (1 if that side won, 1 if a draw, CPU ms of each hard decision)."""
    players, config, seed = args
    match = m.start(ENGINE, config, seed, players)
    sides = Work(match.state)
    hard = {s for s in range(players) if sides.team(s) == sides.team(seed % players)}
    rng = random.Random(seed)
    thinking: list[float] = []
    while (result := m.outcome(ENGINE, match)) is None:
        seat = m.decisions(ENGINE, match)[0].seat
        started = time.process_time()
        action = choose(match.state, seat, "hard" if seat in hard else "normal", rng)
        if seat in hard:
            thinking.append((time.process_time() - started) * 1000)
        match, _ = m.apply(ENGINE, match, ENGINE.action_text(action), seat)
    won = bool(set(result.winners) & hard)
    return int(won), int(not result.winners), thinking


def _sided(pool: ProcessPoolExecutor, players: int, config: dict[str, object], label: str,
           fair: float) -> list[Figure]:  # fmt: skip
    """Hard's side against normal ones; its win share against ``fair`` (the share of an
    equal player) + 5 points, and the CPU of its decisions (the bots' thinking, which the cog's
    end-to-end figures leave out)."""
    jobs = [(players, config, 100 + seed) for seed in range(GAMES)]
    results = list(pool.map(_sided_duel, jobs))
    share = 100 * sum(r[0] for r in results) / GAMES
    thinking = [ms for r in results for ms in r[2]]
    return [
        Figure(f"felsenfeuer hard side vs normal, {label} ({GAMES} duels)", share, "%",
               fair + 5, higher_is_better=True),
        Figure(f"felsenfeuer hard decision CPU p99, {label}", percentile(thinking, 99), "ms",
               1000.0),
    ]  # fmt: skip


def strength(pool: ProcessPoolExecutor) -> list[Figure]:
    """The bots' strength: each level against the one below, hard's side in the modes."""
    return [
        *_match(pool, "normal", "random", 80.0),
        *_match(pool, "hard", "normal", 55.0),
        *_match(pool, "hard", "random", 80.0),
        *_sided(pool, 2, {"rules": "magister"}, "2 seats magister", 50.0),
        *_sided(pool, 4, {"rules": "adept", "teams": [0, 1, 0, 1]}, "4 seats in teams", 50.0),
        *_sided(pool, 5, {"rules": "magister", "mode": "pentagramm"}, "Pentagramm", 20.0),
        *_sided(pool, 6, {"rules": "magister", "mode": "gilde"}, "Gilden-Duell", 50.0),
    ]


def run() -> list[Figure]:
    with ProcessPoolExecutor(WORKERS) as pool:
        return [
            *_speed(pool, 2),
            *_speed(pool, 4),
            *strength(pool),
            *_colours(pool),
            *_render(),
        ]


if __name__ == "__main__":  # python -m bench.bench_felsenfeuer strength: the bots alone
    import sys

    with ProcessPoolExecutor(WORKERS) as main_pool:
        figures = strength(main_pool) if sys.argv[1:] == ["strength"] else run()
    for figure in figures:
        print(figure.line(), flush=True)
