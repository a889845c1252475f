"""The state of a Felsenfeuer duel as plain values (frozen, JSON round trip exact)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engines.core.rng import Rng

COLOURS = ("gruen", "grau", "rot", "schwarz", "violett")
ZONES = ("hand", "bag", "essence", "matrix", "float", "out", "picked")
PHASES = ("auswahl", "draft", "essence", "roll", "action", "spell", "end")
ROLLS = ("", "glyphen", "runen")  # Teil 3 scenario: three hand runes rolled at the start


@dataclass(frozen=True, slots=True)
class Die:
    """One die ("Rune"; on its owner's marker an "Essenz"). ``zone``: hand (``hand`` 0 or 1),
    bag, essence (on the marker, on the marker's matrix), matrix (a rune on ``matrix`` with
    ``pips``; ``glyph`` at the edge, ``frozen``), float (over ``matrix``), out (its owner
    left), picked (chosen in the Auswahl, not yet placed). ``shrine_of``: the temple rune
    lying on it (-1: none)."""

    id: int
    owner: int
    colour: str
    zone: str = "picked"
    matrix: int = -1
    pips: int = 0
    hand: int = 0
    glyph: bool = False
    frozen: bool = False
    shrine_of: int = -1

    def to_json(self) -> list[Any]:
        return [self.id, self.owner, self.colour, self.zone, self.matrix, self.pips, self.hand,
                int(self.glyph), int(self.frozen), self.shrine_of]  # fmt: skip

    @staticmethod
    def from_json(data: list[Any]) -> Die:
        ints = [int(x) for x in (data[0], data[1], data[4], data[5], data[6], data[9])]
        return Die(ints[0], ints[1], str(data[2]), str(data[3]), ints[2], ints[3], ints[4],
                   bool(data[7]), bool(data[8]), ints[5])  # fmt: skip


@dataclass(frozen=True, slots=True)
class Mod:
    """A "zählt als" effect of a running spell: ``kind`` colour|pips|nohand, ``dice`` (or
    seats for nohand), ``value``."""

    kind: str
    targets: tuple[int, ...]
    value: str

    def to_json(self) -> list[Any]:
        return [self.kind, list(self.targets), self.value]

    @staticmethod
    def from_json(data: list[Any]) -> Mod:
        return Mod(str(data[0]), tuple(int(x) for x in data[1]), str(data[2]))


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of the resolution stack. ``kind``: ``spell`` (a running spell: ``spell``,
    ``caster``, next ``step``, ``bind``ings, ``mods``, ``blood``), ``phase`` (trigger the
    lowest glyph or renew), ``offer`` (the owner of glyph ``die`` may cast), ``blood`` (seat
    ``caster`` pays for blood spell ``spell``), ``end`` (the stone comes off the marker).
    ``answers``: the answers given so far to the current step (it re-runs with them)."""

    kind: str
    spell: str = ""
    caster: int = -1
    step: int = 0
    answers: tuple[str, ...] = ()
    bind: tuple[tuple[str, tuple[int, ...]], ...] = ()
    mods: tuple[Mod, ...] = ()
    blood: bool = False
    die: int = -1

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "spell": self.spell, "caster": self.caster, "step": self.step,
            "answers": list(self.answers), "bind": [[n, list(v)] for n, v in self.bind],
            "mods": [m.to_json() for m in self.mods], "blood": self.blood, "die": self.die,
        }  # fmt: skip

    @staticmethod
    def from_json(data: dict[str, Any]) -> Entry:
        return Entry(
            str(data["kind"]), str(data["spell"]), int(data["caster"]), int(data["step"]),
            tuple(str(a) for a in data["answers"]),
            tuple((str(n), tuple(int(x) for x in v)) for n, v in data["bind"]),
            tuple(Mod.from_json(m) for m in data["mods"]), bool(data["blood"]), int(data["die"]),
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Pending:
    """The open decision inside the resolution (a step, a tie, a cast offer)."""

    seat: int
    prompt: str
    options: tuple[str, ...]
    params: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> list[Any]:
        return [self.seat, self.prompt, list(self.options), [list(p) for p in self.params]]

    @staticmethod
    def from_json(data: list[Any]) -> Pending:
        return Pending(int(data[0]), str(data[1]), tuple(str(o) for o in data[2]),
                       tuple((str(k), str(v)) for k, v in data[3]))  # fmt: skip


@dataclass(frozen=True, slots=True)
class Settings:
    players: int
    rules: str = "adept"  # adept | magister
    mode: str = ""  # "" | pentagramm | gilde
    teams: tuple[int, ...] = ()
    auswahl: str = "sealed"  # sealed | draft
    supply: tuple[int, ...] = ()  # dice per colour
    phase_limit: int = 60  # spell phases (and renewals) before the duel is judged
    quiet_limit: int = 16  # phases in a row without essence lost before it is judged
    start: int = 0
    weltentor: bool = False  # floating runes may be laid while choosing essences
    spells: str = ""  # a group's own spell file (TOML) merged into the shipped spellbook
    cap: bool = False  # sealed Auswahl: each seat takes at most its share of each colour
    roll: str = ""  # "glyphen" | "runen": each seat rolls three hand runes at the start
    quake: bool = False  # house event "Erdbeben" at the end of every action phase

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "rules": self.rules, "mode": self.mode,
                "teams": list(self.teams), "auswahl": self.auswahl, "supply": list(self.supply),
                "phase_limit": self.phase_limit, "quiet_limit": self.quiet_limit,
                "start": self.start, "weltentor": self.weltentor, "cap": self.cap,
                "roll": self.roll, "quake": self.quake,
                **({"spells": self.spells} if self.spells else {})}  # fmt: skip

    @staticmethod
    def from_json(data: dict[str, Any]) -> Settings:
        # a duel saved before ``cap`` was a setting played with the cap
        return Settings(int(data["players"]), str(data["rules"]), str(data["mode"]),
                        tuple(int(t) for t in data["teams"]), str(data["auswahl"]),
                        tuple(int(s) for s in data["supply"]), int(data["phase_limit"]),
                        int(data["quiet_limit"]), int(data["start"]),
                        bool(data.get("weltentor", False)),
                        str(data.get("spells", "")),
                        bool(data.get("cap", True)), str(data.get("roll", "")),
                        bool(data.get("quake", False)))  # fmt: skip


