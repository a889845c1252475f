"""Felsenfeuer: the rulebook's examples as scenarios, one test per spell, the loader, the
pause for decisions as data, the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engines.core import match as m
from engines.core.errors import IllegalAction
from engines.felsenfeuer import verbs
from engines.felsenfeuer.actions import Blut, Ende, Lege, Schwebe
from engines.felsenfeuer.engine import ENGINE, knock_out, legal, situation
from engines.felsenfeuer.model import Die, Entry, State
from engines.felsenfeuer.scenario import BASE, answer, answer_rest, build, cast, run_spell_test
from engines.felsenfeuer.sentences import sentence
from engines.felsenfeuer.spells import VERBS, load_text, spellbook
from engines.felsenfeuer.work import Work


def duel(spec: list[str], players: int = 2, **options: Any) -> State:
    return build(spec, players, **options)


def spell_phase(state: State) -> tuple[State, list[str]]:
    """Every seat passes once: the last passer (the stone holder) gets the initiative."""
    kinds: list[str] = []
    for _ in range(state.settings.players - len(state.out)):
        state, events = ENGINE.apply(state, Ende(), state.stone)
        kinds += [e.type for e in events]
    return state, kinds


def answer_all(state: State) -> State:
    return answer_rest(state)


def essence(state: State, seat: int) -> int:
    return sum(d.pips for d in state.dice if d.owner == seat and d.zone == "essence")


# --- the rulebook's examples --------------------------------------------------------------------
def test_the_lowest_glyph_is_triggered() -> None:
    """Glyphs 2, 4, 4, 4, 5: the 2 is triggered."""
    state = duel(["0 rot essence 6", "1 rot essence 6", "0 grau glyph 4", "0 rot glyph 4",
                  "1 grau glyph 4", "1 gruen glyph 2", "1 rot glyph 5"])  # fmt: skip
    state, kinds = spell_phase(state)
    assert "spell_phase" in kinds and state.spell_rune == 5
    assert not state.dice[5].glyph
    assert state.pending is not None and state.pending.seat == 1  # may cast a green 2
    assert "moosdecke" in state.pending.options and "keiner" in state.pending.options


def test_ties_go_to_the_initiative_player_then_clockwise() -> None:
    state = duel(
        [
            "0 rot essence 6",
            "1 rot essence 6",
            "2 rot essence 6",
            "1 grau glyph 3",
            "2 rot glyph 3",
            "2 gruen glyph 3",
        ],
        players=3,
        stone=2,
    )
    # seat 2 passes last: the initiative is seat 1's (stone 2 -> 0 -> 1 passes)
    state, _ = spell_phase(state)
    assert state.stone == 1 and state.spell_rune == 3
    # with the initiative, seat 2 chooses which of its two tied glyphs is triggered
    state = duel(
        [
            "0 rot essence 6",
            "1 rot essence 6",
            "2 rot essence 6",
            "1 grau glyph 3",
            "2 rot glyph 3",
            "2 gruen glyph 3",
        ],
        players=3,
        stone=0,
    )
    state, _ = spell_phase(state)
    assert state.stone == 2
    assert state.pending is not None and state.pending.seat == 2
    assert state.pending.prompt == "felsenfeuer.ask.tie"
    assert set(state.pending.options) == {"d4", "d5"}
    state = answer(state, "d5")
    assert state.spell_rune == 5


def test_renewal_takes_only_the_highest_runes_and_bag_runes_count_zero() -> None:
    state = duel(["0 rot essence 6", "1 rot essence 6", "0 grau bag", "0 rot rune 1",
                  "0 gruen rune 1", "0 violett rune 5", "1 grau bag"])  # fmt: skip
    state, kinds = spell_phase(state)
    assert "renewal" in kinds and state.phase == "action"
    zones = [d.zone for d in state.dice]
    assert zones[2:6] == ["bag", "matrix", "matrix", "hand"]
    assert zones[6] == "hand"  # a seat with only a bag rune takes it (0 is its highest)


def test_the_owner_chooses_which_essences_lose_points() -> None:
    state = duel(["0 rot essence 6", "1 rot essence 6", "1 grau essence 6", "0 rot rune 6"])
    state, _ = cast(state, "phoenixfeuer", 0, 3)
    assert state.pending is not None and state.pending.seat == 1
    assert state.pending.prompt == "felsenfeuer.ask.lose_essence"
    assert set(state.pending.options) == {"d1", "d2"}
    state = answer(answer(state, "d1"), "d2")
    assert [state.dice[1].pips, state.dice[2].pips] == [5, 5]


def test_kevin_visir_a_joined_sentence_lapses_whole() -> None:
    """ "Reaktiviere eine beliebige grüne Rune und greife einen beliebigen Gegner an." with no
    green rune that can be reactivated: Kevin attacks nobody."""
    state = duel(["0 rot essence 6", "1 rot essence 6", "0 gruen hand", "1 gruen glyph 3",
                  "0 rot rune 3"])  # fmt: skip
    step = {"text_de": "…", "text_en": "…", "joined": True, "parts": [
        {"do": "reactivate", "target": {"zone": "matrix", "owner": "any", "colour": "gruen"},
         "count": "one"}, {"do": "attack", "pick": "one"}]}  # fmt: skip
    w = Work(state)
    w.spell_rune = 4
    ctx = verbs.Ctx(w, Entry("spell", caster=0))
    with pytest.raises(verbs.SkipSentence):
        verbs.run_step(ctx, sentence(step, VERBS))
    # with a green rune to reactivate, the sentence runs whole
    state = duel(["0 rot essence 6", "1 rot essence 6", "0 gruen rune 2", "0 rot rune 3"])
    w = Work(state)
    w.spell_rune = 3
    ctx = verbs.Ctx(w, Entry("spell", caster=0))
    assert verbs.run_step(ctx, sentence(step, VERBS)) is False
    assert w.dice[2].glyph and w.dice[1].pips == 5


def test_tim_may_not_repeat_the_violet_one_after_leere_worte() -> None:
    state = duel(["0 violett essence 6", "1 rot essence 6", "0 violett hand", "1 rot hand"])
    start = situation(state)
    state, _ = ENGINE.apply(state, Lege("violett", 1, 0), 0)
    state, _ = ENGINE.apply(state, Ende(), 0)
    # everyone passes in turn, Tim last: the spell phase begins with Tim's initiative
    state, _ = ENGINE.apply(state, Ende(), 1)
    state, _ = ENGINE.apply(state, Ende(), 0)
    assert state.pending is not None and state.pending.seat == 0
    state = answer(state, "leere-worte")  # seat 1 has no glyph to take back
    assert state.phase == "action" and state.stone == 0 and state.dice[2].zone == "hand"
    assert situation(state) == start  # exactly the situation Tim started from
    assert Lege("violett", 1, 0) not in legal(state, 0)
    assert Lege("violett", 2, 0) in legal(state, 0)
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, Lege("violett", 1, 0), 0)
    assert error.value.key == "felsenfeuer.error.repetition"


def test_vortex_moves_the_duellplatz() -> None:
    state = duel(["0 grau essence 6", "1 rot essence 6", "0 grau rune 1", "0 rot rune 3",
                  "0 gruen rune 4", "1 rot rune 2"])  # fmt: skip
    state, _ = cast(state, "vortex", 0, 2)
    assert state.pending is not None and state.pending.prompt == "felsenfeuer.ask.move"
    assert set(state.pending.options) == {"d3", "d4", "fertig"}  # not the opponent's rune
    state = answer(answer(state, "d3"), "fertig")
    assert state.matrices == 2
    assert [state.dice[i].matrix for i in (2, 3, 4, 5)] == [1, 1, 0, 0]
    w = Work(state)
    assert w.duellplatz() == 1 or state.phase == "action"
    assert ENGINE.view_for(state, None)["matrices"][1]["runes"] == [2, 3]


def test_an_attack_hits_only_where_the_essences_lie_and_a_five_wards() -> None:
    state = duel(["0 rot essence 6", "1 rot essence 6", "0 rot rune 1 1", "1 grau rune 5"])
    state, kinds = cast(state, "funkenschlag", 0, 2)  # the Duellplatz is matrix 1
    assert essence(state, 1) == 6
    state = duel(["0 rot essence 6", "1 rot essence 6", "0 rot rune 1", "1 grau rune 5"])
    state, kinds = cast(state, "funkenschlag", 0, 2)
    assert essence(state, 1) == 6 and "attack_warded" in kinds
    state = duel(["0 rot essence 6", "1 rot essence 6", "0 rot rune 1", "1 grau rune 4"])
    state, _ = cast(state, "funkenschlag", 0, 2)
    assert essence(state, 1) == 5


def test_temple_rule_simultaneous_destruction_spares_the_shrines() -> None:
    """All of a temple owner's runes destroyed at once: the shrines were protected at that
    moment; the owner decides whether they go along with the temple rune."""
    state = duel(
        [
            "0 schwarz essence 6",
            "1 rot essence 6",
            "0 schwarz rune 5",
            "1 gruen rune 6",
            "1 grau rune 2",
            "1 rot rune 3",
            "1 rot rune 4",
        ]
    )
    dice = list(state.dice)
    dice[4] = Die(4, 1, "grau", "matrix", 0, 2, shrine_of=3)
    dice[5] = Die(5, 1, "rot", "matrix", 0, 3, shrine_of=3)
    state = State(**{**{f: getattr(state, f) for f in state.__dataclass_fields__},
                     "dice": tuple(dice)})  # fmt: skip
    step = {"text_de": "…", "text_en": "…", "do": "destroy",
            "target": {"zone": "matrix", "owner": "opponent"}}  # fmt: skip
    for along, shrines in (("nein", "matrix"), ("ja", "bag")):
        w = Work(state)
        w.spell_rune = 2
        w.stack = [Entry("spell", caster=0, answers=(along,))]
        ctx = verbs.Ctx(w, w.stack[0])
        verbs.run_step(ctx, sentence(step, VERBS))
        assert [w.dice[i].zone for i in (3, 6)] == ["bag", "bag"]
        assert [w.dice[i].zone for i in (4, 5)] == [shrines, shrines]
        assert all(w.dice[i].shrine_of == -1 for i in (4, 5))


def test_manifest_builds_a_temple_and_shrines_keep_their_pips() -> None:
    state = duel(["0 gruen essence 5", "1 rot essence 6", "0 gruen rune 6", "0 rot glyph 2",
                  "0 grau rune 3"])  # fmt: skip
    state, _ = cast(state, "waldeswacht", 0, 2)
    assert state.pending is not None and set(state.pending.options) == {"d3", "d4", "fertig"}
    state = answer_all(answer(answer(state, "d3"), "d4"))
    assert state.dice[3].shrine_of == 2 and state.dice[4].shrine_of == 2
    assert state.dice[2].glyph  # a shrine was a glyph: the temple lies at the edge
    w = Work(state)
    w.spell_rune = 2
    ctx = verbs.Ctx(w, Entry("spell", caster=1))
    step = {"text_de": "…", "text_en": "…", "do": "raise_pips",
            "target": {"zone": "matrix", "owner": "any"}}  # fmt: skip
    verbs.run_step(ctx, sentence(step, VERBS))
    assert w.dice[4].pips == 3  # shrines' pips change only by the temple rule


def test_pentagramm_ends_when_two_neighbours_are_out() -> None:
    state = duel([f"{s} rot essence 6" for s in range(5)], players=5, mode="pentagramm")
    w = Work(state)
    knock_out(w, [1], "essence")
    assert w.phase == "action"
    knock_out(w, [2], "essence")
    assert w.phase == "end" and w.winners == [4] and w.result == "pentagramm"
    # the one opposite is out already: play on until it happens again
    w = Work(state)
    knock_out(w, [4], "essence")
    knock_out(w, [1], "essence")
    knock_out(w, [2], "essence")
    assert w.phase == "action"
    knock_out(w, [0], "essence")  # 0 and 1 are neighbours: seat 3 sits opposite
    assert w.phase == "end" and w.winners == [3]


def test_gilden_duell_a_fallen_vorsteher_loses_and_initiative_goes_to_the_vorsteher() -> None:
    teams = (0, 0, 0, 1, 1, 1)
    state = duel([f"{s} rot essence 6" for s in range(6)], players=6, mode="gilde",
                 teams=teams, stone=5)  # fmt: skip
    state, _ = spell_phase(state)  # seat 5, a Sekundant, passes last
    assert state.stone == 4
    w = Work(state)
    knock_out(w, [1], "essence")
    assert w.phase == "end" and w.winners == [3, 4, 5] and w.result == "vorsteher"


def test_teams_win_together_and_all_out_at_once_is_a_draw() -> None:
    state = duel(["0 rot essence 1", "1 rot essence 1", "2 rot essence 6", "3 rot essence 1",
                  "2 rot rune 2"], players=4, teams=(0, 1, 0, 1))  # fmt: skip
    state, _ = cast(state, "flammenzunge", 2, 4)
    state = answer_all(state)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == frozenset({0, 2})
    w = Work(duel(["0 rot essence 1", "1 rot essence 1", "0 rot rune 6"]))
    knock_out(w, [0, 1], "essence")
    assert w.phase == "end" and w.winners == [] and w.result == "all_out"


def test_nested_spell_sees_counts_as_and_the_interrupted_spell_resumes() -> None:
    """Vogelaspekt: the hand counts as wings; the red spell cast inside sees it; a sentence
    that would put a rune on that hand is a contradiction and is skipped."""
    state = duel(["0 rot essence 6", "1 rot essence 6", "0 rot rune 5", "1 grau rune 2"])
    state, _ = cast(state, "vogelaspekt", 0, 2)
    assert state.pending is not None and state.pending.prompt == "felsenfeuer.ask.cast"
    state = answer(state, "funkenschlag")
    assert essence(state, 1) == 5 and state.phase == "action"
    step = {"text_de": "…", "text_en": "…", "do": "take_to_hand", "target": "spruchrune"}
    w = Work(state)
    w.spell_rune = 2
    frame = Entry("spell", caster=0, mods=(verbs.Mod("nohand", (0,), ""),))
    w.stack = [frame]
    with pytest.raises(verbs.SkipSentence):
        verbs.run_step(verbs.Ctx(w, frame), sentence(step, VERBS))


def test_blood_magic_pays_essence_of_the_spell_colour_and_keeps_the_initiative() -> None:
    state = duel(["0 rot essence 6", "0 grau essence 6", "1 rot essence 6", "0 rot hand"])
    assert Blut("glutopfer") in legal(state, 0)
    state, kinds = ENGINE.apply(state, Blut("glutopfer"), 0)
    assert "blood_magic" in [e.type for e in kinds]
    assert state.dice[0].pips == 4 and state.dice[1].pips == 6  # paid in red only
    assert essence(state, 1) == 5  # attacked on the start surface (no rune triggered yet)
    assert state.stone == 1 and state.phase == "action"  # the turn passed, no spell phase


@pytest.mark.parametrize(
    ("caster", "after"),
    [
        (["0 rot essence 6"], (5, 4)),  # eight red dice, four points left: one back
        (["0 rot essence 6", "0 grau hand"], (4, 4)),  # a die of another colour: none
        (["0 rot essence 6", "0 rot essence 3"], (7, 4)),  # seven points left: none
    ],
)
def test_puls_pays_one_point_back_to_a_red_caster_low_on_essence(
    caster: list[str], after: tuple[int, int]
) -> None:
    """Puls {rot2} (issue 22's one-colour balance): a caster with no die of another colour
    than red and at most five essence points after paying gains one; two attacks either way."""
    state = duel([*caster, "1 grau essence 6"])
    state, _ = ENGINE.apply(state, Blut("puls"), 0)
    state = answer_all(state)
    assert (essence(state, 0), essence(state, 1)) == after


@pytest.mark.parametrize(
    ("caster", "after"),
    [
        (["0 gruen essence 3", "0 gruen essence 3"], 7),  # eight green dice, six points: one
        (["0 gruen essence 6", "0 gruen essence 3"], 9),  # eight green dice, nine: none
        (["0 gruen essence 6", "0 gruen essence 3", "0 rot hand"], 10),  # another colour: one
        (["0 gruen essence 6", "0 gruen essence 6", "0 rot hand"], 12),  # not behind: none
    ],
)
def test_lebenskraft_catches_up_with_eight_green_dice_only_when_low(
    caster: list[str], after: int
) -> None:
    """Lebenskraft {gruen1} (issue 22's one-colour balance): the point more when an opponent
    has more essence points goes to a caster with a die of another colour than green, or
    with eight green dice once at most six points are left (paid one, gained one first)."""
    state = duel([*caster, "1 grau essence 6", "1 grau essence 6"])
    state, _ = ENGINE.apply(state, Blut("lebenskraft"), 0)
    state = answer_all(state)
    assert (essence(state, 0), essence(state, 1)) == (after, 12)


@pytest.mark.parametrize(
    ("caster", "after"),
    [
        (["0 violett essence 4", "0 violett essence 4"], (6, 3)),  # eight violet, six: twice
        (["0 violett essence 6", "0 violett essence 3"], (7, 4)),  # eight violet, seven: once
        (["0 violett essence 6", "0 violett essence 3", "0 rot hand"], (7, 3)),  # other: twice
        (["0 violett essence 3", "0 violett essence 1"], (2, 3)),  # behind: twice
    ],
)
def test_schandmaske_strikes_twice_with_eight_violet_dice_when_low(
    caster: list[str], after: tuple[int, int]
) -> None:
    """Schandmaske {violett2} (issue 22's one-colour balance): the second attack goes to a
    caster with a die of another colour than violet, or at most six essence points after
    paying, or behind an opponent on essence points."""
    state = duel([*caster, "1 grau essence 3", "1 grau essence 2"])
    state, _ = ENGINE.apply(state, Blut("schandmaske"), 0)
    state = answer_all(state)
    assert (essence(state, 0), essence(state, 1)) == after


def test_frozen_glyphs_trigger_only_when_nothing_else_is_left() -> None:
    state = duel(["0 rot essence 6", "1 rot essence 6", "0 grau glyph 1", "1 rot glyph 6"])
    dice = list(state.dice)
    dice[2] = Die(2, 0, "grau", "matrix", 0, 1, glyph=True, frozen=True)
    state = State(**{**{f: getattr(state, f) for f in state.__dataclass_fields__},
                     "dice": tuple(dice)})  # fmt: skip
    state, _ = spell_phase(state)
    assert state.spell_rune == 3


def test_a_paused_decision_survives_the_json_round_trip_and_replays() -> None:
    state = duel(["0 rot essence 6", "1 rot essence 6", "1 grau essence 6", "0 rot rune 6"])
    state, _ = cast(state, "phoenixfeuer", 0, 3)
    data = json.loads(json.dumps(ENGINE.state_to_json(state)))
    again = ENGINE.state_from_json(data)
    assert again == state
    assert answer(again, "d2") == answer(state, "d2")


# --- every spell (its own [spell.test] in the data) -------------------------------------------
@pytest.mark.parametrize("slug", sorted(spellbook()))
def test_each_spell_does_what_its_test_expects(slug: str) -> None:
    assert run_spell_test(spellbook()[slug]) == []


def test_a_wrong_expectation_is_reported() -> None:
    spell = spellbook()["funkenschlag"]
    wrong = replace(spell, test={**spell.test, "expect": {"essence.1": 9}})
    assert run_spell_test(wrong) == ["Funkenschlag: essence.1 is 8, expected 9"]


def test_every_colour_and_pips_has_a_star_spell() -> None:
    stars = {(s.colour, s.pips) for s in spellbook().values() if s.star}
    assert len(stars) == 30
    named = {s.name: (s.colour, s.pips) for s in spellbook().values() if not s.own}
    assert named == {"Leere Worte": ("violett", 1), "Vortex": ("grau", 1),
                     "Vogelaspekt": ("rot", 5)}  # fmt: skip


# --- the loader and the command line -----------------------------------------------------------
BROKEN = """
[[spell]]
name = "Gut"
colour = "rot"
pips = 1
text_de = "x"
text_en = "x"
[[spell.step]]
text_de = "x"
text_en = "x"
do = "attack"

[[spell]]
name = "Kaputt"
colour = "rot"
pips = 2
text_de = "x"
text_en = "x"
[[spell.step]]
text_de = "x"
text_en = "x"
do = "atack"
[[spell.step]]
text_de = "x"
text_en = "x"
do = "destroy"
target = {zone = "glyphe"}
"""


def test_the_loader_names_the_spell_and_line_of_each_mistake() -> None:
    spells, errors = load_text(BROKEN)
    assert [s.name for s in spells] == ["Gut"]
    assert [(e.item, e.line) for e in errors] == [("Kaputt", 22), ("Kaputt", 27)]
    assert "atack" in errors[0].message and "attack" in errors[0].message
    assert "glyphe" in errors[1].message


def test_the_loader_checks_counts_pips_and_colours_at_their_line() -> None:
    text = BROKEN.replace('do = "atack"', 'do = "ban"\ntarget = {zone = "glyph"}\ncount = "zwei"')
    text = text.replace('target = {zone = "glyphe"}', 'target = {zone = "glyph"}\nvalue = 7')
    text = text.replace('do = "destroy"', 'do = "set_pips"')
    _spells, errors = load_text(text)
    assert [(e.line, e.message) for e in errors] == [
        (24, "step 1.count: must be all, one, any, a positive integer or {up_to = n}"),
        (30, 'step 2.value: must be 1..6, "choose" or a value table'),
    ]


def test_a_spell_name_with_a_line_break_is_refused() -> None:
    """A name with a line break or separator would break the board it is drawn on: the
    loader refuses it with the spell and its line (issue 18)."""
    for breaking in ("\\r\\n", "\\u001d", "\\u0085", "\\u2029"):
        spells, errors = load_text(BROKEN.replace('name = "Gut"', f'name = "G{breaking}ut"'))
        assert "Gut" not in [s.name for s in spells]
        assert any("one line" in e.message for e in errors), errors


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engines.felsenfeuer", *args],
                          capture_output=True, text=True, check=False)  # fmt: skip


def test_cli_spells_validate_and_selfplay(tmp_path: Path) -> None:
    listed = json.loads(_cli("spells", "--json").stdout)
    assert {"name", "colour", "pips", "star", "blood", "text_de"} <= set(listed[0])
    assert len(listed) == len(spellbook())
    bad = tmp_path / "bad.toml"
    bad.write_text(BROKEN)
    result = _cli("validate", str(bad))
    assert result.returncode == 1 and "line 22: Kaputt" in result.stdout
    good = Path(__file__).resolve().parents[2] / "data" / "felsenfeuer" / "starter.toml"
    assert _cli("validate", str(good)).returncode == 0
    played = _cli("selfplay", "--players", "3", "--games", "1", "--seed", "2")
    assert played.returncode == 0 and "1 games, 0 errors" in played.stdout


def test_bots_finish_games_through_the_match() -> None:
    for level in ENGINE.bot_levels:
        match = m.start(ENGINE, {"phase_limit": 8}, 3, 2)
        import random

        rng = random.Random(1)
        while m.outcome(ENGINE, match) is None:
            seat = m.decisions(ENGINE, match)[0].seat
            action = ENGINE.choose_action(match.state, seat, level, 1.0, rng)
            match, _ = m.apply(ENGINE, match, ENGINE.action_text(action), seat)
        assert m.outcome(ENGINE, match) is not None


def test_the_hard_bot_judges_a_pentagramm_by_the_two_seats_opposite() -> None:
    """Seat 0 wins the Pentagramm when seats 2 and 3 fall (RULES.md 29): the hard bot's
    rollouts value hurting them over hurting its neighbours, the plain sum does not."""
    from engines.felsenfeuer.ai import evaluate, judge

    def pentagram(opposite: int, neighbours: int) -> State:
        pips = [6, neighbours, opposite, opposite, neighbours]
        return build([f"{seat} rot essence {p}" for seat, p in enumerate(pips)], 5,
                     mode="pentagramm")  # fmt: skip

    hurt_opposite, hurt_neighbours = pentagram(2, 6), pentagram(6, 2)
    assert evaluate(hurt_opposite, 0) == evaluate(hurt_neighbours, 0)
    assert judge(hurt_opposite, 0) > judge(hurt_neighbours, 0)


def test_the_hard_bot_judges_a_gilden_duell_by_the_vorsteher_too() -> None:
    """A fallen Vorsteher loses the Gilden-Duell (RULES.md 30): with equal team sums, the
    hard bot's rollouts prefer the foes' Vorsteher (seat 4) hurt over a foe Sekundant."""
    from engines.felsenfeuer.ai import evaluate, judge

    def guild(leader: int, second: int) -> State:
        pips = [4, 6, 4, second, leader, 4]
        return build([f"{seat} rot essence {p}" for seat, p in enumerate(pips)], 6,
                     mode="gilde")  # fmt: skip

    leader_hurt, second_hurt = guild(2, 6), guild(6, 2)
    assert evaluate(leader_hurt, 0) == evaluate(second_hurt, 0)
    assert judge(leader_hurt, 0) > judge(second_hurt, 0)


# --- more terms -------------------------------------------------------------------------------
def test_renewal_with_two_hands_fills_both_and_the_cauldron_empties() -> None:
    state = duel(["0 rot essence 6", "1 rot essence 6", "0 rot hand", "0 grau hand1",
                  "0 gruen rune 5", "0 violett rune 3", "0 schwarz rune 1", "0 rot bag",
                  "1 grau bag"])  # fmt: skip
    state = State(**{**{f: getattr(state, f) for f in state.__dataclass_fields__},
                     "cauldrons": (0, -1)})  # fmt: skip
    state, _ = spell_phase(state)
    assert state.pending is not None and state.pending.prompt == "felsenfeuer.ask.renew_hand"
    assert state.pending.options == ("h0", "h1", "h0h1", "h1h0")
    state = answer(state, "h1h0")
    assert [(state.dice[i].zone, state.dice[i].hand) for i in (4, 5, 6, 7)] == [
        ("hand", 1), ("hand", 0), ("matrix", 0), ("hand", 1)]  # fmt: skip
    assert state.cauldrons == (-1, -1) and state.dice[8].zone == "hand"


def test_a_sekundant_reaches_only_its_neighbours() -> None:
    teams = (0, 0, 0, 1, 1, 1)
    lines = [f"{s} rot essence 4" for s in range(6)] + ["0 rot rune 2"]
    state = duel(lines, players=6, mode="gilde", teams=teams)
    state, _ = cast(state, "flammenzunge", 0, 6)  # seat 0 attacks "every opponent"
    state = answer_all(state)
    assert [essence(state, s) for s in range(6)] == [4, 4, 4, 4, 4, 3]  # only seat 5 is near


def test_a_paused_duel_replays_identically_from_its_log() -> None:
    match = m.start(ENGINE, {"rules": "magister", "phase_limit": 6}, 11, 3)
    import random

    rng = random.Random(4)
    log = []
    while m.outcome(ENGINE, match) is None and len(log) < 150:
        seat = m.decisions(ENGINE, match)[0].seat
        text = ENGINE.action_text(ENGINE.choose_action(match.state, seat, "normal", 1.0, rng))
        match, _ = m.apply(ENGINE, match, text, seat)
        log.append((seat, text))
    from engines.core.record import replay

    assert replay(ENGINE, {"rules": "magister", "phase_limit": 6}, 11, 3, log) == match


def test_a_sphere_is_in_force_while_its_rune_floats() -> None:
    """Sphäre der Schwere {grau1}: glyphs showing 1 count as 2 (a tie with the 2 now); with
    the floating rune at 6 the Sphäre der Glut is in force instead: every glyph is red."""
    lines = ["0 rot essence 6", "1 rot essence 6", "0 gruen glyph 1", "1 rot glyph 2",
             "1 grau float 1"]  # fmt: skip
    state = duel(lines)
    assert [s["slug"] for s in ENGINE.view_for(state, None)["spheres"]] == ["sphaere-der-schwere"]
    assert Work(state).pips_of(state.dice[2]) == 2
    state, _ = spell_phase(state)  # a tie at 2 now: seat 1 passed last, its glyph goes first
    assert state.spell_rune == 3
    alone, _ = spell_phase(duel(lines[:4]))  # without the floating rune the 1 is lowest
    assert alone.spell_rune == 2
    state = duel([*lines[:4], "1 rot float 6"])
    w = Work(state)
    assert w.colours_of(state.dice[2]) == {"rot"} and w.pips_of(state.dice[2]) == 1
    state, _ = spell_phase(state)
    assert state.pending is not None and "funkenschlag" in state.pending.options


def test_the_remembered_sphere_effects_follow_the_dice() -> None:
    """The spheres' effects are remembered for the last dice asked about: a die set to
    another pips (the Sphäre der Schwere's glyph 1 raised to 3) or a rune that stops floating
    is seen at once, and the same dice give the same effects back."""
    lines = ["0 rot essence 6", "1 rot essence 6", "0 gruen glyph 1", "1 rot glyph 2",
             "1 grau float 1"]  # fmt: skip
    w = Work(duel(lines))
    assert w.pips_of(w.dice[2]) == 2 and w.sphere_mods() == w.sphere_mods()
    w.set(replace(w.dice[2], pips=3))
    assert w.pips_of(w.dice[2]) == 3
    w.set(replace(w.dice[2], pips=1))
    assert w.pips_of(w.dice[2]) == 2
    w.send_to_bag(w.dice[4])
    assert w.pips_of(w.dice[2]) == 1 and w.sphere_mods() == []


def test_a_work_copy_holds_every_field_and_its_own_lists() -> None:
    w = Work(duel(["0 rot essence 6", "1 rot essence 6", "0 gruen glyph 1"]))
    other = w.copy()
    assert all(getattr(other, name) == getattr(w, name) for name in Work.__slots__)
    other.dice.pop()
    other.stack.append(Entry("end"))
    other.out.append(1)
    assert len(w.dice) == 3 and not w.stack and not w.out


def test_weltentor_runes_float_when_essences_are_chosen() -> None:
    match = m.start(ENGINE, {"weltentor": True, "start": 0, "auswahl": "draft"}, 1, 2)
    for turn in range(16):
        match, _ = m.apply(ENGINE, match, "draft rot" if turn < 8 else "draft grau", turn % 2)
    assert Schwebe("rot", 3) in legal(match.state, 0)
    match, _ = m.apply(ENGINE, match, "schwebe rot 3", 0)
    assert match.state.dice[0].zone == "float" and match.state.dice[0].pips == 3
    assert m.decisions(ENGINE, match)[0].seat == 0  # still choosing an essence


def test_notation_that_cannot_be_read_is_bad_input_and_changes_nothing() -> None:
    from engines.core.errors import BadInput

    for text in ("", "lege", "lege rot", "zaubern rot", "ende jetzt", "wahl"):
        with pytest.raises(BadInput):
            ENGINE.parse_action(text)
    state = duel(["0 rot essence 6", "1 rot essence 6", "0 rot hand"])
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, Lege("rot", 3, 0), 1)
    assert error.value.key == "felsenfeuer.error.not_your_turn"
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, Lege("grau", 3, 0), 0)
    assert error.value.key == "felsenfeuer.error.illegal"


def test_a_step_of_another_phase_is_refused_naming_the_phase() -> None:
    """Issue 19: a refused typed move says why: a glyph typed while the Auswahl is chosen is
    told that the Auswahl is made now (the table lists the legal moves after it)."""
    from bot.i18n import t

    state = ENGINE.initial_state({}, 3, 2)
    assert state.phase == "auswahl"
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, Lege("gruen", 2, 0), 0)
    assert error.value.key == "felsenfeuer.error.illegal.auswahl"
    assert "Auswahl" in t(error.value.key, "de") and "selection" in t(error.value.key, "en")


def test_the_view_gives_the_renderer_every_area_and_keeps_the_sealed_auswahl_secret() -> None:
    state, _ = cast(build([line.format(colour="rot", pips=5) for line in BASE]),
                    "vogelaspekt", 0, 0)  # fmt: skip
    view = ENGINE.view_for(state, 1)
    assert {"phase", "stone", "initiative", "duellplatz", "spell_rune", "seats", "matrices",
            "dice", "stack", "decision", "spheres", "winners"} <= set(view)  # fmt: skip
    seat0 = view["seats"][0]
    assert seat0["essence_points"] == 11 and seat0["hands"] == [["rot"], []]
    assert seat0["bag"] == ["grau"] and view["matrices"][1]["runes"] == [14]
    assert view["decision"]["seat"] == 0 and view["decision"]["spells"][0]["name"]
    assert view["stack"][-1]["text_de"] == "Sprich einen beliebigen roten Zauber."
    assert view["dice"][0]["spruchrune"] and view["duellplatz"] == 0
    match = m.start(ENGINE, {"start": 0}, 5, 2)
    match, _ = m.apply(ENGINE, match, "auswahl 2-2-2-2-0", 0)
    assert ENGINE.view_for(match.state, 0)["own_auswahl"] == "auswahl:2-2-2-2-0"
    assert "2-2-2-2-0" not in json.dumps(ENGINE.view_for(match.state, 1))
    assert "2-2-2-2-0" not in json.dumps(ENGINE.view_for(match.state, None))


def test_two_dice_of_one_owner_and_colour_are_the_same_for_the_repetition_rule() -> None:
    one = duel(["0 rot essence 6", "1 rot essence 6", "0 violett hand", "0 violett rune 3"])
    two = duel(["0 rot essence 6", "1 rot essence 6", "0 violett rune 3", "0 violett hand"])
    assert situation(one) == situation(two)
    other = duel(["0 rot essence 6", "1 rot essence 6", "0 violett hand", "0 violett rune 4"])
    assert situation(one) != situation(other)
