"""The action phase: declarations (claim, give, lend, siege, permit), control of gates and
pitch, the Handlungen (attack, ram, cast) and the answers to a claim."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engines.armageddon import rules as R
from engines.armageddon.actions import (
    ActAction,
    Action,
    Agree,
    Attack,
    Cast,
    Claim,
    Done,
    Gate,
    Give,
    Lend,
    Permit,
    Pitch,
    Ram,
    Refuse,
    Remove,
    Siege,
)
from engines.armageddon.crowds import melee, settle_crowds
from engines.armageddon.events import EventType
from engines.armageddon.flow import advance
from engines.armageddon.gamemaster import (
    edge_arg,
    edge_token,
    elephant_fell,
    set_figure,
    toggle_gate,
)
from engines.armageddon.hexmap import FigureClass, edge_of
from engines.armageddon.rules import Index, fail, index, place_of
from engines.armageddon.scenario import Scenario
from engines.armageddon.setup_phase import party_arg
from engines.armageddon.spells import distance, may_set_into, spell_targets
from engines.armageddon.state import Figure, Pending, State
from engines.core.contract import Event
from engines.core.errors import IllegalAction


def _objects(idx: Index) -> list[Figure]:
    return [
        f
        for f in idx.state.figures
        if idx.kind(f).cls in (FigureClass.TIER, FigureClass.GERAET, FigureClass.SCHIFF)
    ]


def act_actions(state: State, party: int) -> list[Action]:
    idx = index(state)
    sc = idx.sc
    out: list[Action] = []

    def ok(a: ActAction) -> None:
        try:
            _check_act(state, idx, a, party)
        except IllegalAction:
            return
        out.append(a)

    others = [p for p in range(1, sc.parties + 1) if p != party and p not in state.out]
    for f in _objects(idx):
        if idx.kind(f).cls != FigureClass.TIER:
            ok(Claim(f.id))
        if f.owner == party or f.possessor == party:
            for q in others:
                ok(Give(f.id, str(q)))
                ok(Lend(f.id, str(q)))
    for fld in sc.hz:
        ok(Claim(fld))
    for (a, b), info in sorted(sc.edges.items()):
        if info.gate:
            ok(Gate(edge_token(a, b, sc)))
    for t in sc.towers:
        for n in sc.neighbours[t].values():
            ok(Pitch(t, n))
        for q in others:
            ok(Permit(t, str(q)))
    for f in state.figures:
        if f.owner != party:
            continue
        k = idx.kind(f)
        if k.cls == FigureClass.KRIEGER and not f.acted:
            near = {f.field, *sc.neighbours[f.field].values()}
            for g in state.figures:
                if g.field in near and g.owner and not R.allied(state, g.owner, party):
                    ok(Attack(f.id, g.id))
        if k.caster and not f.acted:
            out += _cast_actions(state, idx, f, party)
    for f in state.figures:
        if f.possessor == party and idx.kind(f).cls == FigureClass.SCHIFF:
            for g in state.figures:
                if (
                    idx.kind(g).cls == FigureClass.SCHIFF
                    and g.field in sc.neighbours[f.field].values()
                ):
                    ok(Ram(f.id, g.id))
    for st in sc.stellungen:
        ok(Siege(st.name))
    out.append(Done())
    return out


def _cast_actions(state: State, idx: Index, w: Figure, party: int) -> list[Action]:
    sc = idx.sc
    rng = sc.tables.number("spell_range")
    near = [fld for fld in sc.fields() if distance(sc, w.field, fld) <= rng]
    out: list[Cast] = []
    for spell in sorted(sc.tables.spells):
        if spell == "tor_bewegen":
            for (ea, eb), info in sorted(sc.edges.items()):
                if info.gate and ea in near:
                    out.append(Cast(w.id, spell, edge_token(ea, eb, sc)))
            continue
        for fld in near:
            for token in _spell_places(idx, fld):
                if spell == "versetzen":
                    if not _has_targets(idx, spell, w, token):
                        continue  # every destination would fail the same check
                    for to in near:
                        if to != fld:
                            top = sc.towers[to].floors if to in sc.towers else 0
                            there = f"{to}/{top}" if to in sc.towers else to
                            out.append(Cast(w.id, spell, token, there))
                else:
                    out.append(Cast(w.id, spell, token))
    found: list[Action] = []
    for act in out:
        try:
            _check_cast(state, idx, act, party)
        except IllegalAction:
            continue
        found.append(act)
    return found


def _spell_places(idx: Index, fld: str) -> list[str]:
    """Where a spell may be cast on ``fld``: the whole Kleinfeld, and in a tower each floor
    (``c4/2``), in a siege tower each of its floors (``d1/unten``, ``d1/oben``) — Kap. 0: "In
    Türmen und Belagerungstürmen kann man Zauber auch stockwerkweise aussprechen"."""
    sc = idx.sc
    out = [fld]
    if fld in sc.towers:
        out += [f"{fld}/{lvl}" for lvl in range(sc.towers[fld].floors + 1)]
    for f in idx.on_field(fld):
        if f.kind == "belagerungsturm" and not f.carrier:
            out += [f"{fld}/{slot}" for slot, _cap in idx.kind(f).holds]
    return out


