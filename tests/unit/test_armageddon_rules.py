"""Armageddon, chapter 0 (Spielmechanismen): one test per testable sentence.

Each test builds a tiny scenario (the text a game master writes), lets the game master start
it and plays the actions the sentence is about. Seat 0 is the game master; parties are 1..n.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engines.armageddon import rules as R
from engines.armageddon.crowds import melee
from engines.armageddon.engine import ENGINE, new_state
from engines.armageddon.scenario import parse
from engines.armageddon.state import State
from engines.core.contract import DecisionKind, Event
from engines.core.errors import BadInput, IllegalAction

ROW3 = "T T T\n"


def game(
    body: str, karte: str = ROW3, parties: int = 2, start: bool = True, seed: int = 1
) -> State:
    text = f"parteien: {parties}\nkarte:\n{karte}ende\n{body}"
    state = new_state(text, "test", seed, parties + 1)
    if start and not state.crowds:
        state = play(state, 0, "start")
    return state


def play(state: State, seat: int, text: str) -> State:
    return ENGINE.apply(state, ENGINE.parse_action(text), seat)[0]


def events(state: State, seat: int, text: str) -> tuple[State, list[Event]]:
    return ENGINE.apply(state, ENGINE.parse_action(text), seat)


def refused(state: State, seat: int, text: str, key: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, ENGINE.parse_action(text), seat)
    assert caught.value.key == f"armageddon.error.{key}", caught.value


def legal(state: State, seat: int) -> set[str]:
    return {ENGINE.action_text(a) for a in ENGINE.legal_actions(state, seat)}


def to_act_phase(state: State, party: int) -> State:
    """End movement for everyone and the action phase of the parties before ``party``."""
    while state.phase == "move":
        state = play(state, state.active, "end")
    while state.active != party:
        state = play(state, state.active, "done")
    return state


def fig(state: State, fid: str) -> Any:
    f = state.figure(fid)
    assert f is not None
    return f


def cost_of(evs: list[Event]) -> int:
    return next(int(e.data["cost"]) for e in evs if e.type in ("stepped", "mounted", "dismounted"))


# ------------------------------------------------------------------ Aufenthalt (REH)


@pytest.mark.parametrize(("terrain", "room"), [("T", 4), ("H", 4), ("B", 3), ("W", 3), ("S", 2)])
def test_a_kleinfeld_has_room_for_4_reh_bergland_and_wald_3_sumpf_2(
    terrain: str, room: int
) -> None:
    full = "".join("figur: 1 krieger b1\n" for _ in range(room))
    state = game("figur: 1 krieger a1\n" + full, karte=f"T {terrain} T\n")
    refused(state, 1, "step k1 b1", "full")
    fewer = "".join("figur: 1 krieger b1\n" for _ in range(room - 1))
    state = game("figur: 1 krieger a1\n" + fewer, karte=f"T {terrain} T\n")
    assert fig(play(state, 1, "step k1 b1"), "k1").field == "b1"


def test_an_elephant_takes_2_reh_and_its_saddle_holds_2() -> None:
    state = game(
        "figur: 1 elefant b1\nfigur: 1 krieger b1\nfigur: 1 krieger b1\nfigur: 1 krieger a1\n"
    )
    refused(state, 1, "step k4 b1", "full")  # 2 + 1 + 1 = 4: full
    state = game(
        "figur: 1 elefant b1\nfigur: 1 krieger b1 auf 1\nfigur: 1 krieger b1 auf 1\n"
        "figur: 1 krieger b1\nfigur: 1 krieger a1\n"
    )
    refused(state, 1, "mount k4 e1", "full")  # the saddle holds two
    assert fig(play(state, 1, "step k5 b1"), "k5").field == "b1"  # riders use the saddle


@pytest.mark.parametrize("kind", ["quadriga", "schildkroete", "belagerungsturm", "drache", "troll"])
def test_nothing_stands_under_or_beside_a_large_figure(kind: str) -> None:
    state = game(f"figur: 2 {kind} b1\nfigur: 1 krieger a1\n")
    refused(state, 1, "step k2 b1", "full")


@pytest.mark.parametrize(
    ("kind", "slot", "room"),
    [("quadriga", "", 3), ("schildkroete", "", 3), ("belagerungsturm", "unten", 3),
     ("belagerungsturm", "oben", 2), ("elefant", "", 2), ("pferd", "", 1)],
)  # fmt: skip
def test_room_on_wagon_tortoise_siege_tower_saddle(kind: str, slot: str, room: int) -> None:
    where = f"auf 1 {slot}".strip()
    riders = "".join(f"figur: 1 krieger a1 {where}\n" for _ in range(room))
    beside = "b1" if kind in ("quadriga", "schildkroete", "belagerungsturm") else "a1"
    state = game(f"figur: 1 {kind} a1\n{riders}figur: 1 krieger {beside}\n")
    carrier = state.figures[0].id
    refused(state, 1, f"mount k{room + 2} {carrier} {slot}".strip(), "full")
    state = game(f"figur: 1 {kind} a1\n{riders[: -len(riders) // room]}figur: 1 krieger {beside}\n")
    state = play(state, 1, f"mount k{room + 1} {carrier} {slot}".strip())
    assert fig(state, f"k{room + 1}").carrier == carrier


def test_a_wizard_hovers_and_takes_no_room() -> None:
    full = "".join("figur: 1 krieger b1\n" for _ in range(4))
    state = game("figur: 1 zauberer a1\n" + full)
    state = play(state, 1, "step z1 b1")
    assert fig(state, "z1").field == "b1" and not R.overcrowded(state)


# ------------------------------------------------------------------ Bewegung


def test_two_steps_per_round_even_back_to_the_start() -> None:
    state = game("figur: 1 krieger a1\n")
    state = play(play(state, 1, "step k1 b1"), 1, "step k1 a1")
    assert fig(state, "k1").field == "a1"
    refused(state, 1, "step k1 b1", "no_steps")


def test_steps_of_different_figures_interleave() -> None:
    state = game("figur: 1 krieger a1\nfigur: 1 krieger c1\n")
    state = play(state, 1, "step k1 b1")
    state = play(state, 1, "step k2 b1")
    state = play(state, 1, "step k1 a1")
    assert (fig(state, "k1").field, fig(state, "k2").field) == ("a1", "b1")


def test_never_more_than_the_room_at_any_moment() -> None:
    three = "".join("figur: 1 krieger b1\n" for _ in range(3))
    state = game("figur: 1 krieger a1\nfigur: 1 krieger c1\n" + three)
    state = play(state, 1, "step k1 b1")
    refused(state, 1, "step k2 b1", "full")
    state = play(state, 1, "step k3 c1")  # one leaves, the next may come in
    state = play(state, 1, "step k2 b1")
    assert not R.overcrowded(state)


DOUBLE = [
    ("T T1 T\n", "", 2),  # Höhenunterschied nach oben
    ("T1 T T\n", "", 2),  # Höhenunterschied nach unten
    (ROW3, "fluss: a1 o\n", 2),  # durch Fluss bewegen
    (ROW3, "fluss: a1 o\nbruecke: a1 o\n", 1),  # a bridge: one step
    (ROW3, "mauer: a1 o\n", 2),  # Mauer übersteigen
    (ROW3, "graben: a1 o\n", 2),  # über Graben bewegen
    (ROW3, "graben: a1 o\nbruecke: a1 o\n", 1),
    (ROW3, "", 1),
]


@pytest.mark.parametrize(("karte", "edges", "cost"), DOUBLE)
def test_double_steps_height_river_wall_moat(karte: str, edges: str, cost: int) -> None:
    state = game(edges + "figur: 1 krieger a1\n", karte=karte)
    state, evs = events(state, 1, "step k1 b1")
    assert cost_of(evs) == cost and fig(state, "k1").steps == cost


def test_an_open_gate_is_one_step_a_closed_one_is_climbed() -> None:
    state = game("tor: a1 o innen b1\nfigur: 1 krieger a1\n")
    assert cost_of(events(state, 1, "step k1 b1")[1]) == 2
    state = play(state, 0, "gm gate a1/o -- Tor steht offen")
    assert cost_of(events(state, 1, "step k1 b1")[1]) == 1


def test_animals_and_devices_cannot_climb_walls_or_cross_rivers() -> None:
    state = game("mauer: a1 o\nfigur: 1 pferd a1\nfigur: 1 krieger a1 auf 1\n")
    refused(state, 1, "step pf1 b1", "wall")
    state = game("fluss: a1 o\nfigur: 1 widder a1\nfigur: 1 krieger a1\n")
    refused(state, 1, "step w1 b1", "river")


def test_going_up_a_tower_over_its_stairs_is_a_double_step_down_is_one() -> None:
    state = game("turm: b1 2 besitzer 1\nfigur: 1 krieger b1\n")
    state = play(state, 1, "up k1")
    assert fig(state, "k1").level == 1 and fig(state, "k1").steps == 2
    refused(state, 1, "up k1", "no_steps_stairs")
    state = game("turm: b1 2 besitzer 1\nfigur: 1 krieger b1 ebene 2\n")
    state = play(play(state, 1, "down k1"), 1, "down k1")
    assert fig(state, "k1").level == 0


@pytest.mark.parametrize(
    ("kind", "cost", "off"), [("elefant", 2, ""), ("quadriga", 2, " b1"), ("pferd", 1, "")]
)
def test_mounting_a_quadriga_wagon_or_an_elephant_is_a_double_step(
    kind: str, cost: int, off: str
) -> None:
    beside = "b1" if off else "a1"
    state = game(f"figur: 1 {kind} a1\nfigur: 1 krieger {beside}\n")
    carrier = state.figures[0].id
    state, evs = events(state, 1, f"mount k2 {carrier}")
    assert cost_of(evs) == cost
    state = game(f"figur: 1 {kind} a1\nfigur: 1 krieger a1 auf 1\n")
    assert cost_of(events(state, 1, f"dismount k2{off}")[1]) == cost


def test_from_a_ladder_onto_a_platform_is_a_double_step() -> None:
    state = game("turm: b1 1 besitzer 2\nfigur: 1 leiter a1 blick o\nfigur: 1 krieger a1\n")
    state, evs = events(state, 1, "climb k2 le1")  # an Aktion: no step
    assert fig(state, "k2").steps == 0 and fig(state, "k2").carrier == "le1"
    state, evs = events(state, 1, "step k2 b1")
    assert cost_of(evs) == 2 and fig(state, "k2").level == 1


def test_never_more_than_4_warriors_on_a_kleinfeld_ladders_included() -> None:
    """Kap. 0: "dass sich auf keinem Kleinfeld zu keinem Zeitpunkt mehr als 4 Krieger
    aufhalten": a ladder (1 REH) with two warriors on it and one beside leaves room (3 of 4
    REH) but 3 warriors already; one more makes 4, a fifth is refused."""
    body = (
        "figur: 1 leiter b1\nfigur: 1 krieger b1 auf 1\nfigur: 1 krieger b1 auf 1\n"
        "figur: 1 krieger b1\nfigur: 1 krieger a1\nfigur: 1 krieger a1\n"
    )
    state = game(body)
    state = play(state, 1, "step k5 b1")
    refused(state, 1, "step k6 b1", "four_warriors")
    assert "step k6 b1" not in legal(state, 1)
    five = body + "figur: 1 krieger b1\n" * 2
    crowded = new_state(f"parteien: 2\nkarte:\n{ROW3}ende\n{five}", "t", 1, 3)
    assert crowded.crowds  # a scenario placing a fifth warrior there is a placement error
    horse = "figur: 1 leiter b1\nfigur: 1 krieger b1 auf 1\nfigur: 1 krieger b1 auf 1\n"
    horse += "figur: 1 krieger b1\nfigur: 1 pferd a1\nfigur: 1 krieger a1 auf 5\n"
    state = play(game(horse), 1, "step pf5 b1")  # a rider counts: 4 warriors, room 3 of 4
    assert fig(state, "pf5").field == "b1"
    assert fig(play(state, 1, "dismount k6"), "k6").carrier == ""  # still 4 warriors there


def test_a_place_swap_never_brings_more_than_4_warriors_onto_a_field() -> None:
    """A ladder with two warriors on it and its crew swapping with two warriors: the REH are
    equal, but the two on the ladder would make five warriors on the other field."""
    a_side = (
        "figur: 1 leiter a1\nfigur: 1 krieger a1 auf 1\nfigur: 1 krieger a1 auf 1\n"
        "figur: 1 krieger a1\nfigur: 1 pferd a1\nfigur: 1 pferd a1\n"
    )
    state = game(a_side + "figur: 1 krieger b1\n" * 4, karte="T T\n")
    refused(state, 1, "swap le1 k7+k8", "four_warriors")


def test_from_a_siege_tower_onto_a_platform_is_a_double_step() -> None:
    state = game(
        "turm: b1 1 besitzer 2\nfigur: 1 belagerungsturm a1 blick o\n"
        "figur: 1 krieger a1 auf 1 oben\n"
    )
    state, evs = events(state, 1, "step k2 b1")
    assert cost_of(evs) == 2 and fig(state, "k2").level == 1


@pytest.mark.parametrize(("ship", "cost"), [("langschiff", 2), ("segelschiff", 2), ("floss", 1)])
def test_boarding_and_leaving_a_longship_or_sailing_ship_is_a_double_step(
    ship: str, cost: int
) -> None:
    state = game(
        f"figur: 1 {ship} b1\nfigur: 1 krieger a1\nfigur: 1 krieger b1 auf 1\n", karte="T ~ ~\n"
    )
    state, evs = events(state, 1, "step k2 b1")
    assert cost_of(evs) == cost and fig(state, "k2").carrier == state.figures[0].id
    assert cost_of(events(state, 1, "step k3 a1")[1]) == cost


def test_no_figure_enters_a_field_it_may_not_stand_on() -> None:
    state = game(
        "figur: 1 krieger a1\nfigur: 1 elefant a1\nfigur: 1 krieger a1 auf 2\n", karte="T ~ S\n"
    )
    refused(state, 1, "step k1 b1", "water")
    state = game("figur: 1 elefant b1\nfigur: 1 krieger b1 auf 1\n", karte="T T S\n")
    refused(state, 1, "step e1 c1", "forbidden_swamp")  # the message names the terrain


def test_turning_only_at_the_end_of_movement_or_instead_of_it() -> None:
    state = game("figur: 1 phalanx a1 blick o\n")
    state = play(state, 1, "face ph1 sw")  # instead of the movement
    refused(state, 1, "step ph1 b1", "turned")
    state = game("figur: 1 phalanx a1 blick o\n")
    state = play(play(state, 1, "step ph1 b1"), 1, "face ph1 w")
    assert fig(state, "ph1").facing == "w"
    refused(state, 1, "step ph1 a1", "turned")


# ------------------------------------------------------------------ Platztausch


def _swap_game(a: str, b: str, karte: str = "T T\n") -> State:
    return game(a.replace("@", "a1") + b.replace("@", "b1"), karte=karte)


FOUR = "figur: 1 krieger @\n" * 3


@pytest.mark.parametrize(
    ("a_side", "b_side", "action", "key"),
    [
        ("figur: 1 krieger @\n" + FOUR, "figur: 1 krieger @\n" + FOUR, "swap k1 k5", ""),
        ("figur: 1 phalanx @\n" + FOUR, "figur: 1 krieger @\n" + FOUR, "swap ph1 k5", ""),
        ("figur: 1 phalanx @\n" + FOUR, "figur: 1 phalanx @\n" + FOUR, "swap ph1 ph5",
         "no_swap_phalanx"),
        ("figur: 1 pferd @\nfigur: 1 krieger @ auf 1\n" + FOUR, "figur: 1 krieger @\n" + FOUR,
         "swap pf1 k6", ""),
        ("figur: 1 elefant @\nfigur: 1 krieger @ auf 1\nfigur: 1 krieger @\nfigur: 1 krieger @\n",
         "figur: 1 krieger @\n" + FOUR, "swap e1 k5+k6", ""),
        ("figur: 1 widder @\nfigur: 1 krieger @\nfigur: 1 krieger @\nfigur: 1 krieger @\n",
         "figur: 1 krieger @\n" + FOUR, "swap w1 k5+k6", ""),
        ("figur: 1 leiter @\nfigur: 1 krieger @\nfigur: 1 krieger @\nfigur: 1 krieger @\n",
         "figur: 1 krieger @\n" + FOUR, "swap le1 k5+k6", ""),
        ("figur: 1 onager @\nfigur: 1 krieger @\nfigur: 1 krieger @\nfigur: 1 krieger @\n",
         "figur: 1 krieger @\n" + FOUR, "swap o1 k5+k6", ""),
        ("figur: 1 quadriga @\nfigur: 1 krieger @ auf 1\n", "figur: 1 krieger @\n" + FOUR,
         "swap q1 k3", "no_swap"),
        ("figur: 1 schildkroete @\nfigur: 1 krieger @ auf 1\n", "figur: 1 krieger @\n" + FOUR,
         "swap sk1 k3", "no_swap"),
        ("figur: 1 belagerungsturm @\nfigur: 1 krieger @ auf 1 unten\n",
         "figur: 1 krieger @\n" + FOUR, "swap bt1 k3", "no_swap"),
        ("figur: 1 krieger @\n" * 3, "figur: 1 krieger @\n" + FOUR, "swap k1 k4", "not_full"),
    ],
)  # fmt: skip
def test_the_place_swap_table(a_side: str, b_side: str, action: str, key: str) -> None:
    state = _swap_game(a_side, b_side)
    if key:
        refused(state, 1, action, key)
        return
    before = {f.id: f.field for f in state.figures}
    state = play(state, 1, action)
    moved = [f for f in state.figures if f.field != before[f.id]]
    assert moved and not R.overcrowded(state)
    assert {f.field for f in moved} == {"a1", "b1"}


def test_a_ship_never_swaps() -> None:
    state = game("figur: 1 floss a1\nfigur: 1 krieger a1 auf 1\nfigur: 1 floss b1\n", karte="~ ~\n")
    refused(state, 1, "swap fl1 fl3", "no_swap")


def test_inside_a_tower_swaps_are_free() -> None:
    state = game("turm: a1 2 besitzer 1\nfigur: 1 krieger a1\nfigur: 1 krieger a1 ebene 1\n")
    state = play(state, 1, "swap k1 k2")
    assert (fig(state, "k1").level, fig(state, "k2").level) == (1, 0)


# ------------------------------------------------------------------ moves that are no movement


def test_versetzen_is_no_movement() -> None:
    state = game("figur: 1 zauberer a1\nfigur: 1 krieger a1\n", karte="T T T T\n")
    state = to_act_phase(play(state, 1, "step k2 b1"), 1)
    state = play(state, 1, "cast z1 versetzen b1 d1")
    k = fig(state, "k2")
    assert k.field == "d1" and k.steps == 1 and k.enchant == "versetzt"


def test_an_animal_taken_over_after_being_moved_moves_again_only_next_round() -> None:
    state = game("figur: 1 pferd a1\nfigur: 1 krieger a1 auf 1\nfigur: 2 krieger c1\n")
    state = play(state, 1, "step pf1 b1")
    state = play(play(state, 1, "dismount k2"), 1, "step k2 a1")
    state = play(state, 1, "end")
    state = play(play(state, 2, "step k3 b1"), 2, "mount k3 pf1")
    assert fig(state, "pf1").owner == 2  # Aufsitzen: erobert
    refused(state, 2, "step pf1 c1", "moved_by_other")


def test_an_animal_taken_over_by_the_rein_after_being_moved_is_not_led_along() -> None:
    """Kap. 0: taken over right after it moved, it moves again only in a new round, by no
    path: its new owner's leader does not take it along by the rein either."""
    state = game("figur: 1 pferd a1\nfigur: 1 krieger a1 auf 1\nfigur: 2 krieger c1\n")
    state = play(state, 1, "step pf1 b1")
    state = play(play(state, 1, "dismount k2"), 1, "step k2 a1")
    state = play(state, 1, "end")
    state = play(play(state, 2, "step k3 b1"), 2, "lead k3 pf1")
    assert fig(state, "pf1").owner == 2 and fig(state, "pf1").led_by == "k3"
    refused(state, 2, "step k3 c1", "moved_by_other")
    assert "step k3 c1" not in legal(state, 2)
    state = play(play(play(state, 2, "end"), 1, "done"), 2, "done")
    assert state.round == 2 and state.active == 2
    state = play(state, 2, "step k3 c1")  # a new round: it goes along again
    assert fig(state, "pf1").field == "c1"


