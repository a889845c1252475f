"""Between actions (what players type) and steps (the fast core): canonical actions for the
legal steps of a position, and the legal step an action names."""

from __future__ import annotations

from dataclasses import replace

from engines.essence.actions import Action, Destab, Grow, Heal, Move, Split, Summon, VoidShift
from engines.essence.board import DIRECTION_NAMES, MOVE, Position, square_name
from engines.essence.rules import Step, geometry_of, legal_steps


def step_actions(pos: Position) -> list[tuple[Action, Step]]:
    """Every legal step of ``pos`` with its canonical action, in generation order."""
    steps = legal_steps(pos)
    result: list[tuple[Action, Step]] = []
    move_ways: dict[tuple[int, int, int], list[Step]] = {}
    for step in steps:
        if step[0] == MOVE:
            move_ways.setdefault((step[1], _move_target(pos, step), step[4]), []).append(step)
    for step in steps:
        if step[0] == MOVE:
            ways = move_ways[(step[1], _move_target(pos, step), step[4])]
            via = "" if step is _usual_way(pos, ways) else DIRECTION_NAMES[step[2]]
            result.append((_move_action(pos, step, via), step))
        else:
            result.append((to_action(pos, step), step))
    return result


def _move_target(pos: Position, step: Step) -> int:
    return geometry_of(pos).rays[step[1]][step[2]][step[3] - 1]


def _usual_way(pos: Position, ways: list[Step]) -> Step:
    """Of two ways round to one square: the one that does not wrap, else the shorter one."""
    if len(ways) == 1:
        return ways[0]
    geo = geometry_of(pos)

    def wraps(step: Step) -> bool:
        return geo.wraps_from[step[1]][step[2]] <= step[3]

    return min(ways, key=lambda step: (wraps(step), step[3]))


def _move_action(pos: Position, step: Step, via: str) -> Move:
    name = square_name(step[1], pos.size)
    return Move(name, square_name(_move_target(pos, step), pos.size), step[4], via)


def to_action(pos: Position, step: Step) -> Action:
    """The action of a non-move step (moves need the way round: use ``step_actions``)."""
    kind, p1, p2, p3, o1, o2 = step
    name = square_name(p1, pos.size)
    if kind == 0:
        return Grow(name, o1)
    if kind == 2:
        return Split(name, square_name(p2, pos.size), o1, o2)
    if kind == 3:
        return Heal(name, square_name(p2, pos.size), p3, o1, o2)
    if kind == 4:
        return VoidShift(name)
    if kind == 5:
        return Destab(name, p2, o1)
    if kind == 6:
        return Summon(name)
    return _move_action(pos, step, "")


def resolve(pos: Position, action: Action) -> Step | None:
    """The legal step ``action`` names in ``pos`` (a move's ``via`` may name the usual way)."""
    for candidate, step in step_actions(pos):
        if candidate == action:
            return step
        if (
            isinstance(action, Move)
            and isinstance(candidate, Move)
            and action.via
            and step[0] == MOVE
            and DIRECTION_NAMES[step[2]] == action.via
            and replace(candidate, via=action.via) == action
        ):
            return step
    return None
