"""Random combats (generic-kit style): never an untyped error, exact JSON round trip,
someone to act while running, and undo restores the previous state."""

from __future__ import annotations

import json
import random

import pytest

from engines.core import EngineError
from engines.w6 import (
    CombatState,
    Settings,
    apply,
    make,
    new_combat,
    state_from_json,
    state_to_json,
    to_act,
    users_to_act,
    verbs_for,
)
from engines.w6.state import ShieldStats
from engines.w6.view import join_action, status_view
from tests.unit.test_w6_combat import GM, fighter, weapon

ALL_TECHNIQUES = ("zweihaendig", "rundumschlag", "angriffsserie", "ausrichten", "blockade")


def _start(seed: int) -> CombatState:
    chooser = random.Random(seed)
    settings = Settings(
        schwere_treffer=chooser.random() < 0.5,
        kaufen=chooser.random() < 0.5,
        stabilitaet=chooser.random() < 0.5,
        freie_folgephasen=chooser.random() < 0.5,
    )
    state = new_combat(GM, seed, settings)
    for index in range(chooser.randint(2, 5)):
        arms = (
            weapon(
                "A",
                (1, 2),
                2,
                3,
                techniken=ALL_TECHNIQUES,
                reichweite=2,
                stab_je=3,
                stab=5,
                stab_max=5,
            ),
            weapon("B", (1, 1), 1, 1, techniken=("beidhaendig",)),
            weapon("Bogen", (1, 1), 0, 2, fernkampf=True),
        )
        shield = ShieldStats("S", 2, 3, 2, 4, 4) if chooser.random() < 0.4 else None
        f = fighter(
            f"f{index}",
            100 + index,
            ab=chooser.randint(1, 9),
            waffen=arms,
            schild=shield,
            beidhaendig=chooser.random() < 0.5,
            magie=3,
            reittier_be=1,
            lp=12,
            rlp=4,
            handlungen_max=chooser.randint(1, 3),
        )
        state, _ = apply(state, join_action(f), GM)
    state, _ = apply(state, make("beginnen"), GM)
    return state


def _random_action(state: CombatState, chooser: random.Random) -> tuple[object, int]:
    fighter_id = chooser.choice(sorted(to_act(state)))
    verbs = verbs_for(state, fighter_id)
    verb = chooser.choice(verbs)
    others = [f.id for f in state.fighters if f.id != fighter_id]
    opts: dict[str, object] = {"kw": chooser.randint(0, 4)}
    targets: tuple[str, ...] = ()
    if verb in ("angriff", "fern", "finte", "durchbrechen"):
        targets = (chooser.choice(others),)
    if verb in ("rundum", "beidhaendig"):
        targets = tuple(chooser.sample(others, min(len(others), chooser.randint(1, 2))))
    if verb in ("angriff", "fern", "rundum", "beidhaendig", "finte", "blockade"):
        opts["probe"] = chooser.randint(0, 6)
    if verb == "angriff":
        opts["zone"] = chooser.choice([None, "Kopf", "Arme", "Hände"])
        opts["serie"] = chooser.random() < 0.3
        opts["erschwert"] = chooser.choice([None, 1])
    if verb == "fern":
        opts["dist"] = chooser.randint(1, 12)
    if verb == "finte":
        opts["angriff"] = chooser.randint(0, 3)
    if verb == "abwehr":
        choice = chooser.random()
        opts = (
            {"kw": chooser.randint(0, 4)}
            if choice < 0.6
            else {"keine": True}
            if choice < 0.8
            else {"reflex": True}
        )
    if verb in (
        "weiter",
        "fertig",
        "wuerfeln",
        "zurueckweichen",
        "nachschlagen",
        "verzichten",
        "abbruch",
        "blockade_ende",
        "serie_ende",
        "aufsitzen",
        "absitzen",
        "handlung",
        "zielen",
        "reflex",
    ):
        opts = {}
    action = make(verb, fighter_id, targets, **opts)
    owner = users_to_act(state)[fighter_id] if chooser.random() < 0.5 else GM
    return action, owner if owner is not None else GM


@pytest.mark.parametrize("seed", range(20))
def test_random_combats_keep_the_contract(seed: int) -> None:
    chooser = random.Random(seed)
    state = _start(seed)
    for _ in range(200):
        assert to_act(state), f"nobody to act: {status_view(state)}"
        action, actor = _random_action(state, chooser)
        try:
            new, events = apply(state, action, actor)  # type: ignore[arg-type]
        except EngineError:
            if state.pending is not None and chooser.random() < 0.1:
                state, _ = apply(state, make("zurueck"), GM)
            elif chooser.random() < 0.05:
                state, _ = apply(state, make("phase"), GM) if state.pending is None else (state, [])
            continue
        assert all(e.type for e in events)
        restored = state_from_json(json.loads(json.dumps(state_to_json(new))))
        assert restored == new
        if chooser.random() < 0.05:
            undone, _ = apply(new, make("zurueck"), GM)
            assert undone.fighters == state.fighters and undone.rng == state.rng
        state = new
        json.dumps(status_view(state))
    assert state.phase >= 1
