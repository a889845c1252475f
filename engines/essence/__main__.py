"""Command line: ``python -m engines.essence successors "<position>"`` prints every distinct
position one step away (sorted, one per line); ``python -m engines.essence perft "<position>" N``
prints the number of paths of N steps through distinct successors. ``start`` (optionally
``start quick`` or ``start bestimmt,schleife``) stands for a start position."""

from __future__ import annotations

import sys

from engines.core.errors import BadInput
from engines.essence.board import Position, from_fen, normalize_variants, start_position, to_fen
from engines.essence.rules import perft, successors

USAGE = 'usage: python -m engines.essence (successors "<position>" | perft "<position>" N)'


def _position(text: str) -> Position:
    words = text.split()
    if words and words[0] == "start":
        quick = "quick" in words[1:]
        names = [n for w in words[1:] if w != "quick" for n in w.split(",")]
        return start_position(quick, normalize_variants(names))
    return from_fen(text)


def main(argv: list[str]) -> int:
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
