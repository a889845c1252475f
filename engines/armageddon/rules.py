"""The mechanisms of chapter 0 (Spielmechanismen) over a :class:`State`.

Every check raises ``IllegalAction("armageddon.error.<why>", ...)`` and is shared by the move
generator (which tries it) and ``apply`` (which enforces it), so what is offered and what is
accepted are the same. Readings of missing chapters are marked ``READING`` and described in
``data/armageddon/RULES.md``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from engines.armageddon.events import EventType
from engines.armageddon.hexmap import DIRECTIONS, FigureClass, Kind, edge_of
from engines.armageddon.scenario import Scenario, Stellung, access_edges
from engines.armageddon.state import Figure, State
from engines.core.contract import Event
from engines.core.errors import IllegalAction

Raw = list[Event]
CONTROL_STILL = ("gelaehmt", "versteinert")


def fail(key: str, **params: Any) -> IllegalAction:
    return IllegalAction(f"armageddon.error.{key}", **params)


def no_ground(figure: str, field: str, terrain: str) -> IllegalAction:
    """``figure`` may not stand on ``field``: the message names the terrain."""
    if terrain == "~":
        return fail("forbidden_water", figure=figure, field=field)
    if terrain == "S":
        return fail("forbidden_swamp", figure=figure, field=field)
    if terrain == "W":
        return fail("forbidden_forest", figure=figure, field=field)
    if terrain == "B":
        return fail("forbidden_mountains", figure=figure, field=field)
    return fail("forbidden_terrain", figure=figure, field=field)


# ------------------------------------------------------------------ places and capacity


def place_of(f: Figure) -> str:
    """Where a figure takes room: a field's level (``f:c4:0``) or a carrier's place
    (``c:e3:sattel``). A hovering wizard takes none (``h:c4``)."""
    if f.carrier:
        return f"c:{f.carrier}:{f.slot}"
    return f"f:{f.field}:{f.level}"


@dataclass
class Index:
    """Lookups over one state, built once per question."""

    state: State
    sc: Scenario
    by_id: dict[str, Figure]
    by_place: dict[str, list[Figure]]
    carried: dict[str, list[Figure]]

    def kind(self, f: Figure) -> Kind:
        return self.sc.tables.kinds[f.kind]

    def get(self, fid: str) -> Figure:
        f = self.by_id.get(fid)
        if f is None:
            raise fail("no_figure", figure=fid)
        return f

    def capacity(self, place: str) -> int:
        tag, where, sub = place.split(":")
        if tag == "f":
            return self.sc.capacity(where, int(sub))
        carrier = self.by_id.get(where)
        return 0 if carrier is None else self.kind(carrier).slot_capacity(sub)

    def used(self, place: str, extra: Iterable[Figure] = (), without: Iterable[str] = ()) -> int:
        gone = set(without)
        figs = [f for f in self.by_place.get(place, []) if f.id not in gone] + list(extra)
        return sum(self.use(f) for f in figs)

    def use(self, f: Figure) -> int:
        k = self.kind(f)
        if k.hover:
            return 0
        if f.carrier:
            return 1 if k.cls == FigureClass.KRIEGER else k.use
        return 99 if k.fills else k.use

    def over(self, place: str, extra: Iterable[Figure] = (), without: Iterable[str] = ()) -> bool:
        """Whether ``place`` holds more than it has room for (with ``extra`` added and
        ``without`` gone): a large figure (fills) takes its whole field."""
        gone = set(without)
        figs = [f for f in self.by_place.get(place, []) if f.id not in gone] + list(extra)
        figs = [f for f in figs if not self.kind(f).hover]
        if any(self.kind(f).fills and not f.carrier for f in figs):
            return len(figs) > 1
        if sum(self.use(f) for f in figs) > self.capacity(place):
            return True
        return self.too_many_warriors(place, extra, gone)

    def too_many_warriors(self, place: str, extra: Iterable[Figure], gone: set[str]) -> bool:
        """Kap. 0: "dass sich auf keinem Kleinfeld zu keinem Zeitpunkt mehr als 4 Krieger
        aufhalten" — counted on the Kleinfeld (a tower: on the level) with the warriors on
        ladders, horses and elephants standing there. A figure that fills its field has the
        room of the table instead (a siege tower 3 + 2, a wagon 3, a deck)."""
        tag, where, sub = place.split(":")
        if tag == "c":
            holder = self.by_id.get(where)
            if holder is None or self.kind(holder).fills:
                return False
            fld, level = holder.field, holder.level
        else:
            fld, level = where, int(sub)
        coming = list(extra)
        todo = list(coming)
        while todo:  # what the newcomers carry comes along
            for g in self.carried.get(todo.pop().id, []):
                coming.append(g)
                todo.append(g)
        leaving = [self.by_id[i] for i in gone if i in self.by_id]
        while leaving:  # what the leavers carry leaves with them
            for g in self.carried.get(leaving.pop().id, []):
                gone = gone | {g.id}
                leaving.append(g)
        skip = gone | {f.id for f in coming}
        inside_fills = {f.id for f in self.state.figures if self.kind(f).fills and f.field == fld}
        here = [
            f
            for f in self.state.figures
            if f.field == fld
            and f.level == level
            and f.id not in skip
            and f.carrier not in inside_fills
        ]
        count = len(self.warriors(here + coming))
        return count > self.sc.tables.number("field_warriors")

    def on_field(self, field: str, level: int | None = None) -> list[Figure]:
        """Every figure on ``field`` (at ``level``), carried ones included."""
        return [
            f
            for f in self.state.figures
            if f.field == field and (level is None or f.level == level)
        ]

    def warriors(self, figs: Iterable[Figure]) -> list[Figure]:
        return [f for f in figs if self.kind(f).cls == FigureClass.KRIEGER]


def index(state: State) -> Index:
    by_place: dict[str, list[Figure]] = defaultdict(list)
    carried: dict[str, list[Figure]] = defaultdict(list)
    sc = state.scenario
    for f in state.figures:
        if sc.tables.kinds[f.kind].hover:
            continue
        by_place[place_of(f)].append(f)
        if f.carrier:
            carried[f.carrier].append(f)
    return Index(state, sc, {f.id: f for f in state.figures}, dict(by_place), dict(carried))


def overcrowded(state: State) -> list[str]:
    """Every place holding more than it has room for, in a stable order."""
    idx = index(state)
    return sorted(p for p in idx.by_place if idx.over(p))


# ------------------------------------------------------------------ sides and majority


def blocks(state: State) -> dict[int, int]:
    """Each party's alliance block (the smallest party in it): the scenario's and the game
    master's alliances together with the match's teams."""
    parent = {p: p for p in range(1, state.parties + 1)}

    def root(p: int) -> int:
        while parent[p] != p:
            p = parent[p]
        return p

    pairs = set(state.alliances)
    if state.teams:
        for p in parent:
            for q in parent:
                if p < q and state.teams[p] == state.teams[q]:
                    pairs.add((p, q))
    for p, q in pairs:
        a, b = root(p), root(q)
        if a != b:
            parent[max(a, b)] = min(a, b)
    return {p: root(p) for p in parent}


def allied(state: State, p: int, q: int) -> bool:
    if p == q:
        return True
    if not p or not q:
        return False
    b = blocks(state)
    return b.get(p) == b.get(q)


def still(state: State, f: Figure) -> bool:
    """Whether ``f`` is gelähmt or versteinert now (READING: it cannot fight, so it neither
    counts for a majority nor holds a Handelszentrum, and defends with its roll alone)."""
    return f.enchant in CONTROL_STILL and f.enchant_until >= state.round


def counts(idx: Index, figs: Iterable[Figure]) -> dict[int, int]:
    """Each party's warriors among ``figs`` that can fight (a spellbound one does not)."""
    out: dict[int, int] = defaultdict(int)
    for f in idx.warriors(figs):
        if f.owner and not still(idx.state, f):
            out[f.owner] += 1
    return dict(out)