def _spell_place(idx: Index, token: str) -> tuple[str, int | None, str]:
    """A spell's target place: (field, tower level or None for the whole field, siege tower
    floor or '')."""
    fld, _s, sub = token.partition("/")
    if sub and not sub.isdecimal():
        if fld not in idx.sc.terrain or not any(
            f.kind == "belagerungsturm" and not f.carrier and idx.kind(f).slot_capacity(sub)
            for f in idx.on_field(fld)
        ):
            raise fail("bad_field", field=token)
        return fld, None, sub
    fld, level = _field_level(idx.sc, token)
    return fld, (level if sub else None), ""


def _has_targets(idx: Index, spell: str, w: Figure, token: str) -> bool:
    """Whether ``spell`` finds figures at ``token`` (``_check_cast`` asks the same first)."""
    try:
        spell_targets(idx, spell, w, *_spell_place(idx, token))
    except IllegalAction:
        return False
    return True


def _field_level(sc: Scenario, token: str) -> tuple[str, int]:
    fld, _s, lvl = token.partition("/")
    if fld not in sc.terrain or (lvl and (not lvl.isdecimal() or fld not in sc.towers)):
        raise fail("bad_field", field=token)
    level = int(lvl) if lvl else 0
    if fld in sc.towers and level > sc.towers[fld].floors:
        raise fail("no_floor", field=fld, level=level)
    return fld, level


def _check_cast(state: State, idx: Index, a: Cast, party: int) -> Any:
    sc = idx.sc
    w = idx.get(a.wizard)
    spell = a.spell
    if w.owner != party or not idx.kind(w).caster:
        raise fail("not_a_caster", figure=w.id)
    if w.acted:
        raise fail("acted", figure=w.id)
    if spell not in sc.tables.spells:
        raise fail("unknown_spell", spell=spell)
    rng = sc.tables.number("spell_range")
    if spell == "tor_bewegen":  # a gate may be moved by spells several times in a round
        if a.to:
            raise fail("bad_target", spell=spell)
        e = edge_arg(state, a.place)
        info = sc.edges.get(e)
        if info is None or not info.gate or e in state.breached:
            raise fail("no_gate", edge=a.place)
        if distance(sc, w.field, e[0]) > rng and distance(sc, w.field, e[1]) > rng:
            raise fail("out_of_range", field=a.place)
        return e
    fld, level, floor = _spell_place(idx, a.place)
    if distance(sc, w.field, fld) > rng:
        raise fail("out_of_range", field=fld)
    targets = spell_targets(idx, spell, w, fld, level, floor)
    if spell != "versetzen":
        if a.to:
            raise fail("bad_target", spell=spell)
        return targets
    if not a.to:
        raise fail("bad_target", spell=spell)
    to, to_level = _field_level(sc, a.to)
    if distance(sc, w.field, to) > rng or to == fld:
        raise fail("out_of_range", field=to)
    if (
        fld in sc.towers
        and not may_set_into(state, idx, party, fld, level or 0)
        and sc.towers[fld].owner != party
    ):
        raise fail("building_rights", field=fld)
    if to in sc.towers:
        if to_level != sc.towers[to].floors or idx.on_field(to, to_level):
            raise fail("platform_not_empty", field=to)
        if not may_set_into(state, idx, party, to, to_level):
            raise fail("building_rights", field=to)
    ids = {t.id for t in targets}
    moving = [t for t in targets if t.carrier not in ids]  # what they carry goes along
    ids = {t.id for t in moving}
    k_any = [idx.kind(t) for t in moving]
    if any(k.water != (sc.terrain[to] == "~") or sc.terrain[to] in k.forbidden for k in k_any):
        raise R.no_ground(moving[0].id if moving else "", to, sc.terrain[to])
    if idx.over(f"f:{to}:{to_level}", moving, without=ids):
        raise fail("full", field=to)
    return targets, to, to_level


