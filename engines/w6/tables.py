"""The rulebook's tables (data/w6/*.json), loaded once and validated.

Raises BadInput("w6.table.invalid", file=...) when a table file is malformed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from engines.core import BadInput
from engines.core.content import data_dir

DATA_DIR = data_dir("w6")


@dataclass(frozen=True, slots=True)
class Zone:
    """One row of the Gezielte-Attacke table."""

    name: str
    erschwernis: int
    abwehr: int
    schaden_faktor: int
    kw_malus: int
    waffe_verloren: bool


@dataclass(frozen=True, slots=True)
class TargetSize:
    """One size class of the ranged-combat table."""

    name: str
    zone_b_mod: int
    erfolge_mod: int


def _load(name: str) -> dict[str, Any]:
    try:
        data = json.loads((DATA_DIR / name).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise BadInput("w6.table.invalid", file=name) from error
    if not isinstance(data, dict):
        raise BadInput("w6.table.invalid", file=name)
    return data


@cache
def zones() -> dict[str, Zone]:
    """Body zones by name (Kopf, Torso, Arme, Hände, Beine)."""
    rows = _load("zonen.json")["zonen"]
    return {
        name: Zone(
            name,
            int(row["erschwernis"]),
            int(row["abwehr"]),
            int(row["schaden_faktor"]),
            int(row["kw_malus"]),
            bool(row["waffe_verloren"]),
        )
        for name, row in rows.items()
    }


@cache
def sizes() -> dict[str, TargetSize]:
    """Target sizes for ranged combat (riesig, gross, mittel, klein, winzig)."""
    rows = _load("fernkampf.json")["groessen"]
    return {
        name: TargetSize(name, int(row["zone_b_mod"]), int(row["erfolge_mod"]))
        for name, row in rows.items()
    }


@cache
def techniques() -> dict[str, Any]:
    """The numbers of the special techniques (see data/w6/techniken.json)."""
    return _load("techniken.json")


def technique(name: str, key: str) -> int:
    """One number of a technique, e.g. ``technique("finte", "abwehr") == 4``."""
    return int(techniques()[name][key])