def party_majority(tally: dict[int, int]) -> int:
    """The one party with more warriors than every other, else 0."""
    if not tally:
        return 0
    top = max(tally.values())
    best = [p for p, n in tally.items() if n == top]
    return best[0] if len(best) == 1 else 0


def block_majority(state: State, tally: dict[int, int]) -> frozenset[int]:
    """The parties of the alliance block with more warriors than every other block (allies
    count together); empty when nobody has the majority."""
    b = blocks(state)
    per: dict[int, int] = defaultdict(int)
    for p, n in tally.items():
        per[b.get(p, p)] += n
    if not per:
        return frozenset()
    top = max(per.values())
    best = [blk for blk, n in per.items() if n == top]
    if len(best) != 1:
        return frozenset()
    return frozenset(p for p in tally if b.get(p, p) == best[0])


def counted_for(idx: Index, thing: Figure) -> list[Figure]:
    """The figures whose warriors decide a device's majority: those on it (ship, quadriga)
    or on its Kleinfeld (ram, tortoise, ladder, siege tower, onager)."""
    k = idx.kind(thing)
    if k.cls == FigureClass.SCHIFF or thing.kind == "quadriga":
        return [f for f in idx.state.figures if f.carrier == thing.id]
    return idx.on_field(thing.field, thing.level)


