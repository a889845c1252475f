"""Telperinquár images: the time to draw the field (p50 against the 150 ms target, and p99)
of real duel and 2 vs 2 states reached by bot moves, a single card, a hand of seven and a deck
summary.

``TQRENDER_RUNS`` sets the samples per figure (default 40). The seeds are fixed, so the
states drawn are the same on every run; times are wall milliseconds of one PNG each
(drawing and encoding), on a machine shared with other work: run it with ``nice``."""

from __future__ import annotations

import os
import random
import statistics
from itertools import cycle
from typing import Any

from bench.common import Figure, percentile, time_ms
from bot.render.telperinquar import card_png, deck_png, field_png, hand_png
from engines.telperinquar.cards import builtin_cards
from engines.telperinquar.decks import starter
from engines.telperinquar.engine import ENGINE

RUNS = int(os.environ.get("TQRENDER_RUNS", "40"))
NAMES = ["Alrik", "Borbarad", "Cassia", "Dschinn"]
FIELD_P50_MS = 150.0


def _views(mode: str, seed: int, every: int = 6) -> list[dict[str, Any]]:
    """Spectator views of every ``every``-th state of a bot game."""
    players = 2 if mode == "duel" else 4
    state = ENGINE.initial_state({"mode": mode}, seed, players)
    rng = random.Random(seed)
    views = []
    for step in range(400):
        if ENGINE.outcome(state) is not None:
            break
        (decision,) = ENGINE.decisions(state)
        action = ENGINE.choose_action(state, decision.seat, "normal", 1.0, rng)
        state, _ = ENGINE.apply(state, action, decision.seat)
        if step % every == 0:
            views.append(ENGINE.view_for(state, None))
    return views


def _field(mode: str) -> list[Figure]:
    views = cycle(_views(mode, 7))
    seats = 2 if mode == "duel" else 4
    samples = time_ms(lambda: field_png(next(views), "de", names=NAMES[:seats]), RUNS, 3)
    return [
        Figure(f"tq field image {mode}: render p50", statistics.median(samples), "ms",
               FIELD_P50_MS),
        Figure(f"tq field image {mode}: render p99", percentile(samples, 99), "ms"),
    ]  # fmt: skip


def _others() -> list[Figure]:
    cards = cycle(builtin_cards())
    card = time_ms(lambda: card_png(next(cards), "de"), RUNS, 3)
    view = ENGINE.view_for(ENGINE.initial_state({"mode": "duel"}, 1, 2), 0)
    hand = time_ms(lambda: hand_png(view, 0, "en"), max(5, RUNS // 4), 1)
    entries = dict(starter("kaempfer").entries)
    deck = time_ms(lambda: deck_png(entries, "de", title="Starter"), max(5, RUNS // 4), 1)
    return [
        Figure("tq card image: render p50", statistics.median(card), "ms", 50.0),
        Figure("tq card image: render p99", percentile(card, 99), "ms"),
        Figure("tq hand of seven: render p50", statistics.median(hand), "ms", 300.0),
        Figure("tq deck summary: render p50", statistics.median(deck), "ms", 150.0),
    ]


def run() -> list[Figure]:
    return [*_field("duel"), *_field("2v2"), *_others()]
