"""Computer players for Essence of the Arcane. Pure and deterministic given the seed.

``choose_step(state, level, rng_seed) -> Action`` returns the next step for the side to act:

- ``easy``: a uniformly random legal step.
- ``normal``: greedy, one step at a time: the step whose result scores best on the static
  evaluation (ties broken by the seed).
- ``hard``: plans the whole rest of the turn (a beam of the best positions after growth and
  after the first action). Every distinct end of turn is scored by the static evaluation; the
  best few are then checked against the opponent's replies (their best growth, then every
  first and second action) and the plan with the best worst case is played. The
  :class:`Budget` is counted in positions, not seconds, so a choice reproduces anywhere.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import compress

from engines.core.errors import BadInput, IllegalAction
from engines.essence.actions import Action
from engines.essence.board import Position
from engines.essence.resolve import step_actions
from engines.essence.rules import Step, geometry_of, legal_steps, play

LEVELS = ("easy", "normal", "hard")
WIN = 1_000_000.0


@dataclass(frozen=True, slots=True)
class Budget:
    """How much the hard level looks at: ``beam`` positions kept per layer of its own turn,
    ``reply_candidates`` plans checked against every reply, ``reply_budget`` positions per
    check. Counted in positions, so a choice is the same on every machine."""

    beam: int = 30
    reply_candidates: int = 5
    reply_budget: int = 3000


HARD = Budget()
MOTE_VALUE = 30.0
STRENGTH_VALUE = 10.0
_VALUES = tuple(MOTE_VALUE + STRENGTH_VALUE * strength for strength in range(7))


def choose_step(
    state: Position, level: str, rng_seed: int | random.Random, budget: Budget = HARD
) -> Action:
    """The step ``level`` plays now (``budget`` only matters for ``hard``); ties are broken
    by ``rng_seed`` (a seed, or a generator used as it is). Raises BadInput for an unknown
    level and IllegalAction when the game is over."""
    if level not in LEVELS:
        raise BadInput("essence.error.bad_level", level=level)
    pairs = step_actions(state)
    if not pairs:
        raise IllegalAction("essence.error.game_over")
    rng = rng_seed if isinstance(rng_seed, random.Random) else random.Random(rng_seed)
    if level == "easy":
        return rng.choice(pairs)[0]
    step = _greedy_step(state, rng) if level == "normal" else _planned_step(state, rng, budget)
    return next(action for action, candidate in pairs if candidate == step)


def evaluate(pos: Position, player: int) -> float:
    """Static score of ``pos`` for ``player`` (higher is better): mote values, plus what the
    side to act threatens next (a mote beside the void, an enemy it can destabilize away)."""
    if pos.phase == "end":
        if pos.side < 0:
            return 0.0
        return WIN - pos.turn if pos.side == player else -WIN + pos.turn
    cells = pos.cells
    neighbours = geometry_of(pos).neighbours
    mover_positive = pos.side == 0
    # The side to act threatens the best enemy mote it can shift the void onto (value) or
    # destabilize away (half the value: a neighbour of at least its strength - 1); its own
    # best mote beside the void (0.3) or beside a stronger enemy (0.2) is under threat.
    # Each threat is the largest candidate; motes that cannot beat it are not looked at.
    threat_by_mover = 0.0
    threat_on_mover = 0.0
    for square in neighbours[pos.void]:
        code = cells[square]
        if code and (code > 0) != mover_positive:
            threat_by_mover = max(threat_by_mover, _VALUES[abs(code) >> 1])
        elif code:
            threat_on_mover = max(threat_on_mover, 0.3 * _VALUES[abs(code) >> 1])
    material = 0.0
    for square in compress(range(len(cells)), cells):
        code = cells[square]
        positive = code > 0
        strength = (code if positive else -code) >> 1
        value = _VALUES[strength]
        material += value if positive else -value
        if positive != mover_positive:
            if 0.5 * value <= threat_by_mover:
                continue
            for other in neighbours[square]:
                near = cells[other]
                if near and (near > 0) == mover_positive and (abs(near) >> 1) + 1 >= strength:
                    threat_by_mover = 0.5 * value
                    break
        elif 0.2 * value > threat_on_mover:
            for other in neighbours[square]:
                near = cells[other]
                if near and (near > 0) != mover_positive and abs(near) >> 1 >= strength:
                    threat_on_mover = 0.2 * value
                    break
    swing = threat_by_mover - threat_on_mover
    score = material if player == 0 else -material
    return score + swing if pos.side == player else score - swing


def _greedy_step(state: Position, rng: random.Random) -> Step:
    steps = legal_steps(state)
    rng.shuffle(steps)
    return max(steps, key=lambda step: evaluate(play(state, step), state.side))


def _planned_step(state: Position, rng: random.Random, budget: Budget) -> Step:
    player = state.side
    ends = list(_turn_ends(state, rng, budget.beam).values())
    rng.shuffle(ends)
    scored = sorted(ends, key=lambda end: end[2], reverse=True)
    best_step, best_pos, _score = scored[0]
    if best_pos.phase == "end":
        return best_step
    best_score = -2 * WIN
    for step, pos, _score in scored[: budget.reply_candidates]:
        worst = _worst_reply(pos, player, best_score, budget.reply_budget)
        if worst > best_score:
            best_score, best_step = worst, step
    return best_step


Plan = tuple[Step, Position, float]  # the turn's first step, where it leads, its score


def _turn_ends(state: Position, rng: random.Random, beam: int) -> dict[tuple[object, ...], Plan]:
    """Distinct positions where the current turn is over, with the first step to each and
    their scores. Each layer (after growth, after the first action) keeps only its ``beam``
    best positions."""
    player = state.side
    ends: dict[tuple[object, ...], Plan] = {}
    layer: list[tuple[Step | None, Position]] = [(None, state)]
    while layer:
        following: dict[tuple[object, ...], Plan] = {}
        for first, pos in layer:
            group: tuple[int, ...] | None = None
            score = 0.0
            for step in legal_steps(pos):
                nxt = play(pos, step)
                over = nxt.phase == "end" or nxt.turn != state.turn
                found = ends if over else following
                key = nxt.key
                if key in found:
                    continue
                if step[:4] != group:  # orientation variants score the same (see _worst_reply)
                    group = step[:4]
                    score = evaluate(nxt, player)
                found[key] = (first or step, nxt, score)
        kept = list(following.values())
        if len(kept) > beam:
            rng.shuffle(kept)
            kept.sort(key=lambda plan: plan[2], reverse=True)
            kept = kept[:beam]
        layer = [(origin, pos) for origin, pos, _score in kept]
    return ends


def _worst_reply(pos: Position, player: int, cutoff: float, limit: int) -> float:
    """The lowest score the opponent's next turn can leave ``player`` with (pruned once it
    falls to ``cutoff``; at most ``limit`` positions looked at)."""

    def score(reply: Position) -> float:
        return evaluate(reply, player)

    if pos.phase == "g":
        pos = min((play(pos, s) for s in legal_steps(pos)), key=score)
    worst = 2 * WIN
    budget = limit
    seen: set[tuple[object, ...]] = set()  # turn ends already scored (A then B = B then A)
    for first in legal_steps(pos):
        middle = play(pos, first)
        budget -= 1
        seconds = legal_steps(middle) if middle.phase == "a2" else []
        scored: tuple[int, ...] | None = None
        for second in seconds:
            # Steps apart only in orientations (listed together) end turns that score the
            # same: the evaluation reads strengths only. Each still counts against the budget.
            if second[:4] == scored:
                continue
            scored = second[:4]
            reply = play(middle, second)
            key = reply.key
            if key not in seen:
                seen.add(key)
                worst = min(worst, score(reply))
        budget -= len(seconds)
        if not seconds:
            worst = min(worst, score(middle))
        if worst <= cutoff or budget <= 0:
            break
    return worst