def controls_device(idx: Index, thing: Figure, party: int) -> bool:
    """The possessor controls a device only while his side has the majority on it."""
    if thing.possessor != party:
        return False
    return party in block_majority(idx.state, counts(idx, counted_for(idx, thing)))


def refresh_majorities(state: State) -> State:
    """Remember who last had the majority on each device, ship and quadriga (for ties): the
    party whose side has it (allies together: the possessor if he is among them, else the
    ally with most warriors there)."""
    idx = index(state)
    changed = []
    dirty = False
    for f in state.figures:
        if idx.kind(f).cls in (FigureClass.GERAET, FigureClass.SCHIFF):
            tally = counts(idx, counted_for(idx, f))
            side = block_majority(state, tally)
            holder = (
                f.possessor
                if f.possessor in side
                else max(sorted(side), key=lambda p: tally[p], default=0)
            )
            if holder and holder != f.last_majority:
                f = replace(f, last_majority=holder)
                dirty = True
        changed.append(f)
    return state.with_figures(changed) if dirty else state


# ------------------------------------------------------------------ order


def party_order(state: State, first: int | None = None) -> list[int]:
    """The parties still playing in seat order, starting with ``first`` (READING: the round's
    first party moves on by one each round)."""
    n = state.parties
    alive = [p for p in range(1, n + 1) if p not in state.out]
    if not alive:
        return []
    start = first if first is not None else ((state.round - 1) % n) + 1
    return sorted(alive, key=lambda p: (p - start) % n)


# ------------------------------------------------------------------ movement


def steps_allowed(state: State, f: Figure) -> int:
    t = state.scenario.tables
    fast = f.enchant in ("beschleunigt", "lokaler_wind") and f.enchant_until >= state.round
    return t.number("steps_hastened") if fast else t.number("steps_per_round")


def charmed_by(state: State, f: Figure) -> int:
    """The party whose wizard cast Fremde Tiere bewegen on the animal ``f`` (0: none or run
    out). READING: while the spell lasts that party alone moves the animal; its owner and its
    rider do not steer it."""
    if f.enchant == "gefuehrt" and f.enchant_until >= state.round:
        return f.charmed_by
    return 0


def _can_act_on(idx: Index, f: Figure, party: int) -> None:
    if f.enchant in CONTROL_STILL and f.enchant_until >= idx.state.round:
        raise fail("spellbound", figure=f.id, spell=f.enchant)
    if f.mover not in (0, party):
        raise fail("moved_by_other", figure=f.id)
    if f.faced:
        raise fail("turned", figure=f.id)


