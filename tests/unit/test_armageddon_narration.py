"""Armageddon's words (``bot.narration.armageddon``) and its table plug-in
(``bot.play.specs.armageddon``): every event random games
produce is narrated in German and English from the catalog, every click option of every seat
gets a label, and the typing helpers (paths, zoomed regions, scenario files) read what a
person types and refuse the rest with a clear message."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.i18n import t
from bot.narration.armageddon import Words, event_line, narrate_events
from bot.play.specs.armageddon import (
    decision_text,
    option_label,
    overrule_text,
    path_completions,
    path_steps,
    scenario_config,
    zoom_region,
)
from engines.armageddon import ENGINE
from engines.armageddon.actions import Start, Step, parse_action, with_note
from engines.armageddon.scenario import load
from engines.core import BadInput
from engines.core import match as m
from engines.core.choices import ChoiceTree
from tests.armageddon_maps import random_scenario

NAMES = ["Greta", "Alice", "Bob", "Carol"]


def _played(
    config: dict[str, Any], seats: int, seed: int, steps: int
) -> list[tuple[int, Any, Any]]:
    """(actor, event, state after) of a random game in which the game master also overrules."""
    rng = random.Random(seed)
    state = ENGINE.initial_state(config, seed, seats)
    out = []
    for _step in range(steps):
        decisions = ENGINE.decisions(state)
        if not decisions:
            break
        deciding = [d for d in decisions if d.waits] or list(decisions)
        seat = rng.choice(deciding).seat
        if state.phase != "setup" and rng.random() < 0.08:
            seat = 0
        actions = list(ENGINE.legal_actions(state, seat))
        if not actions:
            continue
        moves = [a for a in actions if a.verb not in ("end", "done", "start")]
        action = rng.choice(moves if moves and rng.random() < 0.8 else actions)
        if action.verb == "gm":
            action = with_note(action, "eine Notiz")
        state, events = ENGINE.apply(state, action, seat)
        out += [(seat, event, state) for event in events]
    return out


@pytest.mark.parametrize(
    ("config", "seats"),
    [
        ({"scenario": "scharmuetzel"}, 3),
        ({"scenario": "belagerung"}, 3),
        ({"scenario": "flussuebergang"}, 4),
        ({"scenario_text": random_scenario(3, 3), "file": "zufall"}, 4),
    ],
)
def test_every_event_of_random_games_is_narrated_in_both_languages(
    config: dict[str, Any], seats: int
) -> None:
    kinds = set()
    for seed in range(3):
        for actor, event, state in _played(config, seats, seed, 400):
            view = ENGINE.view_for(state, None)
            for lang in ("de", "en"):
                line = event_line(event.type, event.data, Words(view, NAMES, lang), actor)
                assert not line.startswith("armageddoncog."), (event, line)
                assert "{" not in line and "None" not in line, (event, line)
            kinds.add(event.type)
    assert {"stepped", "movement_ended", "round_started"} <= kinds


def test_every_click_option_of_every_seat_has_a_label_and_a_question() -> None:
    for config, seats in (({"scenario": "belagerung"}, 3), ({"scenario": "flussuebergang"}, 4)):
        for _actor, _event, state in _played(config, seats, 1, 120)[::7]:
            view = ENGINE.view_for(state, None)
            words = Words(view, NAMES, "en")
            for decision in ENGINE.decisions(state):
                assert "{" not in decision_text(decision.prompt, decision.params, words)
                actions = ENGINE.legal_actions(state, decision.seat)
                tree = ChoiceTree(ENGINE, actions)
                for path in tree.paths:
                    for depth, token in enumerate(path):
                        label = option_label(token, path[:depth], words)
                        assert label and not label.startswith("armageddoncog."), (path, label)


def test_fields_show_their_room_and_figures_where_they_stand() -> None:
    state = ENGINE.initial_state({"scenario": "scharmuetzel"}, 0, 3)
    words = Words(ENGINE.view_for(state, None), NAMES, "de")
    assert option_label("a2", ("step", "k1"), words) == "a2 · Tiefland · 1/4 REH"
    assert option_label("k1", ("step",), words) == "Krieger k1 (a2)"
    assert option_label("1", ("place",), words) == "🟥 Alice (Partei 1)"
    assert option_label("gruen", ("colour", "1"), words) == "grün"
    english = Words(ENGINE.view_for(state, None), NAMES, "en")
    assert option_label("d3", ("step", "k3"), english) == "d3 · mountains · 0/3 room"
    assert option_label("no", ("face", "ph6"), english) == "north-east"


def test_a_path_is_a_figure_and_its_fields() -> None:
    assert path_steps("k3 c4 d4") == ["step k3 c4", "step k3 d4"]
    assert path_steps("step k3, c4") == ["step k3 c4"]
    assert path_steps("schritt k3 c4") == ["step k3 c4"]
    with pytest.raises(BadInput) as refused:
        path_steps("k3")
    assert refused.value.key == "armageddoncog.error.bad_path"


def test_path_completions_follow_the_legal_steps_of_the_path_so_far() -> None:
    match = m.start(ENGINE, {"scenario": "scharmuetzel"}, 0, 3)
    match, _events = m.apply(ENGINE, match, "start", 0)
    first = path_completions(match, 1, "k1 ")
    assert "k1 b2" in first and all(p.startswith("k1 ") for p in first)
    second = path_completions(match, 1, "k1 b2 ")
    assert second and all(p.startswith("k1 b2 ") for p in second)
    assert "k1 b2 a2" in second  # back again: the second step of the round
    assert path_completions(match, 1, "k1 b2 c2 ") == []  # no third step in a round
    assert path_completions(match, 2, "k1 ") == []  # not Bob's figure, not Bob's turn


def test_zoom_regions_name_fields_on_the_map() -> None:
    view = ENGINE.view_for(ENGINE.initial_state({"scenario": "scharmuetzel"}, 0, 3), None)
    assert zoom_region(view, "c3 e5", None, None) == ("c3", "e5")
    assert zoom_region(view, None, "d4", 1) == ("c3", "e5")
    assert zoom_region(view, None, "a1", 2) == ("a1", "c3")
    assert zoom_region(view, None, None, None) is None
    for bad in ("z9 a1", "c3"):
        with pytest.raises(BadInput):
            zoom_region(view, bad, None, None)
    with pytest.raises(BadInput):
        zoom_region(view, None, "q17", None)


def test_an_uploaded_scenario_is_checked_before_anything_starts() -> None:
    text, _file = load("scharmuetzel")
    assert scenario_config(None, ("meins.txt", text.encode()))["file"] == "meins.txt"
    assert scenario_config("belagerung", None) == {"scenario": "belagerung"}
    broken = text.replace("figur: 1 krieger a2", "figur: 1 ritter a2")
    with pytest.raises(BadInput) as refused:
        scenario_config(None, ("meins.txt", broken.encode()))
    message = t(refused.value.key, "en", **refused.value.params)
    line = text.splitlines().index("figur: 1 krieger a2") + 1
    assert f"line {line}" in message and "meins.txt" in message and "ritter" in message
    for upload, key in (
        (("x.txt", b"\xff\x00"), "armageddoncog.error.not_text"),
        (("x.txt", b"#" * 70_000), "armageddoncog.error.too_big"),
    ):
        with pytest.raises(BadInput) as refused:
            scenario_config(None, upload)
        assert refused.value.key == key
    with pytest.raises(BadInput) as both:
        scenario_config("belagerung", ("x.txt", text.encode()))
    assert both.value.key == "armageddoncog.error.two_sources"


def test_an_overrule_is_a_game_masters_action_with_a_note() -> None:
    assert overrule_text("remove k7", " vom  Pfeil ") == "gm remove k7 -- vom Pfeil"
    assert overrule_text("gm owner w3 2 -- alt", "neu") == "gm owner w3 2 -- neu"
    with pytest.raises(BadInput):
        overrule_text("gm", "x")
    with pytest.raises(BadInput):
        overrule_text("gm remove k7", "   ")


def test_an_overrule_typed_with_the_german_sl_is_not_given_a_second_gm() -> None:
    """RULES.md names `sl` (and `spielleitung`) the German `gm`: `/armageddon ueberstimmen
    aktion:sl zurueck` was sent as `gm sl zurueck` and refused as unreadable."""
    assert overrule_text("sl zurueck", "verklickt") == "gm zurueck -- verklickt"
    assert overrule_text("SL versetzen k3 c3", "x") == "gm versetzen k3 c3 -- x"
    assert overrule_text("Spielleitung entfernen k1", "x") == "gm entfernen k1 -- x"
    assert parse_action(overrule_text("sl zurueck", "verklickt")).args == ("undo",)
    with pytest.raises(BadInput):
        overrule_text("sl", "x")


def test_a_survival_throw_names_the_figure_that_throws() -> None:
    text = "parteien: 2\nkarte:\nT T T\nende\nfigur: 1 elefant a1\nfigur: 1 krieger a1 auf 1\n"
    text += "figur: 2 krieger b1\n" * 3
    state = ENGINE.apply(ENGINE.initial_state({"scenario_text": text}, 1, 3), Start(), 0)[0]
    state, events = ENGINE.apply(state, Step("e1", "b1"), 1)
    throw = next(e for e in events if e.type == "dice")
    view = ENGINE.view_for(state, None)
    german = event_line("dice", throw.data, Words(view, NAMES, "de"), 1)
    assert german.startswith("Trampeln: ") and f"für Krieger {throw.data['figure']} " in german
    # "würfelt für Krieger k23 2." read as if the 2 belonged to the name; told in its batch,
    # the thrower is not yet "(gefallen)" when it throws
    lines = narrate_events([(1, e) for e in events], Words(view, NAMES, "de"), lambda a, e: [])
    said = next(line for line in lines if line.startswith("Trampeln: "))
    assert said.endswith(f"für Krieger {throw.data['figure']} eine {throw.data['rolls'][0]}.")
    english = event_line("dice", throw.data, Words(view, NAMES, "en"), 1)
    assert f"for Warrior {throw.data['figure']}" in english


def test_a_spell_on_a_siege_tower_floor_names_the_floor() -> None:
    state = ENGINE.initial_state({"scenario": "scharmuetzel"}, 0, 3)
    view = ENGINE.view_for(state, None)
    assert option_label("c1/oben", ("cast", "z9", "laehmen"), Words(view, NAMES, "de")) == (
        "c1 Belagerungsturm oben"
    )
    assert Words(view, NAMES, "en").target("c1/unten") == "c1 siege tower below"


def test_the_game_masters_corrections_are_narrated_and_a_fallen_figure_is_named_fallen() -> None:
    text = "parteien: 2\nkarte:\nT T T\nende\nfigur: 1 krieger a1\nfigur: 2 krieger b1\n"
    state = ENGINE.apply(ENGINE.initial_state({"scenario_text": text}, 1, 3), Start(), 0)[0]
    state, removed = ENGINE.apply(state, ENGINE.parse_action("gm remove k2"), 0)
    view = ENGINE.view_for(state, None)
    de, en = Words(view, NAMES, "de"), Words(view, NAMES, "en")
    assert de.figure("k2") == "Krieger k2 (gefallen)" and en.figure("k2") == "Warrior k2 (fallen)"
    gone = next(e for e in removed if e.type == "removed")
    assert "(gefallen)" not in event_line("removed", gone.data, de, 0)  # it says so itself
    assert option_label("k2", ("gm", "restore"), de) == "Krieger k2 (gefallen auf b1)"
    assert option_label("restore", ("gm",), en) == "Bring a fallen figure back"
    state, noted = ENGINE.apply(state, ENGINE.parse_action("gm note -- vom Pfeil getroffen"), 0)
    line = event_line("gm_note", noted[0].data, de, 0)
    assert line == "📝 Spielleitung überstimmt (gm remove k2): vom Pfeil getroffen"
    state, back = ENGINE.apply(state, ENGINE.parse_action("gm restore k2"), 0)
    view = ENGINE.view_for(state, None)
    assert event_line("gm_restored", back[0].data, Words(view, NAMES, "de"), 0) == (
        "Die Spielleitung holt Krieger k2 von 🟦 Bob (Partei 2) zurück auf b1."
    )
    state = ENGINE.apply(state, ENGINE.parse_action("step k1 b1"), 1)[0]
    state, undone = ENGINE.apply(state, ENGINE.parse_action("gm undo"), 0)
    view = ENGINE.view_for(state, None)
    assert event_line("undone", undone[0].data, Words(view, NAMES, "en"), 0).startswith(
        "↩️ The game master takes back “Step: Warrior k1 → b1” of 🟥 Alice (party 1)"
    )


def test_a_figure_that_loses_an_attack_is_not_called_fallen_in_the_attack_line() -> None:
    """Narration by the moment: the attack line came before the fall, yet read "Krieger k1
    (gefallen) 2 + Wurf 2 = 4 … – Krieger k1 (gefallen) unterliegt" (seen in the playground)."""
    text = "parteien: 2\nkarte:\nT T T\nende\nfigur: 1 krieger a1\nfigur: 2 krieger b1\n"
    for seed in range(40):
        state = ENGINE.initial_state({"scenario_text": text}, seed, 3)
        state = ENGINE.apply(state, ENGINE.parse_action("start"), 0)[0]
        while state.phase == "move":
            state = ENGINE.apply(
                state, ENGINE.parse_action("end"), ENGINE.decisions(state)[0].seat
            )[0]
        seat = next(d.seat for d in ENGINE.decisions(state) if d.seat != 0)
        attacker, defender = ("k1", "k2") if seat == 1 else ("k2", "k1")
        state, events = ENGINE.apply(
            state, ENGINE.parse_action(f"attack {attacker} {defender}"), seat
        )
        if any(e.type == "removed" and e.data["figure"] == attacker for e in events):
            break
    else:
        raise AssertionError("no seed where the attacker loses")
    view = ENGINE.view_for(state, None)
    lines = narrate_events([(seat, e) for e in events], Words(view, NAMES, "de"), lambda a, e: [])
    fight = next(line for line in lines if line.startswith("Angriff"))
    assert "gefallen" not in fight and f"Krieger {attacker} unterliegt" in fight
    assert Words(view, NAMES, "de").figure(attacker) == f"Krieger {attacker} (gefallen)"


