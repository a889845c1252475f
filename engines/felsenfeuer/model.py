"""The state of a Felsenfeuer duel as plain values: frozen dataclasses, StrEnums for the
closed vocabularies (zones, phases, stack entries, modifiers, rules, modes, results), stored
through the core codec (``engines.core.codec``) with a schema version (``STORED``).

Schema 1 (before the value model) stored dice, modifiers and the open decision as positional
lists and the settings without the options added later; ``_from_v1`` reads it."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import StrEnum

from engines.core.codec import Codec, JsonObject, JsonValue, Schema
from engines.core.rng import Rng

COLOURS = ("gruen", "grau", "rot", "schwarz", "violett")  # the spell files name them


class Word(StrEnum):
    """A closed vocabulary's word: a ``str`` that reads back as its plain text (``repr`` as
    the string's), so the situation hash of the Wiederholungsregel, taken over the values'
    ``repr``, stays what duels stored before the port remember."""

    __repr__ = str.__repr__


class Zone(Word):
    HAND = "hand"
    BAG = "bag"
    ESSENCE = "essence"
    MATRIX = "matrix"
    FLOAT = "float"
    OUT = "out"
    PICKED = "picked"


class Phase(Word):
    AUSWAHL = "auswahl"
    DRAFT = "draft"
    ESSENCE = "essence"
    ROLL = "roll"
    ACTION = "action"
    SPELL = "spell"
    END = "end"


class EntryKind(Word):
    SPELL = "spell"  # a running spell
    PHASE = "phase"  # trigger the lowest glyph or renew
    OFFER = "offer"  # the owner of a triggered glyph may cast
    BLOOD = "blood"  # a seat pays for a blood spell
    END = "end"  # the stone comes off the marker
    QUAKE = "quake"  # the house event Erdbeben
    NEXT = "next"  # a blood spell ended its caster's turn


class ModKind(Word):
    COLOUR = "colour"
    PIPS = "pips"
    NOHAND = "nohand"
    NAMED = "named"


class Rules(Word):
    ADEPT = "adept"
    MAGISTER = "magister"


class Mode(Word):
    NORMAL = ""
    PENTAGRAMM = "pentagramm"
    GILDE = "gilde"


class Way(Word):
    """How the dice are chosen: the secret Auswahl or the Würfeldraft (Teil 3)."""

    SEALED = "sealed"
    DRAFT = "draft"


class Roll(Word):
    """Teil 3 scenario: three hand runes rolled at the start (as glyphs or not)."""

    NONE = ""
    GLYPHEN = "glyphen"
    RUNEN = "runen"


class Result(Word):
    """Why the duel ended ("": it runs)."""

    NONE = ""
    DECLARED = "declared"
    EXHAUSTED = "exhausted"
    ELIMINATED = "eliminated"
    ALL_OUT = "all_out"
    PENTAGRAMM = "pentagramm"
    VORSTEHER = "vorsteher"


ZONES = tuple(Zone)
PHASES = tuple(Phase)
ROLLS = tuple(Roll)


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
    zone: Zone = Zone.PICKED
    matrix: int = -1
    pips: int = 0
    hand: int = 0
    glyph: bool = False
    frozen: bool = False
    shrine_of: int = -1


@dataclass(frozen=True, slots=True)
class Mod:
    """A "zählt als" effect of a running spell: ``kind``, the ``targets`` (dice, or seats for
    nohand), ``value`` (a colour, pips, a name)."""

    kind: ModKind
    targets: tuple[int, ...]
    value: str


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of the resolution stack (``kind``): a running spell (``spell``, ``caster``,
    next ``step``, ``bind``ings, ``mods``, ``blood``), a phase, an offer (the owner of glyph
    ``die`` may cast), blood (seat ``caster`` pays for blood spell ``spell``), the end (the
    stone comes off the marker; ``die`` holds the essence points at the phase's start), the
    Erdbeben, the next turn. ``answers``: the answers given so far to the current step (it
    re-runs with them)."""

    kind: EntryKind
    spell: str = ""
    caster: int = -1
    step: int = 0
    answers: tuple[str, ...] = ()
    bind: tuple[tuple[str, tuple[int, ...]], ...] = ()
    mods: tuple[Mod, ...] = ()
    blood: bool = False
    die: int = -1


