"""Why an action is illegal: the most specific ``essence.error.*`` key and its parameters.

Called only after the action was found not to be legal, so every branch may assume that.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engines.essence.actions import Action, Destab, Grow, Heal, Move, Split, Summon, VoidShift
from engines.essence.board import (
    BESCHWOERUNG,
    DIRECTION_NAMES,
    FACE_DIRECTIONS,
    GROWTH,
    Position,
    orientation_of,
    owner_of,
    square_index,
    strength_of,
)
from engines.essence.resolve import resolve
from engines.essence.rules import geometry_of

Diagnosis = tuple[str, dict[str, Any]]


def diagnose(pos: Position, action: Action) -> Diagnosis:
    """The error for an action that ``resolve`` did not find among the legal steps."""
    kind = action.kind
    if pos.phase is GROWTH and kind != "grow":
        return "essence.error.growth_first", {}
    if pos.phase is not GROWTH and kind == "grow":
        return "essence.error.no_growth_now", {}
    if kind == pos.used:
        return "essence.error.same_type_twice", {"kind": kind}
    if kind == "summon" and BESCHWOERUNG not in pos.variants:
        return "essence.error.variant_off", {"variant": "beschwoerung"}
    squares = _squares(action)
    for name in squares:
        if square_index(name, pos.size) is None:
            return "essence.error.off_board", {"square": name}
    if not isinstance(action, VoidShift):
        source = _index(pos, squares[0])
        if not pos.cells[source] or owner_of(pos.cells[source]) != pos.side:
            return "essence.error.not_own_mote", {"square": squares[0]}
    plain = _without_orientation(action)
    if plain != action and resolve(pos, plain) is not None:
        return "essence.error.no_orientation", {}
    return _specific(pos, action)


def _squares(action: Action) -> list[str]:
    if isinstance(action, Grow):
        return [action.square]
    if isinstance(action, VoidShift):
        return [action.target]
    if isinstance(action, Destab | Summon):
        return [action.source]
    return [action.source, action.target]


def _index(pos: Position, name: str) -> int:
    square = square_index(name, pos.size)
    assert square is not None
    return square


def _without_orientation(action: Action) -> Action:
    if isinstance(action, Grow | Move | Destab):
        return replace(action, orient=0)
    if isinstance(action, Split):
        return replace(action, source_orient=0, new_orient=0)
    if isinstance(action, Heal):
        return replace(action, source_orient=0, target_orient=0)
    return action


def _specific(pos: Position, action: Action) -> Diagnosis:
    geo = geometry_of(pos)
    if isinstance(action, Grow):
        return "essence.error.mote_at_max", {"square": action.square}
    if isinstance(action, VoidShift):
        return "essence.error.void_too_far", {"square": action.target}
    if isinstance(action, Summon):
        return "essence.error.summon_needs_six", {"square": action.source}
    source = _index(pos, action.source)
    strength = strength_of(pos.cells[source])
    if isinstance(action, Move):
        return _move_problem(pos, action, source, strength)
    if isinstance(action, Destab):
        if not 1 <= action.amount <= strength:
            return "essence.error.bad_amount", {"amount": action.amount, "strength": strength}
        return "essence.error.last_mote", {}
    target = _index(pos, action.target)
    if target not in geo.neighbours[source]:
        return "essence.error.not_adjacent", {"square": action.target}
    if isinstance(action, Split):
        if strength < 2:
            return "essence.error.too_weak", {"square": action.source, "strength": strength}
        return "essence.error.occupied", {"square": action.target}
    if not pos.cells[target] or owner_of(pos.cells[target]) != pos.side:
        return "essence.error.not_friendly", {"square": action.target}
    return "essence.error.bad_amount", {"amount": action.amount, "strength": strength}


def _move_problem(pos: Position, action: Move, source: int, strength: int) -> Diagnosis:
    geo = geometry_of(pos)
    target = _index(pos, action.target)
    allowed = FACE_DIRECTIONS[strength][orientation_of(pos.cells[source])]
    ways = [
        (direction, geo.rays[source][direction].index(target) + 1)
        for direction in range(8)
        if target in geo.rays[source][direction]
        and (not action.via or DIRECTION_NAMES[direction] == action.via)
    ]
    if not any(direction in allowed for direction, _distance in ways):
        return "essence.error.not_a_line", {"square": action.target}
    if all(distance > strength for direction, distance in ways if direction in allowed):
        return "essence.error.too_far", {"square": action.target, "strength": strength}
    return "essence.error.blocked", {"square": action.target}
