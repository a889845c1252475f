"""An independent one-ply greedy Felsenfeuer player, the yardstick of the bots' strength.

Written from the public engine contract only (``engines.core.contract``: ``legal_actions``,
``apply``, ``view_for``, ``outcome``) and the spell texts players read (the spellbook's
``summary()``: name, colour, pips, ``text_de``), never from the project's bots: it shares no
code, no weights and no helpers with ``engines.felsenfeuer.ai``. Each action is applied once
and the position after it is judged from the seat's own view:

- essence: its own essence points minus those of its opponents (every seat of another team),
  ten per point; a finished duel is won or lost;
- protection: a 5 of its own on the matrix its essences stand on (a warded seat) is worth
  four; its attacks are worth more while some opponent is unwarded;
- attacks by spell text: each of its glyphs is worth the attacks ("Greife ... an", "jeden
  Gegner", "zweimal") and essence losses ("verliert") of the best spell it could cast with
  that colour and pips; a spell of its own about to run counts the same way.

Ties are broken by the seat's own ``random.Random``, so a duel replays from its seed. The
sealed Auswahl (hundreds of codes) and other long lists are sampled: the greedy player judges
at most ``SAMPLE`` actions per decision, the "ende"/"keiner" answers always among them."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from engines.core.contract import Engine, registry

SAMPLE = 40
_ATTACK = re.compile(r"\bgreif\w*\b", re.IGNORECASE)
_LOSS = re.compile(r"\bverlier\w*\b", re.IGNORECASE)


def _engine() -> Engine[Any, Any]:
    import engines.felsenfeuer  # noqa: F401  (registers the engine)

    return registry()["felsenfeuer"]


Book = tuple[dict[str, Any], ...]


@cache
def _book(spells: str = "") -> Book:
    """Every spell as players read it (``summary()``): what the greedy player knows."""
    from engines.felsenfeuer.spells import book_for

    return tuple(s.summary() for s in book_for(spells).values())


def text_value(text: str, opponents: int) -> float:
    """Attacks and essence losses a spell's German text promises (per opponent reached)."""
    value = 0.0
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        weight = 0.4 if sentence.lower().startswith("falls") else 1.0  # seldom holds
        hits = len(_ATTACK.findall(sentence)) + 1.5 * len(_LOSS.findall(sentence))
        if "du verlierst" in sentence.lower():
            hits -= 2.5  # the caster's own loss
        if not hits:
            continue
        if "zweimal" in sentence or "noch einmal" in sentence:
            hits *= 2
        if "jede" in sentence.lower() or "alle" in sentence.lower():
            hits *= opponents
        value += weight * hits
    return value


def _best_spell(book: Book, adept: bool, colour: str, pips: int, opponents: int) -> float:
    fits = [s for s in book if s["colour"] == colour and s["pips"] == pips]
    values = [text_value(s["text_de"], opponents) for s in fits if s["star"] or not adept]
    return max(values, default=0.0)


def judge(view: Mapping[str, Any], seat: int, book: Book = ()) -> float:
    """How good the position in ``view`` (``seat``'s own) is for ``seat``; ``book`` the spells
    as players read them (default: the shipped spellbook)."""
    book = book or _book()
    adept = view["rules"] == "adept"
    seats = view["seats"]
    mine = seats[seat]
    if view["phase"] == "end":
        winners = set(view["winners"])
        return 0.0 if not winners else (10_000.0 if seat in winners else -10_000.0)
    foes = [s for s in seats if s["team"] != mine["team"] and not s["out"]]
    own = mine["essence_points"] if not mine["out"] else 0
    score = 10.0 * (own - sum(f["essence_points"] for f in foes))
    score -= 60.0 * len(foes)  # every opponent knocked out is a step to the win

    def warded(s: Mapping[str, Any]) -> bool:
        return any(d["owner"] == s["seat"] and d["zone"] == "matrix" and d["pips"] == 5
                   and d["matrix"] == s["marker"] for d in view["dice"])  # fmt: skip

    if warded(mine):
        score += 4.0
    open_foes = sum(1 for f in foes if not warded(f))
    reach = max(1, len(foes))
    attack_worth = 3.0 if open_foes else 1.0
    for d in view["dice"]:
        if d["owner"] == seat and d["zone"] == "matrix" and d["glyph"]:
            colours = d["counts_as_colours"] or [d["colour"]]
            best = max(_best_spell(book, adept, c, d["pips"], reach) for c in colours)
            score += attack_worth * best
    spells = {s["slug"]: s for s in book}
    for item in view["stack"]:
        if item["kind"] == "spell" and item["caster"] == seat and item.get("spell") in spells:
            score += attack_worth * text_value(spells[item["spell"]]["text_de"], reach)
    return score


def choose(state: Any, seat: int, rng: random.Random) -> Any:
    """The greedy player's action for ``seat``: the best of its legal actions one ply ahead."""
    engine = _engine()
    acts = list(engine.legal_actions(state, seat))
    if not acts:
        raise ValueError("no decision of this seat is open")
    if len(acts) == 1:
        return acts[0]
    book = _book(_spells(state))
    view = engine.view_for(state, seat)
    if view["phase"] == "auswahl":
        return _auswahl(engine, acts, book, view, rng)
    if len(acts) > SAMPLE:
        keep = [a for a in acts if engine.action_text(a) in ("ende", "wahl keiner")]
        acts = keep + rng.sample([a for a in acts if a not in keep], SAMPLE - len(keep))
    best: tuple[float, float, Any] | None = None
    for act in acts:
        after, _events = engine.apply(state, act, seat)
        outcome = engine.outcome(after)
        if outcome is not None:
            score = 0.0 if outcome.is_draw else (1e5 if seat in outcome.winners else -1e5)
        else:
            score = judge(engine.view_for(after, seat), seat, book)
        entry = (score, rng.random(), act)
        if best is None or entry[:2] > best[:2]:
            best = entry
    assert best is not None
    return best[2]


def _auswahl(
    engine: Engine[Any, Any],
    acts: list[Any],
    book: Book,
    view: Mapping[str, Any],
    rng: random.Random,
) -> Any:
    """The sealed Auswahl, judged by the spell texts alone: each die is worth the mean
    attack value of its colour's spells over the pips 1-6 (a colour's character)."""
    adept = view["rules"] == "adept"
    reach = max(1, sum(1 for s in view["seats"] if s["team"] != view["seats"][0]["team"]) or 1)
    colours = ("gruen", "grau", "rot", "schwarz", "violett")  # the code's order (the rules)
    worth = [sum(_best_spell(book, adept, c, p, reach) for p in range(1, 7)) / 6 for c in colours]
    best: tuple[float, float, Any] | None = None
    for act in acts:
        words = engine.action_path(act)[1:]  # ("gruen2", "grau0", ...)
        counts = [int(w[len(c) :]) for w, c in zip(words, colours, strict=True)]
        score = sum(n * v for n, v in zip(counts, worth, strict=True))
        entry = (score, rng.random(), act)
        if best is None or entry[:2] > best[:2]:
            best = entry
    assert best is not None
    return best[2]


def _spells(state: Any) -> str:
    """A group's own spell file, which the duel's config gave (the table knows its book)."""
    settings = getattr(state, "settings", None)
    return str(getattr(settings, "spells", "") or "")
