"""The Telperinquár bot: a heuristic that reads only its own view (its hand, the open field,
counts of the others' hands and piles) and the legal actions.

``random`` picks any legal action (ending the phase less often, so that games move);
``normal`` levels up whenever it can, plays the most expensive card it can afford, attacks
the target with the least life (a hero when it can, a wounded Wesen first), heals when hurt
(first of all when its hero is at 0 LP or below, then it walks into no counter-attack),
answers an attack with a parry, a buff or a trap (a healing answer only when hurt: every
action, a laid card too, may be answered), and otherwise ends the phase.

``hard`` searches: it first ranks the legal actions by a one-step look ahead (each tried on a
copy of the game with dice of its own, three samples, the others taken to pass, then its own
next step as ``normal`` would pick it, valued by what its own view shows: its hero's LP
against the enemies', Wesen, cards in play, levels, hand), then plays the best ``WIDTH`` of
them out ``ROLLOUTS`` times each on a copy without what it cannot know (dice of its own, its
own draw pile shuffled by its own generator, the others' hands and draw piles empty and their
hidden cards gone): the rest of its own turn and the others' next turn (their answers too)
as ``normal`` would play them, valued at the start of its own next turn (a won or lost game
at +-1000). Its own rules hold in the search and in its own play-out steps: it keeps the
Aktionen its defensive cards in play need to answer in the others' turns (it spends below
that reserve only on a blow that can fell the enemy hero), it plays a "next attack +N" card
only when a weapon attack it can still pay beside that reserve follows (never after its last
attack, where the bonus is lost), it attacks next while such a bonus waits, and it strikes
no enemy hero already at 0 LP or below (that hero falls at the end of the turn anyway).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from engines.core import IllegalAction, Rng
from engines.core.contract import DecisionKind
from engines.telperinquar.cards import Card, Catalogue
from engines.telperinquar.state import hero_seat, is_hero
from engines.telperinquar.stats import catalogue_for, mover
from engines.telperinquar.verbs import Buff, GainActions, Heal, Strike


def _known(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every card id the view shows, with what it shows (hand cards and cards in play)."""
    cards: dict[str, dict[str, Any]] = {}
    for seat in view["players"]:
        for zone in ("hand", "equip", "field", "row"):
            for card in seat.get(zone, []):
                cards[card["id"]] = card
    return cards


def _score(
    view: dict[str, Any],
    player: int,
    act: Any,
    cat: Catalogue,
    known: dict[str, dict[str, Any]] | None = None,
) -> float:
    """``normal``'s score of ``act`` (``known``: :func:`_known` of ``view``, if at hand)."""
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
    if known is None:
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


def _is_attack_buff(card: Card) -> bool:
    return any(isinstance(s, Buff) and s.stat == "bonus" for s in card.effects)


SAMPLES = 3  # the hard bot's dice samples per action


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


def _others_pass(engine: Any, after: Any, player: int, passing: Any) -> Any:
    for _ in range(8):  # the others' answers: taken to pass
        asked = engine.decisions(after)
        if not asked or asked[0].seat == player or asked[0].kind != DecisionKind.REACTION:
            break
        after, _ = engine.apply(after, passing, asked[0].seat)
    return after


def _ahead(engine: Any, state: Any, player: int, act: Any, rng: random.Random) -> float:
    """The mean worth after ``act`` over dice samples of its own (the others pass)."""
    cat = catalogue_for(state.extra)
    passing = engine.parse_action("pass")
    total = 0.0
    for _ in range(SAMPLES):
        own = replace(state, rng=Rng(rng.randrange(1 << 30)), forced=())
        after, _ = engine.apply(own, act, player)
        after = _others_pass(engine, after, player, passing)
        for _ in range(FOLLOW):  # its own next steps as the normal heuristic would take them
            asked = engine.decisions(after)
            if not asked or asked[0].seat != player or asked[0].kind == DecisionKind.REACTION:
                break
            legal = list(engine.legal_actions(after, player))
            seen = engine.view_for(after, player)
            nxt = max(legal, key=lambda a: _score(seen, player, a, cat))
            if nxt.words[0] in ("next", "end", "go"):
                break
            after, _ = engine.apply(after, nxt, player)
            after = _others_pass(engine, after, player, passing)
        total += _worth(engine.view_for(after, player), player, cat)
    return total / SAMPLES


