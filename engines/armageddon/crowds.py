"""Overcrowding (chapter 0, Überfüllung): trampling, climbing onto a wagon, the melee on an
overcrowded place, and which party must remove figures."""

from __future__ import annotations

from dataclasses import replace

from engines.armageddon.events import EventType
from engines.armageddon.hexmap import FigureClass
from engines.armageddon.rules import Raw, allied, fight, index, party_order, remove_figures, roll
from engines.armageddon.state import Figure, State
from engines.core.contract import Event


def trample(state: State, dest: str, trampler: Figure, events: Raw) -> State:
    """Trampling (elephant, quadriga horses): foreign warriors and animals on the place each
    survive a roll (READING: W6 >= trample_survive) or die, until the place is no longer
    overcrowded or only the trampler's side is left. Survivors beside a quadriga climb its
    wagon (Ersteigen nach dem Überrollt werden) and fight there (Handgemenge)."""
    need = state.scenario.tables.number("trample_survive")
    party = trampler.possessor
    for _ in range(64):  # passes: every foreign figure there throws once in turn
        idx = index(state)
        foes = [
            x
            for x in idx.by_place.get(dest, [])
            if x.id != trampler.id
            and idx.kind(x).cls in (FigureClass.KRIEGER, FigureClass.TIER)
            and not allied(state, x.owner, party)
        ]
        if not idx.over(dest) or not foes:
            break
        for victim in foes:  # the dice decide who falls, not the order of the list
            idx = index(state)
            if not idx.over(dest):
                return state
            if victim not in idx.by_place.get(dest, []):
                continue  # gone meanwhile (onto the wagon, fallen in its Handgemenge)
            rolls, state, ev = roll(state, "trample", victim.owner, figure=victim.id)
            events.append(ev)
            if rolls[0] < need:
                state = remove_figures(state, {victim.id}, events, "trampled")
            elif trampler.kind == "quadriga":
                state = _climb_wagon(state, trampler, victim, events)
    return state


def _climb_wagon(state: State, wagon: Figure, who: Figure, events: Raw) -> State:
    need = state.scenario.tables.number("climb_wagon")
    rolls, state, ev = roll(state, "climb_wagon", who.owner)
    events.append(ev)
    if rolls[0] < need or state.scenario.tables.kinds[who.kind].cls != FigureClass.KRIEGER:
        return remove_figures(state, {who.id}, events, "overrun")
    slot = state.scenario.tables.kinds[wagon.kind].holds[0][0]
    figs = [replace(f, carrier=wagon.id, slot=slot) if f.id == who.id else f for f in state.figures]
    events.append(Event(EventType.CLIMBED_WAGON, {"figure": who.id, "wagon": wagon.id}))
    state = state.with_figures(figs)
    return melee(state, f"c:{wagon.id}:{slot}", wagon.possessor, events)


def melee(state: State, place: str, starter: int, events: Raw) -> State:
    """Handgemenge on an overcrowded place until it is no longer overcrowded: the warriors of
    ``starter`` begin, then the other sides in player order from him; a blow goes to the next
    enemy side in that order (READING: one blow per side in turn, the combat reading of
    ``fight``). When only one side is left, its players remove figures (a decision)."""
    events.append(Event(EventType.MELEE, {"place": place, "starter": starter}))
    for _ in range(200):
        idx = index(state)
        if not idx.over(place):
            return state
        here = idx.by_place.get(place, [])
        fighters = idx.warriors(here)
        sides = sorted({f.owner for f in fighters})
        order = [p for p in party_order(state, starter if starter else None) if p in sides]
        enemies = [(p, q) for p in order for q in order if not allied(state, p, q)]
        if not enemies:
            remover = next(iter(order), 0) or next((f.owner for f in here if f.owner), 0)
            if remover and (place, remover) not in state.crowds:
                state = replace(state, crowds=(*state.crowds, (place, remover)))
            return state
        attacker = order[0]
        target_side = next(q for q in order[1:] + order[:1] if not allied(state, attacker, q))
        a = next(f for f in fighters if f.owner == attacker)
        d = next(f for f in fighters if f.owner == target_side)
        state, _fallen = fight(state, a, d, "melee", events)
        rotated = order[1:] + order[:1]
        starter = rotated[0]
    return state


def settle_crowds(state: State, events: Raw, cause_party: dict[str, int] | None = None) -> State:
    """Every overcrowded place without a pending resolution: its figures' players remove
    figures (a placement error or a breach of the Aufenthalt rules: the party named in
    ``cause_party``, else the party with the most figures there)."""
    idx = index(state)
    crowds = list(state.crowds)
    pending = {p for p, _q in crowds}
    for place in sorted(p for p in idx.by_place if idx.over(p)):
        if place in pending:
            continue
        here = idx.by_place[place]
        party = (cause_party or {}).get(place) or max(
            (f.owner for f in here if f.owner),
            key=lambda p: sum(x.owner == p for x in here),
            default=0,
        )
        if party:
            crowds.append((place, party))
            events.append(Event(EventType.OVERCROWDED, {"place": place, "player": party}))
    # resolved ones drop out
    crowds = [(p, q) for p, q in crowds if idx.over(p)]
    return replace(state, crowds=tuple(crowds))
