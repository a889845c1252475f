"""Telperinquár's state as values: frozen dataclasses of plain fields and StrEnums for the
closed vocabularies, stored through the core codec (schema 2; schema 1 was the same data as
one JSON object with ``"v": 1``, read by :func:`upgrade_v1`).

The stored :class:`TqState` is never changed. A step works on :class:`Work`, its working
copy (lists where the state has tuples, the players as :class:`WorkSeat`), thawed from the
state at the start of ``apply`` and frozen again at its end; card facts (:class:`CardInfo`)
and declarations (:class:`Entry`) stay frozen and are replaced when they change. What only
reads takes a :data:`Board`, either of the two.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import MISSING, dataclass, fields, replace
from enum import StrEnum
from functools import cache
from typing import TypeAlias

from engines.core.codec import Codec, JsonObject, JsonValue, Schema, encode, encode_object
from engines.core.rng import Rng

SCHEMA = 2  # 1: the state as one JSON object {"v": 1, ...} (read through upgrade_v1)
HERO = "h"  # a hero's id is h<seat>; every card's id starts otherwise (c12345)


class Phase(StrEnum):
    ENTRY = "entry"  # Einstiegsphase: a level card may be laid
    MAIN = "main"  # Hauptphase
    POSITION = "position"  # Positionierungsphase: the row is reordered


class Combat(StrEnum):
    NONE = "none"  # no attack yet this turn
    OPEN = "open"  # the Kampfphase is under way
    CLOSED = "closed"  # it ended: no more attacks this turn


class Mode(StrEnum):
    DUEL = "duel"
    TEAMS = "2v2"


class EntryKind(StrEnum):
    """What a declaration on the stack is."""

    USE = "use"  # a card in play used (an attack, an effect)
    DUAL = "dual"  # an attack with two weapons
    REACT = "react"  # an answer to the declaration below
    LAY = "lay"  # a card laid (the moment to answer it; resolves to nothing more)
    TRAP = "trap"  # a trap sprung on the attacker


class Zone(StrEnum):
    """Where a player's card is."""

    HAND = "hand"
    DECK = "deck"
    DISCARD = "discard"
    LAID = "laid"  # level cards laid beside the hero
    EQUIP = "equip"  # equipment (the hero's, or carried by a Wesen: CardInfo.bearer)
    FIELD = "field"  # talents and spells in play
    ROW = "row"  # Wesen and traps, in order


def is_hero(target: str) -> bool:
    """Whether ``target`` names a hero (``h<seat>``) rather than a card."""
    return target.startswith(HERO)


def hero_id(seat: int) -> str:
    return f"{HERO}{seat}"


def hero_seat(target: str) -> int:
    return int(target[len(HERO) :])


@dataclass(frozen=True, slots=True)
class CardInfo:
    """One card instance: its name and owner, and what is on it now."""

    name: str
    owner: int
    level: str = ""  # a level card: its class
    charges: int | None = None  # None: the card's printed charges (not yet in play)
    dmg: int | None = None  # damage this turn (a Wesen); None: none taken
    wounded: bool = False
    hidden: bool = False  # laid face down
    inaktion: bool = False  # used (InAktion) until the owner's next Versorgungsphase
    free: int = 0  # attacks left without payment this turn (Beidhändigkeit)
    attacked: bool = False  # a Wesen attacked this turn
    bearer: str = ""  # equipment carried by this Wesen ("": the hero)


@dataclass(frozen=True, slots=True)
class Mod:
    """A bonus on a hero's value until the end of the turn, the round or its next attack."""

    stat: str
    amount: int
    until: str


@dataclass(frozen=True, slots=True)
class OverTime:
    """Damage or healing each Versorgungsphase for ``left`` more rounds."""

    effect: str  # damage | heal
    amount: int
    left: int
    target: str
    source: str = ""


