"""A mutable working copy of the state for one unit of resolution, and the rule queries."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engines.core.contract import Event
from engines.felsenfeuer.events import EventType
from engines.felsenfeuer.model import Die, Entry, Mod, ModKind, Pending, State, Zone
from engines.felsenfeuer.spells import spheres

_LAST_SPHERE_MODS: tuple[int, list[Die], tuple[Mod, ...]] = (-1, [], ())


class Work:
    """State fields as lists; ``freeze`` gives the State back. A unit of resolution runs on a
    ``copy`` and is kept only when it completes (no decision missing)."""

    __slots__ = (
        "base",
        "cauldrons",
        "dice",
        "events",
        "floating",
        "laid",
        "lost",
        "markers",
        "matrices",
        "no_place",
        "out",
        "passes",
        "pending",
        "phase",
        "phases",
        "place",
        "quiet",
        "result",
        "spell_rune",
        "stack",
        "stone",
        "winners",
    )  # fmt: skip

    def __init__(self, state: State) -> None:
        self.base = state
        self.dice: list[Die] = list(state.dice)
        self.markers = list(state.markers)
        self.cauldrons = list(state.cauldrons)
        self.matrices = state.matrices
        self.stone = state.stone
        self.passes = state.passes
        self.laid = state.laid
        self.spell_rune = state.spell_rune
        self.place = state.place
        self.no_place = state.no_place
        self.stack: list[Entry] = list(state.stack)
        self.pending: Pending | None = state.pending
        self.out = list(state.out)
        self.winners = list(state.winners)
        self.result = state.result
        self.phase = state.phase
        self.phases = state.phases
        self.quiet = state.quiet
        self.events: list[Event] = []
        self.lost = False  # an essence point was lost in this spell phase
        self.floating = sum(1 for d in self.dice if d.zone == "float")

    def copy(self) -> Work:
        """Every field, the lists copied (one unit of resolution runs on a copy)."""
        other = Work.__new__(Work)
        other.base = self.base
        other.cauldrons = list(self.cauldrons)
        other.dice = list(self.dice)
        other.events = list(self.events)
        other.floating = self.floating
        other.laid = self.laid
        other.lost = self.lost
        other.markers = list(self.markers)
        other.matrices = self.matrices
        other.no_place = self.no_place
        other.out = list(self.out)
        other.passes = self.passes
        other.pending = self.pending
        other.phase = self.phase
        other.phases = self.phases
        other.place = self.place
        other.quiet = self.quiet
        other.result = self.result
        other.spell_rune = self.spell_rune
        other.stack = list(self.stack)
        other.stone = self.stone
        other.winners = list(self.winners)
        return other

    def freeze(self) -> State:
        return replace(
            self.base, dice=tuple(self.dice), markers=tuple(self.markers),
            cauldrons=tuple(self.cauldrons), matrices=self.matrices, stone=self.stone,
            passes=self.passes, laid=self.laid, spell_rune=self.spell_rune,
            place=self.place, no_place=self.no_place,
            stack=tuple(self.stack), pending=self.pending, out=tuple(self.out),
            winners=tuple(self.winners), result=self.result, phase=self.phase,
            phases=self.phases, quiet=self.quiet,
        )  # fmt: skip

    def emit(self, kind: EventType, **data: Any) -> None:
        """An event; one about a die says its pips as they count at this moment (``pips``,
        None: it has none), so a sentence reads the die as it was then, not at the batch's
        end."""
        die = data.get("die")
        if isinstance(die, int) and "pips" not in data and 0 <= die < len(self.dice):
            data["pips"] = self.pips_of(self.dice[die]) or None
        self.events.append(Event(kind, data))

    # --- seats -------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.base.settings.players

    def team(self, seat: int) -> int:
        teams = self.base.settings.teams
        return teams[seat] if teams else seat

    def alive(self, seat: int) -> bool:
        return seat not in self.out

    def order_from(self, first: int) -> list[int]:
        """The seats still in the duel clockwise from ``first`` (included if in)."""
        n = self.players
        return [(first + i) % n for i in range(n) if (first + i) % n not in self.out]

    def next_seat(self, seat: int) -> int:
        n = self.players
        for i in range(1, n + 1):
            if (seat + i) % n not in self.out:
                return (seat + i) % n
        return seat

    def initiative(self) -> int:
        return self.stone

    def initiative_order(self) -> list[int]:
        return self.order_from(self.stone)

    # --- modifiers (all running spells' "zählt als") ---------------------------------------
    def mods(self) -> list[Mod]:
        running = [m for e in self.stack if e.kind == "spell" for m in e.mods]
        return self.sphere_mods() + running if self.floating else running

    def active_spheres(self) -> list[str]:
        """The spheres in force: a rune of their colour and pips floats (Weltentor)."""
        floating = {(d.colour, d.pips) for d in self.dice if d.zone == "float"}
        return [slug for slug, s in spheres().items() if (s.colour, s.pips) in floating]

    def sphere_mods(self) -> list[Mod]:
        """The "zählt als" effects of the spheres in force; their dice are named by the
        dice's own properties (never by another effect), so they follow from the dice and the
        seats alone: the last answer is remembered (a rule query asks for it per die, and a
        list of the same frozen dice compares equal by identity at once)."""
        global _LAST_SPHERE_MODS
        players, dice, known = _LAST_SPHERE_MODS
        if players == self.players and dice == self.dice:
            return list(known)
        found = self._sphere_mods()
        _LAST_SPHERE_MODS = (self.players, list(self.dice), tuple(found))
        return found

    def _sphere_mods(self) -> list[Mod]:
        mods = []
        for slug in self.active_spheres():
            for effect in spheres()[slug].effects:
                if effect.property == "nohand":
                    mods.append(Mod(ModKind.NOHAND, tuple(range(self.players)), ""))
                    continue
                sel = effect.target if effect.target is not None else {}
                ids = tuple(d.id for d in self.dice if _plain_match(d, sel))
                mods.append(Mod(ModKind(effect.property), ids, str(effect.value)))
        return mods

    def colours_of(self, die: Die) -> frozenset[str]:
        colours = {die.colour}
        for mod in self.mods():
            if mod.kind == "colour" and die.id in mod.targets:
                colours = {"gruen", "grau", "rot", "schwarz", "violett"} if mod.value == "alle" \
                    else {mod.value}  # fmt: skip
        return frozenset(colours)

    def pips_of(self, die: Die) -> int:
        if die.zone not in ("matrix", "essence", "float"):
            return 0
        pips = die.pips
        for mod in self.mods():
            if mod.kind == "pips" and die.id in mod.targets:
                pips = int(mod.value)
        return pips

    def has_hand(self, seat: int) -> bool:
        return not any(m.kind == "nohand" and seat in m.targets for m in self.mods())

    # --- places ------------------------------------------------------------------------------
    def duellplatz(self) -> int:
        """The matrix of the Spruchrune while it lies on one. Once it left the matrices
        (hand, bag, floating, out) there is no Duellplatz for the rest of the running spells
        (-1); between spells the Duellplatz of the last trigger stands (RULES.md 14)."""
        if self.spell_rune >= 0:
            die = self.dice[self.spell_rune]
            if die.zone in ("matrix", "essence"):
                return die.matrix
        return -1 if self.no_place else self.place

    def spell_running(self) -> bool:
        return any(e.kind == "spell" for e in self.stack)

    def make_spruchrune(self, die_id: int) -> None:
        """``die_id`` was triggered (or is cast with): it is the Spruchrune while it lies on
        a matrix, and its matrix is the Duellplatz."""
        self.spell_rune, self.no_place = die_id, False
        self._follow(self.dice[die_id])

    def essence_points(self, seat: int) -> int:
        return sum(d.pips for d in self.dice if d.owner == seat and d.zone == "essence")

    def glyphs(self) -> list[Die]:
        return [d for d in self.dice if d.zone == "matrix" and d.glyph]

    def temple_members(self, top: int) -> list[int]:
        return [d.id for d in self.dice if d.shrine_of == top]

    def set(self, die: Die) -> None:
        self.floating += (die.zone == "float") - (self.dice[die.id].zone == "float")
        self.dice[die.id] = die
        if die.id == self.spell_rune:
            self._follow(die)

    def _follow(self, die: Die) -> None:
        """The Duellplatz follows the Spruchrune to another matrix; a Spruchrune that leaves
        the matrices stops being one (laid again later it is a fresh glyph), and the running
        spells have no Duellplatz for the rest of their effects (Teil 2, "Duellplatz")."""
        if die.zone in ("matrix", "essence"):
            self.place = die.matrix
        else:
            self.spell_rune = -1
            self.no_place = self.spell_running()

    def send_to_bag(self, die: Die) -> None:
        self.set(replace(die, zone=Zone.BAG, matrix=-1, pips=0, glyph=False, frozen=False,
                         shrine_of=-1, hand=0))  # fmt: skip

    def hand_count(self, seat: int, hand: int) -> int:
        return sum(1 for d in self.dice if d.owner == seat and d.zone == "hand" and d.hand == hand)


def _plain_match(die: Die, sel: Any) -> bool:
    """A sphere's selector over a die's own properties (zone, colour, pips, frozen)."""
    zones = sel.get("zone", "matrix")
    zones = zones if isinstance(zones, list) else [zones]
    zone_ok = any(
        (z == "glyph" and die.zone == "matrix" and die.glyph)
        or (z == "rune" and die.zone == "matrix" and not die.glyph)
        or z == die.zone
        for z in zones
    )
    if not zone_ok:
        return False
    for key in ("colour", "pips"):
        if key in sel:
            wanted = sel[key] if isinstance(sel[key], list) else [sel[key]]
            if getattr(die, key) not in wanted:
                return False
    return "frozen" not in sel or die.frozen == sel["frozen"]
