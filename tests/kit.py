"""The generic random-simulation kit every engine passes (OpenSpiel style).

Register an engine with one line in ``tests/unit/test_generic_kit.py``:
``KitCase("essence", {"variants": []})``. For each seed the kit plays a random game and checks:
no exception, JSON round trip exact after every step, notation round trip for every legal
action, an illegal action is refused without changing anything, termination within
``max_steps``, no secret of one player in another's view, and replay from the log.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from engines.core import Engine, IllegalAction, registry


@dataclass(frozen=True)
class KitCase:
    engine: str
    config: dict[str, Any] = field(default_factory=dict)
    players: int = 2
    seeds: int = 40
    max_steps: int = 2000

    def __str__(self) -> str:
        return f"{self.engine}-{json.dumps(self.config, sort_keys=True)}"


def _check_views(engine: Engine[Any, Any], state: Any, players: int) -> None:
    for owner in range(players):
        secrets = engine.secrets_of(state, owner)
        if not secrets:
            continue
        for viewer in [None, *[p for p in range(players) if p != owner]]:
            shown = json.dumps(engine.view_for(state, viewer), ensure_ascii=False)
            leaked = [s for s in secrets if s in shown]
            assert not leaked, f"player {owner}'s secrets {leaked} visible to {viewer}"


def play_random_game(case: KitCase, seed: int) -> tuple[Any, list[tuple[int, str]]]:
    """Play one random game; returns the final state and the log (player, notation)."""
    engine = registry()[case.engine]
    chooser = random.Random(seed)
    state = engine.initial_state(case.config, seed, case.players)
    log: list[tuple[int, str]] = []
    for _step in range(case.max_steps):
        if engine.outcome(state) is not None:
            assert not engine.to_act(state), "a finished game still has players to act"
            return state, log
        actors = sorted(engine.to_act(state))
        assert actors, "a running game has nobody to act"
        player = chooser.choice(actors)
        actions = list(engine.legal_actions(state, player))
        assert actions, f"player {player} must act but has no legal action"
        action = chooser.choice(actions)
        text = engine.action_text(action)
        assert engine.parse_action(text) == action, f"notation round trip failed: {text}"
        _check_refuses_other_players(engine, state, case.players, actors, action)
        state, events = engine.apply(state, action, player)
        assert all(e.type for e in events)
        log.append((player, text))
        data = engine.state_to_json(state)
        restored = engine.state_from_json(json.loads(json.dumps(data)))
        assert restored == state, "JSON round trip is not exact"
        _check_views(engine, state, case.players)
    raise AssertionError(f"game did not end within {case.max_steps} steps")


def _check_refuses_other_players(
    engine: Engine[Any, Any], state: Any, players: int, actors: list[int], action: Any
) -> None:
    for player in [p for p in range(players) if p not in actors][:1]:
        if action in engine.legal_actions(state, player):
            continue
        before = engine.state_to_json(state)
        with pytest.raises(IllegalAction):
            engine.apply(state, action, player)
        assert engine.state_to_json(state) == before, "a refused action changed the state"


def replay(case: KitCase, seed: int, log: list[tuple[int, str]]) -> Any:
    engine = registry()[case.engine]
    state = engine.initial_state(case.config, seed, case.players)
    for player, text in log:
        state, _events = engine.apply(state, engine.parse_action(text), player)
    return state


def check_case(case: KitCase) -> None:
    engine = registry()[case.engine]
    for seed in range(case.seeds):
        final, log = play_random_game(case, seed)
        assert engine.outcome(final) is not None
        assert replay(case, seed, log) == final, "replay from the log diverged"
