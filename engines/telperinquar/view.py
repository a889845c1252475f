"""What a seat may see (``view_for``): every hero's values and piles counted, the cards in
play (a hidden one only to its owner), its own hand with why a card cannot be played."""

from __future__ import annotations

from engines.core.contract import JsonDict
from engines.telperinquar.offers import why_not
from engines.telperinquar.state import TqState
from engines.telperinquar.stats import armour, card_name, card_of, max_life, mover, resistance


def _shown(d: TqState, cid: str, owner: int, player: int | None) -> JsonDict:
    info = d.cards[cid]
    if info.hidden and owner != player:
        return {"id": cid, "hidden": True}
    card = card_of(d, cid)
    out: JsonDict = {"id": cid, "name": card.name, "type": card.type}
    if info.charges is not None:
        out["charges"] = info.charges
    if info.inaktion:
        out["inaktion"] = True
    if info.wounded:
        out["wounded"] = True
    if info.dmg is not None:
        out["dmg"] = info.dmg
    if info.hidden:
        out["hidden"] = True
    if info.bearer:
        out["bearer"] = info.bearer
    return out


def view(d: TqState, player: int | None) -> JsonDict:
    seats = []
    for s, p in enumerate(d.players):
        seat: JsonDict = {
            "classes": list(p.classes),
            "levels": dict(p.levels),
            "life": p.life,
            "max_life": max_life(d, s),
            "actions": p.actions,
            "armour": armour(d, s),
            "resistance": resistance(d, s),
            "hand_count": len(p.hand),
            "deck_count": len(p.deck),
            "discard": [card_name(d, c) for c in p.discard],
            "equip": [_shown(d, c, s, player) for c in p.equip],
            "field": [_shown(d, c, s, player) for c in p.field],
            "row": [_shown(d, c, s, player) for c in p.row],
            "out": p.out,
            "team": d.teams[s],
        }
        if s == player:
            hand = []
            for cid in p.hand:
                shown: JsonDict = {"id": cid, "name": card_name(d, cid)}
                blocked = why_not(d, s, cid)
                if blocked:
                    shown["why"] = blocked
                hand.append(shown)
            seat["hand"] = hand
        seats.append(seat)
    return {
        "mode": str(d.mode),
        "round": d.round,
        "mover": mover(d),
        "phase": str(d.phase),
        "order": list(d.order),
        "svo": d.svo_on,
        "svo_rule": d.svo,
        "round_limit": d.round_limit,
        "stack": [e.text for e in d.stack],
        "ask": d.ask,
        "players": seats,
        "over": d.over,
    }
