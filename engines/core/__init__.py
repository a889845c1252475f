"""The engine contract every game follows (see ARCHITECTURE.md).

An engine is a module-level object implementing :class:`Engine`. States are plain frozen
dataclasses that round-trip through JSON exactly; all chance comes from the :class:`Rng` kept
inside the state; ``apply`` never mutates its input and raises :class:`IllegalAction` for
anything ``legal_actions`` would not offer.
"""

from engines.core.contract import (
    Engine,
    Event,
    Outcome,
    PlayerId,
    register,
    registry,
)
from engines.core.errors import BadInput, EngineError, IllegalAction, StaleAction
from engines.core.rng import Rng

__all__ = [
    "BadInput",
    "Engine",
    "EngineError",
    "Event",
    "IllegalAction",
    "Outcome",
    "PlayerId",
    "Rng",
    "StaleAction",
    "register",
    "registry",
]
