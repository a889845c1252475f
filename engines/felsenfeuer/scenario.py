"""Scenarios for tests and spell tests: a duel built from short lines, a spell run in it
with scripted answers, and the checks of a spell's ``[spell.test]`` table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engines.felsenfeuer.actions import Wahl
from engines.felsenfeuer.model import (
    Die,
    Entry,
    EntryKind,
    Mode,
    Phase,
    Rules,
    Settings,
    State,
    Zone,
)
from engines.felsenfeuer.resolution import settle
from engines.felsenfeuer.spells import Spell
from engines.felsenfeuer.turns import play
from engines.felsenfeuer.work import Work

# The scenario a spell test starts from unless it brings its own dice: die 0 is the
# Spruchrune (the spell's colour and pips, just triggered); ``extra`` lines are appended.
BASE = (
    "0 {colour} rune {pips}", "0 rot essence 6", "0 gruen essence 5", "1 schwarz essence 3",
    "1 violett essence 6", "0 rot hand", "0 grau bag", "0 gruen rune 3", "0 grau glyph 4",
    "0 violett glyph 2", "1 rot glyph 3", "1 grau glyph 4", "1 gruen rune 2", "1 gruen hand",
    "0 rot rune 2 1",
)  # fmt: skip


def build(lines: Sequence[str], players: int = 2, *, stone: int = 0, rules: str = "magister",
          mode: str = "", teams: tuple[int, ...] = (), spells: str = "") -> State:  # fmt: skip
    """A duel in its action phase from lines ``<seat> <colour> <where> [pips] [matrix]`` with
    where = essence | hand | hand1 | bag | glyph | frozen (a frozen glyph) | rune | float; the
    die id is the line's index."""
    dice = []
    for index, line in enumerate(lines):
        words = line.split()
        seat, colour, where = int(words[0]), words[1], words[2]
        pips = int(words[3]) if len(words) > 3 else 0
        matrix = int(words[4]) if len(words) > 4 else 0
        if where == "essence":
            die = Die(index, seat, colour, Zone.ESSENCE, 0, pips)
        elif where in ("hand", "hand1"):
            die = Die(index, seat, colour, Zone.HAND, hand=1 if where == "hand1" else 0)
        elif where == "bag":
            die = Die(index, seat, colour, Zone.BAG)
        elif where in ("glyph", "frozen", "rune", "float"):
            zone = Zone.FLOAT if where == "float" else Zone.MATRIX
            die = Die(index, seat, colour, zone, matrix, pips, glyph=where in ("glyph", "frozen"),
                      frozen=where == "frozen")  # fmt: skip
        else:
            raise ValueError(f"unknown place {where!r} in {line!r}")
        dice.append(die)
    settings = Settings(
        players, Rules(rules), Mode(mode), teams, supply=(8,) * 5, start=stone, spells=spells
    )
    return State(settings, Phase.ACTION, dice=tuple(dice), markers=(0,) * players,
                 cauldrons=(-1,) * players, stone=stone, auswahl=("",) * players,
                 matrices=1 + max((d.matrix for d in dice), default=0))  # fmt: skip


def cast(state: State, slug: str, caster: int, rune: int) -> tuple[State, list[str]]:
    """``caster`` casts ``slug`` in a spell phase, Spruchrune ``rune`` (triggered already)."""
    w = Work(state)
    w.phase = Phase.SPELL
    if rune >= 0:
        w.make_spruchrune(rune)
    total = sum(w.essence_points(s) for s in range(w.players))
    w.stack = [Entry(EntryKind.END, die=total), Entry(EntryKind.SPELL, spell=slug, caster=caster)]
    w = settle(w)
    return w.freeze(), [e.type for e in w.events]


def answer(state: State, token: str) -> State:
    if state.pending is None:
        raise ValueError(f"no open decision for the answer {token!r}")
    if token not in state.pending.options:
        raise ValueError(f"{token!r} is not one of {list(state.pending.options)}")
    state, _ = play(state, Wahl(token), state.pending.seat)
    return state


def answer_rest(state: State, limit: int = 200) -> State:
    """Every further open decision answered with its first option."""
    for _ in range(limit):
        if state.pending is None:
            return state
        state = answer(state, state.pending.options[0])
    raise ValueError("decisions without end")


def _actual(state: State, key: str) -> Any:
    w = Work(state)
    if key.startswith("essence."):
        return w.essence_points(int(key.split(".")[1]))
    if key.startswith("cauldron."):
        return state.cauldrons[int(key.split(".")[1])]
    if key == "matrices":
        return state.matrices
    if key == "winners":
        return list(state.winners)
    if key == "phase":
        return state.phase
    if key == "spell_rune":
        return state.spell_rune
    die, field = key.split(".")
    return getattr(state.dice[int(die[1:])], field)


def run_spell_test(spell: Spell, spells: str = "") -> list[str]:
    """The mismatches of ``spell``'s own test (empty: it passed); ``spells``: the duel's own
    spell file (config ``spells``) the spell comes from."""
    test = spell.test
    if not test:
        return [f"{spell.name}: no [spell.test]"]
    lines = test.get("dice") or [line.format(colour=spell.colour, pips=spell.pips)
                                 for line in BASE]  # fmt: skip
    teams = tuple(int(t) for t in test.get("teams", ()))
    state = build([*lines, *test.get("extra", [])], players=len(teams) or 2,
                  rules=test.get("rules", "magister"), teams=teams, spells=spells)  # fmt: skip
    state, _ = cast(state, spell.slug, int(test.get("caster", 0)), int(test.get("rune", 0)))
    for token in test.get("answers", []):
        state = answer(state, str(token))
    state = answer_rest(state)
    problems = []
    for key, expected in test.get("expect", {}).items():
        actual = _actual(state, key)
        if actual != expected:
            problems.append(f"{spell.name}: {key} is {actual!r}, expected {expected!r}")
    if state.stack:
        problems.append(f"{spell.name}: the spell phase did not end")
    return problems


__all__ = ["BASE", "answer", "answer_rest", "build", "cast", "replace", "run_spell_test"]
