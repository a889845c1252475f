"""The generic random-simulation kit every engine passes (OpenSpiel style).

Register an engine with one line in ``tests/unit/test_generic_kit.py``:
``KitCase("essence", {"variants": []})``. For each seed the kit plays a random game through the
match wrapper, choosing at random among the open decisions of all seats (so reactions and
sealed choices are answered in every order), and checks: no exception; the JSON round trip of
state and match after every step; the notation round trip and distinct action paths for every
legal action; an action of a seat without a decision is refused without changing anything; an
answered decision's id is not open any more; termination within ``max_steps``; a consistent
outcome (winners among the seats, allies win together, a ranking that starts with the
winners); no secret of one seat in another's view or in the export another seat or a
spectator may read (views and the public action log); replay from the log; a reaction's
timeout action (``TimeoutActions``), when named, is one of its legal actions. With more than two
seats a random seat resigns mid-game: the game goes on (while two sides remain) and ends.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from engines.core import Engine, IllegalAction, registry
from engines.core import match as m
from engines.core.contract import DecisionKind, Outcome, SecretActions, TimeoutActions
from engines.core.record import public_log, replay


@dataclass(frozen=True)
class KitCase:
    engine: str
    config: dict[str, Any] = field(default_factory=dict)
    players: int = 2
    seeds: int = 40
    max_steps: int = 2000
    resign: bool = True  # with more than two seats, one resigns mid-game

    def __str__(self) -> str:
        config = json.dumps(self.config, sort_keys=True)
        if len(config) > 80:  # a roster: name it by its digest
            config = hashlib.blake2b(config.encode(), digest_size=4).hexdigest()
        return f"{self.engine}-{self.players}-{config}"


def _check_views(engine: Engine[Any, Any], state: Any, players: int) -> None:
    for owner in range(players):
        secrets = engine.secrets_of(state, owner)
        if not secrets:
            continue
        for viewer in [None, *[p for p in range(players) if p != owner]]:
            shown = json.dumps(engine.view_for(state, viewer), ensure_ascii=False)
            leaked = [s for s in secrets if s in shown]
            assert not leaked, f"player {owner}'s secrets {leaked} visible to {viewer}"


def _check_exports(case: KitCase, seed: int, match: m.Match, log: list[tuple[int, str]]) -> None:
    """What each seat and a spectator may export of the running game: its view and the
    public log; neither may hold another seat's secret."""
    engine = registry()[case.engine]
    secretive = isinstance(engine, SecretActions) or any(
        engine.secrets_of(match.state, seat) for seat in range(match.players)
    )
    for viewer in [None, *range(match.players)] if secretive else [None]:
        reader = () if viewer is None else (viewer,)
        entries, replayed = public_log(engine, case.config, seed, case.players, log, reader)
        assert replayed == match, "the public log does not replay to the game"
        shown = json.dumps(
            {"view": engine.view_for(match.state, viewer), "actions": entries}, ensure_ascii=False
        )
        for owner in range(match.players):
            if owner == viewer:
                continue
            leaked = [s for s in engine.secrets_of(match.state, owner) if s in shown]
            assert not leaked, f"player {owner}'s secrets {leaked} in the export for {viewer}"


def check_outcome(result: Outcome, match: m.Match) -> None:
    seats = frozenset(range(match.players))
    assert result.winners <= seats, f"winners {result.winners} are not seats"
    for winner in result.winners:
        allies = {s for s in seats if match.team_of(s) == match.team_of(winner)}
        assert allies <= result.winners, f"seat {winner} won without its allies {allies}"
    places = [seat for place in result.ranking for seat in place]
    assert len(places) == len(set(places)) and set(places) <= seats, "a seat ranked twice"
    if result.ranking and result.winners:
        assert result.ranking[0] == result.winners, "the ranking does not start with the winners"
    assert set(match.eliminated) <= set(result.eliminated), "a seat that left is not eliminated"
    assert set(result.eliminated) <= seats, "an eliminated seat that is no seat"
    assert result.reason, "an outcome without a reason"


