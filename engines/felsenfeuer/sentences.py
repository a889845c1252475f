"""A spell's sentences compiled at load: one typed object per instruction, its verb's
parameters with their defaults filled in from the language's declarations
(``engines.felsenfeuer.spells.VERBS``, the one place a default is written), so the
interpreter (``engines.felsenfeuer.verbs``) reads fields, never raw mappings.

The sub-languages stay as written and checked by the loader: a dice selector (a table or
``"spruchrune"``), a condition (a table), a value (an integer or a table), a count (``all``,
``one``, ``any``, an integer or ``{up_to = n}``) and a players word. A sentence that cannot be
compiled is a mistake of its file, named by its line like the loader's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeAlias

from engines.effects import Verb

Selector: TypeAlias = Any  # a dice selector as written (a table or "spruchrune")
Cond: TypeAlias = Mapping[str, Any]  # a condition table
Value: TypeAlias = Any  # an integer or a value table ({count = …}, {add = […]}, …)
Count: TypeAlias = Any  # all | one | any | an integer | {up_to = n}


@dataclass(frozen=True, slots=True)
class Instruction:
    """One instruction of a sentence. ``when``: its own condition (a part of a sentence of
    several), ``name``: the binding (``as``) of the dice or seats it affected."""

    do: ClassVar[str]
    when: Cond | None = field(default=None, kw_only=True)
    name: str = field(default="", kw_only=True)


@dataclass(frozen=True, slots=True)
class Targeted(Instruction):
    """An instruction on the dice of ``target``: ``count`` of them, chosen by ``chooser``."""

    target: Selector
    count: Count
    chooser: str


@dataclass(frozen=True, slots=True)
class Trigger(Targeted):
    do: ClassVar[str] = "trigger"


@dataclass(frozen=True, slots=True)
class Ban(Targeted):
    do: ClassVar[str] = "ban"


@dataclass(frozen=True, slots=True)
class Reactivate(Targeted):
    do: ClassVar[str] = "reactivate"


@dataclass(frozen=True, slots=True)
class Destroy(Targeted):
    do: ClassVar[str] = "destroy"


@dataclass(frozen=True, slots=True)
class TakeToHand(Targeted):
    do: ClassVar[str] = "take_to_hand"


@dataclass(frozen=True, slots=True)
class Freeze(Targeted):
    do: ClassVar[str] = "freeze"


@dataclass(frozen=True, slots=True)
class Thaw(Targeted):
    do: ClassVar[str] = "thaw"


@dataclass(frozen=True, slots=True)
class Float(Targeted):
    do: ClassVar[str] = "float"


@dataclass(frozen=True, slots=True)
class SecondHand(Targeted):
    do: ClassVar[str] = "second_hand"


@dataclass(frozen=True, slots=True)
class Lay(Targeted):
    do: ClassVar[str] = "lay"
    value: Value  # pips, or "choose"


@dataclass(frozen=True, slots=True)
class MoveToMatrix(Targeted):
    do: ClassVar[str] = "move_to_matrix"
    to: str  # duellplatz | start | marker | choose


@dataclass(frozen=True, slots=True)
class SetPips(Targeted):
    do: ClassVar[str] = "set_pips"
    value: Value  # pips, "choose" or a value table


@dataclass(frozen=True, slots=True)
class RaisePips(Targeted):
    do: ClassVar[str] = "raise_pips"
    amount: Value


@dataclass(frozen=True, slots=True)
class LowerPips(Targeted):
    do: ClassVar[str] = "lower_pips"
    amount: Value


@dataclass(frozen=True, slots=True)
class NewMatrix(Instruction):
    do: ClassVar[str] = "new_matrix"
    target: Selector
    extra: Selector | None
    extra_count: Count


@dataclass(frozen=True, slots=True)
class Manifest(Instruction):
    do: ClassVar[str] = "manifest"
    target: Selector
    shrines: Selector
    shrine_count: Count


@dataclass(frozen=True, slots=True)
class SwapPips(Instruction):
    do: ClassVar[str] = "swap_pips"
    target: Selector
    other: Selector


@dataclass(frozen=True, slots=True)
class CountsAs(Instruction):
    """A "zählt als" effect: ``property`` colour | pips | nohand | named, of the dice of
    ``target`` (or, nohand, of ``players``)."""

    do: ClassVar[str] = "counts_as"
    target: Selector | None
    players: str
    property: str
    value: Any


@dataclass(frozen=True, slots=True)
class Renew(Instruction):
    do: ClassVar[str] = "renew"


@dataclass(frozen=True, slots=True)
class Cast(Instruction):
    do: ClassVar[str] = "cast"
    colour: Any  # "" (any), a colour or a list of colours
    pips: int  # 0: any


@dataclass(frozen=True, slots=True)
class Cauldron(Instruction):
    do: ClassVar[str] = "cauldron"
    players: str
    pick: str


@dataclass(frozen=True, slots=True)
class Attack(Instruction):
    do: ClassVar[str] = "attack"
    players: str
    pick: str
    times: int


@dataclass(frozen=True, slots=True)
class LoseEssence(Instruction):
    do: ClassVar[str] = "lose_essence"
    players: str
    pick: str
    amount: Value


@dataclass(frozen=True, slots=True)
class GainEssence(Instruction):
    do: ClassVar[str] = "gain_essence"
    players: str
    pick: str
    amount: Value


@dataclass(frozen=True, slots=True)
class SetCaster(Instruction):
    do: ClassVar[str] = "set_caster"
    players: str


@dataclass(frozen=True, slots=True)
class Win(Instruction):
    do: ClassVar[str] = "win"
    players: str


_ALL: tuple[type[Instruction], ...] = (
    Trigger, Ban, Reactivate, Destroy, TakeToHand, Freeze, Thaw, Float, SecondHand, Lay,
    MoveToMatrix, SetPips, RaisePips, LowerPips, NewMatrix, Manifest, SwapPips, CountsAs, Renew,
    Cast, Cauldron, Attack, LoseEssence, GainEssence, SetCaster, Win,
)  # fmt: skip
KINDS: Mapping[str, type[Instruction]] = {kind.do: kind for kind in _ALL}


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence of a spell: its instructions (``parts``; ``several``: written as parts, a
    part's own condition counts only then), ``joined`` (the Visir-Regel: it lapses whole when
    one part has no target), its condition ``when``, ``for_each`` (once per die named now),
    ``repeat`` (a value: that many times, at most 12), ``choose_hand`` (the caster chooses the
    hand ``hand = "this"`` names), the keyword it stands for and the texts players read."""

    parts: tuple[Instruction, ...]
    several: bool = False
    joined: bool = False
    when: Cond | None = None
    for_each: Selector | None = None
    repeat: Value | None = None
    choose_hand: bool = False
    keyword: str = ""  # the keyword whose sentence it is ("Telekinese: Falls …")
    text_de: str = ""
    text_en: str = ""


