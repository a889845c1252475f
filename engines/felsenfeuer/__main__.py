"""Command line.

``python -m engines.felsenfeuer spells [--json]`` prints the spellbook;
``python -m engines.felsenfeuer validate FILE`` checks a spell file (exit 0 when sound, 1 with
each mistake as ``FILE: line N: <spell>: <what>``); ``validate --upload FILE`` checks it as a
group's own spell file is checked on upload (``spellbook_with``: also the size and every spell's
own test against the merged book);
``python -m engines.felsenfeuer selfplay --players N [--teams 0,1,0,1] [--mode pentagramm|gilde]
[--rules adept|magister] [--levels normal,hard] [--auswahl draft] [--weltentor] [--spells FILE]
--games G --seed S`` plays bot games to the end (``--spells``: with a group's own spell file)
and prints each result and a summary (exit 1 on any error);
``python -m engines.felsenfeuer balance [--games G] [--players 2,3] [--levels hard] [--rounds R]
[--duo-rounds R] [--seed S]`` reports how duels end, attacks landed and colour win rates
(engines.felsenfeuer.balance).
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

from engines.core import match as m
from engines.core.errors import BadInput
from engines.effects import load_toml
from engines.felsenfeuer.ai import choose
from engines.felsenfeuer.balance import report
from engines.felsenfeuer.engine import ENGINE
from engines.felsenfeuer.spells import LANGUAGE, check_sphere, load_file, spellbook
from engines.felsenfeuer.uploads import spellbook_with


def _spells(as_json: bool) -> int:
    book = sorted(spellbook().values(), key=lambda s: (s.colour, s.pips, s.name))
    if as_json:
        print(json.dumps([s.summary() for s in book], ensure_ascii=False, indent=1))
        return 0
    for s in book:
        marks = ("*" if s.star else " ") + ("B" if s.blood else " ") + ("R" if s.ritual else " ")
        print(f"{s.name:<16} {{{s.colour}{s.pips}}} {marks} {s.text_de}")
    return 0


def _validate(path: str, upload: bool = False) -> int:
    file = Path(path)
    if not file.is_file():
        print(f"{path}: no such file", file=sys.stderr)
        return 1
    text = file.read_text(encoding="utf-8")
    if upload:
        try:
            book = spellbook_with(text)
        except BadInput as refused:
            problem, count = refused.params["problem"], refused.params["count"]
            if "line" in refused.params:
                problem = f"line {refused.params['line']}: {problem}"
            print(f"{path}: {problem} ({count} mistake(s))")
            return 1
        print(f"{path}: sound; the merged spellbook has {len(book)} spells")
        return 0
    if "[[sphere]]" in text:
        items, errors = load_toml(text, LANGUAGE, table="sphere", check_item=check_sphere)
        count = f"{len(items)} sphere(s)"
    else:
        spells, errors = load_file(file)
        count = f"{len(spells)} spell(s)"
    for error in errors:
        print(f"{path}: {error}")
    if errors:
        return 1
    print(f"{path}: {count}, no mistakes")
    return 0


def play_game(config: dict[str, Any], players: int, seed: int, levels: list[str]) -> m.Match:
    match = m.start(ENGINE, config, seed, players)
    rng = random.Random(seed)
    for _ in range(20_000):
        if m.outcome(ENGINE, match) is not None:
            return match
        decision = m.decisions(ENGINE, match)[0]
        seat = decision.seat
        action = choose(match.state, seat, levels[seat % len(levels)], rng)
        match, _events = m.apply(ENGINE, match, ENGINE.action_text(action), seat)
    raise RuntimeError("the game did not end")


def _selfplay(args: argparse.Namespace) -> int:
    config: dict[str, Any] = {"rules": args.rules, "auswahl": args.auswahl}
    if args.weltentor:
        config["weltentor"] = True
    if args.teams:
        config["teams"] = [int(t) for t in args.teams.split(",")]
    if args.mode:
        config["mode"] = args.mode
    if args.spells:
        config["spells"] = Path(args.spells).read_text(encoding="utf-8")
    levels = args.levels.split(",")
    wins: Counter[str] = Counter()
    failed = 0
    for game in range(args.games):
        seed = args.seed + game
        try:
            match = play_game(config, args.players, seed, levels)
        except Exception:  # a report, not a crash: every game is tried
            failed += 1
            print(f"game {game} seed {seed}: ERROR")
            traceback.print_exc()
            continue
        result = m.outcome(ENGINE, match)
        assert result is not None
        state = match.state
        label = ",".join(str(s) for s in sorted(result.winners)) or "draw"
        wins[label] += 1
        print(f"game {game} seed {seed}: winners {label} ({result.reason}), "
              f"{state.phases} spell phases, eliminated {list(result.eliminated)}")  # fmt: skip
    summary = ", ".join(f"{k}: {v}" for k, v in sorted(wins.items()))
    print(f"{args.games} games, {failed} errors; winners {summary}")
    return 1 if failed else 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m engines.felsenfeuer")
    sub = parser.add_subparsers(dest="command", required=True)
    spells = sub.add_parser("spells")
    spells.add_argument("--json", action="store_true")
    validate = sub.add_parser("validate")
    validate.add_argument("file")
    validate.add_argument("--upload", action="store_true")
    selfplay = sub.add_parser("selfplay")
    selfplay.add_argument("--players", type=int, default=2)
    selfplay.add_argument("--teams", default="")
    selfplay.add_argument("--mode", default="", choices=["", "pentagramm", "gilde"])
    selfplay.add_argument("--rules", default="adept", choices=["adept", "magister"])
    selfplay.add_argument("--levels", default="normal")
    selfplay.add_argument("--auswahl", default="sealed", choices=["sealed", "draft"])
    selfplay.add_argument("--weltentor", action="store_true")
    selfplay.add_argument("--spells", default="")
    selfplay.add_argument("--games", type=int, default=1)
    selfplay.add_argument("--seed", type=int, default=0)
    balance = sub.add_parser("balance")
    balance.add_argument("--games", type=int, default=10)
    balance.add_argument("--players", default="2,3")
    balance.add_argument("--levels", default="hard")
    balance.add_argument("--rounds", type=int, default=2)
    balance.add_argument("--duo-rounds", type=int, default=1)
    balance.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.command == "spells":
        return _spells(args.json)
    if args.command == "validate":
        return _validate(args.file, args.upload)
    if args.command == "balance":
        players = [int(n) for n in args.players.split(",") if n]
        for line in report(args.games, args.seed, args.levels, players, args.rounds,
                           args.duo_rounds):  # fmt: skip
            print(line, flush=True)
        return 0
    return _selfplay(args)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
