"""The steps of a duel: what a seat may do now (the Wiederholungsregel included), applying a
step (the Auswahl, the draft, the essences, a glyph, the end of a turn, blood magic, an answer
inside the spell phase), the open decisions, the outcome and a seat that leaves."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Any

from engines.core.contract import Decision, DecisionKind, Event, Outcome, PlayerId
from engines.core.errors import IllegalAction
from engines.felsenfeuer import verbs
from engines.felsenfeuer.actions import (
    Action,
    Auswahl,
    Blut,
    Draft,
    Ende,
    Essenz,
    Lege,
    Schwebe,
    Wahl,
    Wuerfle,
    action_text,
)
from engines.felsenfeuer.codes import (
    HAND_SIZE,
    VORSTEHER,
    auswahl_counts,
    current_setup_seat,
    roll_seat,
)
from engines.felsenfeuer.events import EventType
from engines.felsenfeuer.model import COLOURS, Die, Entry, EntryKind, Phase, State, Zone
from engines.felsenfeuer.resolution import check_end, knock_out, settle, start_spell_phase
from engines.felsenfeuer.spells import Spell, book_for
from engines.felsenfeuer.work import Work

_LAST_SITUATION: tuple[State | None, str] = (None, "")  # a state is asked twice per step


def situation(state: State) -> str:
    """The hash of everything relevant to play (the Wiederholungsregel's "identical"): not
    the counters, the RNG or the record of earlier situations; between spell phases not the
    last Spruchrune either (it plays no part until the next trigger). The last state's hash
    is remembered (a step asks for it when it checks the action and when it records it)."""
    global _LAST_SITUATION
    last, known = _LAST_SITUATION
    if last is state:
        return known
    found = _situation(state)
    _LAST_SITUATION = (state, found)
    return found


def _situation(state: State) -> str:
    tops = {d.shrine_of for d in state.dice if d.shrine_of >= 0}
    if state.stack:  # while spells run, dice are named by id (bindings, offers, effects)
        dice: Any = state.dice
    else:  # between spell phases two dice of one owner and colour are interchangeable
        dice = sorted((d.owner, d.colour, d.zone, d.matrix, d.pips, d.hand, d.glyph, d.frozen,
                       d.shrine_of >= 0, d.id in tops) for d in state.dice)  # fmt: skip
    key = (
        state.phase, dice, state.markers, state.cauldrons, state.matrices, state.stone,
        state.passes, state.laid, state.spell_rune if state.stack else -1, state.place,
        state.no_place, state.stack,
        state.out, state.winners, state.auswahl,
    )  # fmt: skip
    return hashlib.blake2b(repr(key).encode(), digest_size=8).hexdigest()


def _hand_colours(state: State, seat: int, hand: int) -> list[str]:
    have = {d.colour for d in state.dice if d.owner == seat and d.zone == "hand" and d.hand == hand}
    return [c for c in COLOURS if c in have]


def _matrices_of(state: State, seat: int) -> list[int]:
    return sorted({d.matrix for d in state.dice
                   if d.owner == seat and d.zone in ("matrix", "essence")})  # fmt: skip


def raw_actions(state: State, player: PlayerId) -> list[Action]:
    if state.phase == "end" or player in state.out:
        return []
    if state.pending is not None:
        if player != state.pending.seat:
            return []
        return [Wahl(o) for o in state.pending.options]
    if state.phase == "auswahl":
        if state.auswahl[player]:
            return []
        return [Auswahl(c) for c in auswahl_counts(state)]
    seat = current_setup_seat(state)
    if state.phase == "draft":
        if player != seat:
            return []
        taken = {c: 0 for c in COLOURS}
        for d in state.dice:
            taken[d.colour] += 1
        return [Draft(c) for i, c in enumerate(COLOURS)
                if taken[c] < state.settings.supply[i]]  # fmt: skip
    if state.phase == "essence":
        if player != seat:
            return []
        picked = [d for d in state.dice if d.owner == player and d.zone == "picked"]
        have = {d.colour for d in picked}
        options: list[Action] = [Essenz(c) for c in COLOURS if c in have]
        chosen = sum(1 for d in state.dice if d.owner == player and d.zone == "essence")
        if state.settings.weltentor and len(picked) > 2 - chosen:  # Weltentor rule 3
            options += [Schwebe(c, p) for c in COLOURS if c in have
                        for p in range(1, 7)]  # fmt: skip
        return options
    if state.phase == "roll":
        if player != roll_seat(state):
            return []
        return [Wuerfle(c) for c in _hand_colours(state, player, 0)]
    if state.phase != "action" or state.stack or player != state.stone:
        return []
    acts: list[Action] = []
    matrices = _matrices_of(state, player)
    for hand in (0, 1):
        for colour in _hand_colours(state, player, hand):
            for pips in range(1, 7):
                for m in matrices:
                    acts.append(Lege(colour, pips, m, hand))
    acts.append(Ende())
    if state.settings.rules == "magister":
        base: Work | None = None
        paid = dict.fromkeys(COLOURS, 0)  # the essence points of each colour
        for d in state.dice:
            if d.owner == player and d.zone == "essence":
                paid[d.colour] += d.pips
        for spell in book_for(state.settings.spells).values():
            if not spell.blood:
                continue
            if paid.get(spell.colour, 0) < spell.pips:
                continue
            base = base or Work(state)
            if _blood_would_act(base, spell, player):
                acts.append(Blut(spell.slug))
    return acts


def _blood_would_act(base: Work, spell: Spell, player: int) -> bool:
    """Whether the blood spell, once paid for, would do anything (else it is not offered:
    paying essence for a spell whose every sentence lapses helps nobody)."""
    if not spell.reads_essences:
        return verbs.could_act(base, spell, player)
    w = base.copy()
    for _ in range(spell.pips):  # pay as the blood entry does, from the first essence offered
        die = next(d for d in w.dice if d.owner == player and d.zone == "essence"
                   and d.colour == spell.colour and d.pips > 0)  # fmt: skip
        w.set(
            replace(die, pips=die.pips - 1)
            if die.pips > 1
            else replace(die, zone=Zone.BAG, matrix=-1, pips=0)
        )
    return verbs.could_act(w, spell, player)


_LAST_LEGAL: tuple[State | None, int, tuple[Action, ...]] = (None, -1, ())


def legal(state: State, player: PlayerId) -> list[Action]:
    """The seat's legal actions. The last answer is remembered: a bot asks before it chooses
    and ``play`` asks again for the same state (states are frozen, so the answer holds)."""
    global _LAST_LEGAL
    last, seat, known = _LAST_LEGAL
    if last is state and seat == player:
        return list(known)
    acts = _legal(state, player)
    _LAST_LEGAL = (state, player, tuple(acts))
    return acts


def _legal(state: State, player: PlayerId) -> list[Action]:
    acts = raw_actions(state, player)
    if len(acts) > 1 and state.phase in ("action", "spell") and state.seen:
        last = dict(state.seen).get(situation(state))
        if last is not None:  # Wiederholungsregel: not the same decision again
            kept = [a for a in acts if action_text(a) != last]
            acts = kept or acts
    return acts


def play(state: State, act: Action, player: PlayerId) -> tuple[State, list[Event]]:
    if state.phase == "end":
        raise IllegalAction("felsenfeuer.error.game_over")
    if act not in legal(state, player):
        raise IllegalAction(_why(state, act, player))
    w = Work(state)
    seen = state.seen
    if state.phase in ("action", "spell"):
        key = situation(state)
        text = action_text(act)
        seen = (*tuple((k, v) for k, v in state.seen if k != key), (key, text))
    if isinstance(act, Wahl):
        top = w.stack[-1]
        w.stack[-1] = replace(top, answers=(*top.answers, act.token))
        w.pending = None
        token = act.token
        prompt = state.pending.prompt if state.pending is not None else ""
        if token[:1] == "d" and token[1:].isdigit() and int(token[1:]) < len(w.dice):
            die = w.dice[int(token[1:])]  # as it lies when chosen (the spell may change it)
            w.emit(EventType.CHOSE, player=player, token=token, pips=w.pips_of(die) or None,
                   zone=die.zone, matrix=die.matrix, glyph=die.glyph, prompt=prompt)  # fmt: skip
        else:
            w.emit(EventType.CHOSE, player=player, token=token, prompt=prompt)
    elif isinstance(act, Auswahl):
        chosen = list(state.auswahl)
        chosen[player] = act.code
        w.emit(EventType.AUSWAHL_CHOSEN, player=player)
        if all(chosen[x] for x in range(w.players) if w.alive(x)):
            _reveal(w, chosen)
            chosen = [""] * len(chosen)
        return _frozen(w, seen, auswahl=tuple(chosen)), w.events
    elif isinstance(act, Draft):
        w.dice.append(Die(len(w.dice), player, act.colour))
        w.emit(EventType.DRAFTED, player=player, colour=act.colour)
        alive = [x for x in range(w.players) if w.alive(x)]
        if len(w.dice) >= HAND_SIZE * len(alive) and all(
            sum(1 for d in w.dice if d.owner == x) >= HAND_SIZE for x in alive
        ):
            w.phase = Phase.ESSENCE
        return _frozen(w, seen), w.events
    elif isinstance(act, Essenz):
        die = next(d for d in w.dice if d.owner == player and d.zone == "picked"
                   and d.colour == act.colour)  # fmt: skip
        s = state.settings
        pips = 4 if s.mode == "gilde" and player not in VORSTEHER.values() else 6
        w.set(replace(die, zone=Zone.ESSENCE, matrix=0, pips=pips))
        w.emit(EventType.ESSENCE_CHOSEN, player=player, colour=act.colour, pips=pips)
        _maybe_start(w)
        return _frozen(w, seen), w.events
    elif isinstance(act, Schwebe):  # a floating rune over the start surface (Weltentor)
        die = next(d for d in w.dice if d.owner == player and d.zone == "picked"
                   and d.colour == act.colour)  # fmt: skip
        w.set(replace(die, zone=Zone.FLOAT, matrix=0, pips=act.pips))
        w.emit(EventType.FLOATED, player=player, die=die.id, colour=die.colour, pips=act.pips)
        return _frozen(w, seen), w.events
    elif isinstance(act, Wuerfle):  # Teil 3 scenario: a hand rune rolled onto the start surface
        die = next(d for d in w.dice if d.owner == player and d.zone == "hand"
                   and d.colour == act.colour)  # fmt: skip
        pips, rng = state.rng.randint(1, 6)
        glyph = state.settings.roll == "glyphen"
        w.set(replace(die, zone=Zone.MATRIX, matrix=0, pips=pips, glyph=glyph, hand=0))
        w.emit(
            EventType.ROLLED, player=player, die=die.id, colour=die.colour, pips=pips, glyph=glyph
        )
        if roll_seat(w.freeze()) < 0:
            _maybe_start(w)
        return _frozen(w, seen, rng=rng), w.events
    elif isinstance(act, Lege):
        colour, pips, matrix, hand = act.colour, act.pips, act.matrix, act.hand
        die = next(d for d in w.dice if d.owner == player and d.zone == "hand"
                   and d.hand == hand and d.colour == colour)  # fmt: skip
        w.set(replace(die, zone=Zone.MATRIX, matrix=matrix, pips=pips, glyph=True, hand=0))
        w.laid = True
        w.emit(EventType.LAID, player=player, die=die.id, colour=colour, pips=pips, matrix=matrix)
    elif isinstance(act, Ende):
        w.passes = 0 if w.laid else w.passes + 1
        w.emit(EventType.TURN_ENDED, player=player, passed=not w.laid)
        w.laid = False
        if w.passes >= len([x for x in range(w.players) if w.alive(x)]):
            start_spell_phase(w)
        else:
            w.stone = w.next_seat(player)
    elif isinstance(act, Blut):
        w.stack = [Entry(EntryKind.NEXT), Entry(EntryKind.BLOOD, spell=act.spell, caster=player)]
    w = settle(w)
    return _frozen(w, seen), w.events


def _maybe_start(w: Work) -> None:
    """Once every seat in the duel has two essences, the rest of the Auswahl goes to hand."""
    alive = [x for x in range(w.players) if w.alive(x)]
    if w.phase == "end" or any(
        sum(1 for d in w.dice if d.owner == x and d.zone == "essence") < 2 for x in alive
    ):
        return
    for d in list(w.dice):
        if d.zone == "picked":
            w.set(replace(d, zone=Zone.HAND, hand=0))
    if w.base.settings.roll and w.phase != "roll":
        w.phase = Phase.ROLL  # first three hand runes each are rolled onto the start surface
        if roll_seat(w.freeze()) >= 0:
            return
    w.phase = Phase.ACTION
    w.stone = w.base.settings.start
    if not w.alive(w.stone):
        w.stone = w.next_seat(w.stone)
    w.emit(EventType.DUEL_STARTED, player=w.stone)


def _frozen(w: Work, seen: tuple[tuple[str, str], ...], **more: Any) -> State:
    state = w.freeze()
    return replace(state, seen=seen, serial=state.serial + 1, **more)


def _reveal(w: Work, chosen: list[str]) -> None:
    for seat, code in enumerate(chosen):
        if not code or seat in w.out:
            continue
        for colour, count in zip(COLOURS, code.split("-"), strict=True):
            for _ in range(int(count)):
                w.dice.append(Die(len(w.dice), seat, colour))
    w.phase = Phase.ESSENCE
    w.emit(EventType.AUSWAHL_SHOWN, auswahl=chosen)


def _why(state: State, act: Action, player: PlayerId) -> str:
    if player in state.out:
        return "felsenfeuer.error.out"
    legal = raw_actions(state, player)
    if not legal:
        return "felsenfeuer.error.not_your_turn"
    if act in legal:
        return "felsenfeuer.error.repetition"
    if type(act) not in {type(one) for one in legal}:  # a step of another phase: say which
        return f"felsenfeuer.error.illegal.{state.phase.value}"
    return "felsenfeuer.error.illegal"


def decisions_of(state: State) -> tuple[Decision, ...]:
    if state.phase == "end":
        return ()
    if state.pending is not None:
        p = state.pending
        return (Decision(p.seat, f"c{state.serial}", DecisionKind.CHOICE, p.prompt,
                         dict(p.params)),)  # fmt: skip
    if state.phase == "auswahl":
        return tuple(Decision(s, f"auswahl{s}", DecisionKind.SEALED, "felsenfeuer.ask.auswahl")
                     for s in range(state.settings.players)
                     if not state.auswahl[s] and s not in state.out)  # fmt: skip
    if state.phase == "roll":
        return (Decision(roll_seat(state), f"s{state.serial}", DecisionKind.TURN,
                         "felsenfeuer.ask.roll"),)  # fmt: skip
    if state.phase in ("draft", "essence"):
        seat = current_setup_seat(state)
        prompt = "felsenfeuer.ask.draft" if state.phase == "draft" else "felsenfeuer.ask.essence"
        return (Decision(seat, f"s{state.serial}", DecisionKind.TURN, prompt),)
    if state.phase == "action" and not state.stack:
        return (Decision(state.stone, f"t{state.serial}", DecisionKind.TURN,
                         "felsenfeuer.ask.turn"),)  # fmt: skip
    return ()


def outcome_of(state: State) -> Outcome | None:
    if state.phase != "end":
        return None
    winners = frozenset(state.winners)
    places: list[frozenset[int]] = [winners] if winners else []
    alive = frozenset(s for s in range(state.settings.players)
                      if s not in state.out and s not in winners)  # fmt: skip
    if alive:
        places.append(alive)
    places += [frozenset({s}) for s in reversed(state.out) if s not in winners]
    return Outcome(winners, state.result, tuple(places), tuple(state.out))


def eliminate_seat(state: State, player: PlayerId) -> tuple[State, list[Event]]:
    w = Work(state)
    if state.phase in ("auswahl", "draft", "essence", "roll"):
        w.out.append(player)
        for die in list(w.dice):
            if die.owner == player:
                w.set(replace(die, zone=Zone.OUT))
        w.emit(EventType.ELIMINATED, player=player, reason="left")
        check_end(w)
        if state.phase == "auswahl":
            chosen = list(state.auswahl)
            chosen[player] = ""
            if any(chosen) and all(chosen[x] for x in range(w.players) if w.alive(x)):
                _reveal(w, chosen)
                chosen = [""] * len(chosen)
            return _frozen(w, state.seen, auswahl=tuple(chosen)), w.events
        if state.phase == "essence" or (state.phase == "roll" and roll_seat(w.freeze()) < 0):
            _maybe_start(w)
        elif state.phase == "draft" and all(sum(1 for d in w.dice if d.owner == x) >= HAND_SIZE
                 for x in range(w.players) if w.alive(x)):  # fmt: skip
            w.phase = Phase.ESSENCE
        return _frozen(w, state.seen), w.events
    w.pending = None
    if w.stack:
        w.stack[-1] = replace(w.stack[-1], answers=())
    knock_out(w, [player], "left")
    if w.phase == "action" and not w.stack and w.stone == player:
        w.stone = w.next_seat(player)
    w = settle(w)
    return _frozen(w, state.seen), w.events
