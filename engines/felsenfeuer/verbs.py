"""The interpreter of Felsenfeuer's effect language: selectors, conditions, values and one
implementation per verb. A step runs on a Work copy with the answers given so far; it asks
through ``Ctx.choose`` (engines.effects.Answers), which raises NeedDecision when an answer is
missing: the driver then stores the open decision and re-runs the step once it is answered.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engines.effects import Answers
from engines.felsenfeuer.model import COLOURS, Die, Entry, EntryKind, Mod, ModKind, Result, Zone
from engines.felsenfeuer.sentences import (
    Attack,
    Cauldron,
    GainEssence,
    Instruction,
    LoseEssence,
    LowerPips,
    Manifest,
    NewMatrix,
    RaisePips,
    Sentence,
    SetCaster,
    SwapPips,
    Targeted,
    Win,
)
from engines.felsenfeuer.spells import VERBS, Spell, book_for
from engines.felsenfeuer.work import Work

MAX_DEPTH = 12  # spells running inside each other at most (deeper casts lapse)
DONE = "fertig"


class SkipSentence(Exception):
    """The sentence lapses whole (Visir-Regel for joined parts, or a contradiction)."""


class Ctx:
    """One unit of resolution: the work copy, the entry being run and its answers."""

    def __init__(self, work: Work, entry: Entry) -> None:
        self.w = work
        self.entry = entry
        self.caster = entry.caster
        self.answers = Answers(entry.answers)
        self.pushes: list[Entry] = []
        self.new_mods: list[Mod] = []
        self.binds: dict[str, tuple[int, ...]] = dict(entry.bind)
        self.chooser = entry.caster
        self.hand = 0  # the hand "this" names (some_hand, choose_hand); "other" is the other
        self.colour = ""  # the colour "this" names (each_colour)

    def choose(self, seat: int, prompt: str, options: Sequence[str], forced: bool = True,
               **params: Any) -> str:  # fmt: skip
        return self.answers.choose(
            seat, prompt, options, [(k, str(v)) for k, v in params.items()], forced=forced
        )

    # --- reach (Gilden-Duell: a Sekundant reaches only its neighbours) --------------------
    def reach(self) -> frozenset[int] | None:
        s = self.w.base.settings
        if s.mode != "gilde" or self.caster < 0 or self.caster in (1, 4):
            return None
        n = s.players
        return frozenset({self.caster, (self.caster - 1) % n, (self.caster + 1) % n})


# --- players ----------------------------------------------------------------------------------
def players_of(ctx: Ctx, which: str) -> list[int]:
    w, me = ctx.w, ctx.caster
    seats = w.initiative_order()
    if which == "self":
        chosen = [me] if w.alive(me) else []
    elif which == "opponents":
        chosen = [s for s in seats if w.team(s) != w.team(me)]
    elif which == "allies":
        chosen = [s for s in seats if w.team(s) == w.team(me) and s != me]
    elif which == "team":
        chosen = [s for s in seats if w.team(s) == w.team(me)]
    elif which == "others":
        chosen = [s for s in seats if s != me]
    elif which == "initiative":
        chosen = [w.stone] if w.alive(w.stone) else []
    elif which == "spruchrune_owner":
        owner = w.dice[w.spell_rune].owner if w.spell_rune >= 0 else -1
        chosen = [owner] if owner >= 0 and w.alive(owner) else []
    elif which == "all":
        chosen = seats
    else:  # the loader admits only the values above
        raise ValueError(f"unknown players {which!r}")
    reach = ctx.reach()
    return [s for s in chosen if reach is None or s in reach]


def pick_players(ctx: Ctx, which: str, pick: str) -> list[int]:
    seats = players_of(ctx, which)
    if pick == "all" or not seats:
        return seats
    if pick == "one":
        token = ctx.choose(ctx.caster, "felsenfeuer.ask.player", [f"p{s}" for s in seats])
        return [int(token[1:])]
    chosen: list[int] = []
    while True:
        rest = [f"p{s}" for s in seats if s not in chosen]
        if not rest:
            return chosen
        token = ctx.choose(ctx.caster, "felsenfeuer.ask.players", [*rest, DONE], forced=False)
        if token == DONE:
            return chosen
        chosen.append(int(token[1:]))


# --- dice selectors ---------------------------------------------------------------------------
def _owner_ok(ctx: Ctx, die: Die, owner: Any) -> bool:
    if owner is None:
        return True
    w, me = ctx.w, ctx.caster
    for rel in owner if isinstance(owner, list) else [owner]:
        if rel == "any":
            return True
        if rel == "self" and die.owner == me:
            return True
        if rel == "chooser" and die.owner == ctx.chooser:
            return True
        if rel == "others" and die.owner != me:
            return True
        if rel == "opponent" and w.team(die.owner) != w.team(me):
            return True
        if rel == "ally" and w.team(die.owner) == w.team(me) and die.owner != me:
            return True
        if rel == "team" and w.team(die.owner) == w.team(me):
            return True
    return False


def _zone_ok(w: Work, die: Die, zones: list[str]) -> bool:
    for zone in zones:
        if zone == "hand" and die.zone == "hand" and w.has_hand(die.owner):
            return True
        if zone == "bag" and die.zone == "bag":
            return True
        if zone == "container" and (
            die.zone == "bag" or (die.zone == "hand" and w.has_hand(die.owner))
        ):
            return True  # Behälter: hands and bags
        if zone == "cauldron" and die.zone == "bag" and w.cauldrons[die.owner] >= 0:
            return True
        if zone == "matrix" and die.zone == "matrix":
            return True
        if zone == "glyph" and die.zone == "matrix" and die.glyph:
            return True
        if zone == "rune" and die.zone == "matrix" and not die.glyph:
            return True
        if zone in ("essence", "float") and die.zone == zone:
            return True
    return False


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def select(ctx: Ctx, sel: Any) -> list[Die]:
    """The dice a selector names, in id order, the dead seats' dice never."""
    w = ctx.w
    if sel == "spruchrune":
        sel = {"spruchrune": True, "zone": ["matrix", "essence", "float", "hand", "bag"]}
    if "any_of" in sel:
        ids = sorted({d.id for sub in sel["any_of"] for d in select(ctx, sub)})
        return [w.dice[i] for i in ids]
    zones = _as_list(sel.get("zone", "matrix"))
    on = sel.get("on", "any")
    dp = w.duellplatz()
    bound = set(ctx.binds.get(sel["bound"], ())) if "bound" in sel else None
    reach = ctx.reach()
    found: list[Die] = []
    for die in w.dice:
        if die.zone in ("out", "picked") or die.owner in w.out:
            continue
        if bound is not None and die.id not in bound:
            continue
        if reach is not None and die.owner not in reach:
            continue
        if not _zone_ok(w, die, zones) or not _owner_ok(ctx, die, sel.get("owner")):
            continue
        if on != "any" and die.zone in ("matrix", "essence", "float"):
            target = {"duellplatz": dp, "start": 0, "marker": w.markers[ctx.caster]}[on]
            if die.matrix != target or target < 0:
                continue
        elif on != "any" and die.zone not in ("matrix", "essence", "float"):
            continue
        if "spruchrune" in sel and (die.id == w.spell_rune) != sel["spruchrune"]:
            continue
        if "colour" in sel and not w.colours_of(die) & _colours(ctx, sel["colour"]):
            continue
        if "hand" in sel and not (die.zone == "hand" and die.hand == _hand(ctx, sel["hand"])):
            continue
        if "named" in sel and not _named(w, die, _as_list(sel["named"])):
            continue
        pips = w.pips_of(die)
        if "pips" in sel and pips not in _as_list(sel["pips"]):
            continue
        if pips < sel.get("pips_min", 0) or pips > sel.get("pips_max", 99):
            continue
        if "frozen" in sel and die.frozen != sel["frozen"]:
            continue
        if "shrine" in sel and (die.shrine_of >= 0) != sel["shrine"]:
            continue
        if "temple" in sel and bool(w.temple_members(die.id)) != sel["temple"]:
            continue
        found.append(die)
    if found and (sel.get("lowest") or sel.get("highest")):
        values = [w.pips_of(d) for d in found]
        best = min(values) if sel.get("lowest") else max(values)
        found = [d for d, v in zip(found, values, strict=True) if v == best]
    return found


