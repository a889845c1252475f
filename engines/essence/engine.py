"""The Essence of the Arcane engine: the contract of ``engines.core`` over the fast core."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engines.core.contract import Event, JsonDict, Outcome, PlayerId
from engines.core.errors import BadInput, IllegalAction
from engines.essence import actions
from engines.essence.actions import Action
from engines.essence.board import (
    DIRECTION_NAMES,
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
from engines.essence.rules import open_kinds_available, play

SCHEMA = 1
_CONFIG_KEYS = {"variants", "quick"}


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
        if state.phase == "end" or player != state.side:
            return []
        return [action for action, _step in step_actions(state)]

    def apply(
        self, state: Position, action: Action, player: PlayerId
    ) -> tuple[Position, list[Event]]:
        """Play one step. Raises IllegalAction with a specific ``essence.error.*`` key."""
        if state.phase == "end":
            raise IllegalAction("essence.error.game_over")
        if player != state.side:
            raise IllegalAction("essence.error.not_your_turn")
        step = resolve(state, action)
        if step is None:
            key, params = diagnose(state, action)
            raise IllegalAction(key, **params)
        raw: list[tuple[str, dict[str, Any]]] = []
        new_state = play(state, step, raw)
        events = []
        for kind, data in raw:
            if "player" not in data:
                data = {"player": player, **data}
            events.append(Event(kind, data))
        return new_state, events

    def to_act(self, state: Position) -> frozenset[PlayerId]:
        return frozenset() if state.phase == "end" else frozenset({state.side})

    def view_for(self, state: Position, player: PlayerId | None) -> JsonDict:
        return view(state)

    def outcome(self, state: Position) -> Outcome | None:
        if state.phase != "end":
            return None
        if state.side >= 0:
            return Outcome(frozenset({state.side}), "eliminated")
        return Outcome(frozenset(), "quiet_limit" if state.quiet >= QUIET_LIMIT else "turn_limit")

    def secrets_of(self, state: Position, player: PlayerId) -> set[str]:
        return set()

    def parse_action(self, text: str) -> Action:
        """Raises BadInput (``essence.error.bad_notation``) for unreadable text."""
        return actions.parse(text)

    def action_text(self, action: Action) -> str:
        return actions.text(action)

    def state_to_json(self, state: Position) -> JsonDict:
        return {
            "schema": SCHEMA,
            "position": to_fen(state),
            "last": [square_name(sq, state.size) for sq in state.last],
        }

    def state_from_json(self, data: JsonDict) -> Position:
        """Raises BadInput for another schema version or a malformed position."""
        if data.get("schema") != SCHEMA:
            raise BadInput("essence.error.bad_schema", found=data.get("schema"), expected=SCHEMA)
        pos = from_fen(str(data.get("position", "")))
        last = []
        for name in data.get("last", []):
            square = square_index(str(name), pos.size)
            if square is None:
                raise BadInput("essence.error.bad_position", reason="last", text=str(name))
            last.append(square)
        return replace(pos, last=tuple(last))

    def parse_position(self, text: str) -> Position:
        """A position in notation (RULES.md). Raises BadInput when malformed."""
        return from_fen(text)

    def position_text(self, state: Position) -> str:
        return to_fen(state)


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
    over = state.phase == "end"
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
