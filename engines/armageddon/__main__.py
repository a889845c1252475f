"""Command line.

``python -m engines.armageddon moves SCENARIO`` prints every legal movement step of the party
to act at the start of round 1 (SCENARIO: a shipped name or a file path), one per line, sorted.
``python -m engines.armageddon perft SCENARIO N`` counts the sequences of N movement actions.
``python -m engines.armageddon selfplay SCENARIO --games G --seed S [--rounds R]`` plays random
legal actions of every open decision (the game master's overrules included) to the end and
checks after every step that no place holds more than its room unless an overcrowding is being
resolved; exit 1 on any error.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

from engines.armageddon.engine import ENGINE
from engines.armageddon.rules import overcrowded
from engines.armageddon.scenario import load, parse
from engines.armageddon.setup_phase import new_state
from engines.armageddon.state import State
from engines.core.errors import EngineError

USAGE = (
    "usage: python -m engines.armageddon (moves SCENARIO | perft SCENARIO N | "
    "selfplay SCENARIO --games G --seed S [--rounds R])"
)


def _text(name: str) -> tuple[str, str]:
    path = Path(name)
    if path.suffix == ".txt" and path.is_file():
        return path.read_text(encoding="utf-8"), path.name
    return load(name)


def started(name: str, seed: int = 0, rounds: int | None = None) -> State:
    """The scenario after the game master's ``start``."""
    text, file = _text(name)
    sc = parse(text, file)
    state = new_state(text, file, seed, sc.parties + 1, rounds)
    while state.crowds:  # a placement error in the file: its party removes figures
        seat = state.crowds[0][1]
        state, _e = ENGINE.apply(state, ENGINE.legal_actions(state, seat)[0], seat)
    state, _e = ENGINE.apply(state, ENGINE.parse_action("start"), 0)
    return state


def movement_steps(state: State) -> list[str]:
    verbs = {"step", "up", "down", "mount", "dismount", "lead", "release", "climb", "swap", "face"}
    return sorted(
        ENGINE.action_text(a) for a in ENGINE.legal_actions(state, state.active) if a.verb in verbs
    )


def perft(state: State, depth: int) -> int:
    """The number of sequences of ``depth`` movement actions (steps, mounting, turning,
    swaps; not ``end``) the party to act can play from ``state``."""
    if depth == 0:
        return 1
    total = 0
    for action in ENGINE.legal_actions(state, state.active):
        if action.verb == "end":
            continue
        child, _events = ENGINE.apply(state, action, state.active)
        total += perft(child, depth - 1) if child.active == state.active else 1
    return total


def check_capacity(state: State) -> list[str]:
    """Places over their room that no pending resolution covers."""
    pending = {p for p, _q in state.crowds}
    return [p for p in overcrowded(state) if p not in pending]


def selfplay(name: str, games: int, seed: int, rounds: int | None, max_steps: int = 5000) -> int:
    errors = 0
    for game in range(games):
        chooser = random.Random(seed * 1000 + game)
        text, file = _text(name)
        sc = parse(text, file)
        state = new_state(text, file, seed * 1000 + game, sc.parties + 1, rounds)
        steps = 0
        while state.phase != "end" and steps < max_steps:
            decisions = ENGINE.decisions(state)
            decision = chooser.choice(decisions)
            actions = list(ENGINE.legal_actions(state, decision.seat))
            if decision.seat == 0 and state.phase != "setup" and chooser.random() < 0.9:
                continue  # the game master overrules now and then, not at every chance
            action = chooser.choice(actions)
            try:
                state, _events = ENGINE.apply(state, action, decision.seat)
            except EngineError as error:
                print(f"game {game} step {steps}: {ENGINE.action_text(action)}: {error}")
                errors += 1
                break
            bad = check_capacity(state)
            if bad:
                print(f"game {game} step {steps}: over capacity after "
                      f"{ENGINE.action_text(action)}: {bad}")  # fmt: skip
                errors += 1
                break
            steps += 1
        if state.phase != "end":
            print(f"game {game}: not over after {steps} steps")
            errors += 1
        result = ENGINE.outcome(state)
        print(f"game {game}: {steps} steps, round {state.round}, "
              f"winners {sorted(result.winners) if result else None}")  # fmt: skip
    return 1 if errors else 0


def main(argv: list[str]) -> int:
    if argv and argv[0] in ("-h", "--help", "help"):
        print(USAGE)
        print(__doc__)
        return 0
    try:
        if len(argv) == 2 and argv[0] == "moves":
            for line in movement_steps(started(argv[1])):
                print(line)
            return 0
        if len(argv) == 3 and argv[0] == "perft" and argv[2].isdigit():
            print(perft(started(argv[1]), int(argv[2])))
            return 0
        if len(argv) >= 2 and argv[0] == "selfplay":
            opts = dict(zip(argv[2::2], argv[3::2], strict=False))
            if set(opts) - {"--games", "--seed", "--rounds"} or not all(
                v.isdigit() for v in opts.values()
            ):
                print(USAGE, file=sys.stderr)
                return 2
            rounds = int(opts["--rounds"]) if "--rounds" in opts else None
            return selfplay(
                argv[1], int(opts.get("--games", "1")), int(opts.get("--seed", "0")), rounds
            )
    except EngineError as error:
        print(f"{error.key}: {error.params}", file=sys.stderr)
        return 2
    print(USAGE, file=sys.stderr)
    return 2


def run(argv: list[str]) -> int:
    """``main`` for a shell: output piped into ``head`` that stops reading ends the program
    quietly (no BrokenPipeError traceback)."""
    try:
        code = main(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader is gone: send the rest nowhere so the interpreter's last flush is quiet
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 0
    return code


if __name__ == "__main__":
    raise SystemExit(run(sys.argv[1:]))