def _colours(ctx: Ctx, value: Any) -> set[str]:
    return {ctx.colour if c == "this" else c for c in _as_list(value)}


def _hand(ctx: Ctx, which: str) -> int:
    return {"first": 0, "second": 1, "this": ctx.hand, "other": 1 - ctx.hand}[which]


def _named(w: Work, die: Die, names: list[str]) -> bool:
    """Whether ``die`` counts as one of ``names`` ("zählt als Fluchrune") now."""
    return any(m.kind == "named" and die.id in m.targets and m.value in names for m in w.mods())


_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b, "lt": lambda a, b: a < b, "le": lambda a, b: a <= b,
}  # fmt: skip


def signature(w: Work, die: Die) -> tuple[Any, ...]:
    """Dice that look alike and behave alike (one of them is offered for all)."""
    return (die.owner, die.colour, die.zone, die.matrix, die.pips, die.hand, die.glyph,
            die.frozen, die.shrine_of, bool(w.temple_members(die.id)),
            die.id == w.spell_rune)  # fmt: skip


def distinct(w: Work, dice: Sequence[Die]) -> list[Die]:
    seen: set[tuple[Any, ...]] = set()
    out = []
    for die in dice:
        sig = signature(w, die)
        if sig not in seen:
            seen.add(sig)
            out.append(die)
    return out