@dataclass(frozen=True, slots=True)
class Entry:
    """A declared action on the stack, waiting for the answers of the others."""

    seat: int
    kind: EntryKind
    cards: tuple[str, ...]
    text: str
    asked: tuple[int, ...] = ()  # the seats asked already
    target: str = ""
    range: str = ""  # an attack: melee | ranged
    attacker: str = ""  # an attack: the attacking hero or Wesen
    spell: bool = False
    bonus: int = 0  # an attack with two weapons: their bonuses
    answers: int | None = None  # a reaction: the index of the entry it answers
    cancelled: bool = False  # parried: resolves to nothing


@dataclass(frozen=True, slots=True)
class Seat:
    classes: tuple[str, ...]
    levels: dict[str, int]
    life: int
    actions: int
    hand: tuple[str, ...]
    deck: tuple[str, ...]
    discard: tuple[str, ...]
    equip: tuple[str, ...]
    field: tuple[str, ...]
    row: tuple[str, ...]
    out: bool
    mods: tuple[Mod, ...]
    ot: tuple[OverTime, ...]
    laid: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TqState:
    mode: Mode
    svo: bool  # the tournament rule SVO is on
    svo_on: bool  # ... and under way
    turn_limit: int
    teams: tuple[int, ...]
    order: tuple[int, ...]  # the seats in turn order
    cur: int  # the index in ``order`` of the seat whose turn it is
    round: int
    turns: int
    phase: Phase
    level_done: bool
    combat: Combat
    players: tuple[Seat, ...]
    cards: dict[str, CardInfo]
    stack: tuple[Entry, ...]
    ask: int | None  # the seat asked for a reaction
    seq: int  # steps so far: the decision ids
    forced: tuple[int, ...]  # dice results a test forces, used first
    over: bool
    rng: Rng
    round_limit: int = 0
    flew: bool = False  # the mover's Wesen flew this turn
    extra: str = ""  # a group's own card file (config ``cards``)
    retired: tuple[str, ...] = ()  # ids cards had before going back to a hand
    limit_hit: str = ""  # turn_limit | round_limit: how a game without winner ended

    def __hash__(self) -> int:
        return hash((self.seq, self.rng, self.cur, self.round))

    @property
    def data(self) -> JsonObject:
        """The state as stored (:func:`dump`): plain data for tests and exports."""
        return dump(self)


@dataclass(slots=True)
class WorkSeat:
    """A player's :class:`Seat` while a step changes it."""

    classes: tuple[str, ...]
    levels: dict[str, int]
    life: int
    actions: int
    hand: list[str]
    deck: list[str]
    discard: list[str]
    equip: list[str]
    field: list[str]
    row: list[str]
    out: bool
    mods: list[Mod]
    ot: list[OverTime]
    laid: list[str]


@dataclass(slots=True)
class Work:
    """The working copy of a :class:`TqState` during one step."""

    mode: Mode
    svo: bool
    svo_on: bool
    turn_limit: int
    teams: tuple[int, ...]
    order: tuple[int, ...]
    cur: int
    round: int
    turns: int
    phase: Phase
    level_done: bool
    combat: Combat
    players: list[WorkSeat]
    cards: dict[str, CardInfo]
    stack: list[Entry]
    ask: int | None
    seq: int
    forced: list[int]
    over: bool
    rng: Rng
    round_limit: int
    flew: bool
    extra: str
    retired: list[str]
    limit_hit: str

    def roll(self, sides: int) -> int:
        """A die: the next forced result, else the state's own RNG."""
        if self.forced:
            return self.forced.pop(0)
        value, self.rng = self.rng.randint(1, sides)
        return value


Board: TypeAlias = TqState | Work  # what a rule that only reads takes
AnySeat: TypeAlias = Seat | WorkSeat


def seats(d: Board) -> Sequence[AnySeat]:
    """The players of either form, for a loop over them."""
    return d.players


IN_PLAY = (Zone.EQUIP, Zone.FIELD, Zone.ROW)


def cards_in(p: AnySeat, zone: Zone) -> Sequence[str]:
    """The card ids in one of a player's zones."""
    found: Sequence[str] = getattr(p, zone.value)
    return found