def test_a_device_taken_over_after_its_transport_moves_again_only_next_round() -> None:
    """Devices change hands in the action phase, after every transport of the round; the new
    possessor moves it from the next round on (and only the one who moved it, this round)."""
    body = "figur: 1 widder a1\nfigur: 1 krieger a1\nfigur: 2 krieger b1\nfigur: 2 krieger b1\n"
    state = play(game(body), 1, "step w1 b1")  # its crew k2 walks along
    assert fig(state, "w1").mover == 1
    state = play(state, 1, "end")
    refused(state, 2, "step w1 c1", "moved_by_other")
    state = to_act_phase(state, 2)
    state = play(state, 2, "claim w1")  # 2:1 on its field
    assert fig(state, "w1").possessor == 2 and fig(state, "w1").mover == 1
    state = play(state, 2, "done")
    assert (state.round, state.active) == (2, 2)
    assert fig(play(state, 2, "step w1 c1"), "w1").field == "c1"


# ------------------------------------------------------------------ Eigentum und Besitz


def test_an_animal_standing_alone_is_conquered_by_mounting_or_the_rein() -> None:
    state = game("figur: 2 pferd b1\nfigur: 1 krieger a1\n")
    state = play(play(state, 1, "step k2 b1"), 1, "lead k2 pf1")
    assert fig(state, "pf1").owner == 1 and fig(state, "pf1").led_by == "k2"


