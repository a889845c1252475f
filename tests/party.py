"""A small N-player test engine ("Schatzkammer", 2-4 seats) that exercises the whole contract
before the real games do: teams, a reaction window and a hidden hand.

Each seat is dealt ``hand`` cards (tokens like ``k48213``; a card is worth its last digit + 1).
On its TURN the seat to move plays a card face up (``play k48213``). Then every other seat
still in the game has a REACTION decision, answered in any order: lay a card face down to its
own treasure (``add k11112``, secret: only that seat may read it in the log) or ``pass``. When
all have answered, the next seat with cards moves. The game ends when nobody has a card to
play; the team with the most points (face-up and face-down cards) wins, a tie at the top is a
draw. A reaction not answered within the reaction limit passes (``timeout_action``).
Config: ``teams`` (one team per seat), ``hand`` (1-6), ``seat_choices`` (a colour per
seat: ``red``, ``blue``, ``green``, ``gold`` or None, chosen when accepting the invitation),
``seats`` (a table for exactly that many: another count is refused, as a scenario's parties).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engines.core import BadInput, Event, IllegalAction, Outcome, Rng, register
from engines.core.contract import Decision, DecisionKind, JsonDict, PlayerId

COLOURS = ("red", "blue", "green", "gold")
_CONFIG = {"teams", "hand", "seat_choices", "seats"}


@dataclass(frozen=True, slots=True)
class Act:
    verb: str  # "play", "add", "pass"
    card: str = ""


@dataclass(frozen=True, slots=True)
class PartyState:
    teams: tuple[int, ...]
    colours: tuple[str | None, ...]
    hands: tuple[tuple[str, ...], ...]
    hidden: tuple[tuple[str, ...], ...]  # face-down treasure per seat
    table: tuple[tuple[int, str], ...]  # (seat, card) face up
    mover: int  # -1 once the game is over
    turn: int
    window: tuple[int, ...]  # seats that still may react to the last card
    out: tuple[int, ...]
    rng: Rng


def value(card: str) -> int:
    return int(card[-1]) + 1


class Party:
    name = "party-test"
    version = 1
    min_players = 2
    max_players = 4
    bot_levels = ("random",)

    def initial_state(self, config: Mapping[str, Any], seed: int, players: int) -> PartyState:
        if set(config) - _CONFIG:
            raise BadInput("error.bad_notation", text=str(sorted(set(config) - _CONFIG)))
        seats = config.get("seats")
        if seats is not None and seats != players:
            raise BadInput("error.player_count", min=seats, max=seats)
        teams = tuple(config.get("teams") or range(players))
        colours = tuple(config.get("seat_choices") or [None] * players)
        if len(teams) != players or len(colours) != players:
            raise BadInput("error.player_count", min=players, max=players)
        if any(c is not None and c not in COLOURS for c in colours):
            raise BadInput("error.bad_notation", text=str(colours))
        size = int(config.get("hand", 3))
        if not 1 <= size <= 6:
            raise BadInput("error.bad_notation", text=str(size))
        rng = Rng(seed)
        seen: set[str] = set()
        hands = []
        for _seat in range(players):
            hand = []
            while len(hand) < size:
                number, rng = rng.randint(10000, 99999)
                card = f"k{number}"
                if card not in seen:
                    seen.add(card)
                    hand.append(card)
            hands.append(tuple(hand))
        empty: tuple[tuple[str, ...], ...] = tuple(() for _ in range(players))
        return PartyState(teams, colours, tuple(hands), empty, (), 0, 1, (), (), rng)

    # -------------------------------------------------------------- decisions and actions

    def decisions(self, state: PartyState) -> tuple[Decision, ...]:
        if state.mover < 0:
            return ()
        if state.window:
            return tuple(
                Decision(s, f"r{state.turn}.{s}", DecisionKind.REACTION, "party.react")
                for s in state.window
            )
        return (Decision(state.mover, f"t{state.turn}", DecisionKind.TURN, "party.play"),)

    def legal_actions(self, state: PartyState, player: PlayerId) -> Sequence[Act]:
        if state.mover < 0 or player in state.out:
            return []
        if state.window:
            if player not in state.window:
                return []
            return [Act("pass"), *(Act("add", c) for c in state.hands[player])]
        if player != state.mover:
            return []
        return [Act("play", c) for c in state.hands[player]]

    def apply(
        self, state: PartyState, action: Act, player: PlayerId
    ) -> tuple[PartyState, list[Event]]:
        if action not in self.legal_actions(state, player):
            raise IllegalAction("error.not_your_turn")
        hands = list(state.hands)
        if action.card:
            hands[player] = tuple(c for c in hands[player] if c != action.card)
        if action.verb == "play":
            others = tuple(s for s in range(len(state.teams)) if s != player and s not in state.out)
            new = replace(
                state,
                hands=tuple(hands),
                table=(*state.table, (player, action.card)),
                window=others,
                rng=state.rng.advanced(),
            )
            event = Event("played", {"player": player, "card": action.card})
        else:
            hidden = list(state.hidden)
            if action.verb == "add":
                hidden[player] = (*hidden[player], action.card)
            new = replace(
                state,
                hands=tuple(hands),
                hidden=tuple(hidden),
                window=tuple(s for s in state.window if s != player),
            )
            data: dict[str, Any] = {"player": player}
            if action.verb == "add":
                event = Event("added", {**data, "card": action.card}, frozenset({player}))
            else:
                event = Event("passed", data)
        events = [event]
        if not new.window:
            new = _advance(new)
        return new, events

    def eliminate(self, state: PartyState, player: PlayerId) -> tuple[PartyState, list[Event]]:
        if player in state.out or state.mover < 0:
            raise IllegalAction("error.game_over")
        hands = list(state.hands)
        hands[player] = ()
        was_waiting = bool(state.window)
        new = replace(
            state,
            hands=tuple(hands),
            out=(*state.out, player),
            window=tuple(s for s in state.window if s != player),
        )
        sides = {new.teams[s] for s in range(len(new.teams)) if s not in new.out}
        if len(sides) <= 1:
            new = replace(new, mover=-1, window=())
        elif (was_waiting and not new.window) or (not was_waiting and player == state.mover):
            new = _advance(new)
        return new, [Event("left", {"player": player})]

    def action_visible_to(
        self, state: PartyState, action: Act, player: PlayerId
    ) -> frozenset[PlayerId] | None:
        return frozenset({player}) if action.verb == "add" else None

    def timeout_action(self, state: PartyState, decision: Decision) -> Act | None:
        """A reaction not answered in time passes."""
        return Act("pass") if decision.kind == DecisionKind.REACTION else None

    def choose_action(
        self, state: PartyState, player: PlayerId, level: str, budget_s: float, rng: random.Random
    ) -> Act:
        actions = list(self.legal_actions(state, player))
        if not actions:
            raise IllegalAction("error.not_your_turn")
        return rng.choice(actions)

    # -------------------------------------------------------------- what players see

    def view_for(self, state: PartyState, player: PlayerId | None) -> JsonDict:
        view: JsonDict = {
            "turn": state.turn,
            "mover": state.mover,
            "teams": list(state.teams),
            "colours": list(state.colours),
            "table": [[seat, card] for seat, card in state.table],
            "hand_sizes": [len(h) for h in state.hands],
            "treasure_sizes": [len(h) for h in state.hidden],
            "window": list(state.window),
            "out": list(state.out),
        }
        if player is not None:
            view["hand"] = list(state.hands[player])
            view["treasure"] = list(state.hidden[player])
        return view

    def outcome(self, state: PartyState) -> Outcome | None:
        if state.mover >= 0:
            return None
        seats = range(len(state.teams))
        alive = {state.teams[s] for s in seats if s not in state.out}
        score: dict[int, int] = {}
        for s in seats:
            points = sum(value(c) for c in state.hidden[s])
            points += sum(value(c) for who, c in state.table if who == s)
            score[state.teams[s]] = score.get(state.teams[s], 0) + points
        if len(alive) == 1:
            (team,) = alive
            winners = frozenset(s for s in seats if state.teams[s] == team)
            rest = frozenset(seats) - winners
            return Outcome(winners, "last_side", (winners, rest) if rest else (winners,))
        levels = sorted({score[t] for t in alive}, reverse=True)
        ranking = tuple(
            frozenset(s for s in seats if state.teams[s] in alive and score[state.teams[s]] == p)
            for p in levels
        )
        top = [t for t in alive if score[t] == levels[0]]
        if len(top) > 1:
            return Outcome(frozenset(), "tie", ranking)
        return Outcome(ranking[0], "points", ranking)

    def secrets_of(self, state: PartyState, player: PlayerId) -> set[str]:
        return set(state.hands[player]) | set(state.hidden[player])

    # -------------------------------------------------------------- notation and JSON

    def parse_action(self, text: str) -> Act:
        words = text.split()
        if words == ["pass"]:
            return Act("pass")
        if len(words) == 2 and words[0] in ("play", "add") and words[1].startswith("k"):
            return Act(words[0], words[1])
        raise BadInput("error.bad_notation", text=text)

    def action_text(self, action: Act) -> str:
        return " ".join(w for w in (action.verb, action.card) if w)

    def action_path(self, action: Act) -> tuple[str, ...]:
        return (action.verb, action.card) if action.card else (action.verb,)

    def state_to_json(self, state: PartyState) -> JsonDict:
        return {
            "teams": list(state.teams),
            "colours": list(state.colours),
            "hands": [list(h) for h in state.hands],
            "hidden": [list(h) for h in state.hidden],
            "table": [[s, c] for s, c in state.table],
            "mover": state.mover,
            "turn": state.turn,
            "window": list(state.window),
            "out": list(state.out),
            "rng": state.rng.to_json(),
        }

    def state_from_json(self, data: JsonDict) -> PartyState:
        return PartyState(
            tuple(data["teams"]),
            tuple(data["colours"]),
            tuple(tuple(h) for h in data["hands"]),
            tuple(tuple(h) for h in data["hidden"]),
            tuple((int(s), str(c)) for s, c in data["table"]),
            int(data["mover"]),
            int(data["turn"]),
            tuple(data["window"]),
            tuple(data["out"]),
            Rng.from_json(data["rng"]),
        )


def _advance(state: PartyState) -> PartyState:
    """The next seat (after the mover) still in the game with a card moves; nobody: over."""
    seats = len(state.teams)
    for step in range(1, seats + 1):
        seat = (state.mover + step) % seats
        if seat not in state.out and state.hands[seat]:
            return replace(state, mover=seat, turn=state.turn + 1, window=())
    return replace(state, mover=-1, window=())


PARTY = Party()
register(PARTY)