@dataclass(frozen=True, slots=True)
class Pending:
    """The open decision inside the resolution (a step, a tie, a cast offer)."""

    seat: int
    prompt: str
    options: tuple[str, ...]
    params: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Settings:
    players: int
    rules: Rules = Rules.ADEPT
    mode: Mode = Mode.NORMAL
    teams: tuple[int, ...] = ()
    auswahl: Way = Way.SEALED
    supply: tuple[int, ...] = ()  # dice per colour
    phase_limit: int = 60  # spell phases (and renewals) before the duel is judged
    quiet_limit: int = 16  # phases in a row without essence lost before it is judged
    start: int = 0
    weltentor: bool = False  # floating runes may be laid while choosing essences
    spells: str = ""  # a group's own spell file (TOML) merged into the shipped spellbook
    cap: bool = False  # sealed Auswahl: each seat takes at most its share of each colour
    roll: Roll = Roll.NONE  # each seat rolls three hand runes at the start
    quake: bool = False  # house event "Erdbeben" at the end of every action phase


@dataclass(frozen=True, slots=True)
class State:
    settings: Settings
    phase: Phase
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
    result: Result = Result.NONE  # reason once ended
    serial: int = 0  # actions applied (decision ids)
    phases: int = 0  # spell phases and renewals so far
    quiet: int = 0  # phases in a row without essence lost
    seen: tuple[tuple[str, str], ...] = ()  # (situation hash, action last taken there)
    rng: Rng = field(default_factory=lambda: Rng(0))
    place: int = 0  # the Duellplatz of the last trigger (the start surface before the first)
    no_place: bool = False  # the Spruchrune left the matrices during the running spells


# --- storage ------------------------------------------------------------------------------------
SCHEMA = 2
_CODEC = Codec("felsenfeuer.error.bad_state")
_DIE_FIELDS = tuple(f.name for f in fields(Die))
_MOD_FIELDS = tuple(f.name for f in fields(Mod))
_PENDING_FIELDS = tuple(f.name for f in fields(Pending))
_FLAGS = ("glyph", "frozen")  # stored as 0/1 in schema 1


def _die_from_v1(item: JsonValue) -> JsonValue:
    if not isinstance(item, list) or len(item) != len(_DIE_FIELDS):
        return item  # the codec refuses it with the field's path
    die: JsonObject = dict(zip(_DIE_FIELDS, item, strict=True))
    for flag in _FLAGS:
        if type(die[flag]) is int:
            die[flag] = bool(die[flag])
    return die


def _entry_from_v1(item: JsonValue) -> JsonValue:
    if not isinstance(item, dict) or not isinstance(item.get("mods"), list):
        return item
    mods = item["mods"]
    assert isinstance(mods, list)
    return {**item, "mods": [dict(zip(_MOD_FIELDS, m, strict=True))
                             if isinstance(m, list) and len(m) == len(_MOD_FIELDS) else m
                             for m in mods]}  # fmt: skip


def _from_v1(data: JsonObject) -> JsonObject:
    """Schema 1 -> 2: dice, modifiers and the open decision were positional lists (a die's
    flags 0/1); a duel saved before ``cap`` was a setting played with the cap."""
    out = dict(data)
    dice = out.get("dice")
    if isinstance(dice, list):
        out["dice"] = [_die_from_v1(d) for d in dice]
    stack = out.get("stack")
    if isinstance(stack, list):
        out["stack"] = [_entry_from_v1(e) for e in stack]
    pending = out.get("pending")
    if isinstance(pending, list) and len(pending) == len(_PENDING_FIELDS):
        out["pending"] = dict(zip(_PENDING_FIELDS, pending, strict=True))
    settings = out.get("settings")
    if isinstance(settings, dict) and "cap" not in settings:
        out["settings"] = {**settings, "cap": True}
    return out


STORED: Schema[State] = Schema(State, SCHEMA, _CODEC, "felsenfeuer.error.bad_schema", {1: _from_v1})


__all__ = [
    "COLOURS",
    "STORED",
    "Die",
    "Entry",
    "EntryKind",
    "Mod",
    "ModKind",
    "Mode",
    "Pending",
    "Phase",
    "Result",
    "Roll",
    "Rules",
    "Settings",
    "State",
    "Way",
    "Zone",
    "replace",
]
