"""Telperinquár actions in words: button labels put the card first, the narration tells
sentences (who attacks whom with what), never a button label."""

from __future__ import annotations

from typing import Any

import pytest

from bot.narration.telperinquar import (
    Names,
    action_object,
    action_sentence,
    action_words,
    card_text,
    life_text,
    shorten,
    view_cards,
)
from bot.play.specs.telperinquar import TelperinquarSpec
from bot.render.telperinquar import ATTRIBUTE_COLOURS
from engines.telperinquar.cards import catalogue
from engines.telperinquar.engine import ENGINE
from tests.unit.test_telperinquar_engine import fresh, give, levels_to, main_phase, st


def names_for(d: dict[str, Any], lang: str) -> Names:
    view = ENGINE.view_for(st(d), None)
    cards = view_cards(view) | {c: i["name"] for c, i in d["cards"].items()}
    return Names(view, ["Alice", "Bob"], lang, cards, catalogue())


@pytest.mark.parametrize(
    ("lang", "take", "react", "attack", "answer"),
    [
        (
            "de",
            "Kettenhemd zurück auf die Hand nehmen",
            "Parade anwenden",
            "Alice lässt Wolf angreifen – Ziel: ",
            "Bob antwortet mit Parade.",
        ),
        (
            "en",
            "Take Chain Mail back into your hand",
            "Use Parry",
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


@pytest.mark.parametrize("lang", ["de", "en"])
def test_fumbles_and_wesen_deaths_are_told_plainly(lang: str) -> None:
    d = main_phase(fresh())
    wolf = give(d, 0, "Wolf", zone="row")
    names = names_for(d, lang)
    spec = TelperinquarSpec()
    fumble = spec._event("roll", {"die": 1, "bonus": -2, "target": "h1"}, 0, names)
    assert "= 0" not in fumble and ("Patzer: 0 Schaden" in fumble or "fumble: 0 damage" in fumble)
    counter = spec._event("counter", {"die": 1, "bonus": 2, "target": wolf}, 1, names)
    assert "+2" not in counter and "Wolf (Alice)" in counter
    died = {"player": 0, "card": "Wolf", "why": "wounded_twice"}
    text = spec._event("wesen_died", died, 1, names)
    assert "Wolf (Alice)" in text and ("Zugende" in text or "end of the turn" in text)


def test_shorten_cuts_at_a_word() -> None:
    text = "in deinen nächsten 2 Verteidigungen erhältst du einen Bonus"
    cut = shorten(text, 24)
    assert cut.endswith("…") and len(cut) <= 24 and cut[:-1] in text
    assert cut == "in deinen nächsten 2…"
    assert shorten("kurz", 24) == "kurz"


def test_seat_icons_follow_the_sides_of_the_image() -> None:
    spec = TelperinquarSpec()
    icons = [spec.seat_label(seat).split()[0] for seat in range(4)]
    assert icons == ["🟧", "🔵", "🟧", "🔵"]  # teams [0, 1, 0, 1], TEAM_COLOURS orange/blue


def test_attribute_colours_follow_the_rulebook() -> None:
    # "Blau = Kraft, Rot = Reflex, Lila = Geist, Hellbraun = Aura"
    def rgb(code: str) -> tuple[int, ...]:
        return tuple(int(code[i : i + 2], 16) for i in (1, 3, 5))

    r, g, b = rgb(ATTRIBUTE_COLOURS["kraft"])
    assert b > r and b > g
    r, g, b = rgb(ATTRIBUTE_COLOURS["reflexe"])
    assert r > g and r > b
    r, g, b = rgb(ATTRIBUTE_COLOURS["geist"])
    assert r > g and b > g
    r, g, b = rgb(ATTRIBUTE_COLOURS["aura"])
    assert r > g > b


def test_a_hero_below_zero_shows_zero_and_when_it_falls() -> None:
    de = life_text(-37, 25, False, "de")
    assert de.startswith("0/25 — fällt am Zugende, wenn nicht geheilt") and "-37" not in de
    assert "38" in de  # healing needed to be above 0 again
    assert life_text(-37, 25, False, "en").startswith("0/25 — falls at the end of the turn")
    assert life_text(12, 25, False, "de") == "12/25"
    assert life_text(-4, 25, True, "de") == "0/25"  # fallen: no warning any more


def test_unplayable_hand_cards_say_why() -> None:
    d = main_phase(fresh(("kaempfer", "schurke")))
    d["players"][0]["hand"], d["players"][0]["actions"] = [], 5
    levels_to(d, 0, 10)
    give(d, 0, "Zweihänder", "equip")
    shield = give(d, 0, "Turmschild")
    give(d, 0, "Kurzschwert")
    state = st(d)
    hand = ENGINE.view_for(state, 0)["players"][0]["hand"]
    assert hand[0]["why"] == {"key": "shield_beside_large"}
    legal = {str(a) for a in ENGINE.legal_actions(state, 0)}
    assert f"play {shield}" not in legal
    text = TelperinquarSpec().private_text(ENGINE.view_for(state, 0), "de")
    assert "Turmschild: kein Schild neben einer großen Waffe" in text
    d = main_phase(fresh(("geistlicher", "kaempfer")))
    d["players"][0]["hand"], d["players"][0]["actions"] = [], 5
    give(d, 0, "Streitkolben")
    text = TelperinquarSpec().private_text(ENGINE.view_for(st(d), 0), "de")
    assert "Streitkolben: braucht Kraft 3 (du: 2)" in text
    d["players"][0]["actions"] = 0
    give(d, 0, "Dolch")
    text = TelperinquarSpec().private_text(ENGINE.view_for(st(d), 0), "en")
    assert "Dagger: costs 1 ⚡ (you: 0)" in text
    assert ENGINE.view_for(st(d), 1)["players"][1]["hand"][0].get("why") is None  # not its turn


def test_one_card_names_its_type_in_the_singular() -> None:
    _title, text = card_text("Dolch", "de", catalogue())
    assert text.startswith("*Waffe*") and "Waffen" not in text.splitlines()[0]
    assert card_text("Dolch", "en", catalogue())[1].startswith("*Weapon*")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_narration_warns_when_a_hero_drops_to_zero(lang: str) -> None:
    from types import SimpleNamespace

    from bot.play.spec import Steps

    d = main_phase(fresh())
    dagger = give(d, 0, "Dolch", "equip")
    d["players"][1]["life"] = 3
    d["forced"] = [9, 1]
    state, events = ENGINE.apply(st(d), ENGINE.parse_action(f"use {dagger} h1"), 0)
    assert state.data["players"][1]["life"] <= 0 and not state.data["players"][1]["out"]
    ctx = SimpleNamespace(
        match=SimpleNamespace(state=state),
        record=SimpleNamespace(config={}),
        names=["Alice", "Bob"],
        lang=lang,
    )
    lines = TelperinquarSpec().narrate(Steps([(0, e) for e in events]), ctx)  # type: ignore[arg-type]
    warning = lines[-1]
    assert warning.startswith("⚠") and ("Zugende" in warning or "end of the turn" in warning)
