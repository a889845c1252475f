"""The flow of a round: the next party, the next phase, the end of a round and of the game,
and the scores."""

from __future__ import annotations

from dataclasses import replace

from engines.armageddon import rules as R
from engines.armageddon.events import EventType
from engines.armageddon.hexmap import FigureClass
from engines.armageddon.rules import index
from engines.armageddon.state import Phase, State
from engines.core.contract import Event


def advance(state: State, events: list[Event]) -> State:
    """The next party's turn in this phase, else the next phase or round."""
    order = R.party_order(state)
    later = order[order.index(state.active) + 1 :] if state.active in order else []
    if later:
        return replace(state, active=later[0])
    if state.phase == "move":
        events.append(Event(EventType.ACTION_PHASE, {"round": state.round}))
        return replace(state, phase=Phase.ACT, active=order[0] if order else 0)
    return _end_round(state, events)


def _end_round(state: State, events: list[Event]) -> State:
    new = R.hunger(state, events)
    nxt = state.round + 1
    figs = []
    for f in new.figures:
        expired = f.enchant and f.enchant_until < nxt
        figs.append(
            replace(
                f,
                steps=0,
                faced=False,
                acted=False,
                mover=0,
                enchant="" if expired else f.enchant,
                enchant_until=0 if expired else f.enchant_until,
                charmed_by=0 if expired else f.charmed_by,
            )
        )
    new = replace(new, figures=tuple(figs), gate_moves=frozenset(), pitched=frozenset(), last=())
    if nxt > new.rounds:
        events.append(Event(EventType.GAME_OVER, {"reason": "rounds"}))
        return replace(new, phase=Phase.END, active=0, round=new.rounds)
    order = R.party_order(replace(new, round=nxt))
    events.append(
        Event(EventType.ROUND_STARTED, {"round": nxt, "player": order[0] if order else 0})
    )
    return replace(new, round=nxt, phase=Phase.MOVE, active=order[0] if order else 0)


def normalize(state: State, events: list[Event]) -> State:
    """Drop resolved overcrowdings, hand an unresolvable one to a party that has figures
    there, and end the game when only one side has warriors left."""
    if state.crowds:
        idx = index(state)
        crowds = []
        for place, party in state.crowds:
            if not idx.over(place):
                continue
            here = idx.by_place.get(place, [])
            if not any(f.owner == party for f in here):
                party = next((f.owner for f in here if f.owner and f.owner not in state.out), 0)
            if party:
                crowds.append((place, party))
        state = replace(state, crowds=tuple(crowds))
    if state.phase in ("move", "act"):
        blk = R.blocks(state)
        alive = {blk[p] for p in range(1, state.parties + 1) if p not in state.out}
        if len(alive) <= 1:  # everyone left is allied: nothing more to fight for
            events.append(Event(EventType.GAME_OVER, {"reason": "one_side"}))
            return replace(state, phase=Phase.END, active=0, crowds=(), pending=None)
        if state.active in state.out:
            state = advance(state, events)
    return state


def scores(state: State) -> dict[int, int]:
    t = state.scenario.tables
    out = {p: 0 for p in range(1, state.parties + 1)}
    for f in state.figures:
        if f.owner in out and t.kinds[f.kind].cls == FigureClass.KRIEGER:
            out[f.owner] += t.number("points_warrior")
    for _fld, p in state.hz:
        if p in out:
            out[p] += t.number("points_hz")
    return out
