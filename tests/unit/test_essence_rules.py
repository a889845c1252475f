"""Essence of the Arcane: one scenario per rule of data/essence/RULES.md, positions in notation."""

from __future__ import annotations

import pytest

from engines.core import BadInput, IllegalAction
from engines.essence import ENGINE
from engines.essence.board import from_fen, to_fen
from engines.essence.rules import successors

START = "B2'..B1..B2/......./......./...x.../......./......./A2..A1..A2' 1 a1 - 1 -"
EMPTY_TOP = "......./......./......./"


def play(fen: str, *texts: str) -> str:
    """Play the steps (each by the side to act) and return the resulting position."""
    state = from_fen(fen)
    for text in texts:
        state, _events = ENGINE.apply(state, ENGINE.parse_action(text), state.side)
    return to_fen(state)


def events_of(fen: str, text: str) -> list[str]:
    state = from_fen(fen)
    _state, events = ENGINE.apply(state, ENGINE.parse_action(text), state.side)
    return [e.type for e in events]


def refused(fen: str, text: str, player: int | None = None) -> str:
    state = from_fen(fen)
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, ENGINE.parse_action(text), state.side if player is None else player)
    return caught.value.key


def targets(fen: str, source: str) -> set[str]:
    state = from_fen(fen)
    texts = [ENGINE.action_text(a) for a in ENGINE.legal_actions(state, state.side)]
    return {t.split()[2].split("/")[0] for t in texts if t.startswith(f"move {source} ")}


def test_start_positions_follow_the_setup() -> None:
    assert to_fen(ENGINE.initial_state({}, 0, 2)) == START
    quick = ENGINE.initial_state({"quick": True, "variants": ["schleife"]}, 0, 2)
    assert to_fen(quick) == "B2'.B1.B2/...../..x../...../A2.A1.A2' 1 a1 - 1 schleife"


def test_start_has_the_36_successors_of_the_notes() -> None:
    assert len(successors(from_fen(START))) == 36


@pytest.mark.parametrize(
    ("mote", "expected"),
    [
        ("A1", {"c4", "d3", "c2", "b3"}),
        ("A2", {"d4", "e5", "b2", "a1"}),
        ("A2'", {"b4", "a5", "d2", "e1"}),
        ("A3", {"c4", "c5", "c6", "d3", "e3", "c2", "c1", "b3", "a3", "d4", "e5", "f6", "b2",
                "a1"}),
        ("A4", {"d4", "e5", "f6", "d2", "e1", "b4", "a5", "b2", "a1"}),
        ("A6", {"d4", "e5", "f6", "d2", "e1", "b4", "a5", "b2", "a1", "d3", "e3", "b3",
                "a3"}),
        ("A6'", {"d4", "e5", "f6", "d2", "e1", "b4", "a5", "b2", "a1", "c4", "c5", "c6", "c7",
                 "c2", "c1"}),
    ],
)  # fmt: skip
def test_directions_follow_the_pips(mote: str, expected: set[str]) -> None:
    fen = f"......B1/......./......./......./..{mote}..x./......./....... 1 a1 - 3 -"
    assert targets(fen, "c3") == expected


def test_face_five_moves_in_all_eight_directions() -> None:
    fen = "......B1/......./......./......./..A5..x./......./....... 1 a1 - 3 -"
    assert {"c7", "f6", "e3", "e1", "c1", "a1", "a3", "a5"} <= targets(fen, "c3")
    assert "g7" not in targets(fen, "c3")  # B1 stands there
    assert "f3" not in targets(fen, "c3")  # the void on f3 blocks the way east


def test_moves_may_not_enter_or_pass_motes_or_the_void() -> None:
    fen = "......B1/......./......./...x.../......./...A1.../...A3... 1 a1 - 3 -"
    assert targets(fen, "d1") == {"c1", "b1", "a1", "e1", "f1", "g1", "e2", "f3", "g4"}
    assert refused(fen, "move d1 d3") == "essence.error.blocked"
    fen = "......B1/......./......./...x.../......./......./...A3... 1 a1 - 3 -"
    assert refused(fen, "move d1 d4") == "essence.error.blocked"
    assert refused(fen, "move d1 d5") == "essence.error.too_far"
    assert refused(fen, "move d1 e3") == "essence.error.not_a_line"


def test_orientation_is_chosen_for_touched_motes_only_where_the_face_has_one() -> None:
    assert play(START, "move a1 b2/1").startswith(
        "B2'..B1..B2/......./......./...x.../......./.A2'...../...A1..A2'"
    )
    assert play(START, "move a1 b2").split()[0].endswith("/.A2...../...A1..A2'")
    assert refused(START, "move d1 d2/1") == "essence.error.no_orientation"
    grown = play("B2'..B1..B2/......./......./...x.../......./......./A2..A1..A2' 1 g - 3 -",
                 "grow d1/1")  # fmt: skip
    assert grown.split()[0].endswith("A2..A2'..A2'") and " a1 - 3 " in grown


