"""Typed errors an engine raises. Each carries a message key for the translator and its
parameters, so the Discord layer can show it in the user's language."""

from __future__ import annotations

from typing import Any


class EngineError(Exception):
    """Base for every error a user can cause. ``key`` names a message in ``data/i18n``."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(f"{key} {params}" if params else key)
        self.key = key
        self.params: dict[str, Any] = params

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its class, key and parameters (a bot's move or a game's start worked out
        in a worker process raises it back here), whatever its own ``__init__`` takes; its
        other attributes as they were."""
        return (_rebuilt, (type(self), self.key, self.params), dict(vars(self)))


def _rebuilt(kind: type[EngineError], key: str, params: dict[str, Any]) -> EngineError:
    error = kind.__new__(kind)
    EngineError.__init__(error, key, **params)
    return error


class IllegalAction(EngineError):
    """The action is not legal in this state (wrong turn, wrong target, rule violation)."""


class BadInput(EngineError):
    """The input could not be understood (bad notation, out-of-range number, malformed file)."""


class StaleAction(EngineError):
    """The action was meant for an older revision of the game (an old button was clicked)."""

    def __init__(self) -> None:
        super().__init__("error.stale")
