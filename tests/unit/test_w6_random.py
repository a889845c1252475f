"""Random combats in the generic kit's form, through the engine contract (``w6combat``):
random settings, a roster of fighters with random techniques (joining while the combat runs,
so seats open mid-combat), random seats choosing random legal actions (the GM's commands
included). Every step: no error, exact JSON round trip, notation round trip, a seat without a
decision is refused without a change, no NPC value in a player's view, the decision answered
is closed, and undo (the log replayed without its last step) gives the state before. Every
combat ends and replays identically from its log.

(A local copy of the kit's loop until the kit speaks the new contract; then this engine is
one ``KitCase("w6combat", config)`` there.)
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

import engines.all  # noqa: F401  (registers every engine)
from engines.core import Event, IllegalAction, registry
from engines.core.contract import Decision, seat_count, to_act
from engines.w6 import undo
from engines.w6.actions import GM_VERBS
from engines.w6.codec import encode
from engines.w6.state import CombatState, ShieldStats
from tests.unit.test_w6_combat import fighter, weapon

ENGINE = registry()["w6combat"]
TECHNIQUES = ("zweihaendig", "rundumschlag", "angriffsserie", "ausrichten", "blockade")
OWNERS = (None, None, 100, 101, 102)
GM_USER = 1


def random_config(chooser: random.Random) -> dict[str, Any]:
    settings = {name: chooser.random() < 0.5 for name in ("schwere_treffer", "kaufen")}
    settings |= {name: chooser.random() < 0.5 for name in ("stabilitaet", "freie_folgephasen")}
    roster = []
    for index in range(chooser.randint(2, 6)):
        techniques = tuple(t for t in TECHNIQUES if chooser.random() < 0.5)
        arms = [weapon("A", (1, 2), 2, 3, techniken=techniques, reichweite=chooser.choice((1, 2)),
                       stab_je=3, stab=5, stab_max=5)]  # fmt: skip
        if chooser.random() < 0.5:
            arms.append(weapon("B", (1, 1), 1, 1))
        if chooser.random() < 0.5:
            arms.append(weapon("Bogen", (1, 1), 0, 2, fernkampf=True, zielen=2))
        shield = ShieldStats("S", 2, 3, 2, 4, 4) if chooser.random() < 0.4 else None
        f = fighter(
            f"f{index}",
            chooser.choice(OWNERS),
            ab=chooser.randint(1, 9),
            waffen=tuple(arms),
            schild=shield,
            beidhaendig=chooser.random() < 0.5,
            magie=chooser.choice((0, 3)),
            reittier_be=chooser.choice((0, 1)),
            lp=12,
            lp_max=12,
            rlp=4,
            kw_max=chooser.randint(4, 12),
            handlungen_max=chooser.randint(1, 3),
            schildkampf=chooser.randint(0, 5),
        )
        roster.append(encode(f))
    return {"gm": GM_USER, "settings": settings, "roster": roster}


def _answered(decisions: tuple[Decision, ...], seat: int, action: Any, state: CombatState) -> str:
    """The id of the decision ``action`` answers for ``seat``."""
    if action.verb in GM_VERBS:
        wanted = "w6.decision.gm"
        return next(d.id for d in decisions if d.seat == seat and d.prompt == wanted)
    reflex = action.verb == "reflex" and action.fighter not in state_to_act(state)
    return next(
        d.id
        for d in decisions
        if d.seat == seat
        and d.prompt != "w6.decision.gm"
        and (d.prompt == "w6.decision.reflex") == reflex
        and action.fighter in d.params["fighters"]
    )


def state_to_act(state: CombatState) -> frozenset[str]:
    from engines.w6 import to_act as fighters_to_act

    return fighters_to_act(state)


def _check_views(state: CombatState) -> None:
    secrets = ENGINE.secrets_of(state, 0)
    for viewer in [None, *range(1, seat_count(ENGINE, state, 1))]:
        shown = json.dumps(ENGINE.view_for(state, viewer), ensure_ascii=False)
        leaked = [s for s in secrets if s in shown]
        assert not leaked, f"the GM's secrets {leaked} visible to {viewer}"


def play(
    seed: int, max_steps: int = 2000, seen: list[Event] | None = None
) -> tuple[dict[str, Any], CombatState, list[Any]]:
    """One random combat: its config, its final state and its log (seat, notation); the
    events go to ``seen``."""
    chooser = random.Random(seed)
    config = random_config(chooser)
    state = ENGINE.initial_state(config, seed, 1)
    log: list[tuple[int, str]] = []
    for _ in range(max_steps):
        if ENGINE.outcome(state) is not None:
            assert not ENGINE.decisions(state)
            return config, state, log
        decisions = ENGINE.decisions(state)
        actors = sorted(to_act(ENGINE, state))
        assert 0 in actors, "the GM always has a decision while the combat runs"
        seat = chooser.choice(actors)
        actions = list(ENGINE.legal_actions(state, seat))
        assert actions, f"seat {seat} has a decision but no legal action"
        action = chooser.choice(actions)
        while action.verb == "ende" and len(actions) > 1 and chooser.random() < 0.7:
            action = chooser.choice(actions)  # longer combats: the GM ends one less readily
        text = ENGINE.action_text(action)
        assert ENGINE.parse_action(text) == action, text
        idle = [s for s in range(seat_count(ENGINE, state, 1)) if s not in actors][:1]
        for other in idle:
            if action in ENGINE.legal_actions(state, other):
                continue
            before = ENGINE.state_to_json(state)
            with pytest.raises(IllegalAction):
                ENGINE.apply(state, action, other)
            assert ENGINE.state_to_json(state) == before
        answered = _answered(decisions, seat, action, state)
        new, events = ENGINE.apply(state, action, seat)
        assert all(e.type for e in events)
        if seen is not None:
            seen += events
        assert answered not in {d.id for d in ENGINE.decisions(new) if d.seat == seat}
        log.append((seat, text))
        assert [(e.actor, e.action) for e in new.log] == log
        data = json.loads(json.dumps(ENGINE.state_to_json(new)))
        assert ENGINE.state_from_json(data) == new, "JSON round trip is not exact"
        _check_views(new)
        if chooser.random() < 0.03:
            undone, _ = undo(new)
            assert replace(undone, undone=0) == replace(state, undone=0)
        state = new
    raise AssertionError(f"combat did not end within {max_steps} steps")


@pytest.mark.parametrize("seed", range(12))
def test_random_combats_keep_the_contract(seed: int) -> None:
    config, final, log = play(seed)
    outcome = ENGINE.outcome(final)
    assert outcome is not None and outcome.reason in ("one_side_standing", "ended_by_gm")
    state = ENGINE.initial_state(config, seed, 1)
    for seat, text in log:
        state, _ = ENGINE.apply(state, ENGINE.parse_action(text), seat)
    assert state == final, "replay from the log diverged"
