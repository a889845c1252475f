"""The set-up: the game master places figures from the reserve, gives colours and
alliances, and starts the first round."""

from __future__ import annotations

from dataclasses import replace

from engines.armageddon import rules as R
from engines.armageddon.actions import Action, Ally, Colour, Place, SetupAction, Start
from engines.armageddon.crowds import settle_crowds
from engines.armageddon.events import EventType
from engines.armageddon.hexmap import FigureClass
from engines.armageddon.rules import fail, place_of
from engines.armageddon.scenario import COLOURS, parse
from engines.armageddon.state import Figure, Phase, State
from engines.core.contract import Event
from engines.core.errors import BadInput
from engines.core.rng import Rng


def new_state(
    text: str,
    file: str,
    seed: int,
    players: int,
    rounds: int | None = None,
    teams: tuple[int, ...] = (),
) -> State:
    sc = parse(text, file)
    if players != sc.parties + 1:
        raise BadInput("armageddon.error.seats", parties=sc.parties, seats=sc.parties + 1)
    figures: list[Figure] = []
    for number, p in enumerate(sc.placements, 1):
        abbr = sc.tables.kinds[p.kind].abbr
        carrier = figures[p.carrier].id if p.carrier >= 0 else ""
        level = figures[p.carrier].level if p.carrier >= 0 else p.level
        if p.level and p.field not in sc.towers:
            raise BadInput("armageddon.scenario.no_tower", file=file, line=0, field=p.field)
        figures.append(
            Figure(
                f"{abbr}{number}",
                p.kind,
                p.party,
                p.party,
                p.field,
                level,
                carrier,
                p.slot,
                p.facing,
            )
        )
    state = State(
        text=text,
        file=file,
        figures=tuple(figures),
        next_id=len(figures) + 1,
        round=1,
        phase=Phase.SETUP,
        active=0,
        reserve=sc.reserve,
        alliances=sc.alliances,
        colours=sc.colours,
        teams=teams,
        rounds=rounds or sc.rounds,
        hz=tuple(sorted(sc.hz.items())),
        counters=(0,) * players,
        rng=Rng(seed),
    )
    events: list[Event] = []
    last_party = {place_of(f): f.owner for f in figures}  # a placement error: its party removes
    return settle_crowds(R.refresh_majorities(state), events, last_party)


def setup_actions(state: State) -> list[Action]:
    sc = state.scenario
    out: list[Action] = [Start()]
    for party, kind, count in state.reserve:
        if count <= 0:
            continue
        k = sc.tables.kinds[kind]
        for fld in sc.fields():
            if k.water == (sc.terrain[fld] == "~") and sc.terrain[fld] not in k.forbidden:
                if fld in sc.towers and k.cls not in (FigureClass.KRIEGER, FigureClass.TIER):
                    continue
                out.append(Place(str(party), kind, fld))
    for p in range(1, sc.parties + 1):
        for c in COLOURS:
            if c not in state.colours:
                out.append(Colour(str(p), c))
        for q in range(p + 1, sc.parties + 1):
            if not _one_side(state, set(state.alliances) ^ {(p, q)}):
                out.append(Ally(str(p), str(q)))
    return out


def _one_side(state: State, pairs: set[tuple[int, int]]) -> bool:
    """Whether these alliances would leave a single side: nothing to fight for, the game
    would end at its start."""
    blk = R.blocks(replace(state, alliances=frozenset(pairs)))
    return len({blk[p] for p in range(1, state.parties + 1) if p not in state.out}) <= 1


def party_arg(state: State, token: str) -> int:
    if not token.isdecimal() or not 1 <= int(token) <= state.parties:
        raise fail("bad_party", party=token)
    return int(token)


def apply_setup(state: State, a: SetupAction, events: list[Event]) -> State:
    sc = state.scenario
    if isinstance(a, Start):
        return start_play(state, events)
    if isinstance(a, Place):
        party = party_arg(state, a.party)
        kind, fld = a.kind, a.field
        left = dict(((p, k), n) for p, k, n in state.reserve)
        if left.get((party, kind), 0) <= 0:
            raise fail("no_reserve", party=party, kind=kind)
        if fld not in sc.terrain:
            raise fail("bad_field", field=fld)
        k = sc.tables.kinds[kind]
        if k.water != (sc.terrain[fld] == "~") or sc.terrain[fld] in k.forbidden:
            raise R.no_ground(kind, fld, sc.terrain[fld])
        fid = f"{k.abbr}{state.next_id}"
        fig = Figure(fid, kind, party, party, fld)
        reserve = tuple(
            (p, kk, n - 1 if (p, kk) == (party, kind) else n) for p, kk, n in state.reserve
        )
        new = replace(
            state, figures=(*state.figures, fig), next_id=state.next_id + 1, reserve=reserve
        )
        events.append(Event(EventType.PLACED, {"figure": fid, "player": party, "field": fld}))
        return settle_crowds(new, events, {place_of(fig): party})
    if isinstance(a, Colour):
        party = party_arg(state, a.party)
        if a.colour not in COLOURS or a.colour in state.colours:
            raise fail("bad_colour", colour=a.colour)
        colours = list(state.colours)
        colours[party - 1] = a.colour
        events.append(Event(EventType.COLOUR, {"player": party, "colour": a.colour}))
        return replace(state, colours=tuple(colours))
    if isinstance(a, Ally):
        p, q = sorted((party_arg(state, a.party), party_arg(state, a.other)))
        if p == q:
            raise fail("bad_party", party=a.other)
        pairs = set(state.alliances) ^ {(p, q)}
        if _one_side(state, pairs):
            raise fail("one_side_alliance")
        events.append(Event(EventType.ALLIANCE, {"parties": [p, q], "allied": (p, q) in pairs}))
        return replace(state, alliances=frozenset(pairs))
    raise fail("wrong_phase", verb=a.verb)


def start_play(state: State, events: list[Event]) -> State:
    order = R.party_order(replace(state, round=1))
    events.append(Event(EventType.ROUND_STARTED, {"round": 1, "player": order[0] if order else 0}))
    return replace(state, phase=Phase.MOVE, round=1, active=order[0] if order else 0)
