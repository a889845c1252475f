"""Every engine, registered in one line, passes the generic random-simulation kit."""

from __future__ import annotations

import pytest

import engines.all  # noqa: F401  (registers every engine)
import tests.party  # noqa: F401  (the N-player test engine)
from tests.armageddon_maps import random_scenario
from tests.kit import KitCase, check_case

CASES: list[KitCase] = [
    KitCase("essence", {"variants": []}, seeds=10),
    KitCase("essence", {"variants": ["bestimmt"]}, seeds=6),
    KitCase("essence", {"variants": ["schleife"]}, seeds=6),
    KitCase("essence", {"variants": ["beschwoerung"]}, seeds=6),
    KitCase("essence", {"variants": ["bestimmt", "schleife"]}, seeds=6),
    KitCase("essence", {"variants": ["bestimmt", "beschwoerung"]}, seeds=6),
    KitCase("essence", {"variants": ["schleife", "beschwoerung"]}, seeds=6),
    KitCase("essence", {"variants": ["bestimmt", "schleife", "beschwoerung"]}, seeds=6),
    KitCase("essence", {"variants": [], "quick": True}, seeds=6),
    KitCase(
        "essence", {"variants": ["bestimmt", "schleife", "beschwoerung"], "quick": True}, seeds=6
    ),
    KitCase("party-test", {}, players=2, seeds=20),
    KitCase("party-test", {"hand": 4}, players=3, seeds=20),
    KitCase("party-test", {"hand": 2}, players=4, seeds=20),
    KitCase("party-test", {"teams": [0, 1, 0, 1]}, players=4, seeds=20),
    KitCase("party-test", {"teams": [0, 0, 1], "seat_choices": ["red", None, "gold"]}, players=3),
    # Armageddon: seat 0 is the game master; shipped scenarios and random maps, two rounds
    KitCase("armageddon", {"scenario": "scharmuetzel", "rounds": 2}, players=3, seeds=3),
    KitCase("armageddon", {"scenario": "belagerung", "rounds": 2}, players=3, seeds=2),
    KitCase(
        "armageddon",
        {"scenario": "flussuebergang", "rounds": 2, "teams": [9, 0, 1, 0]},
        players=4,
        seeds=2,
    ),
    *(
        KitCase(
            "armageddon",
            {"scenario_text": random_scenario(s, 2 + s % 2), "rounds": 2},
            players=3 + s % 2,
            seeds=2,
        )
        for s in range(3)
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_random_games_keep_the_contract(case: KitCase) -> None:
    check_case(case)