def _movable(idx: Index, f: Figure, party: int) -> list[Figure]:
    """Raises unless ``party`` may step ``f`` now; returns the figures that go along (a
    device's transport crew, animals led by the rein)."""
    k = idx.kind(f)
    _can_act_on(idx, f, party)
    along: list[Figure] = []
    if k.cls in (FigureClass.KRIEGER, FigureClass.ZAUBERER, FigureClass.FABELWESEN):
        if f.owner != party:
            raise fail("not_yours", figure=f.id)
        if f.carrier:
            holder = idx.by_id[f.carrier]
            hk = idx.kind(holder)
            if not (hk.cls == FigureClass.SCHIFF or holder.kind == "leiter" or f.slot == "oben"):
                raise fail("carried", figure=f.id, carrier=holder.id)
        along = [a for a in idx.state.figures if a.led_by == f.id]
        for animal in along:  # taken over right after another party moved it: not this round
            if animal.mover not in (0, party):
                raise fail("moved_by_other", figure=animal.id)
            if charmed_by(idx.state, animal) not in (0, party):
                raise fail("charmed", figure=animal.id, party=charmed_by(idx.state, animal))
    elif k.cls == FigureClass.TIER:
        charmer = charmed_by(idx.state, f)
        if charmer == party:  # Fremde Tiere bewegen: the caster's side moves it
            return along
        if charmer:
            raise fail("charmed", figure=f.id, party=charmer)
        if f.owner != party:
            raise fail("not_yours", figure=f.id)
        if f.led_by:
            raise fail("led", figure=f.id, leader=f.led_by)
        riders = [r for r in idx.carried.get(f.id, []) if r.owner == party]
        if not riders:
            raise fail("no_rider", figure=f.id)
    else:  # devices and ships
        if f.possessor != party:
            raise fail("not_yours", figure=f.id)
        if not controls_device(idx, f, party):
            raise fail("no_majority", figure=f.id)
        if k.crew:
            crew = [
                c
                for c in idx.by_place.get(place_of(f), [])
                if idx.kind(c).cls == FigureClass.KRIEGER and c.owner == party and not c.faced
            ]
            crew = [c for c in crew if c.mover in (0, party)][: k.crew]
            if len(crew) < k.crew:
                raise fail("no_crew", figure=f.id, crew=k.crew)
            along = crew
        elif not any(c.owner == party for c in idx.carried.get(f.id, [])):
            raise fail("no_driver", figure=f.id)
    return along


