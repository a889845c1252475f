"""The Essence of the Arcane engine: the contract of ``engines.core`` over the fast core."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engines.core.codec import Codec, JsonObject, Schema, encode_object
from engines.core.contract import Decision, DecisionKind, Event, JsonDict, Outcome, PlayerId
from engines.core.errors import BadInput, IllegalAction
from engines.essence import actions
from engines.essence.actions import Action, Destab, Grow, Heal, Move, Split, Summon, VoidShift
from engines.essence.ai import choose_step
from engines.essence.board import (
    DIRECTION_NAMES,
    END,
    FACE_DIRECTIONS,
    ORIENTABLE,
    QUIET_LIMIT,
    TURN_LIMIT,
    Position,
    from_fen,
    normalize_variants,
    owner_of,
    square_index,
    square_name,
    start_position,
    strength_of,
    to_fen,
)
from engines.essence.diagnose import diagnose
from engines.essence.resolve import resolve, step_actions
from engines.essence.rules import EventList, open_kinds_available, play

SCHEMA = 2  # 1: the position in notation, {"schema": 1, "position": ..., "last": [...]}
_CONFIG_KEYS = {"variants", "quick"}


def _from_v1(data: JsonObject) -> JsonObject:
    """Schema 1 -> 2: the position was stored in its notation (RULES.md) and the last step's
    squares by name. Raises BadInput("essence.error.bad_position")."""
    pos = from_fen(str(data.get("position", "")))
    last = []
    names = data.get("last", [])
    for name in names if isinstance(names, list) else [names]:
        square = square_index(str(name), pos.size)
        if square is None:
            raise BadInput("essence.error.bad_position", reason="last", text=str(name))
        last.append(square)
    return encode_object(replace(pos, last=tuple(last)))


STORED: Schema[Position] = Schema(
    Position, SCHEMA, Codec("essence.error.bad_state"), "essence.error.bad_schema", {1: _from_v1}
)


class EssenceEngine:
    """Essence of the Arcane for two players. Config: ``variants`` (list of ``bestimmt``,
    ``schleife``, ``beschwoerung``) and ``quick`` (the 5x5 board)."""

    name = "essence"
    version = SCHEMA
    min_players = 2
    max_players = 2

    def initial_state(self, config: Mapping[str, Any], seed: int, players: int) -> Position:
        """The start position. Raises BadInput for unknown options or a player count not 2."""
        unknown = set(config) - _CONFIG_KEYS
        if unknown:
            raise BadInput("essence.error.bad_config", option=sorted(unknown)[0])
        if players != 2:
            raise BadInput("error.player_count", min=2, max=2)
        variants = config.get("variants", [])
        if not isinstance(variants, list | tuple) or not all(isinstance(v, str) for v in variants):
            raise BadInput("essence.error.bad_config", option="variants")
        return start_position(bool(config.get("quick", False)), normalize_variants(variants))

    def legal_actions(self, state: Position, player: PlayerId) -> Sequence[Action]:
        if state.phase is END or player != state.side:
            return []
        return [action for action, _step in step_actions(state)]

    def apply(
        self, state: Position, action: Action, player: PlayerId
    ) -> tuple[Position, list[Event]]:
        """Play one step. Raises IllegalAction with a specific ``essence.error.*`` key."""
        if state.phase is END:
            raise IllegalAction("essence.error.game_over")
        if player != state.side:
            raise IllegalAction("essence.error.not_your_turn")
        step = resolve(state, action)
        if step is None:
            key, params = diagnose(state, action)
            raise IllegalAction(key, **params)
        raw: EventList = []
        new_state = play(state, step, raw)
        events = []
        for kind, data in raw:
            if "player" not in data:
                data = {"player": player, **data}
            events.append(Event(kind, data))
        return new_state, events

    def decisions(self, state: Position) -> tuple[Decision, ...]:
        """One TURN decision for the side to act; its id (turn and phase, e.g. ``12a1``)
        changes with every step."""
        if state.phase is END:
            return ()
        return (Decision(state.side, f"{state.turn}{state.phase}", DecisionKind.TURN),)

    def eliminate(self, state: Position, player: PlayerId) -> tuple[Position, list[Event]]:
        """Never called: with two seats the match ends when one leaves."""
        raise IllegalAction("error.player_count", min=2, max=2)

    def view_for(self, state: Position, player: PlayerId | None) -> JsonDict:
        return view(state)

    def outcome(self, state: Position) -> Outcome | None:
        if state.phase is not END:
            return None
        if state.side >= 0:
            winner, loser = frozenset({state.side}), frozenset({1 - state.side})
            return Outcome(winner, "eliminated", (winner, loser))
        reason = "quiet_limit" if state.quiet >= QUIET_LIMIT else "turn_limit"
        return Outcome(frozenset(), reason, (frozenset({0, 1}),))

    def secrets_of(self, state: Position, player: PlayerId) -> set[str]:
        return set()

    def parse_action(self, text: str) -> Action:
        """Raises BadInput (``essence.error.bad_notation``) for unreadable text."""
        return actions.parse(text)

    def action_text(self, action: Action) -> str:
        return actions.text(action)

    def action_path(self, action: Action) -> tuple[str, ...]:
        """The choices that click ``action`` together, first the mote (or ``vd`` for the void):
        then the action type (``mv``, ``sp``, ``hl``, ``ds``, ``sm``), the target square (with
        ``~dir`` for a way round under Schleife), an amount, the orientations (``o``, ``n``,
        ``t`` + 0/1)."""
        return _path(action)

    bot_levels = ("easy", "normal", "hard")  # offered to players; "greedy" is a bench opponent

    def choose_action(
        self, state: Position, player: PlayerId, level: str, budget_s: float, rng: random.Random
    ) -> Action:
        """The AI's step (``engines.essence.ai``). Its effort is counted in positions, not
        seconds, so ``budget_s`` is not needed: every level stays well within a second or
        two. Raises BadInput for an unknown level, IllegalAction when not ``player``'s turn."""
        if state.phase is END or player != state.side:
            raise IllegalAction("essence.error.not_your_turn")
        return choose_step(state, level, rng)

    def state_to_json(self, state: Position) -> JsonDict:
        return STORED.dump(state)

    def state_from_json(self, data: JsonDict) -> Position:
        """Raises BadInput for another schema version (``essence.error.bad_schema``) or a
        malformed position (``essence.error.bad_state`` naming the field; a version 1 position
        ``essence.error.bad_position``)."""
        return STORED.load(data)

    def parse_position(self, text: str) -> Position:
        """A position in notation (RULES.md). Raises BadInput when malformed."""
        return from_fen(text)

    def position_text(self, state: Position) -> str:
        return to_fen(state)


