"""What several verbs and the resolution share: losing essence, an attack, moving a die (with
its temple), taking it to hand, the Erneuerung, triggering a glyph, the spells a rune may cast
and destroying a die."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engines.felsenfeuer.context import MAX_DEPTH, Ctx, SkipSentence
from engines.felsenfeuer.events import EventType
from engines.felsenfeuer.model import Die, Entry, EntryKind, Zone
from engines.felsenfeuer.selectors import distinct
from engines.felsenfeuer.spells import Spell, book_for
from engines.felsenfeuer.work import Work


# --- shared actions ----------------------------------------------------------------------------
def lose_essence(ctx: Ctx, seat: int, amount: int) -> None:
    """``seat`` lowers its essences by ``amount`` points, choosing which (one point at a
    time); an essence at 0 is destroyed."""
    w = ctx.w
    for _ in range(amount):
        essences = [d for d in w.dice if d.owner == seat and d.zone == "essence" and d.pips > 0]
        if not essences:
            return
        token = ctx.choose(seat, "felsenfeuer.ask.lose_essence",
                           [f"d{d.id}" for d in distinct(w, essences)], amount=amount)  # fmt: skip
        die = w.dice[int(token[1:])]
        w.lost = True
        w.emit(EventType.ESSENCE_LOST, player=seat, die=die.id, colour=die.colour, pips=die.pips)
        if die.pips <= 1:  # used up after it lost its last point
            w.send_to_bag(die)
            w.emit(
                EventType.ESSENCE_DESTROYED, player=seat, die=die.id, colour=die.colour, pips=None
            )
        else:
            w.set(replace(die, pips=die.pips - 1))


def attack(ctx: Ctx, seat: int) -> None:
    w = ctx.w
    dp = w.duellplatz()
    if dp < 0 or w.markers[seat] != dp:
        w.emit(EventType.ATTACK_MISSED, player=seat)
        return
    if not any(d.owner == seat and d.zone == "essence" for d in w.dice):
        return
    guard = any(d.owner == seat and d.zone == "matrix" and d.matrix == dp and w.pips_of(d) == 5
                for d in w.dice)  # fmt: skip
    if guard:
        w.emit(EventType.ATTACK_WARDED, player=seat)
        return
    w.emit(EventType.ATTACKED, player=seat, by=ctx.caster)
    lose_essence(ctx, seat, 1)


def relocate(ctx: Ctx, die: Die, change: Callable[[Die], Die]) -> None:
    """Change ``die``'s position; a temple rune asks its owner whether the shrines come along
    (Tempel-Regel), else the temple dissolves."""
    w = ctx.w
    shrines = w.temple_members(die.id)
    new = change(die)
    w.set(replace(new, shrine_of=-1) if new.zone != "matrix" else new)
    if not shrines:
        return
    along = ctx.choose(die.owner, "felsenfeuer.ask.temple_along", ["ja", "nein"],
                       forced=False, die=die.id) == "ja"  # fmt: skip
    for sid in shrines:
        shrine = w.dice[sid]
        if along:
            moved = change(shrine)
            keep = moved.zone == "matrix" and new.zone == "matrix" and moved.matrix == new.matrix
            w.set(replace(moved, shrine_of=die.id if keep else -1))
        else:
            w.set(replace(shrine, shrine_of=-1))
    w.emit(EventType.TEMPLE_MOVED if along else EventType.TEMPLE_DISSOLVED, die=die.id)


def to_hand(ctx: Ctx, die: Die) -> None:
    w = ctx.w
    if not w.has_hand(die.owner):
        raise SkipSentence  # contradiction: the hand does not count as a hand
    hand = 0
    if w.hand_count(die.owner, 1) and w.hand_count(die.owner, 0):
        hand = int(ctx.choose(die.owner, "felsenfeuer.ask.hand", ["h0", "h1"], forced=False)[1])
    elif w.hand_count(die.owner, 1):
        hand = 1
    relocate(ctx, die, lambda d: replace(d, zone=Zone.HAND, matrix=-1, pips=0, glyph=False,
                                         frozen=False, hand=hand))  # fmt: skip


def renew(ctx: Ctx) -> None:
    """The Erneuerung: each seat takes its highest runes (bag runes count 0) to hand; owners
    of a cauldron take its runes too and the bag leaves the matrix (Kessel-Regel). A seat with
    runes on both hands chooses the hand, or both: the highest runes to one hand and the
    second highest to the other (Beidhändigkeit)."""
    w = ctx.w
    w.emit(EventType.RENEWAL)
    plan: list[tuple[Die, int]] = []
    for seat in w.initiative_order():
        runes = [d for d in w.dice if d.owner == seat and d.zone in ("matrix", "float", "bag")]
        if not runes:
            continue

        def level(d: Die) -> int:
            return w.pips_of(d) if d.zone != "bag" else 0

        levels = sorted({level(d) for d in runes}, reverse=True)
        hands = [0]
        if w.hand_count(seat, 0) and w.hand_count(seat, 1):
            options = ["h0", "h1"] + (["h0h1", "h1h0"] if len(levels) > 1 else [])
            token = ctx.choose(seat, "felsenfeuer.ask.renew_hand", options, forced=False)
            hands = [int(c) for c in token[1:].replace("h", "")]
        for rank, hand in enumerate(hands):
            plan += [(d, hand) for d in runes if level(d) == levels[rank] and d.shrine_of < 0]
        if w.cauldrons[seat] >= 0:
            taken = {d.id for d, _ in plan}
            plan += [(d, hands[0]) for d in runes if d.zone == "bag" and d.id not in taken]
    for die, hand in plan:  # simultaneous: chosen first, then moved
        current = w.dice[die.id]
        relocate(ctx, current, _to_hand_change(hand))
    w.cauldrons = [-1] * len(w.cauldrons)


def _to_hand_change(hand: int) -> Callable[[Die], Die]:
    def change(d: Die) -> Die:
        return replace(d, zone=Zone.HAND, matrix=-1, pips=0, glyph=False, frozen=False, hand=hand)

    return change


def trigger(ctx: Ctx, die: Die) -> None:
    """Trigger a glyph: it is no glyph any more and becomes the Spruchrune; its owner may
    cast (an offer entry, run before the next sentence)."""
    w = ctx.w
    pips = w.pips_of(die)  # as the glyph counts (an effect may make a 5 count as a 1)
    relocate(ctx, die, lambda d: replace(d, glyph=False, frozen=False))
    w.make_spruchrune(die.id)
    w.emit(EventType.TRIGGERED, die=die.id, player=die.owner, colour=die.colour, pips=pips,
           matrix=die.matrix)  # fmt: skip
    ctx.pushes.append(Entry(EntryKind.OFFER, die=die.id, caster=die.owner))


def castable(w: Work, seat: int, colours: frozenset[str], pips: int, nested: bool) -> list[Spell]:
    """The spells ``seat`` may cast for a rune of these colours and pips."""
    adept = w.base.settings.rules == "adept"
    depth = sum(1 for e in w.stack if e.kind == "spell")
    if depth >= MAX_DEPTH:
        return []
    return [s for s in book_for(w.base.settings.spells).values()
            if s.colour in colours and s.pips == pips and (s.star or not adept)
            and not (s.ritual and nested)]  # fmt: skip


def _bag(ctx: Ctx, d: Die) -> Die:
    return replace(d, zone=Zone.BAG, matrix=-1, pips=0, glyph=False, frozen=False, hand=0)


def destroy(ctx: Ctx, die: Die) -> None:
    """``die`` goes into its owner's bag (a temple rune asks about its shrines)."""
    current = ctx.w.dice[die.id]
    if current.zone == "essence":
        ctx.w.lost = True
    relocate(ctx, current, lambda d: _bag(ctx, d))
    ctx.w.emit(EventType.DESTROYED, die=die.id, player=die.owner, pips=ctx.w.pips_of(die) or None)
