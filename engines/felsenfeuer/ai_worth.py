"""What a spell is worth to the bots, read from its effects (never from its name), so the bots
judge any spellbook, a group's own included.

A spell's worth is counted in essence points the caster is ahead after it: every sentence's
instructions in order (a conditional sentence by whether it holds now, or by a guess when no
duel is at hand), each by its verb, its players and the dice its selector names. Walls of 5s
decide Felsenfeuer: an attack against a seat with a 5 on the Duellplatz does nothing, so an
attack is worth a point only against an unwarded seat, and what takes a ward away first
(destroying, lowering, taking to hand, moving off, banning, "zählt als" another pips) makes
the attacks after it land; an essence loss ("verliert") needs no way around a 5 at all.
Denying an opponent's glyph (destroy, ban, freeze, take to hand) denies a spell. Blood magic
costs its pips in essence points (``blood_worth``); allies count where a sentence reaches them.

Two probes answer the questions about the table: ``StateProbe`` (the duel as it stands, the
engine's own selectors) and ``TypicalProbe`` (before the duel: every opponent warded, two
glyphs each, the table's seats), used for the Auswahl.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.felsenfeuer import selectors
from engines.felsenfeuer.context import Ctx
from engines.felsenfeuer.model import Entry, EntryKind, State
from engines.felsenfeuer.sentences import (
    Attack,
    Cast,
    CountsAs,
    GainEssence,
    Instruction,
    Lay,
    LoseEssence,
    LowerPips,
    Manifest,
    NewMatrix,
    RaisePips,
    SetPips,
    SwapPips,
    Targeted,
    Win,
)
from engines.felsenfeuer.spells import Spell
from engines.felsenfeuer.work import Work

GLYPH_DENIED = 1.2  # an opponent's spell that will not be cast
GLYPH_SHIFTED = 0.3  # an opponent's glyph that casts something else (pips changed)
WARD_MADE = 0.8  # a 5 of one's own where there was none
EXTRA_SPELL = 1.2  # an own glyph triggered or made again, a spell cast at once
ATTACK_WARDED = 0.03  # an attack on a warded seat (an effect may still change that)
LIKELY = 0.25  # a condition nobody can judge before the duel
WIN = 10.0  # a spell that declares the caster the winner (when its condition holds)
_FOE = ("opponent", "others", "any")
_OWN = ("self", "ally", "team", "chooser")
_TAKES_AWAY = ("destroy", "take_to_hand", "move_to_matrix", "lower_pips", "float",
               "second_hand", "new_matrix", "set_pips", "raise_pips")  # fmt: skip
_DENIES = ("destroy", "ban", "take_to_hand", "second_hand", "float", "move_to_matrix",
           "new_matrix")  # fmt: skip
_SHIFTS = ("lower_pips", "raise_pips", "set_pips", "freeze")


@dataclass(frozen=True, slots=True)
class Target:
    """One die a selector names, as the worth sees it."""

    id: int
    foe: bool
    own: bool
    glyph: bool
    ward: bool  # a 5 on its owner's marker matrix (an opponent's ward, or one's own)
    zone: str
    pips: int


class Probe:
    """What the worth asks about the table."""

    opponents: int
    allies: int
    own_warded: bool
    room: int  # essence points the caster could still gain

    def foes(self, which: str) -> list[int]:
        raise NotImplementedError

    def players(self, which: str) -> list[int]:
        raise NotImplementedError

    def foe_wards(self) -> dict[int, set[int]]:
        """Each opponent's ward dice (ids)."""
        raise NotImplementedError

    def targets(self, selector: Any) -> list[Target]:
        raise NotImplementedError

    def holds(self, condition: Mapping[str, Any]) -> float:
        """How likely the condition holds (1 or 0 when it can be judged)."""
        raise NotImplementedError