def pick_dice(ctx: Ctx, cands: list[Die], count: Any, chooser: str, prompt: str) -> list[Die]:
    """The dice chosen among ``cands`` (count: all, one, any, or a number)."""
    if not cands or count == "all":
        return cands
    w = ctx.w
    if chooser == "owner":
        chosen: list[Die] = []
        for seat in w.initiative_order():
            own = [d for d in cands if d.owner == seat]
            if own:
                chosen += _pick(ctx, own, count, seat, prompt)
        return chosen
    seat = w.stone if chooser == "initiative" else ctx.caster
    return _pick(ctx, cands, count, seat, prompt)


def _pick(ctx: Ctx, cands: list[Die], count: Any, seat: int, prompt: str) -> list[Die]:
    w = ctx.w
    chosen: list[Die] = []
    up_to = isinstance(count, Mapping)  # "bis zu n": any of them, at most n
    free = count == "any" or up_to
    if up_to:
        limit = int(count["up_to"])
    else:
        limit = len(cands) if count == "any" else (1 if count == "one" else int(count))
    while len(chosen) < limit:
        rest = distinct(w, [d for d in cands if d not in chosen])
        if not rest:
            break
        options = [f"d{d.id}" for d in rest]
        if free:
            options.append(DONE)
        token = ctx.choose(seat, prompt, options, forced=not free)
        if token == DONE:
            break
        chosen.append(w.dice[int(token[1:])])
    return chosen


# --- conditions and values --------------------------------------------------------------------
def holds(ctx: Ctx, cond: Mapping[str, Any]) -> bool:
    w = ctx.w
    for key, arg in cond.items():
        if key == "exists" and not select(ctx, arg):
            return False
        if key == "none" and select(ctx, arg):
            return False
        if key == "not" and holds(ctx, arg):
            return False
        if key == "all" and not all(holds(ctx, c) for c in arg):
            return False
        if key == "any" and not any(holds(ctx, c) for c in arg):
            return False
        if key == "initiative" and w.stone not in players_of(ctx, arg):
            return False
        if key == "essence_at_most" and w.essence_points(ctx.caster) > arg:
            return False
        if key == "duellplatz" and (w.duellplatz() >= 0) != arg:
            return False
        if key == "allies" and bool(players_of(ctx, "allies")) != arg:
            return False
        if key == "compare" and not _COMPARE[arg["op"]](
            value_of(ctx, arg["left"]), value_of(ctx, arg["right"])
        ):
            return False
        if key == "some_hand" and not _some_hand(ctx, arg):
            return False
        if key == "each_colour" and not _each_colour(ctx, arg):
            return False
    return True


def _some_hand(ctx: Ctx, cond: Mapping[str, Any]) -> bool:
    """Whether ``cond`` holds for one of the caster's hands ("this"; the other is "other")."""
    before = ctx.hand
    try:
        for hand in (0, 1):
            ctx.hand = hand
            if holds(ctx, cond):
                return True
        return False
    finally:
        ctx.hand = before


def _each_colour(ctx: Ctx, cond: Mapping[str, Any]) -> bool:
    """Whether ``cond`` holds for every colour (``colour = "this"`` names it)."""
    before = ctx.colour
    try:
        for colour in COLOURS:
            ctx.colour = colour
            if not holds(ctx, cond):
                return False
        return True
    finally:
        ctx.colour = before


