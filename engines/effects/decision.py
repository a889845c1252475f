"""The pause for a decision as data: answers consumed in order while a step re-runs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class NeedDecision(Exception):
    """Raised by a step that needs an answer it does not have yet. ``options`` are tokens;
    ``prompt`` a message key with ``params`` (a tuple of key/value pairs, JSON-friendly)."""

    seat: int
    prompt: str
    options: tuple[str, ...]
    params: tuple[tuple[str, str], ...] = ()


class Answers:
    """The answers given so far to one step, handed out in the order the step asks."""

    def __init__(self, given: Sequence[str]) -> None:
        self.given = tuple(given)
        self.cursor = 0

    def choose(
        self,
        seat: int,
        prompt: str,
        options: Sequence[str],
        params: Sequence[tuple[str, str]] = (),
        *,
        forced: bool = True,
    ) -> str:
        """The answer to the next question of this step. With ``forced`` a single option is
        taken without asking (nothing to decide). Raises NeedDecision when not answered yet."""
        opts = tuple(options)
        if not opts:
            raise ValueError("a decision without options")
        if forced and len(opts) == 1:
            return opts[0]
        if self.cursor < len(self.given):
            answer = self.given[self.cursor]
            self.cursor += 1
            if answer not in opts:  # the engine checks answers before storing them
                raise ValueError(f"stored answer {answer!r} is not an option")
            return answer
        raise NeedDecision(seat, prompt, opts, tuple(params))