def instruction(part: Mapping[str, Any], verbs: Mapping[str, Verb], *, own_if: bool) -> Instruction:
    """The typed instruction of a checked part, every parameter of its verb filled in (its
    own value or the declared default). Raises ValueError for a part the loader would
    refuse (no such verb, a required parameter missing)."""
    do = part.get("do")
    kind = KINDS.get(do) if isinstance(do, str) else None
    verb = verbs.get(do) if isinstance(do, str) else None
    if kind is None or verb is None:
        raise ValueError(f"unknown verb {do!r}")
    values: dict[str, Any] = {}
    for name, param in verb.params.items():
        if name in part:
            values[name] = part[name]
        elif param.required:
            raise ValueError(f"{do}: needs {name}")
        else:
            values[name] = param.default
    fields = {f.name for f in dataclasses.fields(kind)} - {"when", "name"}
    if set(values) != fields:
        raise ValueError(f"{do}: the parameters {sorted(values)} are not {sorted(fields)}")
    when = part.get("if") if own_if else None
    return kind(**values, when=when, name=str(part.get("as", "")))


def sentence(step: Mapping[str, Any], verbs: Mapping[str, Verb]) -> Sentence:
    """The compiled sentence of a checked step (ValueError as ``instruction``)."""
    several = "parts" in step
    raw = step["parts"] if several else [step]
    if not isinstance(raw, list) or not raw:
        raise ValueError("parts: a list of instructions")
    parts = tuple(instruction(p, verbs, own_if=several) for p in raw)
    return Sentence(
        parts=parts, several=several, joined=bool(step.get("joined", False)),
        when=step.get("if"), for_each=step.get("for_each"), repeat=step.get("repeat"),
        choose_hand=bool(step.get("choose_hand", False)), keyword=str(step.get("keyword", "")),
        text_de=str(step.get("text_de", "")),
        text_en=str(step.get("text_en", "")),
    )  # fmt: skip