def _check_act(state: State, idx: Index, a: ActAction, party: int) -> Any:
    sc = idx.sc
    if isinstance(a, Done):
        return None
    if isinstance(a, Claim):
        return _check_claim(state, idx, a.target, party)
    if isinstance(a, Give | Lend):
        x = idx.get(a.figure)
        q = party_arg(state, a.party)
        k = idx.kind(x)
        if q == party or q in state.out:
            raise fail("bad_party", party=a.party)
        if k.cls not in (FigureClass.TIER, FigureClass.GERAET, FigureClass.SCHIFF):
            raise fail("not_giftable", figure=x.id)
        if x.declared == state.round:
            raise fail("declared_already", figure=x.id)
        if isinstance(a, Lend) and k.cls == FigureClass.TIER:
            raise fail("animals_not_lent", figure=x.id)
        returning = isinstance(a, Lend) and x.possessor == party and x.owner == q
        if not returning and (x.owner != party or x.possessor != party):
            raise fail("not_owner", figure=x.id)
        if k.cls == FigureClass.TIER and (idx.carried.get(x.id) or x.led_by):
            raise fail("animal_held", figure=x.id)
        if not returning and not any(w.owner == q for w in idx.warriors(R.counted_for(idx, x))):
            raise fail("no_receiver", figure=x.id, party=q)
        return x, q
    if isinstance(a, Gate):
        e = edge_arg(state, a.edge)
        info = sc.edges.get(e)
        if info is None or not info.gate or e in state.breached:
            raise fail("no_gate", edge=a.edge)
        if e in state.gate_moves:
            raise fail("gate_moved", edge=a.edge)
        inside = idx.warriors(idx.on_field(info.inside, 0))
        if not any(w.owner == party for w in inside):
            raise fail("gate_no_warrior", edge=a.edge)
        if party not in R.block_majority(state, R.counts(idx, inside)):
            raise fail("no_majority_gate", edge=a.edge)
        return e
    if isinstance(a, Pitch):
        t, target = a.tower, a.field
        if t not in sc.towers or target not in sc.neighbours[t].values():
            raise fail("no_tower", field=t)
        if t in state.pitched:
            raise fail("pitched", field=t)
        top = idx.warriors(idx.on_field(t, sc.towers[t].floors))
        if not any(w.owner == party for w in top) or party not in R.block_majority(
            state, R.counts(idx, top)
        ):
            raise fail("no_majority_platform", field=t)
        victims = [
            f
            for f in idx.on_field(target, 0)
            if not f.carrier and idx.kind(f).cls in (FigureClass.KRIEGER, FigureClass.TIER)
        ]
        if not victims:
            raise fail("no_target", field=target)
        return victims
    if isinstance(a, Attack):
        f, g = idx.get(a.figure), idx.get(a.target)
        if f.owner != party or idx.kind(f).cls != FigureClass.KRIEGER:
            raise fail("not_yours", figure=f.id)
        if f.acted:
            raise fail("acted", figure=f.id)
        R._can_act_on(idx, replace(f, mover=0, faced=False), party)
        if (
            not g.owner
            or R.allied(state, g.owner, party)
            or idx.kind(g).cls in (FigureClass.GERAET, FigureClass.SCHIFF, FigureClass.ZAUBERER)
        ):
            raise fail("bad_target_figure", figure=g.id)
        if g.enchant == "versteinert" and g.enchant_until >= state.round:
            raise fail("spellbound", figure=g.id, spell=g.enchant)
        if f.field == g.field:
            if f.level != g.level:
                raise fail("out_of_reach", figure=g.id)
        else:
            if g.field not in sc.neighbours[f.field].values() or f.level or g.level:
                raise fail("out_of_reach", figure=g.id)
            info = sc.edge(f.field, g.field)
            e = edge_of(f.field, g.field)
            if info.wall and e not in state.breached and e not in state.gates_open:
                raise fail("out_of_reach", figure=g.id)
        return f, g
    if isinstance(a, Ram):
        ship, boat = idx.get(a.ship), idx.get(a.target)
        if idx.kind(ship).cls != FigureClass.SCHIFF or not R.controls_device(idx, ship, party):
            raise fail("no_majority", figure=ship.id)
        if ship.acted:
            raise fail("acted", figure=ship.id)
        if idx.kind(boat).cls != FigureClass.SCHIFF or R.allied(state, boat.possessor, party):
            raise fail("bad_target_figure", figure=boat.id)
        if boat.field not in sc.neighbours[ship.field].values():
            raise fail("out_of_reach", figure=boat.id)
        return ship, boat
    if isinstance(a, Cast):
        return _check_cast(state, idx, a, party)
    if isinstance(a, Siege):
        st = next((s for s in sc.stellungen if s.name == a.stellung), None)
        if st is None:
            raise fail("no_stellung", name=a.stellung)
        if R.allied(state, st.owner, party) or (st.name, party) in state.sieges:
            raise fail("cannot_siege", name=st.name)
        ring = {n for fld in st.fields for n in sc.neighbours[fld].values()} | set(st.fields)
        if not any(w.owner == party and w.field in ring for w in idx.warriors(state.figures)):
            raise fail("cannot_siege", name=st.name)
        return st
    # a permit
    t = a.tower
    q = party_arg(state, a.party)
    if t not in sc.towers or q == party or (t, q) in state.permits:
        raise fail("cannot_permit", field=t)
    holders = R.block_majority(state, R.counts(idx, idx.warriors(idx.on_field(t))))
    if sc.towers[t].owner != party and party not in holders:
        raise fail("cannot_permit", field=t)
    return t, q


