"""Telperinquár booster draft: picks per CPU second (pods of eight heuristic bots, three
rounds of 10-card boosters, every pick through the engine's apply) and bot-vs-bot games per
CPU second with the decks built from those picks.

``TELPERINQUAR_DRAFTS`` sets the pods (default 4). Seeds are fixed, so the figures reproduce.
Times are CPU seconds of the process."""

from __future__ import annotations

import os
import random
import time

from bench.common import Figure
from engines.telperinquar.__main__ import play_game
from engines.telperinquar.draft import DRAFT_ENGINE, build_draft_deck, picks_of

PODS = int(os.environ.get("TELPERINQUAR_DRAFTS", "4"))
SEATS = 8


def _draft(seed: int) -> tuple[list[str], int]:
    rng = random.Random(seed)
    state = DRAFT_ENGINE.initial_state({}, seed, SEATS)
    picks = 0
    while DRAFT_ENGINE.outcome(state) is None:
        for decision in DRAFT_ENGINE.decisions(state):
            action = DRAFT_ENGINE.choose_action(state, decision.seat, "normal", 1.0, rng)
            state, _ = DRAFT_ENGINE.apply(state, action, decision.seat)
            picks += 1
    return [build_draft_deck(picks_of(state, s)) for s in range(SEATS)], picks


def run() -> list[Figure]:
    started = time.process_time()
    pods = []
    picks = 0
    for seed in range(PODS):
        decks, count = _draft(seed)
        pods.append(decks)
        picks += count
    draft_cpu = time.process_time() - started
    started = time.process_time()
    games = 0
    for seed, decks in enumerate(pods):
        for pair in range(0, SEATS, 2):
            play_game("duel", seed * SEATS + pair, ["normal", "normal"], decks[pair : pair + 2])
            games += 1
    game_cpu = time.process_time() - started
    return [
        Figure("telperinquar draft: picks per CPU second (8 bots)", picks / draft_cpu, "picks/s",
               200.0, higher_is_better=True),
        Figure("telperinquar draft: drafted-deck games per CPU second", games / game_cpu,
               "games/s", 5.0, higher_is_better=True),
    ]  # fmt: skip