def value_of(ctx: Ctx, value: Any) -> int:
    if isinstance(value, int):
        return value
    key, arg = next(iter(value.items()))
    if key == "count":
        return len(select(ctx, arg))
    if key == "pips_of_spruchrune":
        w = ctx.w
        return w.pips_of(w.dice[w.spell_rune]) if w.spell_rune >= 0 else 0
    if key == "sum_pips":
        return sum(ctx.w.pips_of(d) for d in select(ctx, arg))
    if key == "essence_of":  # the most essence points among these players
        return max((ctx.w.essence_points(s) for s in players_of(ctx, arg)), default=0)
    if key == "add":
        return sum(value_of(ctx, v) for v in arg)
    if key == "min":  # "höchstens": the smallest of the values
        return min(value_of(ctx, v) for v in arg)
    return ctx.w.essence_points(ctx.caster)  # essence


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
        w.emit("essence_lost", player=seat, die=die.id, colour=die.colour, pips=die.pips)
        if die.pips <= 1:  # used up after it lost its last point
            w.send_to_bag(die)
            w.emit("essence_destroyed", player=seat, die=die.id, colour=die.colour, pips=None)
        else:
            w.set(replace(die, pips=die.pips - 1))


def attack(ctx: Ctx, seat: int) -> None:
    w = ctx.w
    dp = w.duellplatz()
    if dp < 0 or w.markers[seat] != dp:
        w.emit("attack_missed", player=seat)
        return
    if not any(d.owner == seat and d.zone == "essence" for d in w.dice):
        return
    guard = any(d.owner == seat and d.zone == "matrix" and d.matrix == dp and w.pips_of(d) == 5
                for d in w.dice)  # fmt: skip
    if guard:
        w.emit("attack_warded", player=seat)
        return
    w.emit("attacked", player=seat, by=ctx.caster)
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
    w.emit("temple_moved" if along else "temple_dissolved", die=die.id)


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
    w.emit("renewal")
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
    w.emit("triggered", die=die.id, player=die.owner, colour=die.colour, pips=pips,
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


# --- verbs -------------------------------------------------------------------------------------
def _candidates(ctx: Ctx, part: Targeted | SwapPips) -> list[Die]:
    """The dice a targeted verb could change now (Visir-Regel: only valid targets)."""
    verb = part.do
    w = ctx.w
    dice = select(ctx, part.target)
    ok = _VALID.get(verb)
    if isinstance(part, RaisePips | LowerPips):
        amount = value_of(ctx, part.amount)
        sign = 1 if verb == "raise_pips" else -1
        return [d for d in dice if d.shrine_of < 0 and d.zone in ("matrix", "float", "essence")
                and 1 <= w.pips_of(d) + sign * amount <= 6]  # fmt: skip
    if verb == "float" and w.duellplatz() < 0:
        return []
    return [d for d in dice if ok is None or ok(w, d)]


_MOVABLE = ("matrix", "essence", "float")
_VALID: dict[str, Callable[[Work, Die], bool]] = {
    "trigger": lambda w, d: d.zone == "matrix" and d.glyph and d.shrine_of < 0,
    "ban": lambda w, d: d.zone == "matrix" and d.glyph and d.shrine_of < 0,
    "reactivate": lambda w, d: d.zone == "matrix" and not d.glyph and d.shrine_of < 0,
    "destroy": lambda w, d: d.zone in ("matrix", "essence", "float", "hand") and d.shrine_of < 0,
    "take_to_hand": lambda w, d: (
        d.zone in ("matrix", "float", "bag", "essence") and d.shrine_of < 0
    ),
    "move_to_matrix": lambda w, d: d.zone in _MOVABLE and d.shrine_of < 0,
    "set_pips": lambda w, d: d.zone in _MOVABLE and d.shrine_of < 0,
    "freeze": lambda w, d: d.zone == "matrix" and d.glyph and not d.frozen,
    "thaw": lambda w, d: d.zone == "matrix" and d.glyph and d.frozen,
    "float": lambda w, d: d.zone == "matrix" and d.shrine_of < 0,
    "second_hand": lambda w, d: (
        d.zone in ("matrix", "float", "bag", "hand")
        and d.shrine_of < 0
        and not (d.zone == "hand" and d.hand == 1)
    ),
    "lay": lambda w, d: d.zone == "hand",
    "swap_pips": lambda w, d: d.zone in _MOVABLE and d.shrine_of < 0,
}


def possible(ctx: Ctx, part: Instruction) -> bool:
    """Whether an instruction has a valid target now (checked for joined sentences)."""
    if isinstance(part, Targeted | SwapPips):
        return bool(_candidates(ctx, part))
    if isinstance(part, NewMatrix | Manifest):
        return bool(select(ctx, part.target))
    if isinstance(part, Attack):
        return bool(players_of(ctx, part.players)) and ctx.w.duellplatz() >= 0
    if isinstance(part, GainEssence):  # an essence at 6 cannot be raised (Visir-Regel)
        seats = players_of(ctx, part.players)
        return any(d.owner in seats and d.zone == "essence" and d.pips < 6 for d in ctx.w.dice)
    if isinstance(part, LoseEssence | Cauldron | SetCaster | Win):
        return bool(players_of(ctx, part.players))
    return True


def _does_something(ctx: Ctx, part: Instruction) -> bool:
    """Whether an instruction would change anything now: ``possible``, and an attack reaches
    a player whose essences lie on the Duellplatz."""
    if isinstance(part, Attack):
        dp = ctx.w.duellplatz()
        seats = players_of(ctx, part.players)
        return dp >= 0 and any(ctx.w.markers[s] == dp for s in seats)
    return possible(ctx, part)


def could_act(w: Work, spell: Spell, caster: int) -> bool:
    """Whether ``spell`` worked by ``caster`` now would do anything (a blood spell that would
    not is neither offered nor paid for). Every sentence is looked at as it stands; one that
    can act, or whose effect cannot be judged before it runs (an effect, a renewal, a cast),
    is enough: when none can, each lapses in turn and nothing changes."""
    ctx = Ctx(w, Entry(EntryKind.SPELL, spell=spell.slug, caster=caster))
    for step in spell.steps:
        if step.when is not None and not holds(ctx, step.when):
            continue
        parts = [p for p in step.parts if p.when is None or holds(ctx, p.when)]
        if step.joined and not all(possible(ctx, p) for p in parts):
            continue
        if any(_does_something(ctx, p) for p in parts):
            return True
    return False


def _targets(ctx: Ctx, part: Targeted, prompt: str) -> list[Die]:
    cands = _candidates(ctx, part)
    return pick_dice(ctx, cands, part.count, part.chooser, prompt)


def run_verb(ctx: Ctx, part: Instruction) -> tuple[bool, list[int]]:
    """Run one instruction; returns (lapsed, the dice or seats it affected)."""
    return _IMPL[part.do](ctx, part)


def _v_trigger(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    dice = _targets(ctx, part, "felsenfeuer.ask.trigger")
    for die in dice:
        trigger(ctx, ctx.w.dice[die.id])
    return not dice, [d.id for d in dice]


def _simple(change: Callable[[Ctx, Die], Die], prompt: str, event: str) -> Callable[..., Any]:
    def run(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
        dice = _targets(ctx, part, prompt)
        for die in dice:  # chosen together, changed together (simultaneous change)
            current = ctx.w.dice[die.id]
            before = ctx.w.pips_of(current) or None  # the die as it was when it was changed
            relocate(ctx, current, lambda d: change(ctx, d))
            ctx.w.emit(event, die=die.id, player=die.owner, pips=before)
        return not dice, [d.id for d in dice]

    return run


def _bag(ctx: Ctx, d: Die) -> Die:
    return replace(d, zone=Zone.BAG, matrix=-1, pips=0, glyph=False, frozen=False, hand=0)


def destroy(ctx: Ctx, die: Die) -> None:
    """``die`` goes into its owner's bag (a temple rune asks about its shrines)."""
    current = ctx.w.dice[die.id]
    if current.zone == "essence":
        ctx.w.lost = True
    relocate(ctx, current, lambda d: _bag(ctx, d))
    ctx.w.emit("destroyed", die=die.id, player=die.owner, pips=ctx.w.pips_of(die) or None)


def _v_destroy(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    dice = _targets(ctx, part, "felsenfeuer.ask.destroy")
    for die in dice:
        destroy(ctx, die)
    return not dice, [d.id for d in dice]


def _v_take(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    dice = _targets(ctx, part, "felsenfeuer.ask.take")
    for die in dice:
        before = ctx.w.pips_of(ctx.w.dice[die.id]) or None
        to_hand(ctx, ctx.w.dice[die.id])
        ctx.w.emit("taken", die=die.id, player=die.owner, pips=before)
    return not dice, [d.id for d in dice]


def _place(ctx: Ctx, die: Die, matrix: int) -> None:
    """Move ``die`` to ``matrix``; an essence takes the marker and every essence along."""
    w = ctx.w
    if die.zone == "essence":
        w.markers[die.owner] = matrix
        for other in list(w.dice):
            if other.owner == die.owner and other.zone == "essence":
                w.set(replace(other, matrix=matrix))
        return
    relocate(ctx, die, lambda d: replace(d, matrix=matrix))


def _v_move(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    w = ctx.w
    to = part.to
    if to == "choose":  # "auf eine beliebige Matrix": the dice first, then the matrix
        dice = _targets(ctx, part, "felsenfeuer.ask.move")
        if not dice:
            return True, []
        used = sorted({0, *(d.matrix for d in w.dice if d.zone in _MOVABLE and d.matrix >= 0)})
        target = int(ctx.choose(ctx.caster, "felsenfeuer.ask.matrix",
                                [f"m{x}" for x in used])[1:])  # fmt: skip
    else:
        target = {"duellplatz": w.duellplatz(), "start": 0, "marker": w.markers[ctx.caster]}[to]
        if target < 0:
            return True, []
        dice = _targets(ctx, part, "felsenfeuer.ask.move")
    for die in dice:
        _place(ctx, w.dice[die.id], target)
        w.emit("moved", die=die.id, matrix=target)
    return not dice, [d.id for d in dice]


def _v_new_matrix(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    w = ctx.w
    base = [d for d in select(ctx, part.target) if d.shrine_of < 0 and d.zone in _MOVABLE]
    if not base:
        return True, []
    extra: list[Die] = []
    if part.extra is not None:
        cands = [d for d in select(ctx, part.extra)
                 if d not in base and d.shrine_of < 0 and d.zone in _MOVABLE]  # fmt: skip
        extra = pick_dice(ctx, cands, part.extra_count, "caster",
                          "felsenfeuer.ask.move")  # fmt: skip
    matrix = w.matrices
    w.matrices += 1
    w.emit("new_matrix", matrix=matrix)
    for die in base + extra:
        _place(ctx, w.dice[die.id], matrix)
        w.emit("moved", die=die.id, matrix=matrix)
    return False, [d.id for d in base + extra]


def _v_manifest(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    w = ctx.w
    tops = [d for d in select(ctx, part.target)
            if d.zone == "matrix" and d.shrine_of < 0 and not w.temple_members(d.id)]  # fmt: skip
    top_list = pick_dice(ctx, tops, "one", "caster", "felsenfeuer.ask.temple_rune")
    if not top_list:
        return True, []
    top = top_list[0]
    cands = [d for d in select(ctx, part.shrines)
             if d.zone == "matrix" and d.id != top.id and d.shrine_of < 0
             and not w.temple_members(d.id)]  # fmt: skip
    count = part.shrine_count
    shrines = pick_dice(ctx, cands, count, "caster", "felsenfeuer.ask.shrine")[:4]
    if not shrines:
        return True, []
    glyph = any(s.glyph for s in shrines)
    frozen = any(s.frozen for s in shrines) or top.frozen
    for s in shrines:
        w.set(replace(w.dice[s.id], matrix=top.matrix, shrine_of=top.id, glyph=glyph,
                      frozen=frozen and glyph))  # fmt: skip
    w.set(replace(w.dice[top.id], glyph=glyph or top.glyph, frozen=frozen and glyph))
    w.emit("manifested", die=top.id, shrines=[s.id for s in shrines])
    return False, [top.id, *[s.id for s in shrines]]


def _v_pips(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    w = ctx.w
    verb = part.do
    dice = _targets(ctx, part, "felsenfeuer.ask.pips")
    for die in dice:
        current = w.dice[die.id]
        if verb == "set_pips":
            value = part.value
            if value == "choose":
                value = int(ctx.choose(ctx.caster, "felsenfeuer.ask.value",
                                       [str(v) for v in range(1, 7)], forced=False))  # fmt: skip
            new = int(value_of(ctx, value))
        else:
            sign = 1 if verb == "raise_pips" else -1
            new = current.pips + sign * value_of(ctx, part.amount)
        w.set(replace(current, pips=max(1, min(6, new))))
        w.emit("pips", die=die.id, pips=max(1, min(6, new)))
    return not dice, [d.id for d in dice]


def _v_swap(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    """ "Tausche die Augenzahl …": the caster chooses one die of ``target`` and one other die of
    ``other``; each takes the other's pips (an essence point count is its pips)."""
    w = ctx.w
    valid = _VALID["swap_pips"]
    first = pick_dice(ctx, [d for d in select(ctx, part.target) if valid(w, d)], "one",
                      "caster", "felsenfeuer.ask.pips")  # fmt: skip
    if not first:
        return True, []
    cands = [d for d in select(ctx, part.other) if valid(w, d) and d.id != first[0].id]
    second = pick_dice(ctx, cands, "one", "caster", "felsenfeuer.ask.pips")
    if not second:
        return True, []
    a, b = w.dice[first[0].id], w.dice[second[0].id]
    w.set(replace(a, pips=b.pips))
    w.set(replace(b, pips=a.pips))
    for die, pips in ((a, b.pips), (b, a.pips)):
        w.emit("pips", die=die.id, pips=pips)
    return False, [a.id, b.id]


def _v_counts_as(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    prop = part.property
    target = part.target if part.target is not None else {}  # no target: the matrices' dice
    if prop == "named":  # "zählt als Fluchrune": a name other sentences select by (named = …)
        dice = select(ctx, target)
        ctx.new_mods.append(Mod(ModKind.NAMED, tuple(d.id for d in dice), str(part.value)))
        return not dice, [d.id for d in dice]
    if prop == "nohand":
        seats = players_of(ctx, part.players)
        ctx.new_mods.append(Mod(ModKind.NOHAND, tuple(seats), ""))
        return not seats, seats
    dice = select(ctx, target)
    ctx.new_mods.append(Mod(ModKind(prop), tuple(d.id for d in dice), str(part.value)))
    return False, [d.id for d in dice]


def _v_renew(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    renew(ctx)
    return False, []


def _v_cast(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    w = ctx.w
    colour = part.colour
    colours = frozenset(_as_list(colour)) if colour else frozenset(COLOURS)
    pips = int(part.pips)
    spells = [s for p in ([pips] if pips else range(1, 7))
              for s in castable(w, ctx.caster, colours, p, nested=True)]  # fmt: skip
    if not spells:
        return True, []
    slug = ctx.choose(ctx.caster, "felsenfeuer.ask.cast", [s.slug for s in spells])
    ctx.pushes.append(Entry(EntryKind.SPELL, spell=slug, caster=ctx.caster))
    w.emit("cast", player=ctx.caster, spell=slug, nested=True)
    return False, []


def _v_cauldron(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    w = ctx.w
    dp = w.duellplatz()
    seats = pick_players(ctx, part.players, part.pick)
    if dp < 0 or not seats:
        return True, []
    for seat in seats:
        w.cauldrons[seat] = dp
        w.emit("cauldron", player=seat, matrix=dp)
    return False, seats


def _v_attack(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    seats = pick_players(ctx, part.players, part.pick)
    if ctx.w.duellplatz() < 0 or not seats:
        return True, []
    for _ in range(int(part.times)):
        for seat in seats:
            attack(ctx, seat)
    return False, seats


def _v_lose(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    seats = pick_players(ctx, part.players, part.pick)
    amount = value_of(ctx, part.amount)
    for seat in seats:
        lose_essence(ctx, seat, amount)
    return not seats, seats


def _v_gain(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    w = ctx.w
    seats = pick_players(ctx, part.players, part.pick)
    amount = value_of(ctx, part.amount)
    gained = []
    for seat in seats:
        for _ in range(amount):
            low = [d for d in w.dice if d.owner == seat and d.zone == "essence" and d.pips < 6]
            if not low:
                break
            token = ctx.choose(seat, "felsenfeuer.ask.gain_essence",
                               [f"d{d.id}" for d in distinct(w, low)])  # fmt: skip
            die = w.dice[int(token[1:])]
            w.set(replace(die, pips=die.pips + 1))
            w.emit("essence_gained", player=seat, die=die.id)
            gained.append(seat)
    return not gained, gained


def _v_set_caster(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    seats = players_of(ctx, part.players)
    if not seats:
        return True, []
    ctx.caster = seats[0]
    ctx.w.emit("caster", player=seats[0])
    return False, seats[:1]


def _v_win(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    seats = players_of(ctx, part.players)
    if not seats:
        return True, []
    w = ctx.w
    teams = {w.team(s) for s in seats}
    w.winners = [s for s in range(w.players) if w.team(s) in teams]
    w.result = Result.DECLARED
    return False, seats


def _v_lay(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    w = ctx.w
    dp = w.duellplatz()
    if dp < 0:
        return True, []
    dice = _targets(ctx, part, "felsenfeuer.ask.lay")
    for die in dice:
        value = part.value
        if value == "choose":
            pips = int(ctx.choose(die.owner, "felsenfeuer.ask.value",
                                  [str(v) for v in range(1, 7)], forced=False))  # fmt: skip
        else:
            pips = value_of(ctx, value)
        w.set(replace(w.dice[die.id], zone=Zone.MATRIX, matrix=dp, pips=pips, glyph=True, hand=0))
        w.emit("laid", die=die.id, player=die.owner, pips=pips, matrix=dp)
    return not dice, [d.id for d in dice]


def _v_float(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    """Runes float over the Duellplatz as it stood when the sentence began (the Spruchrune
    among them takes the Duellplatz away only from the following effects)."""
    dp = ctx.w.duellplatz()
    run = _simple(lambda c, d: replace(d, zone=Zone.FLOAT, matrix=dp, glyph=False, frozen=False),
                  "felsenfeuer.ask.float", "floated")  # fmt: skip
    result: tuple[bool, list[int]] = run(ctx, part)
    return result


def _hand1(ctx: Ctx, d: Die) -> Die:
    if not ctx.w.has_hand(d.owner):
        raise SkipSentence
    return replace(d, zone=Zone.HAND, matrix=-1, pips=0, glyph=False, frozen=False, hand=1)


_IMPL: dict[str, Callable[[Ctx, Any], tuple[bool, list[int]]]] = {
    "trigger": _v_trigger,
    "ban": _simple(
        lambda c, d: replace(d, glyph=False, frozen=False), "felsenfeuer.ask.ban", "banned"
    ),
    "reactivate": _simple(
        lambda c, d: replace(d, glyph=True), "felsenfeuer.ask.reactivate", "reactivated"
    ),
    "freeze": _simple(lambda c, d: replace(d, frozen=True), "felsenfeuer.ask.freeze", "frozen"),
    "thaw": _simple(lambda c, d: replace(d, frozen=False), "felsenfeuer.ask.thaw", "thawed"),
    "float": _v_float,
    "second_hand": _simple(_hand1, "felsenfeuer.ask.second_hand", "second_hand"),
    "destroy": _v_destroy,
    "take_to_hand": _v_take,
    "move_to_matrix": _v_move,
    "new_matrix": _v_new_matrix,
    "manifest": _v_manifest,
    "set_pips": _v_pips,
    "raise_pips": _v_pips,
    "lower_pips": _v_pips,
    "counts_as": _v_counts_as,
    "swap_pips": _v_swap,
    "renew": _v_renew,
    "cast": _v_cast,
    "cauldron": _v_cauldron,
    "attack": _v_attack,
    "lose_essence": _v_lose,
    "gain_essence": _v_gain,
    "set_caster": _v_set_caster,
    "win": _v_win,
    "lay": _v_lay,
}
assert set(_IMPL) == set(VERBS), "every verb of the language has an implementation"


def run_step(ctx: Ctx, step: Sentence) -> bool:
    """Run one sentence; returns whether it lapsed. Raises SkipSentence when a joined sentence
    has a part without a valid target (the whole sentence lapses) or a contradiction."""
    if step.choose_hand:  # "wähle eine deiner Hände": the hand "this" names
        w = ctx.w
        if w.hand_count(ctx.caster, 0) and w.hand_count(ctx.caster, 1):
            token = ctx.choose(ctx.caster, "felsenfeuer.ask.which_hand", ["h0", "h1"], False)
            ctx.hand = int(token[1])
        else:
            ctx.hand = 1 if w.hand_count(ctx.caster, 1) else 0
    if step.when is not None and not holds(ctx, step.when):
        return True
    if step.for_each is not None:  # once for each die named now, {bound = "each"} names it
        ids = [d.id for d in select(ctx, step.for_each)]
        lapsed = True
        for die in ids:
            ctx.binds["each"] = (die,)
            lapsed = _run_parts(ctx, step) and lapsed
        ctx.binds.pop("each", None)
        return lapsed
    times = value_of(ctx, step.repeat) if step.repeat is not None else 1
    lapsed = True
    for _ in range(max(0, min(times, 12))):  # "n-mal" (at most 12 times)
        lapsed = _run_parts(ctx, step) and lapsed
    return lapsed


def _run_parts(ctx: Ctx, step: Sentence) -> bool:
    parts = step.parts
    joined = step.joined
    if joined and not all(possible(ctx, p) for p in parts):
        raise SkipSentence
    lapsed_all = True
    for part in parts:
        if part.when is not None and not holds(ctx, part.when):
            continue
        lapsed, affected = run_verb(ctx, part)
        if lapsed and joined:
            raise SkipSentence
        lapsed_all = lapsed_all and lapsed
        if part.name:
            ctx.binds[part.name] = tuple(affected)
    return lapsed_all
