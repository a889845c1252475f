"""The balance report (issue 22): a small seeded sample; the figures themselves are in
RULES.md ("Balance"), measured with bigger runs."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.telperinquar.balance import built_deck, report, run, wilson
from engines.telperinquar.cards import CLASSES, catalogue
from engines.telperinquar.decks import parse_list, validate


def test_wilson_interval_holds_the_share() -> None:
    low, high = wilson(15, 20)
    assert 0.5 < low < 0.75 < high < 0.92
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


@pytest.mark.parametrize("cls", CLASSES)
def test_a_built_deck_is_legal_and_of_its_class(cls: str) -> None:
    text = built_deck(cls, 3)
    info = validate(parse_list(text), catalogue())
    assert info.legal, info.problems
    assert info.classes == (cls,)
    assert built_deck(cls, 3) == text  # seeded


def test_the_report_tells_rounds_levels_win_rates_and_cards() -> None:
    games = run(1, 5, ["normal", "normal"], "starter")
    assert len(games) == 6  # every pair of classes once
    assert all(g.rounds >= 2 and min(g.levels) >= 1 for g in games)
    lines = report(games, "sample")
    text = "\n".join(lines)
    for words in ("rounds: median", "hero levels", "level 8-10 cards laid", "overall"):
        assert words in text
    assert "most played:" in text and "least played:" in text
    assert [g.rounds for g in run(1, 5, ["normal", "normal"], "starter")] == [
        g.rounds for g in games
    ]  # the same seed plays the same duels


@pytest.mark.parametrize("cls", CLASSES)
def test_a_built_deck_holds_guards_protection_and_16_level_cards(cls: str) -> None:
    """Decks the bot builds (issue 22) are made like the starter decks: 16 level cards, Wesen
    that shield the hero without striking and passive protection (one copy of each)."""
    from engines.telperinquar.balance import _role
    from engines.telperinquar.cards import level_card_name

    counts = parse_list(built_deck(cls, 3)).counts()
    cat = catalogue()
    assert counts[level_card_name(cls)] == 16
    roles = Counter[str]()
    for name, n in counts.items():
        card = cat.support(name)
        if card is not None:
            roles[_role(card)] += n
    assert roles["guard"] >= 3 and roles["protect"] >= 1 and roles["weapon"] >= 1
    assert sum(roles.values()) == 23
    assert _role(cat.cards["Leibwache"]) == "guard" and _role(cat.cards["Wolf"]) == "wesen"
    assert _role(cat.cards["Abhärtung"]) == "protect"