def test_destabilize_hits_neighbours_of_both_players_keeping_orientation_if_possible() -> None:
    fen = "......B1/......./......./...x.../B3'B4B3'..../.A5A2'..../......A1 1 a1 - 3 -"
    after = play(fen, "destab b2 1")
    # b3 B3' -> B2' (both faces orientable), c3 B3' -> B2', a3 B4 -> B3, own c2 A2' -> A1
    assert after.split()[0] == "......B1/......./......./...x.../B2'B3B2'..../.A4A1..../......A1"
    after = play(fen, "destab b2/0 2")
    assert after.split()[0] == "......B1/......./......./...x.../B1B2B1..../.A3...../......A1"
    assert "removed" in events_of(fen, "destab b2 2")


def test_destabilize_may_not_sacrifice_the_last_mote() -> None:
    fen = "......B3/......./......./...x.../......./B1....../A1B1..... 1 a1 - 3 -"
    assert refused(fen, "destab a1 1") == "essence.error.last_mote"
    assert refused(fen, "destab a1 2") == "essence.error.bad_amount"


def test_destabilizing_the_last_enemy_mote_wins() -> None:
    fen = "......./......./......./...x.../......./B2....../A3...... 1 a2 move 3 -"
    state = from_fen(play(fen, "destab a1 2"))
    assert to_fen(state).split()[1:3] == ["1", "end"]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == frozenset({0})
    assert not ENGINE.decisions(state)
    assert events_of(fen, "destab a1 2")[-1] == "game_won"


def test_growth_is_skipped_in_each_players_first_turn() -> None:
    after_turn_1 = play(START, "void d5", "move d1 d2")
    assert after_turn_1.split()[1:5] == ["2", "a1", "-", "2"]
    after_turn_2 = play(after_turn_1, "void d4", "move d7 d6")
    assert after_turn_2.split()[1:5] == ["1", "g", "-", "3"]
    assert refused(after_turn_2, "move d2 d3") == "essence.error.growth_first"
    assert refused(play(after_turn_2, "grow a1"), "grow a1") == "essence.error.no_growth_now"


def test_growth_is_skipped_when_all_own_motes_are_six() -> None:
    fen = "B6.....B6/......./......./...x.../......./......./A2...... 1 a2 move 3 -"
    assert play(fen, "void d5").split()[1:5] == ["2", "a1", "-", "4"]
    fen = "B6.....B5/......./......./...x.../......./......./A2...... 1 a2 move 3 -"
    assert play(fen, "void d5").split()[1:5] == ["2", "g", "-", "4"]
    assert refused(play(fen, "void d5"), "grow a7") == "essence.error.mote_at_max"


def test_the_two_actions_must_differ() -> None:
    fen = play(START, "move d1 d2")
    assert refused(fen, "move d2 d3") == "essence.error.same_type_twice"


def test_the_turn_ends_when_no_second_action_exists() -> None:
    fen = "......./......./......./...x.../......./B1B1...../A1B1..... 1 a1 - 3 -"
    after = play(fen, "void d5")
    assert after.split()[1:5] == ["2", "g", "-", "4"]
    assert "turn_started" in events_of(fen, "void d5")


def test_split_and_its_orientations() -> None:
    after = play(START, "split a1 b1/1")
    assert after.split()[0].endswith("/.A2'.A1..A2'")
    fen = "......B1/......./......./...x.../......./......./...A5... 1 a1 - 3 -"
    assert play(fen, "split d1/1 e2/1").split()[0].endswith("/....A2'../...A3'...")
    assert refused(fen, "split d1 f2") == "essence.error.not_adjacent"
    assert refused(START, "split d1 d2") == "essence.error.too_weak"
    crowded = "......B1/......./......./...x.../......./......./...A5A1.. 1 a1 - 3 -"
    assert refused(crowded, "split d1 e1") == "essence.error.occupied"


def test_heal_gives_amount_plus_one_capped_at_six() -> None:
    fen = "......B1/......./......./...x.../......./......./..A3A5... 1 a1 - 3 -"
    assert play(fen, "heal c1 d1 1").split()[0].endswith("/..A2A6...")
    assert play(fen, "heal c1 d1/1 2").split()[0].endswith("/..A1A6'...")
    assert play(fen, "heal c1 d1 3").split()[0].endswith("/...A6...")
    assert refused(fen, "heal c1 d1 4") == "essence.error.bad_amount"
    assert refused(fen, "heal c1 g7 1") == "essence.error.not_adjacent"
    assert refused(fen, "heal c1 b2 1") == "essence.error.not_friendly"


def test_void_shift_destroys_a_mote_and_counts_as_a_capture() -> None:
    fen = "B2'..B1..B2/......./......./...x.../..B3..../......./A2..A1..A2' 1 a1 - 5 - 7"
    after = play(fen, "void c3")
    assert after == ("B2'..B1..B2/......./......./......./..x..../......./A2..A1..A2' "
                     "1 a2 void 5 -")  # fmt: skip
    assert events_of(fen, "void c3") == ["void_shifted", "destroyed"]
    assert refused(fen, "void a1") == "essence.error.void_too_far"


