"""The verbs of Felsenfeuer's effect language, one implementation each, and the running of a
compiled sentence (``engines.felsenfeuer.sentences``): the dice or seats an instruction may
change (the Visir-Regel), whether it could act, and its effect. The shared reading of the duel
is ``selectors``, the shared mechanisms ``mechanics``, one unit of resolution ``context``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engines.felsenfeuer.context import MAX_DEPTH, Ctx, SkipSentence
from engines.felsenfeuer.events import EventType
from engines.felsenfeuer.mechanics import (
    attack,
    castable,
    destroy,
    lose_essence,
    relocate,
    renew,
    to_hand,
    trigger,
)
from engines.felsenfeuer.model import COLOURS, Die, Entry, EntryKind, Mod, ModKind, Result, Zone
from engines.felsenfeuer.selectors import (
    as_list,
    distinct,
    holds,
    pick_dice,
    pick_players,
    players_of,
    select,
    value_of,
)
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
from engines.felsenfeuer.spells import VERBS, Spell
from engines.felsenfeuer.work import Work

__all__ = [  # what the driver and the tests take from here
    "MAX_DEPTH",
    "Ctx",
    "Mod",
    "SkipSentence",
    "castable",
    "could_act",
    "destroy",
    "distinct",
    "renew",
    "run_step",
    "trigger",
]


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


def _simple(change: Callable[[Ctx, Die], Die], prompt: str, event: EventType) -> Callable[..., Any]:
    def run(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
        dice = _targets(ctx, part, prompt)
        for die in dice:  # chosen together, changed together (simultaneous change)
            current = ctx.w.dice[die.id]
            before = ctx.w.pips_of(current) or None  # the die as it was when it was changed
            relocate(ctx, current, lambda d: change(ctx, d))
            ctx.w.emit(event, die=die.id, player=die.owner, pips=before)
        return not dice, [d.id for d in dice]

    return run


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
        ctx.w.emit(EventType.TAKEN, die=die.id, player=die.owner, pips=before)
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
        w.emit(EventType.MOVED, die=die.id, matrix=target)
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
    w.emit(EventType.NEW_MATRIX, matrix=matrix)
    for die in base + extra:
        _place(ctx, w.dice[die.id], matrix)
        w.emit(EventType.MOVED, die=die.id, matrix=matrix)
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
    w.emit(EventType.MANIFESTED, die=top.id, shrines=[s.id for s in shrines])
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
        w.emit(EventType.PIPS, die=die.id, pips=max(1, min(6, new)))
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
        w.emit(EventType.PIPS, die=die.id, pips=pips)
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
    colours = frozenset(as_list(colour)) if colour else frozenset(COLOURS)
    pips = int(part.pips)
    spells = [s for p in ([pips] if pips else range(1, 7))
              for s in castable(w, ctx.caster, colours, p, nested=True)]  # fmt: skip
    if not spells:
        return True, []
    slug = ctx.choose(ctx.caster, "felsenfeuer.ask.cast", [s.slug for s in spells])
    ctx.pushes.append(Entry(EntryKind.SPELL, spell=slug, caster=ctx.caster))
    w.emit(EventType.CAST, player=ctx.caster, spell=slug, nested=True)
    return False, []


def _v_cauldron(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    w = ctx.w
    dp = w.duellplatz()
    seats = pick_players(ctx, part.players, part.pick)
    if dp < 0 or not seats:
        return True, []
    for seat in seats:
        w.cauldrons[seat] = dp
        w.emit(EventType.CAULDRON, player=seat, matrix=dp)
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
            w.emit(EventType.ESSENCE_GAINED, player=seat, die=die.id)
            gained.append(seat)
    return not gained, gained


def _v_set_caster(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    seats = players_of(ctx, part.players)
    if not seats:
        return True, []
    ctx.caster = seats[0]
    ctx.w.emit(EventType.CASTER, player=seats[0])
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
        w.emit(EventType.LAID, die=die.id, player=die.owner, pips=pips, matrix=dp)
    return not dice, [d.id for d in dice]


def _v_float(ctx: Ctx, part: Any) -> tuple[bool, list[int]]:
    """Runes float over the Duellplatz as it stood when the sentence began (the Spruchrune
    among them takes the Duellplatz away only from the following effects)."""
    dp = ctx.w.duellplatz()
    run = _simple(lambda c, d: replace(d, zone=Zone.FLOAT, matrix=dp, glyph=False, frozen=False),
                  "felsenfeuer.ask.float", EventType.FLOATED)  # fmt: skip
    result: tuple[bool, list[int]] = run(ctx, part)
    return result


def _hand1(ctx: Ctx, d: Die) -> Die:
    if not ctx.w.has_hand(d.owner):
        raise SkipSentence
    return replace(d, zone=Zone.HAND, matrix=-1, pips=0, glyph=False, frozen=False, hand=1)


_IMPL: dict[str, Callable[[Ctx, Any], tuple[bool, list[int]]]] = {
    "trigger": _v_trigger,
    "ban": _simple(
        lambda c, d: replace(d, glyph=False, frozen=False), "felsenfeuer.ask.ban", EventType.BANNED
    ),
    "reactivate": _simple(
        lambda c, d: replace(d, glyph=True), "felsenfeuer.ask.reactivate", EventType.REACTIVATED
    ),
    "freeze": _simple(
        lambda c, d: replace(d, frozen=True), "felsenfeuer.ask.freeze", EventType.FROZEN
    ),
    "thaw": _simple(
        lambda c, d: replace(d, frozen=False), "felsenfeuer.ask.thaw", EventType.THAWED
    ),
    "float": _v_float,
    "second_hand": _simple(_hand1, "felsenfeuer.ask.second_hand", EventType.SECOND_HAND),
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
