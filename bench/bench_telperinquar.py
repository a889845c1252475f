"""Telperinquár: bot-vs-bot games per CPU second (duel and 2 vs 2 with the starter decks,
heuristic bots) and the heuristic bot's win share against the random bot, sides alternating.

``TELPERINQUAR_GAMES`` sets the games per figure (default 20). Seeds are fixed, so the figures
reproduce. Times are CPU seconds of the process playing the games."""

from __future__ import annotations

import os
import time

from bench.common import Figure
from engines.telperinquar.__main__ import play_game

GAMES = int(os.environ.get("TELPERINQUAR_GAMES", "20"))


def _speed(mode: str, target: float) -> list[Figure]:
    started = time.process_time()
    steps = 0
    for seed in range(GAMES):
        _, actions, _ = play_game(mode, seed, ["normal", "normal"])
        steps += actions
    cpu = time.process_time() - started
    return [
        Figure(f"telperinquar {mode}: games per CPU second", GAMES / cpu, "games/s", target,
               higher_is_better=True),
        Figure(f"telperinquar {mode}: actions per game", steps / GAMES, "actions"),
    ]  # fmt: skip


def _match() -> list[Figure]:
    wins = draws = 0
    for seed in range(GAMES):
        strong_side = seed % 2
        levels = ["normal", "random"] if strong_side == 0 else ["random", "normal"]
        result, _, _ = play_game("duel", seed, levels)
        if not result.winners:
            draws += 1
        elif strong_side in result.winners:  # duel: seat s is side s
            wins += 1
    return [
        Figure(f"telperinquar normal vs random: win share ({GAMES} duels)", wins / GAMES * 100,
               "%", 75.0, higher_is_better=True),
        Figure("telperinquar normal vs random: draw share", draws / GAMES * 100, "%"),
    ]  # fmt: skip


def run() -> list[Figure]:
    return [*_speed("duel", 5.0), *_speed("2v2", 2.0), *_match()]