def test_an_animal_guarded_by_its_owner_is_not_alone() -> None:
    state = game("figur: 2 pferd a1\nfigur: 2 krieger a1\nfigur: 1 krieger a1\n")
    refused(state, 1, "mount k3 pf1", "animal_guarded")


def test_an_animal_ridden_by_an_enemy_is_taken_only_after_its_rider_fell() -> None:
    state = game("figur: 2 elefant a1\nfigur: 2 krieger a1 auf 1\nfigur: 1 krieger a1\n")
    refused(state, 1, "mount k3 e1", "animal_held")


def test_an_animal_is_given_only_to_a_warrior_on_its_field_and_never_lent() -> None:
    state = to_act_phase(game("figur: 1 pferd a1\nfigur: 2 krieger c1\n"), 1)
    refused(state, 1, "give pf1 2", "no_receiver")
    refused(state, 1, "lend pf1 2", "animals_not_lent")
    state = to_act_phase(game("figur: 1 pferd a1\nfigur: 2 krieger a1\n"), 1)
    assert fig(play(state, 1, "give pf1 2"), "pf1").owner == 2


def test_a_device_is_conquered_by_the_majority_on_its_field() -> None:
    body = "figur: 1 onager b1\nfigur: 1 krieger b1\nfigur: 2 krieger b1\nfigur: 2 krieger b1\n"
    state = to_act_phase(game(body), 2)
    state = play(state, 2, "claim o1")
    assert (fig(state, "o1").owner, fig(state, "o1").possessor) == (2, 2)


def test_with_equal_numbers_the_last_majority_keeps_the_device() -> None:
    body = "figur: 1 leiter b1\nfigur: 1 krieger b1\nfigur: 2 krieger b1\n"
    state = to_act_phase(game(body), 2)
    assert fig(state, "le1").last_majority == 0
    refused(state, 2, "claim le1", "no_majority")
    state = game("figur: 1 leiter b1\nfigur: 1 krieger b1\nfigur: 2 krieger a1\n")
    state = play(state, 1, "end")
    state = play(state, 2, "step k3 b1")  # 1:1 now; party 1 had the majority last
    assert fig(state, "le1").last_majority == 1 and fig(state, "le1").possessor == 1
    state = to_act_phase(state, 2)
    refused(state, 2, "claim le1", "no_majority")


