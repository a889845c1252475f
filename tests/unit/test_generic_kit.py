"""Every engine, registered in one line, passes the generic random-simulation kit."""

from __future__ import annotations

import random

import pytest

import engines.all  # noqa: F401  (registers every engine)
import tests.party  # noqa: F401  (the N-player test engine)
from tests.armageddon_maps import random_scenario
from tests.kit import KitCase, check_case
from tests.unit.test_w6_random import random_config as w6_config

# a drafted deck: the draft hero, its level cards and picks of every class
TQ_DRAFT_DECK = (
    "1 Draft-Held\n10 Stufenkarte Draft-Held\n2 Knappe\n2 Langschwert\n2 Kettenhemd\n"
    "2 Feuerpfeil\n2 Wolf\n2 Falke\n2 Greif\n2 Heiltrank\n2 Parade\n2 Zweihänder\n"
    "2 Plattenpanzer\n2 Hinterhalt\n2 Fallgrube\n2 Magierstab\n3 Buckler\n"
)

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
    KitCase("felsenfeuer", {"phase_limit": 12}, players=2, seeds=6),
    KitCase("felsenfeuer", {"rules": "magister", "phase_limit": 10}, players=2, seeds=5),
    KitCase("felsenfeuer", {"auswahl": "draft", "phase_limit": 8}, players=3, seeds=3),
    KitCase("felsenfeuer", {"weltentor": True, "phase_limit": 8}, players=2, seeds=3),
    KitCase("felsenfeuer", {"wuerfeln": "glyphen", "erdbeben": True, "phase_limit": 8}, seeds=3),
    KitCase("felsenfeuer", {"teams": [0, 1, 0, 1], "phase_limit": 8}, players=4, seeds=3),
    KitCase("felsenfeuer", {"mode": "pentagramm", "phase_limit": 6}, players=5, seeds=2),
    KitCase("felsenfeuer", {"teams": [0, 1, 2, 0, 1, 2], "phase_limit": 4}, players=6, seeds=1),
    KitCase(
        "felsenfeuer", {"mode": "gilde", "rules": "magister", "phase_limit": 5}, players=6, seeds=2
    ),
    KitCase("telperinquar", {"turn_limit": 50}, players=2, seeds=4),
    KitCase("telperinquar", {"mode": "2v2", "turn_limit": 30}, players=4, seeds=2),
    KitCase(
        "telperinquar",
        {"decks": ["zauberer", "geistlicher"], "svo": True, "turn_limit": 40},
        players=2,
        seeds=2,
    ),
    KitCase(
        "telperinquar",
        {"decks": [TQ_DRAFT_DECK, TQ_DRAFT_DECK], "turn_limit": 40},
        players=2,
        seeds=2,
    ),
    KitCase("telperinquar-draft", {"booster": 4, "rounds": 2}, players=2, seeds=3),
    KitCase("telperinquar-draft", {"booster": 5}, players=3, seeds=2),
    KitCase("telperinquar-draft", {"booster": 3, "rounds": 1}, players=8, seeds=1),
    KitCase("party-test", {}, players=2, seeds=20),
    KitCase("party-test", {"hand": 4}, players=3, seeds=20),
    KitCase("party-test", {"hand": 2}, players=4, seeds=20),
    KitCase("party-test", {"teams": [0, 1, 0, 1]}, players=4, seeds=20),
    KitCase("party-test", {"teams": [0, 0, 1], "seat_choices": ["red", None, "gold"]}, players=3),
    *(KitCase("w6combat", w6_config(random.Random(n)), players=1, seeds=3) for n in range(4)),
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