def play_random_game(case: KitCase, seed: int) -> tuple[m.Match, list[tuple[int, str]]]:
    """Play one random game; returns the final match and the log (seat, notation)."""
    engine = registry()[case.engine]
    chooser = random.Random(seed)
    match = m.start(engine, case.config, seed, case.players)
    resign_at = chooser.randrange(1, 20) if case.players > 2 and case.resign else -1
    log: list[tuple[int, str]] = []
    for step in range(case.max_steps):
        result = m.outcome(engine, match)
        if result is not None:
            assert not engine.decisions(match.state) or match.ended is not None, (
                "a finished game still has open decisions"
            )
            check_outcome(result, match)
            return match, log
        decisions = m.decisions(engine, match)
        assert decisions, "a running game has no open decision"
        assert all(isinstance(d.kind, DecisionKind) and d.id for d in decisions)
        keys = [(d.seat, d.id) for d in decisions]
        assert len(keys) == len(set(keys)), f"a decision id is open twice: {keys}"
        if step == resign_at:
            seat = chooser.choice(match.remaining)
            sides_before = len(m.sides_left(engine, match))
            match, _events = m.apply(engine, match, "!resign", seat)
            log.append((seat, "!resign"))
            assert seat in match.eliminated
            if len(m.sides_left(engine, match)) > 1:  # it plays on (unless the rules end it)
                assert match.ended is None, f"a resign ended a game of {sides_before} sides"
                assert seat not in m.to_act(engine, match), "an eliminated seat still decides"
                assert seat not in {d.seat for d in engine.decisions(match.state)}, (
                    "the engine kept a decision of an eliminated seat open"
                )
            continue
        decision = chooser.choice(decisions)
        actions = list(engine.legal_actions(match.state, decision.seat))
        assert actions, f"seat {decision.seat} has decision {decision.id} but no legal action"
        if isinstance(engine, TimeoutActions):  # a reaction's answer when its time is up
            timed = engine.timeout_action(match.state, decision)
            assert timed is None or timed in actions, f"timeout action {timed} is not legal"
        paths = {tuple(engine.action_path(a)) for a in actions}
        assert len(paths) == len(actions), "two legal actions share an action path"
        action = chooser.choice(actions)
        text = engine.action_text(action)
        assert engine.parse_action(text) == action, f"notation round trip failed: {text}"
        _check_refuses_other_players(engine, match, action)
        open_before = {d.id for d in decisions if d.seat == decision.seat}
        match, events = m.apply(engine, match, text, decision.seat)
        assert all(e.type for e in events)
        # The action answers one of the seat's open decisions (a seat may hold several, as
        # the W6 game master does): at least one of them is closed now.
        assert not open_before <= {
            d.id for d in m.decisions(engine, match) if d.seat == decision.seat
        }, f"no decision of seat {decision.seat} ({sorted(open_before)}) closed by its answer"
        log.append((decision.seat, text))
        data = engine.state_to_json(match.state)
        restored = engine.state_from_json(json.loads(json.dumps(data)))
        assert restored == match.state, "JSON round trip is not exact"
        assert m.from_json(engine, json.loads(json.dumps(m.to_json(engine, match)))) == match
        _check_views(engine, match.state, match.players)
        if len(log) & (len(log) - 1) == 0:  # exports at powers of two (they replay the log)
            _check_exports(case, seed, match, log)
    raise AssertionError(f"game did not end within {case.max_steps} steps")


def _check_refuses_other_players(engine: Engine[Any, Any], match: m.Match, action: Any) -> None:
    """One seat without an open decision may not take ``action``; trying changes nothing."""
    deciders = m.to_act(engine, match)
    for player in [p for p in match.remaining if p not in deciders][:1]:
        if action in engine.legal_actions(match.state, player):
            continue
        before = engine.state_to_json(match.state)
        with pytest.raises(IllegalAction):
            engine.apply(match.state, action, player)
        assert engine.state_to_json(match.state) == before, "a refused action changed the state"


def check_case(case: KitCase) -> None:
    engine = registry()[case.engine]
    for seed in range(case.seeds):
        final, log = play_random_game(case, seed)
        assert m.outcome(engine, final) is not None
        replayed = replay(engine, case.config, seed, case.players, log)
        assert replayed == final, "replay from the log diverged"
