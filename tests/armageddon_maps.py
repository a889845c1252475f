"""Random Armageddon scenarios for the generic kit and the self-play checks: a small seeded
map with every terrain, heights, rivers with a bridge, a walled Stellung with a gate and a
tower, a Handelszentrum, and a mixed army per party."""

from __future__ import annotations

import random

from engines.armageddon.hexmap import DIRECTIONS, field_name

_KINDS = (
    "krieger",
    "krieger",
    "krieger",
    "lanze",
    "phalanx",
    "pferd",
    "elefant",
    "widder",
    "leiter",
)


def random_scenario(seed: int, parties: int = 2, cols: int = 7, rows: int = 6) -> str:
    rng = random.Random(seed)
    lines = [f"name: Zufall {seed}", f"parteien: {parties}", "runden: 3", "karte:"]
    terrain: dict[str, str] = {}
    for r in range(rows):
        row = []
        for c in range(cols):
            letter = rng.choice("TTTTHHBWS")
            height = rng.choice("0001") if letter in "HB" else ""
            terrain[field_name(c, r)] = letter
            row.append(letter + height)
        lines.append(("  " if r % 2 else "") + "  ".join(row))
    lines.append("ende")
    # a river along one column with a bridge
    river_col = rng.randrange(2, cols - 2)
    for r in range(rows):
        lines.append(f"fluss: {field_name(river_col, r)} o")
    lines.append(f"bruecke: {field_name(river_col, rng.randrange(rows))} o")
    # a one-field Stellung with walls all round and a gate, holding a tower
    keep_c, keep_r = rng.randrange(1, cols - 1), rng.randrange(1, rows - 1)
    keep = field_name(keep_c, keep_r)
    gate = rng.choice(DIRECTIONS)
    for d in DIRECTIONS:
        lines.append(f"tor: {keep} {d} innen {keep}" if d == gate else f"mauer: {keep} {d}")
    lines.append(f"turm: {keep} 2 besitzer 1")
    lines.append(f"stellung: Feste besitzer 1 felder {keep}")
    others = [f for f in terrain if f != keep]
    lines.append(f"handelszentrum: {rng.choice(others)} besitzer {rng.randrange(1, parties + 1)}")
    taken: dict[str, int] = {}
    number = 0
    for party in range(1, parties + 1):
        for _ in range(rng.randrange(4, 8)):
            kind = rng.choice(_KINDS)
            spot = rng.choice(others)
            if terrain[spot] in "SWB" and kind in ("elefant", "widder", "leiter"):
                kind = "krieger"
            if taken.get(spot, 0) >= 2:
                continue
            taken[spot] = taken.get(spot, 0) + (2 if kind == "elefant" else 1)
            lines.append(f"figur: {party} {kind} {spot}")
            number += 1
            if kind in ("pferd", "elefant", "widder", "leiter"):
                lines.append(
                    f"figur: {party} krieger {spot}"
                    + (f" auf {number}" if kind in ("pferd", "elefant") else "")
                )
                number += 1
        lines.append(f"figur: {party} zauberer {rng.choice(others)}")
        number += 1
        lines.append(f"reserve: {party} krieger 1")
    lines.append(f"figur: 1 krieger {keep} ebene 2")
    return "\n".join(lines) + "\n"
