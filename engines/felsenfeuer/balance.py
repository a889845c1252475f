"""Balance by simulation: how bot duels end, how many attacks land, how long duels last and
each colour's win rate in one- and two-colour Auswahl tournaments (with 95 % intervals).

``python -m engines.felsenfeuer balance [--games G] [--seed S] [--levels hard]
[--players 2,3] [--rounds R]`` prints the report; ``RULES.md`` keeps the figures. Everything
is seeded, so a report reproduces. Nothing here belongs to the rules: it only plays duels.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from engines.core import match as m
from engines.felsenfeuer.actions import Auswahl
from engines.felsenfeuer.ai import choose
from engines.felsenfeuer.engine import ENGINE
from engines.felsenfeuer.model import COLOURS

RULEBOOK_ENDS = ("eliminated", "declared", "pentagramm", "vorsteher", "all_out")
ATTACK_EVENTS = ("attacked", "attack_warded", "attack_missed")


@dataclass
class Duel:
    """What one duel showed: its end, its length and its attacks."""

    reason: str
    winners: tuple[int, ...]
    phases: int
    attacks: Counter[str] = field(default_factory=Counter)


def play(config: dict[str, Any], players: int, seed: int, levels: Sequence[str],
         auswahl: Sequence[str] = ()) -> Duel:  # fmt: skip
    """One bot duel to its end; ``auswahl``: each seat's dice as ``g-gr-r-s-v`` counts."""
    match = m.start(ENGINE, config, seed, players)
    for seat, counts in enumerate(auswahl):
        match, _ = m.apply(ENGINE, match, ENGINE.action_text(Auswahl.of(counts)), seat)
    rng = random.Random(seed)
    attacks: Counter[str] = Counter()
    for _ in range(20_000):
        result = m.outcome(ENGINE, match)
        if result is not None:
            return Duel(result.reason, tuple(sorted(result.winners)), match.state.phases, attacks)
        seat = m.decisions(ENGINE, match)[0].seat
        action = choose(match.state, seat, levels[seat % len(levels)], rng)
        match, events = m.apply(ENGINE, match, ENGINE.action_text(action), seat)
        attacks.update(e.type for e in events if e.type in ATTACK_EVENTS)
    raise RuntimeError(f"the duel of seed {seed} did not end")


def interval(wins: float, games: int) -> tuple[float, float]:
    """The 95 % Wilson interval of a rate (in %)."""
    if games == 0:
        return 0.0, 100.0
    z, p = 1.96, wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return 100.0 * max(0.0, centre - half), 100.0 * min(1.0, centre + half)


@dataclass
class Ends:
    """How a set of duels ended."""

    duels: int = 0
    by_rules: int = 0
    attacks: Counter[str] = field(default_factory=Counter)
    phases: list[int] = field(default_factory=list)

    def add(self, duel: Duel) -> None:
        self.duels += 1
        self.by_rules += duel.reason in RULEBOOK_ENDS
        self.attacks.update(duel.attacks)
        self.phases.append(duel.phases)

    @property
    def landed(self) -> float:
        total = sum(self.attacks[t] for t in ATTACK_EVENTS)
        return 100.0 * self.attacks["attacked"] / total if total else 0.0

    def line(self, label: str) -> str:
        low, high = interval(self.by_rules, self.duels)
        total = sum(self.attacks[t] for t in ATTACK_EVENTS)
        median = sorted(self.phases)[len(self.phases) // 2] if self.phases else 0
        share = 100.0 * self.by_rules / self.duels if self.duels else 0.0
        return (f"{label}: {self.duels} duels, {share:.0f}% end by the rules "
                f"[{low:.0f}-{high:.0f}], attacks {total}: landed {self.attacks['attacked']} "
                f"({self.landed:.0f}%), warded {self.attacks['attack_warded']}, missed "
                f"{self.attacks['attack_missed']}; median {median} spell phases")  # fmt: skip


def _counts(colours: Sequence[str]) -> str:
    each = 8 // len(colours)
    return "-".join(str(each if c in colours else 0) for c in COLOURS)


def tournament(sets: Sequence[tuple[str, ...]], rounds: int, level: str, seed: int,
               ends: Ends | None = None) -> dict[str, tuple[float, int]]:  # fmt: skip
    """Every ordered pair of disjoint colour sets, ``rounds`` seeds each, two seats of
    ``level`` bots; each colour's score (draws count half) and duels."""
    score: dict[str, float] = dict.fromkeys(COLOURS, 0.0)
    played: Counter[str] = Counter()
    config = {"rules": "magister", "supply": 16, "start": 0}
    for r in range(rounds):
        for a in sets:
            for b in sets:
                if set(a) & set(b):
                    continue
                duel = play(config, 2, seed + r, [level], (_counts(a), _counts(b)))
                if ends is not None:
                    ends.add(duel)
                for side, colours in ((0, a), (1, b)):
                    points = 0.5 if not duel.winners else float(duel.winners == (side,))
                    for c in colours:
                        score[c] += points
                        played[c] += 1
    return {c: (score[c], played[c]) for c in COLOURS}


def mono() -> list[tuple[str, ...]]:
    return [(c,) for c in COLOURS]


def duo() -> list[tuple[str, ...]]:
    return list(combinations(COLOURS, 2))


def report(games: int, seed: int, level: str, players: Sequence[int], rounds: int,
           duo_rounds: int) -> Iterator[str]:  # fmt: skip
    """The lines of the balance report, each as soon as its duels are played."""
    yield f"Felsenfeuer balance: {level} bots, magister rules, seeds from {seed}"
    for n in players:
        ends = Ends()
        for g in range(games):
            ends.add(play({"rules": "magister"}, n, seed + g, [level]))
        yield ends.line(f"{n} players (bots' own Auswahl)")
    for label, sets, r in (("mono-colour", mono(), rounds), ("two-colour", duo(), duo_rounds)):
        if r <= 0:
            continue
        ends = Ends()
        shares = tournament(sets, r, level, seed, ends)
        yield ends.line(f"{label} Auswahl tournament")
        for colour, (won, played) in shares.items():
            low, high = interval(won, played)
            rate = 100.0 * won / played if played else 0.0
            yield f"  {colour:<8} {rate:5.1f}% of {played} [{low:.0f}-{high:.0f}]"
