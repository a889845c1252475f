"""The view: plain data of the position for the renderer and the narration."""

from __future__ import annotations

from engines.armageddon import rules as R
from engines.armageddon.flow import scores
from engines.armageddon.gamemaster import edge_token
from engines.armageddon.hexmap import FigureClass, parse_field
from engines.armageddon.rules import index
from engines.armageddon.state import State
from engines.core.contract import JsonDict


def _shown_use(used: int, capacity: int) -> int:
    """The room a place shows as used: the real count (over the capacity when overcrowded);
    a large device that fills the field (99) shows as the field's whole room."""
    return min(used, capacity or 99) if used >= 99 else used


def view(state: State) -> JsonDict:
    """Plain data for the renderer and the cog (the same for every seat: nothing is secret)."""
    sc = state.scenario
    idx = index(state)
    hz = dict(state.hz)
    fields = []
    for fld in sc.fields():
        pos = parse_field(fld)
        assert pos is not None
        levels = sc.towers[fld].floors + 1 if fld in sc.towers else 1
        room = []
        for lvl in range(levels):
            place = f"f:{fld}:{lvl}"
            tally = R.counts(idx, idx.on_field(fld, lvl))
            holders = sorted(R.block_majority(state, tally))
            room.append(
                {
                    "level": lvl,
                    # what stands there, 5/4 when overcrowded (a large device: its room)
                    "used": _shown_use(idx.used(place), idx.capacity(place)),
                    "filled": idx.used(place) >= 99,
                    "capacity": idx.capacity(place),
                    "over": idx.over(place),
                    "majority": holders,
                }
            )
        entry: JsonDict = {
            "name": fld,
            "col": pos[0],
            "row": pos[1],
            "terrain": sc.terrain[fld],
            "height": sc.height[fld],
            "room": room,
        }
        if fld in sc.towers:
            tw = sc.towers[fld]
            entry["tower"] = {"floors": tw.floors, "owner": tw.owner, "bergfried": tw.bergfried}
        if fld in hz:
            entry["hz"] = hz[fld]
        fields.append(entry)
    edges = []
    for (a, b), info in sorted(sc.edges.items()):
        e = (a, b)
        edges.append(
            {
                "a": a,
                "b": b,
                "edge": edge_token(a, b, sc),
                "river": info.river,
                "bridge": info.bridge,
                "moat": info.moat,
                "wall": info.wall and e not in state.breached,
                "gate": info.gate,
                "open": e in state.gates_open,
                "inside": info.inside,
                "blocked": e in state.blocked,
            }
        )
    figures = []
    for f in state.figures:
        k = idx.kind(f)
        item: JsonDict = {
            "id": f.id,
            "kind": f.kind,
            "cls": k.cls,
            "owner": f.owner,
            "possessor": f.possessor,
            "field": f.field,
            "level": f.level,
            "carrier": f.carrier,
            "slot": f.slot,
            "facing": f.facing,
            "steps_left": max(0, R.steps_allowed(state, f) - f.steps),
            "acted": f.acted,
            "led_by": f.led_by,
            "hover": k.hover,
            "enchant": f.enchant if f.enchant_until >= state.round else "",
        }
        if k.cls in (FigureClass.GERAET, FigureClass.SCHIFF):
            item["control"] = f.possessor if R.controls_device(idx, f, f.possessor) else 0
            item["last_majority"] = f.last_majority
        figures.append(item)
    hungry = R.hungering(state) if state.phase != "setup" else []
    return {
        "scenario": sc.name,
        "size": [sc.cols, sc.rows],
        "round": state.round,
        "rounds": state.rounds,
        "phase": state.phase,
        "active": state.active,
        "parties": [
            {
                "seat": p,
                "colour": state.colours[p - 1],
                "block": R.blocks(state)[p],
                "out": p in state.out,
                "score": scores(state)[p],
            }
            for p in range(1, sc.parties + 1)
        ],
        "fields": fields,
        "edges": edges,
        "figures": figures,
        "stellungen": [
            {
                "name": st.name,
                "title": st.title or st.name,
                "owner": st.owner,
                "fields": list(st.fields),
                "hunger": st.name in hungry,
                "sieged_by": sorted(p for n, p in state.sieges if n == st.name),
            }
            for st in sc.stellungen
        ],
        "alliances": [list(pair) for pair in sorted(state.alliances)],
        "reserve": [[p, k, n] for p, k, n in state.reserve if n > 0],
        "crowds": [{"place": p, "player": q} for p, q in state.crowds],
        "pending": None
        if state.pending is None
        else {
            "claimer": state.pending.claimer,
            "target": state.pending.target,
            "waiting": list(state.pending.waiting),
        },
        "last": [{"figure": f, "from": a, "to": b} for f, a, b in state.last],
        "ruined": sorted(state.ruined),
        "out": list(state.out),
        "fallen": [
            {"id": f.id, "kind": f.kind, "owner": f.owner, "field": f.field, "level": f.level}
            for f in state.fallen
            if idx.by_id.get(f.id) is None
        ],
    }
