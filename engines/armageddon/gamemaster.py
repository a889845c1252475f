"""The game master's overrules during play (``gm ...``): removing, giving, gates, walls,
towers, and correcting the position (undo, move, add, restore, note)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engines.armageddon import rules as R
from engines.armageddon.actions import (
    Action,
    End,
    GmAction,
    GmAdd,
    GmBlock,
    GmBreach,
    GmDestroy,
    GmGate,
    GmMove,
    GmNote,
    GmOwner,
    GmRemove,
    GmRestore,
    GmUndo,
    MoveAction,
    action_text,
)
from engines.armageddon.crowds import melee, settle_crowds, trample
from engines.armageddon.events import EventType
from engines.armageddon.hexmap import FigureClass, edge_of
from engines.armageddon.rules import fail, index, place_of
from engines.armageddon.scenario import Scenario, access_edges
from engines.armageddon.setup_phase import party_arg
from engines.armageddon.state import GM, Figure, Phase, State, Undo
from engines.core.contract import Event


def edge_token(a: str, b: str, sc: Scenario) -> str:
    d = sc.direction(a, b)
    return f"{a}/{d}"


def edge_arg(state: State, token: str) -> tuple[str, str]:
    sc = state.scenario
    fld, _s, d = token.partition("/")
    if fld not in sc.terrain or d not in sc.neighbours[fld]:
        raise fail("bad_edge", edge=token)
    return edge_of(fld, sc.neighbours[fld][d])


def keep_undo(old: State, new: State, action: Action, player: int) -> State:
    """Remember the position before a party's movement action (the game master may take it
    back with ``gm undo``); ``end`` and a note keep it, anything else forgets it."""
    if player != GM and isinstance(action, MoveAction) and not isinstance(action, End):
        before = Undo(action_text(action), player, old.figures, old.crowds, old.last, old.fallen)
        return replace(new, undo=before)
    if (isinstance(action, End) and new.phase == Phase.MOVE) or isinstance(action, GmNote):
        return new
    return replace(new, undo=None) if new.undo is not None else new


def _places(state: State) -> list[str]:
    """Every place the game master may set a figure on: each field, each floor of a tower."""
    sc = state.scenario
    out = []
    for fld in sc.fields():
        out.append(fld)
        if fld in sc.towers:
            out += [f"{fld}/{lvl}" for lvl in range(1, sc.towers[fld].floors + 1)]
    return out


def _fits(sc: Scenario, kind: str, place: str) -> bool:
    """Whether a figure of ``kind`` may stand on ``place`` (its terrain; tower floors only
    for warriors, the ground of a tower for warriors and animals)."""
    fld, _s, lvl = place.partition("/")
    if fld not in sc.terrain:
        return False
    k = sc.tables.kinds[kind]
    if k.water != (sc.terrain[fld] == "~") or sc.terrain[fld] in k.forbidden:
        return False
    if fld in sc.towers and not k.hover:
        return k.cls == FigureClass.KRIEGER or (k.cls == FigureClass.TIER and not lvl)
    return not lvl


def gm_actions(state: State) -> list[Action]:
    sc = state.scenario
    out: list[Action] = []
    if state.undo is not None:
        out.append(GmUndo())
    places = _places(state)
    for f in state.figures:
        out.append(GmRemove(f.id))
        for place in places:
            here = place == (f"{f.field}/{f.level}" if f.level else f.field)
            if (not here or f.carrier) and _fits(sc, f.kind, place):
                out.append(GmMove(f.id, place))
    ids = {f.id for f in state.figures}
    for f in state.fallen:
        if f.id not in ids and f.owner not in state.out:
            out.append(GmRestore(f.id))
    for p in range(1, sc.parties + 1):
        if p in state.out:
            continue
        for kind in sc.tables.kinds:
            for place in places:
                if _fits(sc, kind, place):
                    out.append(GmAdd(str(p), kind, place))
    for f in state.figures:
        if sc.tables.kinds[f.kind].cls not in (FigureClass.KRIEGER, FigureClass.ZAUBERER):
            for p in range(1, sc.parties + 1):
                if p != f.owner and p not in state.out:
                    out.append(GmOwner(f.id, str(p)))
    for (a, b), info in sorted(sc.edges.items()):
        if info.wall and (a, b) not in state.breached:
            if info.gate:
                out.append(GmGate(edge_token(a, b, sc)))
            out.append(GmBreach(edge_token(a, b, sc)))
    for t in sorted(sc.towers):
        out.append(GmDestroy(t))
    for st in sc.stellungen:
        for a, b in access_edges(sc, st, state.blocked):
            token = edge_token(a, b, sc)
            if GmBlock(token) not in out:
                out.append(GmBlock(token))
    return out


def apply_gm(state: State, a: GmAction, events: list[Event]) -> State:
    idx = index(state)
    if isinstance(a, GmUndo | GmMove | GmAdd | GmRestore | GmNote):
        return _gm_correct(state, a, events)
    if isinstance(a, GmRemove):
        f = idx.get(a.figure)
        riders = [r for r in state.figures if r.carrier == f.id]
        new = R.remove_figures(state, {f.id}, events, "gm")
        if f.kind == "elefant":
            new = elephant_fell(new, f, riders, events)
        return settle_crowds(new, events)
    if isinstance(a, GmOwner):
        f = idx.get(a.figure)
        party = party_arg(state, a.party)
        if (
            idx.kind(f).cls in (FigureClass.KRIEGER, FigureClass.ZAUBERER)
            or party == f.owner
            or party in state.out
        ):
            raise fail("bad_party", party=a.party)
        events.append(Event(EventType.OWNER_SET, {"figure": f.id, "player": party}))
        return set_figure(state, f.id, owner=party, possessor=party)
    if isinstance(a, GmDestroy):  # die Grundfeste zerstört: everyone in the tower falls down
        fld = a.tower
        if fld not in state.scenario.towers:
            raise fail("no_tower", field=fld)
        events.append(Event(EventType.TOWER_DESTROYED, {"field": fld}))
        figs = [replace(f, level=0) if f.field == fld else f for f in state.figures]
        new = replace(state.with_figures(figs), ruined=state.ruined | {fld})
        return settle_crowds(new, events)
    if not isinstance(a, GmGate | GmBreach | GmBlock):
        raise fail("wrong_phase", verb=a.what)
    e = edge_arg(state, a.edge)
    info = state.scenario.edges.get(e)
    if isinstance(a, GmGate):
        if info is None or not info.gate or e in state.breached:
            raise fail("no_gate", edge=a.edge)
        return toggle_gate(state, e, events)
    if isinstance(a, GmBreach):
        if info is None or not info.wall or e in state.breached:
            raise fail("no_wall", edge=a.edge)
        events.append(Event(EventType.BREACHED, {"edge": a.edge}))
        return replace(state, breached=state.breached | {e}, gates_open=state.gates_open - {e})
    # block: a Zugang is lost
    if e in state.blocked or not any(
        e in access_edges(state.scenario, st, frozenset()) for st in state.scenario.stellungen
    ):
        raise fail("no_access", edge=a.edge)
    events.append(Event(EventType.BLOCKED, {"edge": a.edge}))
    return replace(state, blocked=state.blocked | {e})


def _gm_correct(
    state: State, a: GmUndo | GmMove | GmAdd | GmRestore | GmNote, events: list[Event]
) -> State:
    """The game master corrects the position: takes back the last movement action (``undo``),
    puts a figure elsewhere (``move F FELD``, ``c4/2`` a tower floor), adds one (``add PARTEI
    ART FELD``), brings a fallen one back where it fell (``restore F``); ``note`` adds a note
    to the last overrule. What ends overcrowded is resolved as a breach of the Aufenthalt
    rules (the party with most figures there removes)."""
    sc = state.scenario
    if isinstance(a, GmNote):
        if not a.note:
            raise fail("note_empty")
        return state
    if isinstance(a, GmUndo):
        u = state.undo
        if u is None:
            raise fail("nothing_to_undo")
        events.append(Event(EventType.UNDONE, {"player": u.party, "action": u.action}))
        return replace(state, figures=u.figures, crowds=u.crowds, last=u.last, fallen=u.fallen)
    if isinstance(a, GmMove):
        f = index(state).get(a.figure)
        place = a.place
        if not _fits(sc, f.kind, place):
            raise fail("forbidden_terrain", figure=f.id, field=place)
        fld, _s, lvl = place.partition("/")
        level = int(lvl) if lvl else 0
        if (fld, level) == (f.field, f.level) and not f.carrier:
            raise fail("already_there", figure=f.id, field=place)
        new = R.move_to(state, {f.id: (fld, level, "", "")}, {}, 0)
        new = set_figure(new, f.id, led_by="")
        events.append(Event(EventType.GM_MOVED, {"figure": f.id, "to": fld, "level": level}))
        return settle_crowds(new, events)
    if isinstance(a, GmAdd):
        party = party_arg(state, a.party)
        kind, place = a.kind, a.place
        if kind not in sc.tables.kinds:  # the scenario file's words: krieger, lanze, …
            raise fail("bad_kind", kind=kind, kinds=", ".join(sorted(sc.tables.kinds)))
        if party in state.out:
            raise fail("bad_party", party=a.party)
        if not _fits(sc, kind, place):
            raise fail("forbidden_terrain", figure=kind, field=place)
        fld, _s, lvl = place.partition("/")
        fid = f"{sc.tables.kinds[kind].abbr}{state.next_id}"
        fig = Figure(fid, kind, party, party, fld, int(lvl) if lvl else 0)
        new = replace(state, figures=(*state.figures, fig), next_id=state.next_id + 1)
        events.append(Event(EventType.GM_ADDED, {"figure": fid, "player": party, "field": fld}))
        return settle_crowds(new, events)
    # restore: a fallen figure comes back where it fell (off what carried it if that is gone)
    ids = {f.id for f in state.figures}
    old = next((f for f in reversed(state.fallen) if f.id == a.figure), None)
    if old is None or old.id in ids or old.owner in state.out:
        raise fail("not_fallen", figure=a.figure)
    back = replace(old, led_by="")
    if back.carrier not in ids:
        back = replace(back, carrier="", slot="")
    new = replace(
        state,
        figures=(*state.figures, back),
        fallen=tuple(f for f in state.fallen if f.id != old.id),
    )
    events.append(
        Event(EventType.GM_RESTORED, {"figure": old.id, "player": old.owner, "field": old.field})
    )
    return settle_crowds(new, events)


def elephant_fell(state: State, dead: Figure, riders: list[Figure], events: list[Event]) -> State:
    """Tod eines Elefanten on an overcrowded field: another elephant trampling there goes on
    trampling; only when none is left do the riders of the fallen one begin a Handgemenge."""
    place = place_of(dead)
    if not index(state).over(place):
        return state
    other = next((f for f in index(state).by_place.get(place, []) if f.kind == "elefant"), None)
    if other is not None:
        return trample(state, place, other, events)
    if riders:
        return melee(state, place, riders[0].owner, events)
    return state


def toggle_gate(state: State, e: tuple[str, str], events: list[Event]) -> State:
    opened = e not in state.gates_open
    events.append(Event(EventType.GATE, {"edge": list(e), "open": opened}))
    return replace(state, gates_open=state.gates_open ^ {e})


def set_figure(state: State, fid: str, **changes: Any) -> State:
    return state.with_figures([replace(f, **changes) if f.id == fid else f for f in state.figures])
