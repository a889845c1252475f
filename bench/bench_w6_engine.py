"""W6 engine speed: one combat step among 10 participants (pure engine time, including the
undo snapshot the reducer keeps), a whole attack exchange, and sheet derivation/import."""

from __future__ import annotations

from bench.common import Figure, latency_figures, time_ms
from engines.w6 import (
    apply,
    derive,
    fighter_from_sheet,
    join_action,
    make,
    new_combat,
    sheet_from_json,
    sheet_to_json,
)
from engines.w6.sheet_io import npc_sheet

GM = 1


def _sheet(index: int) -> dict[str, object]:
    data = sheet_to_json(npc_sheet(f"Kämpfer {index}", 40, 12, index % 7, 2, "Axt", "2-3", 3))
    data.update(
        {
            "pm": {"K": 6, "G": 4, "M": 5, "B": 5},
            "eigenschaften": {"Intuition": index % 4, "Kraft": 5, "Geschick": 11, "Wahrnehmung": 8},
            "fertigkeiten": {"Spaltwaffen": 3, "Schildkampf": 1, "Zähigkeit": 1},
            "handlungen": [6, 9, 12, 16, 20],
            "ruestung": [
                {"name": "Helm", "zone": "Kopf", "rs": 2, "be": 0},
                {"name": "Kette", "zone": "Torso", "rs": 4, "be": 2},
            ],
            "schild": {"name": "Schild", "kw_bonus": 2, "be": 1, "block": 3, "rs": 1},
            "fix": {},
        }
    )
    return data


def _combat():  # type: ignore[no-untyped-def]
    state = new_combat(GM, seed=42)
    for index in range(10):
        fighter = fighter_from_sheet(sheet_from_json(_sheet(index)), f"f{index}", None)
        state, _ = apply(state, join_action(fighter), GM)
    state, _ = apply(state, make("beginnen"), GM)
    return state


def run() -> list[Figure]:
    state = _combat()
    attacker = state.current
    target = next(f.id for f in state.fighters if f.id != attacker)
    attack = make("angriff", attacker, (target,), kw=4)
    announced, _ = apply(state, attack, GM)
    defence = make("abwehr", target, (), kw=3)
    step = time_ms(lambda: apply(state, attack, GM), runs=2000)
    answer = time_ms(lambda: apply(announced, defence, GM), runs=2000)
    raw = _sheet(3)
    sheet = sheet_from_json(raw)
    derivation = time_ms(lambda: derive(sheet), runs=5000)
    parsing = time_ms(lambda: sheet_from_json(raw), runs=2000)
    return [
        *latency_figures("w6 combat step, 10 fighters (announce attack)", step, 5.0),
        *latency_figures("w6 combat step, 10 fighters (defence + rolls)", answer, 5.0),
        *latency_figures("w6 sheet derivation", derivation, 0.5),
        *latency_figures("w6 sheet JSON import + validation", parsing, 2.0),
    ]
