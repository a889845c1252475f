"""Command line.

``python -m engines.telperinquar cards [--json] [--extra FILE]`` prints every card (heroes, level
cards, support cards; ``--extra`` adds a user card file in the same format, checked first);
``python -m engines.telperinquar validate FILE [--extra CARDS]`` checks a deck list (exit 0 when
legal, 1 with each reason otherwise); ``python -m engines.telperinquar check-cards FILE`` checks
a user card file (exit 0 when sound, 1 with each mistake as ``FILE: line N: <card>: <what>``);
``python -m engines.telperinquar selfplay [--mode duel|2v2|draft] --games G --seed S
[--levels a,b]`` plays bot games with the starter decks to the end (``draft``: a pod of four
bots drafts, builds its decks from the picks and plays two duels), prints each result and a
summary (exit 1 on any error); ``python -m engines.telperinquar balance [--games N] [--seed S]
[--levels a,b] [--decks starter|built|both]`` plays every pair of classes and reports rounds,
levels reached, class win rates and the most and least played cards (balance.py).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

from engines.telperinquar.balance import main as balance
from engines.telperinquar.cards import (
    CLASSES,
    Card,
    card_json,
    catalogue,
    check_extra,
    hero_of,
    load_cards_text,
)
from engines.telperinquar.decks import describe, parse_list, problem, validate
from engines.telperinquar.draft import DRAFT_ENGINE, build_draft_deck, picks_of
from engines.telperinquar.engine import ENGINE


def _extra(path: str | None) -> tuple[list[Card], int]:
    if not path:
        return [], 0
    cards, errors = load_cards_text(Path(path).read_text(encoding="utf-8"))
    for error in errors:
        print(f"{path}: {error}", file=sys.stderr)
    for name in check_extra(cards):
        print(f"{path}: {name}: a card of this name exists already", file=sys.stderr)
    return cards, 1 if errors or check_extra(cards) else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engines.telperinquar")
    sub = parser.add_subparsers(dest="command", required=True)
    cards_p = sub.add_parser("cards", help="print every card")
    cards_p.add_argument("--json", action="store_true")
    cards_p.add_argument("--extra", help="a user card file (TOML)")
    val = sub.add_parser("validate", help="check a deck list")
    val.add_argument("file")
    val.add_argument("--extra", help="a user card file (TOML)")
    val.add_argument("--lang", choices=("de", "en"), default="de")
    chk = sub.add_parser("check-cards", help="check a user card file")
    chk.add_argument("file")
    play = sub.add_parser("selfplay", help="bot games with the starter decks")
    play.add_argument("--mode", choices=("duel", "2v2", "draft"), default="duel")
    play.add_argument("--games", type=int, default=10)
    play.add_argument("--seed", type=int, default=1)
    play.add_argument("--levels", default="normal,normal", help="bot level per side")
    bal = sub.add_parser("balance", help="class duels measured: rounds, levels, win rates")
    bal.add_argument("--games", type=int, default=20, help="duels per pair of classes")
    bal.add_argument("--seed", type=int, default=1)
    bal.add_argument("--levels", default="normal,normal", help="bot level per side")
    bal.add_argument("--decks", choices=("starter", "built", "both"), default="both")
    args = parser.parse_args(argv)
    if args.command == "balance":
        return balance(args.games, args.seed, args.levels.split(","), args.decks)
    if args.command == "selfplay":
        return selfplay(args.mode, args.games, args.seed, args.levels.split(","))
    try:
        if args.command == "check-cards":
            _, failed = _extra(args.file)
            if not failed:
                print(f"{args.file}: ok")
            return failed
        extra, failed = _extra(args.extra)
        if failed:
            return 1
        cat = catalogue(extra)
        if args.command == "cards":
            cards = card_json(cat)
            if args.json:
                print(json.dumps(cards, ensure_ascii=False, indent=1))
            else:
                for c in cards:
                    cost = f"{c.get('play', '-')}/{c.get('use', '-')}"
                    print(f"{c['name']:<24} {c['type']:<8} {cost:<6} {c['text_de']}")
            return 0
        text = Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"cannot read: {error}", file=sys.stderr)
        return 1
    info = validate(parse_list(text, cat), cat)
    for p in info.problems:
        print(f"{args.file}: {describe(p, args.lang)}")
    if info.legal:
        classes = " / ".join(hero_of(c).name for c in info.classes)
        print(f"{args.file}: {describe(problem('tq.deck.legal', classes=classes), args.lang)}")
    return 0 if info.legal else 1


def draft_decks(seed: int, seats: int = 4, level: str = "normal") -> list[str]:
    """A pod of bots drafts; each seat's deck list built from its picks."""
    rng = random.Random(seed)
    state = DRAFT_ENGINE.initial_state({}, seed, seats)
    while DRAFT_ENGINE.outcome(state) is None:
        for decision in DRAFT_ENGINE.decisions(state):
            action = DRAFT_ENGINE.choose_action(state, decision.seat, level, 1.0, rng)
            state, _ = DRAFT_ENGINE.apply(state, action, decision.seat)
    return [build_draft_deck(picks_of(state, seat)) for seat in range(seats)]


def play_game(
    mode: str, seed: int, levels: list[str], decks: list[str] | None = None
) -> tuple[Any, int, int]:
    """One bot game to the end: (outcome, actions, rounds)."""
    players = 4 if mode == "2v2" else 2
    classes = list(CLASSES)
    decks = decks or [classes[(seed + s) % 4] for s in range(players)]
    config = {"mode": "2v2" if players == 4 else "duel", "decks": decks, "turn_limit": 400}
    state = ENGINE.initial_state(config, seed, players)
    rng = random.Random(seed)
    steps = 0
    while ENGINE.outcome(state) is None:
        (decision,) = ENGINE.decisions(state)
        level = levels[state.teams[decision.seat] % len(levels)]
        action = ENGINE.choose_action(state, decision.seat, level, 1.0, rng)
        state, _ = ENGINE.apply(state, action, decision.seat)
        steps += 1
    return ENGINE.outcome(state), steps, state.round


def selfplay(mode: str, games: int, seed: int, levels: list[str]) -> int:
    wins: Counter[str] = Counter()
    failed = 0
    pod: list[str] = []
    for number in range(games):
        game_seed = seed + number
        try:
            decks = None
            if mode == "draft":  # each pod of four plays two duels (seats 0-1, 2-3)
                if number % 2 == 0:
                    pod = draft_decks(game_seed)
                    print(f"draft (seed {game_seed}): 4 seats drafted their decks")
                decks = pod[(number % 2) * 2 : (number % 2) * 2 + 2]
            result, steps, rounds = play_game(mode, game_seed, levels, decks)
        except Exception:  # every error is reported and counted
            failed += 1
            print(f"game {number + 1} (seed {game_seed}): ERROR")
            traceback.print_exc()
            continue
        winners = ",".join(str(s) for s in sorted(result.winners)) or "-"
        wins[result.reason if not result.winners else f"side of {winners}"] += 1
        print(
            f"game {number + 1} (seed {game_seed}): {result.reason}, winners {winners}, "
            f"{rounds} rounds, {steps} actions"
        )
    print(
        f"summary: {games} games, {failed} errors, "
        + ", ".join(f"{k}: {v}" for k, v in sorted(wins.items()))
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
