"""Clicking an action together, for any engine: its legal actions as paths of tokens.

Each action's ``engine.action_path(action)`` is the sequence of choices that builds it (a
piece, then what it does, then a target ...). The tree offers the distinct next tokens after
what was chosen so far, skips the choices that have only one way on, and finds the action
once a path is complete. It knows nothing of Discord: a cog turns ``options`` into buttons or
select menus and keeps the path so far in the ``custom_id``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Generic, TypeVar

from engines.core.contract import Engine
from engines.core.errors import BadInput

A = TypeVar("A")


class ChoiceTree(Generic[A]):
    """The legal actions of a position as paths of tokens."""

    def __init__(
        self,
        engine: Engine[Any, A],
        actions: Iterable[A],
        *,
        error_key: str = "error.bad_choice",
    ) -> None:
        self.paths: dict[tuple[str, ...], A] = {
            tuple(engine.action_path(action)): action for action in actions
        }
        self.error_key = error_key

    def options(self, prefix: Sequence[str]) -> list[str]:
        """The distinct tokens that can follow ``prefix``, in the engine's order."""
        depth = len(prefix)
        head = tuple(prefix)
        seen: dict[str, None] = {}
        for path in self.paths:
            if len(path) > depth and path[:depth] == head:
                seen.setdefault(path[depth], None)
        return list(seen)

    def action(self, prefix: Sequence[str]) -> A | None:
        return self.paths.get(tuple(prefix))

    def follow(self, prefix: Sequence[str]) -> tuple[str, ...]:
        """``prefix`` extended while there is only one way on. Raises BadInput (``error_key``)
        for a path that is no prefix of a legal action (a forged or outdated button)."""
        path = tuple(prefix)
        while self.action(path) is None:
            following = self.options(path)
            if not following:
                raise BadInput(self.error_key)
            if len(following) > 1:
                break
            path += (following[0],)
        return path

    def back(self, path: Sequence[str]) -> tuple[str, ...]:
        """The previous point where there was a real choice."""
        shorter = tuple(path[:-1])
        while shorter and len(self.options(shorter)) < 2:
            shorter = shorter[:-1]
        return shorter