def _check_claim(state: State, idx: Index, token: str, party: int) -> Any:
    """Inbesitznahme: a device by the majority on its Kleinfeld, a ship or quadriga by the
    majority on it (a tie: whoever last had the majority keeps it); a Handelszentrum when no
    warrior of its owner and no enemy is on any level of its field and one of the claimer's
    is. Allies with warriors there must agree on the new owner (a reaction)."""
    sc = idx.sc
    if token in sc.hz:
        owner = dict(state.hz)[token]
        if owner == party:
            raise fail("already_yours", target=token)
        here = [w for w in idx.warriors(idx.on_field(token)) if not R.still(state, w)]
        if any(w.owner == owner for w in here if owner):
            raise fail("hz_defended", field=token)
        if not any(w.owner == party for w in here):
            raise fail("hz_no_warrior", field=token)
        if any(not R.allied(state, w.owner, party) for w in here):
            raise fail("hz_enemy", field=token)
        allies = sorted({w.owner for w in here if w.owner != party})
        return token, allies
    x = idx.get(token)
    k = idx.kind(x)
    if k.cls not in (FigureClass.GERAET, FigureClass.SCHIFF):
        raise fail("not_claimable", figure=x.id)
    if x.owner == party and x.possessor == party:
        raise fail("already_yours", target=x.id)
    if x.declared == state.round:
        raise fail("declared_already", figure=x.id)
    tally = R.counts(idx, R.counted_for(idx, x))
    holders = R.block_majority(state, tally)
    if not holders and tally.get(party) and x.last_majority == party:
        # equal numbers: "so gilt als Besitzer derjenige, der zuletzt die Majorität hatte"
        holders = frozenset({party})
    if party not in holders or not tally.get(party):
        raise fail("no_majority", figure=x.id)
    allies = sorted(p for p in holders if p != party and tally.get(p))
    return x.id, allies


