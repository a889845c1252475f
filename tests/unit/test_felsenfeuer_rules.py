"""Felsenfeuer read against the rulebook (issue 21): the Spruchrune and the Duellplatz, spells
that do what their sentences say in their order, blood magic that does nothing, the setup
settings, the scenarios of Teil 3 and the narration of a batch of events."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from bot.i18n import t
from bot.render import felsenfeuer_text as words
from engines.core import match as m
from engines.felsenfeuer import verbs
from engines.felsenfeuer.actions import Auswahl, Blut, Draft, Ende, Lege, Wahl
from engines.felsenfeuer.engine import ENGINE, knock_out, legal, settle
from engines.felsenfeuer.model import Entry, Mod, State
from engines.felsenfeuer.scenario import answer, answer_rest, build, cast
from engines.felsenfeuer.spells import load_text, spellbook
from engines.felsenfeuer.work import Work

OWN_SPELL = """
[[spell]]
name = "Leerer Griff"
colour = "rot"
pips = 3
text_de = "Nimm die Spruchrune auf deine Hand. Greife jeden Gegner an."
text_en = "Take the spell rune onto your hand. Attack every opponent."
[[spell.step]]
text_de = "Nimm die Spruchrune auf deine Hand."
text_en = "Take the spell rune onto your hand."
do = "take_to_hand"
target = "spruchrune"
[[spell.step]]
text_de = "Greife jeden Gegner an."
text_en = "Attack every opponent."
do = "attack"
[spell.test]
expect = {"d0.zone" = "hand", "essence.1" = 9}
"""


def essence(state: State, seat: int) -> int:
    return sum(d.pips for d in state.dice if d.owner == seat and d.zone == "essence")


def passes(state: State) -> State:
    for _ in range(state.settings.players - len(state.out)):
        state, _ = ENGINE.apply(state, Ende(), state.stone)
    return state


# --- the Spruchrune and the Duellplatz (Teil 1 "Spruchrune", Teil 2 "Duellplatz") ---------------
def test_a_spruchrune_laid_again_from_the_hand_is_a_fresh_glyph() -> None:
    """Leere Worte takes the Spruchrune to hand; laid again it is a glyph like any other: the
    board no longer marks it and the Duellplatz does not hang on it."""
    state = build(["0 violett rune 1", "0 rot essence 6", "1 rot essence 6", "1 grau hand"])
    state, _ = cast(state, "leere-worte", 0, 0)
    state = answer_rest(state)
    assert state.dice[0].zone == "hand" and state.spell_rune == -1
    state = replace(state, stone=0)
    state, _ = ENGINE.apply(state, Lege("violett", 4, 0), 0)
    view = ENGINE.view_for(state, None)
    assert not view["dice"][0]["spruchrune"] and view["spell_rune"] is None
    assert view["duellplatz"] == 0  # the last trigger's Duellplatz stands between spells


def test_no_duellplatz_only_for_the_rest_of_the_spell() -> None:
    """A spell that takes its Spruchrune to hand attacks into nothing (no Duellplatz for its
    following effects); once it ended, the last trigger's Duellplatz stands again."""
    state = build(["0 rot rune 3", "0 rot essence 6", "1 schwarz essence 6"], spells=OWN_SPELL)
    state, kinds = cast(state, "leerer-griff", 0, 0)
    state = answer_rest(state)
    assert essence(state, 1) == 6 and "attacked" not in kinds
    assert Work(state).duellplatz() == 0 and not state.no_place


def test_after_a_renewal_took_the_spruchrune_blood_magic_attacks_on_its_duellplatz() -> None:
    """The renewal at the start of a spell phase takes the Spruchrune (the highest rune) to
    hand; Glutopfer by blood magic afterwards still attacks on the last trigger's Duellplatz."""
    state = build(["0 rot rune 5", "0 rot essence 6", "0 grau essence 6",
                   "1 schwarz essence 6", "1 violett essence 6"])  # fmt: skip
    state = replace(state, spell_rune=0, place=0)
    state = passes(state)  # no glyphs: a renewal
    assert state.dice[0].zone == "hand" and state.phase == "action"
    assert Blut("glutopfer") in legal(state, state.stone) or state.stone == 1
    state = replace(state, stone=0)
    state, _ = ENGINE.apply(state, Blut("glutopfer"), 0)
    state = answer_rest(state)
    assert essence(state, 1) == 11


