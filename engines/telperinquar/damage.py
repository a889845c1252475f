"""Damage and healing of heroes and Wesen: armour and resistance, immunity, double damage,
Schattenhaftigkeit, wounds, critical hits and a Wesen's death (what it carries goes with it)."""

from __future__ import annotations

from dataclasses import replace

from engines.core import Event
from engines.telperinquar.events import EventType as E
from engines.telperinquar.state import Board, Work, hero_seat, is_hero
from engines.telperinquar.stats import (
    armour,
    borne,
    card_keywords,
    card_of,
    max_life,
    resistance,
    wesen_stat,
)


def reduction(d: Board, target: str, kind: str) -> int:
    if kind == "simple":
        return 0
    if is_hero(target):
        seat = hero_seat(target)
        return armour(d, seat) if kind in ("physical", "natural") else resistance(d, seat)
    key = "armour" if kind in ("physical", "natural") else "resistance"
    return wesen_stat(d, target, key)


def kill(w: Work, cid: str, events: list[Event] | None, why: str = "") -> None:
    owner = w.cards[cid].owner
    p = w.players[owner]
    if cid not in p.row:
        return
    p.row.remove(cid)  # gaps close at once
    p.discard.append(cid)
    for gear in borne(w, cid):  # what a Wesen carries goes to the discard pile with it
        p.equip.remove(gear)
        p.discard.append(gear)
        w.cards[gear] = replace(w.cards[gear], bearer="", inaktion=False, charges=None)
    w.cards[cid] = replace(
        w.cards[cid],
        wounded=False,
        dmg=None,
        hidden=False,
        free=0,
        attacked=False,
        inaktion=False,
    )
    if events is not None:
        died = {"player": owner, "card": card_of(w, cid).name}
        events.append(Event(E.WESEN_DIED, {**died, "why": why} if why else died))


def deal(
    w: Work,
    target: str,
    amount: int,
    kind: str,
    source: str,
    events: list[Event] | None,
    *,
    critical: bool = False,
) -> int:
    """Damage after armour/resistance (a critical hit ignores a hero's), immunity, double
    damage and Schattenhaftigkeit. Returns the damage taken."""
    if is_hero(target):
        seat = hero_seat(target)
        taken = max(0, amount if critical else amount - reduction(w, target, kind))
        w.players[seat].life -= taken
        if events is not None:
            events.append(Event(E.DAMAGE, {"target": target, "amount": taken}))
        return taken
    card = card_of(w, target)
    if source and source in card.immune:
        taken = 0
    else:
        taken = max(0, amount - reduction(w, target, kind))
        if source and source in card.double:
            taken *= 2
        for keyword in card_keywords(card):
            taken = keyword.damage_taken(taken, w.roll)
    info = w.cards[target]
    info = w.cards[target] = replace(info, dmg=(info.dmg or 0) + taken)
    if events is not None:
        events.append(Event(E.DAMAGE, {"target": target, "amount": taken}))
    if (info.dmg or 0) >= card.life:
        kill(w, target, events)
    return taken


def crit_wesen(w: Work, target: str, events: list[Event] | None) -> bool:
    """A critical hit on a Wesen: wounded at once, or dies at once when wounded. True when
    it died."""
    info = w.cards[target]
    if info.wounded:
        kill(w, target, events, why="critical")
        return True
    w.cards[target] = replace(info, wounded=True)
    if events is not None:
        events.append(wounded_event(w, target, "critical"))
    return False


def wounded_event(d: Board, cid: str, why: str) -> Event:
    """A Wesen is verletzt now (a critical hit) or at the end of the turn (over half)."""
    owner = d.cards[cid].owner
    return Event(E.WESEN_WOUNDED, {"player": owner, "card": card_of(d, cid).name, "why": why})


def heal_target(
    w: Work, target: str, amount: int, kind: str, critical: bool, events: list[Event] | None
) -> None:
    if is_hero(target):
        seat = hero_seat(target)
        p = w.players[seat]
        before = p.life
        p.life = min(max_life(w, seat), p.life + max(0, amount))
        if events is not None:
            events.append(Event(E.HEALED, {"target": target, "amount": p.life - before}))
        return
    card = card_of(w, target)
    healed = max(0, amount - reduction(w, target, kind))
    info = w.cards[target]
    info = replace(info, dmg=max(0, (info.dmg or 0) - healed))
    if critical or healed * 2 > card.life:
        info = replace(info, wounded=False)
    w.cards[target] = info
    if events is not None:
        events.append(Event(E.HEALED, {"target": target, "amount": healed}))
