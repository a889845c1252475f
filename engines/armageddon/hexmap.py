"""The hex grid of Armageddon's Kleinfelder and the game's fixed tables (``rules.json``).

Fields are pointy-top hexes in "odd-r" rows: row 1 is the top line of the scenario's map, odd
rows (2, 4, ...) sit half a field to the right. A field is named by its column letters and row
number (``c4``; columns ``a``..``z``, then ``aa``..). Directions are German: ``o`` (east),
``w``, ``no``, ``nw``, ``so``, ``sw``. An edge is a field plus a direction (``c4/no``); both
neighbours name the same edge.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

from engines.core.content import data_dir

DIRECTIONS = ("o", "no", "nw", "w", "sw", "so")
# (dcol, drow) per direction for even rows (0-based row index even) and odd rows
_EVEN = {"o": (1, 0), "w": (-1, 0), "no": (0, -1), "nw": (-1, -1), "so": (0, 1), "sw": (-1, 1)}
_ODD = {"o": (1, 0), "w": (-1, 0), "no": (1, -1), "nw": (0, -1), "so": (1, 1), "sw": (0, 1)}
OPPOSITE = {"o": "w", "w": "o", "no": "sw", "sw": "no", "nw": "so", "so": "nw"}
TERRAINS = {
    "T": "tiefland",
    "H": "hochland",
    "B": "bergland",
    "W": "wald",
    "S": "sumpf",
    "~": "wasser",
}

Edge = tuple[str, str]  # the two field names, sorted


def column_name(col: int) -> str:
    """0 -> a, 25 -> z, 26 -> aa."""
    name = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        name = chr(97 + rest) + name
    return name


def field_name(col: int, row: int) -> str:
    return f"{column_name(col)}{row + 1}"


def parse_field(text: str) -> tuple[int, int] | None:
    """``c4`` -> (2, 3); None for anything else."""
    letters = text.rstrip("0123456789")
    digits = text[len(letters) :]
    if not letters or not digits or not letters.isalpha() or not letters.isascii():
        return None
    if not letters.islower() or digits.startswith("0") or len(digits) > 6 or len(letters) > 6:
        return None  # no map is that large (and int() stops at 4,300 digits)
    col = 0
    for ch in letters:
        col = col * 26 + (ord(ch) - 96)
    return col - 1, int(digits) - 1


def neighbour(col: int, row: int, direction: str) -> tuple[int, int]:
    dc, dr = (_ODD if row % 2 else _EVEN)[direction]
    return col + dc, row + dr


def edge_of(a: str, b: str) -> Edge:
    return (a, b) if a < b else (b, a)


class FigureClass(StrEnum):
    """What a kind of figure is (``cls`` in ``data/armageddon/rules.json``)."""

    KRIEGER = "krieger"
    TIER = "tier"
    GERAET = "geraet"
    SCHIFF = "schiff"
    ZAUBERER = "zauberer"
    FABELWESEN = "fabelwesen"


class SwapRule(StrEnum):
    """Who a figure may swap places with (Platztausch; ``swap`` in the rules file)."""

    YES = "yes"
    NO = "no"
    NOT_SAME = "not_same"  # not with another of its kind (Phalanx)
    WITH_OTHERS = "with_others"
    CREW = "crew"  # together with its crew


@dataclass(frozen=True, slots=True)
class Kind:
    name: str
    abbr: str
    cls: FigureClass
    use: int
    fills: bool
    swap: SwapRule
    orient: bool
    holds: tuple[tuple[str, int], ...]
    mount_double: bool
    board_double: bool
    tramples: bool
    hover: bool
    caster: bool
    water: bool
    crew: int
    forbidden: frozenset[str]
    attack: int
    defence: int

    @property
    def is_warrior(self) -> bool:
        return self.cls == FigureClass.KRIEGER

    def slot_capacity(self, slot: str) -> int:
        return dict(self.holds).get(slot, 0)


@dataclass(frozen=True, slots=True)
class Spell:
    name: str
    acts_on: frozenset[str]
    state: str
    foreign_only: bool


@dataclass(frozen=True, slots=True)
class Tables:
    numbers: Mapping[str, int]
    capacity: Mapping[str, int]
    kinds: Mapping[str, Kind]
    spells: Mapping[str, Spell]

    def number(self, key: str) -> int:
        return int(self.numbers[key])

    def kind_by_abbr(self) -> dict[str, Kind]:
        return {k.abbr: k for k in self.kinds.values()}


def _kind(name: str, raw: Mapping[str, Any]) -> Kind:
    return Kind(
        name=name,
        abbr=str(raw["abbr"]),
        cls=FigureClass(str(raw["cls"])),
        use=int(raw.get("use", 1)),
        fills=bool(raw.get("fills", False)),
        swap=SwapRule(str(raw.get("swap", "yes"))),
        orient=bool(raw.get("orient", False)),
        holds=tuple((str(s), int(c)) for s, c in dict(raw.get("holds", {})).items()),
        mount_double=bool(raw.get("mount_double", False)),
        board_double=bool(raw.get("board_double", False)),
        tramples=bool(raw.get("tramples", False)),
        hover=bool(raw.get("hover", False)),
        caster=bool(raw.get("caster", False)),
        water=bool(raw.get("water", False)),
        crew=int(raw.get("crew", 0)),
        forbidden=frozenset(str(t) for t in raw.get("forbidden", [])),
        attack=int(raw.get("attack", 0)),
        defence=int(raw.get("defence", 0)),
    )


@cache
def base_tables() -> Tables:
    raw = json.loads(data_dir("armageddon", "rules.json").read_text(encoding="utf-8"))
    numbers = {k: int(v) for k, v in raw.items() if isinstance(v, int) and not isinstance(v, bool)}
    kinds = {name: _kind(name, spec) for name, spec in raw["kinds"].items()}
    spells = {
        name: Spell(
            name,
            frozenset(spec["acts_on"]),
            str(spec["state"]),
            bool(spec.get("foreign_only", False)),
        )
        for name, spec in raw["spells"].items()
    }
    return Tables(numbers, {str(k): int(v) for k, v in raw["capacity"].items()}, kinds, spells)


def tables_with(overrides: tuple[tuple[str, int], ...]) -> Tables:
    base = base_tables()
    if not overrides:
        return base
    capacity = dict(base.capacity)
    numbers = dict(base.numbers)
    for key, value in overrides:
        if key.startswith("capacity_"):
            capacity[key.removeprefix("capacity_")] = value
        else:
            numbers[key] = value
    return Tables(numbers, capacity, base.kinds, base.spells)
