"""Step generation and execution on :class:`Position` values (the fast core).

A step is a plain tuple ``(kind, p1, p2, p3, o1, o2)`` of ints:

- grow ``(GROW, square, 0, 0, orient, 0)``
- move ``(MOVE, source, direction, distance, orient, 0)``
- split ``(SPLIT, source, target, 0, source_orient, new_orient)``
- heal ``(HEAL, source, target, amount, source_orient, target_orient)``
- void ``(VOID, target, 0, 0, 0, 0)``
- destab ``(DESTAB, source, amount, 0, source_orient, 0)``
- summon ``(SUMMON, source, 0, 0, 0, 0)``

Orientations are 0 unless the mote survives with a face that has one (2, 3 or 6).
``legal_steps`` lists every legal step; ``play`` executes one (it trusts the step to be legal)
and returns the next position, appending ``(event type, data)`` pairs when asked to.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engines.essence import events as ev
from engines.essence.board import (
    BESCHWOERUNG,
    BESTIMMT,
    DESTAB,
    END,
    FACE_DIRECTIONS,
    FIRST,
    GROW,
    GROWTH,
    HEAL,
    KIND_NAMES,
    MOVE,
    ORIENT_OPTIONS,
    ORIENTABLE,
    QUIET_LIMIT,
    SCHLEIFE,
    SECOND,
    SPLIT,
    SUMMON,
    TURN_LIMIT,
    VOID,
    Geometry,
    Kind,
    Position,
    geometry,
    owner_of,
    square_names,
)
from engines.essence.events import EventType

Step = tuple[int, int, int, int, int, int]
# Codes of motes below strength 6, per owner (for "skip growth when all own motes are 6").
_GROWABLE = (frozenset(range(2, 12)), frozenset(range(-11, -1)))
EventList = list[tuple[EventType, dict[str, Any]]]


def geometry_of(pos: Position) -> Geometry:
    return geometry(pos.size, SCHLEIFE in pos.variants)


def _code(sign: int, strength: int, orient: int) -> int:
    return sign * (strength * 2 + (orient if ORIENTABLE[strength] else 0))


def _options(strength: int) -> tuple[int, ...]:
    return ORIENT_OPTIONS[strength] if strength >= 1 else (0,)


def legal_steps(pos: Position) -> list[Step]:
    """Every legal step of the side to act (empty once the game is over)."""
    if pos.phase is END:
        return []
    if pos.phase is GROWTH:
        return list(_growth_steps(pos))
    steps: list[Step] = []
    for kind in _open_kinds(pos):
        steps.extend(_KIND_GENERATORS[kind](pos, geometry_of(pos)))
    return steps


def _open_kinds(pos: Position) -> list[int]:
    kinds = [MOVE, SPLIT, HEAL, VOID, DESTAB]
    if BESCHWOERUNG in pos.variants:
        kinds.append(SUMMON)
    return [k for k in kinds if KIND_NAMES[k] is not pos.used]


def open_kinds_available(pos: Position) -> list[str]:
    """Names of the action types that have at least one legal step now."""
    if pos.phase is GROWTH or pos.phase is END:
        return []
    geo = geometry_of(pos)
    return [
        KIND_NAMES[k]
        for k in _open_kinds(pos)
        if next(iter(_KIND_GENERATORS[k](pos, geo)), None) is not None
    ]


def _own(pos: Position) -> Iterator[tuple[int, int]]:
    """(square, |code|) of every mote of the side to act."""
    want_positive = pos.side == 0
    for square, code in enumerate(pos.cells):
        if code and (code > 0) == want_positive:
            yield square, code if code > 0 else -code


def _growth_steps(pos: Position) -> Iterator[Step]:
    for square, code in _own(pos):
        strength = code >> 1
        if strength < 6:
            for orient in ORIENT_OPTIONS[strength + 1]:
                yield (GROW, square, 0, 0, orient, 0)


def _move_steps(pos: Position, geo: Geometry) -> Iterator[Step]:
    cells, void = pos.cells, pos.void
    passable = BESTIMMT in pos.variants
    for square, code in _own(pos):
        strength = code >> 1
        rays = geo.rays[square]
        for direction in FACE_DIRECTIONS[strength][code & 1]:
            passed = 0
            for distance, target in enumerate(rays[direction][:strength], 1):
                if target == void:
                    if not passable:
                        break
                    passed = 1
                    continue
                if cells[target]:
                    break
                for orient in _options(strength - passed):
                    yield (MOVE, square, direction, distance, orient, 0)


def _split_steps(pos: Position, geo: Geometry) -> Iterator[Step]:
    cells, void = pos.cells, pos.void
    for square, code in _own(pos):
        strength = code >> 1
        if strength < 2:
            continue
        for target in geo.neighbours[square]:
            if cells[target] == 0 and target != void:
                for source_orient in _options(strength - 2):
                    for new_orient in (0, 1):
                        yield (SPLIT, square, target, 0, source_orient, new_orient)


def _heal_steps(pos: Position, geo: Geometry) -> Iterator[Step]:
    cells = pos.cells
    sign = 1 if pos.side == 0 else -1
    for square, code in _own(pos):
        strength = code >> 1
        for target in geo.neighbours[square]:
            other = cells[target] * sign
            if other <= 0:
                continue
            for amount in range(1, strength + 1):
                healed = min(6, (other >> 1) + amount + 1)
                for source_orient in _options(strength - amount):
                    for target_orient in _options(healed):
                        yield (HEAL, square, target, amount, source_orient, target_orient)


def _void_steps(pos: Position, geo: Geometry) -> Iterator[Step]:
    for target in geo.neighbours[pos.void]:
        yield (VOID, target, 0, 0, 0, 0)


def _destab_steps(pos: Position, geo: Geometry) -> Iterator[Step]:
    cells = pos.cells
    sign = 1 if pos.side == 0 else -1
    own = list(_own(pos))
    for square, code in own:
        strength = code >> 1
        near = geo.neighbours[square]
        for amount in range(1, strength + 1):
            if not _keeps_a_mote(own, square, near, amount, cells, sign):
                continue  # rulebook line 192: the last mote may not be sacrificed
            for orient in _options(strength - amount):
                yield (DESTAB, square, amount, 0, orient, 0)


def _keeps_a_mote(
    own: list[tuple[int, int]],
    source: int,
    near: tuple[int, ...],
    amount: int,
    cells: tuple[int, ...],
    sign: int,
) -> bool:
    for square, code in own:
        hit = square == source or (square in near and cells[square] * sign > 0)
        if not hit or (code >> 1) > amount:
            return True
    return False


def _summon_steps(pos: Position, geo: Geometry) -> Iterator[Step]:
    for square, code in _own(pos):
        if code >> 1 == 6:
            yield (SUMMON, square, 0, 0, 0, 0)


_KIND_GENERATORS = {
    MOVE: _move_steps,
    SPLIT: _split_steps,
    HEAL: _heal_steps,
    VOID: _void_steps,
    DESTAB: _destab_steps,
    SUMMON: _summon_steps,
}


class _Board:
    """Mutable scratch copy of the cells while one step executes."""

    def __init__(self, pos: Position, events: EventList | None) -> None:
        self.cells = list(pos.cells)
        self.names = square_names(pos.size)
        self.events = events
        self.actor = pos.side
        self.captured = False
        self.removed = False

    def name(self, square: int) -> str:
        return self.names[square]

    def emit(self, kind: EventType, **data: Any) -> None:
        if self.events is not None:
            self.events.append((kind, data))

    def strength(self, square: int) -> int:
        code = self.cells[square]
        return (code if code > 0 else -code) >> 1

    def set_touched(self, square: int, strength: int, orient: int) -> None:
        """Set a mote the owner touched: strength and the chosen orientation."""
        sign = 1 if self.cells[square] > 0 else -1
        self.cells[square] = _code(sign, strength, orient) if strength > 0 else sign

    def hit(self, square: int, amount: int) -> None:
        """Lower an untouched mote; it keeps its orientation only if both faces have one."""
        code = self.cells[square]
        sign = 1 if code > 0 else -1
        old = (code * sign) >> 1
        new = old - amount
        keep = (code * sign) & 1 if ORIENTABLE[old] and new > 0 and ORIENTABLE[new] else 0
        self.cells[square] = _code(sign, new, keep) if new > 0 else sign

    def remove(self, square: int, reason: EventType) -> None:
        code = self.cells[square]
        owner = owner_of(code)
        if self.events is not None:
            self.emit(
                reason, square=self.name(square), player=owner, strength=self.strength(square)
            )
        self.cells[square] = 0
        self.removed = True
        if owner != self.actor:
            self.captured = True

    def sweep(self, squares: list[int]) -> None:
        """Remove the motes brought to 0 or less (they finish their action first; FAQ l.167)."""
        for square in squares:
            code = self.cells[square]
            if code in (1, -1):  # strength 0 is stored as ±1 until swept
                self.remove(square, ev.REMOVED)


def play(pos: Position, step: Step, events: EventList | None = None) -> Position:
    """The position after ``step`` (assumed legal), turn bookkeeping included."""
    board = _Board(pos, events)
    kind, p1, p2, p3, o1, o2 = step
    void = pos.void
    last: tuple[int, ...]
    if kind == GROW:
        grown = board.strength(p1) + 1
        board.set_touched(p1, grown, o1)
        board.emit(ev.GROWN, square=board.name(p1), strength=grown, orientation=o1)
        last = (p1,)
    elif kind == MOVE:
        last = _play_move(pos, board, p1, p2, p3, o1)
    elif kind == SPLIT:
        remaining = board.strength(p1) - 2
        board.set_touched(p1, remaining, o1)
        board.cells[p2] = _code(1 if pos.side == 0 else -1, 2, o2)
        board.emit(
            ev.SPLIT,
            source=board.name(p1),
            target=board.name(p2),
            source_strength=remaining,
            orientation=o2,
            source_orientation=o1,
        )
        board.sweep([p1])
        last = (p1, p2)
    elif kind == HEAL:
        remaining = board.strength(p1) - p3
        healed = min(6, board.strength(p2) + p3 + 1)
        board.set_touched(p1, remaining, o1)
        board.set_touched(p2, healed, o2)
        board.emit(
            ev.HEALED,
            source=board.name(p1),
            target=board.name(p2),
            amount=p3,
            source_strength=remaining,
            target_strength=healed,
        )
        board.sweep([p1])
        last = (p1, p2)
    elif kind == VOID:
        board.emit(ev.VOID_SHIFTED, source=board.name(void), target=board.name(p1))
        if board.cells[p1]:
            board.remove(p1, ev.DESTROYED)
        void = p1
        last = (pos.void, p1)
    elif kind == DESTAB:
        last = _play_destab(pos, board, p1, p2, o1)
    else:
        board.emit(ev.SUMMONED, square=board.name(p1), player=pos.side, void_from=board.name(void))
        board.cells[p1] = 0
        board.removed = True
        void = p1
        last = (pos.void, p1)
    return _advance(pos, board, void, KIND_NAMES[kind], last)


def _play_move(
    pos: Position, board: _Board, source: int, direction: int, distance: int, orient: int
) -> tuple[int, ...]:
    path = geometry_of(pos).rays[source][direction][:distance]
    target = path[-1]
    passed = 1 if pos.void in path else 0  # only legal under Bestimmt
    strength = board.strength(source) - passed
    board.cells[target] = board.cells[source]
    board.cells[source] = 0
    board.set_touched(target, strength, orient)
    board.emit(
        ev.MOVED,
        source=board.name(source),
        target=board.name(target),
        through_void=bool(passed),
        strength=strength,
        orientation=orient,
    )
    board.sweep([target])
    return (source, target)


def _play_destab(
    pos: Position, board: _Board, source: int, amount: int, orient: int
) -> tuple[int, ...]:
    near = [sq for sq in geometry_of(pos).neighbours[source] if board.cells[sq]]
    board.set_touched(source, board.strength(source) - amount, orient)
    for square in near:
        board.hit(square, amount)
    board.emit(
        ev.DESTABILIZED,
        source=board.name(source),
        amount=amount,
        hit=[board.name(sq) for sq in near],
    )
    board.sweep([source, *near])
    return (source, *near)


def _advance(
    pos: Position, board: _Board, void: int, kind: Kind, last: tuple[int, ...]
) -> Position:
    cells = tuple(board.cells)
    quiet = 0 if board.captured else pos.quiet
    has_a = not board.removed or max(cells) > 0
    has_b = not board.removed or min(cells) < 0
    if not (has_a and has_b):
        winner = 0 if has_a else 1
        board.emit(ev.GAME_WON, player=winner, reason="eliminated")
        return Position(
            pos.size, cells, void, winner, END, None, pos.turn, pos.variants, quiet, last
        )
    if pos.phase == GROWTH:
        return Position(
            pos.size, cells, void, pos.side, FIRST, None, pos.turn, pos.variants, quiet, last
        )
    if pos.phase == FIRST:
        second = Position(
            pos.size, cells, void, pos.side, SECOND, kind, pos.turn, pos.variants, quiet, last
        )
        if kind is not KIND_NAMES[VOID] or open_kinds_available(second):
            return second  # a void shift is always possible when the first action was not one
    return _next_turn(pos, board, cells, void, quiet + 1, last)


def _next_turn(
    pos: Position,
    board: _Board,
    cells: tuple[int, ...],
    void: int,
    quiet: int,
    last: tuple[int, ...],
) -> Position:
    if quiet >= QUIET_LIMIT or pos.turn >= TURN_LIMIT:
        reason = "quiet_limit" if quiet >= QUIET_LIMIT else "turn_limit"
        board.emit(ev.GAME_DRAWN, reason=reason)
        return Position(pos.size, cells, void, -1, END, None, pos.turn, pos.variants, quiet, last)
    turn = pos.turn + 1
    side = 1 - pos.side
    can_grow = turn > 2 and not _GROWABLE[side].isdisjoint(cells)
    phase = GROWTH if can_grow else FIRST
    board.emit(ev.TURN_STARTED, player=side, turn=turn, growth=can_grow)
    return Position(pos.size, cells, void, side, phase, None, turn, pos.variants, quiet, last)


def successors(pos: Position) -> list[Position]:
    """Every distinct position one step away, in no particular order."""
    seen: dict[tuple[object, ...], Position] = {}
    for step in legal_steps(pos):
        nxt = play(pos, step)
        seen.setdefault(nxt.key, nxt)
    return list(seen.values())


def perft(pos: Position, depth: int) -> int:
    """Number of paths of ``depth`` steps through distinct successors."""
    if depth == 0:
        return 1
    children = successors(pos)
    if depth == 1:
        return len(children)
    return sum(perft(child, depth - 1) for child in children)
