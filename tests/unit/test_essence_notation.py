"""Essence of the Arcane: action and position notation, JSON round trip, view data."""

from __future__ import annotations

import json

import pytest

from engines.core import BadInput
from engines.essence import ENGINE
from engines.essence.actions import Destab, Grow, Heal, Move, Split, Summon, VoidShift
from engines.essence.board import from_fen, to_fen

START = "B2'..B1..B2/......./......./...x.../......./......./A2..A1..A2' 1 a1 - 1 -"


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("grow d1", Grow("d1")),
        ("GROW  D1/1", Grow("d1", 1)),
        ("move a1 c3/1", Move("a1", "c3", 1)),
        ("a1-c3", Move("a1", "c3")),
        ("A1 - C3'", Move("a1", "c3", 1)),
        ("a1 c3", Move("a1", "c3")),
        ("bewege a1 g1 W", Move("a1", "g1", 0, "w")),
        ("move a1 g1 o", Move("a1", "g1", 0, "e")),
        ("split d1 e2", Split("d1", "e2")),
        ("teile d3 / 1 e2/1", Split("d3", "e2", 1, 1)),
        ("heal d1 e1 2", Heal("d1", "e1", 2)),
        ("heile d1, e1/1, 2", Heal("d1", "e1", 2, 0, 1)),
        ("heal d1 e1", Heal("d1", "e1", 1)),
        ("void d5", VoidShift("d5")),
        ("Leere d5", VoidShift("d5")),
        ("destab d1 1", Destab("d1", 1)),
        ("destab d3/1 2", Destab("d3", 2, 1)),
        ("destab d1", Destab("d1", 1)),
        ("summon g1", Summon("g1")),
        ("beschwöre g1", Summon("g1")),
    ],
)
def test_notation_is_forgiving_and_round_trips(text: str, action: object) -> None:
    parsed = ENGINE.parse_action(text)
    assert parsed == action
    assert ENGINE.parse_action(ENGINE.action_text(parsed)) == parsed


@pytest.mark.parametrize(
    "text",
    ["", "   ", "jump a1", "move a1", "move a1/1 c3", "void a1/1", "grow", "destab d1 x",
     "move a1 c3 up", "heal d1 e1 2 3", "split d1", "summon g1 g2", "void d5 n", "a1"],
)  # fmt: skip
def test_unreadable_notation_is_bad_input(text: str) -> None:
    with pytest.raises(BadInput) as caught:
        ENGINE.parse_action(text)
    assert caught.value.key == "essence.error.bad_notation"


def test_every_legal_action_of_the_start_round_trips() -> None:
    state = from_fen(START)
    texts = [ENGINE.action_text(a) for a in ENGINE.legal_actions(state, 0)]
    assert "move a1 c3/1" in texts and "destab g1 2" in texts and "void d5" in texts
    assert all(ENGINE.action_text(ENGINE.parse_action(t)) == t for t in texts)
    assert ENGINE.legal_actions(state, 1) == []


@pytest.mark.parametrize(
    "fen",
    [
        START,
        "B2'.B1.B2/...../..x../...../A2.A1.A2' 1 a1 - 1 bestimmt,schleife,beschwoerung",
        "......./......./..x..../......./......./.A3...../.....A1. 1 end - 11 bestimmt",
        "......B1/......./......./...x.../......./......./A2...... 0 end - 40 - 30",
        "B6.B6.B6/...../..x../...../A6.A5.A6 2 a2 void 30 schleife,beschwoerung 3",
    ],
)
def test_positions_round_trip(fen: str) -> None:
    assert to_fen(from_fen(fen)) == fen


def test_variant_names_are_put_in_canonical_order() -> None:
    fen = "B2'.B1.B2/...../..x../...../A2.A1.A2' 1 a1 - 1 beschwoerung,bestimmt"
    assert to_fen(from_fen(fen)).endswith(" bestimmt,beschwoerung")


