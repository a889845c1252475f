"""Telperinquár against its rulebook (issue 21): the hero as a target when nothing else is in
the attack's melee reach, hidden Wesen, Rundumschlag in the attacker's own Drohbereich,
magic counter-attacks, a dying Wesen's weapon, the EW, reactions to every action, and the
end of a game when both heroes fall."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.play.specs.telperinquar import SPEC
from engines.telperinquar.engine import ENGINE, targets
from tests.unit.test_telperinquar_engine import do, fresh, give, levels_to, main_phase, st


def legal(d: dict[str, Any], seat: int) -> list[str]:
    return [str(a) for a in ENGINE.legal_actions(st(d), seat)]


def pass_all(d: dict[str, Any]) -> dict[str, Any]:
    while d["ask"] is not None:
        d, _ = do(d, d["ask"], "pass")
    return d


def test_the_hero_is_a_target_when_nothing_else_is_in_melee_reach() -> None:
    """Four own Wolves, one enemy Wolf at place 1: the fourth Wolf reaches no Wesen, so it
    may attack the hero ("Falls außer dem Helden kein weiteres Ziel in Nahkampfreichweite
    eines Angriffes ist, kann der Held als Ziel gewählt werden")."""
    d = main_phase(fresh())
    wolves = [give(d, 0, "Wolf", "row") for _ in range(4)]
    enemy = give(d, 1, "Wolf", "row")
    assert targets(st(d), wolves[0], "melee", 0) == [enemy]
    assert targets(st(d), wolves[1], "melee", 0) == [enemy]
    assert targets(st(d), wolves[2], "melee", 0) == ["h1"]
    assert targets(st(d), wolves[3], "melee", 0) == ["h1"]
    assert f"use {wolves[3]} h1" in legal(d, 0)
    assert f"use {wolves[0]} h1" not in legal(d, 0)  # the enemy Wolf stands in its reach
    # a hero reaches every Wesen: the enemy Wolf still protects its hero against it
    assert "h1" not in targets(st(d), "h0", "melee", 0)


def _ctx(d: dict[str, Any], lang: str) -> Any:
    return SimpleNamespace(lang=lang, names=["Alice", "Bob"], match=SimpleNamespace(state=st(d)))


def test_both_heroes_falling_in_one_turn_is_a_draw_said_as_such() -> None:
    d = main_phase(fresh())
    d["players"][0]["life"] = -3
    d["players"][1]["life"] = 0
    d, events = do(d, 0, "next")
    outcome = ENGINE.outcome(st(d))
    assert outcome is not None and outcome.is_draw and outcome.reason == "both_fell"
    assert [e.data["player"] for e in events if e.type == "hero_fell"] == [0, 1]
    de = SPEC.outcome_text(outcome, _ctx(d, "de"))
    assert "im selben Zug gefallen" in de and "Rundengrenze" not in de
    assert "fell in the same turn" in SPEC.outcome_text(outcome, _ctx(d, "en"))


def test_the_round_limit_ends_the_game_after_its_last_round() -> None:
    d = fresh(round_limit=2)
    state = st(d)
    while ENGINE.outcome(state) is None:
        (decision,) = ENGINE.decisions(state)
        legal = [str(a) for a in ENGINE.legal_actions(state, decision.seat)]
        word = next(w for w in ("go", "pass", "next", "end") if w in legal)
        state, _ = ENGINE.apply(state, ENGINE.parse_action(word), decision.seat)
    d = ENGINE.state_to_json(state)
    assert d["turns"] == 4  # two rounds of two turns
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.is_draw and outcome.reason == "round_limit"
    assert "Rundengrenze ist erreicht (Runde 2 von 2 gespielt)" in SPEC.outcome_text(
        outcome, _ctx(d, "de")
    )
    assert "round limit is reached (round 2 of 2 played)" in SPEC.outcome_text(
        outcome, _ctx(d, "en")
    )
    # seen in the playground with `runden:1`: "die Rundengrenze von 1 Runden" and a footer
    # "Runde 2/1" under the end (the state counts the round that was never played)
    view = ENGINE.view_for(state, None)
    assert SPEC.field_footer(view, _ctx(d, "de")).startswith("Runde 2/2 ")
    assert "1 Runden" not in SPEC.outcome_text(outcome, _ctx({**d, "round_limit": 1}, "de"))


def test_rundumschlag_hits_everything_in_the_attackers_own_drohbereich() -> None:
    """An Oger at place 3 reaches places 2-4: attacking the Wolf at place 2 it hits the
    Wolves at places 2 and 3 (its own Drohbereich), not the target's neighbour at place 1
    nor the Wolf at place 5; the Falke at place 4 flies (hit only when attacked directly);
    only the target strikes back."""
    d = main_phase(fresh())
    levels_to(d, 0, 6)
    give(d, 0, "Wolf", "row")
    give(d, 0, "Wolf", "row")
    ogre = give(d, 0, "Oger", "row")
    a, b, c, e = (give(d, 1, "Wolf", "row") for _ in range(4))
    bat = give(d, 1, "Falke", "row")
    d["players"][1]["row"] = [a, b, c, bat, e]
    d["forced"] = [3, 2]  # 3 + 4 = 7 against every Wolf (life 8); the counter: 2 + 1
    d, events = do(d, 0, f"use {ogre} {b}")
    d = pass_all(d)
    hit = [e_.data["target"] for e_ in events if e_.type == "damage"]
    assert hit[:2] == [b, c] and a not in hit and bat not in hit and e not in hit
    assert d["cards"][b]["dmg"] == 7 and d["cards"][c]["dmg"] == 7
    assert "dmg" not in d["cards"][a]
    assert sum(1 for e_ in events if e_.type == "counter") == 1


def test_a_hero_countering_with_a_magic_melee_weapon_deals_magic_damage() -> None:
    """The Runenklinge (+2, magic melee) strikes back with magic damage: the Steingolem's
    Rüstung 2 does not count, its Resistenz 0 does."""
    d = main_phase(fresh(), seat=1)
    levels_to(d, 0, 6)
    levels_to(d, 1, 10)
    give(d, 0, "Runenklinge", "equip")
    golem = give(d, 1, "Steingolem", "row")
    d["forced"] = [1, 5]  # the golem fumbles; the counter: 5 + 2 = 7 magic
    d, _ = do(d, 1, f"use {golem} h0")
    d = pass_all(d)
    assert d["cards"][golem]["dmg"] == 7


def test_a_wesen_killed_by_an_attack_counters_with_the_weapon_it_carried() -> None:
    """The Knappe (+1) carries a Langschwert (+3) and dies of the attack; its counter-attack
    is still owed ("steht dieser dennoch zu") and strikes with the sword: 6 + 1 + 3."""
    d = main_phase(fresh(), seat=1)
    levels_to(d, 0, 5)
    squire = give(d, 0, "Knappe", "row")
    sword = give(d, 0, "Langschwert", "equip", bearer=squire)
    dagger = give(d, 1, "Dolch", "equip")
    d["forced"] = [10, 6]  # a critical 10 + 1 = 11 kills the Knappe (life 10)
    d, events = do(d, 1, f"use {dagger} {squire}")
    d = pass_all(d)
    assert squire in d["players"][0]["discard"] and sword in d["players"][0]["discard"]
    counter = next(e for e in events if e.type == "counter")
    assert counter.data["bonus"] == 1 + 3
    assert d["players"][1]["life"] == 20 - 10


def test_a_hidden_wesen_is_turned_up_to_attack() -> None:
    d = main_phase(fresh(("schurke", "kaempfer")))
    levels_to(d, 0, 4)
    cat = give(d, 0, "Schattenkatze", "row", hidden=True)
    assert f"use {cat} h1" in legal(d, 0)
    view = ENGINE.view_for(st(d), 1)
    assert view["players"][0]["row"] == [{"id": cat, "hidden": True}]  # unknown until then
    d["forced"] = [6, 1]
    d, _ = do(d, 0, f"use {cat} h1")
    d = pass_all(d)
    assert "hidden" not in d["cards"][cat]
    assert ENGINE.view_for(st(d), 1)["players"][0]["row"][0]["name"] == "Schattenkatze"
    assert d["players"][1]["life"] == 20 - 7


def test_a_hidden_card_answers_a_ranged_attack_on_its_hero() -> None:
    """Its hero attacked at range (the hidden card is no target, so the hero is), the
    attacked player may turn the hidden card up: a Wesen takes the attack, a trap springs."""
    d = main_phase(fresh(("schurke", "kaempfer")))
    levels_to(d, 0, 4)
    bow = give(d, 0, "Kurzbogen", "equip")
    cat = give(d, 1, "Schattenkatze", "row", hidden=True)
    d, _ = do(d, 0, f"use {bow} h1")
    assert d["ask"] == 1 and f"reveal {cat}" in legal(d, 1)
    d["forced"] = [5, 9]  # 5 + 1 = 6 on the cat (Schattenhaftigkeit: a 9 does not save it)
    d, _ = do(d, 1, f"reveal {cat}")
    d = pass_all(d)
    assert d["players"][1]["life"] == 20
    assert cat in d["players"][1]["discard"]


def test_an_ew_needs_more_than_the_value_w20_plus_the_level() -> None:
    """Glossary "EW oder Erfolgswurf": W20 + the roller's level must be higher than the value.
    Kampfschrei: an EW against 15; a level-5 hero rolling 10 reaches 15 and fails, rolling 11
    succeeds and its next attack gets +3."""
    d = main_phase(fresh())
    levels_to(d, 0, 5)
    shout = give(d, 0, "Kampfschrei", "field")
    d["forced"] = [10]
    d, events = do(d, 0, f"use {shout}")
    ew = next(e for e in events if e.type == "ew")
    assert ew.data == {"player": 0, "die": 10, "level": 5, "value": 15, "success": False}
    assert d["players"][0]["mods"] == []
    d["cards"][shout].pop("inaktion", None)
    d["forced"] = [11]
    d, events = do(d, 0, f"use {shout}")
    assert next(e for e in events if e.type == "ew").data["success"] is True
    assert d["players"][0]["mods"] == [{"stat": "bonus", "amount": 3, "until": "attack"}]


def test_an_ew_against_the_targets_highest_attribute() -> None:
    """Bannblick: an EW against the target's highest attribute (the glossary's example); the
    damage follows only when it succeeds. The level-1 Kämpfer's highest is Kraft 3."""
    d = main_phase(fresh(("zauberer", "kaempfer")))
    levels_to(d, 0, 2)
    gaze = give(d, 0, "Bannblick", "field")
    d["forced"] = [1]  # 1 + 2 = 3: not higher than 3
    d, events = do(d, 0, f"use {gaze} h1")
    d = pass_all(d)
    assert next(e for e in events if e.type == "ew").data["value"] == 3
    assert d["players"][1]["life"] == 20
    d["cards"][gaze].pop("inaktion")  # a new round: attack spells are InAktion
    d["forced"] = [2, 4]  # 2 + 2 = 4 > 3; 1W6 = 4, + 2 magic damage
    d, events = do(d, 0, f"use {gaze} h1")
    d = pass_all(d)
    assert d["players"][1]["life"] == 20 - 6


def _narrated(d: dict[str, Any], events: list[Any], lang: str) -> list[str]:
    from bot.play.spec import BoardContext, Steps

    record = SimpleNamespace(config={}, players=[1, 2], status="active", id=1)
    match = SimpleNamespace(state=st(d))
    ctx = BoardContext(record, match, ["Alice", "Bob"], lang, -1)  # type: ignore[arg-type]
    return SPEC.narrate(Steps([(0, e) for e in events]), ctx)


def test_an_ew_is_told_with_its_sum_and_what_it_had_to_beat() -> None:
    d = main_phase(fresh())
    levels_to(d, 0, 5)
    shout = give(d, 0, "Kampfschrei", "field")
    d["forced"] = [10]
    d, events = do(d, 0, f"use {shout}")
    de = "\n".join(_narrated(d, events, "de"))
    assert "EW von Alice: 10 + Stufe 5 = 15 gegen 15 – misslungen" in de
    en = "\n".join(_narrated(d, events, "en"))
    assert "Alice's success roll: 10 + level 5 = 15 against 15 – it fails" in en


def test_laying_a_card_may_be_answered_like_any_action() -> None:
    """ "Auf diese Aktion kann ein anderer Spieler, wie bei jeder Aktion, reagieren": Bob may
    answer Alice laying a Wolf with his Heiltrank (defensive); the Wolf is laid all the
    same."""
    d = main_phase(fresh())
    potion = give(d, 1, "Heiltrank", "equip", charges=1)
    d["players"][1]["life"] = 10
    wolf = give(d, 0, "Wolf")
    d, _ = do(d, 0, f"play {wolf}")
    assert d["ask"] == 1 and f"react {potion}" in legal(d, 1)
    assert wolf in d["players"][0]["row"]
    d["forced"] = [6]
    d, events = do(d, 1, f"react {potion}")
    d = pass_all(d)
    assert d["players"][1]["life"] == 10 + 8
    assert d["stack"] == [] and d["ask"] is None and wolf in d["players"][0]["row"]
    assert not any(e.type == "lapsed" for e in events)
    # nobody who could answer: nobody is asked
    d = main_phase(d)
    other = give(d, 0, "Wolf")
    d, _ = do(d, 0, f"play {other}")
    assert d["ask"] is None and d["stack"] == []


def test_the_start_of_turn_draw_is_told_and_the_pool_is_refreshed_in_the_einstiegsphase() -> None:
    """ "Spieler 1 beginnt seinen Zug, indem er eine Karte ... zieht": the draw at the start
    of a turn is an event like the one at its end; the Einstiegsphase shows the refreshed
    Aktionspool (the old one lapses with the new turn)."""
    d = main_phase(fresh())
    d["players"][1]["actions"] = 0
    give(d, 1, "Stufenkarte Schurke", level="schurke")  # the Einstiegsphase waits for it
    hand = len(d["players"][1]["hand"])
    d, events = do(d, 0, "next")
    assert d["phase"] == "entry" and d["cur"] == d["order"].index(1)
    assert [e.data["player"] for e in events if e.type == "drew"] == [0, 1]
    assert len(d["players"][1]["hand"]) == hand + 1
    assert d["players"][1]["actions"] == 3  # the level-1 pool, before the level is laid
    assert ENGINE.view_for(st(d), 0)["players"][1]["actions"] == 3
    d, _ = do(d, 1, "go")
    assert d["players"][1]["actions"] == 3 and d["phase"] == "main"


def test_the_public_log_speaks_of_the_players_in_the_third_person() -> None:
    """A card used on its own hero is told with its effect as the steps say it ("Nächster
    Angriff +2."), not with the card text that addresses its owner ("deines Helden"); and
    the button to answer with a card says "anwenden" (the card is used, not laid)."""
    import re

    from bot.narration.telperinquar import Names, action_sentence, action_words, view_cards
    from engines.telperinquar.cards import builtin_cards, catalogue

    d = main_phase(fresh())
    rage = give(d, 0, "Kampfrausch", "field")
    parry = give(d, 1, "Parade", "equip")
    second = re.compile(r"\b(du|dein\w*|dich|dir|you|your)\b", re.IGNORECASE)
    for lang in ("de", "en"):
        view = ENGINE.view_for(st(d), None)
        names = Names(view, ["Alice", "Bob"], lang, view_cards(view), catalogue())
        said = action_sentence(["use", rage], names, 0)
        assert said in ("Alice setzt Kampfrausch ein: Nächster Angriff +2.",
                        "Alice uses Battle Frenzy: Next attack +2.")  # fmt: skip
        assert action_words(["react", parry], names, None) in (
            "Parade anwenden",
            "Use Parry",
        )
    for card in builtin_cards():  # every effect the log may tell is in the third person
        for step in card.steps:
            for text in (step.get("text_de", ""), step.get("text_en", "")):
                assert not second.search(text), (card.name, text)


def test_a_seat_without_a_deck_beside_a_drafted_deck_gets_a_draft_deck() -> None:
    """Whatever seats the bot (the start command, an invitation filled with the bot, the
    playground): a seat that chose no deck plays a draft deck of its own when another seat
    plays a drafted one, the same for the same seed."""
    from engines.telperinquar.cards import DRAFT
    from tests.unit.test_generic_kit import TQ_DRAFT_DECK

    config = {"seat_choices": [TQ_DRAFT_DECK, None]}
    first = ENGINE.initial_state(config, 11, 2).data
    assert [p["classes"] for p in first["players"]] == [[DRAFT], [DRAFT]]
    assert ENGINE.initial_state(config, 11, 2).data == first
    assert len(first["players"][1]["hand"]) + len(first["players"][1]["deck"]) == 39 - 1


def test_the_bot_keeps_its_healing_potion_when_a_laid_card_is_no_threat() -> None:
    """Asked about a laid Wolf at full life, the bot passes (a healing answer would be
    wasted); hurt, it drinks."""
    import random

    d = main_phase(fresh())
    d["players"][1]["life"] = 40  # full life
    give(d, 1, "Heiltrank", "equip", charges=1)
    wolf = give(d, 0, "Wolf")
    d, _ = do(d, 0, f"play {wolf}")
    assert d["ask"] == 1
    chosen = ENGINE.choose_action(st(d), 1, "normal", 1.0, random.Random(1))
    assert str(chosen) == "pass"
    d["players"][1]["life"] = 9
    chosen = ENGINE.choose_action(st(d), 1, "normal", 1.0, random.Random(1))
    assert str(chosen).startswith("react ")


def test_langfinger_rolls_against_an_enemy_hero_only() -> None:
    """A Wesen without printed attributes has 0 to roll against: Langfinger aims at an enemy
    hero (it is no attack: the Wesen before the hero do not shield it)."""
    d = main_phase(fresh(("schurke", "kaempfer")))
    levels_to(d, 0, 4)
    fingers = give(d, 0, "Langfinger", "field")
    give(d, 1, "Wolf", "row")
    assert [a for a in legal(d, 0) if a.startswith(f"use {fingers}")] == [f"use {fingers} h1"]
    d["forced"] = [1]  # 1 + 4 = 5 against the level-1 Kämpfer's Reflexe 2: drawn
    hand = len(d["players"][0]["hand"])
    d, _ = do(d, 0, f"use {fingers} h1")
    d = pass_all(d)
    assert len(d["players"][0]["hand"]) == hand + 2


def test_the_question_about_a_laid_card_says_it_is_being_laid() -> None:
    from bot.narration.telperinquar import Names, action_object, view_cards
    from engines.telperinquar.cards import catalogue

    d = main_phase(fresh())
    wolf = give(d, 0, "Wolf", "row")
    sword = give(d, 0, "Langschwert", "equip")
    squire = give(d, 0, "Knappe", "row")
    said = {}
    for lang in ("de", "en"):
        view = ENGINE.view_for(st(d), None)
        names = Names(view, ["Alice", "Bob"], lang, view_cards(view), catalogue())
        said[lang] = (
            action_object(["play", wolf], names),
            action_object(["arm", sword, squire], names),
        )
    assert said["de"] == ("Wolf (wird ausgelegt)", "Langschwert → Knappe (Alice)")
    assert said["en"] == ("Wolf (being laid)", "Long Sword → Squire (Alice)")
