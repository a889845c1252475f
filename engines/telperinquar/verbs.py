"""A card's steps compiled when the card is loaded: one frozen value per verb of the card
language (``do = "strike"`` → :class:`Strike`), its defaults filled in, so the rules read
typed fields and dispatch on the class. The loader (``cards.py``) checks a file first and
names the line of every mistake; only checked steps are compiled.

The defaults are those the rules have always read: a ``harm``, ``heal`` or ``over_time``
without a target works on the user's own side (``self``), an ``ew`` against an enemy, a
``disarm`` the enemy hero.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from functools import cache
from typing import Any, TypeAlias


@dataclass(frozen=True, slots=True)
class Roll:
    """A rolled amount (``{ roll = "2W6+1" }``)."""

    text: str

    def throw(self, roll: Callable[[int], int]) -> int:
        count, _, rest = self.text.upper().partition("W")
        sides, plus, add = rest.partition("+")
        total = sum(roll(int(sides)) for _ in range(int(count or 1)))
        return total + (int(add) if plus else 0)


@dataclass(frozen=True, slots=True)
class Strike:
    """An attack: W10 + bonus against an enemy (critical 10, fumble 1)."""

    kind: str  # physical | magical
    range: str  # melee | ranged
    bonus: int = 0
    source: str = ""
    area: bool = False


@dataclass(frozen=True, slots=True)
class Harm:
    """Damage without an attack roll."""

    amount: int | Roll
    kind: str = "simple"
    target: str = "self"
    source: str = ""


@dataclass(frozen=True, slots=True)
class Heal:
    """A healing roll: W10 + bonus."""

    kind: str  # natural | magical
    bonus: int = 0
    target: str = "self"


@dataclass(frozen=True, slots=True)
class Bonus:
    """A passive bonus to the bearer while the card is in play."""

    stat: str
    amount: int


@dataclass(frozen=True, slots=True)
class Buff:
    """A modifier on the own hero until the end of the turn, the next attack or a round."""

    stat: str
    amount: int
    duration: str = "turn"


@dataclass(frozen=True, slots=True)
class OverTimeStep:
    """Damage or healing now and in the user's next supply phases."""

    effect: str  # damage | heal
    amount: int
    rounds: int
    target: str = "self"
    source: str = ""


@dataclass(frozen=True, slots=True)
class GainActions:
    amount: int


@dataclass(frozen=True, slots=True)
class Cancel:
    """A reaction: the answered attack on the own hero (or spell) does not happen."""

    what: str  # melee | ranged | spell | any


@dataclass(frozen=True, slots=True)
class Draw:
    count: int = 1


@dataclass(frozen=True, slots=True)
class Disarm:
    """The target hero's best weapon leaves it (to: discard, hand, steal)."""

    to: str = "discard"
    target: str = "enemy_hero"


@dataclass(frozen=True, slots=True)
class Ew:
    """An Erfolgswurf: W20 + the user's level against an attribute or a value."""

    against: str
    value: int = 0
    target: str = "enemy"


Step: TypeAlias = (
    Strike | Harm | Heal | Bonus | Buff | OverTimeStep | GainActions | Cancel | Draw | Disarm | Ew
)
Aimed = (Harm, Heal, OverTimeStep, Disarm, Ew)  # the steps with a target

STEPS: dict[str, type[Step]] = {
    "strike": Strike,
    "harm": Harm,
    "heal": Heal,
    "bonus": Bonus,
    "buff": Buff,
    "over_time": OverTimeStep,
    "actions": GainActions,
    "cancel": Cancel,
    "draw": Draw,
    "disarm": Disarm,
    "ew": Ew,
}
"""The card language's verbs and what each compiles to (its parameters: ``cards.VERBS``)."""


@cache
def _fields(kind: type) -> frozenset[str]:
    return frozenset(f.name for f in fields(kind))


def compile_step(data: Mapping[str, Any]) -> Step:
    """The typed step of a checked ``[[card.step]]`` table."""
    kind = STEPS[str(data["do"])]
    names = _fields(typing.cast(type, kind))
    values = {key: value for key, value in data.items() if key in names}
    if kind is Harm and isinstance(values["amount"], Mapping):
        values["amount"] = Roll(str(values["amount"].get("roll", "0")))
    return kind(**values)
