"""The game state: the scenario (kept as its text, so a stored game is self-contained), every
figure, the round and phase, and the declarations made. Plain frozen values; JSON exact."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import lru_cache

from engines.armageddon.hexmap import Edge
from engines.armageddon.scenario import Scenario, parse
from engines.core.codec import Codec, JsonObject, JsonValue, Schema
from engines.core.rng import Rng

SCHEMA = 2  # 1: figures as positional lists (read through _from_v1)
GM = 0  # the game master's seat; players are seats 1..parties


class Phase(StrEnum):
    SETUP = "setup"  # the game master places figures, colours and alliances
    MOVE = "move"  # the Bewegungsphase: parties move in turn
    ACT = "act"  # the Handlungsphase: declarations, fights, spells
    END = "end"  # the last round is over


@dataclass(frozen=True, slots=True)
class Figure:
    id: str  # abbreviation + running number: k1, pf2, e3 ...
    kind: str
    owner: int  # Eigentümer (a party 1..n; 0 = herrenlos)
    possessor: int  # Besitzer (differs from the owner only for lent devices)
    field: str
    level: int = 0  # tower floor (0 = Grundfeste / the ground)
    carrier: str = ""  # the figure it rides, sits in or stands on
    slot: str = ""  # which of the carrier's places (sattel, wagen, innen, unten, oben, deck)
    facing: str = ""
    steps: int = 0  # steps used this round
    faced: bool = False  # turned this round (its movement is over)
    acted: bool = False  # made its Handlung this round
    mover: int = 0  # the party that moved it this round (0: not moved)
    led_by: str = ""  # the warrior leading this animal by the rein
    enchant: str = ""  # the state of a spell not yet expired (gestaerkt, versetzt, ...)
    enchant_until: int = 0  # the last round the spell lasts
    last_majority: int = 0  # devices, ships, quadrigas: who last had the majority
    declared: int = 0  # the round it was last given, lent or claimed
    charmed_by: int = 0  # Fremde Tiere bewegen: the caster's party moves it while it lasts


@dataclass(frozen=True, slots=True)
class Pending:
    """A declaration that waits for allies: ``claimer`` wants ``target``; ``waiting`` must
    still agree."""

    claimer: int
    target: str
    waiting: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Undo:
    """The position before a party's last movement action (``action``, by ``party``): what the
    game master's ``gm undo`` puts back."""

    action: str
    party: int
    figures: tuple[Figure, ...]
    crowds: tuple[tuple[str, int], ...]
    last: tuple[tuple[str, str, str], ...]
    fallen: tuple[Figure, ...]


@dataclass(frozen=True, slots=True)
class State:
    text: str
    file: str
    figures: tuple[Figure, ...]
    next_id: int
    round: int
    phase: Phase
    active: int  # the party whose turn it is (0 in setup and at the end)
    reserve: tuple[tuple[int, str, int], ...]
    alliances: frozenset[tuple[int, int]]
    colours: tuple[str, ...]
    teams: tuple[int, ...]  # the match's teams per seat (config), () for none
    rounds: int
    gates_open: frozenset[Edge] = frozenset()
    breached: frozenset[Edge] = frozenset()  # walls torn down: a gap, a new Zugang
    blocked: frozenset[Edge] = frozenset()  # Zugänge lost (rammed shut, hit)
    hz: tuple[tuple[str, int], ...] = ()
    sieges: frozenset[tuple[str, int]] = frozenset()  # (stellung, declaring party)
    permits: frozenset[tuple[str, int]] = frozenset()  # (tower field, permitted party)
    gate_moves: frozenset[Edge] = frozenset()  # gates moved by hand this round
    pitched: frozenset[str] = frozenset()  # towers that poured pitch this round
    crowds: tuple[tuple[str, int], ...] = ()  # (place, party that must remove figures)
    pending: Pending | None = None
    out: tuple[int, ...] = ()  # seats that left (0 = the game master)
    counters: tuple[int, ...] = ()  # answered decisions per seat (decision ids)
    last: tuple[tuple[str, str, str], ...] = ()  # (figure, from, to) of the current turn
    ruined: frozenset[str] = frozenset()  # towers whose Grundfeste was destroyed
    rng: Rng = field(default_factory=lambda: Rng(0))
    fallen: tuple[Figure, ...] = ()  # figures taken out, as they were (the game master restores)
    undo: Undo | None = None  # how the position was before the last movement action
    last_gm: str = ""  # the game master's last overrule (a later note belongs to it)

    @property
    def scenario(self) -> Scenario:
        """The map as it stands: without the towers that fell."""
        return _standing(self.text, self.file, self.ruined)

    @property
    def parties(self) -> int:
        return self.scenario.parties

    def figure(self, fid: str) -> Figure | None:
        for f in self.figures:
            if f.id == fid:
                return f
        return None

    def with_figures(self, figures: list[Figure] | tuple[Figure, ...]) -> State:
        return replace(self, figures=tuple(figures))


@lru_cache(maxsize=32)
def _standing(text: str, file: str, ruined: frozenset[str]) -> Scenario:
    sc = parse(text, file)
    if not ruined:
        return sc
    return replace(sc, towers={f: t for f, t in sc.towers.items() if f not in ruined})


_CODEC = Codec("armageddon.error.bad_state")
_FIGURE_FIELDS = tuple(f.name for f in fields(Figure))


def _figure_from_v1(item: JsonValue) -> JsonValue:
    """A figure of schema 1: a positional list of its fields (18 before ``charmed_by``)."""
    if not isinstance(item, list) or not 18 <= len(item) <= len(_FIGURE_FIELDS):
        return item  # the codec refuses it with the field's path
    return dict(zip(_FIGURE_FIELDS, item, strict=False))


def _figures_from_v1(items: JsonValue) -> JsonValue:
    return [_figure_from_v1(f) for f in items] if isinstance(items, list) else items


def _from_v1(data: JsonObject) -> JsonObject:
    """Schema 1 -> 2: figures were positional lists and the pending claim a list
    ``[claimer, target, waiting]``; everything else was stored as the codec stores it."""
    out = dict(data)
    for key in ("figures", "fallen"):
        if key in out:
            out[key] = _figures_from_v1(out[key])
    pending = out.get("pending")
    if isinstance(pending, list) and len(pending) == 3:
        out["pending"] = dict(zip(("claimer", "target", "waiting"), pending, strict=True))
    undo = out.get("undo")
    if isinstance(undo, dict):
        out["undo"] = {
            **undo,
            "figures": _figures_from_v1(undo.get("figures")),
            "fallen": _figures_from_v1(undo.get("fallen")),
        }
    return out


STORED: Schema[State] = Schema(State, SCHEMA, _CODEC, "armageddon.error.bad_schema", {1: _from_v1})


def to_json(s: State) -> JsonObject:
    return STORED.dump(s)


def from_json(d: Mapping[str, object]) -> State:
    """Raises BadInput for data of an unknown schema version or of another shape."""
    return STORED.load(dict(d))
