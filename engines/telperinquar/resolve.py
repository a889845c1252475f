"""The stack: declaring an action, the answers of the others (asked one seat at a time),
and resolving it (last declared, first resolved): attacks with counter-attacks, area
effects, Rundumschlag, damage, healing, buffs, effects over time, EW, disarming, charges."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from engines.core import Event
from engines.telperinquar.cards import ATTRIBUTES, Card, hero_of
from engines.telperinquar.damage import crit_wesen, deal, heal_target, reduction
from engines.telperinquar.events import EventType as E
from engines.telperinquar.flow import draw, resolve_over_time
from engines.telperinquar.offers import reactions, targets
from engines.telperinquar.state import (
    IN_PLAY,
    Board,
    Combat,
    Entry,
    EntryKind,
    Mod,
    OverTime,
    Work,
    hero_id,
    hero_seat,
    is_hero,
    zone_of,
)
from engines.telperinquar.stats import (
    aims_at_attacker,
    attribute,
    card_keywords,
    card_of,
    flies,
    hero_equip,
    hero_level,
    is_wesen,
    keywords_of,
    mods,
    offensive,
    owner_of,
    side,
    strike_step,
    target_alive,
    wesen_stat,
)
from engines.telperinquar.verbs import (
    Bonus,
    Buff,
    Cancel,
    Disarm,
    Draw,
    Ew,
    GainActions,
    Harm,
    Heal,
    OverTimeStep,
    Roll,
    Step,
    Strike,
)


def fresh_id(w: Work) -> str:
    """A new secret id: none a card has now, nor one a card had before (a retired id is in
    the public log, so handing it to a card in a hand would tell which card it is)."""
    rng = w.rng
    retired = set(w.retired)
    while True:
        number, rng = rng.randint(10000, 99999)
        if f"c{number}" not in w.cards and f"c{number}" not in retired:
            w.rng = rng
            return f"c{number}"


def lay_on_stack(w: Work, seat: int, words: list[str]) -> None:
    """Laying a card is an action like any other: the others may answer it ("wie bei jeder
    Aktion"). The card lies already; the entry is the moment to answer, and resolves to
    nothing more (RULES.md, "Reactions")."""
    w.stack.append(Entry(seat, EntryKind.LAY, (words[1],), " ".join(words)))


def declare(w: Work, seat: int, verb: str, args: list[str], events: list[Event]) -> None:
    p = w.players[seat]
    text = " ".join([verb, *args])
    if verb == "dual":
        a, b, target = args
        p.actions -= card_of(w, a).use + card_of(w, b).use
        bonus = card_of(w, a).bonus + card_of(w, b).bonus
        entry = Entry(seat, EntryKind.DUAL, (a, b), text, target=target, range="melee")
        entry = replace(entry, bonus=bonus, attacker=hero_id(seat))
    else:
        cid = args[0]
        card = card_of(w, cid)
        info = w.cards[cid]
        if card.type == "wesen" and info.free > 0:
            info = replace(info, free=info.free - 1)
        else:
            p.actions -= card.use
            if card.type == "wesen":
                info = replace(info, attacked=True)
                free = max((k.free_attacks for k in card_keywords(card)), default=0)
                if free:
                    info = replace(info, free=free)
        if card.inaktion:
            info = replace(info, inaktion=True)
        w.cards[cid] = replace(info, hidden=False)
        entry = Entry(seat, EntryKind.USE, (cid,), text, spell=card.type == "spell")
        if len(args) > 1:
            entry = replace(entry, target=args[1])
        strike = strike_step(card)
        if strike is not None:
            attacker = cid if card.type == "wesen" else hero_id(seat)
            entry = replace(entry, range=strike.range, attacker=attacker)
    if offensive(card_of(w, entry.cards[0])):
        w.combat = Combat.OPEN
    elif w.combat == Combat.OPEN:
        w.combat = Combat.CLOSED
    w.stack.append(entry)
    events.append(Event(E.DECLARED, {"player": seat, "action": text}))


def answer(w: Work, seat: int, verb: str, args: list[str], events: list[Event]) -> None:
    top = w.stack[-1] = replace(w.stack[-1], asked=(*w.stack[-1].asked, seat))
    w.ask = None
    if verb == "pass":
        events.append(Event(E.PASSED, {"player": seat}))
        return
    cid = args[0]
    text = " ".join([verb, *args])
    if verb == "intercept":
        w.stack[-1] = replace(top, target=cid)
        events.append(Event(E.INTERCEPTED, {"player": seat, "card": card_of(w, cid).name}))
        return
    if verb == "reveal":
        w.cards[cid] = replace(w.cards[cid], hidden=False)
        card = card_of(w, cid)
        events.append(Event(E.REVEALED, {"player": seat, "card": card.name}))
        if card.type != "trap":
            w.stack[-1] = replace(top, target=cid)
            return
        entry = Entry(seat, EntryKind.TRAP, (cid,), text, target=top.attacker)
    else:
        card = card_of(w, cid)
        w.players[seat].actions -= card.use
        if card.inaktion:
            w.cards[cid] = replace(w.cards[cid], inaktion=True)
        entry = Entry(seat, EntryKind.REACT, (cid,), text, spell=card.type == "spell")
        entry = replace(entry, answers=len(w.stack) - 1)
        if aims_at_attacker(card):
            # aimed at the one whose action it answers (its attacking Wesen, else its hero)
            entry = replace(entry, target=top.attacker or hero_id(top.seat))
    w.stack.append(entry)
    events.append(Event(E.DECLARED, {"player": seat, "action": text}))


def _reaction_order(d: Board, actor: int) -> list[int]:
    order = d.order
    start = order.index(actor)
    return [order[(start + k) % len(order)] for k in range(1, len(order))]


def settle(w: Work, events: list[Event]) -> None:
    """Ask the next seat that could answer the top of the stack, or resolve it (last
    declared, first resolved) and go on with the one below."""
    while w.stack and not w.over:
        top = w.stack[-1]
        for seat in _reaction_order(w, top.seat):
            if seat in top.asked:
                continue
            w.ask = seat
            w.stack[-1] = replace(top, asked=(*top.asked, seat))  # not asked again
            if reactions(w, seat):
                w.stack[-1] = top
                # the declarer's own note: its action waits for this seat's answer
                waits = Event(E.WAITS, {"player": seat}, visible_to=frozenset({top.seat}))
                events.append(waits)
                return
            top = w.stack[-1]
            w.ask = None
        w.stack.pop()
        if not top.cancelled:
            _resolve(w, top, events)
    w.ask = None


def _resolve(w: Work, entry: Entry, events: list[Event]) -> None:
    """Resolve one declared action; a card used up by it is told after its effect (a
    throwing knife's last throw first, then that it is gone)."""
    if entry.kind == EntryKind.LAY:
        return  # the card was laid when it was declared
    start = len(events)
    _resolve_entry(w, entry, events)
    told = events[start:]
    events[start:] = [e for e in told if e.type != E.SPENT] + [e for e in told if e.type == E.SPENT]


def _over_time(step: OverTimeStep, target: str) -> OverTime:
    return OverTime(step.effect, step.amount, step.rounds, target, step.source)


def _amount(w: Work, amount: int | Roll) -> int:
    return amount if isinstance(amount, int) else amount.throw(w.roll)


def _spring(w: Work, entry: Entry, events: list[Event]) -> None:
    """A trap turned up: it leaves the row and works on the attacker."""
    cid = entry.cards[0]
    card = card_of(w, cid)
    owner = w.cards[cid].owner
    p = w.players[owner]
    if cid in p.row:
        p.row.remove(cid)
        p.discard.append(cid)
    for step in card.effects:
        if not target_alive(w, entry.target):
            break
        if isinstance(step, Harm):
            deal(w, entry.target, _amount(w, step.amount), step.kind, "", events)
        elif isinstance(step, OverTimeStep):
            effect = _over_time(step, entry.target)
            resolve_over_time(w, effect, events)
            w.players[owner].ot.append(effect)
        elif isinstance(step, Disarm):
            disarm(w, owner, entry.target, step.to, events)


@dataclass(slots=True)
class _Use:
    """A card's use being resolved: what its steps work with."""

    w: Work
    entry: Entry
    card: Card
    goal: str  # the target, else the user's own hero
    events: list[Event]

    @property
    def seat(self) -> int:
        return self.entry.seat

    def lapsed(self) -> bool:
        self.events.append(Event(E.LAPSED, {"action": self.entry.text}))
        return False


def _strike(u: _Use, step: Strike) -> bool:
    w, entry, card = u.w, u.entry, u.card
    if not entry.target or not target_alive(w, entry.target):
        return u.lapsed()
    bonus = step.bonus
    if card.type == "wesen":  # a weapon the Wesen carries adds its bonus
        bonus += wesen_stat(w, entry.cards[0], "bonus") - card.bonus
    if is_hero(entry.attacker):
        bonus += mods(w, u.seat, "bonus")
        p = w.players[u.seat]
        p.mods = [m for m in p.mods if m.until != "attack"]
    u.entry = replace(entry, range=step.range)
    _attack(w, u.seat, u.entry, bonus, step.kind, step.source, step.area, u.events)
    return True


def _harm(u: _Use, step: Harm) -> bool:
    if target_alive(u.w, u.goal):
        deal(u.w, u.goal, _amount(u.w, step.amount), step.kind, step.source, u.events)
    return True


def _heal(u: _Use, step: Heal) -> bool:
    if target_alive(u.w, u.goal):
        die = u.w.roll(10)
        amount = 0 if die == 1 else die + step.bonus
        heal_target(u.w, u.goal, amount, step.kind, die == 10, u.events)
        u.events.append(Event(E.ROLL, {"die": die, "for": "heal"}))
    return True


def _buff(u: _Use, step: Buff) -> bool:
    u.w.players[u.seat].mods.append(Mod(step.stat, step.amount, step.duration))
    return True


def _lasting(u: _Use, step: OverTimeStep) -> bool:
    effect = _over_time(step, u.goal)
    resolve_over_time(u.w, effect, u.events)
    u.w.players[u.seat].ot.append(effect)
    return True


def _actions(u: _Use, step: GainActions) -> bool:
    u.w.players[u.seat].actions += step.amount
    return True


def _draw(u: _Use, step: Draw) -> bool:
    for _ in range(step.count):
        draw(u.w, u.seat, u.events)
    return True


def _disarm(u: _Use, step: Disarm) -> bool:
    target = u.entry.target
    if target and target_alive(u.w, target):
        disarm(u.w, u.seat, target, step.to, u.events)
    return True


def _cancel(u: _Use, step: Cancel) -> bool:
    answers = u.entry.answers
    if answers is not None:
        below = u.w.stack[answers] = replace(u.w.stack[answers], cancelled=True)
        u.events.append(Event(E.PARRIED, {"action": below.text}))
    return True


def _passive(u: _Use, step: Bonus) -> bool:
    return True  # a passive bonus works while the card is in play (stats.py)


def _ew_step(u: _Use, step: Ew) -> bool:
    return _ew(u.w, u.seat, u.entry, step, u.events)  # failed: the later steps do not happen


_Resolver = Callable[[_Use, Any], bool]
RESOLVERS: dict[type[Step], _Resolver] = {
    Strike: _strike,
    Harm: _harm,
    Heal: _heal,
    Bonus: _passive,
    Buff: _buff,
    OverTimeStep: _lasting,
    GainActions: _actions,
    Cancel: _cancel,
    Draw: _draw,
    Disarm: _disarm,
    Ew: _ew_step,
}
"""What each verb does when its card is used: False ends the card's steps."""


def _resolve_entry(w: Work, entry: Entry, events: list[Event]) -> None:
    cards = entry.cards
    if any(c not in w.cards for c in cards):  # it went back to a hand (a new secret id)
        events.append(Event(E.LAPSED, {"action": entry.text}))
        return
    if entry.kind == EntryKind.TRAP:
        _spring(w, entry, events)
        return
    card = card_of(w, cards[0])
    owner = w.cards[cards[0]].owner
    # the card must still be where it was used from
    p = w.players[owner]
    if not all(zone_of(p, c, IN_PLAY) for c in cards):
        events.append(Event(E.LAPSED, {"action": entry.text}))
        return
    _spend_charges(w, cards, events)
    if entry.kind == EntryKind.DUAL:
        if not target_alive(w, entry.target):
            events.append(Event(E.LAPSED, {"action": entry.text}))
            return
        _attack(w, entry.seat, entry, entry.bonus, "physical", "", False, events)
        return
    use = _Use(w, entry, card, entry.target or hero_id(entry.seat), events)
    for step in card.effects:
        if not RESOLVERS[type(step)](use, step):
            return


def disarm(w: Work, seat: int, target: str, to: str, events: list[Event]) -> None:
    """The target hero's best weapon (highest bonus) leaves it, unless every weapon it holds
    has a Waffenkette ("kann nur durch ihren Beherrscher entfernt oder aufgenommen werden"):
    to its owner's discard pile, back to its owner's hand, or (``steal``) into the hand of
    ``seat``. A weapon going to a hand gets a new secret id. A Wesen is not disarmed."""
    if not is_hero(target):
        return
    owner = hero_seat(target)
    p = w.players[owner]
    weapons = [c for c in hero_equip(w, owner) if card_of(w, c).type == "weapon"]
    free = [c for c in weapons if not card_of(w, c).chain]
    if not free:
        if weapons:
            name = card_of(w, weapons[0]).name
            events.append(Event(E.CHAINED, {"player": owner, "card": name}))
        return
    cid = max(free, key=lambda c: (card_of(w, c).bonus, c))
    name = card_of(w, cid).name
    p.equip.remove(cid)
    if to == "discard":
        p.discard.append(cid)
        w.cards[cid] = replace(w.cards[cid], inaktion=False)
    else:
        info = w.cards.pop(cid)
        w.retired.append(cid)
        keeper = seat if to == "steal" else owner
        info = replace(info, inaktion=False, bearer="", owner=keeper)
        fresh = fresh_id(w)
        w.cards[fresh] = info
        w.players[keeper].hand.append(fresh)
    events.append(Event(E.DISARMED, {"player": seat, "card": name, "target": target, "to": to}))


def ew_value(d: Board, target: str, against: str, value: int = 0) -> int:
    """What an EW must beat: a number, or an attribute of ``target`` (a hero's, or a Wesen's
    printed attributes; a Wesen without them has 0), ``highest`` its highest one."""
    if against == "value":
        return value
    names = ATTRIBUTES if against == "highest" else (against,)
    if is_hero(target):
        return max(attribute(d, hero_seat(target), a) for a in names)
    return max(wesen_stat(d, target, a) for a in names)


def _ew(w: Work, seat: int, entry: Entry, step: Ew, events: list[Event]) -> bool:
    """An Erfolgswurf (glossary "EW") of the card's user against its target (or its own
    hero): W20 + the roller's current level, higher than the value succeeds."""
    target = entry.target or hero_id(seat)
    if not target_alive(w, target):
        events.append(Event(E.LAPSED, {"action": entry.text}))
        return False
    value = ew_value(w, target, step.against, step.value)
    die = w.roll(20)
    level = hero_level(w, seat)
    success = die + level > value
    told = {"player": seat, "die": die, "level": level, "value": value, "success": success}
    events.append(Event(E.EW, told))
    return success


def _spend_charges(w: Work, cards: tuple[str, ...], events: list[Event]) -> None:
    for cid in cards:
        card = card_of(w, cid)
        if not card.charges:
            continue
        info = w.cards[cid]
        left = (card.charges if info.charges is None else info.charges) - 1
        w.cards[cid] = replace(info, charges=left)
        if left <= 0:
            owner = w.players[info.owner]
            for zone in (owner.equip, owner.field, owner.row):
                if cid in zone:
                    zone.remove(cid)
            owner.discard.append(cid)
            w.cards[cid] = replace(info, charges=None)
            events.append(Event(E.SPENT, {"card": card.name}))


def counter_strike(d: Board, defender: str, attacker: str) -> tuple[int, str] | None:
    """The counter-attack of ``defender``: (bonus, damage kind), or None when it cannot
    strike back in melee. A hero strikes with the melee weapon that hurts ``attacker`` most
    (bonus minus the attacker's Rüstung for a physical, Resistenz for a magic weapon: "Bestimmt
    er bei seinem Angriff (oder Gegenangriff) mit welcher Waffe"), else unarmed (physical);
    a Wesen with its own strike and the weapon it carries."""
    if is_hero(defender):
        seat = hero_seat(defender)
        weapons = [card_of(d, c) for c in hero_equip(d, seat) if card_of(d, c).type == "weapon"]
        melee = [
            (w.bonus, "magical" if w.attack == "melee_magic" else "physical")
            for w in weapons
            if w.attack in ("melee", "melee_magic")
        ]
        if melee:
            return max(melee, key=lambda m: (m[0] - reduction(d, attacker, m[1]), m[0]))
        if weapons:
            return None  # only ranged weapons: a pure ranged fighter
        return min(hero_of(c).unarmed for c in d.players[seat].classes), "physical"
    card = card_of(d, defender)
    if card.attack not in ("melee", "melee_magic"):
        return None
    kind = "magical" if card.attack == "melee_magic" else "physical"
    strike: tuple[int, str] | None = (wesen_stat(d, defender, "bonus"), kind)
    for keyword in card_keywords(card):
        strike = keyword.counter(strike)
    return strike


def _attack(
    w: Work,
    seat: int,
    entry: Entry,
    bonus: int,
    kind: str,
    source: str,
    area: bool,
    events: list[Event],
) -> None:
    target = entry.target
    attacker = entry.attacker or hero_id(seat)
    die = w.roll(10)
    critical, fumble = die == 10, die == 1
    events.append(Event(E.ROLL, {"die": die, "bonus": bonus, "target": target}))
    # the counter-attack as the target stands now: a Wesen that dies of this attack still
    # strikes back, with the weapon it carried ("steht dieser dennoch zu")
    counter = counter_strike(w, target, attacker)
    victims = [target]
    if not is_hero(attacker) and any(k.sweeps for k in keywords_of(w, attacker)):
        victims += _sweep(w, target, attacker, seat)
    elif area:
        victims += _area(w, target)
    for index, victim in enumerate(victims):
        if not target_alive(w, victim):
            continue
        direct = index == 0
        amount = 0 if fumble else die + bonus
        if critical and direct and not is_hero(victim) and crit_wesen(w, victim, events):
            continue  # a critical hit on a wounded Wesen kills it at once
        deal(w, victim, amount, kind, source, events, critical=critical and direct)
    # a melee attack is answered by a counter-attack of the target (also when it died)
    if entry.range != "melee":  # told, so that nobody waits for one
        events.append(Event(E.NO_COUNTER, {"why": "ranged", "target": target}))
        return
    if not target_alive(w, attacker):
        return
    if counter is None:
        events.append(Event(E.NO_COUNTER, {"why": "defender", "target": target}))
        return
    bonus, counter_kind = counter
    die = w.roll(10)
    amount = 0 if die == 1 else die + bonus
    events.append(Event(E.COUNTER, {"die": die, "bonus": bonus, "target": attacker}))
    if die == 10 and not is_hero(attacker) and crit_wesen(w, attacker, events):
        return
    deal(w, attacker, amount, counter_kind, "", events, critical=die == 10)


def _sweep(d: Board, target: str, attacker: str, seat: int) -> list[str]:
    """The others a Rundumschlag hits: every non-flying card in the attacker's own
    Drohbereich ("bei allen nicht-fliegenden Wesen oder Helden im Drohbereich"), i.e. what
    it could attack in melee now besides the target."""
    return [
        c
        for c in targets(d, attacker, "melee", seat)
        if c != target and (is_hero(c) or not flies(d, c))
    ]


def _area(d: Board, target: str) -> list[str]:
    """The other cards an area effect hits: the target's neighbours in its row, and in 2 vs
    2 the cards at the same places of the target's team-mate."""
    owner = owner_of(d, target)
    extra: list[str] = []
    mates = [s for s in range(len(d.players)) if side(d, s) == side(d, owner)]
    for s in mates:
        row = d.players[s].row
        if is_hero(target):
            if s != owner and not d.players[s].out:
                extra.append(hero_id(s))
            continue
        own_row = d.players[owner].row
        pos = own_row.index(target) if target in own_row else -1
        for index, cid in enumerate(row):
            if cid == target or not is_wesen(d, cid) or d.cards[cid].hidden:
                continue
            if abs(index - pos) <= (1 if s == owner else 0):
                extra.append(cid)
    return extra
