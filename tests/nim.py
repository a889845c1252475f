"""A tiny engine (Nim with a hidden bonus card) that exercises the contract, the kit and the
match wrapper without depending on a real game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engines.core import BadInput, Event, IllegalAction, Outcome, Rng, register
from engines.core.contract import Decision, DecisionKind


@dataclass(frozen=True)
class NimState:
    heap: int
    to_move: int
    secret: tuple[str, str]
    rng: Rng


class Nim:
    name = "nim-test"
    version = 1
    min_players = 2
    max_players = 2

    def initial_state(self, config: Mapping[str, Any], seed: int, players: int) -> NimState:
        if set(config) - {"heap"}:
            raise BadInput("error.bad_notation", text=str(config))
        rng = Rng(seed)
        a, rng = rng.randint(1000, 9999)
        b, rng = rng.randint(1000, 9999)
        return NimState(int(config.get("heap", 15)), 0, (f"card{a}", f"card{b}"), rng)

    def legal_actions(self, state: NimState, player: int) -> Sequence[int]:
        if player != state.to_move or state.heap == 0:
            return []
        return list(range(1, min(3, state.heap) + 1))

    def apply(self, state: NimState, action: int, player: int) -> tuple[NimState, list[Event]]:
        if action not in self.legal_actions(state, player):
            raise IllegalAction("error.not_your_turn")
        new = NimState(state.heap - action, 1 - player, state.secret, state.rng.advanced())
        return new, [Event("took", {"player": player, "count": action})]

    def decisions(self, state: NimState) -> tuple[Decision, ...]:
        if state.heap == 0:
            return ()
        return (Decision(state.to_move, f"h{state.heap}", DecisionKind.TURN),)

    def eliminate(self, state: NimState, player: int) -> tuple[NimState, list[Event]]:
        raise IllegalAction("error.player_count", min=2, max=2)

    def view_for(self, state: NimState, player: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {"heap": state.heap, "to_move": state.to_move}
        if player is not None:
            view["my_card"] = state.secret[player]
        return view

    def outcome(self, state: NimState) -> Outcome | None:
        # whoever took the last object wins: the player who is *not* to move
        return Outcome(frozenset({1 - state.to_move}), "normal") if state.heap == 0 else None

    def secrets_of(self, state: NimState, player: int) -> set[str]:
        return {state.secret[player]}

    def parse_action(self, text: str) -> int:
        if not text.strip().isdigit():
            raise BadInput("error.bad_notation", text=text)
        return int(text)

    def action_text(self, action: int) -> str:
        return str(action)

    def action_path(self, action: int) -> tuple[str, ...]:
        return (str(action),)

    def state_to_json(self, state: NimState) -> dict[str, Any]:
        return {
            "heap": state.heap,
            "to_move": state.to_move,
            "secret": list(state.secret),
            "rng": state.rng.to_json(),
        }

    def state_from_json(self, data: dict[str, Any]) -> NimState:
        return NimState(
            data["heap"],
            data["to_move"],
            (data["secret"][0], data["secret"][1]),
            Rng.from_json(data["rng"]),
        )


NIM = Nim()
register(NIM)
