"""The engine protocol, events, outcomes and the registry of engines by name."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

PlayerId = int  # a seat index 0..n-1
JsonDict = dict[str, Any]

S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for the cog to narrate. ``visible_to`` None means everyone."""

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    visible_to: frozenset[PlayerId] | None = None

    def visible_for(self, player: PlayerId | None) -> bool:
        return self.visible_to is None or (player is not None and player in self.visible_to)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: ``winners`` (empty for a draw) and a reason key (``resign``, ...)."""

    winners: frozenset[PlayerId]
    reason: str

    @property
    def is_draw(self) -> bool:
        return not self.winners


class Engine(Protocol, Generic[S, A]):
    """What every game implements. States and actions are values; nothing here mutates."""

    name: str
    version: int
    min_players: int
    max_players: int

    def initial_state(self, config: Mapping[str, Any], seed: int, players: int) -> S:
        """The start position. Raises BadInput for an unknown config option."""
        ...

    def legal_actions(self, state: S, player: PlayerId) -> Sequence[A]:
        """Every action ``player`` may take now (empty when not their turn)."""
        ...

    def apply(self, state: S, action: A, player: PlayerId) -> tuple[S, list[Event]]:
        """The state after ``player`` takes ``action``. Raises IllegalAction otherwise."""
        ...

    def to_act(self, state: S) -> frozenset[PlayerId]:
        """Who may act now; empty when the game is over."""
        ...

    def view_for(self, state: S, player: PlayerId | None) -> JsonDict:
        """Plain data that ``player`` may see (None: a spectator)."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """Winners and reason once the game is over, else None."""
        ...

    def secrets_of(self, state: S, player: PlayerId) -> set[str]:
        """Tokens only ``player`` may know (for the leak test); empty for open games."""
        ...

    def parse_action(self, text: str) -> A:
        """The action written as ``text``. Raises BadInput for unreadable notation."""
        ...

    def action_text(self, action: A) -> str:
        """The notation of ``action``; ``parse_action(action_text(a)) == a``."""
        ...

    def state_to_json(self, state: S) -> JsonDict: ...

    def state_from_json(self, data: JsonDict) -> S:
        """Raises BadInput for data of another schema version."""
        ...


_REGISTRY: dict[str, Engine[Any, Any]] = {}


def register(engine: Engine[Any, Any]) -> Engine[Any, Any]:
    _REGISTRY[engine.name] = engine
    return engine


def registry() -> Mapping[str, Engine[Any, Any]]:
    return dict(_REGISTRY)
