"""Computer players for Essence of the Arcane. Pure and deterministic given the seed.

``choose_step(state, level, rng_seed) -> Action`` returns the next step for the side to act:

- ``easy``: a uniformly random legal step.
- ``normal``: greedy, one step at a time: the step whose result scores best on the static
  evaluation, less a penalty when one enemy destabilize next turn could take two or more of
  its motes together (ties broken by the seed).
- ``hard``: first, a way to eliminate the opponent this turn if there is one. Otherwise it
  plans the whole rest of the turn (a beam of the best positions after growth and after the
  first action); every distinct end of turn is scored by :func:`hard_score` (the static
  evaluation, each enemy mote a little dearer, drawn toward a draw's 0 as the quiet or the
  turn limit nears), the best of them also by what it could destabilize next turn
  (:func:`_reach`). The best few ends after which the opponent has no way at all to
  eliminate it in its next turn (every growth, every first action, every capturing second
  action: ``engines.essence.safety``) are then checked against the opponent's replies
  (every growth, every first action, every capturing second action) and the plan with the
  best worst case is played; only when no safe end is found are unsafe ones considered. The
  :class:`Budget` is counted in positions, not seconds, so a choice reproduces anywhere.
- ``greedy`` (for the bench and tests, not offered to players): the first step of the whole
  turn that ends with the most material (:func:`material`); it never looks at the reply.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import compress

from engines.core.errors import BadInput, IllegalAction
from engines.essence.actions import Action
from engines.essence.board import (
    BESTIMMT,
    DESTAB,
    END,
    FACE_DIRECTIONS,
    GROWTH,
    MOVE,
    QUIET_LIMIT,
    SECOND,
    TURN_LIMIT,
    VOID,
    Position,
)
from engines.essence.resolve import step_actions
from engines.essence.rules import Step, geometry_of, legal_steps, play
from engines.essence.safety import Counter, can_eliminate, winning_step

LEVELS = ("easy", "normal", "hard", "greedy")
WIN = 1_000_000.0


@dataclass(frozen=True, slots=True)
class Budget:
    """How much the hard level looks at: ``beam`` positions kept per layer of its own turn,
    ``reply_candidates`` plans checked against every reply, ``reply_budget`` positions per
    check, ``safety_budget`` positions for all elimination checks of one step together (its
    own win and the safety of its plans), ``reach_plans`` best plans also scored by the
    threats they leave (:func:`_reach`). Counted in positions, so a choice is the same on
    every machine; together they keep a step far below 2 s of CPU (see bench_essence)."""

    beam: int = 30
    reply_candidates: int = 5
    reply_budget: int = 3000
    safety_budget: int = 40_000
    reach_plans: int = 40


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
    if level == "normal":
        step = _greedy_step(state, rng)
    elif level == "greedy":
        step = _material_turn_step(state, rng)
    else:
        step = _planned_step(state, rng, budget)
    return next(action for action, candidate in pairs if candidate == step)


def evaluate(pos: Position, player: int) -> float:
    """Static score of ``pos`` for ``player`` (higher is better): mote values, plus what the
    side to act threatens next (a mote beside the void, an enemy it can destabilize away)."""
    if pos.phase is END:
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


DRAW_HORIZON = 15
CONTEMPT = 20.0


def hard_score(pos: Position, player: int) -> float:
    """The hard level's score: :func:`evaluate`, drawn toward a draw's 0 as the draw by the
    quiet or the turn limit comes near (the last ``DRAW_HORIZON`` turns of either), so a side
    that is ahead wants a capture, and one that is behind is content to wait. Each enemy
    mote also costs ``CONTEMPT`` (a trade of equal motes is a gain: captures are what ends a
    game, and a side that only hoards material draws)."""
    score = evaluate(pos, player)
    if pos.phase is END:
        return score
    enemy_positive = player == 1
    score -= CONTEMPT * sum(1 for code in pos.cells if code and (code > 0) == enemy_positive)
    left = min(QUIET_LIMIT - pos.quiet, TURN_LIMIT + 1 - pos.turn)
    return score if left >= DRAW_HORIZON else score * left / DRAW_HORIZON


def material(pos: Position, player: int) -> float:
    """Mote values of ``player`` minus the opponent's (a won or lost game scores +-WIN, a draw
    0): what the greedy level maximizes, without any look at threats or replies."""
    if pos.phase is END:
        if pos.side < 0:
            return 0.0
        return WIN - pos.turn if pos.side == player else -WIN + pos.turn
    total = 0.0
    for code in pos.cells:
        if code > 0:
            total += _VALUES[code >> 1]
        elif code < 0:
            total -= _VALUES[-code >> 1]
    return total if player == 0 else -total


def _material_turn_step(state: Position, rng: random.Random) -> Step:
    """The greedy level: the first step of a whole turn that ends with the most material
    (every way through the turn is looked at; ties broken by the seed). It never looks at
    the opponent's reply."""
    player = state.side
    memo: dict[tuple[object, ...], float] = {}
    best: list[Step] = []
    best_value = -2 * WIN
    for step in legal_steps(state):
        value = _material_rest(play(state, step), state.turn, player, memo)
        if value > best_value:
            best_value, best = value, [step]
        elif value == best_value:
            best.append(step)
    return rng.choice(best)