class StateProbe(Probe):
    """The duel as it stands, for ``seat`` casting now (the engine's own selectors)."""

    def __init__(self, state: State, seat: int) -> None:
        self.w = Work(state)
        self.seat = seat
        self.ctx = Ctx(self.w, Entry(EntryKind.SPELL, caster=seat))
        w = self.w
        self.alive_foes = [s for s in range(w.players) if w.alive(s) and w.team(s) != w.team(seat)]
        self.opponents = len(self.alive_foes)
        self.allies = sum(1 for s in range(w.players)
                          if s != seat and w.alive(s) and w.team(s) == w.team(seat))  # fmt: skip
        self._wards = {s: self._ward_dice(s) for s in range(w.players) if w.alive(s)}
        self.own_warded = bool(self._wards.get(seat))
        self.room = sum(6 - d.pips for d in w.dice if d.owner == seat and d.zone == "essence")

    def _ward_dice(self, seat: int) -> set[int]:
        w = self.w
        place = w.duellplatz()
        place = w.markers[seat] if place < 0 else place
        if w.markers[seat] != place:
            return set()
        return {d.id for d in w.dice if d.owner == seat and d.zone == "matrix"
                and d.matrix == place and w.pips_of(d) == 5}  # fmt: skip

    def foes(self, which: str) -> list[int]:
        try:
            seats = selectors.players_of(self.ctx, which)
        except (ValueError, KeyError):
            return []
        return [s for s in seats if s in self.alive_foes]

    def players(self, which: str) -> list[int]:
        try:
            return list(selectors.players_of(self.ctx, which))
        except (ValueError, KeyError):
            return []

    def foe_wards(self) -> dict[int, set[int]]:
        return {s: set(self._wards.get(s, set())) for s in self.alive_foes}

    def targets(self, selector: Any) -> list[Target]:
        w = self.w
        try:
            dice = selectors.select(self.ctx, selector)
        except (KeyError, TypeError, ValueError, IndexError):
            return []
        out = []
        for d in dice:
            foe = d.owner in self.alive_foes
            out.append(Target(d.id, foe, d.owner == self.seat or not foe,
                              d.zone == "matrix" and d.glyph,
                              d.id in self._wards.get(d.owner, set()), d.zone,
                              w.pips_of(d)))  # fmt: skip
        return out

    def holds(self, condition: Mapping[str, Any]) -> float:
        try:
            return 1.0 if selectors.holds(self.ctx, condition) else 0.0
        except (KeyError, TypeError, ValueError, IndexError):
            return LIKELY


class TypicalProbe(Probe):
    """Before the duel: ``players`` seats (``allies`` of them on the caster's side), every
    opponent warded by one 5 and with two glyphs, one of them a 5."""

    def __init__(self, players: int, allies: int = 0) -> None:
        self.opponents = max(1, players - 1 - allies)
        self.allies = allies
        self.own_warded = True
        self.room = 2

    def foes(self, which: str) -> list[int]:
        if which in ("opponents", "others", "all"):
            return list(range(self.opponents))
        if which in ("initiative", "spruchrune_owner"):
            return [0] if self.opponents else []
        return []

    def players(self, which: str) -> list[int]:
        return {"self": [-1], "allies": [-2] * self.allies, "team": [-1] + [-2] * self.allies,
                "all": [-1] + [-2] * self.allies + list(range(self.opponents)),
                "others": [-2] * self.allies + list(range(self.opponents)),
                "opponents": list(range(self.opponents))}.get(which, [])  # fmt: skip

    def foe_wards(self) -> dict[int, set[int]]:
        return {s: {1000 + s} for s in range(self.opponents)}

    def targets(self, selector: Any) -> list[Target]:
        if not isinstance(selector, Mapping):
            return []
        if "any_of" in selector:
            found: dict[int, Target] = {}
            for sub in selector["any_of"]:
                for t in self.targets(sub):
                    found[t.id] = t
            return list(found.values())
        owners = selector.get("owner", "any")
        owners = owners if isinstance(owners, list) else [owners]
        zones = selector.get("zone", "matrix")
        zones = zones if isinstance(zones, list) else [zones]
        pips = selector.get("pips")
        pips = pips if pips is None or isinstance(pips, list) else [pips]
        board: list[Target] = []
        for s in range(self.opponents):  # a ward rune 5, glyphs 5 and 3, an essence 5
            board += [Target(1000 + s, True, False, False, True, "matrix", 5),
                      Target(1100 + s, True, False, True, False, "matrix", 5),
                      Target(1200 + s, True, False, True, False, "matrix", 3),
                      Target(1300 + s, True, False, False, False, "essence", 5),
                      Target(1400 + s, True, False, False, False, "bag", 0)]  # fmt: skip
        board += [Target(2000, False, True, False, True, "matrix", 5),
                  Target(2001, False, True, True, False, "matrix", 2),
                  Target(2002, False, True, False, False, "matrix", 3),
                  Target(2003, False, True, False, False, "bag", 0),
                  Target(2004, False, True, False, False, "hand", 0),
                  Target(2005, False, True, False, False, "essence", 5)]  # fmt: skip
        out = []
        for t in board:
            if not any(o == "any" or (o in _FOE and t.foe) or (o in _OWN and t.own)
                       for o in owners):  # fmt: skip
                continue
            if not any(_zone_fits(z, t) for z in zones):
                continue
            if pips is not None and t.pips not in pips:
                continue
            if t.pips < selector.get("pips_min", 0) or t.pips > selector.get("pips_max", 99):
                continue
            out.append(t)
        return out

    def holds(self, condition: Mapping[str, Any]) -> float:
        return LIKELY


