"""What the first play-test of ``/armageddon`` found (issue #14), each pinned: an alliance that
would leave one side is refused, an overcrowding is named by its field, the game master may
overrule while a placement error is being resolved, the generic end reasons are worded."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import pytest

from bot.i18n import t
from engines.armageddon.engine import ENGINE
from engines.core.contract import Outcome
from engines.core.errors import BadInput, IllegalAction
from tests.unit.test_armageddon_rules import ROW3, game, legal, play, refused


def test_an_alliance_of_the_only_two_parties_is_neither_offered_nor_accepted() -> None:
    state = game("figur: 1 krieger a1\nfigur: 2 krieger c1\n", start=False)
    assert not any(a.startswith("ally") for a in legal(state, 0))
    refused(state, 0, "ally 1 2", "one_side_alliance")
    assert state.phase == "setup"


def test_with_three_parties_one_alliance_is_fine_but_not_the_one_that_joins_all() -> None:
    body = "figur: 1 krieger a1\nfigur: 2 krieger b1\nfigur: 3 krieger c1\n"
    state = game(body, parties=3, start=False)
    state = play(state, 0, "ally 1 2")
    assert "ally 1 2" in legal(state, 0)  # breaking it is always possible
    assert "ally 2 3" not in legal(state, 0)
    refused(state, 0, "ally 2 3", "one_side_alliance")
    state = play(state, 0, "start")
    assert state.phase == "move"


CROWD = "figur: 1 krieger a1\nfigur: 1 krieger a1\nfigur: 1 krieger a1\nfigur: 1 krieger a1\n"


def test_a_waiting_overcrowding_is_named_by_its_field_not_an_internal_id() -> None:
    state = game(CROWD + "figur: 1 krieger a1\nfigur: 2 krieger c1\n", start=False)
    assert state.crowds
    with pytest.raises(IllegalAction) as caught:
        play(state, 2, "end")
    assert caught.value.key == "armageddon.error.resolve_first"
    assert caught.value.params == {"field": "a1", "player": 1}
    for lang in ("de", "en"):
        text = t(caught.value.key, lang, **caught.value.params)
        assert "a1" in text and "f:" not in text


def test_the_game_master_may_overrule_while_a_placement_error_is_resolved() -> None:
    state = game(CROWD + "figur: 1 krieger a1\nfigur: 2 krieger c1\n", start=False)
    assert any(d.seat == 0 for d in ENGINE.decisions(state))
    assert "gm remove k1" in legal(state, 0)
    state = play(state, 0, "gm remove k1 -- zu viele")
    assert not state.crowds and state.phase == "setup"
    assert "start" in legal(state, 0)


@pytest.mark.parametrize("reason", ["draw_agreed", "resign", "forfeit"])
def test_every_generic_end_reason_is_worded_without_a_missing_key(
    reason: str, caplog: pytest.LogCaptureFixture
) -> None:
    from bot.play.specs.armageddon import SPEC

    state = game("figur: 1 krieger a1\nfigur: 2 krieger c1\n")
    outcome = Outcome(frozenset() if reason == "draw_agreed" else frozenset({1}), reason)
    for lang in ("de", "en"):
        ctx: Any = SimpleNamespace(
            match=SimpleNamespace(state=state), names=["Greta", "Alice", "Bob"], lang=lang
        )
        with caplog.at_level(logging.ERROR, logger="bot.i18n"):
            text = SPEC.outcome_text(outcome, ctx)
        assert t(f"play.reason.{reason}", lang) in text
    assert not caplog.records


def _ctx(state: Any, lang: str) -> Any:
    return SimpleNamespace(
        match=SimpleNamespace(state=state), names=["Greta", "Alice", "Bob"], lang=lang
    )


@pytest.mark.parametrize(
    ("rolls", "values", "de", "en"),
    [
        ([1, 2], [3, 2], "Gleichstand, niemand fällt", "a tie, nobody falls"),
        ([6, 1], [3, 2], "la2 unterliegt", "la2 loses"),
        ([1, 6], [3, 2], "la1 unterliegt", "la1 loses"),
    ],
)
def test_a_fight_line_says_value_roll_total_on_each_side_and_who_falls(
    rolls: list[int], values: list[int], de: str, en: str
) -> None:
    from bot.narration.armageddon import Words, event_line

    state = game("figur: 1 lanze a1\nfigur: 2 lanze c1\n")
    view = ENGINE.view_for(state, None)
    totals = [rolls[0] + values[0], rolls[1] + values[1]]
    data = {"why": "attack", "attacker": "la1", "defender": "la2", "rolls": rolls}
    data |= {"values": values, "totals": totals}
    for lang, result in (("de", de), ("en", en)):
        line = event_line("fight", data, Words(view, ["G", "A", "B"], lang), 1)
        roll = "Wurf" if lang == "de" else "roll"
        assert f"{values[0]} + {roll} {rolls[0]} = {totals[0]}" in line
        assert f"{values[1]} + {roll} {rolls[1]} = {totals[1]}" in line
        assert result in line, line


def test_a_resigning_party_s_figures_leave_in_one_line() -> None:
    from bot.play.spec import Steps
    from bot.play.specs.armageddon import SPEC

    state = game("figur: 1 krieger a1\n" * 3 + "figur: 2 krieger c1\nfigur: 2 krieger c1\n")
    state, evs = ENGINE.eliminate(state, 1)
    assert sum(e.type == "removed" for e in evs) == 3
    for lang in ("de", "en"):
        lines = SPEC.narrate(Steps([(1, e) for e in evs]), _ctx(state, lang))
        assert len([line for line in lines if "3" in line]) == 1, lines
        assert not any("k1" in line or "k2" in line for line in lines), lines


def test_the_alliance_menu_says_whether_a_click_makes_or_breaks_one() -> None:
    from bot.narration.armageddon import Words
    from bot.play.specs.armageddon import decision_text, option_label

    body = "figur: 1 krieger a1\nfigur: 2 krieger b1\nfigur: 3 krieger c1\n"
    state = game(body, parties=3, start=False)
    state = play(state, 0, "ally 1 2")
    w = Words(ENGINE.view_for(state, None), ["G", "Alice", "Bob", "Carol"], "de")
    assert option_label("2", ("ally", "1"), w).startswith("Bündnis lösen:")
    assert option_label("3", ("ally", "1"), w).startswith("Bündnis schließen:")
    assert "Alice" in option_label("2", ("ally", "1"), w)
    setup = decision_text("armageddon.prompt.setup", {}, w)
    assert "Bündnisse:" in setup and "Alice" in setup and "Bob" in setup
    en = Words(ENGINE.view_for(state, None), ["G", "Alice", "Bob", "Carol"], "en")
    assert option_label("2", ("ally", "1"), en).startswith("Break the alliance:")


@pytest.mark.parametrize("key", ["move", "act", "setup"])
def test_phase_prompts_name_the_button_not_only_the_notation(key: str) -> None:
    button = {"move": "verb.end", "act": "verb.done", "setup": "verb.start"}[key]
    for lang in ("de", "en"):
        assert t(f"armageddoncog.{button}", lang) in t(f"armageddon.prompt.{key}", lang, round=1)


@pytest.mark.parametrize("name", ["scharmuetzel", "flussuebergang", "belagerung"])
def test_no_shipped_scenario_is_won_by_doing_nothing(name: str) -> None:
    from engines.armageddon.scenario import load, parse

    text, file = load(name)
    seats = parse(text, file).parties + 1
    state = ENGINE.initial_state({"scenario": name, "rounds": 1}, 1, seats)
    while state.crowds:
        seat = state.crowds[0][1]
        state = ENGINE.apply(state, ENGINE.legal_actions(state, seat)[0], seat)[0]
    state = play(state, 0, "start")
    while state.phase != "end":
        state = play(state, state.active, "end" if state.phase == "move" else "done")
    result = ENGINE.outcome(state)
    assert result is not None and result.reason == "points_tie", result


def test_a_handelszentrum_may_start_neutral() -> None:
    body = "handelszentrum: b1 besitzer 0\nfigur: 1 krieger a1\nfigur: 2 krieger c1\n"
    state = game(body)
    assert dict(state.hz) == {"b1": 0}
    state = play(play(state, 1, "step k1 b1"), 1, "end")
    state = play(state, 2, "end")
    state = play(state, 1, "claim b1")
    assert dict(state.hz) == {"b1": 1}


def test_a_paralysed_warrior_neither_holds_a_handelszentrum_nor_parries() -> None:
    from dataclasses import replace

    from engines.armageddon import rules as R

    body = "handelszentrum: c1 besitzer 2\nfigur: 1 zauberer a1\nfigur: 1 krieger b1\n"
    state = game(body + "figur: 2 krieger c1\n")
    state = play(play(state, 1, "end"), 2, "end")
    state = play(state, 1, "cast z1 laehmen c1")
    state = play(play(state, 1, "done"), 2, "done")
    assert state.round == 2 and fig(state, "k3").enchant == "gelaehmt"
    state = play(play(state, 2, "end"), 1, "step k2 c1")
    idx = R.index(state)
    assert R.counts(idx, idx.on_field("c1")) == {1: 1}  # the paralysed one does not count
    state = play(play(state, 1, "end"), 2, "done")
    state = play(state, 1, "claim c1")
    assert dict(state.hz) == {"c1": 1}
    evs: list[Any] = []
    attacker = replace(fig(state, "k2"), acted=False)
    R.fight(state, attacker, fig(state, "k3"), "attack", evs)
    assert evs[0].data["values"][1] == 0


def fig(state: Any, fid: str) -> Any:
    f = state.figure(fid)
    assert f is not None
    return f


@pytest.mark.parametrize(
    ("karte", "edges", "why", "de", "en"),
    [
        ("T T H1\n", "", "height", "bergauf", "uphill"),
        (ROW3, "fluss: b1 o\n", "river", "Fluss", "river"),
        (ROW3, "mauer: b1 o\n", "wall", "Mauer", "wall"),
    ],
)
def test_a_double_step_without_steps_left_says_where_and_why(
    karte: str, edges: str, why: str, de: str, en: str
) -> None:
    state = play(game(edges + "figur: 1 krieger a1\n", karte=karte), 1, "step k1 b1")
    with pytest.raises(IllegalAction) as caught:
        play(state, 1, "step k1 c1")  # one step left, this one costs two
    assert caught.value.key == f"armageddon.error.no_steps_{why}"
    for lang, word in (("de", de), ("en", en)):
        text = t(caught.value.key, lang, **caught.value.params)
        assert word in text and "c1" in text and "1" in text, text
    assert "does not have enough steps left" in t(caught.value.key, "en", **caught.value.params)


def test_not_adjacent_names_the_figures_field() -> None:
    state = game("figur: 1 krieger a1\n")
    with pytest.raises(IllegalAction) as caught:
        play(state, 1, "step k1 c1")
    text = t(caught.value.key, "de", **caught.value.params)
    assert "an a1" in text, text
    assert "a1" in t(caught.value.key, "en", **caught.value.params)


def test_an_animal_is_taken_by_the_rein_or_let_go_once_a_round() -> None:
    state = game("figur: 1 pferd a1\nfigur: 1 krieger a1\nfigur: 2 krieger c1\n")
    state = play(state, 1, "lead k2 pf1")
    assert "release pf1" not in legal(state, 1)
    refused(state, 1, "release pf1", "rein_once")
    state = play(play(state, 1, "end"), 2, "end")
    state = play(play(state, 1, "done"), 2, "done")
    state = play(state, 2, "end")  # round 2: party 2 begins
    assert "release pf1" in legal(state, 1)
    state = play(state, 1, "release pf1")
    assert not any(a.startswith("lead") for a in legal(state, 1))


def test_a_scenario_preview_has_no_game_number_and_names_parties_by_number_and_colour() -> None:
    from bot.narration.armageddon import map_text
    from bot.play.specs.armageddon import scenario_summary

    for lang, party in (("de", "Partei 1 (rot)"), ("en", "Party 1 (red)")):
        _head, _text, view = scenario_summary("scharmuetzel", lang)
        text = map_text(view, ["GM"], lang, 0)
        assert "#" not in text.title and "?" not in " ".join(text.parties)
        assert text.parties[0].startswith(party), text.parties


def test_spell_buttons_are_capitalised_in_alphabetical_order_and_ask_for_a_target() -> None:
    from bot.narration.armageddon import Words
    from bot.play.specs.armageddon import SPEC, step_of

    state = game("figur: 1 zauberer a1\nfigur: 2 krieger c1\n")
    spells = ["staerken", "laehmen", "schutz", "beschleunigen", "versetzen"]
    for lang in ("de", "en"):
        labels = [o.label for o in SPEC.options(_ctx(state, lang), ("cast", "z1"), spells)]
        assert labels == sorted(labels, key=str.casefold), labels
        assert all(label[:1].isupper() for label in labels), labels
        w = Words(ENGINE.view_for(state, None), ["G", "A", "B"], lang)
        step = step_of(("cast", "z1", "laehmen"), ["c1", "b1"], w)
        assert step == "target"
    assert t("armageddoncog.step.target", "en") == "Target field?"


def test_when_one_alliance_click_is_left_the_button_says_what_it_does() -> None:
    from bot.play.specs.armageddon import SPEC
    from engines.core.choices import ChoiceTree

    body = "figur: 1 krieger a1\nfigur: 2 krieger b1\nfigur: 3 krieger c1\nbuendnis: 1 3\n"
    state = game(body, parties=3, start=False)
    ctx = _ctx(state, "de")
    ctx.names = ["G", "Alice", "Bob", "Dave"]
    ctx.tree = ChoiceTree(ENGINE, ENGINE.legal_actions(state, 0))
    (ally,) = [o for o in SPEC.options(ctx, (), ["ally"])]
    assert ally.label.startswith("Bündnis lösen:") and "Dave" in ally.label


def test_a_carrier_may_be_named_by_its_kind_on_the_field_as_well_as_by_number() -> None:
    from engines.armageddon.scenario import parse

    head = "parteien: 2\nkarte:\nT T T\nende\n"
    by_number = parse(head + "figur: 1 pferd a1\nfigur: 1 recke a1 auf 1\n", "t")
    by_kind = parse(
        head + "figur: 1 krieger c1\nfigur: 1 pferd a1\nfigur: 1 recke a1 auf pferd\n", "t"
    )
    assert by_number.placements[1].carrier == 0
    assert by_kind.placements[2].carrier == 1 and by_kind.placements[2].slot == "sattel"
    with pytest.raises(BadInput):
        parse(head + "figur: 1 pferd a1\nfigur: 1 recke b1 auf pferd\n", "t")


def test_the_game_master_is_no_side_a_party_resigning_ends_a_two_party_game() -> None:
    """The game master referees (``referee_seats``): when one of two parties resigns the other
    wins at once, never the game master; with allies the game goes on while two sides are left."""
    from engines.core import match as m

    duel = m.start(ENGINE, {"scenario": "scharmuetzel"}, 1, 3)
    duel, _ = m.apply(ENGINE, duel, "!resign", 1)
    result = m.outcome(ENGINE, duel)
    assert result is not None and result.winners == frozenset({2}) and result.reason == "resign"
    three = m.start(ENGINE, {"scenario": "flussuebergang"}, 1, 4)
    three, _ = m.apply(ENGINE, three, "!resign", 1)
    assert m.outcome(ENGINE, three) is None  # party 3 (party 1's ally) still plays on
