"""The balance report (python -m engines.felsenfeuer balance): a seeded handful of bot duels,
how they end, the attacks that landed and each colour's win rate with its 95 % interval. The
big runs are for the report in RULES.md; here a few duels check that it counts right."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest

from engines.felsenfeuer.balance import (
    ATTACK_EVENTS,
    RULEBOOK_ENDS,
    Duel,
    Ends,
    interval,
    play,
    tournament,
)
from engines.felsenfeuer.model import COLOURS


def test_wilson_intervals() -> None:
    assert interval(0, 0) == (0.0, 100.0)
    low, high = interval(5, 10)
    assert low == pytest.approx(23.7, abs=0.1) and high == pytest.approx(76.3, abs=0.1)
    low, high = interval(10, 10)
    assert high == 100.0 and low == pytest.approx(72.2, abs=0.1)


def test_ends_count_the_rulebooks_end_and_the_attacks_that_landed() -> None:
    ends = Ends()
    ends.add(Duel("eliminated", (0,), 7, attacks=Counter(attacked=3, attack_warded=1)))
    ends.add(Duel("exhausted", (), 60, attacks=Counter(attack_warded=4)))
    assert ends.duels == 2 and ends.by_rules == 1
    assert ends.landed == pytest.approx(37.5)
    assert "50% end by the rules" in ends.line("x") and "landed 3 (38%)" in ends.line("x")


def test_a_seeded_duel_ends_and_reproduces() -> None:
    first = play({"rules": "magister"}, 2, 3, ["normal"])
    again = play({"rules": "magister"}, 2, 3, ["normal"])
    assert first == again
    assert first.reason in (*RULEBOOK_ENDS, "exhausted") and first.phases > 0
    assert set(first.attacks) <= set(ATTACK_EVENTS) and sum(first.attacks.values()) > 0


def test_a_one_colour_tournament_scores_every_colour() -> None:
    ends = Ends()
    shares = tournament([("rot",), ("schwarz",)], 1, "normal", 0, ends)
    assert ends.duels == 2  # rot against schwarz, both seatings
    assert shares["rot"][1] == shares["schwarz"][1] == 2
    assert shares["rot"][0] + shares["schwarz"][0] == 2.0  # a draw gives each half
    assert all(shares[c] == (0.0, 0) for c in COLOURS if c not in ("rot", "schwarz"))


def test_the_command_prints_the_report() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engines.felsenfeuer", "balance", "--games", "1", "--players",
         "2", "--levels", "normal", "--rounds", "0", "--duo-rounds", "0", "--seed", "4"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "2 players (bots' own Auswahl): 1 duels" in done.stdout