def test_a_blood_spell_that_would_do_nothing_is_not_offered() -> None:
    """The opponent's essences lie on another matrix than the Duellplatz: Glutopfer (only an
    attack) would miss, so it is neither offered nor paid for; Schattenpakt (ban a glyph) is
    offered while there is a glyph."""
    state = build(["0 rot essence 6", "0 schwarz essence 6", "1 violett essence 6",
                   "0 grau glyph 3"])  # fmt: skip
    state = replace(state, markers=(0, 1), matrices=2)
    acts = legal(state, 0)
    assert Blut("glutopfer") not in acts
    assert Blut("schattenpakt") in acts
    assert Blut("glutopfer") in legal(replace(state, markers=(0, 0)), 0)


def test_a_floating_spruchrune_leaves_no_duellplatz_for_the_rest_of_the_spell() -> None:
    state = build(["0 grau rune 3", "0 rot essence 6", "1 schwarz essence 6"])
    state, _ = cast(state, "schwebesiegel", 0, 0)  # the Spruchrune, its only rune, floats
    state = answer_rest(state)
    assert state.dice[0].zone == "float" and essence(state, 1) == 6


# --- spells do what their sentences say, in their order (Teil 3 "Reihenfolge") -----------------
@pytest.mark.parametrize("slug", sorted(spellbook()))
def test_the_steps_are_the_sentences_of_the_text_in_their_order(slug: str) -> None:
    """Each step is one sentence of the printed text, in the text's order (the meta sentences
    and a keyword aside), in both languages."""
    spell = spellbook()[slug]
    for lang in ("de", "en"):
        text = getattr(spell, f"text_{lang}")
        for meta in getattr(spell, f"meta_{lang}"):
            text = text.replace(meta, "").strip()
        carried = any(step.keyword for step in spell.steps)  # "Telekinese: Falls …"
        if spell.keyword and not carried:  # "Schwebe: …" (in English the translation)
            text = text.split(": ", 1)[1]
        assert " ".join(getattr(step, f"text_{lang}") for step in spell.steps) == text


def test_zwiegriff_attacks_then_takes_the_spruchrune_to_the_second_hand() -> None:
    state = build(["0 violett rune 4", "0 rot essence 6", "1 schwarz essence 6"])
    state, kinds = cast(state, "zwiegriff", 0, 0)
    state = answer_rest(state)
    assert kinds.index("attacked") < kinds.index("second_hand")
    assert essence(state, 1) == 5 and state.dice[0].zone == "hand" and state.dice[0].hand == 1


def test_waldeswacht_takes_up_to_two_shrines_and_no_third() -> None:
    state = build(["0 gruen rune 6", "0 gruen essence 5", "1 rot essence 6", "0 rot rune 2",
                   "0 grau rune 3", "0 rot rune 4"])  # fmt: skip
    state, _ = cast(state, "waldeswacht", 0, 0)
    assert state.pending is not None and "fertig" in state.pending.options  # "bis zu"
    state = answer(answer(state, "d3"), "d4")
    assert state.pending is None or state.pending.prompt != "felsenfeuer.ask.shrine"
    assert [d.shrine_of for d in state.dice[3:6]] == [0, 0, -1]
    one = answer(cast(build(["0 gruen rune 6", "0 gruen essence 5", "1 rot essence 6",
                             "0 rot rune 2"]), "waldeswacht", 0, 0)[0], "fertig")  # fmt: skip
    assert one.dice[3].shrine_of == -1  # none at all is "bis zu zwei" too: the sentence lapses


def test_hexenkessel_may_destroy_any_own_duellplatz_rune_glyphs_included() -> None:
    state = build(["0 violett rune 6", "0 rot essence 6", "1 schwarz essence 6",
                   "0 grau glyph 4"])  # fmt: skip
    state, _ = cast(state, "hexenkessel", 0, 0)
    assert state.pending is not None and {"d0", "d3"} <= set(state.pending.options)
    state = answer_rest(answer(state, "d3"))
    assert state.dice[3].zone == "bag" and essence(state, 1) == 5


