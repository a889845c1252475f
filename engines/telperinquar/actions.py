"""Telperinquár's actions and their notation: words (``play c12345``, ``use c12345 h1``,
``pass``), the verb first. Each verb is a frozen dataclass whose fields are the notation's
words in order (card ids, targets, places); a field with the default ``""`` is an optional
last word. ``verb`` is the :class:`Verb` word; ``words`` the whole notation, as
``action_path`` clicks it together."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import ClassVar

from engines.core import BadInput


class Verb(StrEnum):
    GO = "go"  # end the Einstiegsphase without a level card
    LEVEL = "level"  # lay a level card
    NEXT = "next"  # end the Hauptphase
    END = "end"  # end the turn (after the Positionierungsphase)
    SWAP = "swap"  # two places of the own row
    PLAY = "play"  # lay a card from the hand
    HIDE = "hide"  # lay it face down
    ARM = "arm"  # put equipment from the hand on a Wesen
    MOVE = "move"  # give equipment in play to another bearer
    TAKE = "take"  # take equipment back to the hand
    USE = "use"  # use a card in play (an attack with its target)
    DUAL = "dual"  # attack with two weapons
    FLY = "fly"  # two flying Wesen swap places
    PASS = "pass"  # answer nothing
    REACT = "react"  # answer with a card
    REVEAL = "reveal"  # turn up a hidden card when the hero is attacked
    INTERCEPT = "intercept"  # a Wesen takes the attack


@dataclass(frozen=True, slots=True)
class Act:
    """An action; a subclass per verb."""

    verb: ClassVar[Verb]

    @property
    def args(self) -> tuple[str, ...]:
        """The words after the verb (an optional last word left out when empty)."""
        kind: type = type(self)
        values = tuple(str(getattr(self, name)) for name in _field_names(kind))
        return values[:-1] if values and values[-1] == "" else values

    @property
    def words(self) -> tuple[str, ...]:
        return (self.verb.value, *self.args)

    def __str__(self) -> str:
        return " ".join(self.words)


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


@dataclass(frozen=True, slots=True)
class Go(Act):
    verb: ClassVar[Verb] = Verb.GO


@dataclass(frozen=True, slots=True)
class LevelUp(Act):
    verb: ClassVar[Verb] = Verb.LEVEL
    card: str


@dataclass(frozen=True, slots=True)
class Next(Act):
    verb: ClassVar[Verb] = Verb.NEXT


@dataclass(frozen=True, slots=True)
class End(Act):
    verb: ClassVar[Verb] = Verb.END


@dataclass(frozen=True, slots=True)
class Swap(Act):
    verb: ClassVar[Verb] = Verb.SWAP
    first: str  # places in the row, from 0
    second: str


@dataclass(frozen=True, slots=True)
class Play(Act):
    verb: ClassVar[Verb] = Verb.PLAY
    card: str


@dataclass(frozen=True, slots=True)
class Hide(Act):
    verb: ClassVar[Verb] = Verb.HIDE
    card: str


@dataclass(frozen=True, slots=True)
class Arm(Act):
    verb: ClassVar[Verb] = Verb.ARM
    card: str
    bearer: str  # a Wesen


@dataclass(frozen=True, slots=True)
class Move(Act):
    verb: ClassVar[Verb] = Verb.MOVE
    card: str
    bearer: str  # the hero (h<seat>) or a Wesen


@dataclass(frozen=True, slots=True)
class Take(Act):
    verb: ClassVar[Verb] = Verb.TAKE
    card: str


@dataclass(frozen=True, slots=True)
class Use(Act):
    verb: ClassVar[Verb] = Verb.USE
    card: str
    target: str = ""


@dataclass(frozen=True, slots=True)
class Dual(Act):
    verb: ClassVar[Verb] = Verb.DUAL
    first: str
    second: str
    target: str


@dataclass(frozen=True, slots=True)
class Fly(Act):
    verb: ClassVar[Verb] = Verb.FLY
    first: str
    second: str


@dataclass(frozen=True, slots=True)
class Pass(Act):
    verb: ClassVar[Verb] = Verb.PASS


@dataclass(frozen=True, slots=True)
class React(Act):
    verb: ClassVar[Verb] = Verb.REACT
    card: str


@dataclass(frozen=True, slots=True)
class Reveal(Act):
    verb: ClassVar[Verb] = Verb.REVEAL
    card: str


@dataclass(frozen=True, slots=True)
class Intercept(Act):
    verb: ClassVar[Verb] = Verb.INTERCEPT
    card: str


BY_VERB: dict[Verb, type[Act]] = {
    cls.verb: cls
    for cls in (
        Go, LevelUp, Next, End, Swap, Play, Hide, Arm, Move, Take, Use, Dual, Fly, Pass,
        React, Reveal, Intercept,
    )
}  # fmt: skip
"""The verbs and their actions: how many words follow each is the class's fields."""


def _arity(cls: type[Act]) -> tuple[int, ...]:
    fields = dataclasses.fields(cls)
    need = sum(1 for f in fields if f.default is dataclasses.MISSING)
    return tuple(range(need, len(fields) + 1))


ARITY: dict[Verb, tuple[int, ...]] = {verb: _arity(cls) for verb, cls in BY_VERB.items()}


def act(verb: str, *args: str) -> Act:
    """The action of these words (known to be well formed)."""
    return BY_VERB[Verb(verb)](*args)


def parse(text: str) -> Act:
    words = tuple(text.split())
    if not words:
        raise BadInput("tq.error.bad_notation", text=text)
    verb = Verb(words[0]) if words[0] in Verb._value2member_map_ else None
    if verb is None or len(words) - 1 not in ARITY[verb]:
        raise BadInput("tq.error.bad_notation", text=text[:60])
    return act(*words)