def _path(action: Action) -> tuple[str, ...]:
    if isinstance(action, Grow):
        return (action.square, f"o{action.orient}")
    if isinstance(action, Move):
        via = f"~{action.via}" if action.via else ""
        return (action.source, "mv", action.target + via, f"o{action.orient}")
    if isinstance(action, Split):
        return (
            action.source,
            "sp",
            action.target,
            f"o{action.source_orient}",
            f"n{action.new_orient}",
        )
    if isinstance(action, Heal):
        return (
            action.source,
            "hl",
            action.target,
            str(action.amount),
            f"o{action.source_orient}",
            f"t{action.target_orient}",
        )
    if isinstance(action, VoidShift):
        return ("vd", action.target)
    if isinstance(action, Destab):
        return (action.source, "ds", str(action.amount), f"o{action.orient}")
    assert isinstance(action, Summon)
    return (action.source, "sm")


def view(state: Position) -> JsonDict:
    """Plain data for the renderer and the cog (documented in the package docstring)."""
    size = state.size
    cells = []
    for square, code in enumerate(state.cells):
        if code:
            strength = strength_of(code)
            orient = (code if code > 0 else -code) & 1
            cells.append({
                "square": square_name(square, size),
                "file": square % size,
                "rank": square // size,
                "owner": owner_of(code),
                "strength": strength,
                "orientation": orient if ORIENTABLE[strength] else None,
                "directions": [DIRECTION_NAMES[d] for d in FACE_DIRECTIONS[strength][orient]],
            })  # fmt: skip
    over = state.phase is END
    return {
        "size": size,
        "files": "abcdefg"[:size],
        "cells": cells,
        "void": square_name(state.void, size),
        "last": [square_name(sq, size) for sq in state.last],
        "side": None if over else state.side,
        "phase": state.phase,
        "used": state.used or None,
        "available": open_kinds_available(state),
        "turn": state.turn,
        "round": (state.turn + 1) // 2,
        "variants": list(state.variants),
        "quick": size == 5,
        "winner": state.side if over and state.side >= 0 else None,
        "draw": over and state.side < 0,
        "quiet": state.quiet,
        "quiet_limit": QUIET_LIMIT,
        "turn_limit": TURN_LIMIT,
        "position": to_fen(state),
    }


ENGINE = EssenceEngine()


def face_after(state: Position, action: Action, square: str) -> tuple[int, list[str]] | None:
    """The face (strength) and the directions of the mote on ``square`` once the side to
    move plays ``action`` (played on a copy): what an orientation would leave, for a label
    before it is chosen. None: no mote there then."""
    after, _events = ENGINE.apply(state, action, state.side)
    for cell in view(after)["cells"]:
        if cell["square"] == square:
            return int(cell["strength"]), list(cell["directions"])
    return None