def test_irrlicht_may_reactivate_the_spruchrune_and_then_attacks() -> None:
    """The caster's only Duellplatz rune is the Spruchrune: it is one of "deine
    Duellplatz-Runen", so the sentence does not lapse and the attack follows."""
    state = build(["0 violett rune 3", "0 rot essence 6", "1 schwarz essence 6"])
    state, _ = cast(state, "irrlicht", 0, 0)
    state = answer_rest(state)
    assert state.dice[0].glyph and essence(state, 1) == 5


def test_feenstaub_floats_the_spruchrune_with_others_over_the_same_duellplatz() -> None:
    state = build(["0 gruen rune 4", "0 gruen essence 6", "1 schwarz essence 6",
                   "0 rot rune 2 1", "0 rot rune 3 1"])  # fmt: skip
    state = replace(state, markers=(1, 1))
    state, _ = cast(replace(state, dice=tuple(replace(d, matrix=1) if d.zone == "matrix" else d
                                              for d in state.dice)), "feenstaub", 0, 0)  # fmt: skip
    assert state.pending is not None and "d0" in state.pending.options
    state = answer(answer(answer(state, "d0"), "d3"), "fertig")
    state = answer_rest(state)
    assert [(d.zone, d.matrix) for d in state.dice[3:5]] == [("float", 1), ("matrix", 1)]
    assert state.dice[0].zone == "float" and state.dice[0].matrix == 1
    assert essence(state, 1) == 6  # the Spruchrune floats: no Duellplatz for the attack


def test_schwebender_hain_offers_the_green_spruchrune() -> None:
    state = build(["0 gruen rune 4", "0 gruen essence 6", "1 schwarz essence 6",
                   "0 gruen rune 2"])  # fmt: skip
    state, _ = cast(state, "schwebender-hain", 0, 0)
    assert state.pending is not None and {"d0", "d3"} <= set(state.pending.options)


# --- Seelensog and the loader ---------------------------------------------------------------------
def test_seelensog_at_full_essence_lapses_whole_without_asking_the_opponent() -> None:
    """Seelensog, "Ein beliebiger Gegner verliert einen Essenzpunkt und du erhältst einen
    Essenzpunkt": the caster's essences are all at 6, the second part has no valid target,
    so the joined sentence lapses whole (Visir-Regel, Kevin) before anyone is asked."""
    state = build(["0 schwarz rune 2", "0 schwarz essence 6", "0 rot essence 6",
                   "1 rot essence 6", "1 grau essence 3"])  # fmt: skip
    state, _ = cast(state, "seelensog", 0, 0)
    assert state.pending is None and essence(state, 1) == 9 and essence(state, 0) == 12
    low = build(["0 schwarz rune 2", "0 schwarz essence 5", "1 rot essence 6",
                 "1 grau essence 3"])  # fmt: skip
    low, _ = cast(low, "seelensog", 0, 0)
    low = answer_rest(low)
    assert essence(low, 1) == 8 and essence(low, 0) == 6


def test_the_loader_refuses_players_it_cannot_play() -> None:
    """``bound_owners`` was accepted and played as "all"; the language no longer has it."""
    text = OWN_SPELL.replace('do = "attack"', 'do = "attack"\nplayers = "bound_owners"')
    spells, errors = load_text(text)
    assert not spells and any("bound_owners" in e.message for e in errors)


# --- the Auswahl (Teil 2: "keine Obergrenze" per colour) ---------------------------------------
def test_the_auswahl_has_no_cap_per_colour_unless_the_group_sets_one() -> None:
    free = ENGINE.initial_state({}, 1, 4)
    assert Auswahl.of("8-0-0-0-0") in legal(free, 0)  # eight green dice
    assert len(legal(free, 0)) == 495  # every way to choose 8 dice of 5 colours
    capped = ENGINE.initial_state({"cap": True}, 1, 4)  # 16 per colour, 4 seats: 4 each
    assert Auswahl.of("8-0-0-0-0") not in legal(capped, 0)
    assert Auswahl.of("4-4-0-0-0") in legal(capped, 0)
    supply = ENGINE.initial_state({"supply": 8}, 1, 2)  # a physical supply: the cap by default
    assert Auswahl.of("5-3-0-0-0") not in legal(supply, 0)
    assert ENGINE.state_from_json(ENGINE.state_to_json(free)).settings.cap is False