def zone_of(p: AnySeat, cid: str, zones: Sequence[Zone] = tuple(Zone)) -> Zone | None:
    """Where a player's card is (of ``zones``), or None."""
    return next((zone for zone in zones if cid in cards_in(p, zone)), None)


def thaw(state: TqState) -> Work:
    """A working copy: the state itself is never changed."""
    s = state
    return Work(
        s.mode, s.svo, s.svo_on, s.turn_limit, s.teams, s.order, s.cur, s.round, s.turns,
        s.phase, s.level_done, s.combat, [_thaw_seat(p) for p in s.players], dict(s.cards),
        list(s.stack), s.ask, s.seq, list(s.forced), s.over, s.rng, s.round_limit, s.flew,
        s.extra, list(s.retired), s.limit_hit,
    )  # fmt: skip


def _thaw_seat(p: Seat) -> WorkSeat:
    return WorkSeat(
        p.classes, dict(p.levels), p.life, p.actions, list(p.hand), list(p.deck),
        list(p.discard), list(p.equip), list(p.field), list(p.row), p.out, list(p.mods),
        list(p.ot), list(p.laid),
    )  # fmt: skip


def freeze(w: Work) -> TqState:
    return TqState(
        w.mode, w.svo, w.svo_on, w.turn_limit, w.teams, w.order, w.cur, w.round, w.turns,
        w.phase, w.level_done, w.combat, tuple(_freeze_seat(p) for p in w.players),
        dict(w.cards), tuple(w.stack), w.ask, w.seq, tuple(w.forced), w.over, w.rng,
        w.round_limit, w.flew, w.extra, tuple(w.retired), w.limit_hit,
    )  # fmt: skip


def _freeze_seat(p: WorkSeat) -> Seat:
    return Seat(
        p.classes, dict(p.levels), p.life, p.actions, tuple(p.hand), tuple(p.deck),
        tuple(p.discard), tuple(p.equip), tuple(p.field), tuple(p.row), p.out, tuple(p.mods),
        tuple(p.ot), tuple(p.laid),
    )  # fmt: skip


# ------------------------------------------------------------------ stored


def upgrade_v1(body: JsonObject) -> JsonObject:
    """Schema 1 held the same fields; only its version key was ``v``."""
    return {key: value for key, value in body.items() if key != "v"}


STORED = Schema(
    TqState, SCHEMA, Codec("tq.error.damaged_state"), "tq.error.bad_state", {1: upgrade_v1}
)


@cache
def _defaults(kind: type) -> dict[str, JsonValue]:
    return {f.name: encode(f.default) for f in fields(kind) if f.default is not MISSING}


def _sparse(value: Entry) -> JsonObject:
    """A declaration without the fields at their defaults: what schema 1 stored."""
    defaults = _defaults(Entry)
    return {
        key: item
        for key, item in encode_object(value).items()
        if key not in defaults or item != defaults[key] or type(item) is not type(defaults[key])
    }


_CARD_REQUIRED = tuple(f.name for f in fields(CardInfo) if f.default is MISSING)
_CARD_OPTIONAL = tuple((f.name, f.default) for f in fields(CardInfo) if f.default is not MISSING)


def _card_json(info: CardInfo) -> JsonObject:
    """A card's facts without the fields at their defaults (most cards carry nothing): its
    fields are plain, so they are stored as they are."""
    out: JsonObject = {name: getattr(info, name) for name in _CARD_REQUIRED}
    for name, default in _CARD_OPTIONAL:
        value = getattr(info, name)
        if value != default or type(value) is not type(default):
            out[name] = value
    return out


def dump(state: TqState) -> JsonObject:
    out = STORED.dump(replace(state, cards={}, stack=()))
    out["cards"] = {cid: _card_json(info) for cid, info in state.cards.items()}
    stack: list[JsonValue] = [_sparse(entry) for entry in state.stack]
    out["stack"] = stack
    return out


def load(data: object) -> TqState:
    if isinstance(data, dict) and "schema" not in data and "v" in data:
        data = {"schema": data["v"], **data}  # schema 1 named its version "v"
    return STORED.load(data)
