"""One unit of resolution: the working copy, the stack entry being run and the answers given
so far (``Ctx``); a step asks through ``Ctx.choose`` (``engines.effects.Answers``), which raises
NeedDecision when an answer is missing: the driver then stores the open decision and re-runs
the step once it is answered."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.effects import Answers
from engines.felsenfeuer.model import Entry, Mod
from engines.felsenfeuer.work import Work

MAX_DEPTH = 12  # spells running inside each other at most (deeper casts lapse)
DONE = "fertig"


class SkipSentence(Exception):
    """The sentence lapses whole (Visir-Regel for joined parts, or a contradiction)."""


class Ctx:
    """One unit of resolution: the work copy, the entry being run and its answers."""

    def __init__(self, work: Work, entry: Entry) -> None:
        self.w = work
        self.entry = entry
        self.caster = entry.caster
        self.answers = Answers(entry.answers)
        self.pushes: list[Entry] = []
        self.new_mods: list[Mod] = []
        self.binds: dict[str, tuple[int, ...]] = dict(entry.bind)
        self.chooser = entry.caster
        self.hand = 0  # the hand "this" names (some_hand, choose_hand); "other" is the other
        self.colour = ""  # the colour "this" names (each_colour)

    def choose(self, seat: int, prompt: str, options: Sequence[str], forced: bool = True,
               **params: Any) -> str:  # fmt: skip
        return self.answers.choose(
            seat, prompt, options, [(k, str(v)) for k, v in params.items()], forced=forced
        )

    # --- reach (Gilden-Duell: a Sekundant reaches only its neighbours) --------------------
    def reach(self) -> frozenset[int] | None:
        s = self.w.base.settings
        if s.mode != "gilde" or self.caster < 0 or self.caster in (1, 4):
            return None
        n = s.players
        return frozenset({self.caster, (self.caster - 1) % n, (self.caster + 1) % n})