def step_cost(
    idx: Index, f: Figure, target: str, party: int, *, ignore_room: bool = False
) -> tuple[int, str, list[Figure], bool]:
    """The cost (1 or 2 steps: the chapter's Doppelschritt cases), the place the figure lands
    on, the figures going along and whether the step tramples. Raises IllegalAction."""
    sc, state = idx.sc, idx.state
    k = idx.kind(f)
    along = _movable(idx, f, party)
    if target not in sc.neighbours[f.field].values():
        raise fail("not_adjacent", figure=f.id, field=target, at=f.field)
    if k.hover:  # a wizard hovers (READING: no terrain, wall or river costs)
        owner = sc.building_owner(target)
        if owner is not None and not allied(state, owner, party):
            foes = [
                w for w in idx.warriors(idx.on_field(target)) if not allied(state, w.owner, party)
            ]
            if foes:
                raise fail("foreign_building", field=target)
        cost, dest = 1, f"h:{target}"
        return _check_steps(idx, f, along, cost, to=target), dest, along, False
    double, why = False, ""
    dest_level = 0
    holder = idx.by_id.get(f.carrier) if f.carrier else None
    ship_there = [
        s for s in idx.by_place.get(f"f:{target}:0", []) if idx.kind(s).cls == FigureClass.SCHIFF
    ]
    if holder is not None and idx.kind(holder).cls == FigureClass.SCHIFF:  # going ashore
        if sc.terrain[target] == "~":
            raise fail("water", field=target)
        double = idx.kind(holder).board_double
        why = "ashore"
        dest = f"f:{target}:0"
    elif holder is not None:  # from a ladder or a siege tower's top onto a platform
        if holder.facing and sc.neighbours[holder.field].get(holder.facing) != target:
            raise fail("not_onto_platform", figure=f.id, field=target)
        if target not in sc.towers or not holder.facing:
            raise fail("not_onto_platform", figure=f.id, field=target)
        double, why = True, "platform"
        dest_level = sc.towers[target].floors
        dest = f"f:{target}:{dest_level}"
    elif k.cls == FigureClass.KRIEGER and ship_there:  # boarding a ship from the shore
        ship = ship_there[0]
        double, why = idx.kind(ship).board_double, "board"
        dest = f"c:{ship.id}:{idx.kind(ship).holds[0][0]}"
    else:
        if f.level > 0:
            raise fail("in_tower", figure=f.id)
        terrain = sc.terrain[target]
        if k.water != (terrain == "~"):
            raise fail("water" if terrain == "~" else "needs_water", field=target)
        if terrain in k.forbidden:
            raise no_ground(f.id, target, terrain)
        if target in sc.towers and (
            k.fills or k.cls not in (FigureClass.KRIEGER, FigureClass.TIER)
        ):
            raise fail("forbidden_tower", figure=f.id, field=target)
        double = edge_double(idx, k, f.field, target)
        for x in along:  # a led animal or the crew must be able to go there too
            xk = idx.kind(x)
            if terrain in xk.forbidden or xk.water:
                raise no_ground(x.id, target, terrain)
            if target in sc.towers and xk.cls != FigureClass.KRIEGER:
                raise fail("forbidden_tower", figure=x.id, field=target)
            double = edge_double(idx, xk, f.field, target) or double
        why = double_why(idx, f.field, target)
        dest = f"f:{target}:0"
    cost = _check_steps(idx, f, along, 2 if double else 1, why, target)
    tramples = False
    if not ignore_room and idx.over(dest, [f, *along]):
        foes = [
            x
            for x in idx.by_place.get(dest, [])
            if idx.kind(x).cls in (FigureClass.KRIEGER, FigureClass.TIER)
            and not allied(state, x.owner, party)
        ]
        if k.tramples and foes:
            tramples = True
        elif idx.used(dest, [f, *along]) <= idx.capacity(dest):  # room enough, too many men
            raise fail("four_warriors", field=target, max=sc.tables.number("field_warriors"))
        else:
            raise fail("full", field=target)
    return cost, dest, along, tramples


def edge_double(idx: Index, k: Kind, src: str, target: str) -> bool:
    """Whether crossing from ``src`` to the neighbouring ``target`` is a Doppelschritt (a wall
    climbed, a river or moat without a bridge, a height difference); raises where ``k`` may
    not cross at all."""
    sc, state = idx.sc, idx.state
    info = sc.edge(src, target)
    e = edge_of(src, target)
    double = False
    carries_things = k.cls not in (FigureClass.KRIEGER, FigureClass.TIER, FigureClass.FABELWESEN)
    if info.wall and e not in state.breached and not (info.gate and e in state.gates_open):
        if k.cls != FigureClass.KRIEGER:
            raise fail("wall", figure=k.name)
        double = True  # Mauer übersteigen
    if info.river and not info.bridge:
        if carries_things:
            raise fail("river", figure=k.name)
        double = True  # durch Fluss bewegen
    if info.moat and not info.bridge:
        if carries_things:
            raise fail("moat", figure=k.name)
        double = True  # über Graben bewegen
    rise = abs(sc.height[target] - sc.height[src])
    if rise > sc.tables.number("height_max_step"):
        raise fail("too_steep", field=target)
    return double or rise > 0  # Höhenunterschied nach oben oder unten