def test_with_equal_numbers_the_party_that_last_had_the_majority_may_claim() -> None:
    """Kap. 0: with equal numbers "gilt als Besitzer derjenige, der zuletzt die Majorität
    hatte": party 2 had it (2:1) and left it at 1:1, so party 2 may still declare the
    Inbesitznahme."""
    body = (
        "figur: 1 leiter b1\nfigur: 1 krieger b1\nfigur: 1 krieger a1\n"
        "figur: 2 krieger c1\nfigur: 2 krieger c1\n"
    )
    state = play(game(body, karte="T T T T\n"), 1, "end")
    state = play(play(state, 2, "step k4 b1"), 2, "step k5 b1")
    assert fig(state, "le1").last_majority == 2
    state = play(play(play(state, 2, "end"), 1, "done"), 2, "done")  # 2 does not claim yet
    assert (state.round, state.active) == (2, 2)
    state = play(play(state, 2, "step k5 c1"), 2, "end")  # 1:1 now
    assert fig(state, "le1").last_majority == 2 and fig(state, "le1").possessor == 1
    state = play(state, 1, "end")
    assert state.phase == "act" and state.active == 2
    state = play(state, 2, "claim le1")
    assert (fig(state, "le1").owner, fig(state, "le1").possessor) == (2, 2)

    state = game("figur: 1 widder a1\nfigur: 1 krieger a1\nfigur: 2 krieger a1\n")
    refused(state, 1, "step w1 b1", "no_majority")


def test_a_lent_device_stays_its_owners_but_the_borrower_controls_it() -> None:
    body = "figur: 1 widder b1\nfigur: 2 krieger b1\n"
    state = to_act_phase(game(body), 1)
    refused(state, 1, "give w1 1", "bad_party")
    state = play(state, 1, "lend w1 2")
    w = fig(state, "w1")
    assert (w.owner, w.possessor) == (1, 2)
    state = play(play(state, 1, "done"), 2, "done")  # round 2: party 2 moves first
    assert state.active == 2
    state = play(state, 2, "step w1 c1")
    assert fig(state, "w1").field == "c1"


def test_a_ship_is_conquered_by_the_majority_on_the_ship() -> None:
    body = (
        "figur: 1 floss b1\nfigur: 1 krieger b1 auf 1\nfigur: 2 krieger b1 auf 1\n"
        "figur: 2 krieger b1 auf 1\nfigur: 1 krieger a1\nfigur: 1 krieger a1\n"
    )
    state = to_act_phase(game(body, karte="T ~ T\n"), 2)
    state = play(state, 2, "claim fl1")  # 2:1 on the raft; party 1's shore warriors don't count
    assert fig(state, "fl1").owner == 2


def test_a_quadriga_is_conquered_by_the_majority_on_the_wagon() -> None:
    body = "figur: 1 quadriga b1\nfigur: 2 krieger b1 auf 1\n"
    state = to_act_phase(game(body + "figur: 1 krieger a1\n"), 2)
    assert fig(play(state, 2, "claim q1"), "q1").owner == 2


def test_a_tower_cannot_be_taken() -> None:
    state = to_act_phase(
        game("turm: b1 1 besitzer 1\nfigur: 2 krieger b1\nfigur: 1 krieger a1\n"), 2
    )
    assert not any(a.startswith("claim") for a in legal(state, 2))
    refused(state, 2, "claim b1", "no_figure")


HZ = "handelszentrum: b1 besitzer 1\n"


def test_a_handelszentrum_changes_hands_when_declared_by_a_lone_conqueror() -> None:
    state = to_act_phase(game(HZ + "figur: 2 krieger b1\nfigur: 1 krieger a1\n"), 2)
    state = play(state, 2, "claim b1")
    assert dict(state.hz)["b1"] == 2


def test_a_handelszentrum_with_a_warrior_of_its_owner_is_not_taken() -> None:
    state = to_act_phase(
        game(HZ + "figur: 2 krieger b1\nfigur: 2 krieger b1\nfigur: 1 krieger b1\n"), 2
    )
    refused(state, 2, "claim b1", "hz_defended")


def test_every_level_of_a_handelszentrum_must_be_free_of_enemies() -> None:
    body = (
        "handelszentrum: b1 besitzer 1\n"
        "turm: b1 1 besitzer 1\n"
        "figur: 2 krieger b1\n"
        "figur: 3 krieger b1 ebene 1\n"
        "figur: 1 krieger a1\n"
    )
    state = to_act_phase(game(body, parties=3), 2)
    refused(state, 2, "claim b1", "hz_enemy")


def test_allies_take_a_handelszentrum_only_when_they_agree_who_owns_it() -> None:
    body = HZ + "buendnis: 2 3\nfigur: 2 krieger b1\nfigur: 3 krieger b1\nfigur: 1 krieger a1\n"
    state = to_act_phase(game(body, parties=3), 2)
    state = play(state, 2, "claim b1")
    (decision,) = [d for d in ENGINE.decisions(state) if d.seat == 3]
    assert decision.kind is DecisionKind.REACTION
    assert dict(play(state, 3, "agree").hz)["b1"] == 2
    refused_state = play(state, 3, "refuse")
    assert dict(refused_state.hz)["b1"] == 1 and refused_state.pending is None


# ------------------------------------------------------------------ Kontrolle, Majorität


GATE = "tor: a1 o innen b1\n"


def test_a_gate_is_moved_by_a_warrior_on_its_inner_side_with_the_majority() -> None:
    state = to_act_phase(game(GATE + "figur: 1 krieger a1\nfigur: 2 krieger c1\n"), 1)
    refused(state, 1, "gate a1/o", "gate_no_warrior")
    state = to_act_phase(game(GATE + "figur: 1 krieger b1\nfigur: 2 krieger b1\n"), 1)
    refused(state, 1, "gate a1/o", "no_majority_gate")  # nobody has the majority
    body = GATE + "buendnis: 1 3\nfigur: 1 krieger b1\nfigur: 3 krieger b1\nfigur: 2 krieger b1\n"
    state = to_act_phase(game(body, parties=3), 1)
    state = play(state, 1, "gate a1/o")  # allies count together
    assert ("a1", "b1") in state.gates_open
    refused(state, 1, "gate a1/o", "gate_moved")


def test_pitch_is_poured_by_the_majority_on_the_platform() -> None:
    body = (
        "turm: b1 1 besitzer 1\n"
        "figur: 1 krieger b1 ebene 1\n"
        "figur: 2 krieger b1 ebene 1\n"
        "figur: 2 krieger c1\n"
    )
    state = to_act_phase(game(body), 1)
    refused(state, 1, "pitch b1 c1", "no_majority_platform")
    body = "turm: b1 1 besitzer 1\nfigur: 1 krieger b1 ebene 1\nfigur: 2 krieger c1\n"
    state = to_act_phase(game(body), 1)
    state, evs = events(state, 1, "pitch b1 c1")
    assert any(e.type == "dice" and e.data["why"] == "pitch" for e in evs)


# ------------------------------------------------------------------ the wizard and buildings


TOWER2 = "turm: b1 1 besitzer 2\n"


def test_a_wizard_may_not_hover_over_a_foreign_building_with_enemy_warriors() -> None:
    state = game(TOWER2 + "figur: 1 zauberer a1\nfigur: 2 krieger b1\n")
    refused(state, 1, "step z1 b1", "foreign_building")
    state = game(TOWER2 + "figur: 1 zauberer a1\nfigur: 2 krieger c1\n")
    assert fig(play(state, 1, "step z1 b1"), "z1").field == "b1"


def test_the_owner_wizard_sets_figures_onto_an_empty_platform_of_his_building() -> None:
    body = "turm: b1 1 besitzer 1\nfigur: 1 zauberer a1\nfigur: 1 krieger c1\nfigur: 2 krieger a1\n"
    state = to_act_phase(game(body), 1)
    state = play(state, 1, "cast z1 versetzen c1 b1/1")
    assert (fig(state, "k2").field, fig(state, "k2").level) == ("b1", 1)


