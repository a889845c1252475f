"""The effect language's reading of the duel: the players a word names, the dice a selector
names (and the choice among them), conditions and values."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engines.felsenfeuer.context import DONE, Ctx
from engines.felsenfeuer.model import COLOURS, Die
from engines.felsenfeuer.work import Work


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


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def select(ctx: Ctx, sel: Any) -> list[Die]:
    """The dice a selector names, in id order, the dead seats' dice never."""
    w = ctx.w
    if sel == "spruchrune":
        sel = {"spruchrune": True, "zone": ["matrix", "essence", "float", "hand", "bag"]}
    if "any_of" in sel:
        ids = sorted({d.id for sub in sel["any_of"] for d in select(ctx, sub)})
        return [w.dice[i] for i in ids]
    zones = as_list(sel.get("zone", "matrix"))
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
        if "named" in sel and not _named(w, die, as_list(sel["named"])):
            continue
        pips = w.pips_of(die)
        if "pips" in sel and pips not in as_list(sel["pips"]):
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
    return {ctx.colour if c == "this" else c for c in as_list(value)}


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
