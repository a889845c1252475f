"""Data upgrades a schema migration needs beyond SQL (shared by every backend).

``combat_to_game``: a W6 combat of the old ``combats`` table (schema 2) as a game of kind
``w6combat`` with its action log, so that it replays (and undoes) like every game. The
stored combat keeps going exactly as it was: when its own log replays from its start to the
stored state, the log becomes the game's actions; otherwise (a combat carried over from an
older schema whose log does not replay) the stored state itself is the ``base`` the game
replays from, and undo reaches back to the upgrade.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from engines.core import EngineError
from engines.core import match as m
from engines.core.record import replay
from engines.w6 import state_from_json, state_to_json
from engines.w6.codec import encode
from engines.w6.engine import W6Combat
from engines.w6.state import CombatState

COMBAT_KIND = "w6combat"
ENGINE_KEY = "engine"  # the combat cog's old packing: {"engine": state, "charaktere": {...}}
CHARACTERS_KEY = "charaktere"


@dataclass(frozen=True)
class GameRow:
    """What a backend inserts for one upgraded combat."""

    config: dict[str, Any]
    seed: int
    players: list[int]
    status: str
    snapshot: dict[str, Any]
    display: dict[str, Any]
    actions: list[tuple[int, str]]


def combat_config(state: CombatState) -> dict[str, Any]:
    """The game config a combat starts from (the engine's ``initial_state`` reads it)."""
    config: dict[str, Any] = {
        "gm": state.gm,
        "settings": encode(state.start),
        "roster": [encode(f) for f in state.roster],
    }
    if state.base:
        config["base"] = state.base
    return config


def combat_to_game(raw: dict[str, Any], campaign_id: int | None, status: str) -> GameRow:
    """One stored combat (``raw`` as the old cog packed it; ``status`` "active" or "ended").
    Raises BadInput for a state that cannot be read."""
    engine = W6Combat()
    state = state_from_json(raw.get(ENGINE_KEY))
    characters = {str(k): v for k, v in dict(raw.get(CHARACTERS_KEY) or {}).items()}
    config = combat_config(state)
    initial = engine.initial_state(config, state.rng.seed, 1)
    actions = [(entry.actor, entry.action) for entry in state.log[len(initial.log) :]]
    try:
        match = replay(engine, config, state.rng.seed, 1, actions)
        replays = replace(match.state, undone=state.undone) == state
    except EngineError:  # a log that does not replay is carried over as a base
        replays = False
    if not replays:
        config["base"] = json.dumps(state_to_json(state), sort_keys=True)
        match = m.start(engine, config, state.rng.seed, 1)
        actions = []
    match = replace(match, state=replace(match.state, undone=state.undone))
    display: dict[str, Any] = {"characters": characters}
    if campaign_id is not None:
        display["campaign"] = campaign_id
    return GameRow(
        config=config,
        seed=state.rng.seed,
        players=[state.gm, *match.state.seats],
        status="finished" if status == "ended" or match.state.ended else "active",
        snapshot=m.to_json(engine, match),
        display=display,
        actions=actions,
    )
