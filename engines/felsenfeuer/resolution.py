"""The resolution driver: the spell phase's stack run unit by unit (a spell's sentence, the
trigger of the lowest glyph, a cast offer, blood magic, the Erdbeben, the end of the phase) on
a working copy kept only when the unit completes, until a decision is open; the initiative,
seats knocked out and the end of the duel."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engines.effects import NeedDecision
from engines.felsenfeuer import verbs
from engines.felsenfeuer.codes import VORSTEHER
from engines.felsenfeuer.events import EventType
from engines.felsenfeuer.model import Entry, EntryKind, Pending, Phase, Result, Zone
from engines.felsenfeuer.spells import book_for
from engines.felsenfeuer.work import Work

MAX_UNITS = 5000  # resolution units in one apply before the remaining magic fizzles
QUAKE_ZONES = ("matrix", "float")  # the runes lying out (essences stand on their markers)


def give_initiative(w: Work, seat: int) -> None:
    if not w.alive(seat):
        seat = w.next_seat(seat)
    if w.base.settings.mode == "gilde" and seat not in VORSTEHER.values():
        vorsteher = VORSTEHER[w.team(seat)]
        if w.alive(vorsteher):
            seat = vorsteher
    w.stone = seat


def start_spell_phase(w: Work) -> None:
    w.phase = Phase.SPELL
    give_initiative(w, w.stone)
    total = sum(w.essence_points(s) for s in range(w.players))
    w.stack = [Entry(EntryKind.END, die=total), Entry(EntryKind.PHASE)]
    if w.base.settings.quake:  # the action phase ends with the Erdbeben: the spell phase is
        w.stack.append(Entry(EntryKind.QUAKE))  # announced once it has shaken (``_run_entry``)
    else:
        w.emit(EventType.SPELL_PHASE, player=w.stone)


def quake(ctx: verbs.Ctx) -> None:
    """The house event "Erdbeben" (Teil 3, Szenarios): the runes lying out with the lowest
    pips (on a matrix, glyphs included, and floating) are destroyed, all at once; shrines are
    spared (Tempel-Regel), a temple rune asks whether they come along. Essences are not hit
    (RULES.md 35)."""
    w = ctx.w
    dice = [d for d in w.dice if d.zone in QUAKE_ZONES and d.shrine_of < 0 and w.alive(d.owner)]
    low = min((w.pips_of(d) for d in dice), default=0)
    hit = [d for d in dice if w.pips_of(d) == low]  # none lying out: nothing to destroy
    w.emit(EventType.QUAKE, pips=low, count=len(hit))
    for die in hit:  # chosen first, then destroyed (simultaneous change)
        verbs.destroy(ctx, die)


def _run_entry(ctx: verbs.Ctx) -> Entry | None:
    """One unit of the top entry; returns its replacement (None: it is done)."""
    w, entry = ctx.w, ctx.entry
    if entry.kind == "spell":
        spell = book_for(w.base.settings.spells)[entry.spell]
        if entry.step >= len(spell.steps) or not w.alive(entry.caster):
            if not entry.blood and w.phase == "spell" and w.alive(entry.caster):
                give_initiative(w, entry.caster)
            w.emit(EventType.SPELL_DONE, spell=entry.spell, player=entry.caster)
            return None
        step = spell.steps[entry.step]
        lapsed = verbs.run_step(ctx, step)
        w.emit(EventType.STEP, spell=entry.spell, step=entry.step, lapsed=lapsed)
        return replace(entry, step=entry.step + 1, answers=(), caster=ctx.caster,
                       mods=entry.mods + tuple(ctx.new_mods),
                       bind=tuple(sorted(ctx.binds.items())))  # fmt: skip
    if entry.kind == "phase":
        candidates = [d for d in w.glyphs() if d.shrine_of < 0]
        if not candidates:
            verbs.renew(ctx)
            return None
        live = [d for d in candidates if not d.frozen] or candidates
        low = min(w.pips_of(d) for d in live)
        tied = [d for d in live if w.pips_of(d) == low]
        seat = next(s for s in w.initiative_order() if any(d.owner == s for d in tied))
        own = verbs.distinct(w, [d for d in tied if d.owner == seat])
        token = ctx.choose(seat, "felsenfeuer.ask.tie", [f"d{d.id}" for d in own])
        verbs.trigger(ctx, w.dice[int(token[1:])])
        return None
    if entry.kind == "offer":
        die = w.dice[entry.die]
        if not w.alive(die.owner) or die.zone not in ("matrix", "essence", "float"):
            return None
        nested = any(e.kind == "spell" for e in w.stack)
        probe = w.copy()  # the rune as it counted while it was a glyph (effects on glyphs)
        probe.dice[die.id] = replace(die, glyph=True)
        colours, pips = probe.colours_of(probe.dice[die.id]), probe.pips_of(probe.dice[die.id])
        spells = verbs.castable(w, die.owner, colours, pips, nested)
        if not spells:
            w.emit(EventType.NO_SPELL, player=die.owner, die=die.id)
            return None
        slug = ctx.choose(die.owner, "felsenfeuer.ask.cast",
                          [*[s.slug for s in spells], "keiner"], forced=False)  # fmt: skip
        if slug == "keiner":
            w.emit(EventType.NO_SPELL, player=die.owner, die=die.id)
            return None
        w.make_spruchrune(die.id)
        w.emit(EventType.CAST, player=die.owner, spell=slug, nested=nested)
        return Entry(EntryKind.SPELL, spell=slug, caster=die.owner)
    if entry.kind == "blood":
        spell = book_for(w.base.settings.spells)[entry.spell]
        for _ in range(spell.pips):
            paying = [d for d in w.dice if d.owner == entry.caster and d.zone == "essence"
                      and d.colour == spell.colour and d.pips > 0]  # fmt: skip
            if not paying:
                break
            token = ctx.choose(entry.caster, "felsenfeuer.ask.blood",
                               [f"d{d.id}" for d in verbs.distinct(w, paying)])  # fmt: skip
            die = w.dice[int(token[1:])]
            w.lost = True
            if die.pips <= 1:
                w.send_to_bag(die)
            else:
                w.set(replace(die, pips=die.pips - 1))
        w.emit(EventType.BLOOD_MAGIC, player=entry.caster, spell=entry.spell)
        return Entry(EntryKind.SPELL, spell=entry.spell, caster=entry.caster, blood=True)
    if entry.kind == "quake":  # the end of the action phase, told before the spell phase
        quake(ctx)
        w.emit(EventType.SPELL_PHASE, player=w.stone)
        return None
    if entry.kind == "next":  # a blood spell ended its caster's turn
        w.passes, w.laid = 0, False
        w.stone = w.next_seat(w.stone)
        return None
    # end: the stone comes off the marker
    w.phase = Phase.ACTION
    w.passes, w.laid = 0, False
    w.phases += 1
    total = sum(w.essence_points(s) for s in range(w.players))
    w.quiet = 0 if total < entry.die else w.quiet + 1
    if not w.alive(w.stone):
        w.stone = w.next_seat(w.stone)
    s = w.base.settings
    if w.phases >= s.phase_limit or w.quiet >= s.quiet_limit:
        judge(w)
    return None


def judge(w: Work) -> None:
    """A stalled duel ends (RULES.md): the side with the most essence points wins."""
    points: dict[int, int] = {}
    for seat in range(w.players):
        if w.alive(seat):
            points[w.team(seat)] = points.get(w.team(seat), 0) + w.essence_points(seat)
    best = max(points.values())
    top = [team for team, p in points.items() if p == best]
    w.winners = [] if len(top) > 1 else [s for s in range(w.players) if w.team(s) == top[0]]
    w.result = Result.EXHAUSTED
    w.phase = Phase.END
    w.stack = []
    w.emit(EventType.GAME_OVER, winners=list(w.winners), reason=Result.EXHAUSTED)


def knock_out(w: Work, seats: Sequence[int], reason: str) -> None:
    for seat in seats:
        if seat in w.out:
            continue
        w.out.append(seat)
        for die in list(w.dice):
            if die.owner == seat:
                w.set(replace(die, zone=Zone.OUT, glyph=False, frozen=False, shrine_of=-1))
            elif die.shrine_of >= 0 and w.dice[die.shrine_of].owner == seat:
                w.set(replace(die, shrine_of=-1))
        w.stack = [e for e in w.stack
                   if not (e.kind in ("spell", "offer", "blood") and e.caster == seat)]  # fmt: skip
        w.emit(EventType.ELIMINATED, player=seat, reason=reason)
    if w.stone in w.out:
        give_initiative(w, w.next_seat(w.stone))
    check_end(w)


def check_end(w: Work) -> None:
    if w.phase == "end":
        return
    s = w.base.settings
    if w.result is Result.DECLARED:  # a spell named the winners
        _end(w, list(w.winners), Result.DECLARED)
        return
    alive = [x for x in range(w.players) if w.alive(x)]
    if s.mode == "pentagramm":
        for seat in range(5):
            if seat in w.out and (seat + 1) % 5 in w.out:
                opposite = (seat + 3) % 5
                if w.alive(opposite):
                    _end(w, [opposite], Result.PENTAGRAMM)
                    return
    if s.mode == "gilde":
        fallen = [team for team, v in VORSTEHER.items() if v in w.out]
        if fallen:
            winners = [] if len(fallen) == 2 else [x for x in range(6) if w.team(x) != fallen[0]]
            _end(w, winners, Result.VORSTEHER)
            return
    sides = {w.team(x) for x in alive}
    if len(sides) <= 1:
        winners = [x for x in range(w.players) if w.team(x) in sides]
        _end(w, winners, Result.ELIMINATED if winners else Result.ALL_OUT)


def _end(w: Work, winners: list[int], reason: Result) -> None:
    w.winners, w.result, w.phase, w.stack, w.pending = winners, reason, Phase.END, [], None
    w.emit(EventType.GAME_OVER, winners=winners, reason=reason)


def settle(w: Work) -> Work:
    """Resolve until a decision is open or the stack is empty (or the duel ended)."""
    for _ in range(MAX_UNITS):
        if w.phase == "end" or w.pending is not None or not w.stack:
            return w
        trial = w.copy()
        ctx = verbs.Ctx(trial, w.stack[-1])
        try:
            replacement = _run_entry(ctx)
        except NeedDecision as need:
            w.pending = Pending(need.seat, need.prompt, need.options, need.params)
            return w
        except verbs.SkipSentence:
            trial = w.copy()
            entry = w.stack[-1]
            trial.emit(EventType.STEP, spell=entry.spell, step=entry.step, lapsed=True)
            replacement, ctx.pushes = replace(entry, step=entry.step + 1, answers=()), []
        if trial.stack and trial.stack[-1] == ctx.entry:
            trial.stack.pop()
        elif ctx.entry in trial.stack:
            trial.stack.remove(ctx.entry)
        if replacement is not None:
            trial.stack.append(replacement)
        trial.stack.extend(reversed(ctx.pushes))
        w = trial
        playing = w.phase in ("action", "spell")
        dead = [x for x in range(w.players) if playing and w.alive(x) and w.essence_points(x) <= 0]
        if dead:
            knock_out(w, dead, "essence")
        elif w.result is Result.DECLARED:
            check_end(w)
        if w.no_place and not w.spell_running():  # between spells the last trigger's stands
            w.no_place = False
    w.stack = []  # runaway magic: whatever is left fizzles
    w.emit(EventType.FIZZLED)
    if w.phase == "spell":
        w.phase, w.passes, w.laid = Phase.ACTION, 0, False
    return w
