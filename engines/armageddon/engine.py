"""The Armageddon engine: the house contract over the mechanisms of ``rules``.

Seat 0 is the game master (sets up, overrules with a logged note); seats 1..n are the
parties of the scenario. A round is a movement phase (each party in turn: steps, mounting,
turning, swapping, then ``end``) and an action phase (declarations, control, Handlungen,
then ``done``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engines.armageddon import rules as R
from engines.armageddon.actions import Action, action_path, action_text, parse_action
from engines.armageddon.hexmap import DIRECTIONS, edge_of, parse_field
from engines.armageddon.rules import Index, fail, index, place_of
from engines.armageddon.scenario import COLOURS, access_edges, load, parse
from engines.armageddon.state import (
    GM,
    SCHEMA,
    Figure,
    Pending,
    State,
    Undo,
    from_json,
    to_json,
)
from engines.core.contract import Decision, DecisionKind, Event, JsonDict, Outcome, PlayerId
from engines.core.errors import BadInput, EngineError, IllegalAction
from engines.core.rng import Rng

_CONFIG = {"scenario", "scenario_text", "file", "rounds", "teams"}
MOVE_VERBS = (
    "step",
    "up",
    "down",
    "mount",
    "dismount",
    "lead",
    "release",
    "climb",
    "face",
    "swap",
    "end",
)
ACT_VERBS = (
    "claim",
    "give",
    "lend",
    "gate",
    "pitch",
    "attack",
    "ram",
    "cast",
    "siege",
    "permit",
    "done",
)


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
        phase="setup",
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
    return R.settle_crowds(R.refresh_majorities(state), events, last_party)


class ArmageddonEngine:
    """Armageddon for a game master (seat 0) and 2-6 parties. Config: ``scenario`` (a
    shipped one's name) or ``scenario_text`` (+ ``file``), ``rounds``, ``teams``."""

    name = "armageddon"
    version = SCHEMA
    min_players = 3
    max_players = 7

    def initial_state(self, config: Mapping[str, Any], seed: int, players: int) -> State:
        unknown = set(config) - _CONFIG
        if unknown:
            raise BadInput("armageddon.error.bad_config", option=sorted(unknown)[0])
        if "scenario_text" in config:
            text, file = str(config["scenario_text"]), str(config.get("file", "szenario"))
        else:
            text, file = load(str(config.get("scenario", "scharmuetzel")))
        rounds = config.get("rounds")
        if rounds is not None and (not isinstance(rounds, int) or not 1 <= rounds <= 99):
            raise BadInput("armageddon.error.bad_config", option="rounds")
        teams = tuple(config.get("teams") or ())
        return new_state(text, file, seed, players, rounds, teams)

    # -------------------------------------------------------------- decisions

    def decisions(self, state: State) -> tuple[Decision, ...]:
        if state.phase == "end":
            return ()
        out: list[Decision] = []

        def did(seat: int) -> str:
            return f"{state.round}{state.phase[0]}{seat}.{state.counters[seat]}"

        if state.crowds:
            place, party = state.crowds[0]
            out.append(
                Decision(
                    party,
                    did(party),
                    DecisionKind.CHOICE,
                    "armageddon.prompt.remove",
                    {"place": place},
                )
            )
        elif state.pending is not None:
            for seat in state.pending.waiting:
                out.append(
                    Decision(
                        seat,
                        did(seat),
                        DecisionKind.REACTION,
                        "armageddon.prompt.agree",
                        {"claimer": state.pending.claimer, "target": state.pending.target},
                    )
                )
        elif state.phase == "setup":
            out.append(Decision(GM, did(GM), DecisionKind.TURN, "armageddon.prompt.setup"))
        else:
            prompt = "armageddon.prompt.move" if state.phase == "move" else "armageddon.prompt.act"
            out.append(
                Decision(
                    state.active,
                    did(state.active),
                    DecisionKind.TURN,
                    prompt,
                    {"round": state.round},
                )
            )
        gm_may = state.phase != "setup" or bool(state.crowds)
        if gm_may and GM not in state.out:  # there is always a figure to add or remove
            # the game master may overrule at any time; the game never waits for it
            out.append(
                Decision(GM, did(GM), DecisionKind.REACTION, "armageddon.prompt.gm", waits=False)
            )
        return tuple(out)

    def legal_actions(self, state: State, player: PlayerId) -> Sequence[Action]:
        if state.phase == "end" or player in state.out:
            return []
        if player == GM:
            if state.phase == "setup" and not state.crowds:
                return _setup_actions(state)
            return _gm_actions(state)
        if state.crowds:
            place, party = state.crowds[0]
            if party != player:
                return []
            return [
                Action("remove", (f.id,))
                for f in index(state).by_place.get(place, [])
                if f.owner == player
            ]
        if state.pending is not None:
            return [Action("agree"), Action("refuse")] if player in state.pending.waiting else []
        if state.phase == "setup" or player != state.active:
            return []
        return move_actions(state, player) if state.phase == "move" else act_actions(state, player)

    # -------------------------------------------------------------- apply

    def apply(self, state: State, action: Action, player: PlayerId) -> tuple[State, list[Event]]:
        if state.phase == "end":
            raise IllegalAction("armageddon.error.game_over")
        if not 0 <= player < len(state.counters) or player in state.out:
            raise IllegalAction("armageddon.error.not_your_turn")
        events: list[Event] = []
        new = _dispatch(state, action, player, events)
        # the guard: offered == accepted (a note to the last overrule is typed, never offered)
        if action not in self.legal_actions(state, player) and action.args[:1] != ("note",):
            raise IllegalAction("armageddon.error.illegal", action=action_text(action))
        new = _keep_undo(state, new, action, player)
        counters = list(new.counters)
        counters[player] += 1
        new = replace(new, counters=tuple(counters))
        new = _normalize(R.refresh_majorities(new), events)
        if action.note:
            about = state.last_gm if action.args[:1] == ("note",) else action_text(action)
            events.append(Event("gm_note", {"note": action.note, "action": about or "gm"}))
        if action.verb == "gm" and action.args[:1] != ("note",):
            new = replace(new, last_gm=" ".join((action.verb, *action.args)))
        return new, events

    def referee_seats(self, state: State) -> frozenset[PlayerId]:
        """The game master referees: the match ends when one playing side is left."""
        return frozenset({GM})

    def eliminate(self, state: State, player: PlayerId) -> tuple[State, list[Event]]:
        events: list[Event] = [Event("left", {"player": player})]
        if player in state.out or state.phase == "end":
            raise IllegalAction("armageddon.error.game_over")
        new = replace(state, out=(*state.out, player))
        if player == GM:
            if new.phase == "setup":
                new = _start(new, events)
            return _normalize(new, events), events
        new = R.remove_figures(
            new, {f.id for f in new.figures if f.owner == player}, events, "left"
        )
        new = replace(
            new,
            figures=tuple(
                replace(f, owner=0, possessor=0) if f.possessor == player else f
                for f in new.figures
            ),
            hz=tuple((fld, 0 if p == player else p) for fld, p in new.hz),
            crowds=tuple(c for c in new.crowds if c[1] != player),
        )
        pend = new.pending
        if pend is not None:
            if pend.claimer == player:
                new = replace(new, pending=None)
            else:
                waiting = tuple(s for s in pend.waiting if s != player)
                new = replace(new, pending=replace(pend, waiting=waiting))
                if not waiting:
                    new = _grant(new, pend.claimer, events)
        if new.phase in ("move", "act") and new.active == player:
            new = _advance(new, events)
        return _normalize(new, events), events

    # -------------------------------------------------------------- views and outcome

    def view_for(self, state: State, player: PlayerId | None) -> JsonDict:
        return view(state)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "end":
            return None
        score = scores(state)
        blk = R.blocks(state)
        per: dict[int, int] = {}
        for p in range(1, state.parties + 1):
            per[blk[p]] = per.get(blk[p], 0) + score[p]
        levels = sorted(set(per.values()), reverse=True)

        def seats_of(block_score: int) -> frozenset[int]:
            parties = {p for p in range(1, state.parties + 1) if per[blk[p]] == block_score}
            if state.teams:  # the match's allies win together
                teams = {state.teams[p] for p in parties}
                parties |= {s for s in range(len(state.teams)) if state.teams[s] in teams}
            return frozenset(parties)

        ranking: list[frozenset[int]] = []
        placed: set[int] = set()
        for level in levels:
            place = seats_of(level) - placed
            if place:
                ranking.append(place)
                placed |= place
        top = [b for b, v in per.items() if v == levels[0]]
        if len(top) > 1:
            return Outcome(frozenset(), "points_tie", tuple(ranking))
        return Outcome(ranking[0], "points", tuple(ranking))

    def secrets_of(self, state: State, player: PlayerId) -> set[str]:
        return set()

    # -------------------------------------------------------------- notation and JSON

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def action_text(self, action: Action) -> str:
        return action_text(action)

    def action_path(self, action: Action) -> tuple[str, ...]:
        return action_path(action)

    def state_to_json(self, state: State) -> JsonDict:
        return to_json(state)

    def state_from_json(self, data: JsonDict) -> State:
        return from_json(data)


# ================================================================== the set-up


def _setup_actions(state: State) -> list[Action]:
    sc = state.scenario
    out: list[Action] = [Action("start")]
    for party, kind, count in state.reserve:
        if count <= 0:
            continue
        k = sc.tables.kinds[kind]
        for fld in sc.fields():
            if k.water == (sc.terrain[fld] == "~") and sc.terrain[fld] not in k.forbidden:
                if fld in sc.towers and k.cls not in ("krieger", "tier"):
                    continue
                out.append(Action("place", (str(party), kind, fld)))
    for p in range(1, sc.parties + 1):
        for c in COLOURS:
            if c not in state.colours:
                out.append(Action("colour", (str(p), c)))
        for q in range(p + 1, sc.parties + 1):
            if not _one_side(state, set(state.alliances) ^ {(p, q)}):
                out.append(Action("ally", (str(p), str(q))))
    return out


def _one_side(state: State, pairs: set[tuple[int, int]]) -> bool:
    """Whether these alliances would leave a single side: nothing to fight for, the game
    would end at its start."""
    blk = R.blocks(replace(state, alliances=frozenset(pairs)))
    return len({blk[p] for p in range(1, state.parties + 1) if p not in state.out}) <= 1


def _party_arg(state: State, token: str) -> int:
    if not token.isdecimal() or not 1 <= int(token) <= state.parties:
        raise fail("bad_party", party=token)
    return int(token)


def _setup(state: State, a: Action, events: list[Event]) -> State:
    sc = state.scenario
    if a.verb == "start":
        return _start(state, events)
    if a.verb == "place":
        party = _party_arg(state, a.args[0])
        kind, fld = a.args[1], a.args[2]
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
        events.append(Event("placed", {"figure": fid, "player": party, "field": fld}))
        return R.settle_crowds(new, events, {place_of(fig): party})
    if a.verb == "colour":
        party = _party_arg(state, a.args[0])
        if a.args[1] not in COLOURS or a.args[1] in state.colours:
            raise fail("bad_colour", colour=a.args[1])
        colours = list(state.colours)
        colours[party - 1] = a.args[1]
        events.append(Event("colour", {"player": party, "colour": a.args[1]}))
        return replace(state, colours=tuple(colours))
    if a.verb == "ally":
        p, q = sorted((_party_arg(state, a.args[0]), _party_arg(state, a.args[1])))
        if p == q:
            raise fail("bad_party", party=a.args[1])
        pairs = set(state.alliances) ^ {(p, q)}
        if _one_side(state, pairs):
            raise fail("one_side_alliance")
        events.append(Event("alliance", {"parties": [p, q], "allied": (p, q) in pairs}))
        return replace(state, alliances=frozenset(pairs))
    raise fail("wrong_phase", verb=a.verb)


def _start(state: State, events: list[Event]) -> State:
    order = R.party_order(replace(state, round=1))
    events.append(Event("round_started", {"round": 1, "player": order[0] if order else 0}))
    return replace(state, phase="move", round=1, active=order[0] if order else 0)


# ================================================================== the game master


def _edge_token(a: str, b: str, sc: Any) -> str:
    d = sc.direction(a, b)
    return f"{a}/{d}"


def _edge_arg(state: State, token: str) -> tuple[str, str]:
    sc = state.scenario
    fld, _s, d = token.partition("/")
    if fld not in sc.terrain or d not in sc.neighbours[fld]:
        raise fail("bad_edge", edge=token)
    return edge_of(fld, sc.neighbours[fld][d])


def _keep_undo(old: State, new: State, action: Action, player: int) -> State:
    """Remember the position before a party's movement action (the game master may take it
    back with ``gm undo``); ``end`` and a note keep it, anything else forgets it."""
    if player != GM and action.verb in MOVE_VERBS and action.verb != "end":
        before = Undo(action_text(action), player, old.figures, old.crowds, old.last, old.fallen)
        return replace(new, undo=before)
    if (action.verb == "end" and new.phase == "move") or action.args[:1] == ("note",):
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


def _fits(sc: Any, kind: str, place: str) -> bool:
    """Whether a figure of ``kind`` may stand on ``place`` (its terrain; tower floors only
    for warriors, the ground of a tower for warriors and animals)."""
    fld, _s, lvl = place.partition("/")
    if fld not in sc.terrain:
        return False
    k = sc.tables.kinds[kind]
    if k.water != (sc.terrain[fld] == "~") or sc.terrain[fld] in k.forbidden:
        return False
    if fld in sc.towers and not k.hover:
        return k.cls == "krieger" or (k.cls == "tier" and not lvl)
    return not lvl


def _gm_actions(state: State) -> list[Action]:
    sc = state.scenario
    out: list[Action] = []
    if state.undo is not None:
        out.append(Action("gm", ("undo",)))
    places = _places(state)
    for f in state.figures:
        out.append(Action("gm", ("remove", f.id)))
        for place in places:
            here = place == (f"{f.field}/{f.level}" if f.level else f.field)
            if (not here or f.carrier) and _fits(sc, f.kind, place):
                out.append(Action("gm", ("move", f.id, place)))
    ids = {f.id for f in state.figures}
    for f in state.fallen:
        if f.id not in ids and f.owner not in state.out:
            out.append(Action("gm", ("restore", f.id)))
    for p in range(1, sc.parties + 1):
        if p in state.out:
            continue
        for kind in sc.tables.kinds:
            for place in places:
                if _fits(sc, kind, place):
                    out.append(Action("gm", ("add", str(p), kind, place)))
    for f in state.figures:
        if sc.tables.kinds[f.kind].cls not in ("krieger", "zauberer"):
            for p in range(1, sc.parties + 1):
                if p != f.owner and p not in state.out:
                    out.append(Action("gm", ("owner", f.id, str(p))))
    for (a, b), info in sorted(sc.edges.items()):
        if info.wall and (a, b) not in state.breached:
            if info.gate:
                out.append(Action("gm", ("gate", _edge_token(a, b, sc))))
            out.append(Action("gm", ("breach", _edge_token(a, b, sc))))
    for t in sorted(sc.towers):
        out.append(Action("gm", ("destroy", t)))
    for st in sc.stellungen:
        for a, b in access_edges(sc, st, state.blocked):
            token = _edge_token(a, b, sc)
            if Action("gm", ("block", token)) not in out:
                out.append(Action("gm", ("block", token)))
    return out


def _gm(state: State, a: Action, events: list[Event]) -> State:
    what = a.args[0]
    idx = index(state)
    if what in ("undo", "move", "add", "restore", "note"):
        return _gm_correct(state, a, events)
    if what == "remove":
        f = idx.get(a.args[1])
        riders = [r for r in state.figures if r.carrier == f.id]
        new = R.remove_figures(state, {f.id}, events, "gm")
        if f.kind == "elefant":
            new = _elephant_fell(new, f, riders, events)
        return R.settle_crowds(new, events)
    if what == "owner":
        f = idx.get(a.args[1])
        party = _party_arg(state, a.args[2])
        if idx.kind(f).cls in ("krieger", "zauberer") or party == f.owner or party in state.out:
            raise fail("bad_party", party=a.args[2])
        events.append(Event("owner_set", {"figure": f.id, "player": party}))
        return _set_figure(state, f.id, owner=party, possessor=party)
    if what == "destroy":  # die Grundfeste zerstört: everyone in the tower falls to the ground
        fld = a.args[1]
        if fld not in state.scenario.towers:
            raise fail("no_tower", field=fld)
        events.append(Event("tower_destroyed", {"field": fld}))
        figs = [replace(f, level=0) if f.field == fld else f for f in state.figures]
        new = replace(state.with_figures(figs), ruined=state.ruined | {fld})
        return R.settle_crowds(new, events)
    e = _edge_arg(state, a.args[1])
    info = state.scenario.edges.get(e)
    if what == "gate":
        if info is None or not info.gate or e in state.breached:
            raise fail("no_gate", edge=a.args[1])
        return _toggle_gate(state, e, events)
    if what == "breach":
        if info is None or not info.wall or e in state.breached:
            raise fail("no_wall", edge=a.args[1])
        events.append(Event("breached", {"edge": a.args[1]}))
        return replace(state, breached=state.breached | {e}, gates_open=state.gates_open - {e})
    # block: a Zugang is lost
    if e in state.blocked or not any(
        e in access_edges(state.scenario, st, frozenset()) for st in state.scenario.stellungen
    ):
        raise fail("no_access", edge=a.args[1])
    events.append(Event("blocked", {"edge": a.args[1]}))
    return replace(state, blocked=state.blocked | {e})


def _gm_correct(state: State, a: Action, events: list[Event]) -> State:
    """The game master corrects the position: takes back the last movement action (``undo``),
    puts a figure elsewhere (``move F FELD``, ``c4/2`` a tower floor), adds one (``add PARTEI
    ART FELD``), brings a fallen one back where it fell (``restore F``); ``note`` adds a note
    to the last overrule. What ends overcrowded is resolved as a breach of the Aufenthalt
    rules (the party with most figures there removes)."""
    what = a.args[0]
    sc = state.scenario
    if what == "note":
        if not a.note:
            raise fail("note_empty")
        return state
    if what == "undo":
        u = state.undo
        if u is None:
            raise fail("nothing_to_undo")
        events.append(Event("undone", {"player": u.party, "action": u.action}))
        return replace(state, figures=u.figures, crowds=u.crowds, last=u.last, fallen=u.fallen)
    if what == "move":
        f = index(state).get(a.args[1])
        place = a.args[2]
        if not _fits(sc, f.kind, place):
            raise fail("forbidden_terrain", figure=f.id, field=place)
        fld, _s, lvl = place.partition("/")
        level = int(lvl) if lvl else 0
        if (fld, level) == (f.field, f.level) and not f.carrier:
            raise fail("already_there", figure=f.id, field=place)
        new = R.move_to(state, {f.id: (fld, level, "", "")}, {}, 0)
        new = _set_figure(new, f.id, led_by="")
        events.append(Event("gm_moved", {"figure": f.id, "to": fld, "level": level}))
        return R.settle_crowds(new, events)
    if what == "add":
        party = _party_arg(state, a.args[1])
        kind, place = a.args[2], a.args[3]
        if kind not in sc.tables.kinds:  # the scenario file's words: krieger, lanze, …
            raise fail("bad_kind", kind=kind, kinds=", ".join(sorted(sc.tables.kinds)))
        if party in state.out:
            raise fail("bad_party", party=a.args[1])
        if not _fits(sc, kind, place):
            raise fail("forbidden_terrain", figure=kind, field=place)
        fld, _s, lvl = place.partition("/")
        fid = f"{sc.tables.kinds[kind].abbr}{state.next_id}"
        fig = Figure(fid, kind, party, party, fld, int(lvl) if lvl else 0)
        new = replace(state, figures=(*state.figures, fig), next_id=state.next_id + 1)
        events.append(Event("gm_added", {"figure": fid, "player": party, "field": fld}))
        return R.settle_crowds(new, events)
    # restore: a fallen figure comes back where it fell (off what carried it if that is gone)
    ids = {f.id for f in state.figures}
    old = next((f for f in reversed(state.fallen) if f.id == a.args[1]), None)
    if old is None or old.id in ids or old.owner in state.out:
        raise fail("not_fallen", figure=a.args[1])
    back = replace(old, led_by="")
    if back.carrier not in ids:
        back = replace(back, carrier="", slot="")
    new = replace(
        state,
        figures=(*state.figures, back),
        fallen=tuple(f for f in state.fallen if f.id != old.id),
    )
    events.append(Event("gm_restored", {"figure": old.id, "player": old.owner, "field": old.field}))
    return R.settle_crowds(new, events)


def _elephant_fell(state: State, dead: Figure, riders: list[Figure], events: list[Event]) -> State:
    """Tod eines Elefanten on an overcrowded field: another elephant trampling there goes on
    trampling; only when none is left do the riders of the fallen one begin a Handgemenge."""
    place = place_of(dead)
    if not index(state).over(place):
        return state
    other = next((f for f in index(state).by_place.get(place, []) if f.kind == "elefant"), None)
    if other is not None:
        return R.trample(state, place, other, events)
    if riders:
        return R.melee(state, place, riders[0].owner, events)
    return state


def _toggle_gate(state: State, e: tuple[str, str], events: list[Event]) -> State:
    opened = e not in state.gates_open
    events.append(Event("gate", {"edge": list(e), "open": opened}))
    return replace(state, gates_open=state.gates_open ^ {e})


def _set_figure(state: State, fid: str, **changes: Any) -> State:
    return state.with_figures([replace(f, **changes) if f.id == fid else f for f in state.figures])


# ================================================================== movement phase


def _rein_once(state: State, animal: Figure) -> None:
    """READING: taking an animal by the rein and letting it go are declarations (Kap. 0,
    Erklärung), so like every declaration once per object and round."""
    if animal.declared == state.round:
        raise fail("rein_once", figure=animal.id)


def move_actions(state: State, party: int) -> list[Action]:
    idx = index(state)
    sc = idx.sc
    out: list[Action] = []

    def ok(a: Action) -> None:
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
            ok(Action("step", (f.id, target)))
        if f.field in sc.towers and not f.carrier and k.cls == "krieger":
            ok(Action("up", (f.id,)))
            ok(Action("down", (f.id,)))
        if k.cls == "krieger" and not f.carrier:
            near = [
                g for n in sc.neighbours[f.field].values() for g in idx.by_place.get(f"f:{n}:0", [])
            ]
            for h in idx.by_place.get(place_of(f), []) + [g for g in near if idx.kind(g).fills]:
                hk = idx.kind(h)
                if h.id == f.id or not hk.holds or hk.cls == "schiff":
                    continue
                if h.kind == "leiter":
                    ok(Action("climb", (f.id, h.id)))
                    continue
                for slot, _cap in hk.holds:
                    ok(
                        Action("mount", (f.id, h.id, slot))
                        if len(hk.holds) > 1
                        else Action("mount", (f.id, h.id))
                    )
                if hk.cls == "tier":
                    ok(Action("lead", (f.id, h.id)))
        if f.carrier:
            holder = idx.by_id.get(f.carrier)
            if holder is not None and idx.kind(holder).fills:
                for there in sc.neighbours[holder.field].values():
                    ok(Action("dismount", (f.id, there)))
            else:
                ok(Action("dismount", (f.id,)))
        if f.led_by:
            ok(Action("release", (f.id,)))
        if k.orient:
            for d in DIRECTIONS:
                ok(Action("face", (f.id, d)))
        if k.swap != "no" and not f.carrier:
            for g in _swap_partners(idx, f, party):
                ok(Action("swap", (f.id, g)))
    out.append(Action("end"))
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


def _check_move(state: State, idx: Index, a: Action, party: int) -> Any:
    """Raises unless movement action ``a`` is legal for ``party``; returns what apply needs."""
    sc = idx.sc
    if a.verb == "end":
        return None
    f = _fig_arg(idx, a.args[0])
    k = idx.kind(f)
    if a.verb == "step":
        if a.args[1] not in sc.terrain:
            raise fail("bad_field", field=a.args[1])
        return R.step_cost(idx, f, a.args[1], party)
    if a.verb in ("up", "down"):
        R._movable(idx, f, party)
        if k.cls != "krieger" or f.carrier or f.field not in sc.towers:
            raise fail("no_tower", field=f.field)
        level = f.level + (1 if a.verb == "up" else -1)
        if not 0 <= level <= sc.towers[f.field].floors:
            raise fail("no_floor", field=f.field, level=level)
        up = a.verb == "up"  # über Aufgang nach oben: a Doppelschritt
        cost = R._check_steps(idx, f, [], 2 if up else 1, "stairs" if up else "", f.field)
        dest = f"f:{f.field}:{level}"
        if idx.over(dest, [f]):
            raise fail("full", field=f.field)
        return cost, dest
    if a.verb in ("mount", "lead", "climb"):
        R._movable(idx, f, party)
        if k.cls != "krieger" or f.carrier:
            raise fail("cannot_mount", figure=f.id)
        h = _fig_arg(idx, a.args[1])
        hk = idx.kind(h)
        if h.carrier or not hk.holds or hk.cls == "schiff" or h.id == f.id:
            raise fail("cannot_mount", figure=f.id)
        base = 1
        if hk.fills:  # nobody stands beside it: one climbs on from the neighbouring field
            if a.verb != "mount" or h.level or f.level:
                raise fail("cannot_mount", figure=f.id)
            if h.field not in sc.neighbours[f.field].values():
                raise fail("not_adjacent", figure=f.id, field=h.field, at=f.field)
            base = 2 if R.edge_double(idx, k, f.field, h.field) else 1
        elif h.field != f.field or h.level != f.level:
            raise fail("cannot_mount", figure=f.id)
        if a.verb == "climb":
            front = sc.neighbours[h.field].get(h.facing) if h.facing else None
            if h.kind != "leiter" or front not in sc.towers:
                raise fail("ladder_not_set", figure=h.id)
            dest = f"c:{h.id}:leiter"
            if idx.over(dest, [f]):
                raise fail("full", field=h.id)
            return 0, dest  # an Aktion, no step
        if h.kind == "leiter":
            raise fail("cannot_mount", figure=f.id)
        if hk.cls == "tier":
            _may_take_animal(idx, f, h, party, leading=a.verb == "lead")
        if a.verb == "lead":
            if hk.cls != "tier" or h.led_by or idx.carried.get(h.id):
                raise fail("cannot_lead", figure=h.id)
            _rein_once(state, h)
            return 0, ""  # a movement one only declares
        slot = a.args[2] if len(a.args) > 2 else hk.holds[0][0]
        if not hk.slot_capacity(slot) or (len(hk.holds) > 1 and len(a.args) < 3):
            raise fail("bad_slot", figure=h.id, slot=slot)
        dest = f"c:{h.id}:{slot}"
        if idx.over(dest, [f]):
            raise fail("full", field=h.id)
        double = hk.mount_double or slot == "oben"  # Auf- und Absteigen auf Quadrigawagen, Elefant
        why = "mount" if double else R.double_why(idx, f.field, h.field)
        return R._check_steps(idx, f, [], 2 if double or base == 2 else 1, why, h.field), dest
    if a.verb == "dismount":
        R._can_act_on(idx, f, party)
        if f.owner != party or not f.carrier:
            raise fail("not_mounted", figure=f.id)
        h = idx.by_id[f.carrier]
        hk = idx.kind(h)
        if hk.cls == "schiff" or h.kind == "leiter":
            raise fail("not_mounted", figure=f.id)
        base = 1
        if hk.fills:  # down to a neighbouring field
            if len(a.args) != 2 or a.args[1] not in sc.neighbours[h.field].values():
                raise fail("bad_field", field=a.args[1] if len(a.args) == 2 else "")
            there = a.args[1]
            if sc.terrain[there] == "~" or sc.terrain[there] in k.forbidden:
                raise R.no_ground(f.id, there, sc.terrain[there])
            if there in sc.towers:
                raise fail("forbidden_tower", figure=f.id, field=there)
            base = 2 if R.edge_double(idx, k, h.field, there) else 1
            dest = f"f:{there}:0"
        elif len(a.args) != 1:
            raise fail("bad_field", field=a.args[1])
        else:
            dest = f"c:{h.carrier}:{h.slot}" if h.carrier else f"f:{h.field}:{h.level}"
        if idx.over(dest, [f], without=[f.id]):
            raise fail("full", field=dest.split(":")[1])
        double = hk.mount_double or f.slot == "oben" or base == 2
        return R._check_steps(idx, f, [], 2 if double else 1), dest
    if a.verb == "release":
        if not f.led_by or idx.by_id.get(f.led_by) is None or idx.by_id[f.led_by].owner != party:
            raise fail("not_led", figure=f.id)
        _rein_once(state, f)
        return None
    if a.verb == "face":
        if not k.orient or a.args[1] not in DIRECTIONS:
            raise fail("cannot_turn", figure=f.id)
        if (f.possessor if k.cls in ("geraet", "schiff") else f.owner) != party:
            raise fail("not_yours", figure=f.id)
        R._can_act_on(idx, f, party)
        return None
    if a.verb == "swap":
        return _check_swap(idx, f, a.args[1], party)
    raise fail("wrong_phase", verb=a.verb)


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
    if any(k.swap == "no" for k in kinds):
        raise fail("no_swap", figure=f.id)
    if idx.kind(f).swap == "not_same" and any(k.swap == "not_same" for k in kinds[1:]):
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


def _move(state: State, a: Action, party: int, events: list[Event]) -> State:
    idx = index(state)
    info = _check_move(state, idx, a, party)
    if a.verb == "end":
        events.append(Event("movement_ended", {"player": party}))
        return _advance(state, events)
    f = idx.get(a.args[0])
    if a.verb == "step":
        cost, dest, along, tramples = info
        target = R.dest_tuple(idx, dest)
        moved = {f.id: target}
        for x in along:
            moved[x.id] = (
                (target[0], target[1], "", "")
                if not x.carrier
                else (target[0], target[1], x.carrier, x.slot)
            )
            if idx.kind(x).cls == "krieger":  # the crew walks beside the device
                moved[x.id] = (target[0], target[1], "", "")
        costs = {x: cost for x in moved}
        new = R.move_to(state, moved, costs, party)
        stepped: dict[str, Any] = {
            "player": party,
            "figure": f.id,
            "from": f.field,
            "to": a.args[1],
            "cost": cost,
        }
        if cost == 2:  # a Doppelschritt: say why
            stepped["double"] = R.step_why(idx, f, a.args[1]) or "other"
        events.append(Event("stepped", stepped))
        new = replace(new, last=(*new.last, (f.id, f.field, a.args[1]))[-24:])
        if tramples:
            events.append(Event("trampling", {"figure": f.id, "field": a.args[1]}))
            new = R.trample(new, dest, R.index(new).get(f.id), events)
        return R.settle_crowds(new, events, {dest: party})
    if a.verb in ("up", "down"):
        cost, dest = info
        events.append(
            Event("climbed", {"player": party, "figure": f.id, "level": int(dest.split(":")[2])})
        )
        return R.move_to(state, {f.id: R.dest_tuple(idx, dest)}, {f.id: cost}, party)
    if a.verb in ("mount", "climb", "lead"):
        cost, dest = info
        h = idx.get(a.args[1])
        new = state
        if idx.kind(h).cls == "tier" and h.owner != party:
            events.append(Event("conquered", {"player": party, "figure": h.id, "from": h.owner}))
            new = _set_figure(new, h.id, owner=party, possessor=party, declared=state.round)
        if a.verb == "lead":
            events.append(Event("leads", {"player": party, "figure": f.id, "animal": h.id}))
            return _set_figure(new, h.id, led_by=f.id, declared=state.round)
        mounted: dict[str, Any] = {"player": party, "figure": f.id, "carrier": h.id, "cost": cost}
        if cost == 2:  # Auf- und Absteigen auf Quadrigawagen, Elefant; a wall, river … on the way
            why = "mount" if idx.kind(h).mount_double or dest.endswith(":oben") else ""
            mounted["double"] = why or R.double_why(idx, f.field, h.field) or "other"
        events.append(Event("mounted", mounted))
        new = R.move_to(new, {f.id: R.dest_tuple(idx, dest)}, {f.id: cost} if cost else {}, party)
        return new
    if a.verb == "dismount":
        cost, dest = info
        off: dict[str, Any] = {"player": party, "figure": f.id, "cost": cost}
        if cost == 2:
            h = idx.by_id[f.carrier]
            why = "mount" if idx.kind(h).mount_double or f.slot == "oben" else ""
            there = dest.split(":")[1]
            off["double"] = why or R.double_why(idx, h.field, there) or "other"
        events.append(Event("dismounted", off))
        return R.move_to(state, {f.id: R.dest_tuple(idx, dest)}, {f.id: cost}, party)
    if a.verb == "release":
        events.append(Event("released", {"player": party, "figure": f.id}))
        return _set_figure(state, f.id, led_by="", declared=state.round)
    if a.verb == "face":
        events.append(Event("turned", {"player": party, "figure": f.id, "facing": a.args[1]}))
        return _set_figure(state, f.id, facing=a.args[1], faced=True, mover=party)
    if a.verb == "swap":
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
        events.append(Event("swapped", {"player": party, "figure": f.id, "with": a.args[1]}))
        return new
    raise fail("wrong_phase", verb=a.verb)


# ================================================================== action phase


def _objects(idx: Index) -> list[Figure]:
    return [f for f in idx.state.figures if idx.kind(f).cls in ("tier", "geraet", "schiff")]


def act_actions(state: State, party: int) -> list[Action]:
    idx = index(state)
    sc = idx.sc
    out: list[Action] = []

    def ok(a: Action) -> None:
        try:
            _check_act(state, idx, a, party)
        except IllegalAction:
            return
        out.append(a)

    others = [p for p in range(1, sc.parties + 1) if p != party and p not in state.out]
    for f in _objects(idx):
        if idx.kind(f).cls != "tier":
            ok(Action("claim", (f.id,)))
        if f.owner == party or f.possessor == party:
            for q in others:
                ok(Action("give", (f.id, str(q))))
                ok(Action("lend", (f.id, str(q))))
    for fld in sc.hz:
        ok(Action("claim", (fld,)))
    for (a, b), info in sorted(sc.edges.items()):
        if info.gate:
            ok(Action("gate", (_edge_token(a, b, sc),)))
    for t in sc.towers:
        for n in sc.neighbours[t].values():
            ok(Action("pitch", (t, n)))
        for q in others:
            ok(Action("permit", (t, str(q))))
    for f in state.figures:
        if f.owner != party:
            continue
        k = idx.kind(f)
        if k.cls == "krieger" and not f.acted:
            near = {f.field, *sc.neighbours[f.field].values()}
            for g in state.figures:
                if g.field in near and g.owner and not R.allied(state, g.owner, party):
                    ok(Action("attack", (f.id, g.id)))
        if k.caster and not f.acted:
            out += _cast_actions(state, idx, f, party)
    for f in state.figures:
        if f.possessor == party and idx.kind(f).cls == "schiff":
            for g in state.figures:
                if idx.kind(g).cls == "schiff" and g.field in sc.neighbours[f.field].values():
                    ok(Action("ram", (f.id, g.id)))
    for st in sc.stellungen:
        ok(Action("siege", (st.name,)))
    out.append(Action("done"))
    return out


def _cast_actions(state: State, idx: Index, w: Figure, party: int) -> list[Action]:
    sc = idx.sc
    rng = sc.tables.number("spell_range")
    near = [fld for fld in sc.fields() if R.distance(sc, w.field, fld) <= rng]
    out: list[Action] = []
    for spell in sorted(sc.tables.spells):
        if spell == "tor_bewegen":
            for (ea, eb), info in sorted(sc.edges.items()):
                if info.gate and ea in near:
                    out.append(Action("cast", (w.id, spell, _edge_token(ea, eb, sc))))
            continue
        for fld in near:
            for token in _spell_places(idx, fld):
                if spell == "versetzen":
                    if not _has_targets(idx, spell, w, token):
                        continue  # every destination would fail the same check
                    for to in near:
                        if to != fld:
                            top = sc.towers[to].floors if to in sc.towers else 0
                            out.append(
                                Action(
                                    "cast",
                                    (w.id, spell, token, f"{to}/{top}" if to in sc.towers else to),
                                )
                            )
                else:
                    out.append(Action("cast", (w.id, spell, token)))
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
        R.spell_targets(idx, spell, w, *_spell_place(idx, token))
    except IllegalAction:
        return False
    return True


def _field_level(sc: Any, token: str) -> tuple[str, int]:
    fld, _s, lvl = token.partition("/")
    if fld not in sc.terrain or (lvl and (not lvl.isdecimal() or fld not in sc.towers)):
        raise fail("bad_field", field=token)
    level = int(lvl) if lvl else 0
    if fld in sc.towers and level > sc.towers[fld].floors:
        raise fail("no_floor", field=fld, level=level)
    return fld, level


def _check_cast(state: State, idx: Index, a: Action, party: int) -> Any:
    sc = idx.sc
    w = idx.get(a.args[0])
    spell = a.args[1]
    if w.owner != party or not idx.kind(w).caster:
        raise fail("not_a_caster", figure=w.id)
    if w.acted:
        raise fail("acted", figure=w.id)
    if spell not in sc.tables.spells:
        raise fail("unknown_spell", spell=spell)
    rng = sc.tables.number("spell_range")
    if spell == "tor_bewegen":  # a gate may be moved by spells several times in a round
        if len(a.args) != 3:
            raise fail("bad_target", spell=spell)
        e = _edge_arg(state, a.args[2])
        info = sc.edges.get(e)
        if info is None or not info.gate or e in state.breached:
            raise fail("no_gate", edge=a.args[2])
        if R.distance(sc, w.field, e[0]) > rng and R.distance(sc, w.field, e[1]) > rng:
            raise fail("out_of_range", field=a.args[2])
        return e
    fld, level, floor = _spell_place(idx, a.args[2])
    if R.distance(sc, w.field, fld) > rng:
        raise fail("out_of_range", field=fld)
    targets = R.spell_targets(idx, spell, w, fld, level, floor)
    if spell != "versetzen":
        if len(a.args) != 3:
            raise fail("bad_target", spell=spell)
        return targets
    if len(a.args) != 4:
        raise fail("bad_target", spell=spell)
    to, to_level = _field_level(sc, a.args[3])
    if R.distance(sc, w.field, to) > rng or to == fld:
        raise fail("out_of_range", field=to)
    if (
        fld in sc.towers
        and not R.may_set_into(state, idx, party, fld, level or 0)
        and sc.towers[fld].owner != party
    ):
        raise fail("building_rights", field=fld)
    if to in sc.towers:
        if to_level != sc.towers[to].floors or idx.on_field(to, to_level):
            raise fail("platform_not_empty", field=to)
        if not R.may_set_into(state, idx, party, to, to_level):
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


def _check_act(state: State, idx: Index, a: Action, party: int) -> Any:
    sc = idx.sc
    v = a.verb
    if v == "done":
        return None
    if v == "claim":
        return _check_claim(state, idx, a.args[0], party)
    if v in ("give", "lend"):
        x = idx.get(a.args[0])
        q = _party_arg(state, a.args[1])
        k = idx.kind(x)
        if q == party or q in state.out:
            raise fail("bad_party", party=a.args[1])
        if k.cls not in ("tier", "geraet", "schiff"):
            raise fail("not_giftable", figure=x.id)
        if x.declared == state.round:
            raise fail("declared_already", figure=x.id)
        if v == "lend" and k.cls == "tier":
            raise fail("animals_not_lent", figure=x.id)
        returning = v == "lend" and x.possessor == party and x.owner == q
        if not returning and (x.owner != party or x.possessor != party):
            raise fail("not_owner", figure=x.id)
        if k.cls == "tier" and (idx.carried.get(x.id) or x.led_by):
            raise fail("animal_held", figure=x.id)
        if not returning and not any(w.owner == q for w in idx.warriors(R.counted_for(idx, x))):
            raise fail("no_receiver", figure=x.id, party=q)
        return x, q
    if v == "gate":
        e = _edge_arg(state, a.args[0])
        info = sc.edges.get(e)
        if info is None or not info.gate or e in state.breached:
            raise fail("no_gate", edge=a.args[0])
        if e in state.gate_moves:
            raise fail("gate_moved", edge=a.args[0])
        inside = idx.warriors(idx.on_field(info.inside, 0))
        if not any(w.owner == party for w in inside):
            raise fail("gate_no_warrior", edge=a.args[0])
        if party not in R.block_majority(state, R.counts(idx, inside)):
            raise fail("no_majority_gate", edge=a.args[0])
        return e
    if v == "pitch":
        t, target = a.args
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
            if not f.carrier and idx.kind(f).cls in ("krieger", "tier")
        ]
        if not victims:
            raise fail("no_target", field=target)
        return victims
    if v == "attack":
        f, g = idx.get(a.args[0]), idx.get(a.args[1])
        if f.owner != party or idx.kind(f).cls != "krieger":
            raise fail("not_yours", figure=f.id)
        if f.acted:
            raise fail("acted", figure=f.id)
        R._can_act_on(idx, replace(f, mover=0, faced=False), party)
        if (
            not g.owner
            or R.allied(state, g.owner, party)
            or idx.kind(g).cls in ("geraet", "schiff", "zauberer")
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
    if v == "ram":
        ship, boat = idx.get(a.args[0]), idx.get(a.args[1])
        if idx.kind(ship).cls != "schiff" or not R.controls_device(idx, ship, party):
            raise fail("no_majority", figure=ship.id)
        if ship.acted:
            raise fail("acted", figure=ship.id)
        if idx.kind(boat).cls != "schiff" or R.allied(state, boat.possessor, party):
            raise fail("bad_target_figure", figure=boat.id)
        if boat.field not in sc.neighbours[ship.field].values():
            raise fail("out_of_reach", figure=boat.id)
        return ship, boat
    if v == "cast":
        return _check_cast(state, idx, a, party)
    if v == "siege":
        st = next((s for s in sc.stellungen if s.name == a.args[0]), None)
        if st is None:
            raise fail("no_stellung", name=a.args[0])
        if R.allied(state, st.owner, party) or (st.name, party) in state.sieges:
            raise fail("cannot_siege", name=st.name)
        ring = {n for fld in st.fields for n in sc.neighbours[fld].values()} | set(st.fields)
        if not any(w.owner == party and w.field in ring for w in idx.warriors(state.figures)):
            raise fail("cannot_siege", name=st.name)
        return st
    if v == "permit":
        t = a.args[0]
        q = _party_arg(state, a.args[1])
        if t not in sc.towers or q == party or (t, q) in state.permits:
            raise fail("cannot_permit", field=t)
        holders = R.block_majority(state, R.counts(idx, idx.warriors(idx.on_field(t))))
        if sc.towers[t].owner != party and party not in holders:
            raise fail("cannot_permit", field=t)
        return t, q
    raise fail("wrong_phase", verb=v)


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
    if k.cls not in ("geraet", "schiff"):
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


def _act(state: State, a: Action, party: int, events: list[Event]) -> State:
    idx = index(state)
    info = _check_act(state, idx, a, party)
    v = a.verb
    if v == "done":
        events.append(Event("actions_ended", {"player": party}))
        return _advance(state, events)
    if v == "claim":
        target, allies = info
        waiting = tuple(p for p in allies if p not in state.out)
        if waiting:
            events.append(
                Event("claim_asked", {"player": party, "target": target, "allies": list(waiting)})
            )
            return replace(state, pending=Pending(party, target, waiting))
        return _grant(replace(state, pending=Pending(party, target, ())), party, events)
    if v in ("give", "lend"):
        x, q = info
        if v == "give":
            events.append(Event("given", {"player": party, "figure": x.id, "to": q}))
            return _set_figure(state, x.id, owner=q, possessor=q, declared=state.round)
        events.append(Event("lent", {"player": party, "figure": x.id, "to": q}))
        return _set_figure(state, x.id, possessor=q, declared=state.round)
    if v == "gate":
        new = _toggle_gate(state, info, events)
        return replace(new, gate_moves=new.gate_moves | {info})
    if v == "pitch":
        need = state.scenario.tables.number("pitch_survive")
        events.append(Event("pitch", {"player": party, "tower": a.args[0], "field": a.args[1]}))
        dead = set()
        new = state
        for f in info:
            rolls, new, ev = R.roll(new, "pitch", f.owner, figure=f.id)
            events.append(ev)
            if rolls[0] < need:
                dead.add(f.id)
        new = R.remove_figures(new, dead, events, "pitch")
        return R.settle_crowds(replace(new, pitched=new.pitched | {a.args[0]}), events)
    if v == "attack":
        f, g = info
        new = _set_figure(state, f.id, acted=True)
        riders = [r for r in state.figures if r.carrier == g.id]
        new, fallen = R.fight(new, replace(f, acted=True), g, "attack", events)
        if fallen == g.id and g.kind == "elefant":
            new = _elephant_fell(new, g, riders, events)
        return R.settle_crowds(new, events)
    if v == "ram":  # Lesung: the rammer's crew is carried onto the rammed ship (Rammfeld)
        ship, target = info
        events.append(Event("rammed", {"player": party, "ship": ship.id, "target": target.id}))
        slot = idx.kind(target).holds[0][0]
        figs = [
            replace(f, carrier=target.id, slot=slot, field=target.field)
            if f.carrier == ship.id and idx.kind(f).cls == "krieger"
            else replace(f, acted=True)
            if f.id == ship.id
            else f
            for f in state.figures
        ]
        new = state.with_figures(figs)
        place = f"c:{target.id}:{slot}"
        if index(new).over(place):  # the steering side begins the Handgemenge
            new = R.melee(new, place, party, events)
        return R.settle_crowds(new, events)
    if v == "cast":
        return _cast(state, a, party, info, events)
    if v == "siege":
        events.append(Event("siege", {"player": party, "stellung": info.name}))
        return replace(state, sieges=state.sieges | {(info.name, party)})
    if v == "permit":
        t, q = info
        events.append(Event("permitted", {"player": party, "tower": t, "to": q}))
        return replace(state, permits=state.permits | {(t, q)})
    raise fail("wrong_phase", verb=v)


def _cast(state: State, a: Action, party: int, info: Any, events: list[Event]) -> State:
    sc = state.scenario
    w_id, spell = a.args[0], a.args[1]
    new = _set_figure(state, w_id, acted=True)
    events.append(
        Event("cast", {"player": party, "wizard": w_id, "spell": spell, "target": list(a.args[2:])})
    )
    if spell == "tor_bewegen":
        return _toggle_gate(new, info, events)
    until = state.round + sc.tables.number("spell_rounds")  # to the end of the next round(s)
    sp = sc.tables.spells[spell]
    if spell == "versetzen":
        targets, to, level = info
        every = {t.id for t in targets}
        ids = {t.id for t in targets if t.carrier not in every}
        moved = {i: (to, level, "", "") for i in ids}
        wizard = state.figure(w_id)
        if wizard is not None and wizard.field == a.args[2].partition("/")[0]:
            moved[w_id] = (to, 0, "", "")  # he may set himself over only with other figures
        new = R.move_to(new, moved, {}, party)
        new = state_enchant(new, {t.id for t in targets}, sp.state, until, None)
        events.append(Event("set_over", {"figures": sorted(ids), "to": to, "level": level}))
        return R.settle_crowds(new, events)
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


def _grant(state: State, party: int, events: list[Event]) -> State:
    """The pending claim succeeds: a device, ship or quadriga becomes the claimer's, or the
    Handelszentrum changes hands."""
    pending = state.pending
    new = replace(state, pending=None)
    if pending is None:
        return new
    if pending.target in state.scenario.hz:
        events.append(Event("hz_taken", {"player": party, "field": pending.target}))
        return replace(new, hz=tuple((f, party if f == pending.target else p) for f, p in new.hz))
    events.append(Event("conquered", {"player": party, "figure": pending.target}))
    return _set_figure(
        new, pending.target, owner=party, possessor=party, declared=state.round, last_majority=party
    )


def _answer(state: State, a: Action, player: int, events: list[Event]) -> State:
    pending = state.pending
    if pending is None or player not in pending.waiting:
        raise fail("nothing_to_answer")
    if a.verb == "refuse":
        events.append(Event("claim_refused", {"player": player, "target": pending.target}))
        return replace(state, pending=None)
    waiting = tuple(s for s in pending.waiting if s != player)
    events.append(Event("claim_agreed", {"player": player, "target": pending.target}))
    if waiting:
        return replace(state, pending=replace(pending, waiting=waiting))
    return _grant(state, pending.claimer, events)


def _remove(state: State, a: Action, player: int, events: list[Event]) -> State:
    if not state.crowds or state.crowds[0][1] != player:
        raise fail("nothing_to_remove")
    place = state.crowds[0][0]
    idx = index(state)
    f = idx.get(a.args[0])
    if place_of(f) != place or f.owner != player:
        raise fail("not_there", figure=f.id)
    return R.remove_figures(state, {f.id}, events, "overcrowded")


# ================================================================== flow


def _dispatch(state: State, a: Action, player: int, events: list[Event]) -> State:
    try:
        if a.verb == "remove":
            return _remove(state, a, player, events)
        if a.verb == "gm":
            if player != GM or (state.phase == "setup" and not state.crowds):
                raise fail("gm_only")
            return _gm(state, a, events)
        if state.crowds:
            raise _resolve_first(state)
        if a.verb in ("agree", "refuse"):
            return _answer(state, a, player, events)
        if a.verb in ("place", "colour", "ally", "start"):
            if player != GM or state.phase != "setup":
                raise fail("gm_only")
            return _setup(state, a, events)
        if state.pending is not None:
            raise fail("claim_pending", target=state.pending.target)
        if player == GM or player != state.active:
            raise fail("not_your_turn")
        if a.verb in MOVE_VERBS:
            if state.phase != "move":
                raise fail("wrong_phase", verb=a.verb)
            return _move(state, a, player, events)
        if state.phase != "act":
            raise fail("wrong_phase", verb=a.verb)
        return _act(state, a, player, events)
    except EngineError:
        raise
    except (KeyError, ValueError, IndexError) as error:  # a token naming nothing
        raise IllegalAction("armageddon.error.illegal", action=action_text(a)) from error


def _resolve_first(state: State) -> EngineError:
    """Why nothing else may happen yet: a party must remove figures from an overcrowded
    place (named as a field, a tower's level or a carrier, never as an internal id)."""
    place, party = state.crowds[0]
    tag, where, sub = place.split(":")
    if tag == "c":
        carrier = state.figure(where)
        fld = carrier.field if carrier is not None else "?"
        return fail("resolve_first_on", figure=where, field=fld, player=party)
    if sub != "0":
        return fail("resolve_first_level", field=where, level=int(sub), player=party)
    return fail("resolve_first", field=where, player=party)


def _advance(state: State, events: list[Event]) -> State:
    """The next party's turn in this phase, else the next phase or round."""
    order = R.party_order(state)
    later = order[order.index(state.active) + 1 :] if state.active in order else []
    if later:
        return replace(state, active=later[0])
    if state.phase == "move":
        events.append(Event("action_phase", {"round": state.round}))
        return replace(state, phase="act", active=order[0] if order else 0)
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
        events.append(Event("game_over", {"reason": "rounds"}))
        return replace(new, phase="end", active=0, round=new.rounds)
    order = R.party_order(replace(new, round=nxt))
    events.append(Event("round_started", {"round": nxt, "player": order[0] if order else 0}))
    return replace(new, round=nxt, phase="move", active=order[0] if order else 0)


def _normalize(state: State, events: list[Event]) -> State:
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
            events.append(Event("game_over", {"reason": "one_side"}))
            return replace(state, phase="end", active=0, crowds=(), pending=None)
        if state.active in state.out:
            state = _advance(state, events)
    return state


def scores(state: State) -> dict[int, int]:
    t = state.scenario.tables
    out = {p: 0 for p in range(1, state.parties + 1)}
    for f in state.figures:
        if f.owner in out and t.kinds[f.kind].cls == "krieger":
            out[f.owner] += t.number("points_warrior")
    for _fld, p in state.hz:
        if p in out:
            out[p] += t.number("points_hz")
    return out


# ================================================================== the view


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
                "edge": _edge_token(a, b, sc),
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
        if k.cls in ("geraet", "schiff"):
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


ENGINE = ArmageddonEngine()
