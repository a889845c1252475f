"""The turn: drawing, the Einstiegsphase's level cards, the Versorgungsphase (round effects
end, effects over time, InAktion reset, the SVO), the end of a turn (wounds counted, heroes
at 0 LP fall, the limits) and the next mover."""

from __future__ import annotations

from dataclasses import replace

from engines.core import Event
from engines.telperinquar.damage import deal, heal_target, kill, wounded_event
from engines.telperinquar.events import EventType as E
from engines.telperinquar.state import Board, Combat, OverTime, Phase, Work, is_hero, seats
from engines.telperinquar.stats import best, card_of, mover, side, target_alive


def sides_left(d: Board) -> int:
    return len({side(d, s) for s, p in enumerate(seats(d)) if not p.out})


def draw(w: Work, seat: int, events: list[Event] | None = None) -> None:
    p = w.players[seat]
    if p.deck:  # no deck-out loss: an empty pile is skipped
        p.hand.append(p.deck.pop(0))
        if events is not None:
            events.append(Event(E.DREW, {"player": seat}))


def level_cards(d: Board, seat: int) -> list[str]:
    p = d.players[seat]
    return [cid for cid in p.hand if d.cards[cid].level and p.levels[d.cards[cid].level] < 10]


def start_turn(w: Work, first_turn: bool = False, events: list[Event] | None = None) -> None:
    seat = mover(w)
    if not first_turn:
        draw(w, seat, events)  # told like the draw at the end of a turn
    # the old pool lapses with the new turn: the Einstiegsphase shows the refreshed one (a
    # level card laid now raises it once more when the phase ends, in supply)
    w.players[seat].actions = best(w, seat, "actions")
    w.phase = Phase.ENTRY
    w.flew = False
    w.level_done = False
    w.combat = Combat.NONE
    if not level_cards(w, seat):
        supply(w, events)


def supply(w: Work, events: list[Event] | None = None) -> None:
    """Versorgungsphase: round effects end, long-term effects one by one, InAktion reset,
    the tournament SVO; then the Hauptphase."""
    seat = mover(w)
    p = w.players[seat]
    # The Einstiegsphase ends here: a level card is laid before "der Aktionspool wird
    # aufgefrischt", so the pool holds the new level's Aktionen (RULES.md, "Phases").
    p.actions = best(w, seat, "actions")  # old actions lapse
    p.mods = [m for m in p.mods if m.until not in ("round", "attack")]
    kept = []
    for effect in p.ot:
        resolve_over_time(w, effect, events)
        if effect.left - 1 > 0:
            kept.append(replace(effect, left=effect.left - 1))
    p.ot = kept
    for cid in [*p.equip, *p.field, *p.row]:
        if w.cards[cid].inaktion:
            w.cards[cid] = replace(w.cards[cid], inaktion=False)
    if w.svo_on:
        damage = w.roll(20)
        p.life -= damage
        if events is not None:
            events.append(Event(E.SVO, {"player": seat, "damage": damage}))
    w.phase = Phase.MAIN


def resolve_over_time(w: Work, effect: OverTime, events: list[Event] | None) -> None:
    target = effect.target
    if not is_hero(target) and target not in w.cards:
        return
    if not target_alive(w, target):
        return
    if effect.effect == "damage":
        deal(w, target, effect.amount, "simple", effect.source, events)
    else:
        heal_target(w, target, effect.amount, "magical", False, events)


def end_turn(w: Work, events: list[Event]) -> None:
    # Wesen: damage counted per turn; more than half → wounded (again: dies)
    for p in w.players:
        for cid in list(p.row):
            card = card_of(w, cid)
            if card.type != "wesen":
                continue
            info = w.cards[cid]
            dmg = info.dmg or 0
            w.cards[cid] = info = replace(info, dmg=None)
            if dmg * 2 > card.life:
                if info.wounded:  # wounded before (or by a critical hit this turn)
                    kill(w, cid, events, why="wounded_twice")
                    continue
                w.cards[cid] = info = replace(info, wounded=True)
                events.append(wounded_event(w, cid, "half"))
            w.cards[cid] = replace(info, free=0, attacked=False)
        p.mods = [m for m in p.mods if m.until != "turn"]
    seat = mover(w)
    draw(w, seat, events)
    # a hero at 0 LP or less loses at the end of the turn (glossary "Lebenspunkte")
    for s, p in enumerate(w.players):
        if not p.out and p.life <= 0:
            knock_out(w, s, events)
    if sides_left(w) <= 1:
        w.over = True
        return
    if w.turn_limit and w.turns >= w.turn_limit:
        w.over = True
        w.limit_hit = "turn_limit"
        return
    next_mover(w)
    if w.round_limit and w.round > w.round_limit:
        w.over = True  # the last round of the limit is played out
        w.limit_hit = "round_limit"
        return
    if w.svo and not w.svo_on and all(min(p.levels.values()) >= 10 for p in w.players if not p.out):
        w.svo_on = True
    w.turns += 1
    start_turn(w, events=events)


def next_mover(w: Work) -> None:
    for _ in range(len(w.order)):
        w.cur = (w.cur + 1) % len(w.order)
        if w.cur == 0:
            w.round += 1
        if not w.players[mover(w)].out:
            return


def knock_out(w: Work, seat: int, events: list[Event]) -> None:
    w.players[seat].out = True
    events.append(Event(E.HERO_FELL, {"player": seat}))
