"""The W6 combat through the engine contract: seats, decisions and their ids, views, outcome,
leaving, undo by replay and running combats of schema 1."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

import engines.all  # noqa: F401  (registers every engine)
from engines.core import IllegalAction, registry
from engines.core.contract import DecisionKind, decision_for, seat_count, to_act
from engines.w6 import (
    CombatState,
    apply,
    can_undo,
    join_action,
    make,
    new_combat,
    parse_action,
    state_from_json,
    state_to_json,
    undo,
)
from engines.w6.codec import encode
from tests.unit.test_w6_combat import GM, OTHER, PLAYER, act, fighter, run

ENGINE = registry()["w6combat"]


def table() -> CombatState:
    """Held (PLAYER, seat 1) and an ork (NPC) in a begun combat; Zweit (OTHER) not yet."""
    state = new_combat(GM, seed=5)
    state, _ = apply(state, join_action(fighter("held", PLAYER, ab=8)), PLAYER)
    state, _ = apply(state, join_action(fighter("ork", ab=4, lp=17, lp_max=23)), GM)
    state, _ = act(state, "beginnen")
    return state


def test_seats_open_in_join_order_and_the_gm_acts_for_everyone() -> None:
    state = table()
    assert state.seats == (PLAYER,) and seat_count(ENGINE, state, 1) == 2
    state, _ = apply(state, join_action(fighter("zweit", OTHER, ab=1)), OTHER)
    assert state.seats == (PLAYER, OTHER) and ENGINE.seat_count(state) == 3
    assert state.log[-1].actor == 0  # the table (seat 0) admitted the join
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, parse_action("@held handlung"), 2)
    assert error.value.key == "w6.combat.not_your_fighter"
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, parse_action("phase"), 1)
    assert error.value.key == "w6.combat.gm_only"
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, parse_action("@held handlung"), 7)
    by_player, _ = ENGINE.apply(state, parse_action("@held handlung"), 1)
    by_gm, _ = ENGINE.apply(state, parse_action("@held handlung"), 0)
    assert by_player.fighters == by_gm.fighters


def test_decisions_name_the_seats_that_must_or_may_choose() -> None:
    state = table()
    decisions = ENGINE.decisions(state)
    kinds = [(d.seat, d.kind, d.prompt) for d in decisions]
    assert kinds == [
        (0, DecisionKind.TURN, "w6.decision.turn"),
        (1, DecisionKind.TURN, "w6.decision.turn"),
        (0, DecisionKind.REACTION, "w6.decision.reflex"),
        (0, DecisionKind.REACTION, "w6.decision.gm"),
    ]
    assert decisions[1].params == {"fighters": ("held",)}
    assert decisions[2].params == {"fighters": ("ork",)}  # the ork's reflex, any time
    state, _ = act(state, "@held angriff ork kw=3")
    asked = [d for d in ENGINE.decisions(state) if d.kind == DecisionKind.CHOICE]
    assert [(d.seat, d.prompt, d.params) for d in asked] == [
        (0, "w6.decision.abwehr", {"fighters": ("ork",)})
    ]
    assert to_act(ENGINE, state) == {0, 1}  # the player may still use Held's reflex
    assert [str(a.text()) for a in ENGINE.legal_actions(state, 1)] == ["@held reflex"]
    state, _ = act(state, "ende")
    assert ENGINE.decisions(state) == () and ENGINE.legal_actions(state, 0) == []


def test_a_decision_id_changes_when_it_is_answered_and_stays_while_others_act() -> None:
    state = table()
    state, _ = apply(state, join_action(fighter("zweit", OTHER, ab=1)), OTHER)
    state, _ = run(state, "@held handlung", "@held handlung")  # Held's turn is over
    state, _ = act(state, "@ork angriff held kw=2")  # a plain attack on Held ...
    held_asked = decision_for(ENGINE, state, 1)
    assert held_asked is not None and held_asked.kind == DecisionKind.CHOICE
    zweit_reflex = decision_for(ENGINE, state, 2)
    assert zweit_reflex is not None and zweit_reflex.kind == DecisionKind.REACTION
    # Zweit's player uses the reflex meanwhile: Held's question stays the same one
    state, _ = ENGINE.apply(state, parse_action("@zweit reflex"), 2)
    assert decision_for(ENGINE, state, 1) == held_asked
    assert decision_for(ENGINE, state, 2) is None
    # Held answers: that decision is closed (its id is gone)
    state, _ = ENGINE.apply(state, parse_action("@held abwehr keine"), 1)
    assert held_asked.id not in {d.id for d in ENGINE.decisions(state)}
    gm = next(d for d in ENGINE.decisions(state) if d.prompt == "w6.decision.gm")
    state, _ = act(state, "zustand ork +liegend")
    assert gm.id not in {d.id for d in ENGINE.decisions(state)}


def test_a_players_view_shows_npcs_by_name_and_lp_in_words_only() -> None:
    state = table()
    gm_view = ENGINE.view_for(state, 0)
    ork = next(row for row in gm_view["fighters"] if row["id"] == "ork")
    assert (ork["lp"], ork["lp_max"], ork["ab"]) == (17, 23, 4)
    for viewer in (1, None):
        view = ENGINE.view_for(state, viewer)
        shown = next(row for row in view["fighters"] if row["id"] == "ork")
        assert shown["name"] == "Ork" and shown["lp_state"] == "verletzt"
        assert shown["lp_bar"] == 7
        assert not {"lp", "lp_max", "rlp", "ab", "kw_left", "gesamtschutz"} & set(shown)
        held = next(row for row in view["fighters"] if row["id"] == "held")
        assert held["lp"] == 30  # the players' own fighters stay open
        text = json.dumps(view, ensure_ascii=False)
        assert not any(secret in text for secret in ENGINE.secrets_of(state, 0))
    assert ENGINE.secrets_of(state, 1) == set()


def test_the_outcome_says_whether_one_side_stood_alone() -> None:
    state = table()
    ended, _ = act(state, "ende")
    outcome = ENGINE.outcome(ended)
    assert outcome is not None and (outcome.reason, outcome.winners) == ("ended_by_gm", set())
    state, _ = act(state, "zustand ork +bewusstlos")
    assert ENGINE.outcome(state) is None  # only the GM ends a combat
    ended, _ = act(state, "ende")
    outcome = ENGINE.outcome(ended)
    assert outcome is not None
    assert (outcome.reason, outcome.winners, outcome.eliminated) == ("one_side_standing", {1}, ())
    state, _ = run(state, "zustand ork -bewusstlos", "zustand held +bewusstlos", "ende")
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert (outcome.reason, outcome.winners, outcome.eliminated) == ("one_side_standing", {0}, (1,))


def test_a_player_who_leaves_hands_their_fighters_to_the_gm() -> None:
    state = table()
    with pytest.raises(IllegalAction):
        ENGINE.eliminate(state, 0)
    left, events = ENGINE.eliminate(state, 1)
    assert [e.type for e in events] == ["seat_left"]
    assert {d.seat for d in ENGINE.decisions(left)} == {0}
    assert ENGINE.legal_actions(left, 1) == []
    with pytest.raises(IllegalAction):
        ENGINE.apply(left, parse_action("@held handlung"), 1)
    acted, _ = ENGINE.apply(left, parse_action("@held handlung"), 0)
    assert undo(acted)[0].gone == (1,)


def test_undo_replays_the_log_without_its_last_step_up_to_the_undo_depth() -> None:
    state = table()
    before = state
    state, _ = run(state, "@held angriff ork kw=4", "@ork abwehr kw=2")
    undone, events = undo(state)
    assert events[0].data["action"] == "@ork abwehr kw=2"
    twice, _ = undo(undone)
    assert replace(twice, undone=0) == before
    limited, _ = act(before, "regel undo_tiefe=1")
    limited, _ = act(limited, "@held handlung")
    limited, _ = undo(limited)
    assert not can_undo(limited)
    with pytest.raises(IllegalAction) as error:
        undo(limited)
    assert error.value.key == "w6.combat.nothing_to_undo"
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, make("zurueck"), 0)
    assert error.value.key == "w6.combat.undo_not_a_step"


def _as_v1(
    state: CombatState, extra: list[dict[str, Any]], users: dict[int, int] | None = None
) -> dict[str, Any]:
    """``state`` as schema 1 stored it: undo snapshots, user ids in the log (``users``: seat
    → user), undone steps and the undos in the log."""
    stored = json.loads(json.dumps(state_to_json(state)))
    body = {key: value for key, value in stored.items() if key != "schema"}
    data = {"schema": "w6.combat", "version": 1, "state": body}
    for key in ("seats", "start", "roster", "base", "undone", "gone"):
        del body[key]
    if body["pending"] is not None:
        del body["pending"]["nr"]
    users = users or {0: GM, 1: PLAYER}
    body["log"] = [entry | {"actor": users[entry["actor"]]} for entry in body["log"]] + extra
    body["step"] += len(extra)
    body["previous"] = ['{"schema":"w6.combat"}']
    return data


def test_a_running_combat_of_schema_1_is_carried_over_with_its_undo_history() -> None:
    state, _ = act(table(), "@held angriff ork kw=3")
    undone_step = {"step": state.step + 1, "actor": GM, "action": "setze ork lp=3",
                   "events": ["overridden"]}  # fmt: skip
    undo_step = {"step": state.step + 2, "actor": GM, "action": "zurueck", "events": ["undone"]}
    loaded = state_from_json(_as_v1(state, [undone_step, undo_step]))
    assert loaded.seats == (PLAYER,) and loaded.base == ""
    assert [(e.actor, e.action) for e in loaded.log] == [(e.actor, e.action) for e in state.log]
    assert state_from_json(json.loads(json.dumps(state_to_json(loaded)))) == loaded
    back, _ = undo(loaded)
    assert back.fighters == table().fighters and back.pending is None
    going_on, _ = act(loaded, "@ork abwehr keine")
    assert going_on.pending is None


def test_a_schema_1_combat_whose_history_does_not_replay_becomes_the_base() -> None:
    state = new_combat(GM, seed=5)
    state, _ = run(state, "regel kaufen=an")
    state, _ = apply(state, join_action(fighter("held", PLAYER, ab=8)), PLAYER)
    state, _ = run(state, "beginnen")
    data = _as_v1(state, [])
    body = data["state"]
    body["log"] = body["log"][1:]  # the rule came from the campaign: not in the log
    loaded = state_from_json(data)
    assert loaded.base == "" and loaded.settings.kaufen
    body["log"][0]["action"] = "@held handlung"  # a log that cannot replay
    loaded = state_from_json(data)
    assert loaded.base != "" and not can_undo(loaded)
    on, _ = act(loaded, "@held handlung")
    back, _ = undo(on)
    assert replace(back, undone=0) == loaded


def test_action_paths_are_distinct_and_start_with_who_acts() -> None:
    state = table()
    actions = [*ENGINE.legal_actions(state, 0), *ENGINE.legal_actions(state, 1)]
    paths = [ENGINE.action_path(a) for a in actions]
    assert len(set(paths)) == len(set(actions))
    assert ENGINE.action_path(parse_action("@held angriff ork kw=3 serie")) == (
        "@held", "angriff", "ork", "kw=3", "serie",
    )  # fmt: skip
    assert ENGINE.action_path(parse_action("phase")) == ("gm", "phase")
    config = {"gm": GM, "settings": {"kaufen": True}, "roster": [encode(fighter("x"))]}
    fresh = ENGINE.initial_state(config, 3, 1)
    assert fresh.settings.kaufen and fresh.roster[0].id == "x"
    assert join_action(fresh.roster[0]) in ENGINE.legal_actions(fresh, 0)
    with pytest.raises(Exception) as error:
        ENGINE.initial_state({"spieler": 3}, 3, 1)
    assert getattr(error.value, "key", "") == "w6.combat.bad_config"


def test_a_combat_holds_a_bounded_number_of_fighters() -> None:
    from engines.w6.state import MAX_FIGHTERS

    state = new_combat(GM, seed=1)
    crowd = [fighter(f"ork{i}") for i in range(MAX_FIGHTERS)]
    state, _ = apply(state, join_action(*crowd), GM)
    with pytest.raises(IllegalAction) as error:
        apply(state, join_action(fighter("one_more")), GM)
    assert (error.value.key, error.value.params) == ("w6.combat.too_many_fighters", {"max": 50})


def test_a_held_handlung_stays_the_same_decision_while_another_fighter_acts() -> None:
    state = new_combat(GM, seed=2)
    for f in (fighter("a", PLAYER, ab=9), fighter("b", OTHER, ab=5), fighter("c", ab=1)):
        state, _ = apply(state, join_action(f), GM)
    state, _ = run(state, "beginnen", "@a weiter", "@b handlung")  # A holds; B acted
    held = decision_for(ENGINE, state, 1)
    assert held is not None and held.params == {"fighters": ("a",)}
    state, _ = run(state, "@b weiter", "@c handlung")  # the turn moves on, C acts
    assert decision_for(ENGINE, state, 1) == held
