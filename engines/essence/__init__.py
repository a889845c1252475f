"""Essence of the Arcane (rules as played: ``data/essence/RULES.md``).

Engine ``ENGINE`` (name ``"essence"``, 2 players, seat 0 = player 1 = A at rank 1, seat 1 =
player 2 = B). Config: ``{"variants": [...], "quick": bool}`` with variants ``bestimmt``,
``schleife``, ``beschwoerung``. The state is a :class:`~engines.essence.board.Position`;
``ENGINE.parse_position(text)`` / ``ENGINE.position_text(state)`` read and write the position
notation (``/essenz position``); ``engines.essence.ai.choose_step(state, level, seed)`` plays.

**Steps.** One ``apply`` is one step: a growth (phase ``g``) or one action (``a1``, ``a2``).
Action notation (``engines.essence.actions``): ``grow d1``, ``move a1 c3`` / ``a1-c3``,
``split d1 e2``, ``heal d1 e1 2``, ``void d5``, ``destab d1 1``, ``summon g1``; ``/1`` after a
square turns that mote to orientation 1 after the step; ``move a1 g1 w`` picks the way round
under Schleife. Errors: ``BadInput("essence.error.bad_notation")`` for unreadable text,
``IllegalAction("essence.error.<why>")`` for illegal steps (keys in ``data/i18n/essence.json``).

**View** (``view_for``, the same for everyone; all squares as names like ``"d4"``)::

    size 5|7, files "abcdefg"[:size], void "d4", last [squares of the last step],
    cells [{square, file, rank (0-based), owner 0|1, strength 1-6,
            orientation 0|1 (None for faces without one), directions ["n","ne",...]}],
    side (seat to act, None when over), phase "g"|"a1"|"a2"|"end", used (first action's
    type or None), available [action types with a legal step now], turn, round,
    variants [...], quick, winner (seat or None), draw, quiet, quiet_limit, turn_limit,
    position (the notation)

**Events** (``type``: data; ``player`` is the acting seat unless noted)::

    grown: square, strength, orientation
    moved: source, target, through_void, strength, orientation
    split: source, target, source_strength, orientation, source_orientation
    healed: source, target, amount, source_strength, target_strength
    void_shifted: source, target
    destroyed: square, strength, player = the owner (the void took it)
    destabilized: source, amount, hit [squares]
    removed: square, strength (0 or less), player = the owner (brought to 0)
    summoned: square, void_from
    turn_started: player (the new side), turn, growth (False when skipped)
    game_won: player (the winner), reason "eliminated"
    game_drawn: reason "quiet_limit" | "turn_limit"
"""

from engines.core.contract import register
from engines.essence.engine import ENGINE, EssenceEngine

register(ENGINE)

__all__ = ["ENGINE", "EssenceEngine"]