def apply_act(state: State, a: ActAction, party: int, events: list[Event]) -> State:
    idx = index(state)
    info = _check_act(state, idx, a, party)
    if isinstance(a, Done):
        events.append(Event(EventType.ACTIONS_ENDED, {"player": party}))
        return advance(state, events)
    if isinstance(a, Claim):
        target, allies = info
        waiting = tuple(p for p in allies if p not in state.out)
        if waiting:
            events.append(
                Event(
                    EventType.CLAIM_ASKED,
                    {"player": party, "target": target, "allies": list(waiting)},
                )
            )
            return replace(state, pending=Pending(party, target, waiting))
        return grant(replace(state, pending=Pending(party, target, ())), party, events)
    if isinstance(a, Give | Lend):
        x, q = info
        if isinstance(a, Give):
            events.append(Event(EventType.GIVEN, {"player": party, "figure": x.id, "to": q}))
            return set_figure(state, x.id, owner=q, possessor=q, declared=state.round)
        events.append(Event(EventType.LENT, {"player": party, "figure": x.id, "to": q}))
        return set_figure(state, x.id, possessor=q, declared=state.round)
    if isinstance(a, Gate):
        new = toggle_gate(state, info, events)
        return replace(new, gate_moves=new.gate_moves | {info})
    if isinstance(a, Pitch):
        need = state.scenario.tables.number("pitch_survive")
        events.append(Event(EventType.PITCH, {"player": party, "tower": a.tower, "field": a.field}))
        dead = set()
        new = state
        for f in info:
            rolls, new, ev = R.roll(new, "pitch", f.owner, figure=f.id)
            events.append(ev)
            if rolls[0] < need:
                dead.add(f.id)
        new = R.remove_figures(new, dead, events, "pitch")
        return settle_crowds(replace(new, pitched=new.pitched | {a.tower}), events)
    if isinstance(a, Attack):
        f, g = info
        new = set_figure(state, f.id, acted=True)
        riders = [r for r in state.figures if r.carrier == g.id]
        new, fallen = R.fight(new, replace(f, acted=True), g, "attack", events)
        if fallen == g.id and g.kind == "elefant":
            new = elephant_fell(new, g, riders, events)
        return settle_crowds(new, events)
    if isinstance(a, Ram):  # Lesung: the rammer's crew is carried onto the rammed ship (Rammfeld)
        ship, target = info
        events.append(
            Event(EventType.RAMMED, {"player": party, "ship": ship.id, "target": target.id})
        )
        slot = idx.kind(target).holds[0][0]
        figs = [
            replace(f, carrier=target.id, slot=slot, field=target.field)
            if f.carrier == ship.id and idx.kind(f).cls == FigureClass.KRIEGER
            else replace(f, acted=True)
            if f.id == ship.id
            else f
            for f in state.figures
        ]
        new = state.with_figures(figs)
        place = f"c:{target.id}:{slot}"
        if index(new).over(place):  # the steering side begins the Handgemenge
            new = melee(new, place, party, events)
        return settle_crowds(new, events)
    if isinstance(a, Cast):
        return _cast(state, a, party, info, events)
    if isinstance(a, Siege):
        events.append(Event(EventType.SIEGE, {"player": party, "stellung": info.name}))
        return replace(state, sieges=state.sieges | {(info.name, party)})
    t, q = info  # a permit
    events.append(Event(EventType.PERMITTED, {"player": party, "tower": t, "to": q}))
    return replace(state, permits=state.permits | {(t, q)})


