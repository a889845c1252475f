"""Command line of the Essence engine.

``python -m engines.essence successors "<position>"`` prints every distinct position one step
away (sorted, one per line); ``python -m engines.essence perft "<position>" N`` prints the
number of paths of N steps through distinct successors. ``start`` (optionally ``start quick``
or ``start bestimmt,schleife``) stands for a start position.

``python -m engines.essence engine --level easy|normal|hard|greedy [--seed N]`` lets the bot
play against other programs, the way chess and Go engines speak a line protocol:

- it reads one position per line from stdin, in the notation of ``data/essence/RULES.md``
  section 3 (``start`` and ``start quick`` are accepted too; blank lines are skipped);
- for each it writes exactly one line to stdout and flushes it: the position after the one
  step it chooses for the side to act (a growth or one action; a whole turn is two or three
  lines, the driver sends the answer back to get the next step);
- a line it cannot answer (unreadable, or a finished game) gets one line
  ``error <key> <name>=<value> ...`` on stdout instead (the key as in
  ``data/i18n/essence.json``, e.g. ``error essence.error.bad_position reason=fields``), and
  the engine reads on; so every non-blank line in gets one line out and a driver never
  loses step;
- end of input ends it (exit status 0).

The answer depends only on the level, the seed (default 0) and the position, so a session
replays exactly.
"""

from __future__ import annotations

import argparse
import sys
import zlib
from typing import TextIO

from engines.core.errors import BadInput, EngineError
from engines.essence.ai import LEVELS, choose_step
from engines.essence.board import Position, from_fen, normalize_variants, start_position, to_fen
from engines.essence.engine import ENGINE
from engines.essence.rules import perft, successors

USAGE = (
    'usage: python -m engines.essence (successors "<position>" | perft "<position>" N'
    " | engine --level LEVEL [--seed N])"
)


def _position(text: str) -> Position:
    words = text.split()
    if words and words[0] == "start":
        quick = "quick" in words[1:]
        names = [n for w in words[1:] if w != "quick" for n in w.split(",")]
        return start_position(quick, normalize_variants(names))
    return from_fen(text)


def answer(line: str, level: str, seed: int) -> str:
    """The engine's reply to one input line: the position after its step, or an error line."""
    try:
        state = _position(line)
        step_seed = seed ^ zlib.crc32(to_fen(state).encode())
        action = choose_step(state, level, step_seed)
        after, _events = ENGINE.apply(state, action, state.side)
    except EngineError as error:
        # The parameters minus the echoed input (the driver has its own line).
        params = [f"{name}={_one_line(value)}" for name, value in error.params.items()]
        return " ".join(["error", error.key, *(p for p in params if not p.startswith("text="))])
    return to_fen(after)


def _one_line(value: object) -> str:
    return " ".join(str(value).split()).replace(" ", "_")


def serve(level: str, seed: int, lines: TextIO, out: TextIO) -> None:
    """Answer every non-blank line of ``lines`` on ``out`` until end of input."""
    for line in lines:
        if line.strip():
            out.write(answer(line.strip(), level, seed) + "\n")
            out.flush()


def _engine(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m engines.essence engine")
    parser.add_argument("--level", choices=LEVELS, required=True)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args(argv)
    serve(options.level, options.seed, sys.stdin, sys.stdout)
    return 0


def main(argv: list[str]) -> int:
    if argv and argv[0] == "engine":
        return _engine(argv[1:])
    try:
        if len(argv) == 2 and argv[0] == "successors":
            for line in sorted(to_fen(p) for p in successors(_position(argv[1]))):
                print(line)
            return 0
        if len(argv) == 3 and argv[0] == "perft" and argv[2].isdigit():
            print(perft(_position(argv[1]), int(argv[2])))
            return 0
    except BadInput as error:
        print(f"{error.key}: {error.params}", file=sys.stderr)
        return 2
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
