"""Scenarios: the map and the opening position as a text a game master writes (format in
``data/armageddon/RULES.md``). ``parse(text, file)`` validates everything and raises
``BadInput("armageddon.scenario.<what>", file=, line=, ...)`` naming the line."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from engines.armageddon.hexmap import (
    DIRECTIONS,
    TERRAINS,
    Edge,
    Tables,
    edge_of,
    field_name,
    neighbour,
    parse_field,
    tables_with,
)
from engines.core.content import data_dir
from engines.core.errors import BadInput

COLOURS = ("rot", "blau", "gruen", "gelb", "lila", "orange", "weiss", "schwarz")
MAX_SIZE = 40
MAX_PARTIES = 6


@dataclass(frozen=True, slots=True)
class EdgeInfo:
    river: bool = False
    bridge: bool = False
    moat: bool = False
    wall: bool = False
    gate: bool = False
    inside: str = ""  # the field on the gate's inner side


@dataclass(frozen=True, slots=True)
class Tower:
    floors: int  # levels 0 (Grundfeste) .. floors (the platform)
    owner: int
    bergfried: bool


@dataclass(frozen=True, slots=True)
class Stellung:
    name: str  # lower case: the token in notation (`siege burg`)
    owner: int
    fields: tuple[str, ...]
    title: str = ""  # the name as the scenario writes it (`Burg`), shown to people


@dataclass(frozen=True, slots=True)
class Placement:
    party: int
    kind: str
    field: str
    level: int = 0
    carrier: int = -1  # index of an earlier placement
    slot: str = ""
    facing: str = ""


@dataclass(frozen=True)
class Scenario:
    name: str
    parties: int
    rounds: int
    cols: int
    rows: int
    terrain: dict[str, str]
    height: dict[str, int]
    edges: dict[Edge, EdgeInfo]
    towers: dict[str, Tower]
    hz: dict[str, int]
    stellungen: tuple[Stellung, ...]
    placements: tuple[Placement, ...]
    reserve: tuple[tuple[int, str, int], ...]
    alliances: frozenset[tuple[int, int]]
    colours: tuple[str, ...]
    tables: Tables
    overrides: tuple[tuple[str, int], ...] = ()
    neighbours: dict[str, dict[str, str]] = field(default_factory=dict)

    def fields(self) -> list[str]:
        return [field_name(c, r) for r in range(self.rows) for c in range(self.cols)]

    def capacity(self, name: str, level: int = 0) -> int:
        if name in self.towers:
            return self.tables.number("tower_floor_capacity")
        return self.tables.capacity[self.terrain[name]]

    def edge(self, a: str, b: str) -> EdgeInfo:
        return self.edges.get(edge_of(a, b), _NO_EDGE)

    def direction(self, a: str, b: str) -> str | None:
        for d, n in self.neighbours[a].items():
            if n == b:
                return d
        return None

    def building_owner(self, name: str) -> int | None:
        """The owner of a building on ``name`` (a tower or a Stellung's field), else None."""
        if name in self.towers:
            return self.towers[name].owner
        for st in self.stellungen:
            if name in st.fields:
                return st.owner
        return None


_NO_EDGE = EdgeInfo()


class _Reader:
    def __init__(self, file: str) -> None:
        self.file = file
        self.line = 0

    def fail(self, what: str, **params: object) -> BadInput:
        return BadInput(f"armageddon.scenario.{what}", file=self.file, line=self.line, **params)


NUMBER_DIGITS = 9  # no field needs more; int() stops at 4,300 digits with a ValueError


def _int(reader: _Reader, token: str, low: int, high: int) -> int:
    if len(token) > NUMBER_DIGITS or not token.isdecimal() or not low <= int(token) <= high:
        raise reader.fail("bad_number", token=token[:20], low=low, high=high)
    return int(token)


def parse(text: str, file: str = "szenario") -> Scenario:
    """The scenario written in ``text`` (``file`` names it in errors). Raises BadInput."""
    return _parse_cached(text, file)


@lru_cache(maxsize=32)
def _parse_cached(text: str, file: str) -> Scenario:
    r = _Reader(file)
    lines = text.splitlines()
    name, parties, rounds = "", 0, 10
    grid: list[list[str]] = []
    edges: dict[Edge, EdgeInfo] = {}
    raw_later: list[tuple[int, str, list[str]]] = []
    in_map = False
    for number, raw in enumerate(lines, 1):
        r.line = number
        line = raw.split("#", 1)[0].rstrip()
        if in_map:
            if line.strip() == "ende":
                in_map = False
                continue
            if not line.strip():
                raise r.fail("map_unclosed")
            grid.append(line.split())
            continue
        if not line.strip():
            continue
        if ":" not in line:
            raise r.fail("no_key", text=line.strip()[:40])
        key, _, rest = line.partition(":")
        key, words = key.strip().lower(), rest.split()
        if key == "name":
            name = rest.strip()[:60]
        elif key == "parteien":
            parties = _int(r, words[0] if words else "", 2, MAX_PARTIES)
        elif key == "runden":
            rounds = _int(r, words[0] if words else "", 1, 99)
        elif key == "karte":
            if grid:
                raise r.fail("duplicate", name=key)
            in_map = True
        elif key in _LATER:
            raw_later.append((number, key, words))
        else:
            raise r.fail("unknown_key", name=key[:30])
    if in_map:
        raise r.fail("map_unclosed")
    if not grid:
        raise r.fail("no_map")
    if not parties:
        raise r.fail("missing", name="parteien")
    rows, cols = len(grid), len(grid[0])
    if rows > MAX_SIZE or cols > MAX_SIZE:
        raise r.fail("too_big", max=MAX_SIZE)
    terrain: dict[str, str] = {}
    height: dict[str, int] = {}
    map_start = next(
        i
        for i, text_line in enumerate(lines, 1)
        if text_line.split("#")[0].strip().startswith("karte")
    )
    for row, tokens in enumerate(grid):
        r.line = map_start + 1 + row
        if len(tokens) != cols:
            raise r.fail("row_length", found=len(tokens), expected=cols)
        for col, token in enumerate(tokens):
            letter, digits = token[0], token[1:]
            if letter not in TERRAINS or (digits and not digits.isdecimal()) or len(digits) > 1:
                raise r.fail("bad_terrain", token=token[:10])
            terrain[field_name(col, row)] = letter
            height[field_name(col, row)] = int(digits or 0)
    neighbours: dict[str, dict[str, str]] = {}
    for row in range(rows):
        for col in range(cols):
            near = {}
            for d in DIRECTIONS:
                nc, nr = neighbour(col, row, d)
                if 0 <= nc < cols and 0 <= nr < rows:
                    near[d] = field_name(nc, nr)
            neighbours[field_name(col, row)] = near

    def a_field(token: str) -> str:
        pos = parse_field(token)
        if pos is None or not (0 <= pos[0] < cols and 0 <= pos[1] < rows):
            raise r.fail("bad_field", token=token[:10])
        return field_name(*pos)

    def an_edge(words: list[str]) -> tuple[Edge, str, str]:
        if len(words) < 2:
            raise r.fail("bad_edge", text=" ".join(words)[:30])
        a = a_field(words[0])
        if words[1] not in DIRECTIONS:
            raise r.fail("bad_direction", token=words[1][:10])
        b = neighbours[a].get(words[1])
        if b is None:
            raise r.fail("border_edge", field=a, direction=words[1])
        return edge_of(a, b), a, b

    def a_party(token: str) -> int:
        return _int(r, token, 1, parties)

    towers: dict[str, Tower] = {}
    hz: dict[str, int] = {}
    stellungen: list[Stellung] = []
    placements: list[Placement] = []
    reserve: list[tuple[int, str, int]] = []
    alliances: set[tuple[int, int]] = set()
    colours = list(COLOURS[:parties])
    overrides: list[tuple[str, int]] = []
    tables = tables_with(())
    for number, key, words in raw_later:
        r.line = number
        if key in ("fluss", "bruecke", "graben", "mauer", "tor"):
            e, a, b = an_edge(words)
            info = edges.get(e, _NO_EDGE)
            if key == "fluss":
                info = _with(info, river=True)
            elif key == "graben":
                info = _with(info, moat=True)
            elif key == "bruecke":
                if not (info.river or info.moat):
                    raise r.fail("bridge_without_river", field=a, direction=words[1])
                info = _with(info, bridge=True)
            elif key == "mauer":
                info = _with(info, wall=True)
            else:
                inside = a
                if len(words) >= 4 and words[2] == "innen":
                    inside = a_field(words[3])
                    if inside not in (a, b):
                        raise r.fail("bad_inside", field=inside)
                elif len(words) != 2:
                    raise r.fail("bad_edge", text=" ".join(words)[:30])
                info = _with(info, wall=True, gate=True, inside=inside)
            edges[e] = info
        elif key in ("turm", "bergfried"):
            if len(words) != 4 or words[2] != "besitzer":
                raise r.fail("bad_tower", text=" ".join(words)[:30])
            f = a_field(words[0])
            if f in towers:
                raise r.fail("duplicate", name=f)
            if terrain[f] == "~":
                raise r.fail("on_water", field=f)
            towers[f] = Tower(_int(r, words[1], 1, 6), a_party(words[3]), key == "bergfried")
        elif key == "handelszentrum":
            if len(words) != 3 or words[1] != "besitzer":
                raise r.fail("bad_hz", text=" ".join(words)[:30])
            f = a_field(words[0])
            if terrain[f] == "~":
                raise r.fail("on_water", field=f)
            hz[f] = _int(r, words[2], 0, parties)  # 0: nobody's yet (neutral)
        elif key == "stellung":
            if len(words) < 5 or words[1] != "besitzer" or words[3] != "felder":
                raise r.fail("bad_stellung", text=" ".join(words)[:30])
            fields = tuple(dict.fromkeys(a_field(w) for w in words[4:]))
            label = words[0].lower()
            if not label.isascii() or not label.replace("_", "").isalnum() or len(label) > 20:
                raise r.fail("bad_stellung", text=" ".join(words)[:30])
            stellungen.append(Stellung(label, a_party(words[2]), fields, words[0]))
        elif key == "figur":
            placed = _placement(r, words, tables, a_field, a_party, placements)
            kind = tables.kinds[placed.kind]
            ground = terrain[placed.field]
            wrong = kind.water != (ground == "~") or ground in kind.forbidden
            if placed.carrier < 0 and not kind.hover and wrong:
                if ground == "~":
                    raise r.fail("kind_water", kind=kind.name, field=placed.field)
                if ground == "S":
                    raise r.fail("kind_swamp", kind=kind.name, field=placed.field)
                if ground == "W":
                    raise r.fail("kind_forest", kind=kind.name, field=placed.field)
                if ground == "B":
                    raise r.fail("kind_mountains", kind=kind.name, field=placed.field)
                raise r.fail("kind_terrain", kind=kind.name, field=placed.field)
            placements.append(placed)
        elif key == "reserve":
            if len(words) != 3 or words[1] not in tables.kinds:
                raise r.fail("bad_reserve", text=" ".join(words)[:30])
            reserve.append((a_party(words[0]), words[1], _int(r, words[2], 1, 50)))
        elif key == "buendnis":
            if len(words) != 2:
                raise r.fail("bad_alliance", text=" ".join(words)[:30])
            p, q = sorted((a_party(words[0]), a_party(words[1])))
            if p == q:
                raise r.fail("bad_alliance", text=" ".join(words)[:30])
            alliances.add((p, q))
        elif key == "farbe":
            if len(words) != 2 or words[1] not in COLOURS:
                raise r.fail("bad_colour", token=" ".join(words)[:20], colours=", ".join(COLOURS))
            colours[a_party(words[0]) - 1] = words[1]
        elif key == "regel":
            if len(words) != 2 or not (
                words[0] in tables.numbers or words[0].removeprefix("capacity_") in tables.capacity
            ):
                raise r.fail("bad_rule", token=" ".join(words)[:30])
            overrides.append((words[0], _int(r, words[1], 0, 99)))
    scenario = Scenario(
        name=name or file,
        parties=parties,
        rounds=rounds,
        cols=cols,
        rows=rows,
        terrain=terrain,
        height=height,
        edges=edges,
        towers=towers,
        hz=hz,
        stellungen=tuple(stellungen),
        placements=tuple(placements),
        reserve=tuple(reserve),
        alliances=frozenset(alliances),
        colours=tuple(colours),
        tables=tables_with(tuple(overrides)),
        overrides=tuple(overrides),
        neighbours=neighbours,
    )
    for st_line, st in zip(
        [n for n, k, _w in raw_later if k == "stellung"], scenario.stellungen, strict=True
    ):
        r.line = st_line
        _check_stellung(r, scenario, st)
    return scenario


_LATER = {
    "fluss",
    "bruecke",
    "graben",
    "mauer",
    "tor",
    "turm",
    "bergfried",
    "handelszentrum",
    "stellung",
    "figur",
    "reserve",
    "buendnis",
    "farbe",
    "regel",
}


def _with(info: EdgeInfo, **changes: object) -> EdgeInfo:
    values = {
        "river": info.river,
        "bridge": info.bridge,
        "moat": info.moat,
        "wall": info.wall,
        "gate": info.gate,
        "inside": info.inside,
    }
    values.update(changes)
    return EdgeInfo(**values)  # type: ignore[arg-type]


def _placement(
    r: _Reader,
    words: list[str],
    tables: Tables,
    a_field: object,
    a_party: object,
    earlier: list[Placement],
) -> Placement:
    assert callable(a_field) and callable(a_party)
    if len(words) < 3:
        raise r.fail("bad_figure", text=" ".join(words)[:30])
    party = int(a_party(words[0]))
    if words[1] not in tables.kinds:
        raise r.fail("unknown_kind", kind=words[1][:20], kinds=", ".join(sorted(tables.kinds)))
    kind = tables.kinds[words[1]]
    where = str(a_field(words[2]))

    level, carrier, slot, facing = 0, -1, "", ""
    rest = words[3:]
    while rest:
        word = rest.pop(0)
        if word == "ebene" and rest:
            level = _int(r, rest.pop(0), 0, 6)
        elif word == "auf" and rest:
            token = rest.pop(0)
            carrier = _carrier(token, where, earlier)
            if carrier < 0:
                raise r.fail("bad_carrier", token=token[:10])
            holder = tables.kinds[earlier[carrier].kind]
            slot = holder.holds[0][0] if holder.holds else ""
            if rest and holder.slot_capacity(rest[0]):
                slot = rest.pop(0)
            if not slot or earlier[carrier].field != where:
                raise r.fail("bad_carrier", token=token[:10])
        elif word == "blick" and rest and rest[0] in DIRECTIONS and kind.orient:
            facing = rest.pop(0)
        else:
            raise r.fail("bad_figure", text=" ".join(words)[:30])
    return Placement(party, kind.name, where, level, carrier, slot, facing)


def _carrier(token: str, where: str, earlier: list[Placement]) -> int:
    """The placement ``auf`` names: its number among the ``figur`` lines (``auf 7``) or,
    stable when lines are inserted, the last earlier figure of that kind on the same field
    (``auf pferd``); -1 for none."""
    if token.isdecimal():
        fits = len(token) <= NUMBER_DIGITS and 1 <= int(token) <= len(earlier)
        return int(token) - 1 if fits else -1
    found = [i for i, p in enumerate(earlier) if p.kind == token and p.field == where]
    return found[-1] if found else -1


def _check_stellung(r: _Reader, sc: Scenario, st: Stellung) -> None:
    """A Verteidigungsstellung is connected inside and has at least one Zugang (a gap in its
    border or a gate) through which every part is reached."""
    inside = set(st.fields)
    start = st.fields[0]
    seen = {start}
    todo = [start]
    while todo:
        here = todo.pop()
        for there in sc.neighbours[here].values():
            info = sc.edge(here, there)
            if there in inside and there not in seen and (not info.wall or info.gate):
                seen.add(there)
                todo.append(there)
    if seen != inside:
        raise r.fail("stellung_split", name=st.name, fields=", ".join(sorted(inside - seen)))
    if not access_edges(sc, st, frozenset()):
        raise r.fail("stellung_no_access", name=st.name)


def access_edges(sc: Scenario, st: Stellung, blocked: frozenset[Edge]) -> list[Edge]:
    """The Zugänge of ``st``: border edges without a wall (gaps) or with a gate, not blocked."""
    found = []
    inside = set(st.fields)
    for here in st.fields:
        for there in sc.neighbours[here].values():
            if there in inside:
                continue
            e = edge_of(here, there)
            info = sc.edge(here, there)
            if e not in blocked and (not info.wall or info.gate):
                found.append(e)
    return found


def scenario_names() -> list[str]:
    return sorted(p.stem for p in data_dir("armageddon", "scenarios").glob("*.txt"))


def load(name: str) -> tuple[str, str]:
    """The text and file name of the shipped scenario ``name``. Raises BadInput."""
    if name not in scenario_names():
        raise BadInput(
            "armageddon.error.unknown_scenario", name=name[:40], names=", ".join(scenario_names())
        )
    path = data_dir("armageddon", "scenarios", f"{name}.txt")
    return path.read_text(encoding="utf-8"), path.name