@pytest.mark.parametrize(
    ("edges", "karte", "de", "en"),
    [
        ("fluss: a1 o\n", "T T T\n", "Doppelschritt durch den Fluss",
         "a double step through the river"),
        ("", "T H1 T\n", "Doppelschritt bergauf oder bergab", "a double step uphill or downhill"),
        ("mauer: a1 o\n", "T T T\n", "Doppelschritt über die Mauer", "a double step over the wall"),
    ],
)  # fmt: skip
def test_two_steps_say_why(edges: str, karte: str, de: str, en: str) -> None:
    text = f"parteien: 2\nkarte:\n{karte}ende\n{edges}figur: 1 krieger a1\nfigur: 2 krieger c1\n"
    state = ENGINE.apply(ENGINE.initial_state({"scenario_text": text}, 1, 3), Start(), 0)[0]
    state, events = ENGINE.apply(state, Step("k1", "b1"), 1)
    view = ENGINE.view_for(state, None)
    german = event_line("stepped", events[0].data, Words(view, NAMES, "de"), 1)
    assert german.endswith(f"a1 → b1 (2 Schritte: {de}).")
    english = event_line("stepped", events[0].data, Words(view, NAMES, "en"), 1)
    assert english.endswith(f"a1 → b1 (2 steps: {en}).")


def test_a_stellung_keeps_the_case_of_its_name() -> None:
    state = ENGINE.initial_state({"scenario": "belagerung"}, 0, 3)
    view = ENGINE.view_for(state, None)
    de = Words(view, NAMES, "de")
    assert de.stellung("rabenburg") == "Rabenburg"
    assert option_label("rabenburg", ("siege",), de) == "Rabenburg"
    line = event_line("siege", {"player": 2, "stellung": "rabenburg"}, de, 2)
    assert line.endswith("erklärt den Belagerungszustand über Rabenburg.")
    assert ENGINE.action_text(ENGINE.parse_action("siege Rabenburg")) == "siege rabenburg"


def test_a_taken_back_action_is_said_in_words() -> None:
    state = ENGINE.initial_state({"scenario": "scharmuetzel"}, 0, 3)
    view = ENGINE.view_for(state, None)
    de = Words(view, NAMES, "de")
    assert de.action("step k1 a1") == "Schritt: Krieger k1 → a1"
    assert de.action("face ph6 no") == "Drehen: Phalanx ph6 → Nordosten"
    assert de.action("swap k1 k2+k3") == "Platztausch: Krieger k1 → Krieger k2 + Krieger k3"
