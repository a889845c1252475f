"""The Telperinquár engine on the house contract.

The state is a frozen value (``state.TqState``): players with hero, levels, life, action
pool, hand, draw pile, discard pile, equipment, cards in play and the Wesen row; card
instances by id; the turn (order, phase, round); the stack of declared actions waiting for
answers; the RNG. Actions are words (``play c12345``, ``use c12345 h1``, ``pass``). Every
decision is one seat at a time: the mover's TURN, or one REACTION of a seat that could
answer the top of the stack (seats that cannot are skipped without a question). Readings:
data/telperinquar/RULES.md.

The modules by section, each importing only those before it: ``state`` (the values, the
stored schema), ``actions``, ``events``; ``stats`` (values of heroes, Wesen and cards);
``damage``; ``flow`` (the turn's phases); ``offers`` (what a seat may do); ``resolve`` (the
stack); ``moves`` (the mover's own steps); ``setup``; ``view``; ``ai``; and this one, the
contract and the routing of an action to its section.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engines.core import BadInput, Event, IllegalAction, Outcome, register
from engines.core.contract import Decision, DecisionKind, JsonDict, PlayerId
from engines.telperinquar import moves
from engines.telperinquar.actions import (
    Act,
    Arm,
    Dual,
    End,
    Fly,
    Go,
    Hide,
    LevelUp,
    Move,
    Next,
    Play,
    Swap,
    Take,
    Use,
    act,
    parse,
)
from engines.telperinquar.ai import choose
from engines.telperinquar.flow import end_turn, knock_out, level_cards, sides_left, supply
from engines.telperinquar.offers import legal, targets
from engines.telperinquar.resolve import answer, declare, settle
from engines.telperinquar.setup import new_game
from engines.telperinquar.state import (
    SCHEMA,
    Phase,
    TqState,
    Work,
    dump,
    freeze,
    load,
    thaw,
)
from engines.telperinquar.stats import (
    armour,
    attribute,
    catalogue_for,
    hero_level,
    max_life,
    mods,
    mover,
    resistance,
    side,
    user_cards,
    wesen_stat,
)
from engines.telperinquar.view import view

__all__ = [
    "ENGINE",
    "Act",
    "Telperinquar",
    "TqState",
    "armour",
    "attribute",
    "catalogue_for",
    "hero_level",
    "max_life",
    "mods",
    "resistance",
    "targets",
    "user_cards",
    "wesen_stat",
]


def _same_level(d: TqState, action: Act, player: int) -> bool:
    """``level <id>`` with any of the identical level cards offered as one choice."""
    if action.words[0] != "level" or len(action.words) != 2 or d.phase != Phase.ENTRY:
        return False
    if d.over or d.ask is not None or player != mover(d):
        return False
    return action.words[1] in level_cards(d, player)


def _next(w: Work, seat: int, action: Next, events: list[Event]) -> None:
    if len(w.players[seat].row) >= 2:
        w.phase = Phase.POSITION  # the Positionierungsphase: the row may be reordered
    else:
        end_turn(w, events)


def _declare(w: Work, seat: int, action: Use | Dual, events: list[Event]) -> None:
    declare(w, seat, action.verb.value, list(action.args), events)


Route = Callable[[Work, int, Any, list[Event]], None]
ROUTES: dict[type[Act], Route] = {
    Go: lambda w, seat, a, events: supply(w, events),
    LevelUp: lambda w, seat, a, events: moves.level(w, seat, a.card, events),
    Next: _next,
    End: lambda w, seat, a, events: end_turn(w, events),
    Swap: lambda w, seat, a, events: moves.swap(w, seat, int(a.first), int(a.second)),
    Play: lambda w, seat, a, events: moves.play(w, seat, a.card, False, events),
    Hide: lambda w, seat, a, events: moves.play(w, seat, a.card, True, events),
    Arm: lambda w, seat, a, events: moves.attach(w, seat, "arm", a.card, a.bearer, events),
    Move: lambda w, seat, a, events: moves.attach(w, seat, "move", a.card, a.bearer, events),
    Fly: lambda w, seat, a, events: moves.fly(w, seat, int(a.first), int(a.second), events),
    Take: lambda w, seat, a, events: moves.take(w, seat, a.card, events),
    Use: _declare,
    Dual: _declare,
}
"""Where each of the mover's actions goes (an answer to the stack goes to ``resolve.answer``)."""