def _cast(state: State, a: Cast, party: int, info: Any, events: list[Event]) -> State:
    sc = state.scenario
    w_id, spell = a.wizard, a.spell
    new = set_figure(state, w_id, acted=True)
    target = [a.place, a.to] if a.to else [a.place]
    events.append(
        Event(EventType.CAST, {"player": party, "wizard": w_id, "spell": spell, "target": target})
    )
    if spell == "tor_bewegen":
        return toggle_gate(new, info, events)
    until = state.round + sc.tables.number("spell_rounds")  # to the end of the next round(s)
    sp = sc.tables.spells[spell]
    if spell == "versetzen":
        targets, to, level = info
        every = {t.id for t in targets}
        ids = {t.id for t in targets if t.carrier not in every}
        moved = {i: (to, level, "", "") for i in ids}
        wizard = state.figure(w_id)
        if wizard is not None and wizard.field == a.place.partition("/")[0]:
            moved[w_id] = (to, 0, "", "")  # he may set himself over only with other figures
        new = R.move_to(new, moved, {}, party)
        new = state_enchant(new, {t.id for t in targets}, sp.state, until, None)
        events.append(Event(EventType.SET_OVER, {"figures": sorted(ids), "to": to, "level": level}))
        return settle_crowds(new, events)
    charmer = party if spell == "fremde_tiere_bewegen" else None
    return state_enchant(new, {t.id for t in info}, sp.state, until, charmer)


def state_enchant(state: State, ids: set[str], what: str, until: int, charmer: int | None) -> State:
    """Put ``ids`` under a spell until round ``until``; ``charmer``: the party that moves the
    animals of a Fremde Tiere bewegen (READING: in the movement of the next round)."""
    out = []
    for f in state.figures:
        if f.id in ids:
            f = replace(f, enchant=what, enchant_until=until)
            if charmer is not None:
                f = replace(f, charmed_by=charmer)
        out.append(f)
    return state.with_figures(out)


def grant(state: State, party: int, events: list[Event]) -> State:
    """The pending claim succeeds: a device, ship or quadriga becomes the claimer's, or the
    Handelszentrum changes hands."""
    pending = state.pending
    new = replace(state, pending=None)
    if pending is None:
        return new
    if pending.target in state.scenario.hz:
        events.append(Event(EventType.HZ_TAKEN, {"player": party, "field": pending.target}))
        return replace(new, hz=tuple((f, party if f == pending.target else p) for f, p in new.hz))
    events.append(Event(EventType.CONQUERED, {"player": party, "figure": pending.target}))
    return set_figure(
        new, pending.target, owner=party, possessor=party, declared=state.round, last_majority=party
    )


def apply_answer(state: State, a: Agree | Refuse, player: int, events: list[Event]) -> State:
    pending = state.pending
    if pending is None or player not in pending.waiting:
        raise fail("nothing_to_answer")
    if isinstance(a, Refuse):
        events.append(Event(EventType.CLAIM_REFUSED, {"player": player, "target": pending.target}))
        return replace(state, pending=None)
    waiting = tuple(s for s in pending.waiting if s != player)
    events.append(Event(EventType.CLAIM_AGREED, {"player": player, "target": pending.target}))
    if waiting:
        return replace(state, pending=replace(pending, waiting=waiting))
    return grant(state, pending.claimer, events)


def apply_remove(state: State, a: Remove, player: int, events: list[Event]) -> State:
    if not state.crowds or state.crowds[0][1] != player:
        raise fail("nothing_to_remove")
    place = state.crowds[0][0]
    idx = index(state)
    f = idx.get(a.figure)
    if place_of(f) != place or f.owner != player:
        raise fail("not_there", figure=f.id)
    return R.remove_figures(state, {f.id}, events, "overcrowded")
