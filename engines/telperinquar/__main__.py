"""Command line.

``python -m engines.telperinquar cards [--json] [--extra FILE]`` prints every card (heroes, level
cards, support cards; ``--extra`` adds a user card file in the same format, checked first);
``python -m engines.telperinquar validate FILE [--extra CARDS]`` checks a deck list (exit 0 when
legal, 1 with each reason otherwise); ``python -m engines.telperinquar check-cards FILE`` checks
a user card file (exit 0 when sound, 1 with each mistake as ``FILE: line N: <card>: <what>``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engines.telperinquar.cards import (
    Card,
    card_json,
    catalogue,
    check_extra,
    heroes,
    load_cards_text,
)
from engines.telperinquar.decks import describe, parse_list, problem, validate


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
    args = parser.parse_args(argv)
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
        classes = " / ".join(heroes()[c].name for c in info.classes)
        print(f"{args.file}: {describe(problem('tq.deck.legal', classes=classes), args.lang)}")
    return 0 if info.legal else 1


if __name__ == "__main__":
    sys.exit(main())