def test_a_foreign_wizard_needs_leave_or_the_majority_in_the_building() -> None:
    body = TOWER2 + "figur: 1 zauberer a1\nfigur: 1 krieger c1\nfigur: 2 krieger b1\n"
    state = to_act_phase(game(body), 1)
    refused(state, 1, "cast z1 versetzen c1 b1/1", "building_rights")
    state = play(play(state, 1, "done"), 2, "done")
    state = to_act_phase(state, 2)
    state = play(state, 2, "permit b1 1")
    state = play(state, 2, "done")
    state = play(state, 1, "cast z1 versetzen c1 b1/1")
    assert fig(state, "k2").level == 1


# ------------------------------------------------------------------ Überbesetzung, Handgemenge


def test_a_placement_error_is_resolved_by_its_player_removing_figures() -> None:
    state = game("figur: 1 krieger a1\n" * 5 + "figur: 2 krieger c1\n", start=False)
    decision, gm = ENGINE.decisions(state)  # the game master may overrule meanwhile
    assert (decision.seat, decision.kind) == (1, DecisionKind.CHOICE)
    assert (gm.seat, gm.waits) == (0, False)
    state = play(state, 1, "remove k1")
    assert not state.crowds and not R.overcrowded(state)


def test_a_placement_from_the_reserve_that_overcrowds_is_the_placers_to_resolve() -> None:
    state = game(
        "figur: 1 krieger a1\n" * 4 + "figur: 2 krieger c1\nreserve: 2 krieger 1\n", start=False
    )
    state = play(state, 0, "place 2 krieger a1")
    assert state.crowds == (("f:a1:0", 2),)
    assert legal(state, 2) == {"remove k6"}


def test_an_overcrowded_field_shows_what_stands_on_it_not_its_capacity() -> None:
    """The map said "4/4" (in red) for five warriors on a Kleinfeld (seen in the playground
    after the game master added a fifth): the view holds the real count, 5 of 4."""
    state = game("figur: 1 krieger a1\n" * 4 + "figur: 2 krieger c1\n")
    state = play(state, 0, "gm add 1 krieger a1 -- Verstärkung")
    a1 = next(f for f in ENGINE.view_for(state, None)["fields"] if f["name"] == "a1")
    assert (a1["room"][0]["used"], a1["room"][0]["capacity"], a1["room"][0]["over"]) == (5, 4, True)


def test_a_game_master_adding_an_unknown_kind_is_told_the_kinds_not_a_wrong_party() -> None:
    """`gm add 1 warrior a3` (an English game master) answered "there is no party 1"."""
    state = game("figur: 1 krieger a1\nfigur: 2 krieger c1\n")
    with pytest.raises(IllegalAction) as caught:
        play(state, 0, "gm add 1 warrior a2")
    assert caught.value.key == "armageddon.error.bad_kind"
    assert caught.value.params["kind"] == "warrior" and "krieger" in caught.value.params["kinds"]


def test_an_elephant_tramples_until_only_its_side_is_left_or_the_crowd_is_gone() -> None:
    body = "figur: 1 elefant a1\nfigur: 1 krieger a1 auf 1\n" + "figur: 2 krieger b1\n" * 3
    state = game(body, seed=3)
    state, evs = events(state, 1, "step e1 b1")
    assert any(e.type == "trampling" for e in evs)
    assert not R.overcrowded(state) or state.crowds
    here = [f for f in state.figures if f.field == "b1" and not f.carrier]
    assert sum(2 if f.kind == "elefant" else 1 for f in here) <= 4


def test_the_trampling_dice_decide_who_falls() -> None:
    """Each foreign figure on the trampled field throws in turn; the first whose throw fails
    falls (the crowd is then gone), so over many games each of the three can be the one."""
    body = "figur: 1 elefant a1\nfigur: 1 krieger a1 auf 1\n" + "figur: 2 krieger b1\n" * 3
    fallen = set()
    for seed in range(1, 25):
        _state, evs = events(game(body, seed=seed), 1, "step e1 b1")
        gone = [e.data["figure"] for e in evs if e.type == "removed"]
        throws = [e for e in evs if e.type == "dice" and e.data["why"] == "trample"]
        assert len(gone) == 1  # one fall ends the crowd (2 + 2 of 4 REH)
        loser = next(e for e in throws if e.data["rolls"][0] < 4)
        assert loser.data["figure"] == gone[0]  # the failed throw is the fallen figure
        assert all(e.data["rolls"][0] >= 4 for e in throws[: throws.index(loser)])
        fallen.add(gone[0])
    assert fallen == {"k3", "k4", "k5"}


def _trampling(body: str) -> State:
    """A field left overcrowded while an elephant tramples on it (built directly: the dice
    of a real trampling would decide whether it stays so)."""
    state = game(body, start=False)
    return replace(state, crowds=(), phase="move", active=1)


def test_when_an_elephant_dies_its_riders_start_the_handgemenge() -> None:
    body = (
        "figur: 1 elefant b1\nfigur: 1 krieger b1 auf 1\nfigur: 1 krieger b1 auf 1\n"
        "figur: 2 krieger b1\nfigur: 2 krieger b1\nfigur: 2 krieger b1\n"
    )
    state, evs = events(_trampling(body), 0, "gm remove e1 -- vom Onager getroffen")
    melee = next(e for e in evs if e.type == "melee")
    assert melee.data["starter"] == 1
    assert next(e for e in evs if e.type == "fight").data["attacker"] in ("k2", "k3")
    assert any(e.type == "gm_note" for e in evs)
    assert not R.overcrowded(state) or state.crowds


def test_a_quadriga_overrun_ends_on_the_wagon_with_a_handgemenge_led_by_its_driver() -> None:
    body = (
        "figur: 1 quadriga a1\n"
        "figur: 1 krieger a1 auf 1\n"
        "figur: 2 krieger b1\n"
        "figur: 2 krieger b1\n"
    )
    for seed in range(1, 30):
        state, evs = events(game(body, seed=seed), 1, "step q1 b1")
        if any(e.type == "climbed_wagon" for e in evs):
            melee = next(e for e in evs if e.type == "melee")
            assert melee.data["starter"] == 1
            break
    else:
        raise AssertionError("no survivor climbed the wagon in 29 seeds")
    assert not [
        f for f in state.figures if f.field == "b1" and not f.carrier and f.kind != "quadriga"
    ]


def test_a_handgemenge_of_one_players_warriors_is_his_to_resolve() -> None:
    body = (
        "figur: 1 elefant b1\nfigur: 1 krieger b1 auf 1\nfigur: 1 krieger b1 auf 1\n"
        "figur: 1 krieger b1\nfigur: 1 krieger b1\nfigur: 1 krieger b1\nfigur: 2 krieger c1\n"
    )
    state = play(_trampling(body), 0, "gm remove e1")
    assert state.crowds == (("f:b1:0", 1),)
    assert legal(state, 1) == {f"remove k{n}" for n in range(2, 7)}
    state = play(state, 1, "remove k2")
    assert not state.crowds


def test_with_more_than_two_players_the_handgemenge_follows_the_player_order() -> None:
    body = "figur: 3 krieger b1\nfigur: 1 krieger b1\nfigur: 2 krieger b1\n" * 3
    state = game(body, parties=3, start=False)
    state = replace(state, crowds=())
    evs: list[Event] = []
    melee(state, "f:b1:0", 2, evs)
    attackers = [e.data["attacker"] for e in evs if e.type == "fight"]
    owners = [fig(state, a).owner for a in attackers if state.figure(a)]
    assert owners[:3] == [2, 3, 1]


# ------------------------------------------------------------------ Zugang, Hunger


KEEP = (
    "stellung: feste besitzer 1 felder b1\nturm: b1 1 besitzer 1\n"
    "mauer: b1 o\nmauer: b1 w\nmauer: b1 so\nmauer: b1 sw\ntor: b1 no innen b1\nmauer: b1 nw\n"
)
KEEP_MAP = "T T T\n T T T\nT T T\n"