def step_why(idx: Index, f: Figure, target: str) -> str:
    """Why ``f``'s step to ``target`` costs two steps (a key of ``why``: ashore, board,
    platform, wall, river, moat, height; '' when the chapter names no reason)."""
    holder = idx.by_id.get(f.carrier) if f.carrier else None
    if holder is not None:
        return "ashore" if idx.kind(holder).cls == FigureClass.SCHIFF else "platform"
    if idx.kind(f).cls == FigureClass.KRIEGER and any(
        idx.kind(s).cls == FigureClass.SCHIFF for s in idx.by_place.get(f"f:{target}:0", [])
    ):
        return "board"
    return double_why(idx, f.field, target)


def double_why(idx: Index, src: str, target: str) -> str:
    """Why stepping from ``src`` to ``target`` is a Doppelschritt, for a message: the first of
    wall, river, moat, height (''  when it is not one)."""
    sc, state = idx.sc, idx.state
    info = sc.edge(src, target)
    e = edge_of(src, target)
    if info.wall and e not in state.breached and not (info.gate and e in state.gates_open):
        return "wall"
    if info.river and not info.bridge:
        return "river"
    if info.moat and not info.bridge:
        return "moat"
    return "height" if sc.height[target] != sc.height[src] else ""


def _check_steps(
    idx: Index, f: Figure, along: list[Figure], cost: int, why: str = "", to: str = ""
) -> int:
    """Raises unless ``f`` and those going along have ``cost`` steps left; the message says
    where to and why the step costs two (``why``: a key of ``error.no_steps_*``)."""
    for x in (f, *along):
        left = steps_allowed(idx.state, x) - x.steps
        if cost > left:
            key = f"no_steps_{why}" if cost == 2 and why else "no_steps"
            raise fail(key, figure=x.id, cost=cost, left=max(left, 0), field=to or f.field)
    return cost


def move_to(
    state: State, moved: dict[str, tuple[str, int, str, str]], cost: dict[str, int], party: int
) -> State:
    """Put figures on new places (id -> field, level, carrier, slot); what they carry goes along."""
    out = []
    figs = {f.id: f for f in state.figures}
    # carried figures follow their carrier's field (recursively: a rider on a horse on a ship)
    targets = dict(moved)
    changed = True
    while changed:
        changed = False
        for f in state.figures:
            if f.id not in targets and f.carrier in targets:
                fld, lvl, _c, _s = targets[f.carrier]
                targets[f.id] = (fld, lvl, f.carrier, f.slot)
                changed = True
    for f in state.figures:
        if f.id in targets:
            fld, lvl, carrier, slot = targets[f.id]
            f = replace(
                f,
                field=fld,
                level=lvl,
                carrier=carrier,
                slot=slot,
                steps=f.steps + cost.get(f.id, 0),
                mover=party if f.id in cost else f.mover,
            )
            if f.led_by and f.led_by in figs and f.led_by not in targets:
                f = replace(f, led_by="")  # a led animal stays behind: the rein is let go
        out.append(f)
    return state.with_figures(out)


def dest_tuple(idx: Index, dest: str) -> tuple[str, int, str, str]:
    tag, where, sub = dest.split(":") if dest.count(":") == 2 else (*dest.split(":"), "0")
    if tag == "c":
        carrier = idx.by_id[where]
        return carrier.field, carrier.level, where, sub
    return where, int(sub), "", ""


# ------------------------------------------------------------------ dice


def roll(
    state: State, why: str, who: int, count: int = 1, figure: str = ""
) -> tuple[list[int], State, Event]:
    """Dice from the state's generator, as an event (``figure``: the one that throws)."""
    rolls, rng = state.rng.dice(count, 6)
    data: dict[str, Any] = {"why": why, "player": who, "rolls": rolls}
    if figure:
        data["figure"] = figure
    return rolls, replace(state, rng=rng), Event(EventType.DICE, data)