# --- Teil 3: Szenarios and house events --------------------------------------------------------
def setup_to_roll(config: dict[str, object]) -> State:
    state = ENGINE.initial_state({"start": 0, "auswahl": "draft", **config}, 3, 2)
    for colour in ("rot", "grau") * 8:
        seat = ENGINE.decisions(state)[0].seat
        state, _ = ENGINE.apply(state, Draft(colour), seat)
    for _ in range(4):
        seat = ENGINE.decisions(state)[0].seat
        state, _ = ENGINE.apply(state, legal(state, seat)[0], seat)
    return state


def test_the_random_pips_scenario_rolls_three_hand_runes_each_as_glyphs() -> None:
    """Teil 3, "Jeder Spieler muss zu Begin des Spiels drei seiner sechs Handrunen auf den Tisch
    würfeln": each seat chooses three hand runes in turn from the start player; the state's
    RNG gives their pips; they count as glyphs (a) or not (b)."""
    state = setup_to_roll({"wuerfeln": "glyphen"})
    assert state.phase == "roll" and ENGINE.decisions(state)[0].prompt == "felsenfeuer.ask.roll"
    kinds = []
    while state.phase == "roll":
        seat = ENGINE.decisions(state)[0].seat
        state, events = ENGINE.apply(state, legal(state, seat)[-1], seat)
        kinds += [e.type for e in events]
    assert kinds.count("rolled") == 6 and kinds[-1] == "duel_started"
    for seat in (0, 1):
        rolled = [d for d in state.dice if d.owner == seat and d.zone == "matrix"]
        assert len(rolled) == 3 and all(d.glyph and 1 <= d.pips <= 6 for d in rolled)
        assert sum(1 for d in state.dice if d.owner == seat and d.zone == "hand") == 3
    again = setup_to_roll({"wuerfeln": "glyphen"})
    while again.phase == "roll":
        seat = ENGINE.decisions(again)[0].seat
        again, _ = ENGINE.apply(again, legal(again, seat)[-1], seat)
    assert again.dice == state.dice  # the same seed rolls the same pips (replays)
    runes = setup_to_roll({"wuerfeln": "runen"})
    seat = ENGINE.decisions(runes)[0].seat
    runes, _ = ENGINE.apply(runes, legal(runes, seat)[0], seat)
    assert [d.glyph for d in runes.dice if d.zone == "matrix"] == [False]


def test_the_erdbeben_destroys_the_lowest_dice_at_the_end_of_every_action_phase() -> None:
    state = build(["0 rot essence 6", "1 rot essence 6", "0 grau glyph 2", "1 gruen glyph 2",
                   "0 rot glyph 4", "1 grau rune 3"])  # fmt: skip
    state = replace(state, settings=replace(state.settings, quake=True))
    state = passes(state)
    assert [state.dice[i].zone for i in (2, 3)] == ["bag", "bag"]  # the two 2s
    assert state.spell_rune == 4  # then the lowest glyph left is triggered
    with_ = ENGINE.initial_state({"erdbeben": True, "wuerfeln": "runen"}, 1, 2).settings
    assert with_.quake and with_.roll == "runen"


def test_the_erdbeben_is_told_before_the_spell_phase_it_ends_the_action_phase() -> None:
    """The Erdbeben shakes at the end of the action phase (Teil 3), so its events come before
    "Alle haben gepasst: Zauberphase …" (play-test: it was told after it), then the lowest
    glyph is triggered; without the Erdbeben the spell phase follows the passes at once. The
    state after the passes is the same as before this order (only the events moved)."""
    lines = ["0 rot essence 6", "1 rot essence 6", "0 grau glyph 2", "1 gruen glyph 2",
             "0 rot glyph 4", "1 grau rune 3"]  # fmt: skip
    for quake, expected in (
        (True, ["turn_ended", "turn_ended", "quake", "destroyed", "destroyed", "spell_phase",
                "triggered"]),
        (False, ["turn_ended", "turn_ended", "spell_phase", "triggered"]),
    ):  # fmt: skip
        state = build(lines)
        state = replace(state, settings=replace(state.settings, quake=quake))
        events: list[Any] = []
        for _ in range(2):
            state, more = ENGINE.apply(state, Ende(), state.stone)
            events += more
        assert [e.type for e in events][: len(expected)] == expected, quake
        phase = next(e for e in events if e.type == "spell_phase")
        assert phase.data == {"player": state.stone}
        view = ENGINE.view_for(state, None)
        told = [words.narrate(e.type, e.data, view, "de", NAMES) for e in events]
        spell_phase = told.index(next(x for x in told if x.startswith("Alle haben gepasst")))
        assert spell_phase == (5 if quake else 2) and told[2].startswith("Erdbeben" if quake
                                                                         else "Alle")  # fmt: skip