class Telperinquar:
    name = "telperinquar"
    version = SCHEMA
    min_players = 2
    max_players = 4
    bot_levels = ("random", "normal", "hard")

    def initial_state(self, config: Mapping[str, Any], seed: int, players: int) -> TqState:
        if players not in (2, 4):
            raise BadInput("error.player_count", min=2, max=4)
        return freeze(new_game(config, seed, players))

    # ---------------------------------------------------------- decisions

    def decisions(self, state: TqState) -> tuple[Decision, ...]:
        d = state
        if d.over:
            return ()
        if d.ask is not None:
            return (
                Decision(
                    d.ask,
                    f"r{d.seq}",
                    DecisionKind.REACTION,
                    "tq.prompt.react",
                    {"action": d.stack[-1].text},
                ),
            )
        return (Decision(mover(d), f"t{d.seq}", DecisionKind.TURN, f"tq.prompt.{d.phase}"),)

    def timeout_action(self, state: TqState, decision: Decision) -> Act | None:
        """A reaction left unanswered past the reaction limit passes (RULES.md, "Reactions
        nobody answers")."""
        return act("pass") if decision.kind == DecisionKind.REACTION else None

    def legal_actions(self, state: TqState, player: PlayerId) -> Sequence[Act]:
        return legal(state, player)

    # ---------------------------------------------------------- apply

    def apply(self, state: TqState, action: Act, player: PlayerId) -> tuple[TqState, list[Event]]:
        if action not in legal(state, player) and not _same_level(state, action, player):
            if state.over:
                raise IllegalAction("error.game_over")
            raise IllegalAction("tq.error.not_allowed", action=str(action))
        w = thaw(state)
        w.seq += 1
        events: list[Event] = []
        if w.ask is not None:
            answer(w, player, action.verb.value, list(action.args), events)
        else:
            ROUTES[type(action)](w, player, action, events)
        settle(w, events)
        return freeze(w), events

    # ---------------------------------------------------------- the rest of the contract

    def eliminate(self, state: TqState, player: PlayerId) -> tuple[TqState, list[Event]]:
        if state.over or state.players[player].out:
            raise IllegalAction("error.game_over")
        w = thaw(state)
        events: list[Event] = []
        knock_out(w, player, events)
        w.seq += 1
        if sides_left(w) <= 1:
            w.over = True
            w.ask = None
            return freeze(w), events
        if w.ask == player:
            w.stack[-1] = replace(w.stack[-1], asked=(*w.stack[-1].asked, player))
            w.ask = None
        w.stack = [e for e in w.stack if e.seat != player]
        if mover(w) == player:
            w.stack, w.ask = [], None
            end_turn(w, events)
        settle(w, events)
        return freeze(w), events

    def view_for(self, state: TqState, player: PlayerId | None) -> JsonDict:
        return view(state, player)

    def outcome(self, state: TqState) -> Outcome | None:
        d = state
        if not d.over:
            return None
        seats = range(len(d.players))
        alive = {side(d, s) for s in seats if not d.players[s].out}
        fallen = tuple(s for s in seats if d.players[s].out)
        if len(alive) == 1 and not d.limit_hit:
            (won,) = alive
            winners = frozenset(s for s in seats if side(d, s) == won)
            rest = frozenset(seats) - winners
            return Outcome(winners, "hero_fell", (winners, rest), fallen)
        if not alive:  # every hero fell in the same turn
            return Outcome(frozenset(), "both_fell", (), fallen)
        return Outcome(frozenset(), d.limit_hit or "turn_limit", (), fallen)

    def secrets_of(self, state: TqState, player: PlayerId) -> set[str]:
        p = state.players[player]
        return set(p.hand) | set(p.deck)

    def action_visible_to(
        self, state: TqState, action: Act, player: PlayerId
    ) -> frozenset[PlayerId] | None:
        return None  # card ids are random; a hidden card's name is never in an action

    def parse_action(self, text: str) -> Act:
        return parse(text)

    def action_text(self, action: Act) -> str:
        return str(action)

    def action_path(self, action: Act) -> tuple[str, ...]:
        return action.words

    def state_to_json(self, state: TqState) -> JsonDict:
        return dump(state)

    def state_from_json(self, data: JsonDict) -> TqState:
        return load(data)

    def choose_action(
        self, state: TqState, player: PlayerId, level: str, budget_s: float, rng: random.Random
    ) -> Act:
        chosen: Act = choose(self, state, player, level, rng)
        return chosen


ENGINE = Telperinquar()
register(ENGINE)