def _material_rest(
    pos: Position, turn: int, player: int, memo: dict[tuple[object, ...], float]
) -> float:
    """The most material ``player`` can end the turn ``turn`` with from ``pos``."""
    if pos.phase is END or pos.turn != turn:
        return material(pos, player)
    key = pos.key
    known = memo.get(key)
    if known is not None:
        return known
    # Orientations after an action only steer later moves, and moves never change material
    # (except passing the void under Bestimmt), so one orientation of each action will do;
    # after growth they steer the moves of this very turn, so all are tried.
    exact = pos.phase is GROWTH or BESTIMMT in pos.variants
    last = pos.phase is SECOND and not exact
    best = -2 * WIN
    group: tuple[int, ...] | None = None
    move_value: float | None = None
    for step in legal_steps(pos):
        if not exact:
            if step[:4] == group:
                continue
            group = step[:4]
        if last and step[0] == MOVE:
            if move_value is None:  # every last move ends the turn with the same material
                move_value = _material_rest(play(pos, step), turn, player, memo)
            value = move_value
        else:
            value = _material_rest(play(pos, step), turn, player, memo)
        best = max(best, value)
    memo[key] = best
    return best


def _greedy_step(state: Position, rng: random.Random) -> Step:
    player = state.side
    steps = legal_steps(state)
    rng.shuffle(steps)

    def score(step: Step) -> float:
        after = play(state, step)
        if after.phase is END:
            return evaluate(after, player)
        return evaluate(after, player) - _cluster_penalty(after, player)

    return max(steps, key=score)


def _cluster_penalty(pos: Position, player: int) -> float:
    """What ``player`` risks by motes one enemy destabilize could take together: half their
    value when it could take two or more (a single mote the evaluation weighs already), and
    a lost game's worth when they are all of its motes."""
    taken, value, total = destab_exposure(pos, player)
    if taken < 2:
        return 0.0
    return WIN / 10 if taken == total else 0.5 * value


def destab_exposure(pos: Position, player: int) -> tuple[int, float, int]:
    """How many motes of ``player`` one enemy destabilize in the enemy's next turn could take
    together at most, their value, and how many motes ``player`` has. Where the source could
    take two or more, the most it takes is counted (the most value where counts tie). The
    source may grow by 1 and move first along the lines of its face before or after growth;
    the amount is then its strength."""
    cells = pos.cells
    geo = geometry_of(pos)
    mine_positive = player == 0
    own = [sq for sq in compress(range(len(cells)), cells) if (cells[sq] > 0) == mine_positive]
    best = (0, 0.0)
    for square in compress(range(len(cells)), cells):
        code = cells[square]
        if (code > 0) == mine_positive:
            continue
        strength = (code if code > 0 else -code) >> 1
        power = min(6, strength + 1)
        faces = (*FACE_DIRECTIONS[strength], *FACE_DIRECTIONS[power])
        directions = {direction for face in faces for direction in face}
        sources = [square]
        for direction in directions:
            for target in geo.rays[square][direction][:power]:
                if cells[target] or target == pos.void:
                    break
                sources.append(target)
        for source in sources:
            taken, value = 0, 0.0
            for other in geo.neighbours[source]:
                near = cells[other]
                if near and (near > 0) == mine_positive:
                    hit = (near if near > 0 else -near) >> 1
                    if hit <= power:
                        taken += 1
                        value += _VALUES[hit]
            best = max(best, (taken, value))
    return best[0], best[1], len(own)


def _planned_step(state: Position, rng: random.Random, budget: Budget) -> Step:
    player = state.side
    counter = Counter(budget.safety_budget)  # one budget for every elimination check
    win = winning_step(state, counter)
    if win is not None:
        return win
    ends = list(_turn_ends(state, rng, budget.beam).values())
    rng.shuffle(ends)
    scored = sorted(ends, key=lambda end: end[2], reverse=True)
    best_step, best_pos, _score = scored[0]
    if best_pos.phase is END:
        return best_step
    scored = _with_reach(scored, player, budget.reach_plans)
    candidates = _safe_plans(scored, player, budget, counter) or scored[: budget.reply_candidates]
    best_step = candidates[0][0]
    best_score = -2 * WIN
    for step, pos, _score in candidates:
        worst = _worst_reply(pos, player, best_score, budget.reply_budget)
        if worst > best_score:
            best_score, best_step = worst, step
    return best_step


REACH_WEIGHT = 0.5


def _reach(pos: Position, player: int) -> float:
    """A share of what one destabilize of ``player`` could take in its next turn (a mote
    that may grow and move first, :func:`destab_exposure` seen from the other side): the
    threats a plan leaves for the opponent to parry."""
    if pos.phase is END:
        return 0.0
    return REACH_WEIGHT * destab_exposure(pos, 1 - player)[1]