def test_the_erdbeben_spares_the_essences() -> None:
    """With no rune lying out (as after a renewal) the Erdbeben destroys nothing: the essences
    at 6 would otherwise all go at once and end the duel in a draw."""
    state = build(["0 rot essence 6", "0 grau essence 6", "1 rot essence 6", "1 grau essence 5",
                   "0 gruen hand", "1 gruen hand"])  # fmt: skip
    state = replace(state, settings=replace(state.settings, quake=True))
    state = passes(state)
    assert state.phase == "action" and essence(state, 0) == 12 and essence(state, 1) == 11


# --- narration ------------------------------------------------------------------------------------
NAMES = ["Alrik", "Borbarad"]


def cast_events(state: State, slug: str, rune: int, answers: list[str]) -> tuple[State, list[Any]]:
    """``slug`` cast by seat 0 with Spruchrune ``rune``, then ``answers``: the state and every
    event on the way (as one batch would narrate them)."""
    w = Work(state)
    w.phase = "spell"
    w.make_spruchrune(rune)
    w.stack = [Entry("end", die=24), Entry("spell", spell=slug, caster=0)]
    w = settle(w)
    state, events = w.freeze(), list(w.events)
    for token in answers:
        assert state.pending is not None
        state, more = ENGINE.apply(state, Wahl(token), state.pending.seat)
        events += more
    return state, events


def sentences(state: State, events: list[Any], lang: str = "de") -> list[str]:
    view = ENGINE.view_for(state, None)
    keep = words.told([(e.type, e.data) for e in events])
    return [words.narrate(e.type, e.data, view, lang, NAMES)
            for e, tell in zip(events, keep, strict=True) if tell]  # fmt: skip


def test_dice_are_told_as_they_were_when_the_sentence_happened() -> None:
    """Hexenkessel: the glyph chosen for destruction is a glyph when it is chosen and has its
    pips when it is destroyed, though by the end of the batch it lies in the bag; Leere Worte's
    Spruchrune goes to hand with its pips said."""
    state = build(["0 violett rune 6", "0 rot essence 6", "1 schwarz essence 6",
                   "0 grau glyph 4"])  # fmt: skip
    state, events = cast_events(state, "hexenkessel", 0, [])
    assert state.pending is not None
    view = ENGINE.view_for(state, None)
    state, more = ENGINE.apply(state, Wahl("d3"), 0)
    chose = next(e for e in more if e.type == "chose")  # as the choice's own batch tells it
    assert words.narrate("chose", chose.data, ENGINE.view_for(state, None), "de", NAMES) == (
        "Alrik wählt grau 4 (Glyphe, Matrix 0)."
    )
    assert "grey 4 (glyph, matrix 0)" in words.narrate(
        "chose", chose.data, ENGINE.view_for(state, None), "en", NAMES
    )
    lines = sentences(state, [*events, *more])
    assert "Die Rune grau 4 von Alrik wird zerstört und kommt in den Beutel." in lines
    assert not any("wählt grau 4" in line for line in lines)  # the next sentence says it
    assert view["dice"][3]["zone"] == "matrix"
    words_ = build(["0 violett rune 1", "0 rot essence 6", "1 schwarz essence 6"])
    words_, events = cast_events(words_, "leere-worte", 0, [])
    assert "Die Rune violett 1 kommt auf die Hand von Alrik." in sentences(
        answer_rest(words_), events
    )


def test_an_essence_is_used_up_after_it_lost_its_point() -> None:
    state = build(["0 rot rune 2", "0 rot essence 6", "1 schwarz essence 1",
                   "1 grau essence 3"])  # fmt: skip
    state, events = cast_events(state, "glutopfer", 0, ["d2"])
    kinds = [e.type for e in events]
    assert kinds.index("essence_lost") < kinds.index("essence_destroyed")
    lines = sentences(state, events)
    assert lines.index("Borbarad verliert einen Essenzpunkt (schwarz).") < lines.index(
        "Die Essenz (schwarz) von Borbarad ist aufgebraucht."
    )
    assert not any("wählt schwarz" in line for line in lines)  # the loss line says which


