"""Telperinquár actions in words: button labels put the card first, the narration tells
sentences (who attacks whom with what), never a button label."""

from __future__ import annotations

from typing import Any

import pytest

from bot.narration.telperinquar import (
    _Names,
    _view_cards,
    action_object,
    action_sentence,
    action_words,
    shorten,
)
from engines.telperinquar.cards import catalogue
from engines.telperinquar.engine import ENGINE
from tests.unit.test_telperinquar_engine import fresh, give, main_phase, st


def names_for(d: dict[str, Any], lang: str) -> _Names:
    view = ENGINE.view_for(st(d), None)
    cards = _view_cards(view) | {c: i["name"] for c, i in d["cards"].items()}
    return _Names(view, ["Alice", "Bob"], lang, cards, catalogue())


@pytest.mark.parametrize(
    ("lang", "take", "react", "attack", "answer"),
    [
        (
            "de",
            "Kettenhemd zurück auf die Hand",
            "Parade spielen",
            "Alice lässt Wolf angreifen – Ziel: ",
            "Bob antwortet mit Parade.",
        ),
        (
            "en",
            "Take Chain Mail back to the hand",
            "Play Parry",
            "Alice sends Wolf to attack – target: ",
            "Bob answers with Parry.",
        ),
    ],
)
def test_labels_put_the_card_first_and_narration_tells_sentences(
    lang: str, take: str, react: str, attack: str, answer: str
) -> None:
    d = main_phase(fresh())
    mail = give(d, 0, "Kettenhemd", zone="equip")
    parry = give(d, 1, "Parade", zone="equip")
    wolf = give(d, 0, "Wolf", zone="row")
    rage = give(d, 0, "Kampfrausch", zone="field")
    names = names_for(d, lang)
    assert action_words(["take", mail], names, None) == take
    assert action_words(["react", parry], names, None) == react
    said = action_sentence(["use", wolf, "h1"], names, 0)
    assert said.startswith(attack) and "Bob" in said
    assert action_sentence(["react", parry], names, 1) == answer
    rage_text = action_sentence(["use", rage], names, 0)
    assert rage_text.startswith("Alice ") and ":" in rage_text  # with the card's effect
    assert action_object(["use", wolf, "h1"], names).startswith("Wolf → ")


def test_shorten_cuts_at_a_word() -> None:
    text = "in deinen nächsten 2 Verteidigungen erhältst du einen Bonus"
    cut = shorten(text, 24)
    assert cut.endswith("…") and len(cut) <= 24 and cut[:-1] in text
    assert cut == "in deinen nächsten 2…"
    assert shorten("kurz", 24) == "kurz"