def _with_reach(scored: list[Plan], player: int, count: int) -> list[Plan]:
    """``scored`` with its best ``count`` plans rescored with :func:`_reach` and sorted again
    (the others follow unchanged). Only the choice of the plans to check uses it: what the
    opponent's reply leaves is scored without it, as the reply may parry the threat."""
    head = [(step, pos, score + _reach(pos, player)) for step, pos, score in scored[:count]]
    head.sort(key=lambda plan: plan[2], reverse=True)
    return head + scored[count:]


def _safe_plans(scored: list[Plan], player: int, budget: Budget, counter: Counter) -> list[Plan]:
    """The best-scoring plans (at most ``budget.reply_candidates``) after which the opponent
    has no way to eliminate us in its next turn, whatever it grows and plays (empty when none
    is found within the positions left on the ``counter``)."""
    safe: list[Plan] = []
    for plan in scored:
        pos = plan[1]
        if pos.phase is END:
            if pos.side != 1 - player:  # a draw, or (never here) our win
                safe.append(plan)
        elif counter.left <= 0:
            break
        # A search cut short by the budget answers nothing: that plan is not called safe.
        elif not can_eliminate(pos, counter) and counter.left > 0:
            safe.append(plan)
        if len(safe) == budget.reply_candidates:
            break
    return safe


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
                over = nxt.phase is END or nxt.turn != state.turn
                found = ends if over else following
                key = nxt.key
                if key in found:
                    continue
                if step[:4] != group:  # orientation variants score the same (see _worst_reply)
                    group = step[:4]
                    score = hard_score(nxt, player)
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
    falls to ``cutoff``; at most ``limit`` positions looked at).

    Every growth is tried, the one that scores worst for us first: another growth can give a
    mote the reach or the strength a capture needs. Only a void shift or a destabilize takes
    anything of ours, so after each first action (orientations apart) the turn is scored as
    it stands and after each second action that can capture; the other second actions only
    rearrange the opponent's side. First actions that capture come first, then those that end
    beside one of our motes; after any growth but the first, the quiet ones are left out."""

    def score(reply: Position) -> float:
        return hard_score(reply, player)

    starts = [pos]
    if pos.phase is GROWTH:
        starts = sorted((play(pos, s) for s in legal_steps(pos)), key=score)
    worst = 2 * WIN
    budget = [limit]
    seen: set[tuple[object, ...]] = set()  # turn ends already scored (A then B = B then A)
    for index, start in enumerate(starts):
        worst = min(worst, score(start))
        worst = _worst_actions(start, player, worst, cutoff, budget, seen, quiet=index == 0)
        if worst <= cutoff or budget[0] <= 0:
            break
    return worst


def _worst_actions(
    pos: Position,
    player: int,
    worst: float,
    cutoff: float,
    budget: list[int],
    seen: set[tuple[object, ...]],
    quiet: bool,
) -> float:
    """:func:`_worst_reply` after the growth (``quiet``: also the first actions that end far
    from our motes)."""
    for first in _reply_order(pos, player, quiet):
        middle = play(pos, first)
        budget[0] -= 1
        worst = min(worst, hard_score(middle, player))
        seconds = legal_steps(middle) if middle.phase is SECOND else []
        scored: tuple[int, ...] | None = None
        for second in seconds:
            # Steps apart only in orientations (listed together) end turns that score the
            # same: the evaluation reads strengths only.
            if second[0] not in (DESTAB, VOID) or second[:4] == scored:
                continue
            scored = second[:4]
            reply = play(middle, second)
            budget[0] -= 1
            key = reply.key
            if key not in seen:
                seen.add(key)
                worst = min(worst, hard_score(reply, player))
        if worst <= cutoff or budget[0] <= 0:
            break
    return worst


def _reply_order(pos: Position, player: int, quiet: bool = True) -> list[Step]:
    """The opponent's first actions (one per orientation group): captures first, then the
    ones whose mote ends beside a mote of ``player``, then (when ``quiet``) the rest."""
    cells = pos.cells
    geo = geometry_of(pos)
    mine_positive = player == 0
    near_mine = {
        other
        for square in compress(range(len(cells)), cells)
        if (cells[square] > 0) == mine_positive
        for other in geo.neighbours[square]
    }
    ranked: list[tuple[int, int, Step]] = []
    group: tuple[int, ...] | None = None
    for index, step in enumerate(legal_steps(pos)):
        if step[:4] == group:
            continue
        group = step[:4]
        kind = step[0]
        if kind in (DESTAB, VOID):
            rank = 0
        elif kind == MOVE:
            rank = 1 if geo.rays[step[1]][step[2]][step[3] - 1] in near_mine else 2
        else:  # split and heal reach the square in p2; summon only frees its square
            rank = 1 if step[2] in near_mine or step[1] in near_mine else 2
        if quiet or rank < 2:
            ranked.append((rank, index, step))
    ranked.sort()
    return [step for _rank, _index, step in ranked]