def _keep(extra: str = "") -> State:
    # b1 in row 1 has no northern neighbours: its Zugang is the gate towards so? use b2's ring
    body = (
        "stellung: feste besitzer 1 felder b2\nturm: b2 1 besitzer 1\n"
        "mauer: b2 o\nmauer: b2 w\nmauer: b2 so\nmauer: b2 sw\nmauer: b2 nw\ntor: b2 no innen b2\n"
        "figur: 1 krieger b2\nfigur: 1 krieger b2\nfigur: 2 krieger a2\n" + extra
    )
    return game(body, karte=KEEP_MAP)


def _round_end(state: State) -> tuple[State, list[Event]]:
    state = to_act_phase(state, state.active or 1)
    out: list[Event] = []
    while state.round == 1 and state.phase != "end":
        state, evs = events(state, state.active, "done")
        out += evs
    return state, out


def test_a_defence_position_needs_an_access() -> None:
    with pytest.raises(BadInput) as caught:
        parse("parteien: 2\nkarte:\nT T T\n T T T\nT T T\nende\nstellung: x besitzer 1 felder b2\n"
              "mauer: b2 o\nmauer: b2 w\nmauer: b2 so\nmauer: b2 sw\nmauer: b2 nw\nmauer: b2 no\n",
              "karte.txt")  # fmt: skip
    assert caught.value.key == "armageddon.scenario.stellung_no_access"
    assert caught.value.params["line"] == 7


def test_without_its_only_access_the_people_inside_hunger() -> None:
    state = play(_keep(), 0, "gm block b2/no -- Schildkröte rammt das Tor zu")
    assert R.hungering(state) == ["feste"]
    _state, evs = _round_end(state)
    assert any(e.type == "hunger" for e in evs)


def test_a_new_access_ends_the_hunger() -> None:
    state = play(play(_keep(), 0, "gm block b2/no"), 0, "gm breach b2/o")
    assert R.hungering(state) == []


def test_the_defenders_ladder_at_the_tower_ends_the_hunger_unless_the_siege_is_declared() -> None:
    state = play(_keep("figur: 1 leiter c2 blick w\nfigur: 1 krieger c2\n"), 0, "gm block b2/no")
    assert R.hungering(state) == []
    state = to_act_phase(state, 2)
    state = play(state, 2, "siege feste")
    assert R.hungering(state) == ["feste"]


def test_an_attackers_ladder_does_not_end_the_hunger() -> None:
    state = play(_keep("figur: 2 leiter c2 blick w\nfigur: 2 krieger c2\n"), 0, "gm block b2/no")
    assert R.hungering(state) == ["feste"]


# ------------------------------------------------------------------ spells


def test_lanzen_and_recke_example() -> None:
    """Two strengthened Lanzen; an unenchanted Recke with his horse joins them: spells on
    warriors and animals are refused, Fremde Tiere bewegen on the horse is allowed, also with
    a wizard hovering over the field."""
    body = (
        "figur: 2 lanze b1\nfigur: 2 lanze b1\nfigur: 2 pferd a1\nfigur: 2 recke a1 auf 3\n"
        "figur: 1 zauberer c1\nfigur: 2 zauberer b1\n"
    )
    state = game(body)
    state = play(state, 1, "end")
    state = play(state, 2, "step pf3 b1")
    state = play(state, 2, "end")
    state = replace(
        state,
        figures=tuple(
            replace(f, enchant="gestaerkt", enchant_until=5) if f.kind == "lanze" else f
            for f in state.figures
        ),
    )
    for spell in ("staerken", "schwaechen", "schutz", "beschleunigen", "laehmen"):
        refused(state, 1, f"cast z5 {spell} b1", "spell_twice")
    state = play(state, 1, "cast z5 fremde_tiere_bewegen b1")
    assert fig(state, "pf3").enchant == "gefuehrt" and fig(state, "r4").enchant == ""


def test_fremde_tiere_bewegen_lets_the_casters_side_move_the_animal_next_round() -> None:
    """READING: cast in the action phase, the spell lasts to the end of the next round; in
    that round's movement the caster's party moves the animal (its rider goes along), its
    owner does not; after that it is the owner's again."""
    body = "figur: 1 zauberer a1\nfigur: 2 pferd c1\nfigur: 2 krieger c1 auf 2\n"
    state = to_act_phase(game(body, karte="T T T T\n"), 1)
    state = play(state, 1, "cast z1 fremde_tiere_bewegen c1")
    state = play(play(state, 1, "done"), 2, "done")
    assert (state.round, state.active) == (2, 2)
    refused(state, 2, "step pf2 d1", "charmed")
    assert "step pf2 d1" not in legal(state, 2)
    state = play(state, 2, "end")
    assert "step pf2 b1" in legal(state, 1)
    state = play(state, 1, "step pf2 b1")
    assert (fig(state, "pf2").field, fig(state, "k3").field) == ("b1", "b1")
    assert fig(state, "pf2").owner == 2  # moved, not conquered
    state = play(play(play(state, 1, "end"), 2, "done"), 1, "done")
    assert state.round == 3 and fig(state, "pf2").charmed_by == 0
    refused(state, 1, "step pf2 a1", "not_yours")


@pytest.mark.parametrize(("animal", "defence"), [("pferd", 1), ("elefant", 3)])
def test_an_animal_defends_with_a_value_of_its_own(animal: str, defence: int) -> None:
    """READING (the combat chapter is missing): a horse defends with 1, an elephant with 3
    (rules.json), not with its roll alone."""
    state = to_act_phase(game(f"figur: 1 krieger a1\nfigur: 2 {animal} b1\n"), 1)
    state, evs = events(state, 1, f"attack k1 {state.figures[1].id}")
    fight = next(e for e in evs if e.type == "fight")
    assert fight.data["values"] == [2, defence]


def test_a_hovering_wizard_is_never_enchanted_and_blocks_nothing() -> None:
    state = to_act_phase(
        game("figur: 1 zauberer a1\nfigur: 2 zauberer b1\nfigur: 2 krieger b1\n"), 1
    )
    state = play(state, 1, "cast z1 staerken b1")
    assert fig(state, "k3").enchant == "gestaerkt" and fig(state, "z2").enchant == ""


def test_a_mortal_wizard_can_be_enchanted() -> None:
    state = to_act_phase(game("figur: 1 zauberer a1\nfigur: 2 sterblicher_zauberer b1\n"), 1)
    assert fig(play(state, 1, "cast z1 laehmen b1"), "sz2").enchant == "gelaehmt"


def test_in_a_tower_spells_act_per_floor() -> None:
    body = (
        "turm: b1 1 besitzer 2\n"
        "figur: 1 zauberer a1\n"
        "figur: 2 krieger b1\n"
        "figur: 2 krieger b1 ebene 1\n"
    )
    state = to_act_phase(game(body), 1)
    state = play(state, 1, "cast z1 schwaechen b1/1")
    assert fig(state, "k3").enchant == "geschwaecht" and fig(state, "k2").enchant == ""


def test_in_a_tower_a_spell_may_also_take_the_whole_field() -> None:
    """Kap. 0: "In Türmen und Belagerungstürmen kann man Zauber *auch* stockwerkweise
    aussprechen": the whole Kleinfeld (every floor) stays a target."""
    body = (
        "turm: b1 1 besitzer 2\nfigur: 1 zauberer a1\nfigur: 2 krieger b1\n"
        "figur: 2 krieger b1 ebene 1\n"
    )
    state = to_act_phase(game(body), 1)
    assert {"cast z1 schwaechen b1", "cast z1 schwaechen b1/0"} <= legal(state, 1)
    state = play(state, 1, "cast z1 schwaechen b1")
    assert fig(state, "k2").enchant == fig(state, "k3").enchant == "geschwaecht"