@dataclass(frozen=True, slots=True)
class State:
    settings: Settings
    phase: str
    dice: tuple[Die, ...] = ()
    markers: tuple[int, ...] = ()  # the matrix of each seat's essence marker
    cauldrons: tuple[int, ...] = ()  # the matrix a seat's bag lies on as a cauldron, or -1
    matrices: int = 1  # matrices 0..n-1; 0 is the start surface
    stone: int = 0  # the seat the stone stands before (action) or on whose marker (spell)
    passes: int = 0  # consecutive turns without a glyph
    laid: bool = False  # the stone holder laid a glyph this turn
    spell_rune: int = -1  # the last triggered glyph ("Spruchrune") while it lies on a matrix
    stack: tuple[Entry, ...] = ()
    pending: Pending | None = None
    auswahl: tuple[str, ...] = ()  # sealed choices ("" = not yet), secret until all chose
    draft_turn: int = 0
    out: tuple[int, ...] = ()  # eliminated seats in order
    winners: tuple[int, ...] = ()
    result: str = ""  # reason once ended
    serial: int = 0  # actions applied (decision ids)
    phases: int = 0  # spell phases and renewals so far
    quiet: int = 0  # phases in a row without essence lost
    seen: tuple[tuple[str, str], ...] = ()  # (situation hash, action last taken there)
    rng: Rng = field(default_factory=lambda: Rng(0))
    place: int = 0  # the Duellplatz of the last trigger (the start surface before the first)
    no_place: bool = False  # the Spruchrune left the matrices during the running spells

    def to_json(self) -> dict[str, Any]:
        return {
            "settings": self.settings.to_json(), "phase": self.phase,
            "dice": [d.to_json() for d in self.dice], "markers": list(self.markers),
            "cauldrons": list(self.cauldrons), "matrices": self.matrices, "stone": self.stone,
            "passes": self.passes, "laid": self.laid, "spell_rune": self.spell_rune,
            "place": self.place, "no_place": self.no_place,
            "stack": [e.to_json() for e in self.stack],
            "pending": None if self.pending is None else self.pending.to_json(),
            "auswahl": list(self.auswahl), "draft_turn": self.draft_turn, "out": list(self.out),
            "winners": list(self.winners), "result": self.result, "serial": self.serial,
            "phases": self.phases, "quiet": self.quiet,
            "seen": [list(s) for s in self.seen], "rng": self.rng.to_json(),
        }  # fmt: skip

    @staticmethod
    def from_json(data: dict[str, Any]) -> State:
        pending = data["pending"]
        return State(
            Settings.from_json(data["settings"]), str(data["phase"]),
            tuple(Die.from_json(d) for d in data["dice"]), tuple(int(m) for m in data["markers"]),
            tuple(int(c) for c in data["cauldrons"]), int(data["matrices"]), int(data["stone"]),
            int(data["passes"]), bool(data["laid"]), int(data["spell_rune"]),
            tuple(Entry.from_json(e) for e in data["stack"]),
            None if pending is None else Pending.from_json(pending),
            tuple(str(a) for a in data["auswahl"]), int(data["draft_turn"]),
            tuple(int(s) for s in data["out"]), tuple(int(s) for s in data["winners"]),
            str(data["result"]), int(data["serial"]), int(data["phases"]), int(data["quiet"]),
            tuple((str(a), str(b)) for a, b in data["seen"]), Rng.from_json(data["rng"]),
            place=int(data.get("place", 0)), no_place=bool(data.get("no_place", False)),
        )  # fmt: skip


__all__ = ["COLOURS", "Die", "Entry", "Mod", "Pending", "Settings", "State", "replace"]