def _zone_fits(zone: str, t: Target) -> bool:
    if zone == "glyph":
        return t.zone == "matrix" and t.glyph
    if zone == "rune":
        return t.zone == "matrix" and not t.glyph
    if zone in ("bag", "container"):
        return t.zone == "bag"
    return zone == t.zone


def _number(value: Any, default: int = 1) -> int:
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    return 2 if isinstance(value, Mapping) else default  # a count or the like: a guess


def _amount(part: Instruction) -> Any:
    """The amount a pips-raising instruction names."""
    return part.amount if isinstance(part, RaisePips | LowerPips) else 1


def _picked(targets: list[Target], count: Any, chooser: str) -> int:
    """How many of the targets an instruction reaches (the caster picks the best ones)."""
    if count == "all" or (count == "any" and chooser == "caster"):
        return len(targets)
    if count == "one":
        return min(1, len(targets))
    if isinstance(count, Mapping) and "up_to" in count:
        return min(_number(count["up_to"]), len(targets))
    if isinstance(count, int):
        return min(count, len(targets))
    return min(1, len(targets))


class _Run:
    """One spell read sentence by sentence: the wards its instructions have taken away."""

    def __init__(self, probe: Probe) -> None:
        self.probe = probe
        self.wards = probe.foe_wards()
        self.own_warded = probe.own_warded
        self.room = probe.room
        self.pips_counted_as: str = ""

    def open_foes(self, seats: list[int]) -> int:
        if self.pips_counted_as and self.pips_counted_as != "5":
            return len(seats)
        return sum(1 for s in seats if not self.wards.get(s))

    def part(self, part: Instruction) -> float:
        do = part.do
        probe = self.probe
        if isinstance(part, Attack):
            pick = part.pick
            seats = probe.foes(part.players)
            times = _number(part.times)
            open_ = self.open_foes(seats)
            if pick != "all":  # the caster picks an unwarded one when there is one
                return times * (1.0 if open_ else ATTACK_WARDED * min(1, len(seats)))
            return times * (open_ + ATTACK_WARDED * (len(seats) - open_))
        if isinstance(part, LoseEssence):
            which = part.players
            amount = _number(part.amount)
            seats = probe.foes(which)
            reach = len(seats) if part.pick == "all" else min(1, len(seats))
            own = -amount if which in ("self", "all", "team") else 0.0
            return amount * reach + own
        if isinstance(part, GainEssence):
            which = part.players
            amount = _number(part.amount)
            value = 0.0
            if which in ("self", "team", "all"):
                value += min(amount, self.room)
                self.room -= min(amount, self.room)
            if which in ("allies", "team", "all"):
                value += 0.9 * amount * probe.allies
            foes = len(probe.foes(which))
            return value - amount * foes
        if isinstance(part, Win):
            return WIN if probe.players(part.players) else 0.0
        if isinstance(part, Cast | Lay):
            return EXTRA_SPELL
        if isinstance(part, CountsAs):
            return self._counts_as(part)
        if isinstance(part, Targeted | NewMatrix | Manifest | SwapPips):
            return self._dice(do, part)
        return 0.1  # renewals, cauldrons, new verbs: little either way

    def _counts_as(self, part: CountsAs) -> float:
        if part.property != "pips":
            return 0.1
        value = str(part.value)
        targets = self.probe.targets(part.target) if part.target is not None else []
        if any(t.foe and t.ward for t in targets) and value != "5":
            self.pips_counted_as = value  # the opponents' 5s count as something else
            return 0.2
        if any(t.own for t in targets) and value == "5" and not self.own_warded:
            self.own_warded = True
            return WARD_MADE
        return 0.1

    def _dice(self, do: str, part: Targeted | NewMatrix | Manifest | SwapPips) -> float:
        targets = self.probe.targets(part.target)
        if not targets:
            return 0.0
        foes = [t for t in targets if t.foe]
        own = [t for t in targets if t.own]
        count, chooser = (
            (part.count, part.chooser) if isinstance(part, Targeted) else ("all", "caster")
        )
        value = 0.0
        if foes:
            n = _picked(foes, count, chooser)
            ranked = sorted(foes, key=lambda t: (t.glyph, t.ward), reverse=True)[:n]
            if count == "all" and own and do in _DENIES:  # hits one's own dice as well
                value -= sum(self._own_loss(do, t) for t in own)
            for t in ranked:
                if t.glyph and do in _DENIES:
                    value += GLYPH_DENIED
                elif t.glyph and do in _SHIFTS:
                    value += GLYPH_SHIFTED
                if (
                    t.ward
                    and do in _TAKES_AWAY
                    and not (isinstance(part, SetPips) and _number(part.value, 0) == 5)
                ):
                    for wards in self.wards.values():
                        wards.discard(t.id)
                    value += 0.2
                if t.zone == "essence" and do in ("destroy", "lower_pips", "take_to_hand"):
                    value += t.pips if not isinstance(part, LowerPips) else _number(part.amount)
            return value
        for t in own[: _picked(own, count, chooser)]:
            value += self._own_gain(do, part, t)
        return value

    def _own_loss(self, do: str, t: Target) -> float:
        if t.zone == "essence":
            return float(t.pips)
        return 1.0 if t.glyph else (WARD_MADE if t.ward else 0.1)

    def _own_gain(self, do: str, part: Instruction, t: Target) -> float:
        if do in ("trigger", "reactivate") and t.zone == "matrix":
            return EXTRA_SPELL if (do == "trigger") == t.glyph else 0.0
        if do in ("raise_pips", "set_pips") and not self.own_warded and t.zone == "matrix":
            amount = _number(part.value if isinstance(part, SetPips) else _amount(part))
            if (do == "set_pips" and amount == 5) or (do == "raise_pips" and t.pips + amount == 5):
                self.own_warded = True
                return WARD_MADE
            return 0.05
        if do == "take_to_hand" and t.zone in ("bag", "float"):
            return 0.4  # another glyph to lay
        if do == "destroy":
            return -self._own_loss(do, t) * 0.5
        if do == "manifest":
            return 0.3
        if do == "thaw" and t.glyph:
            return 0.5
        return 0.05


def spell_worth(spell: Spell, probe: Probe) -> float:
    """The essence points ``spell`` is worth to its caster, read from its instructions."""
    run = _Run(probe)
    value = 0.0
    for step in spell.steps:
        chance = probe.holds(step.when) if step.when is not None else 1.0
        if chance <= 0.0:
            continue
        for part in step.parts:
            inner = probe.holds(part.when) if part.when is not None else 1.0
            value += chance * inner * run.part(part)
    return value


def blood_worth(spell: Spell, probe: Probe) -> float:
    """Blood magic's worth: the spell's, less the essence points its pips cost."""
    return spell_worth(spell, probe) - spell.pips
