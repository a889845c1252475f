"""The mover's own steps in its turn: a level card, laying a card (face down), equipment
put on, moved or taken back, swapping places, flying."""

from __future__ import annotations

from dataclasses import replace

from engines.core import Event
from engines.telperinquar.events import EventType as E
from engines.telperinquar.flow import supply
from engines.telperinquar.resolve import fresh_id, lay_on_stack
from engines.telperinquar.state import Combat, Work, is_hero
from engines.telperinquar.stats import EQUIPMENT, card_of, level_row, max_life


def _close_combat(w: Work) -> None:
    if w.combat == Combat.OPEN:  # a step outside the Kampfphase ends it
        w.combat = Combat.CLOSED


def level(w: Work, seat: int, cid: str, events: list[Event]) -> None:
    p = w.players[seat]
    cls = w.cards[cid].level
    p.hand.remove(cid)
    # "zu den anderen Stufenkarten gelegt": beside the hero, not on the discard pile
    p.laid.append(cid)
    before = max(p.levels.values())
    p.levels[cls] += 1
    new = p.levels[cls]
    if new > before:  # double class: life once per level
        p.life += level_row(cls, new).life
        p.life = min(p.life, max_life(w, seat))
    events.append(Event(E.LEVEL_UP, {"player": seat, "class": cls, "level": new}))
    supply(w, events)


def play(w: Work, seat: int, cid: str, hidden: bool, events: list[Event]) -> None:
    p = w.players[seat]
    card = card_of(w, cid)
    p.actions -= card.play
    p.hand.remove(cid)
    info = w.cards[cid]
    if card.charges and info.charges is None:
        info = replace(info, charges=card.charges)
    if card.type in EQUIPMENT:
        p.equip.append(cid)
    elif card.type in ("wesen", "trap"):
        p.row.append(cid)
        if hidden:
            info = replace(info, hidden=True)
    else:
        p.field.append(cid)
    w.cards[cid] = info
    _close_combat(w)
    shown = {"player": seat, "card": cid}
    if not hidden:
        shown["name"] = card.name
    events.append(Event(E.PLAYED, shown))
    lay_on_stack(w, seat, ["hide" if hidden else "play", cid])


def attach(w: Work, seat: int, verb: str, cid: str, bearer: str, events: list[Event]) -> None:
    """Put equipment on a bearer: ``arm`` from the hand onto a Wesen, ``move`` from its
    bearer to another; either way the play cost is paid (again)."""
    p = w.players[seat]
    card = card_of(w, cid)
    p.actions -= card.play
    info = w.cards[cid]
    if verb == "arm":
        p.hand.remove(cid)
        p.equip.append(cid)
        if card.charges and info.charges is None:
            info = replace(info, charges=card.charges)
    w.cards[cid] = replace(info, bearer="" if is_hero(bearer) else bearer)
    _close_combat(w)
    events.append(Event(E.EQUIPPED, {"player": seat, "card": card.name, "bearer": bearer}))
    lay_on_stack(w, seat, [verb, cid, bearer])


def take(w: Work, seat: int, cid: str, events: list[Event]) -> None:
    p = w.players[seat]
    p.equip.remove(cid)
    # back in the hand the card is secret again: it gets a new id (charges kept)
    info = w.cards.pop(cid)
    w.retired.append(cid)  # never handed out again
    fresh = fresh_id(w)
    w.cards[fresh] = replace(info, inaktion=False, bearer="")
    p.hand.append(fresh)
    events.append(Event(E.TOOK_BACK, {"player": seat, "card": info.name}))


def swap(w: Work, seat: int, i: int, j: int) -> None:
    row = w.players[seat].row
    row[i], row[j] = row[j], row[i]


def fly(w: Work, seat: int, i: int, j: int, events: list[Event]) -> None:
    swap(w, seat, i, j)
    w.flew = True
    _close_combat(w)  # before or after the Kampfphase, never inside it
    events.append(Event(E.FLEW, {"player": seat, "places": [i, j]}))
