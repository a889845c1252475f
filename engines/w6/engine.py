"""The W6 combat as a game of the engine contract (``engines.core.contract``).

Seats: seat 0 is the game master (the GM and every co-GM act as seat 0; the cog maps a Discord
user to a seat); the players are seats 1, 2, ... in the order their first fighter joined
(``CombatState.seats`` keeps their user ids as opaque keys). Seats open while the combat runs
(``seat_count``) and never close.

Decisions (``decisions``), in this order:

- the fighters who must answer a pending step (announce attack dice, announce or roll a
  defence, go on with a Rundumschlag, follow up, act first or after on a tie of the
  Aktionsbasis): ``CHOICE`` for the seat of each fighter's owner, and for seat 0, who may
  answer for anyone;
- else the fighters who may act now (the one whose turn it is, held Handlungen): ``TURN`` for
  their owners' seats and for seat 0;
- the Reflex of every other conscious fighter who still has it (any time): ``REACTION``;
- the GM's commands (begin, next phase, set values, conditions, dice, rules, joins, end):
  ``TURN`` for seat 0 before the combat begins, ``REACTION`` after.

A decision's id is a digest of exactly what answering it changes (the fighters it names with
their values, the pending attack's number and stage; for the GM the count of their
commands), so it changes once the decision is answered and stays while others act.

``legal_actions`` lists a representative set (dice counts from each fighter's KW budget,
targets among the fighters, one Erschwernisprobe that covers what the technique needs, a few
values for the GM's free numbers; ``apply`` still takes any valid value); every listed action
applies. The outcome: only the GM ends a combat (W6 knows no victory condition: the fallen may
be healed, more may join); the reason says whether one side stood alone then.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engines.core import BadInput, EngineError, Event, IllegalAction, Outcome, register
from engines.core.contract import Decision, DecisionKind, JsonDict, PlayerId
from engines.w6.actions import GM_VERBS, CombatAction, make, parse_action
from engines.w6.attacks import probe_required
from engines.w6.codec import decode, encode
from engines.w6.combat import initial_of, state_from_json, state_to_json
from engines.w6.gear import usable_weapons
from engines.w6.state import (
    CONDITIONS,
    OPTIONAL_RULES,
    RANGED_DEFENCE,
    STATE_VERSION,
    CombatState,
    Fighter,
    Settings,
    new_combat,
    seat_of_owner,
)
from engines.w6.steps import step
from engines.w6.turns import to_act
from engines.w6.view import join_action, refresh_action, status_view, verbs_for

CONFIG_KEYS = ("gm", "settings", "roster", "base")
MAX_SEATS = 64
# What a player's view shows of an NPC (the GM's secret values are left out).
NPC_PUBLIC = (
    "id", "name", "owner", "conditions", "is_turn", "may_act", "fertig", "beritten",
    "out_of_fight",
)  # fmt: skip


def _digest(*parts: Any) -> str:
    text = repr(parts).encode()
    return hashlib.blake2b(text, digest_size=6).hexdigest()


def _position(state: CombatState, fighter_id: str) -> int:
    return state.order.index(fighter_id) if fighter_id in state.order else len(state.order)


def _seat(state: CombatState, fighter: Fighter) -> int:
    return seat_of_owner(state, fighter.owner)


def gm_commands(state: CombatState) -> int:
    """How many of the standing steps were the GM's commands (names the GM's decision)."""
    return sum(1 for entry in state.log if entry.action.split(" ", 1)[0] in GM_VERBS)


def reflex_fighters(state: CombatState) -> list[str]:
    """The fighters who may use their Reflex now without being asked (not among those to act)."""
    acting = to_act(state)
    return [
        f.id for f in state.fighters if f.id not in acting and "reflex" in verbs_for(state, f.id)
    ]


def lp_state(fighter: Fighter) -> str:
    """An NPC's LP in words for the players: unverletzt, verletzt, schwer (below the RLP),
    sterbend (below zero)."""
    if fighter.lp < 0:
        return "sterbend"
    if fighter.lp < fighter.rlp:
        return "schwer"
    return "unverletzt" if fighter.lp >= fighter.lp_max else "verletzt"


class W6Combat:
    name = "w6combat"
    version = STATE_VERSION
    min_players = 1
    max_players = MAX_SEATS
    # A combat waits for the table (the GM paces it), not for one player: the service's idle
    # reminders and forfeits leave it alone.
    idle_sweep = False

    # -- start -------------------------------------------------------------------------------

    def initial_state(self, config: Mapping[str, Any], seed: int, players: int) -> CombatState:
        """An empty combat; ``config``: ``gm`` (the GM's user id, default 0), ``settings``
        (Settings fields), ``roster`` (fighters as JSON the GM may bring in with a click),
        ``base`` (a stored combat's JSON text the log replays from, for a combat carried over
        from storage whose own log does not replay: see ``initial_of``).
        ``players`` is ignored: seats open as players' fighters join."""
        unknown = set(config) - set(CONFIG_KEYS)
        if unknown:
            raise BadInput("w6.combat.bad_config", option=sorted(unknown)[0])
        gm = config.get("gm", 0)
        if not isinstance(gm, int) or isinstance(gm, bool):
            raise BadInput("w6.combat.bad_config", option="gm")
        raw = config.get("settings", {})
        if not isinstance(raw, dict) or set(raw) - set(Settings.__dataclass_fields__):
            raise BadInput("w6.combat.bad_config", option="settings")
        settings: Settings = decode(Settings, encode(Settings()) | raw, "settings")
        roster_data = config.get("roster", [])
        if not isinstance(roster_data, list):
            raise BadInput("w6.combat.bad_config", option="roster")
        roster = tuple(decode(Fighter, item, "roster") for item in roster_data)
        fresh = new_combat(gm, seed, settings, roster)
        base = config.get("base", "")
        if not isinstance(base, str):
            raise BadInput("w6.combat.bad_config", option="base")
        if not base:
            return fresh
        try:
            return initial_of(replace(fresh, base=base))
        except ValueError:
            raise BadInput("w6.combat.bad_config", option="base") from None

    def seat_count(self, state: CombatState) -> int:
        """Seats now: the GM and one per player whose fighter joined."""
        return 1 + len(state.seats)

    # -- decisions ---------------------------------------------------------------------------

    def decisions(self, state: CombatState) -> tuple[Decision, ...]:
        if state.ended:
            return ()
        found: list[Decision] = []
        pending = state.pending
        acting = sorted(to_act(state), key=lambda i: _position(state, i))
        by_seat: dict[int, list[str]] = {}
        for fighter_id in acting:
            seat = _seat(state, state.fighter(fighter_id))
            if seat not in state.gone:
                by_seat.setdefault(seat, []).append(fighter_id)
            if seat != 0:
                by_seat.setdefault(0, []).append(fighter_id)
        kind = DecisionKind.CHOICE if pending is not None else DecisionKind.TURN
        stage = pending.stage if pending is not None else "turn"
        for seat in sorted(by_seat):
            fighters = tuple(by_seat[seat])
            answers = tuple(d for d in pending.targets if d.target in fighters) if pending else ()
            key = (
                kind.value,
                stage,
                pending.nr if pending else 0,
                state.phase,
                tuple(state.fighter(i) for i in fighters),
                answers,
            )
            found.append(
                Decision(
                    seat,
                    kind.value[0] + _digest(*key),
                    kind,
                    f"w6.decision.{stage}",
                    {"fighters": fighters},
                )
            )
        reflex: dict[int, list[str]] = {}
        for fighter_id in reflex_fighters(state):
            seat = _seat(state, state.fighter(fighter_id))
            if seat not in state.gone:
                reflex.setdefault(seat, []).append(fighter_id)
            if seat != 0:
                reflex.setdefault(0, []).append(fighter_id)
        for seat in sorted(reflex):
            fighters = tuple(reflex[seat])
            found.append(
                Decision(
                    seat,
                    "r" + _digest(state.phase, fighters),
                    DecisionKind.REACTION,
                    "w6.decision.reflex",
                    {"fighters": fighters},
                )
            )
        gm_kind = DecisionKind.TURN if state.phase < 1 else DecisionKind.REACTION
        found.append(Decision(0, f"g{gm_commands(state)}", gm_kind, "w6.decision.gm"))
        return tuple(found)

    # -- legal actions -----------------------------------------------------------------------

    def legal_actions(self, state: CombatState, player: PlayerId) -> Sequence[CombatAction]:
        if state.ended or player in state.gone or not 0 <= player <= len(state.seats):
            return []
        candidates: list[CombatAction] = []
        acting = to_act(state)
        for fighter in state.fighters:
            if player != 0 and _seat(state, fighter) != player:
                continue
            if fighter.id in acting:
                candidates += _fighter_candidates(state, fighter)
            elif "reflex" in verbs_for(state, fighter.id):
                candidates.append(make("reflex", fighter.id))
        if player == 0:
            candidates += _gm_candidates(state)
        legal: list[CombatAction] = []
        for action in dict.fromkeys(candidates):
            try:
                step(state, action, player)
            except EngineError:
                continue
            legal.append(action)
        return legal

    def apply(
        self, state: CombatState, action: CombatAction, player: PlayerId
    ) -> tuple[CombatState, list[Event]]:
        if player in state.gone:
            raise IllegalAction("w6.combat.no_such_seat", seat=player)
        return step(state, action, player)

    def eliminate(self, state: CombatState, player: PlayerId) -> tuple[CombatState, list[Event]]:
        """A player leaves: the GM runs their fighters from now on (seat 0 answers for them);
        the GM cannot leave (they end the combat)."""
        if player == 0:
            raise IllegalAction("w6.combat.gm_is_no_player")
        if not 1 <= player <= len(state.seats) or player in state.gone:
            raise IllegalAction("w6.combat.no_such_seat", seat=player)
        left = replace(state, gone=(*state.gone, player))
        return left, [Event("seat_left", {"seat": player})]

    # -- views -------------------------------------------------------------------------------

    def view_for(self, state: CombatState, player: PlayerId | None) -> JsonDict:
        """The GM (seat 0) sees everything; a player or spectator sees NPCs (fighters without
        an owner) by name, conditions and their LP in words, not their values."""
        view = status_view(state)
        view["seat"] = player
        view["seats"] = self.seat_count(state)
        if player == 0:
            return view
        npcs = {f.id: f for f in state.fighters if f.owner is None}
        view["fighters"] = [
            _npc_row(row, npcs[row["id"]]) if row["id"] in npcs else row for row in view["fighters"]
        ]
        return view

    def secrets_of(self, state: CombatState, player: PlayerId) -> set[str]:
        """For the GM: each NPC's values as the GM's view writes them (id through RLP)."""
        if player != 0:
            return set()
        tokens = set()
        for row in status_view(state)["fighters"]:
            if row["owner"] is None:
                text = json.dumps(row, ensure_ascii=False)
                tokens.add(text[1 : text.index(', "kw_left"')])
        return tokens

    def outcome(self, state: CombatState) -> Outcome | None:
        """None while the combat runs. Once the GM ended it: the seats with a fighter still
        standing (conscious) win when they are all on one side (players or the GM's NPCs;
        reason ``one_side_standing``), else nobody (``ended_by_gm``); the player seats
        without a fighter standing (or who left) are eliminated."""
        if not state.ended:
            return None
        standing = [f for f in state.fighters if f.conscious]
        seats = frozenset(_seat(state, f) for f in standing)
        sides = {f.owner is None for f in standing}
        one_side = len(sides) == 1
        out = tuple(
            seat
            for seat in range(1, len(state.seats) + 1)
            if seat not in seats or seat in state.gone
        )
        return Outcome(
            seats if one_side else frozenset(),
            "one_side_standing" if one_side else "ended_by_gm",
            eliminated=out,
        )

    # -- notation ----------------------------------------------------------------------------

    def parse_action(self, text: str) -> CombatAction:
        return parse_action(text)

    def action_text(self, action: CombatAction) -> str:
        return action.text()

    def action_path(self, action: CombatAction) -> tuple[str, ...]:
        """Who acts (``@fighter`` or ``gm``), the verb, the targets, each option, the joined
        fighters' JSON."""
        opts = tuple(key if value == "" else f"{key}={value}" for key, value in action.opts)
        payload = (action.payload,) if action.payload else ()
        who = f"@{action.fighter}" if action.fighter else "gm"
        return (who, action.verb, *action.targets, *opts, *payload)

    def state_to_json(self, state: CombatState) -> JsonDict:
        return state_to_json(state)

    def state_from_json(self, data: JsonDict) -> CombatState:
        return state_from_json(data)


def _npc_row(row: dict[str, Any], fighter: Fighter) -> dict[str, Any]:
    shown = {key: row[key] for key in NPC_PUBLIC}
    shown["lp_state"] = lp_state(fighter)
    shown["lp_bar"] = (
        max(0, min(10, round(10 * fighter.lp / fighter.lp_max))) if fighter.lp_max else 0
    )
    shown["blockade"] = fighter.blockade > 0
    shown["down"] = fighter.lp <= 0 or not fighter.conscious  # out of the fight, seen by all
    return shown


# ----------------------------------------------------------------------------- candidates


def _budget(fighter: Fighter, spent: int = 0) -> list[int]:
    """A few dice counts within the KW left (none, half, all)."""
    left = max(0, fighter.kw_left - spent)
    return sorted({0, left // 2, left})


def _with_probe(state: CombatState, action: CombatAction) -> CombatAction | None:
    """``action`` with an Erschwernisprobe of twice the needed successes in dice (what KW is
    left after the attack dice), or as it is when none is needed; None when it cannot be."""
    try:
        required = probe_required(state, action)
    except EngineError:
        return None
    if required <= 0:
        return action
    fighter = state.fighter(action.fighter)
    dice = max(0, min(fighter.kw_left - action.num("kw") - action.num("angriff"), 2 * required))
    return replace(action, opts=tuple(sorted((*action.opts, ("probe", str(dice))))))


def _attack_candidates(state: CombatState, fighter: Fighter, verb: str) -> list[CombatAction]:
    others = [f.id for f in state.fighters if f.id != fighter.id]
    half = fighter.kw_left // 2
    found: list[CombatAction | None] = []
    melee = [w.name for w in usable_weapons(fighter) if not w.fernkampf]
    varied = {others[0], others[-1]} if others else set()  # the variants for two targets
    for target in others:
        if verb == "angriff":
            found += [
                _with_probe(state, make(verb, fighter.id, (target,), kw=kw))
                for kw in _budget(fighter)
            ]
            found.append(_with_probe(state, make(verb, fighter.id, (target,))))  # dice later
            variants: list[dict[str, Any]] = [
                {"zone": "Kopf"}, {"zone": "Arme"}, {"erschwert": 1}, {"serie": True},
                {"zweihaendig": True},
            ]  # fmt: skip
            variants += [{"waffe": name} for name in melee[1:]]
            variants = variants if target in varied else []
            found += [
                _with_probe(state, make(verb, fighter.id, (target,), kw=half // 2, **opts))
                for opts in variants
            ]
        elif verb == "fern":
            for dist in (1, 8):
                found += [
                    _with_probe(state, make(verb, fighter.id, (target,), kw=kw, dist=dist))
                    for kw in (half // 2, half)
                ]
        elif verb == "finte":
            found.append(
                _with_probe(
                    state, make(verb, fighter.id, (target,), kw=half // 2, angriff=half // 2)
                )
            )
    if verb == "rundum":
        for count in (1, 2):
            if len(others) >= count:
                found.append(
                    _with_probe(state, make(verb, fighter.id, tuple(others[:count]), kw=half // 2))
                )
                found.append(_with_probe(state, make(verb, fighter.id, tuple(others[-count:]))))
    if verb == "beidhaendig":
        for chosen in ([others[0]] if others else [], others[:2] if len(others) > 1 else []):
            if chosen:
                found.append(
                    _with_probe(state, make(verb, fighter.id, tuple(chosen), kw=half // 2))
                )
    return [action for action in found if action is not None]


def _fighter_candidates(state: CombatState, fighter: Fighter) -> list[CombatAction]:
    """Representative actions of a fighter who is asked or whose turn it is."""
    found: list[CombatAction] = []
    fid = fighter.id
    for verb in verbs_for(state, fid):
        if verb in ("ansage", "rundum_weiter"):
            found += [make(verb, fid, kw=kw) for kw in _budget(fighter)]
        elif verb == "abwehr":
            found += [make(verb, fid, kw=kw) for kw in _budget(fighter)]
            found += [make(verb, fid, keine=True), make(verb, fid, reflex=True)]
        elif verb in ("angriff", "fern", "finte", "rundum", "beidhaendig"):
            found += _attack_candidates(state, fighter, verb)
        elif verb in ("ausrichten", "zauber", "probe"):
            found += [make(verb, fid, kw=kw) for kw in _budget(fighter)]
        elif verb == "durchbrechen":
            for other in state.fighters:
                if other.ausrichten > 0 and other.id != fid:
                    found.append(make(verb, fid, (other.id,), kw=fighter.kw_left))
                    found.append(make(verb, fid, (other.id,), kw=fighter.kw_left, nur_beenden=True))
        elif verb == "blockade":
            blockade = _with_probe(state, make(verb, fid, kw=fighter.kw_left // 3))
            if blockade is not None:
                found.append(blockade)
        else:
            found.append(make(verb, fid))
    return found


def _gm_candidates(state: CombatState) -> list[CombatAction]:
    """The GM's commands with a few values each."""
    found = [make("beginnen"), make("phase"), make("ende"), make("wuerfel", "", ("6", "6"))]
    found.append(make("wuerfel", "", ("1", "1", "1")))
    for fighter in state.fighters:
        fid = (fighter.id,)
        found.append(make("setze", "", fid, lp=fighter.lp - 5))
        found.append(make("setze", "", fid, lp=fighter.lp_max, handlungen=0))
        for condition in (CONDITIONS[0], "liegend"):
            sign = "-" if fighter.has(condition) else "+"
            found.append(make("zustand", "", (fighter.id, sign + condition)))
        found.append(make("entfernen", "", fid))
        found.append(make("reparieren", "", fid))
    for toggle in OPTIONAL_RULES:
        found.append(
            make("regel", "", (), **{toggle: "aus" if getattr(state.settings, toggle) else "an"})
        )
    found += [make("regel", fernkampf_abwehr=mode) for mode in RANGED_DEFENCE]
    joined = {f.id for f in state.fighters}
    for fighter in state.roster:
        if fighter.id in joined:
            found.append(refresh_action(fighter))
        else:
            found.append(join_action(fighter))
    return found


register(W6Combat())
