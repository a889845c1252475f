"""The Telperinquár bot: a heuristic that reads only its own view (its hand, the open field,
counts of the others' hands and piles) and the legal actions.

``random`` picks any legal action (ending the phase less often, so that games move);
``normal`` levels up whenever it can, plays the most expensive card it can afford, attacks
the target with the least life (a hero when it can, a wounded Wesen first), heals when hurt
(first of all when its hero is at 0 LP or below, then it walks into no counter-attack),
answers an attack with a parry, a buff or a trap (a healing answer only when hurt: every
action, a laid card too, may be answered), and otherwise ends the phase.
"""

from __future__ import annotations

import random
from typing import Any

from engines.core import IllegalAction
from engines.telperinquar.cards import Card, Catalogue
from engines.telperinquar.engine import catalogue_for


def _known(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every card id the view shows, with what it shows (hand cards and cards in play)."""
    cards: dict[str, dict[str, Any]] = {}
    for seat in view["players"]:
        for zone in ("hand", "equip", "field", "row"):
            for card in seat.get(zone, []):
                cards[card["id"]] = card
    return cards


def _score(view: dict[str, Any], player: int, act: Any, cat: Catalogue) -> float:
    verb, *args = act.words
    if verb == "level":
        return 100
    if verb in ("go", "next", "end", "pass"):
        return 0
    if verb in ("swap", "fly"):
        return -1
    if verb == "move":
        return -3
    if verb == "take":
        return -5
    if verb in ("reveal", "intercept"):
        return 50
    known = _known(view)
    card: Card = cat.cards[known[args[0]]["name"]]
    if verb == "react":  # a healing answer only when the hero needs it (any action is asked)
        if any(s.get("do") == "heal" for s in card.steps):
            me = view["players"][player]
            missing = int(me["max_life"]) - int(me["life"])
            return 50 if missing >= 4 or int(me["life"]) <= 0 else -1
        return 50
    if verb == "arm":  # a Wesen that carries a weapon or armour fights better
        return 11 + card.play
    if verb in ("play", "hide"):
        if card.type == "trap" and verb == "play":
            return -1
        return 10 + card.play + (5 if card.type in ("weapon", "wesen") else 0)
    life = int(view["players"][player]["life"])
    if verb == "dual":
        return 40 if life > 0 else -10
    target = args[-1] if len(args) > 1 else None
    strike = next((s for s in card.steps if s.get("do") == "strike"), None)
    melee = strike is not None and strike.get("range") == "melee" and card.type != "wesen"
    if melee and target and life <= 0:  # the hero at 0 LP heals or stops: no counter-attack
        return -10
    if strike is not None and target:
        expected = _expected(view, known, strike, target, cat)
        if expected < 4:  # armour or resistance eats most of the blow: play cards first
            return 1 + max(0.0, expected)
        if target.startswith("h"):
            life = int(view["players"][int(target[1:])]["life"])
            return 30 + max(0, 40 - life) / 4
        return 25 + (5 if known.get(target, {}).get("wounded") else 0)
    if any(s.get("do") == "heal" for s in card.steps):
        if target and target.startswith("h"):
            seat = view["players"][int(target[1:])]
            missing = int(seat["max_life"]) - int(seat["life"])
            if int(seat["life"]) <= 0 and target == f"h{player}":
                return 200
            return 5 + missing if missing >= 4 else -1
        if target:
            return 6 if known.get(target, {}).get("wounded") else -1
        me = view["players"][player]
        if life <= 0:  # the hero falls at the end of the turn unless healed
            return 200
        return 5 if int(me["max_life"]) - int(me["life"]) >= 6 else -1
    if any(s.get("do") in ("buff", "actions") for s in card.steps):
        return 3
    return 2


def _expected(
    view: dict[str, Any],
    known: dict[str, dict[str, Any]],
    strike: Any,
    target: str,
    cat: Catalogue,
) -> float:
    """The damage an average roll (5.5) of ``strike`` does to ``target`` after its Rüstung
    (physical) or Resistenz (magical), as far as the view shows them."""
    key = "armour" if strike.get("kind") == "physical" else "resistance"
    if target.startswith("h"):
        reduction = int(view["players"][int(target[1:])][key])
    else:
        card = cat.cards.get(str(known.get(target, {}).get("name", "")))
        reduction = int(card.get(key, 0)) if card is not None else 0
    return 5.5 + int(strike.get("bonus", 0)) - reduction


def choose(engine: Any, state: Any, player: int, level: str, rng: random.Random) -> Any:
    actions = list(engine.legal_actions(state, player))
    if not actions:
        raise IllegalAction("error.not_your_turn")
    if level == "random":
        moving = [a for a in actions if a.words[0] not in ("next", "end")]
        if moving and rng.random() < 0.8:
            return rng.choice(moving)
        return rng.choice(actions)
    view = engine.view_for(state, player)
    cat = catalogue_for(state.data.get("extra", ""))
    scored = [(_score(view, player, a, cat) + rng.random() * 0.1, a) for a in actions]
    best = max(s for s, _ in scored)
    return next(a for s, a in scored if s == best)
