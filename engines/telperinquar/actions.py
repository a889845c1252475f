"""Telperinquár's actions: words (``play c12345``, ``use c12345 h1``, ``pass``), a verb and
its arguments; the verbs and how many words each takes in one table."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

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


ARITY: dict[Verb, tuple[int, ...]] = {
    Verb.GO: (0,), Verb.NEXT: (0,), Verb.END: (0,), Verb.PASS: (0,),
    Verb.LEVEL: (1,), Verb.PLAY: (1,), Verb.HIDE: (1,), Verb.TAKE: (1,), Verb.REACT: (1,),
    Verb.REVEAL: (1,), Verb.INTERCEPT: (1,),
    Verb.SWAP: (2,), Verb.ARM: (2,), Verb.MOVE: (2,), Verb.FLY: (2,),
    Verb.USE: (1, 2), Verb.DUAL: (3,),
}  # fmt: skip
"""How many words follow each verb."""


@dataclass(frozen=True, slots=True)
class Act:
    words: tuple[str, ...]

    def __str__(self) -> str:
        return " ".join(self.words)


def act(*words: str) -> Act:
    return Act(tuple(words))


def parse(text: str) -> Act:
    words = tuple(text.split())
    if not words:
        raise BadInput("tq.error.bad_notation", text=text)
    verb = Verb(words[0]) if words[0] in Verb._value2member_map_ else None
    if verb is None or len(words) - 1 not in ARITY[verb]:
        raise BadInput("tq.error.bad_notation", text=text[:60])
    return Act(words)