@pytest.mark.parametrize(
    ("fen", "reason"),
    [
        ("", "fields"),
        ("B2'..B1..B2/......./......./...x.../......./A2..A1..A2' 1 a1 - 1 -", "size"),
        ("B2'..B1..B2/......./......./...x.../......./......./A2..A1..A2 1 a1 - 1 - 0 0", "fields"),
        ("B2'..B1..B2/......./......./...x.../......./......../A2..A1..A2' 1 a1 - 1 -", "rank"),
        ("B2'..B1..B2/......./......./...x.../......./......./A2..A7..A2' 1 a1 - 1 -", "rank"),
        ("B2'..B1..B2/......./......./...x.../......./......./A2..A4'..A2' 1 a1 - 1 -",
         "orientation"),
        ("B2'..B1..B2/......./......./...x.../......./...x.../A2..A1..A2' 1 a1 - 1 -", "void"),
        ("B2'..B1..B2/......./......./......./......./......./A2..A1..A2' 1 a1 - 1 -", "void"),
        ("B2'..B1..B2/......./......./...x.../......./......./A2..A1..A2' 2 a1 - 1 -", "side"),
        ("B2'..B1..B2/......./......./...x.../......./......./A2..A1..A2' 1 g - 1 -", "growth"),
        ("B2'..B1..B2/......./......./...x.../......./......./A2..A1..A2' 1 a2 - 1 -", "used"),
        ("B2'..B1..B2/......./......./...x.../......./......./A2..A1..A2' 1 a1 jump 1 -", "used"),
        ("B2'..B1..B2/......./......./...x.../......./......./A2..A1..A2' 1 a9 - 1 -", "phase"),
        ("B2'..B1..B2/......./......./...x.../......./......./A2..A1..A2' 1 a1 - 0 -", "turn"),
        ("B2'..B1..B2/......./......./...x.../......./......./A2..A1..A2' x a1 - 1 -", "side"),
        ("B2'..B1..B2/......./......./...x.../......./......./A2..A1..A2' 1 a1 - 1 turbo",
         "variants"),
        ("......./......./......./...x.../......./......./A2..A1..A2' 1 a1 - 1 -", "motes"),
    ],
)  # fmt: skip
def test_malformed_positions_are_bad_input(fen: str, reason: str) -> None:
    with pytest.raises(BadInput) as caught:
        from_fen(fen)
    assert caught.value.key == "essence.error.bad_position"
    assert caught.value.params["reason"] == reason


def test_json_round_trip_is_exact_and_checks_the_schema() -> None:
    state = ENGINE.initial_state({"variants": ["schleife"]}, 7, 2)
    state, _events = ENGINE.apply(state, ENGINE.parse_action("move a1 c3"), 0)
    data = json.loads(json.dumps(ENGINE.state_to_json(state)))
    assert data["last"] == [0, 16] and data["phase"] == "a2" and data["used"] == "move"
    assert ENGINE.state_from_json(data) == state
    with pytest.raises(BadInput):
        ENGINE.state_from_json({**data, "schema": 99})
    with pytest.raises(BadInput):
        ENGINE.state_from_json({**data, "last": ["z9"]})
    with pytest.raises(BadInput):
        ENGINE.state_from_json({**data, "phase": "a3"})


def test_view_has_what_a_renderer_needs() -> None:
    state = ENGINE.initial_state({}, 0, 2)
    state, _events = ENGINE.apply(state, ENGINE.parse_action("move a1 b2/1"), 0)
    view = ENGINE.view_for(state, None)
    assert view["size"] == 7 and view["void"] == "d4" and view["last"] == ["a1", "b2"]
    assert (view["side"], view["phase"], view["used"], view["turn"]) == (0, "a2", "move", 1)
    assert view["available"] == ["split", "void", "destab"]  # no friend beside b2 to heal
    b2 = next(c for c in view["cells"] if c["square"] == "b2")
    assert b2 == {"square": "b2", "file": 1, "rank": 1, "owner": 0, "strength": 2,
                  "orientation": 1, "directions": ["nw", "se"]}  # fmt: skip
    d1 = next(c for c in view["cells"] if c["square"] == "d1")
    assert d1["orientation"] is None and d1["directions"] == ["n", "e", "s", "w"]
    assert view["winner"] is None and view["draw"] is False
    assert view["position"] == to_fen(state)


def test_events_carry_what_the_cog_narrates() -> None:
    state = from_fen("......./......./......./...x.../......./B2....../A3...... 1 a2 move 3 -")
    _state, events = ENGINE.apply(state, ENGINE.parse_action("destab a1 2"), 0)
    assert [e.type for e in events] == ["destabilized", "removed", "game_won"]
    assert events[0].data == {"player": 0, "source": "a1", "amount": 2, "hit": ["a2"]}
    assert events[1].data == {"square": "a2", "player": 1, "strength": 0}
    assert events[2].data == {"player": 0, "reason": "eliminated"}
