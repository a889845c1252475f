"""Essence under the engine contract: one TURN decision per step, click paths, the bot hook."""

from __future__ import annotations

import random

from engines.core import BotPlayer, DecisionKind, decision_for
from engines.core.choices import ChoiceTree
from engines.essence import ENGINE
from engines.essence.ai import choose_step


def test_every_step_opens_a_new_turn_decision_for_the_side_to_act() -> None:
    state = ENGINE.initial_state({"variants": []}, 0, 2)
    seen = set()
    rng = random.Random(4)
    for _ in range(12):
        (decision,) = ENGINE.decisions(state)
        assert decision.seat == state.side and decision.kind == DecisionKind.TURN
        assert decision.id not in seen
        seen.add(decision.id)
        action = rng.choice(list(ENGINE.legal_actions(state, state.side)))
        state, _events = ENGINE.apply(state, action, state.side)
    assert decision_for(ENGINE, state, 1 - state.side) is None


def test_the_click_paths_name_every_legal_step_once() -> None:
    state = ENGINE.initial_state({"variants": ["schleife", "beschwoerung"]}, 0, 2)
    actions = list(ENGINE.legal_actions(state, 0))
    tree = ChoiceTree(ENGINE, actions)
    assert len(tree.paths) == len(actions)
    for action in actions:
        path = ENGINE.action_path(action)
        assert tree.action(tree.follow(path[:1])) in (None, action) and tree.action(path) == action


def test_the_bot_hook_plays_what_the_ai_plays_for_the_same_seed() -> None:
    assert isinstance(ENGINE, BotPlayer) and ENGINE.bot_levels == ("easy", "normal", "hard")
    state = ENGINE.initial_state({"variants": [], "quick": True}, 0, 2)
    for level in ENGINE.bot_levels:
        chosen = ENGINE.choose_action(state, 0, level, 1.0, random.Random(42))
        assert chosen == choose_step(state, level, 42)