def test_shifting_the_void_onto_the_own_last_mote_loses() -> None:
    fen = "......B1/......./......./...x.../...A2.../......./....... 1 a1 - 3 -"
    assert play(fen, "void d3").split()[1:3] == ["2", "end"]


def test_quiet_turns_and_the_turn_limit_draw() -> None:
    fen = "......B1/......./......./...x.../......./......./A2...... 1 a2 move 3 - 29"
    state = from_fen(play(fen, "void d5"))
    assert to_fen(state).split()[1:3] == ["0", "end"]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.is_draw and outcome.reason == "quiet_limit"
    fen = "......B1/......./......./...x.../......./......./A2...... 2 a2 move 200 -"
    outcome = ENGINE.outcome(from_fen(play(fen, "void d5")))
    assert outcome is not None and outcome.reason == "turn_limit"
    fen = "......B1/......./......./...x.../......./......./A2...... 1 a2 move 3 - 4"
    assert play(fen, "void d5").endswith(" 4 - 5")


def test_bestimmt_lets_a_move_pass_the_void_for_one_strength() -> None:
    fen = "......B1/......./......./...x.../......./...A3.../....... 1 a1 - 3 bestimmt"
    assert play(fen, "move d2 d5/1").split()[0] == (
        "......B1/......./...A2'.../...x.../......./......./......."
    )
    assert refused(fen, "move d2 d4") == "essence.error.blocked"
    assert refused(fen.replace("bestimmt", "-"), "move d2 d5") == "essence.error.blocked"
    assert events_of(fen, "move d2 d5")[0] == "moved"


def test_schleife_wraps_moves_but_not_adjacency() -> None:
    fen = "......B1/......./......./...x.../A1....../......./....... 1 a1 - 3 schleife"
    assert "g3" in targets(fen, "a3")
    assert refused(fen.replace("schleife", "-"), "move a3 g3") == "essence.error.too_far"
    fen = "......B1/......./......./...x.../A3....../......./....... 1 a1 - 3 schleife"
    assert refused(fen, "split a3 g3") == "essence.error.not_adjacent"
    assert refused(fen, "split a3 g4") == "essence.error.not_adjacent"


def test_schleife_moves_never_return_to_their_start_square() -> None:
    fen = "....B1/...../..x../...../A6.... 1 a1 - 3 schleife"
    east = {"b1", "c1", "d1", "e1"}
    assert east <= targets(fen, "a1")
    assert "a1" not in targets(fen, "a1")
    state = from_fen(fen)
    moves = [ENGINE.action_text(a) for a in ENGINE.legal_actions(state, 0)]
    assert "move a1 e1" in moves and "move a1 e1 w" in moves  # usual way east, around west


def test_two_ways_round_differ_under_bestimmt() -> None:
    fen = "......B1/......./......./......./......./......./A5x..... 1 a1 - 3 bestimmt,schleife"
    direct = play(fen, "move a1 c1").split()[0]
    around = play(fen, "move a1 c1 w").split()[0]
    assert direct.endswith(".xA4....") and around.endswith(".xA5....")
    assert play(fen, "move a1 c1 e") == play(fen, "move a1 c1")


def test_beschwoerung_summons_the_void_onto_a_six() -> None:
    fen = "......B1/......./......./...x.../..A6..../......./A1...... 1 a1 - 3 beschwoerung"
    assert play(fen, "summon c3").split()[0] == (
        "......B1/......./......./......./..x..../......./A1......"
    )
    assert events_of(fen, "summon c3") == ["summoned"]
    assert refused(fen.replace("beschwoerung", "-"), "summon c3") == "essence.error.variant_off"
    assert refused(fen.replace("A6", "A5"), "summon c3") == "essence.error.summon_needs_six"


def test_refusals_name_the_problem() -> None:
    assert refused(START, "move d1 d2", player=1) == "essence.error.not_your_turn"
    assert refused(START, "move h1 h2") == "essence.error.off_board"
    assert refused(START, "move d7 d6") == "essence.error.not_own_mote"
    assert refused(START, "split b1 c1") == "essence.error.not_own_mote"
    ended = play("......./......./......./...x.../......./B2....../A3...... 1 a2 move 3 -",
                 "destab a1 2")  # fmt: skip
    assert refused(ended, "void d5") == "essence.error.game_over"


def test_a_refused_action_leaves_the_state_alone() -> None:
    state = from_fen(START)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, ENGINE.parse_action("move d1 d4"), 0)
    assert to_fen(state) == START


def test_bad_configs_are_refused() -> None:
    with pytest.raises(BadInput):
        ENGINE.initial_state({"variants": ["turbo"]}, 0, 2)
    with pytest.raises(BadInput):
        ENGINE.initial_state({"speed": 2}, 0, 2)
    with pytest.raises(BadInput):
        ENGINE.initial_state({}, 0, 3)


def test_summoning_the_own_last_mote_loses() -> None:
    fen = "......B1/......./......./...x.../..A6..../......./....... 1 a1 - 3 beschwoerung"
    state = from_fen(play(fen, "summon c3"))
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == frozenset({1})
