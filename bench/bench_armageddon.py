"""Armageddon: legal movement generation for a 40-figure army, one step applied, and the map
image of a 30x30 map (terrain cached after the first image, as in a running game).
``ARMAGEDDON_RUNS=10`` takes fewer samples for a quick look."""

from __future__ import annotations

import os
import time

from bench.common import Figure, latency_figures, time_ms
from bot.render.armageddon import render_map
from engines.armageddon.engine import ENGINE, new_state
from engines.armageddon.state import State
from tests.armageddon_maps import random_scenario

RUNS = int(os.environ.get("ARMAGEDDON_RUNS", "40"))
_ARMY = (
    ["krieger"] * 20 + ["lanze"] * 4 + ["phalanx"] * 4 + ["pferd", "elefant", "widder", "leiter"]
)


def army_state() -> State:
    """Party 1 with 40 figures (riders on horses and an elephant, crews beside ram and
    ladder) on a 16x12 plain with a river and a hill, party 2 with a few warriors."""
    rows = ["  ".join("H1" if 5 <= c <= 7 and 4 <= r <= 6 else "T" for c in range(16))
            for r in range(12)]  # fmt: skip
    lines = ["name: Heer", "parteien: 2", "karte:", *rows, "ende"]
    lines += [f"fluss: j{r} o" for r in range(1, 13)]
    number = 0
    spots = [f"{chr(97 + c)}{r}" for r in range(2, 12) for c in range(1, 8)]
    for i, kind in enumerate(_ARMY):
        spot = spots[(i * 3) % len(spots)]
        lines.append(f"figur: 1 {kind} {spot}")
        number += 1
        if kind in ("pferd", "elefant"):
            lines.append(f"figur: 1 krieger {spot} auf {number}")
            number += 1
        elif kind in ("widder", "leiter"):
            lines.append(f"figur: 1 krieger {spot}")
            number += 1
    while number < 40:
        lines.append(f"figur: 1 krieger {spots[number % len(spots)]}")
        number += 1
    lines += ["figur: 2 krieger o3", "figur: 2 krieger o4", "figur: 2 krieger n5"]
    state = new_state("\n".join(lines) + "\n", "heer", 1, 3)
    return ENGINE.apply(state, ENGINE.parse_action("start"), 0)[0]


def run() -> list[Figure]:
    state = army_state()
    figures = sum(1 for f in state.figures if f.owner == 1)
    actions = ENGINE.legal_actions(state, 1)
    step = next(a for a in actions if a.verb == "step")
    big = new_state(random_scenario(7, 2, cols=30, rows=30), "gross", 1, 3)
    view = ENGINE.view_for(big, None)
    started = time.perf_counter()
    render_map(view)
    first = (time.perf_counter() - started) * 1000
    return [
        *latency_figures(
            f"armageddon legal moves, {figures}-figure army ({len(actions)} actions)",
            time_ms(lambda: ENGINE.legal_actions(state, 1), RUNS, warmup=2),
            50,
        ),
        *latency_figures(
            "armageddon apply one step (with its legality guard)",
            time_ms(lambda: ENGINE.apply(state, step, 1), RUNS, warmup=2),
            100,
        ),
        Figure("armageddon 30x30 map image, first (terrain drawn)", first, "ms", 3000),
        *latency_figures(
            "armageddon 30x30 map image",
            time_ms(lambda: render_map(view), max(3, RUNS // 4), warmup=1),
            1000,
        ),
        *latency_figures(
            "armageddon 30x30 view",
            time_ms(lambda: ENGINE.view_for(big, None), max(3, RUNS // 4), warmup=1),
            300,
        ),
    ]