def remove_figures(state: State, ids: set[str], events: Raw, why: str) -> State:
    """Take figures out of the game; what they carried falls onto their place (a rider off a
    dead horse, the saddle of a dead elephant, the crew of a tortoise)."""
    if not ids:
        return state
    gone = {f.id: f for f in state.figures if f.id in ids}
    out = []
    for f in state.figures:
        if f.id in gone:
            events.append(Event(EventType.REMOVED, {"figure": f.id, "player": f.owner, "why": why}))
            continue
        if f.carrier in gone:
            holder = gone[f.carrier]
            f = replace(f, carrier=holder.carrier, slot=holder.slot, level=holder.level)
        if f.led_by in gone:
            f = replace(f, led_by="")
        out.append(f)
    fallen = (*state.fallen, *gone.values())[-64:]  # as they were: the game master restores
    return replace(state.with_figures(out), fallen=fallen)


def fight(state: State, a: Figure, d: Figure, why: str, events: Raw) -> tuple[State, str]:
    """READING (combat chapter missing): each side rolls W6 + its value (attack / defence,
    ±1 for gestärkt / geschwächt, +1 geschützt); the higher kills the other, a tie is
    nothing. Returns the state and the id of the fallen figure ('' for none)."""
    t = state.scenario.tables

    def value(f: Figure, base: int) -> int:
        if still(state, f):  # gelähmt: no parry, only the roll
            return 0
        bonus = {"gestaerkt": 1, "geschwaecht": -1, "geschuetzt": 1}.get(f.enchant, 0)
        return base + (bonus if f.enchant_until >= state.round else 0)

    rolls, rng = state.rng.dice(2, 6)
    state = replace(state, rng=rng)
    values = [value(a, t.kinds[a.kind].attack), value(d, t.kinds[d.kind].defence)]
    att, dfn = rolls[0] + values[0], rolls[1] + values[1]
    data = {"why": why, "attacker": a.id, "defender": d.id, "rolls": rolls, "values": values}
    events.append(Event(EventType.FIGHT, {**data, "totals": [att, dfn]}))
    if att == dfn:
        return state, ""
    loser = d if att > dfn else a
    return remove_figures(state, {loser.id}, events, why), loser.id


# ------------------------------------------------------------------ Zugang and hunger


def hungering(state: State) -> list[str]:
    """The Stellungen without a Zugang whose people must hunger: the only Zugang lost (no
    declaration of a siege needed); a ladder or siege tower the defender set against one of
    its towers ends the hunger unless an attacker declared the siege."""
    sc = state.scenario
    starving = []
    for st in sc.stellungen:
        blocked = frozenset(e for e in state.blocked if e not in state.breached)
        if access_edges(sc, st, blocked) or _breach_gap(state, st):
            continue
        relief = False
        for f in state.figures:
            if (
                f.kind in ("leiter", "belagerungsturm")
                and f.possessor
                and allied(state, f.possessor, st.owner)
            ):
                front = sc.neighbours[f.field].get(f.facing) if f.facing else None
                if front in st.fields and front in sc.towers:
                    relief = True
        sieged = any(name == st.name and not allied(state, p, st.owner) for name, p in state.sieges)
        if not (relief and not sieged):
            starving.append(st.name)
    return starving


def _breach_gap(state: State, st: Stellung) -> bool:
    inside = set(st.fields)
    return any((a in inside) != (b in inside) for a, b in state.breached)


def hunger(state: State, events: Raw) -> State:
    need = state.scenario.tables.number("hunger_survive")
    sc = state.scenario
    for name in hungering(state):
        st = next(s for s in sc.stellungen if s.name == name)
        victims = [
            f
            for f in state.figures
            if f.field in st.fields
            and sc.tables.kinds[f.kind].cls in (FigureClass.KRIEGER, FigureClass.TIER)
        ]
        if not victims:
            continue
        events.append(
            Event(EventType.HUNGER, {"stellung": name, "figures": [f.id for f in victims]})
        )
        dead = set()
        for f in victims:
            rolls, state, ev = roll(state, "hunger", f.owner, figure=f.id)
            events.append(ev)
            if rolls[0] < need:
                dead.add(f.id)
        state = remove_figures(state, dead, events, "hunger")
    return state


def direction_ok(direction: str) -> bool:
    return direction in DIRECTIONS