def test_in_a_siege_tower_spells_act_per_floor_or_on_the_whole_field() -> None:
    body = (
        "figur: 1 zauberer a1\nfigur: 2 belagerungsturm c1\n"
        "figur: 2 krieger c1 auf 2 unten\nfigur: 2 krieger c1 auf 2 oben\n"
    )
    state = to_act_phase(game(body), 1)
    assert {"cast z1 laehmen c1/oben", "cast z1 laehmen c1/unten"} <= legal(state, 1)
    floor = play(state, 1, "cast z1 laehmen c1/oben")
    assert (fig(floor, "k4").enchant, fig(floor, "k3").enchant) == ("gelaehmt", "")
    whole = play(state, 1, "cast z1 beschleunigen c1")
    assert {fig(whole, x).enchant for x in ("bt2", "k3", "k4")} == {"beschleunigt"}
    refused(state, 1, "cast z1 laehmen c1/mitte", "bad_field")


def test_a_gate_may_be_moved_by_spells_several_times_a_round() -> None:
    body = GATE + "figur: 1 zauberer a1\nfigur: 1 sterblicher_zauberer c1\nfigur: 2 krieger c1\n"
    state = to_act_phase(game(body), 1)
    state = play(state, 1, "cast z1 tor_bewegen a1/o")
    state = play(state, 1, "cast sz2 tor_bewegen a1/o")
    assert ("a1", "b1") not in state.gates_open


def test_a_paralysed_figure_does_not_move_next_round() -> None:
    state = to_act_phase(game("figur: 1 zauberer a1\nfigur: 2 krieger c1\n"), 1)
    state = play(state, 1, "cast z1 laehmen c1")
    state = play(play(state, 1, "done"), 2, "done")
    assert (state.round, state.active) == (2, 2)
    refused(state, 2, "step k2 b1", "spellbound")
    state = play(play(state, 2, "end"), 1, "end")
    state = play(play(state, 2, "done"), 1, "done")
    assert state.round == 3 and fig(state, "k2").enchant == ""  # expired
    state = play(state, 1, "end")
    assert fig(play(state, 2, "step k2 b1"), "k2").field == "b1"


# ------------------------------------------------------------------ seats and the game master


def test_the_game_master_is_seat_0_and_players_cannot_use_his_actions() -> None:
    state = game("figur: 1 krieger a1\nfigur: 2 krieger c1\n", start=False)
    assert [d.seat for d in ENGINE.decisions(state)] == [0]
    refused(state, 1, "start", "gm_only")
    state = play(state, 0, "start")
    seats = {d.seat: d.kind for d in ENGINE.decisions(state)}
    assert seats == {1: DecisionKind.TURN, 0: DecisionKind.REACTION}
    refused(state, 1, "gm remove k2", "gm_only")


def test_a_game_masters_overrule_carries_a_logged_note() -> None:
    state = game("figur: 1 pferd a1\nfigur: 2 krieger c1\nfigur: 1 krieger a1\n")
    action = ENGINE.parse_action("gm owner pf1 2 -- Pferd läuft über")
    assert ENGINE.action_text(action) == "gm owner pf1 2 -- Pferd läuft über"
    assert action in ENGINE.legal_actions(state, 0)
    state, evs = ENGINE.apply(state, action, 0)
    assert fig(state, "pf1").owner == 2
    assert [e.data["note"] for e in evs if e.type == "gm_note"] == ["Pferd läuft über"]


def test_the_game_master_takes_back_the_last_movement_action_with_a_note() -> None:
    body = "figur: 1 elefant a1\nfigur: 1 krieger a1 auf 1\n" + "figur: 2 krieger b1\n" * 3
    state = game(body + "figur: 1 krieger a1\n", seed=3)
    before = state.figures
    assert "gm undo" not in legal(state, 0)
    state, evs = events(state, 1, "step e1 b1")  # tramples: somebody falls
    assert any(e.type == "removed" for e in evs)
    state, evs = events(state, 0, "gm undo -- falsches Feld, noch einmal")
    assert state.figures == before and not state.fallen
    assert [e.type for e in evs] == ["undone", "gm_note"]
    assert evs[0].data == {"player": 1, "action": "step e1 b1"}
    assert str(evs[1].data["action"]).startswith("gm undo -- ")
    refused(state, 0, "gm undo", "nothing_to_undo")  # once: the position before it is gone
    state = play(play(state, 1, "step k6 b1"), 1, "end")  # `end` keeps it
    assert fig(play(state, 0, "gm undo"), "k6").field == "a1"
    state = play(play(state, 2, "end"), 1, "done")  # the movement phase is over
    assert "gm undo" not in legal(state, 0)


def test_the_game_master_moves_adds_and_restores_figures() -> None:
    state = game("turm: c1 1 besitzer 2\nfigur: 1 krieger a1\nfigur: 2 krieger b1\n")
    state = play(state, 0, "gm move k1 c1/1 -- stand schon oben")
    assert (fig(state, "k1").field, fig(state, "k1").level) == ("c1", 1)
    refused(state, 0, "gm move k1 c1/1", "already_there")  # it is there already
    state, evs = events(state, 0, "gm add 2 pferd a1 -- vergessen")
    assert (fig(state, "pf3").owner, fig(state, "pf3").field) == (2, "a1")
    assert evs[0].type == "gm_added"
    assert "gm add 2 pferd c1/1" not in legal(state, 0)  # no horse on a tower floor
    state = play(state, 0, "gm remove k2 -- Pfeil")
    assert state.figure("k2") is None and "gm restore k2" in legal(state, 0)
    state, evs = events(state, 0, "gm restore k2 -- doch nicht getroffen")
    assert fig(state, "k2").field == "b1" and "gm restore k2" not in legal(state, 0)
    assert evs[0].type == "gm_restored"


def test_a_clicked_overrule_gets_its_note_afterwards() -> None:
    state = game("figur: 1 krieger a1\nfigur: 2 krieger b1\n")
    state = play(state, 0, "gm remove k2")  # clicked: no note
    assert "gm note" not in legal(state, 0)  # a note is typed, never clicked
    state, evs = events(state, 0, "gm note -- vom Pfeil getroffen")
    assert [(e.type, dict(e.data)) for e in evs] == [
        ("gm_note", {"note": "vom Pfeil getroffen", "action": "gm remove k2"})
    ]
    with pytest.raises(BadInput):
        ENGINE.parse_action("gm note")


def test_the_round_is_movement_then_actions_party_by_party() -> None:
    state = game("figur: 1 krieger a1\nfigur: 2 krieger c1\n")
    assert (state.phase, state.active) == ("move", 1)
    state = play(state, 1, "end")
    assert (state.phase, state.active) == ("move", 2)
    state = play(state, 2, "end")
    assert (state.phase, state.active) == ("act", 1)
    state = play(play(state, 1, "done"), 2, "done")
    assert (state.round, state.phase, state.active) == (2, "move", 2)  # the start moves on


def test_dice_come_from_the_state_and_are_shown() -> None:
    body = "figur: 1 krieger a1\nfigur: 2 krieger b1\n"
    a = to_act_phase(game(body, seed=5), 1)
    first = events(a, 1, "attack k1 k2")[1]
    again = events(a, 1, "attack k1 k2")[1]
    assert first == again and any(e.type == "fight" and e.data["rolls"] for e in first)


# ------------------------------------------------------------------ scenario validation


@pytest.mark.parametrize(
    ("text", "key", "line"),
    [
        ("parteien: 2\nkarte:\nT X\nende\n", "bad_terrain", 3),
        ("parteien: 2\nkarte:\nT T\nT\nende\n", "row_length", 4),
        ("parteien: 2\nkarte:\nT T\nende\nfluss: a1 w\n", "border_edge", 5),
        ("parteien: 2\nkarte:\nT T\nende\nbruecke: a1 o\n", "bridge_without_river", 5),
        ("parteien: 2\nkarte:\nT T\nende\nfigur: 3 krieger a1\n", "bad_number", 5),
        ("parteien: 2\nkarte:\nT T\nende\nfigur: 1 ritter a1\n", "unknown_kind", 5),
        ("parteien: 2\nkarte:\nT T\nende\nfigur: 1 krieger z9\n", "bad_field", 5),
        ("parteien: 2\nkarte:\nT T\nende\nwetter: sonnig\n", "unknown_key", 5),
        ("parteien: 2\nkarte:\nT T\n", "map_unclosed", 3),
        ("parteien: 2\n", "no_map", 1),
        ("karte:\nT T\nende\n", "missing", 3),
        ("parteien: 2\nkarte:\nT ~\nende\nturm: b1 2 besitzer 1\n", "on_water", 5),
        ("parteien: 2\nkarte:\nT T\nende\nregel: wind 3\n", "bad_rule", 5),
    ],
)
def test_scenario_errors_name_file_line_and_what_is_wrong(text: str, key: str, line: int) -> None:
    with pytest.raises(BadInput) as caught:
        parse(text, "mein.txt")
    assert caught.value.key == f"armageddon.scenario.{key}"
    assert caught.value.params["file"] == "mein.txt" and caught.value.params["line"] == line


