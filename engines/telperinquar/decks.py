"""Decks as the plain text list players know (``<count> <card name>`` per line) and their
validation: each problem is a message key (``tq.deck.*`` in data/i18n/telperinquar.json) with
its parameters, so that the CLI, the store and the cog say the same in German and English.
"""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engines.core.content import data_dir
from engines.telperinquar.cards import (
    CLASSES,
    DRAFT,
    Catalogue,
    catalogue,
    hero_of,
    level_card_name,
)

MIN_CARDS = 40
MAX_COPIES = 4
MAX_LINES = 500
MAX_COUNT = 99
COUNT_DIGITS = 6  # a count of thousands of digits is refused before int() (it stops at 4,300)
_LINE = re.compile(r"^\s*(\d+)\s*[xX]?\s+(.+?)\s*$")


@dataclass(frozen=True, slots=True)
class Problem:
    key: str
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.params)

    def text(self) -> str:
        """A plain English line (the CLI; the cog translates ``key``)."""
        return f"{self.key}: " + ", ".join(f"{k}={v}" for k, v in self.params)


def problem(key: str, **params: Any) -> Problem:
    return Problem(key, tuple(params.items()))


@dataclass(frozen=True)
class DeckList:
    """A parsed list: German card names with counts, in the order first named."""

    entries: tuple[tuple[str, int], ...]
    problems: tuple[Problem, ...] = field(default=())  # unreadable lines, unknown names

    def counts(self) -> Counter[str]:
        counter: Counter[str] = Counter()
        for name, count in self.entries:
            counter[name] += count
        return counter


def nearest(name: str, cat: Catalogue, n: int = 3) -> list[str]:
    names = cat.all_names()
    folded = {x.casefold(): x for x in names}
    near = difflib.get_close_matches(name.casefold(), list(folded), n=n, cutoff=0.5)
    return [folded[x] for x in near]


def parse_list(text: str, cat: Catalogue | None = None) -> DeckList:
    """Read a list; blank lines and ``#`` comments are skipped, a count may be written
    ``3x``. English names are accepted and stored under their German name."""
    cat = cat or catalogue()
    entries: dict[str, int] = {}
    problems: list[Problem] = []
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        return DeckList((), (problem("tq.deck.too_long", lines=len(lines), max=MAX_LINES),))
    for number, raw in enumerate(lines, start=1):
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if not line:
            continue
        match = _LINE.match(line)
        if not match:
            problems.append(problem("tq.deck.bad_line", line=number, text=line[:60]))
            continue
        digits, name = match.group(1), match.group(2)
        if len(digits) > COUNT_DIGITS or not 1 <= int(digits) <= MAX_COUNT:
            shown = digits if len(digits) <= COUNT_DIGITS else digits[:COUNT_DIGITS] + "…"
            problems.append(problem("tq.deck.bad_count", line=number, count=shown, max=MAX_COUNT))
            continue
        count = int(digits)
        known = cat.resolve(name)
        if known is None:
            problems.append(unknown_card(name, cat, line=number))
            continue
        entries[known[2]] = entries.get(known[2], 0) + count
    return DeckList(tuple(entries.items()), tuple(problems))


def unknown_card(name: str, cat: Catalogue, line: int = 0) -> Problem:
    """An unknown card: with its line only for an imported list, with the similar names only
    when there are some."""
    near = ", ".join(nearest(name, cat))
    key = "tq.deck.unknown_card" if line else "tq.deck.unknown_name"
    params: dict[str, Any] = {"name": name[:60]}
    if line:
        params["line"] = line
    if near:
        params["near"] = near
    else:
        key += ".far"
    return problem(key, **params)


def export_list(entries: dict[str, int] | tuple[tuple[str, int], ...], cat: Catalogue) -> str:
    """The list text: hero(es) first, then level cards, then support cards by name."""
    items = dict(entries) if not isinstance(entries, dict) else entries

    def order(name: str) -> tuple[int, str]:
        kind = (cat.resolve(name) or ("card", name, name))[0]
        return ({"hero": 0, "level": 1}.get(kind, 2), name.casefold())

    return "".join(f"{items[n]} {n}\n" for n in sorted(items, key=order) if items[n] > 0)


@dataclass(frozen=True)
class DeckInfo:
    """What a legal (or not) deck is: its classes and every problem."""

    classes: tuple[str, ...]
    problems: tuple[Problem, ...]

    @property
    def legal(self) -> bool:
        return not self.problems


def validate(deck: DeckList | dict[str, int], cat: Catalogue | None = None) -> DeckInfo:
    """Every reason ``deck`` is not a legal Kartenset (empty when it is)."""
    cat = cat or catalogue()
    if isinstance(deck, DeckList):
        problems = list(deck.problems)
        counts = deck.counts()
    else:
        problems, counts = [], Counter(deck)
    hero_classes: list[str] = []
    level_counts: Counter[str] = Counter()
    total = 0
    # a deck whose hero is the Draft-Held is a booster draft deck (no limit of copies: the
    # cards are what was picked; RULES.md)
    draft = any((cat.resolve(n) or ("", "", ""))[:2] == ("hero", DRAFT) for n in counts)
    for name, count in counts.items():
        total += count
        known = cat.resolve(name)
        if known is None:
            problems.append(unknown_card(name, cat))
            continue
        kind, key, _ = known
        if kind == "hero":
            hero_classes += [key] * count
        elif kind == "level":
            level_counts[key] += count
        elif count > MAX_COPIES and not draft:
            problems.append(
                problem("tq.deck.too_many_copies", name=name, count=count, max=MAX_COPIES)
            )
    classes = tuple(dict.fromkeys(hero_classes))
    if not hero_classes:
        problems.append(problem("tq.deck.no_hero"))
    elif (
        len(hero_classes) > 2
        or len(classes) != len(hero_classes)
        or (draft and len(hero_classes) > 1)
    ):
        problems.append(
            problem("tq.deck.hero_count", heroes=", ".join(hero_of(c).name for c in hero_classes))
        )
    for cls in classes:
        if level_counts[cls] < 1:
            problems.append(problem("tq.deck.no_level", name=level_card_name(cls)))
    for cls in level_counts:
        if cls not in classes and hero_classes:
            problems.append(problem("tq.deck.foreign_level", name=level_card_name(cls)))
    if total < MIN_CARDS:
        problems.append(problem("tq.deck.too_few", count=total, min=MIN_CARDS))
    return DeckInfo(classes, tuple(problems))


def starter_text(cls: str) -> str:
    """The starter deck list of a class (data/telperinquar/starter/<class>.txt)."""
    if cls not in CLASSES:
        raise KeyError(cls)
    return data_dir("telperinquar", "starter", f"{cls}.txt").read_text(encoding="utf-8")


def starter(cls: str) -> DeckList:
    return parse_list(starter_text(cls))


def describe(item: Problem, lang: str = "de") -> str:
    """``item`` in words from the one catalog (data/i18n/telperinquar.json) for the command
    line, which runs without the bot's translator; the cog uses ``bot.i18n.t`` with the key."""
    entry = _catalog().get(item.key, {})
    template = entry.get(lang) or entry.get("en") or item.key
    return str(template).format(**item.kwargs)


@cache
def _catalog() -> dict[str, dict[str, str]]:
    data: dict[str, dict[str, str]] = {}
    for domain in ("telperinquar", "tqdraft"):
        with open(data_dir("i18n", f"{domain}.json"), encoding="utf-8") as handle:
            data |= json.load(handle)
    return data