def test_no_spell_is_said_once() -> None:
    state = build(["0 rot essence 6", "1 rot essence 6", "0 rot glyph 2", "0 grau hand"])
    state = passes(state)
    assert state.pending is not None and "keiner" in state.pending.options
    state, events = ENGINE.apply(state, Wahl("keiner"), state.pending.seat)
    lines = sentences(state, events)
    assert sum("Zauber" in line for line in lines) == 1, lines
    assert "Alrik spricht keinen Zauber mit rot 2." in lines
    cast = [("chose", {"token": "glutopfer", "player": 0}), ("cast", {"spell": "glutopfer"})]
    assert words.told(cast) == [False, True]  # "wählt Glutopfer" and "spricht Glutopfer"


def test_a_seat_out_of_the_duel_has_no_essences_on_the_matrix() -> None:
    state = build(["0 rot essence 6", "1 rot essence 6", "2 grau essence 6"], players=3)
    w = Work(state)
    knock_out(w, [1], "left")
    view = ENGINE.view_for(w.freeze(), None)
    assert view["matrices"][0]["markers"] == [0, 2]


def test_the_end_line_shows_the_points_and_leaves_the_reason_to_the_status() -> None:
    state = build(["0 rot rune 2", "0 rot essence 6", "0 grau essence 1",
                   "1 schwarz essence 1"])  # fmt: skip
    state, events = cast_events(state, "glutopfer", 0, [])
    assert state.phase == "end"
    lines = sentences(state, events)
    assert lines[-1] == "Das Duell ist vorbei. Essenzpunkte: Alrik 7, Borbarad 0."
    assert sentences(state, events, "en")[-1] == (
        "The duel is over. Essence points: Alrik 7, Borbarad 0."
    )
    reason = t("felsenfeuer.reason.eliminated", "de")
    assert not any(reason in line for line in lines)


def test_a_spell_that_declares_the_winner_ends_with_the_end_line_too() -> None:
    """Sternenurteil: "Falls keine Essenz eines Gegners mehr als einen Punkt hat, gewinnst du
    das Duell." The duel ends with its end line (it ended without one)."""
    state = build(["0 grau rune 6", "0 rot essence 6", "1 schwarz essence 1",
                   "1 rot essence 1"])  # fmt: skip
    state, events = cast_events(state, "sternenurteil", 0, [])
    assert state.phase == "end" and state.winners == (0,) and state.result == "declared"
    assert [e.type for e in events].count("game_over") == 1
    assert sentences(state, events)[-1].startswith("Das Duell ist vorbei. Essenzpunkte: Alrik 6")


def test_the_normal_bot_floats_one_rune_at_most_in_a_weltentor_duel() -> None:
    """Weltentor offers thirty ways to float against two essences; a bot choosing among all
    at random floated most of its hand (seed 5 in the playground: six of eight dice)."""
    for seed in range(6):
        match = m.start(ENGINE, {"weltentor": True, "start": 0}, seed, 2)
        rng = random.Random(seed)
        while match.state.phase in ("auswahl", "essence"):
            for decision in m.decisions(ENGINE, match):
                act = ENGINE.choose_action(match.state, decision.seat, "normal", 1.0, rng)
                match, _ = m.apply(ENGINE, match, ENGINE.action_text(act), decision.seat)
        for seat in (0, 1):
            assert sum(d.owner == seat and d.zone == "float" for d in match.state.dice) <= 1


def test_a_triggered_glyph_is_told_with_the_pips_it_counted_with() -> None:
    """Schandmaske makes the opponents' runes count as 1s; a glyph a spell triggers then is
    said with the pips it was triggered at, the 1, not its printed 5."""
    state = build(["0 violett rune 2", "0 violett essence 6", "1 rot essence 6",
                   "1 rot glyph 5"])  # fmt: skip
    w = Work(state)
    w.stack = [Entry("spell", spell="schandmaske", caster=0, mods=(Mod("pips", (3,), "1"),))]
    ctx = verbs.Ctx(w, w.stack[-1])
    verbs.trigger(ctx, w.dice[3])
    event = next(e for e in w.events if e.type == "triggered")
    assert event.data["pips"] == 1
    view = ENGINE.view_for(w.freeze(), None)
    assert words.narrate("triggered", event.data, view, "de", NAMES) == (
        "Die Glyphe rot 1 von Borbarad wird ausgelöst."
    )
