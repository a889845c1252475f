"""The game state: the scenario (kept as its text, so a stored game is self-contained), every
figure, the round and phase, and the declarations made. Plain frozen values; JSON exact."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from engines.armageddon.hexmap import Edge
from engines.armageddon.scenario import Scenario, parse
from engines.core.errors import BadInput
from engines.core.rng import Rng

SCHEMA = 1
GM = 0  # the game master's seat; players are seats 1..parties


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
    phase: str  # setup, move, act, end
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


def figure_to_json(f: Figure) -> list[Any]:
    return [
        f.id, f.kind, f.owner, f.possessor, f.field, f.level, f.carrier, f.slot, f.facing,
        f.steps, f.faced, f.acted, f.mover, f.led_by, f.enchant, f.enchant_until,
        f.last_majority, f.declared, f.charmed_by,
    ]  # fmt: skip


def figure_from_json(d: list[Any]) -> Figure:
    return Figure(
        str(d[0]), str(d[1]), int(d[2]), int(d[3]), str(d[4]), int(d[5]), str(d[6]), str(d[7]),
        str(d[8]), int(d[9]), bool(d[10]), bool(d[11]), int(d[12]), str(d[13]), str(d[14]),
        int(d[15]), int(d[16]), int(d[17]), int(d[18]) if len(d) > 18 else 0,
    )  # fmt: skip


def _edges(items: frozenset[Edge]) -> list[list[str]]:
    return [list(e) for e in sorted(items)]


def _edge_set(data: list[list[str]]) -> frozenset[Edge]:
    return frozenset((str(a), str(b)) for a, b in data)


def to_json(s: State) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "text": s.text,
        "file": s.file,
        "figures": [figure_to_json(f) for f in s.figures],
        "next_id": s.next_id,
        "round": s.round,
        "phase": s.phase,
        "active": s.active,
        "reserve": [list(r) for r in s.reserve],
        "alliances": sorted(list(a) for a in s.alliances),
        "colours": list(s.colours),
        "teams": list(s.teams),
        "rounds": s.rounds,
        "gates_open": _edges(s.gates_open),
        "breached": _edges(s.breached),
        "blocked": _edges(s.blocked),
        "hz": [list(h) for h in s.hz],
        "sieges": sorted(list(x) for x in s.sieges),
        "permits": sorted(list(x) for x in s.permits),
        "gate_moves": _edges(s.gate_moves),
        "pitched": sorted(s.pitched),
        "crowds": [list(c) for c in s.crowds],
        "pending": None
        if s.pending is None
        else [s.pending.claimer, s.pending.target, list(s.pending.waiting)],
        "out": list(s.out),
        "counters": list(s.counters),
        "last": [list(m) for m in s.last],
        "ruined": sorted(s.ruined),
        "rng": s.rng.to_json(),
        "fallen": [figure_to_json(f) for f in s.fallen],
        "undo": None if s.undo is None else _undo_to_json(s.undo),
        "last_gm": s.last_gm,
    }


def _undo_to_json(u: Undo) -> dict[str, Any]:
    return {
        "action": u.action,
        "party": u.party,
        "figures": [figure_to_json(f) for f in u.figures],
        "crowds": [list(c) for c in u.crowds],
        "last": [list(m) for m in u.last],
        "fallen": [figure_to_json(f) for f in u.fallen],
    }


def _undo_from_json(d: dict[str, Any]) -> Undo:
    return Undo(
        action=str(d["action"]),
        party=int(d["party"]),
        figures=tuple(figure_from_json(f) for f in d["figures"]),
        crowds=tuple((str(p), int(q)) for p, q in d["crowds"]),
        last=tuple((str(a), str(b), str(c)) for a, b, c in d["last"]),
        fallen=tuple(figure_from_json(f) for f in d["fallen"]),
    )


def from_json(d: dict[str, Any]) -> State:
    if d.get("schema") != SCHEMA:
        raise BadInput("armageddon.error.bad_schema", found=d.get("schema"), expected=SCHEMA)
    pending = d["pending"]
    return State(
        text=str(d["text"]),
        file=str(d["file"]),
        figures=tuple(figure_from_json(f) for f in d["figures"]),
        next_id=int(d["next_id"]),
        round=int(d["round"]),
        phase=str(d["phase"]),
        active=int(d["active"]),
        reserve=tuple((int(p), str(k), int(n)) for p, k, n in d["reserve"]),
        alliances=frozenset((int(a), int(b)) for a, b in d["alliances"]),
        colours=tuple(str(c) for c in d["colours"]),
        teams=tuple(int(t) for t in d["teams"]),
        rounds=int(d["rounds"]),
        gates_open=_edge_set(d["gates_open"]),
        breached=_edge_set(d["breached"]),
        blocked=_edge_set(d["blocked"]),
        hz=tuple((str(f), int(p)) for f, p in d["hz"]),
        sieges=frozenset((str(a), int(b)) for a, b in d["sieges"]),
        permits=frozenset((str(a), int(b)) for a, b in d["permits"]),
        gate_moves=_edge_set(d["gate_moves"]),
        pitched=frozenset(str(t) for t in d["pitched"]),
        crowds=tuple((str(p), int(q)) for p, q in d["crowds"]),
        pending=None
        if pending is None
        else Pending(int(pending[0]), str(pending[1]), tuple(int(x) for x in pending[2])),
        out=tuple(int(x) for x in d["out"]),
        counters=tuple(int(x) for x in d["counters"]),
        last=tuple((str(a), str(b), str(c)) for a, b, c in d["last"]),
        ruined=frozenset(str(t) for t in d.get("ruined", [])),
        rng=Rng.from_json(d["rng"]),
        fallen=tuple(figure_from_json(f) for f in d.get("fallen", [])),
        undo=None if d.get("undo") is None else _undo_from_json(d["undo"]),
        last_gm=str(d.get("last_gm", "")),
    )
