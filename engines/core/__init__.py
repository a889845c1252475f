"""The engine contract every game follows (see ARCHITECTURE.md).

An engine is a module-level object implementing :class:`Engine`. States are plain frozen
dataclasses that round-trip through JSON exactly; all chance comes from the :class:`Rng` kept
inside the state; ``apply`` never mutates its input and raises :class:`IllegalAction` for
anything ``legal_actions`` would not offer. ``decisions`` says who must or may choose now
(:class:`Decision`); optional hooks: :class:`BotPlayer` (the AI), :class:`SecretActions`
(logged actions only some seats may read) and :class:`TimeoutActions` (a reaction's answer when
its time is up). Around the engine: ``match`` (resign, draw votes,
forfeit, teams, eliminated seats), ``choices`` (clicking an action together from its
``action_path``) and ``record`` (replay, the public action log).
"""

from engines.core.contract import (
    BotPlayer,
    Decision,
    DecisionKind,
    Engine,
    Event,
    Outcome,
    PlayerId,
    SecretActions,
    TimeoutActions,
    decision_for,
    register,
    registry,
    to_act,
)
from engines.core.errors import BadInput, EngineError, IllegalAction, StaleAction
from engines.core.rng import Rng

__all__ = [
    "BadInput",
    "BotPlayer",
    "Decision",
    "DecisionKind",
    "Engine",
    "EngineError",
    "Event",
    "IllegalAction",
    "Outcome",
    "PlayerId",
    "Rng",
    "SecretActions",
    "StaleAction",
    "TimeoutActions",
    "decision_for",
    "register",
    "registry",
    "to_act",
]
