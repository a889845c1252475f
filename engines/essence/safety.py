"""Can the side to act eliminate its opponent before its turn ends? (The hard level's safety
check: a turn is safe when the answer for the opponent's next turn is no.)

Only two actions ever take an enemy mote: a void shift (the one mote on the square the void
enters, a neighbour of where it stands) and a destabilize (the enemy motes beside its source,
at most as strong as the amount). Each is played at most once a turn, so the opponent can only
be eliminated when all its motes but at most one beside the void fit into the 3x3 square
around one source. That test prunes almost every position before any step is generated; what
passes it is searched exactly: every growth, every first action, and as the last action every
destabilize and void shift.
"""

from __future__ import annotations

from engines.essence.board import DESTAB, END, GROWTH, KIND_NAMES, SECOND, VOID, Position
from engines.essence.rules import Step, geometry_of, legal_steps, play


class Counter:
    """Positions played by the searches (a cap keeps a check's cost bounded)."""

    __slots__ = ("left",)

    def __init__(self, left: int) -> None:
        self.left = left


def can_eliminate(pos: Position, counter: Counter | None = None) -> bool:
    """True when the side to act in ``pos`` has a way through the rest of its turn that
    leaves the other side without motes. With a ``counter`` the search stops (answering
    False) once it has played ``counter.left`` positions."""
    return winning_step(pos, counter) is not None


def winning_step(pos: Position, counter: Counter | None = None) -> Step | None:
    """The first step of a way through the rest of the turn that eliminates the other side
    (None when there is none, or none found within the ``counter``'s positions)."""
    if pos.phase is END:
        return None
    return _search(pos, pos.side, pos.turn, set(), counter or Counter(1 << 62))


def _search(
    pos: Position, attacker: int, turn: int, seen: set[tuple[object, ...]], counter: Counter
) -> Step | None:
    if pos.turn != turn or not _within_reach(pos, attacker):
        return None
    last = pos.phase is SECOND
    group: tuple[int, ...] | None = None
    for step in legal_steps(pos):
        if last and step[0] not in (DESTAB, VOID):
            continue
        if pos.phase is not GROWTH:  # orientations after an action steer no capture of this turn
            if step[:4] == group:
                continue
            group = step[:4]
        if counter.left <= 0:
            return None
        counter.left -= 1
        nxt = play(pos, step)
        if nxt.phase is END:
            if nxt.side == attacker:
                return step
            continue
        key = nxt.key
        if key in seen:
            continue
        seen.add(key)
        if _search(nxt, attacker, turn, seen, counter) is not None:
            return step
    return None


def _within_reach(pos: Position, attacker: int) -> bool:
    """The necessary condition of the module docstring for the victim's motes in ``pos``."""
    size = pos.size
    victim_positive = attacker == 1
    victims = [sq for sq, code in enumerate(pos.cells) if code and (code > 0) == victim_positive]
    void_open = pos.used is not KIND_NAMES[VOID]
    destab_open = pos.used is not KIND_NAMES[DESTAB]
    if pos.phase is SECOND and not destab_open:
        return len(victims) == 1 and victims[0] in geometry_of(pos).neighbours[pos.void]
    if len(victims) > 9:
        return False
    if _in_a_box(victims, size):
        return True
    if not void_open:
        return False
    near_void = geometry_of(pos).neighbours[pos.void]
    return any(
        _in_a_box([sq for sq in victims if sq != taken], size)
        for taken in victims
        if taken in near_void
    )


def _in_a_box(squares: list[int], size: int) -> bool:
    """All ``squares`` fit into one 3x3 square (so they are neighbours of its centre)."""
    if not squares:
        return True
    files = [sq % size for sq in squares]
    ranks = [sq // size for sq in squares]
    return max(files) - min(files) <= 2 and max(ranks) - min(ranks) <= 2