def _hard(
    view: dict[str, Any],
    player: int,
    act: Any,
    cat: Catalogue,
    base: float,
    acts: list[Any],
    pending: int = 0,
) -> float:
    """``hard``'s own terms for ``act`` beside the look ahead (see the module's note);
    ``pending``: the "next attack +N" bonus its hero already holds."""
    verb, *args = act.words
    if view.get("ask") is not None or verb in ("level", "go", "next", "end", "pass", "take"):
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
        if int(enemy["life"]) <= 0 and hero_seat(args[-1]) != player:
            return -30.0  # it falls at the end of the turn anyway: no blow that draws a counter
        lethal = int(enemy["life"]) <= 8
    if reserve and pool - cost < reserve and not lethal:
        return -15.0  # the Aktionen stay for the answer in the others' turn
    return 0.0


WIDTH = 4  # the candidates (best by the one-step look ahead) that ``hard`` plays out
ROLLOUTS = 2  # the play-outs of each of them
ROLLOUT_STEPS = 120  # a safety net for one play-out


def _unseen(state: Any, player: int, rng: random.Random) -> Any:
    """A copy of the game without what ``player`` cannot know: dice of its own, its own draw
    pile in an order of its own, the others' hands and draw piles empty and their hidden cards
    in play gone (so in a play-out they use only what lies open)."""
    players = []
    for seat, p in enumerate(state.players):
        if seat == player:
            deck = list(p.deck)
            rng.shuffle(deck)
            players.append(replace(p, deck=tuple(deck)))
        else:
            row = tuple(c for c in p.row if not state.cards[c].hidden)
            players.append(replace(p, hand=(), deck=(), row=row))
    return replace(state, players=tuple(players), rng=Rng(rng.randrange(1 << 30)), forced=())


def _pending(state: Any, seat: int) -> int:
    """The "next attack +N" bonus the seat's hero holds (what it played itself)."""
    return sum(
        m.amount for m in state.players[seat].mods if m.stat == "bonus" and m.until == "attack"
    )


def _quick_step(engine: Any, state: Any, seat: int, cat: Catalogue, own: bool) -> Any:
    """A play-out's step: ``normal``'s pick, for the bot's own seat (``own``) with
    ``hard``'s own terms (:func:`_hard`) on top."""
    legal = list(engine.legal_actions(state, seat))
    seen = engine.view_for(state, seat)
    known = _known(seen)
    pending = _pending(state, seat) if own else 0
    best = legal[0]
    top = -1e9
    for a in legal:
        value = _score(seen, seat, a, cat, known)
        if own:
            value += _hard(seen, seat, a, cat, value, legal, pending)
        if value > top:
            best, top = a, value
    return best


def _play_out(
    engine: Any, state: Any, player: int, act: Any, rng: random.Random, cat: Catalogue
) -> float:
    """The worth of ``act`` on one copy of the game (:func:`_unseen`): the rest of the own
    turn and the others' next turn as ``normal`` would play them, valued at the start of the
    own next turn (or the end of the game)."""
    after, _ = engine.apply(_unseen(state, player, rng), act, player)
    others = mover(state) != player
    for _ in range(ROLLOUT_STEPS):
        result = engine.outcome(after)
        if result is not None:
            mine = state.teams[player]
            if not result.winners:
                return 0.0
            won = any(state.teams[s] == mine for s in result.winners)
            return 1000.0 if won else -1000.0
        turn = mover(after)
        if turn != player:
            others = True
        elif others:
            break
        (asked,) = engine.decisions(after)
        step = _quick_step(engine, after, asked.seat, cat, asked.seat == player)
        after, _ = engine.apply(after, step, asked.seat)
    return _worth(engine.view_for(after, player), player, cat)


def _mean_play_out(
    engine: Any, state: Any, player: int, act: Any, rng: random.Random, cat: Catalogue
) -> float:
    return sum(_play_out(engine, state, player, act, rng, cat) for _ in range(ROLLOUTS)) / ROLLOUTS


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
        # its own hero's waiting attack bonus: what it played itself, no secret of another
        pending = _pending(state, player)
        terms = [
            (_hard(view, player, a, cat, s, actions, pending), a)
            for s, a in scored
            if a.words[0] not in ("swap", "fly", "take", "move") or len(actions) == 1
        ]
        if any(term >= 0 for term, _ in terms):  # its rules: no lost bonus, the reserve kept
            terms = [(term, a) for term, a in terms if term >= 0]
        if len(terms) == 1:
            scored = terms
        else:  # the best few by the one-step look ahead, then played out
            ranked = sorted(
                terms, key=lambda ta: -(_ahead(engine, state, player, ta[1], rng) + ta[0])
            )
            scored = [
                (term + _mean_play_out(engine, state, player, a, rng, cat), a)
                for term, a in ranked[:WIDTH]
            ]
    scored = [(s + rng.random() * 0.1, a) for s, a in scored]
    best = max(s for s, _ in scored)
    return next(a for s, a in scored if s == best)
