"""The Felsenfeuer engine behind the house's engine contract: the start (``setup``), the steps
(``turns``) and their resolution (``resolution``, the verbs of the effect language in
``verbs``), the view, the bots and the stored schema (``model.STORED``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines.core.contract import Decision, Event, JsonDict, Outcome, PlayerId
from engines.felsenfeuer.actions import Action, Auswahl, action_text, parse
from engines.felsenfeuer.ai import choose
from engines.felsenfeuer.codes import (
    HAND_SIZE,
    VORSTEHER,
    auswahl_cap,
    auswahl_codes,
    auswahl_counts,
    current_setup_seat,
    essence_order,
    roll_seat,
)
from engines.felsenfeuer.model import COLOURS, SCHEMA, STORED, State
from engines.felsenfeuer.resolution import check_end, judge, knock_out, settle, start_spell_phase
from engines.felsenfeuer.setup import initial, settings_of
from engines.felsenfeuer.turns import (
    decisions_of,
    eliminate_seat,
    legal,
    outcome_of,
    play,
    raw_actions,
    situation,
)
from engines.felsenfeuer.view import view

__all__ = [  # the engine and what the cogs, the bots' benches and the tests take from here
    "ENGINE",
    "HAND_SIZE",
    "VORSTEHER",
    "FelsenfeuerEngine",
    "action_text",
    "auswahl_cap",
    "auswahl_codes",
    "auswahl_counts",
    "check_end",
    "current_setup_seat",
    "decisions_of",
    "eliminate_seat",
    "essence_order",
    "judge",
    "knock_out",
    "legal",
    "outcome_of",
    "parse",
    "play",
    "raw_actions",
    "roll_seat",
    "settings_of",
    "settle",
    "situation",
    "start_spell_phase",
]


class FelsenfeuerEngine:
    """Felsenfeuer for 2-6 seats (rules as played: data/felsenfeuer/RULES.md)."""

    name = "felsenfeuer"
    version = SCHEMA
    min_players = 2
    max_players = 6
    bot_levels = ("random", "normal", "hard")

    def initial_state(self, config: Mapping[str, Any], seed: int, players: int) -> State:
        return initial(config, seed, players)

    def decisions(self, state: State) -> tuple[Decision, ...]:
        return decisions_of(state)

    def legal_actions(self, state: State, player: PlayerId) -> Sequence[Action]:
        return legal(state, player)

    def apply(self, state: State, action: Action, player: PlayerId) -> tuple[State, list[Event]]:
        return play(state, action, player)

    def eliminate(self, state: State, player: PlayerId) -> tuple[State, list[Event]]:
        return eliminate_seat(state, player)

    def view_for(self, state: State, player: PlayerId | None) -> JsonDict:
        return view(state, player)

    def outcome(self, state: State) -> Outcome | None:
        return outcome_of(state)

    def secrets_of(self, state: State, player: PlayerId) -> set[str]:
        if state.phase == "auswahl" and state.auswahl[player]:
            return {f"auswahl:{state.auswahl[player]}"}
        return set()

    def action_visible_to(
        self, state: State, action: Action, player: PlayerId
    ) -> frozenset[int] | None:
        return frozenset({player}) if isinstance(action, Auswahl) else None

    def parse_action(self, text: str) -> Action:
        return parse(text)

    def action_text(self, action: Action) -> str:
        return action_text(action)

    def action_path(self, action: Action) -> tuple[str, ...]:
        if isinstance(action, Auswahl):
            return ("auswahl", *[f"{c}{n}" for c, n in zip(COLOURS, action.counts, strict=True)])
        return (action.verb, *action.args)

    def choose_action(self, state: State, player: PlayerId, level: str, budget_s: float,
                      rng: random.Random) -> Action:  # fmt: skip
        return choose(state, player, level, rng)

    def state_to_json(self, state: State) -> JsonDict:
        return STORED.dump(state)

    def state_from_json(self, data: JsonDict) -> State:
        """Raises BadInput for data of an unknown schema version or of another shape."""
        return STORED.load(data)


ENGINE = FelsenfeuerEngine()