def test_a_scenario_rule_overrides_a_number() -> None:
    sc = parse(
        "parteien: 2\nkarte:\nT T\nende\nregel: capacity_T 3\nregel: hunger_survive 6\n", "x"
    )
    assert sc.capacity("a1") == 3 and sc.tables.number("hunger_survive") == 6


def test_the_seats_are_the_game_master_and_the_parties() -> None:
    with pytest.raises(BadInput) as caught:
        ENGINE.initial_state({"scenario": "scharmuetzel"}, 1, 4)
    assert caught.value.key == "armageddon.error.seats"


def test_a_hastened_figure_takes_four_steps() -> None:
    state = to_act_phase(
        game("figur: 1 zauberer a1\nfigur: 1 krieger b1\nfigur: 2 krieger c1\n"), 1
    )
    state = play(state, 1, "cast z1 beschleunigen b1")
    state = play(play(state, 1, "done"), 2, "done")
    state = play(state, 2, "end")
    for target in ("a1", "b1", "a1", "b1"):
        state = play(state, 1, f"step k2 {target}")
    refused(state, 1, "step k2 a1", "no_steps")


def test_with_equal_sides_in_his_tower_the_owners_wizard_sets_figures_on_its_platform() -> None:
    body = (
        "turm: b1 1 besitzer 1\nfigur: 1 zauberer a1\nfigur: 1 krieger c1\n"
        "figur: 1 krieger b1\nfigur: 2 krieger b1\n"
    )
    state = to_act_phase(game(body), 1)
    state = play(state, 1, "cast z1 versetzen c1 b1/1")
    assert fig(state, "k2").level == 1


def test_a_figure_on_ground_it_may_not_stand_on_is_a_scenario_error() -> None:
    with pytest.raises(BadInput) as caught:
        parse("parteien: 2\nkarte:\nT S\nende\nfigur: 1 quadriga b1\n", "q.txt")
    assert caught.value.key == "armageddon.scenario.kind_swamp"  # named: "das ist Sumpf"
    assert caught.value.params["line"] == 5


def test_a_ram_overcrowding_the_rammed_ships_deck_starts_a_handgemenge_of_the_steerers() -> None:
    body = (
        "figur: 1 langschiff a1\n" + "figur: 1 krieger a1 auf 1\n" * 4
        + "figur: 2 langschiff b1\n" + "figur: 2 krieger b1 auf 6\n" * 3
    )  # fmt: skip
    state = to_act_phase(game(body, karte="~ ~ T\n"), 1)
    state, evs = events(state, 1, "ram ls1 ls6")
    assert next(e for e in evs if e.type == "melee").data["starter"] == 1
    deck = [f for f in state.figures if f.carrier == "ls6"]
    assert len(deck) <= 6 or state.crowds


def test_a_destroyed_grundfeste_drops_the_tower_and_its_people_resolve_the_crowd() -> None:
    body = (
        "turm: b1 2 besitzer 1\n" + "figur: 1 krieger b1\n" * 3
        + "figur: 1 krieger b1 ebene 1\n" * 2 + "figur: 2 krieger c1\n"
    )  # fmt: skip
    state = play(game(body), 0, "gm destroy b1 -- Onagertreffer")
    assert state.crowds == (("f:b1:0", 1),) and "b1" not in state.scenario.towers
    assert all(f.level == 0 for f in state.figures)
    state = play(state, 1, "remove k1")
    assert not state.crowds
    refused(state, 1, "up k2", "no_tower")


def test_when_one_of_two_trampling_elephants_falls_the_other_tramples_on() -> None:
    body = (
        "figur: 1 elefant b1\nfigur: 1 krieger b1 auf 1\nfigur: 2 elefant b1\n"
        "figur: 2 krieger b1 auf 3\nfigur: 2 krieger b1\nfigur: 2 krieger b1\n"
    )
    _state, evs = events(_trampling(body), 0, "gm remove e1")
    assert not any(e.type == "melee" for e in evs)
    assert any(e.type == "dice" and e.data["why"] == "trample" for e in evs)


def test_a_ship_does_not_ram_an_allied_ship() -> None:
    body = (
        "buendnis: 1 2\nfigur: 1 floss a1\nfigur: 1 krieger a1 auf 1\n"
        "figur: 2 floss b1\nfigur: 2 krieger b1 auf 3\nfigur: 3 krieger c1\n"
    )
    state = to_act_phase(game(body, karte="~ ~ T\n", parties=3), 1)
    refused(state, 1, "ram fl1 fl3", "bad_target_figure")


def test_a_led_animal_goes_only_where_it_may_stand() -> None:
    state = game("figur: 1 krieger a1\nfigur: 1 elefant a1\nfigur: 2 krieger c1\n", karte="T S T\n")
    state = play(state, 1, "lead k1 e2")
    refused(state, 1, "step k1 b1", "forbidden_swamp")
    state = game("mauer: a1 o\nfigur: 1 krieger a1\nfigur: 1 pferd a1\nfigur: 2 krieger c1\n")
    state = play(state, 1, "lead k1 pf2")
    refused(state, 1, "step k1 b1", "wall")
    state = game("figur: 1 krieger a1\nfigur: 1 pferd a1\nfigur: 2 krieger c1\n")
    state = play(play(state, 1, "lead k1 pf2"), 1, "step k1 b1")
    assert fig(state, "pf2").field == "b1" and fig(state, "pf2").steps == 1


def test_a_wizard_sets_himself_over_only_together_with_other_figures() -> None:
    body = "figur: 1 zauberer b1\nfigur: 1 krieger b1\nfigur: 2 krieger d1\n"
    state = to_act_phase(game(body, karte="T T T T\n"), 1)
    state = play(state, 1, "cast z1 versetzen b1 c1")
    assert fig(state, "z1").field == "c1" and fig(state, "k2").field == "c1"
    state = to_act_phase(game("figur: 1 zauberer b1\nfigur: 2 krieger d1\n", karte="T T T T\n"), 1)
    refused(state, 1, "cast z1 versetzen b1 c1", "spell_no_target")


@pytest.mark.parametrize(
    ("german", "english"),
    [
        ("schritt k3 c4", "step k3 c4"),
        ("ende", "end"),
        ("fertig", "done"),
        ("beanspruchen w2", "claim w2"),
        ("Führen k3 pf2", "lead k3 pf2"),
        ("aufsitzen k3 pf2", "mount k3 pf2"),
        ("angreifen k3 k12", "attack k3 k12"),
        ("zaubern z1 staerken c4", "cast z1 staerken c4"),
        ("drehen ph6 no", "face ph6 no"),
        ("sl entfernen k7 -- vom Pfeil getroffen", "gm remove k7 -- vom Pfeil getroffen"),
        ("gm zurück", "gm undo"),
        ("sl hinzufügen 1 krieger c4", "gm add 1 krieger c4"),
    ],
)
def test_german_notation_is_read_beside_the_english(german: str, english: str) -> None:
    assert ENGINE.action_text(ENGINE.parse_action(german)) == english


def test_a_german_step_is_played() -> None:
    state = game("figur: 1 krieger a1\nfigur: 2 krieger c1\n")
    assert fig(play(state, 1, "schritt k1 b1"), "k1").field == "b1"
