"""The Armageddon engine: the house contract over the mechanisms of ``rules``.

Seat 0 is the game master (sets up, overrules with a logged note); seats 1..n are the
parties of the scenario. A round is a movement phase (each party in turn: steps, mounting,
turning, swapping, then ``end``) and an action phase (declarations, control, Handlungen,
then ``done``).

This module holds the contract (decisions, legal actions, apply with its guard, leaving,
outcome) and routes an action to its phase: ``setup_phase`` (the start position and the game
master's set-up), ``movement``, ``acting`` (the action phase and the answers to a claim),
``gamemaster`` (overrules and corrections), ``flow`` (next party, phase, round, scores) and
``view``. The mechanisms they share are in ``rules`` (places, sides, steps, dice), ``crowds``
(overcrowding) and ``spells``; the stored state in ``state``, the notation in ``actions``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engines.armageddon import rules as R
from engines.armageddon.acting import act_actions, apply_act, apply_answer, apply_remove, grant
from engines.armageddon.actions import (
    ActAction,
    Action,
    Agree,
    GmAction,
    GmNote,
    MoveAction,
    Refuse,
    Remove,
    SetupAction,
    Step,
    action_path,
    action_text,
    parse_action,
)
from engines.armageddon.events import EventType
from engines.armageddon.flow import advance, normalize, scores
from engines.armageddon.gamemaster import apply_gm, gm_actions, keep_undo
from engines.armageddon.movement import apply_move, move_actions
from engines.armageddon.rules import fail, index
from engines.armageddon.scenario import load, parse
from engines.armageddon.setup_phase import apply_setup, new_state, setup_actions, start_play
from engines.armageddon.state import GM, SCHEMA, Phase, State, from_json, to_json
from engines.armageddon.view import view
from engines.core.contract import Decision, DecisionKind, Event, JsonDict, Outcome, PlayerId
from engines.core.errors import BadInput, EngineError, IllegalAction

_CONFIG = {"scenario", "scenario_text", "file", "rounds", "teams"}


class ArmageddonEngine:
    """Armageddon for a game master (seat 0) and 2-6 parties. Config: ``scenario`` (a
    shipped one's name) or ``scenario_text`` (+ ``file``), ``rounds``, ``teams``."""

    name = "armageddon"
    version = SCHEMA
    min_players = 3
    max_players = 7

    def initial_state(self, config: Mapping[str, Any], seed: int, players: int) -> State:
        unknown = set(config) - _CONFIG
        if unknown:
            raise BadInput("armageddon.error.bad_config", option=sorted(unknown)[0])
        text, file = scenario_text(config)
        rounds = config.get("rounds")
        if rounds is not None and (not isinstance(rounds, int) or not 1 <= rounds <= 99):
            raise BadInput("armageddon.error.bad_config", option="rounds")
        teams = tuple(config.get("teams") or ())
        return new_state(text, file, seed, players, rounds, teams)

    # -------------------------------------------------------------- decisions

    def decisions(self, state: State) -> tuple[Decision, ...]:
        if state.phase == "end":
            return ()
        out: list[Decision] = []

        def did(seat: int) -> str:
            return f"{state.round}{state.phase[0]}{seat}.{state.counters[seat]}"

        if state.crowds:
            place, party = state.crowds[0]
            out.append(
                Decision(
                    party,
                    did(party),
                    DecisionKind.CHOICE,
                    "armageddon.prompt.remove",
                    {"place": place},
                )
            )
        elif state.pending is not None:
            for seat in state.pending.waiting:
                out.append(
                    Decision(
                        seat,
                        did(seat),
                        DecisionKind.REACTION,
                        "armageddon.prompt.agree",
                        {"claimer": state.pending.claimer, "target": state.pending.target},
                    )
                )
        elif state.phase == "setup":
            out.append(Decision(GM, did(GM), DecisionKind.TURN, "armageddon.prompt.setup"))
        else:
            prompt = "armageddon.prompt.move" if state.phase == "move" else "armageddon.prompt.act"
            out.append(
                Decision(
                    state.active,
                    did(state.active),
                    DecisionKind.TURN,
                    prompt,
                    {"round": state.round},
                )
            )
        gm_may = state.phase != "setup" or bool(state.crowds)
        if gm_may and GM not in state.out:  # there is always a figure to add or remove
            # the game master may overrule at any time; the game never waits for it
            out.append(
                Decision(GM, did(GM), DecisionKind.REACTION, "armageddon.prompt.gm", waits=False)
            )
        return tuple(out)

    def legal_actions(self, state: State, player: PlayerId) -> Sequence[Action]:
        if state.phase == "end" or player in state.out:
            return []
        if player == GM:
            if state.phase == "setup" and not state.crowds:
                return setup_actions(state)
            return gm_actions(state)
        if state.crowds:
            place, party = state.crowds[0]
            if party != player:
                return []
            return [Remove(f.id) for f in index(state).by_place.get(place, []) if f.owner == player]
        if state.pending is not None:
            return [Agree(), Refuse()] if player in state.pending.waiting else []
        if state.phase == "setup" or player != state.active:
            return []
        return move_actions(state, player) if state.phase == "move" else act_actions(state, player)

    # -------------------------------------------------------------- apply

    def apply(self, state: State, action: Action, player: PlayerId) -> tuple[State, list[Event]]:
        if state.phase == "end":
            raise IllegalAction("armageddon.error.game_over")
        if not 0 <= player < len(state.counters) or player in state.out:
            raise IllegalAction("armageddon.error.not_your_turn")
        events: list[Event] = []
        new = dispatch(state, action, player, events)
        # the guard: offered == accepted (a note to the last overrule is typed, never offered)
        if action not in self.legal_actions(state, player) and not isinstance(action, GmNote):
            raise IllegalAction("armageddon.error.illegal", action=action_text(action))
        new = keep_undo(state, new, action, player)
        counters = list(new.counters)
        counters[player] += 1
        new = replace(new, counters=tuple(counters))
        new = normalize(R.refresh_majorities(new), events)
        if action.note:
            about = state.last_gm if isinstance(action, GmNote) else action_text(action)
            events.append(Event(EventType.GM_NOTE, {"note": action.note, "action": about or "gm"}))
        if isinstance(action, GmAction) and not isinstance(action, GmNote):
            new = replace(new, last_gm=" ".join(action_path(action)))
        return new, events

    def referee_seats(self, state: State) -> frozenset[PlayerId]:
        """The game master referees: the match ends when one playing side is left."""
        return frozenset({GM})

    def eliminate(self, state: State, player: PlayerId) -> tuple[State, list[Event]]:
        events: list[Event] = [Event(EventType.LEFT, {"player": player})]
        if player in state.out or state.phase == "end":
            raise IllegalAction("armageddon.error.game_over")
        new = replace(state, out=(*state.out, player))
        if player == GM:
            if new.phase == "setup":
                new = start_play(new, events)
            return normalize(new, events), events
        new = R.remove_figures(
            new, {f.id for f in new.figures if f.owner == player}, events, "left"
        )
        new = replace(
            new,
            figures=tuple(
                replace(f, owner=0, possessor=0) if f.possessor == player else f
                for f in new.figures
            ),
            hz=tuple((fld, 0 if p == player else p) for fld, p in new.hz),
            crowds=tuple(c for c in new.crowds if c[1] != player),
        )
        pend = new.pending
        if pend is not None:
            if pend.claimer == player:
                new = replace(new, pending=None)
            else:
                waiting = tuple(s for s in pend.waiting if s != player)
                new = replace(new, pending=replace(pend, waiting=waiting))
                if not waiting:
                    new = grant(new, pend.claimer, events)
        if new.phase in ("move", "act") and new.active == player:
            new = advance(new, events)
        return normalize(new, events), events

    # -------------------------------------------------------------- views and outcome

    def view_for(self, state: State, player: PlayerId | None) -> JsonDict:
        return view(state)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "end":
            return None
        score = scores(state)
        blk = R.blocks(state)
        per: dict[int, int] = {}
        for p in range(1, state.parties + 1):
            per[blk[p]] = per.get(blk[p], 0) + score[p]
        levels = sorted(set(per.values()), reverse=True)

        def seats_of(block_score: int) -> frozenset[int]:
            parties = {p for p in range(1, state.parties + 1) if per[blk[p]] == block_score}
            if state.teams:  # the match's allies win together
                teams = {state.teams[p] for p in parties}
                parties |= {s for s in range(len(state.teams)) if state.teams[s] in teams}
            return frozenset(parties)

        ranking: list[frozenset[int]] = []
        placed: set[int] = set()
        for level in levels:
            place = seats_of(level) - placed
            if place:
                ranking.append(place)
                placed |= place
        top = [b for b, v in per.items() if v == levels[0]]
        if len(top) > 1:
            return Outcome(frozenset(), "points_tie", tuple(ranking))
        return Outcome(ranking[0], "points", tuple(ranking))

    def secrets_of(self, state: State, player: PlayerId) -> set[str]:
        return set()

    # -------------------------------------------------------------- notation and JSON

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def action_text(self, action: Action) -> str:
        return action_text(action)

    def action_path(self, action: Action) -> tuple[str, ...]:
        return action_path(action)

    def state_to_json(self, state: State) -> JsonDict:
        return to_json(state)

    def state_from_json(self, data: JsonDict) -> State:
        return from_json(data)


def dispatch(state: State, a: Action, player: int, events: list[Event]) -> State:
    try:
        if isinstance(a, Remove):
            return apply_remove(state, a, player, events)
        if isinstance(a, GmAction):
            if player != GM or (state.phase == "setup" and not state.crowds):
                raise fail("gm_only")
            return apply_gm(state, a, events)
        if state.crowds:
            raise _resolve_first(state)
        if isinstance(a, Agree | Refuse):
            return apply_answer(state, a, player, events)
        if isinstance(a, SetupAction):
            if player != GM or state.phase != "setup":
                raise fail("gm_only")
            return apply_setup(state, a, events)
        if state.pending is not None:
            raise fail("claim_pending", target=state.pending.target)
        if player == GM or player != state.active:
            raise fail("not_your_turn")
        if isinstance(a, MoveAction):
            if state.phase != Phase.MOVE:
                raise fail("wrong_phase", verb=a.verb)
            return apply_move(state, a, player, events)
        if state.phase != Phase.ACT or not isinstance(a, ActAction):
            raise fail("wrong_phase", verb=a.verb)
        return apply_act(state, a, player, events)
    except EngineError:
        raise
    except (KeyError, ValueError, IndexError) as error:  # a token naming nothing
        raise IllegalAction("armageddon.error.illegal", action=action_text(a)) from error


def _resolve_first(state: State) -> EngineError:
    """Why nothing else may happen yet: a party must remove figures from an overcrowded
    place (named as a field, a tower's level or a carrier, never as an internal id)."""
    place, party = state.crowds[0]
    tag, where, sub = place.split(":")
    if tag == "c":
        carrier = state.figure(where)
        fld = carrier.field if carrier is not None else "?"
        return fail("resolve_first_on", figure=where, field=fld, player=party)
    if sub != "0":
        return fail("resolve_first_level", field=where, level=int(sub), player=party)
    return fail("resolve_first", field=where, player=party)


ENGINE = ArmageddonEngine()


# ------------------------------------------------------------------ for a reader before a step


def scenario_text(config: Mapping[str, Any]) -> tuple[str, str]:
    """The scenario text and its file name of a config (a shipped one's or an upload)."""
    if "scenario_text" in config:
        return str(config["scenario_text"]), str(config.get("file", "szenario"))
    return load(str(config.get("scenario", "scharmuetzel")))


def preview(config: Mapping[str, Any]) -> JsonDict:
    """The starting map of a scenario config as a spectator sees it, before any game (every
    party seated, seed 0). Raises BadInput for a config the engine refuses."""
    parties = parse(*scenario_text(config)).parties
    return ENGINE.view_for(ENGINE.initial_state(config, 0, parties + 1), None)


def path_next(state: State, seat: int, path: Sequence[Action], figure: str = "") -> list[Step]:
    """The legal steps of ``figure`` (empty: of every figure) after ``path`` (the steps typed
    so far, played on a copy), for completing a path being typed. Raises the engine's error
    for a path that cannot be walked."""
    for action in path:
        state, _events = ENGINE.apply(state, action, seat)
    steps = [a for a in ENGINE.legal_actions(state, seat) if isinstance(a, Step)]
    return [s for s in steps if s.figure == figure] if figure else steps
