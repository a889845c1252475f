"""The Telperinquár bot: a heuristic that reads only its own view (its hand, the open field,
counts of the others' hands and piles) and the legal actions.

``random`` picks any legal action (ending the phase less often, so that games move);
``normal`` levels up whenever it can, plays the most expensive card it can afford, attacks
the target with the least life (a hero when it can, a wounded Wesen first; a poison, which
armour does not stop, counts as an attack), heals when hurt
(first of all when its hero is at 0 LP or below, then it walks into no counter-attack),
answers an attack with a parry, a buff or a trap (a healing answer only when hurt: every
action, a laid card too, may be answered), and otherwise ends the phase.

``hard`` looks one action ahead: it tries each legal action on a copy of the game with dice of
its own (every die rolled 5, then every die rolled 6, the mean of a W10; the game's own dice
stay unseen; the others are taken to let it pass unanswered), then takes its own next step
as ``normal`` would when that step pays (so a buff is valued by the blow that follows it),
and values what its own view then shows (its hero's LP against the enemies', Wesen, cards
in play, levels, hand). On top of that it keeps the Aktionen its defensive cards in play
need to answer in the others' turns (it spends below that reserve only on a blow that can
fell the enemy hero), and it plays a "next attack +N" card just before a weapon attack it
can still pay beside that reserve (never after its last attack, where the bonus is lost),
and attacks next while such a bonus waits (a second bonus only when the look ahead likes
it). Weapons and a shield come off when a large weapon in the hand strikes 2 harder than
what its hero wields, and neither is laid before such a weapon (a large weapon takes both
hands).

In its own Hauptphase ``hard`` then plays its three best actions out (those its own rules do
not bar): each one, then the rest of its turn by the one-step look ahead (one set of dice, 5
and 6 in turn), then the end of the turn (a Wesen's damage that heals, the next draw, what
comes over time); it takes the best of the mean of that worth and the look ahead's score.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from engines.core import IllegalAction, Rng
from engines.core.contract import DecisionKind
from engines.telperinquar.cards import Card, Catalogue
from engines.telperinquar.state import hero_seat, is_hero
from engines.telperinquar.stats import catalogue_for
from engines.telperinquar.verbs import Buff, GainActions, Heal, OverTimeStep, Strike


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
        if any(isinstance(s, Heal) for s in card.effects):
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
    strike = next((s for s in card.effects if isinstance(s, Strike)), None)
    melee = strike is not None and strike.range == "melee" and card.type != "wesen"
    if melee and target and life <= 0:  # the hero at 0 LP heals or stops: no counter-attack
        return -10
    if strike is not None and target:
        expected = _expected(view, known, strike, target, cat)
        if expected < 4:  # armour or resistance eats most of the blow: play cards first
            return 1 + max(0.0, expected)
        if is_hero(target):
            life = int(view["players"][hero_seat(target)]["life"])
            return 30 + max(0, 40 - life) / 4
        return 25 + (5 if known.get(target, {}).get("wounded") else 0)
    if target and any(isinstance(s, OverTimeStep) and s.effect == "damage" for s in card.effects):
        return 28 if is_hero(target) else 22  # a poison: armour does not stop it
    if any(isinstance(s, Heal) for s in card.effects):
        if target and is_hero(target):
            seat = view["players"][hero_seat(target)]
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
    if any(isinstance(s, Buff | GainActions) for s in card.effects):
        return 3
    return 2


def _expected(
    view: dict[str, Any],
    known: dict[str, dict[str, Any]],
    strike: Strike,
    target: str,
    cat: Catalogue,
) -> float:
    """The damage an average roll (5.5) of ``strike`` does to ``target`` after its Rüstung
    (physical) or Resistenz (magical), as far as the view shows them."""
    key = "armour" if strike.kind == "physical" else "resistance"
    if is_hero(target):
        reduction = int(view["players"][hero_seat(target)][key])
    else:
        card = cat.cards.get(str(known.get(target, {}).get("name", "")))
        reduction = int(card.get(key, 0)) if card is not None else 0
    return 5.5 + strike.bonus - reduction


def _cost(act: Any, known: dict[str, dict[str, Any]], cat: Catalogue) -> int:
    """The Aktionen ``act`` costs (laying: the play cost; a use: the use cost)."""
    verb, *args = act.words
    if verb in ("play", "hide", "arm", "move"):
        return cat.cards[known[args[0]]["name"]].play
    if verb == "use":
        return cat.cards[known[args[0]]["name"]].use
    if verb == "dual":
        return sum(cat.cards[known[c]["name"]].use for c in args[:2])
    return 0


def _reserve(view: dict[str, Any], player: int, cat: Catalogue) -> int:
    """The Aktionen the defensive cards in play need to answer once (the dearest of them)."""
    me = view["players"][player]
    uses = [
        cat.cards[c["name"]].use
        for c in me.get("equip", []) + me.get("field", [])
        if c.get("name") in cat.cards and cat.cards[c["name"]].defensive and not c.get("inaktion")
    ]
    return max(uses, default=0)


def _weapons_and_held(
    view: dict[str, Any], player: int, cat: Catalogue
) -> tuple[list[tuple[str, Card]], list[Card]]:
    """(the pieces its hero wears with their ids, the cards in its hand)."""
    me = view["players"][player]
    worn = [
        (c["id"], cat.cards[c["name"]]) for c in me.get("equip", []) if c.get("name") in cat.cards
    ]
    held = [cat.cards[c["name"]] for c in me.get("hand", []) if c.get("name") in cat.cards]
    return worn, held


def _large_upgrade(worn: list[tuple[str, Card]], held: list[Card]) -> int:
    """The bonus of the best large weapon in the hand when it beats what the hero wields by
    2 or more (a shield's Rüstung +1 is given up for it), else 0."""
    large = max((h.bonus for h in held if h.type == "weapon" and h.size == "g"), default=0)
    wielded = [card for _, card in worn if card.type == "weapon"]
    if not large or any(w.size == "g" for w in wielded):
        return 0
    return large if large - sum(w.bonus for w in wielded) >= 2 else 0


def _in_the_way(view: dict[str, Any], player: int, cat: Catalogue) -> frozenset[str]:
    """The worn weapons and shields that keep a better large weapon in the hand out (a large
    weapon takes both hands) while the pool pays for laying it: they come off first, before
    any blow, as the better weapon pays for itself over the game."""
    worn, held = _weapons_and_held(view, player, cat)
    best = _large_upgrade(worn, held)
    cost = min((h.play for h in held if h.type == "weapon" and h.bonus == best), default=0)
    if not best or int(view["players"][player]["actions"]) < cost:
        return frozenset()
    return frozenset(cid for cid, card in worn if card.type in ("weapon", "shield"))


def _shuts_out_large_weapon(view: dict[str, Any], player: int, card: Card, cat: Catalogue) -> bool:
    """Whether laying ``card`` (a shield, or a weapon that is not large) would keep out a
    better large weapon the hand holds."""
    if card.type not in ("weapon", "shield") or card.size == "g":
        return False
    worn, held = _weapons_and_held(view, player, cat)
    laid = [*worn, ("", card)] if card.type == "weapon" else worn
    return _large_upgrade(laid, held) > 0  # the large weapon still strikes 2 harder


def _is_attack_buff(card: Card) -> bool:
    return any(isinstance(s, Buff) and s.stat == "bonus" for s in card.effects)


# The hard bot's look ahead rolls every die as 5, then every die as 6 (a W10's mean is 5.5),
# and takes the mean: random samples (three of them) let the same action score up to 17 apart
# and drowned the differences between actions.
LOOK_AHEAD_ROLLS = (5, 6)
ROLLS_PER_LOOK = 200  # more dice than one action and its follow-up step ever roll
_LOOK_AHEAD_DICE = tuple((roll,) * ROLLS_PER_LOOK for roll in LOOK_AHEAD_ROLLS)


def _worth(view: dict[str, Any], player: int, cat: Catalogue) -> float:
    """What ``hard`` sees in its own view: its side's LP, Wesen, cards in play, levels and
    hand against the enemies'."""
    players = view["players"]
    total = 0.0
    for p in players:
        life = min(int(p["life"]), int(p["max_life"]))
        score = 3.0 * life + 8.0 * max(int(v) for v in p["levels"].values())
        for c in p.get("row", []):
            card = cat.cards.get(str(c.get("name", "")))
            if card is None:
                score += 3.0  # a hidden card
                continue
            left = int(card.get("life", 0) or 0) - int(c.get("dmg", 0) or 0)
            score += 4.0 + 0.8 * max(0, left) - (4.0 if c.get("wounded") else 0.0)
        score += 2.5 * (len(p.get("equip", [])) + len(p.get("field", [])))
        score += 1.0 * int(p.get("hand_count", 0))
        if int(p["life"]) <= 0:
            score -= 400.0
        total += score if p["team"] == players[player]["team"] else -score
    return total


FOLLOW = 1  # own follow-up steps after the tried action (the normal heuristic's pick)


def _step(engine: Any, state: Any, act: Any, player: int, passing: Any) -> Any:
    """``state`` after ``player``'s ``act`` and the others' answers to it, taken to pass."""
    after, _ = engine.apply(state, act, player)
    for _ in range(8):
        asked = engine.decisions(after)
        if not asked or asked[0].seat == player or asked[0].kind != DecisionKind.REACTION:
            break
        after, _ = engine.apply(after, passing, asked[0].seat)
    return after


def _ahead(engine: Any, state: Any, player: int, act: Any, rng: random.Random) -> float:
    """The mean worth after ``act`` with its own dice (every die 5, then every die 6; the
    game's own next rolls stay unseen; the others pass)."""
    cat = catalogue_for(state.extra)
    passing = engine.parse_action("pass")
    total = 0.0
    for dice in _LOOK_AHEAD_DICE:
        own = replace(state, rng=Rng(rng.randrange(1 << 30)), forced=dice)
        after = _step(engine, own, act, player, passing)
        best = _worth(engine.view_for(after, player), player, cat)
        # its own next steps as the normal heuristic would take them, each only if it pays:
        # "next" has none, and a poor pick of normal's must not sink every other action below it
        for _ in range(FOLLOW):
            asked = engine.decisions(after)
            if not asked or asked[0].seat != player or asked[0].kind == DecisionKind.REACTION:
                break
            legal = list(engine.legal_actions(after, player))
            seen = engine.view_for(after, player)
            nxt = max(legal, key=lambda a: _score(seen, player, a, cat))
            if nxt.words[0] in ("next", "end", "go"):
                break
            after = _step(engine, after, nxt, player, passing)
            best = max(best, _worth(engine.view_for(after, player), player, cat))
        total += best
    return total / len(_LOOK_AHEAD_DICE)


def _close_turn(engine: Any, after: Any, player: int, passing: Any) -> Any:
    """``after`` with its own turn ended (the Hauptphase and the Positionierungsphase closed,
    the others passing), up to the first decision of another player."""
    for _ in range(6):
        asked = engine.decisions(after)
        if not asked or asked[0].seat != player or asked[0].kind == DecisionKind.REACTION:
            break
        offered = {a.words[0]: a for a in engine.legal_actions(after, player)}
        closing = offered.get("next") or offered.get("end")
        if closing is None:
            break
        after = _step(engine, after, closing, player, passing)
    return after


PLAN_CANDIDATES = 3  # the look ahead's best actions that are played out to the turn's end
PLAN_STEPS = 8  # at most so many own steps after the candidate
PLAN_WEIGHT = 0.5  # the played-out worth's share of the final score (the look ahead's: the rest)
_PLAN_DICE = (5, 6) * (ROLLS_PER_LOOK // 2)
_FREE_STEPS = ("swap", "fly", "take", "move")  # free and repeatable: never a candidate
_MAIN_PROMPT = "tq.prompt.main"  # its own Hauptphase


def _played_out(engine: Any, state: Any, player: int, act: Any, rng: random.Random) -> float:
    """The worth at the start of the others' turn after ``act``, the rest of its own
    Hauptphase played by the one-step look ahead (with its own rules) and the turn ended."""
    cat = catalogue_for(state.extra)
    passing = engine.parse_action("pass")
    own = replace(state, rng=Rng(rng.randrange(1 << 30)), forced=_PLAN_DICE)
    after = _step(engine, own, act, player, passing)
    for _ in range(PLAN_STEPS):
        asked = engine.decisions(after)
        if not asked or asked[0].seat != player or asked[0].prompt != _MAIN_PROMPT:
            break
        step = _one_step_pick(engine, after, player, cat, passing)
        if step.words[0] in ("next", "end"):
            break
        after = _step(engine, after, step, player, passing)
    after = _close_turn(engine, after, player, passing)
    return _worth(engine.view_for(after, player), player, cat)


def _one_step_pick(engine: Any, state: Any, player: int, cat: Catalogue, passing: Any) -> Any:
    """The play-out's step: the action whose worth right after it, with ``hard``'s own
    terms, is best (ending the phase: the worth as it stands)."""
    view = engine.view_for(state, player)
    offered = [a for a in engine.legal_actions(state, player) if a.words[0] not in _FREE_STEPS]
    pending = _pending_bonus(state, player)
    best: tuple[float, Any] | None = None
    for act in offered:
        after = state
        if act.words[0] not in ("next", "end"):
            after = _step(engine, state, act, player, passing)
        value = _worth(engine.view_for(after, player), player, cat)
        value += _hard(view, player, act, cat, _score(view, player, act, cat), offered, pending)
        if best is None or value > best[0]:
            best = (value, act)
    assert best is not None  # the Hauptphase always offers "next"
    return best[1]


def _pending_bonus(state: Any, player: int) -> int:
    """Its own hero's waiting attack bonus: what it played itself, no secret of another."""
    return sum(
        m.amount for m in state.players[player].mods if m.stat == "bonus" and m.until == "attack"
    )


def _hard(
    view: dict[str, Any],
    player: int,
    act: Any,
    cat: Catalogue,
    base: float,
    acts: list[Any],
    pending: int = 0,
    blocking: frozenset[str] = frozenset(),
) -> float:
    """``hard``'s own terms for ``act`` beside the look ahead (see the module's note);
    ``pending``: the "next attack +N" bonus its hero already holds; ``blocking``: what its
    hero wears that keeps a better large weapon out (``_in_the_way``)."""
    verb, *args = act.words
    if view.get("ask") is not None or verb in ("level", "go", "next", "end", "pass"):
        return 0.0
    known = _known(view)
    me = view["players"][player]
    pool = int(me["actions"])
    cost = _cost(act, known, cat)
    weapon_attacks = [
        a
        for a in acts
        if a.words[0] in ("use", "dual")
        and len(a.words) >= 3
        and cat.cards[known[a.words[1]]["name"]].type == "weapon"
    ]
    card = cat.cards[known[args[0]]["name"]] if args and args[0] in known else None
    if verb == "take":
        return 60.0 if args and args[0] in blocking else -20.0
    if verb == "play" and card is not None and _shuts_out_large_weapon(view, player, card, cat):
        return -20.0  # the large weapon first: this piece would keep it out
    reserve = _reserve(view, player, cat)
    if verb == "use" and card is not None and _is_attack_buff(card):
        cheapest = min((_cost(a, known, cat) for a in weapon_attacks), default=None)
        if cheapest is None or pool - cost - reserve < cheapest:
            return -30.0  # the bonus would be lost: no attack follows (the reserve stays)
        if pending > 0:
            return 0.0  # a bonus already waits: a second one only as the look ahead likes it
        return 12.0  # before the attack it helps
    if base > 150:  # its hero falls unless healed now
        return 0.0
    if pending > 0 and act in weapon_attacks:
        return 12.0  # a waiting bonus is spent by the next attack, not lost at the turn's end
    lethal = False
    if verb in ("use", "dual") and len(args) >= 2 and is_hero(args[-1]):
        enemy = view["players"][hero_seat(args[-1])]
        lethal = int(enemy["life"]) <= 8
    if reserve and pool - cost < reserve and not lethal:
        return -15.0  # the Aktionen stay for the answer in the others' turn
    return 0.0


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
    cat = catalogue_for(state.extra)
    scored = [(_score(view, player, a, cat), a) for a in actions]
    if level == "hard":
        pending = _pending_bonus(state, player)
        blocking = _in_the_way(view, player, cat)  # taken off for a better large weapon
        scored = [
            (
                _ahead(engine, state, player, a, rng)
                + _hard(view, player, a, cat, s, actions, pending, blocking),
                a,
            )
            for s, a in scored
            if a.words[0] not in _FREE_STEPS
            or len(actions) == 1
            or (a.words[0] == "take" and a.words[1] in blocking)
        ]
    scored = [(s + rng.random() * 0.1, a) for s, a in scored]
    if level == "hard" and engine.decisions(state)[0].prompt == _MAIN_PROMPT:
        scored = _plan(engine, state, player, scored, rng)
    best = max(s for s, _ in scored)
    return next(a for s, a in scored if s == best)


def _plan(
    engine: Any, state: Any, player: int, scored: list[tuple[float, Any]], rng: random.Random
) -> list[tuple[float, Any]]:
    """``hard``'s best actions by the look ahead, scored again with their turn played out
    (``PLAN_WEIGHT`` of the played-out worth, the rest the look ahead's score). Actions its
    own rules bar (scored -10 or less) are not played out; when all are barred the look
    ahead's order stands."""
    top = sorted(scored, key=lambda pair: -pair[0])[:PLAN_CANDIDATES]
    planned = [
        (
            PLAN_WEIGHT * _played_out(engine, state, player, act, rng)
            + (1 - PLAN_WEIGHT) * score
            + rng.random() * 0.1,
            act,
        )
        for score, act in top
        if score > -10
    ]
    return planned or top
