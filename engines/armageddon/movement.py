"""The movement phase (Bewegung): steps, tower floors, mounting, leading, climbing,
turning and swaps, each party in turn until ``end``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engines.armageddon import rules as R
from engines.armageddon.actions import (
    Action,
    Climb,
    Dismount,
    Down,
    End,
    Face,
    Lead,
    Mount,
    MoveAction,
    Release,
    Step,
    Swap,
    Up,
)
from engines.armageddon.crowds import settle_crowds, trample
from engines.armageddon.events import EventType
from engines.armageddon.flow import advance
from engines.armageddon.gamemaster import set_figure
from engines.armageddon.hexmap import DIRECTIONS, FigureClass, SwapRule
from engines.armageddon.rules import Index, fail, index, place_of
from engines.armageddon.state import Figure, State
from engines.core.contract import Event
from engines.core.errors import IllegalAction


def _rein_once(state: State, animal: Figure) -> None:
    """READING: taking an animal by the rein and letting it go are declarations (Kap. 0,
    Erklärung), so like every declaration once per object and round."""
    if animal.declared == state.round:
        raise fail("rein_once", figure=animal.id)


def move_actions(state: State, party: int) -> list[Action]:
    idx = index(state)
    sc = idx.sc
    out: list[Action] = []

    def ok(a: MoveAction) -> None:
        try:
            _check_move(state, idx, a, party)
        except IllegalAction:
            return
        out.append(a)

    for f in state.figures:
        mine = f.owner == party or f.possessor == party or f.mover == party
        mine = mine or R.charmed_by(state, f) == party
        if not mine:
            continue
        k = idx.kind(f)
        for target in sc.neighbours[f.field].values():
            ok(Step(f.id, target))
        if f.field in sc.towers and not f.carrier and k.cls == FigureClass.KRIEGER:
            ok(Up(f.id))
            ok(Down(f.id))
        if k.cls == FigureClass.KRIEGER and not f.carrier:
            near = [
                g for n in sc.neighbours[f.field].values() for g in idx.by_place.get(f"f:{n}:0", [])
            ]
            for h in idx.by_place.get(place_of(f), []) + [g for g in near if idx.kind(g).fills]:
                hk = idx.kind(h)
                if h.id == f.id or not hk.holds or hk.cls == FigureClass.SCHIFF:
                    continue
                if h.kind == "leiter":
                    ok(Climb(f.id, h.id))
                    continue
                for slot, _cap in hk.holds:
                    ok(Mount(f.id, h.id, slot) if len(hk.holds) > 1 else Mount(f.id, h.id))
                if hk.cls == FigureClass.TIER:
                    ok(Lead(f.id, h.id))
        if f.carrier:
            holder = idx.by_id.get(f.carrier)
            if holder is not None and idx.kind(holder).fills:
                for there in sc.neighbours[holder.field].values():
                    ok(Dismount(f.id, there))
            else:
                ok(Dismount(f.id))
        if f.led_by:
            ok(Release(f.id))
        if k.orient:
            for d in DIRECTIONS:
                ok(Face(f.id, d))
        if k.swap != SwapRule.NO and not f.carrier:
            for g in _swap_partners(idx, f, party):
                ok(Swap(f.id, g))
    out.append(End())
    return out


def _swap_partners(idx: Index, f: Figure, party: int) -> list[str]:
    sc = idx.sc
    out = []
    here = place_of(f)
    if f.field in sc.towers:  # inside a tower: no restriction between neighbouring floors
        for g in idx.by_place.get(f"f:{f.field}:{f.level + 1}", []) + idx.by_place.get(
            f"f:{f.field}:{f.level - 1}", []
        ):
            if g.owner == party:
                out.append(g.id)
        return out
    if idx.used(here) < idx.capacity(here):
        return out
    for there in sc.neighbours[f.field].values():
        place = f"f:{there}:0"
        mine = [
            g for g in idx.by_place.get(place, []) if (g.owner == party or g.possessor == party)
        ]
        out += [g.id for g in mine]
        if idx.use(f) + idx.kind(f).crew >= 2:
            out += [f"{a.id}+{b.id}" for i, a in enumerate(mine) for b in mine[i + 1 :]]
    return out


def _fig_arg(idx: Index, token: str) -> Figure:
    return idx.get(token)


def _held(a: Mount | Lead | Climb) -> str:
    """The figure a warrior mounts, leads or climbs."""
    if isinstance(a, Mount):
        return a.carrier
    return a.animal if isinstance(a, Lead) else a.ladder


def _check_move(state: State, idx: Index, a: MoveAction, party: int) -> Any:
    """Raises unless movement action ``a`` is legal for ``party``; returns what apply needs."""
    sc = idx.sc
    if isinstance(a, End):
        return None
    f = _fig_arg(idx, a.figure)
    k = idx.kind(f)
    if isinstance(a, Step):
        if a.to not in sc.terrain:
            raise fail("bad_field", field=a.to)
        return R.step_cost(idx, f, a.to, party)
    if isinstance(a, Up | Down):
        R._movable(idx, f, party)
        if k.cls != FigureClass.KRIEGER or f.carrier or f.field not in sc.towers:
            raise fail("no_tower", field=f.field)
        level = f.level + (1 if isinstance(a, Up) else -1)
        if not 0 <= level <= sc.towers[f.field].floors:
            raise fail("no_floor", field=f.field, level=level)
        up = isinstance(a, Up)  # über Aufgang nach oben: a Doppelschritt
        cost = R._check_steps(idx, f, [], 2 if up else 1, "stairs" if up else "", f.field)
        dest = f"f:{f.field}:{level}"
        if idx.over(dest, [f]):
            raise fail("full", field=f.field)
        return cost, dest
    if isinstance(a, Mount | Lead | Climb):
        R._movable(idx, f, party)
        if k.cls != FigureClass.KRIEGER or f.carrier:
            raise fail("cannot_mount", figure=f.id)
        h = _fig_arg(idx, _held(a))
        hk = idx.kind(h)
        if h.carrier or not hk.holds or hk.cls == FigureClass.SCHIFF or h.id == f.id:
            raise fail("cannot_mount", figure=f.id)
        base = 1
        if hk.fills:  # nobody stands beside it: one climbs on from the neighbouring field
            if not isinstance(a, Mount) or h.level or f.level:
                raise fail("cannot_mount", figure=f.id)
            if h.field not in sc.neighbours[f.field].values():
                raise fail("not_adjacent", figure=f.id, field=h.field, at=f.field)
            base = 2 if R.edge_double(idx, k, f.field, h.field) else 1
        elif h.field != f.field or h.level != f.level:
            raise fail("cannot_mount", figure=f.id)
        if isinstance(a, Climb):
            front = sc.neighbours[h.field].get(h.facing) if h.facing else None
            if h.kind != "leiter" or front not in sc.towers:
                raise fail("ladder_not_set", figure=h.id)
            dest = f"c:{h.id}:leiter"
            if idx.over(dest, [f]):
                raise fail("full", field=h.id)
            return 0, dest  # an Aktion, no step
        if h.kind == "leiter":
            raise fail("cannot_mount", figure=f.id)
        if hk.cls == FigureClass.TIER:
            _may_take_animal(idx, f, h, party, leading=isinstance(a, Lead))
        if isinstance(a, Lead):
            if hk.cls != FigureClass.TIER or h.led_by or idx.carried.get(h.id):
                raise fail("cannot_lead", figure=h.id)
            _rein_once(state, h)
            return 0, ""  # a movement one only declares
        slot = a.slot or hk.holds[0][0]
        if not hk.slot_capacity(slot) or (len(hk.holds) > 1 and not a.slot):
            raise fail("bad_slot", figure=h.id, slot=slot)
        dest = f"c:{h.id}:{slot}"
        if idx.over(dest, [f]):
            raise fail("full", field=h.id)
        double = hk.mount_double or slot == "oben"  # Auf- und Absteigen auf Quadrigawagen, Elefant
        why = "mount" if double else R.double_why(idx, f.field, h.field)
        return R._check_steps(idx, f, [], 2 if double or base == 2 else 1, why, h.field), dest
    if isinstance(a, Dismount):
        R._can_act_on(idx, f, party)
        if f.owner != party or not f.carrier:
            raise fail("not_mounted", figure=f.id)
        h = idx.by_id[f.carrier]
        hk = idx.kind(h)
        if hk.cls == FigureClass.SCHIFF or h.kind == "leiter":
            raise fail("not_mounted", figure=f.id)
        base = 1
        if hk.fills:  # down to a neighbouring field
            if not a.to or a.to not in sc.neighbours[h.field].values():
                raise fail("bad_field", field=a.to)
            there = a.to
            if sc.terrain[there] == "~" or sc.terrain[there] in k.forbidden:
                raise R.no_ground(f.id, there, sc.terrain[there])
            if there in sc.towers:
                raise fail("forbidden_tower", figure=f.id, field=there)
            base = 2 if R.edge_double(idx, k, h.field, there) else 1
            dest = f"f:{there}:0"
        elif a.to:
            raise fail("bad_field", field=a.to)
        else:
            dest = f"c:{h.carrier}:{h.slot}" if h.carrier else f"f:{h.field}:{h.level}"
        if idx.over(dest, [f], without=[f.id]):
            raise fail("full", field=dest.split(":")[1])
        double = hk.mount_double or f.slot == "oben" or base == 2
        return R._check_steps(idx, f, [], 2 if double else 1), dest
    if isinstance(a, Release):
        if not f.led_by or idx.by_id.get(f.led_by) is None or idx.by_id[f.led_by].owner != party:
            raise fail("not_led", figure=f.id)
        _rein_once(state, f)
        return None
    if isinstance(a, Face):
        if not k.orient or a.direction not in DIRECTIONS:
            raise fail("cannot_turn", figure=f.id)
        if (f.possessor if k.cls in (FigureClass.GERAET, FigureClass.SCHIFF) else f.owner) != party:
            raise fail("not_yours", figure=f.id)
        R._can_act_on(idx, f, party)
        return None
    return _check_swap(idx, f, a.partner, party)


def _may_take_animal(idx: Index, f: Figure, h: Figure, party: int, leading: bool) -> None:
    """Own animals may be mounted or led; a foreign one only when it stands alone (no warrior
    of its owner's side on the field) and nobody rides or leads it (Eroberung)."""
    if h.owner == party:
        return
    if R.allied(idx.state, h.owner, party):
        raise fail("ally_animal", figure=h.id)
    riders = idx.carried.get(h.id, [])
    if riders or h.led_by:
        raise fail("animal_held", figure=h.id)
    guards = [
        w
        for w in idx.warriors(idx.on_field(h.field, h.level))
        if h.owner and R.allied(idx.state, w.owner, h.owner)
    ]
    if guards:
        raise fail("animal_guarded", figure=h.id)


def _check_swap(idx: Index, f: Figure, token: str, party: int) -> Any:
    """Platztausch: two neighbouring full Kleinfelder exchange figures of equal room across
    the border, each paying its step; the chapter's table says who may (Quadriga,
    Schildkröte, Belagerungsturm, Schiff never; a Phalanx not with another Phalanx; ram,
    ladder and onager with their crew); inside a tower there is no restriction."""
    sc = idx.sc
    group = [idx.get(t) for t in token.split("+")]
    if len(set(token.split("+"))) != len(group) or f in group:
        raise fail("bad_swap", figure=f.id)
    for g in group:
        if g.owner != party and g.possessor != party:
            raise fail("not_yours", figure=g.id)
    if (
        f.field in sc.towers
        and all(g.field == f.field and abs(g.level - f.level) == 1 for g in group)
        and len(group) == 1
    ):
        g = group[0]
        R._movable(idx, f, party)
        R._movable(idx, g, party)
        up_f = g.level > f.level
        R._check_steps(idx, f, [], 2 if up_f else 1)
        R._check_steps(idx, g, [], 1 if up_f else 2)
        return "tower", group
    kinds = [idx.kind(x) for x in (f, *group)]
    if any(k.swap == SwapRule.NO for k in kinds):
        raise fail("no_swap", figure=f.id)
    if idx.kind(f).swap == SwapRule.NOT_SAME and any(
        k.swap == SwapRule.NOT_SAME for k in kinds[1:]
    ):
        raise fail("no_swap_phalanx", figure=f.id)
    if len({g.field for g in group}) != 1 or any(g.carrier or g.level or f.level for g in group):
        raise fail("bad_swap", figure=f.id)
    there = group[0].field
    a, b = f"f:{f.field}:0", f"f:{there}:0"
    if idx.used(a) < idx.capacity(a) or idx.used(b) < idx.capacity(b):
        raise fail("not_full", field=f.field)
    cost_f, _d, along_f, _t = R.step_cost(idx, f, there, party, ignore_room=True)
    moving_b: list[Figure] = []
    costs = {f.id: cost_f, **{x.id: cost_f for x in along_f}}
    for g in group:
        cost_g, _d, along_g, _t = R.step_cost(idx, g, f.field, party, ignore_room=True)
        moving_b += [g, *along_g]
        costs.update({g.id: cost_g, **{x.id: cost_g for x in along_g}})
    moving_a = [f, *along_f]
    if sum(idx.use(x) for x in moving_a) != sum(idx.use(x) for x in moving_b):
        raise fail("swap_room", figure=f.id)
    if {x.id for x in moving_a} & {x.id for x in moving_b}:
        raise fail("bad_swap", figure=f.id)
    gone_a, gone_b = {x.id for x in moving_a}, {x.id for x in moving_b}
    if idx.too_many_warriors(b, moving_a, gone_b) or idx.too_many_warriors(a, moving_b, gone_a):
        raise fail("four_warriors", field=there, max=sc.tables.number("field_warriors"))
    return "field", (moving_a, moving_b, costs, there)


def apply_move(state: State, a: MoveAction, party: int, events: list[Event]) -> State:
    idx = index(state)
    info = _check_move(state, idx, a, party)
    if isinstance(a, End):
        events.append(Event(EventType.MOVEMENT_ENDED, {"player": party}))
        return advance(state, events)
    f = idx.get(a.figure)
    if isinstance(a, Step):
        cost, dest, along, tramples = info
        target = R.dest_tuple(idx, dest)
        moved = {f.id: target}
        for x in along:
            moved[x.id] = (
                (target[0], target[1], "", "")
                if not x.carrier
                else (target[0], target[1], x.carrier, x.slot)
            )
            if idx.kind(x).cls == FigureClass.KRIEGER:  # the crew walks beside the device
                moved[x.id] = (target[0], target[1], "", "")
        costs = {x: cost for x in moved}
        new = R.move_to(state, moved, costs, party)
        stepped: dict[str, Any] = {
            "player": party,
            "figure": f.id,
            "from": f.field,
            "to": a.to,
            "cost": cost,
        }
        if cost == 2:  # a Doppelschritt: say why
            stepped["double"] = R.step_why(idx, f, a.to) or "other"
        events.append(Event(EventType.STEPPED, stepped))
        new = replace(new, last=(*new.last, (f.id, f.field, a.to))[-24:])
        if tramples:
            events.append(Event(EventType.TRAMPLING, {"figure": f.id, "field": a.to}))
            new = trample(new, dest, R.index(new).get(f.id), events)
        return settle_crowds(new, events, {dest: party})
    if isinstance(a, Up | Down):
        cost, dest = info
        events.append(
            Event(
                EventType.CLIMBED,
                {"player": party, "figure": f.id, "level": int(dest.split(":")[2])},
            )
        )
        return R.move_to(state, {f.id: R.dest_tuple(idx, dest)}, {f.id: cost}, party)
    if isinstance(a, Mount | Climb | Lead):
        cost, dest = info
        h = idx.get(_held(a))
        new = state
        if idx.kind(h).cls == FigureClass.TIER and h.owner != party:
            events.append(
                Event(EventType.CONQUERED, {"player": party, "figure": h.id, "from": h.owner})
            )
            new = set_figure(new, h.id, owner=party, possessor=party, declared=state.round)
        if isinstance(a, Lead):
            events.append(Event(EventType.LEADS, {"player": party, "figure": f.id, "animal": h.id}))
            return set_figure(new, h.id, led_by=f.id, declared=state.round)
        mounted: dict[str, Any] = {"player": party, "figure": f.id, "carrier": h.id, "cost": cost}
        if cost == 2:  # Auf- und Absteigen auf Quadrigawagen, Elefant; a wall, river … on the way
            why = "mount" if idx.kind(h).mount_double or dest.endswith(":oben") else ""
            mounted["double"] = why or R.double_why(idx, f.field, h.field) or "other"
        events.append(Event(EventType.MOUNTED, mounted))
        new = R.move_to(new, {f.id: R.dest_tuple(idx, dest)}, {f.id: cost} if cost else {}, party)
        return new
    if isinstance(a, Dismount):
        cost, dest = info
        off: dict[str, Any] = {"player": party, "figure": f.id, "cost": cost}
        if cost == 2:
            h = idx.by_id[f.carrier]
            why = "mount" if idx.kind(h).mount_double or f.slot == "oben" else ""
            there = dest.split(":")[1]
            off["double"] = why or R.double_why(idx, h.field, there) or "other"
        events.append(Event(EventType.DISMOUNTED, off))
        return R.move_to(state, {f.id: R.dest_tuple(idx, dest)}, {f.id: cost}, party)
    if isinstance(a, Release):
        events.append(Event(EventType.RELEASED, {"player": party, "figure": f.id}))
        return set_figure(state, f.id, led_by="", declared=state.round)
    if isinstance(a, Face):
        events.append(
            Event(EventType.TURNED, {"player": party, "figure": f.id, "facing": a.direction})
        )
        return set_figure(state, f.id, facing=a.direction, faced=True, mover=party)
    # a swap
    how, data = info
    if how == "tower":
        g = data[0]
        up = g.level > f.level
        moved = {f.id: (f.field, g.level, "", ""), g.id: (g.field, f.level, "", "")}
        new = R.move_to(state, moved, {f.id: 2 if up else 1, g.id: 1 if up else 2}, party)
    else:
        moving_a, moving_b, costs, there = data
        moved = {x.id: (there, 0, "", "") for x in moving_a}
        moved.update({x.id: (f.field, 0, "", "") for x in moving_b})
        new = R.move_to(state, moved, costs, party)
    events.append(Event(EventType.SWAPPED, {"player": party, "figure": f.id, "with": a.partner}))
    return new
