"""The Felsenfeuer engine: setup, the action phase, the spell phase and its resolution stack,
the end of the duel, behind the house's engine contract."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engines.core.contract import Decision, DecisionKind, Event, JsonDict, Outcome, PlayerId
from engines.core.errors import BadInput, IllegalAction
from engines.core.rng import Rng
from engines.effects import NeedDecision
from engines.felsenfeuer import verbs
from engines.felsenfeuer.actions import (
    Action,
    Auswahl,
    Blut,
    Draft,
    Ende,
    Essenz,
    Lege,
    Schwebe,
    Wahl,
    Wuerfle,
    action_text,
    parse,
)
from engines.felsenfeuer.model import (
    COLOURS,
    ROLLS,
    SCHEMA,
    STORED,
    Die,
    Entry,
    EntryKind,
    Mode,
    Pending,
    Phase,
    Result,
    Roll,
    Rules,
    Settings,
    State,
    Way,
    Zone,
)
from engines.felsenfeuer.spells import Spell, book_for, spellbook_with
from engines.felsenfeuer.work import Work

HAND_SIZE = 8  # dice in an Auswahl
_CONFIG = {"teams", "mode", "rules", "auswahl", "supply", "start", "phase_limit", "quiet_limit",
           "weltentor", "spells", "cap", "wuerfeln", "erdbeben"}  # fmt: skip
VORSTEHER = {0: 1, 1: 4}  # Gilden-Duell: the Vorsteher of each team (seats 0-2 and 3-5)
MAX_UNITS = 5000  # resolution units in one apply before the remaining magic fizzles


def _int(config: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = config.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadInput("felsenfeuer.error.bad_config", option=key)
    return value


def _spells(config: Mapping[str, Any]) -> str:
    """The config's own spell file (``spells``: TOML text), checked like the shipped ones."""
    text = config.get("spells", "") or ""
    if not isinstance(text, str):
        raise BadInput("felsenfeuer.error.bad_config", option="spells")
    if text:
        spellbook_with(text)
    return text


def settings_of(config: Mapping[str, Any], seed: int, players: int) -> tuple[Settings, Rng]:
    unknown = set(config) - _CONFIG
    if unknown:
        raise BadInput("felsenfeuer.error.bad_config", option=sorted(unknown)[0])
    if not 2 <= players <= 6:
        raise BadInput("error.player_count", min=2, max=6)
    rules = config.get("rules", "adept")
    mode = config.get("mode", "") or ""
    auswahl = config.get("auswahl", "sealed")
    if rules not in ("adept", "magister"):
        raise BadInput("felsenfeuer.error.bad_config", option="rules")
    if auswahl not in ("sealed", "draft"):
        raise BadInput("felsenfeuer.error.bad_config", option="auswahl")
    teams = tuple(config.get("teams") or ())
    if mode == "pentagramm" and (players != 5 or teams):
        raise BadInput("felsenfeuer.error.mode_players", mode=mode, players=5)
    if mode == "gilde":
        if players != 6 or (teams and teams != (0, 0, 0, 1, 1, 1)):
            raise BadInput("felsenfeuer.error.mode_players", mode=mode, players=6)
        teams = (0, 0, 0, 1, 1, 1)
    elif mode and mode != "pentagramm":
        raise BadInput("felsenfeuer.error.bad_config", option="mode")
    if teams and (len(teams) != players or not all(isinstance(t, int) for t in teams)):
        raise BadInput("error.bad_teams", players=players)
    per_colour = _int(config, "supply", 8 * ((players + 1) // 2), 1, 99)
    if per_colour * len(COLOURS) < HAND_SIZE * players:
        raise BadInput("felsenfeuer.error.bad_config", option="supply")
    cap = config.get("cap", "supply" in config)  # a physical supply: shares per colour
    if not isinstance(cap, bool):
        raise BadInput("felsenfeuer.error.bad_config", option="cap")
    roll = config.get("wuerfeln", "") or ""
    if roll not in ROLLS:
        raise BadInput("felsenfeuer.error.bad_config", option="wuerfeln")
    quake = config.get("erdbeben", False)
    if not isinstance(quake, bool):
        raise BadInput("felsenfeuer.error.bad_config", option="erdbeben")
    rng = Rng(seed)
    start = config.get("start", "random")
    if start == "random":
        start, rng = rng.randint(0, players - 1)
    elif not isinstance(start, int) or not 0 <= start < players:
        raise BadInput("felsenfeuer.error.bad_config", option="start")
    settings = Settings(
        players=players, rules=Rules(rules), mode=Mode(mode), teams=teams, auswahl=Way(auswahl),
        supply=(per_colour,) * len(COLOURS),
        phase_limit=_int(config, "phase_limit", 60, 1, 1000),
        quiet_limit=_int(config, "quiet_limit", 16, 1, 1000), start=start,
        weltentor=config.get("weltentor", False) is True, spells=_spells(config), cap=cap,
        roll=Roll(roll), quake=quake,
    )  # fmt: skip
    return settings, rng


def initial(config: Mapping[str, Any], seed: int, players: int) -> State:
    settings, rng = settings_of(config, seed, players)
    phase = Phase.DRAFT if settings.auswahl is Way.DRAFT else Phase.AUSWAHL
    return State(settings, phase, markers=(0,) * players, cauldrons=(-1,) * players,
                 stone=settings.start, auswahl=("",) * players, rng=rng)  # fmt: skip


# --- codes --------------------------------------------------------------------------------------
def auswahl_cap(state: State) -> int:
    """The most dice of one colour an Auswahl may take: all of them, or with the setting
    ``cap`` a seat's share of the colour's supply."""
    s = state.settings
    return min(HAND_SIZE, s.supply[0] // s.players) if s.cap else HAND_SIZE


def auswahl_codes(state: State) -> list[str]:
    """Every Auswahl written ``2-2-4-0-0`` (``auswahl_counts``)."""
    return ["-".join(str(n) for n in counts) for counts in auswahl_counts(state)]


def auswahl_counts(state: State) -> list[tuple[int, ...]]:
    """Every Auswahl (dice per colour, 8 in all). "Keine Obergrenze" per colour (Teil 2); with
    the setting ``cap`` (a group with a physical supply) within a seat's share of it."""
    cap = auswahl_cap(state)
    codes: list[tuple[int, ...]] = []

    def walk(prefix: list[int], left: int) -> None:
        if len(prefix) == len(COLOURS) - 1:
            if left <= cap:
                codes.append((*prefix, left))
            return
        for count in range(min(cap, left), -1, -1):
            walk([*prefix, count], left - count)

    walk([], HAND_SIZE)
    return codes


_LAST_SITUATION: tuple[State | None, str] = (None, "")  # a state is asked twice per step


def situation(state: State) -> str:
    """The hash of everything relevant to play (the Wiederholungsregel's "identical"): not
    the counters, the RNG or the record of earlier situations; between spell phases not the
    last Spruchrune either (it plays no part until the next trigger). The last state's hash
    is remembered (a step asks for it when it checks the action and when it records it)."""
    global _LAST_SITUATION
    last, known = _LAST_SITUATION
    if last is state:
        return known
    found = _situation(state)
    _LAST_SITUATION = (state, found)
    return found


def _situation(state: State) -> str:
    tops = {d.shrine_of for d in state.dice if d.shrine_of >= 0}
    if state.stack:  # while spells run, dice are named by id (bindings, offers, effects)
        dice: Any = state.dice
    else:  # between spell phases two dice of one owner and colour are interchangeable
        dice = sorted((d.owner, d.colour, d.zone, d.matrix, d.pips, d.hand, d.glyph, d.frozen,
                       d.shrine_of >= 0, d.id in tops) for d in state.dice)  # fmt: skip
    key = (
        state.phase, dice, state.markers, state.cauldrons, state.matrices, state.stone,
        state.passes, state.laid, state.spell_rune if state.stack else -1, state.place,
        state.no_place, state.stack,
        state.out, state.winners, state.auswahl,
    )  # fmt: skip
    return hashlib.blake2b(repr(key).encode(), digest_size=8).hexdigest()


def essence_order(state: State) -> list[int]:
    n = state.settings.players
    return [(state.settings.start + i) % n for i in range(n)]


# --- the resolution driver --------------------------------------------------------------------
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
    w.emit("spell_phase", player=w.stone)
    if w.base.settings.quake:  # the action phase ends with the Erdbeben
        w.stack.append(Entry(EntryKind.QUAKE))


QUAKE_ZONES = ("matrix", "float")  # the runes lying out (essences stand on their markers)


def quake(ctx: verbs.Ctx) -> None:
    """The house event "Erdbeben" (Teil 3, Szenarios): the runes lying out with the lowest
    pips (on a matrix, glyphs included, and floating) are destroyed, all at once; shrines are
    spared (Tempel-Regel), a temple rune asks whether they come along. Essences are not hit
    (RULES.md 35)."""
    w = ctx.w
    dice = [d for d in w.dice if d.zone in QUAKE_ZONES and d.shrine_of < 0 and w.alive(d.owner)]
    low = min((w.pips_of(d) for d in dice), default=0)
    hit = [d for d in dice if w.pips_of(d) == low]  # none lying out: nothing to destroy
    w.emit("quake", pips=low, count=len(hit))
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
            w.emit("spell_done", spell=entry.spell, player=entry.caster)
            return None
        step = spell.steps[entry.step]
        lapsed = verbs.run_step(ctx, step)
        w.emit("step", spell=entry.spell, step=entry.step, lapsed=lapsed)
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
            w.emit("no_spell", player=die.owner, die=die.id)
            return None
        slug = ctx.choose(die.owner, "felsenfeuer.ask.cast",
                          [*[s.slug for s in spells], "keiner"], forced=False)  # fmt: skip
        if slug == "keiner":
            w.emit("no_spell", player=die.owner, die=die.id)
            return None
        w.make_spruchrune(die.id)
        w.emit("cast", player=die.owner, spell=slug, nested=nested)
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
        w.emit("blood_magic", player=entry.caster, spell=entry.spell)
        return Entry(EntryKind.SPELL, spell=entry.spell, caster=entry.caster, blood=True)
    if entry.kind == "quake":
        quake(ctx)
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
    w.emit("game_over", winners=list(w.winners), reason=Result.EXHAUSTED)


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
        w.emit("eliminated", player=seat, reason=reason)
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
    w.emit("game_over", winners=winners, reason=reason)


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
            trial.emit("step", spell=entry.spell, step=entry.step, lapsed=True)
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
    w.emit("fizzled")
    if w.phase == "spell":
        w.phase, w.passes, w.laid = Phase.ACTION, 0, False
    return w


# --- the engine ---------------------------------------------------------------------------------
def _hand_colours(state: State, seat: int, hand: int) -> list[str]:
    have = {d.colour for d in state.dice if d.owner == seat and d.zone == "hand" and d.hand == hand}
    return [c for c in COLOURS if c in have]


def _matrices_of(state: State, seat: int) -> list[int]:
    return sorted({d.matrix for d in state.dice
                   if d.owner == seat and d.zone in ("matrix", "essence")})  # fmt: skip


def raw_actions(state: State, player: PlayerId) -> list[Action]:
    if state.phase == "end" or player in state.out:
        return []
    if state.pending is not None:
        if player != state.pending.seat:
            return []
        return [Wahl(o) for o in state.pending.options]
    if state.phase == "auswahl":
        if state.auswahl[player]:
            return []
        return [Auswahl(c) for c in auswahl_counts(state)]
    seat = current_setup_seat(state)
    if state.phase == "draft":
        if player != seat:
            return []
        taken = {c: 0 for c in COLOURS}
        for d in state.dice:
            taken[d.colour] += 1
        return [Draft(c) for i, c in enumerate(COLOURS)
                if taken[c] < state.settings.supply[i]]  # fmt: skip
    if state.phase == "essence":
        if player != seat:
            return []
        picked = [d for d in state.dice if d.owner == player and d.zone == "picked"]
        have = {d.colour for d in picked}
        options: list[Action] = [Essenz(c) for c in COLOURS if c in have]
        chosen = sum(1 for d in state.dice if d.owner == player and d.zone == "essence")
        if state.settings.weltentor and len(picked) > 2 - chosen:  # Weltentor rule 3
            options += [Schwebe(c, p) for c in COLOURS if c in have
                        for p in range(1, 7)]  # fmt: skip
        return options
    if state.phase == "roll":
        if player != roll_seat(state):
            return []
        return [Wuerfle(c) for c in _hand_colours(state, player, 0)]
    if state.phase != "action" or state.stack or player != state.stone:
        return []
    acts: list[Action] = []
    matrices = _matrices_of(state, player)
    for hand in (0, 1):
        for colour in _hand_colours(state, player, hand):
            for pips in range(1, 7):
                for m in matrices:
                    acts.append(Lege(colour, pips, m, hand))
    acts.append(Ende())
    if state.settings.rules == "magister":
        base: Work | None = None
        for spell in book_for(state.settings.spells).values():
            if not spell.blood:
                continue
            paid = sum(d.pips for d in state.dice if d.owner == player and d.zone == "essence"
                       and d.colour == spell.colour)  # fmt: skip
            if paid < spell.pips:
                continue
            base = base or Work(state)
            if _blood_would_act(base, spell, player):
                acts.append(Blut(spell.slug))
    return acts


def _blood_would_act(base: Work, spell: Spell, player: int) -> bool:
    """Whether the blood spell, once paid for, would do anything (else it is not offered:
    paying essence for a spell whose every sentence lapses helps nobody)."""
    if not spell.reads_essences:
        return verbs.could_act(base, spell, player)
    w = base.copy()
    for _ in range(spell.pips):  # pay as the blood entry does, from the first essence offered
        die = next(d for d in w.dice if d.owner == player and d.zone == "essence"
                   and d.colour == spell.colour and d.pips > 0)  # fmt: skip
        w.set(
            replace(die, pips=die.pips - 1)
            if die.pips > 1
            else replace(die, zone=Zone.BAG, matrix=-1, pips=0)
        )
    return verbs.could_act(w, spell, player)


def current_setup_seat(state: State) -> int:
    """Whose pick it is: in the order from the start player, the first seat still in the duel
    with the fewest dice drafted (draft) or essences chosen (essence)."""
    zone = "essence" if state.phase == "essence" else None
    counts = {s: 0 for s in essence_order(state) if s not in state.out}
    for d in state.dice:
        if d.owner in counts and (zone is None or d.zone == zone):
            counts[d.owner] += 1
    low = min(counts.values())
    return next(s for s, c in counts.items() if c == low)


def legal(state: State, player: PlayerId) -> list[Action]:
    acts = raw_actions(state, player)
    if len(acts) > 1 and state.phase in ("action", "spell") and state.seen:
        last = dict(state.seen).get(situation(state))
        if last is not None:  # Wiederholungsregel: not the same decision again
            kept = [a for a in acts if action_text(a) != last]
            acts = kept or acts
    return acts


def play(state: State, act: Action, player: PlayerId) -> tuple[State, list[Event]]:
    if state.phase == "end":
        raise IllegalAction("felsenfeuer.error.game_over")
    if act not in legal(state, player):
        raise IllegalAction(_why(state, act, player))
    w = Work(state)
    seen = state.seen
    if state.phase in ("action", "spell"):
        key = situation(state)
        text = action_text(act)
        seen = (*tuple((k, v) for k, v in state.seen if k != key), (key, text))
    if isinstance(act, Wahl):
        top = w.stack[-1]
        w.stack[-1] = replace(top, answers=(*top.answers, act.token))
        w.pending = None
        token = act.token
        prompt = state.pending.prompt if state.pending is not None else ""
        if token[:1] == "d" and token[1:].isdigit() and int(token[1:]) < len(w.dice):
            die = w.dice[int(token[1:])]  # as it lies when chosen (the spell may change it)
            w.emit("chose", player=player, token=token, pips=w.pips_of(die) or None,
                   zone=die.zone, matrix=die.matrix, glyph=die.glyph, prompt=prompt)  # fmt: skip
        else:
            w.emit("chose", player=player, token=token, prompt=prompt)
    elif isinstance(act, Auswahl):
        chosen = list(state.auswahl)
        chosen[player] = act.code
        w.emit("auswahl_chosen", player=player)
        if all(chosen[x] for x in range(w.players) if w.alive(x)):
            _reveal(w, chosen)
            chosen = [""] * len(chosen)
        return _frozen(w, seen, auswahl=tuple(chosen)), w.events
    elif isinstance(act, Draft):
        w.dice.append(Die(len(w.dice), player, act.colour))
        w.emit("drafted", player=player, colour=act.colour)
        alive = [x for x in range(w.players) if w.alive(x)]
        if len(w.dice) >= HAND_SIZE * len(alive) and all(
            sum(1 for d in w.dice if d.owner == x) >= HAND_SIZE for x in alive
        ):
            w.phase = Phase.ESSENCE
        return _frozen(w, seen), w.events
    elif isinstance(act, Essenz):
        die = next(d for d in w.dice if d.owner == player and d.zone == "picked"
                   and d.colour == act.colour)  # fmt: skip
        s = state.settings
        pips = 4 if s.mode == "gilde" and player not in VORSTEHER.values() else 6
        w.set(replace(die, zone=Zone.ESSENCE, matrix=0, pips=pips))
        w.emit("essence_chosen", player=player, colour=act.colour, pips=pips)
        _maybe_start(w)
        return _frozen(w, seen), w.events
    elif isinstance(act, Schwebe):  # a floating rune over the start surface (Weltentor)
        die = next(d for d in w.dice if d.owner == player and d.zone == "picked"
                   and d.colour == act.colour)  # fmt: skip
        w.set(replace(die, zone=Zone.FLOAT, matrix=0, pips=act.pips))
        w.emit("floated", player=player, die=die.id, colour=die.colour, pips=act.pips)
        return _frozen(w, seen), w.events
    elif isinstance(act, Wuerfle):  # Teil 3 scenario: a hand rune rolled onto the start surface
        die = next(d for d in w.dice if d.owner == player and d.zone == "hand"
                   and d.colour == act.colour)  # fmt: skip
        pips, rng = state.rng.randint(1, 6)
        glyph = state.settings.roll == "glyphen"
        w.set(replace(die, zone=Zone.MATRIX, matrix=0, pips=pips, glyph=glyph, hand=0))
        w.emit("rolled", player=player, die=die.id, colour=die.colour, pips=pips, glyph=glyph)
        if roll_seat(w.freeze()) < 0:
            _maybe_start(w)
        return _frozen(w, seen, rng=rng), w.events
    elif isinstance(act, Lege):
        colour, pips, matrix, hand = act.colour, act.pips, act.matrix, act.hand
        die = next(d for d in w.dice if d.owner == player and d.zone == "hand"
                   and d.hand == hand and d.colour == colour)  # fmt: skip
        w.set(replace(die, zone=Zone.MATRIX, matrix=matrix, pips=pips, glyph=True, hand=0))
        w.laid = True
        w.emit("laid", player=player, die=die.id, colour=colour, pips=pips, matrix=matrix)
    elif isinstance(act, Ende):
        w.passes = 0 if w.laid else w.passes + 1
        w.emit("turn_ended", player=player, passed=not w.laid)
        w.laid = False
        if w.passes >= len([x for x in range(w.players) if w.alive(x)]):
            start_spell_phase(w)
        else:
            w.stone = w.next_seat(player)
    elif isinstance(act, Blut):
        w.stack = [Entry(EntryKind.NEXT), Entry(EntryKind.BLOOD, spell=act.spell, caster=player)]
    w = settle(w)
    return _frozen(w, seen), w.events


def _maybe_start(w: Work) -> None:
    """Once every seat in the duel has two essences, the rest of the Auswahl goes to hand."""
    alive = [x for x in range(w.players) if w.alive(x)]
    if w.phase == "end" or any(
        sum(1 for d in w.dice if d.owner == x and d.zone == "essence") < 2 for x in alive
    ):
        return
    for d in list(w.dice):
        if d.zone == "picked":
            w.set(replace(d, zone=Zone.HAND, hand=0))
    if w.base.settings.roll and w.phase != "roll":
        w.phase = Phase.ROLL  # first three hand runes each are rolled onto the start surface
        if roll_seat(w.freeze()) >= 0:
            return
    w.phase = Phase.ACTION
    w.stone = w.base.settings.start
    if not w.alive(w.stone):
        w.stone = w.next_seat(w.stone)
    w.emit("duel_started", player=w.stone)


ROLLED = 3  # hand runes each seat rolls in the Teil 3 scenario


def roll_seat(state: State) -> int:
    """Whose roll it is (scenario ``wuerfeln``): in the order from the start player, the first
    seat still in the duel with the fewest runes rolled that has yet to roll; -1 when all
    rolled three (or have no hand rune left)."""
    rolled = {s: 0 for s in essence_order(state) if s not in state.out}
    hand = dict.fromkeys(rolled, 0)
    for d in state.dice:
        if d.owner in rolled:
            rolled[d.owner] += d.zone == "matrix"
            hand[d.owner] += d.zone == "hand"
    open_ = {s: n for s, n in rolled.items() if n < ROLLED and hand[s]}
    if not open_:
        return -1
    low = min(open_.values())
    return next(s for s, n in open_.items() if n == low)


def _frozen(w: Work, seen: tuple[tuple[str, str], ...], **more: Any) -> State:
    state = w.freeze()
    return replace(state, seen=seen, serial=state.serial + 1, **more)


def _reveal(w: Work, chosen: list[str]) -> None:
    for seat, code in enumerate(chosen):
        if not code or seat in w.out:
            continue
        for colour, count in zip(COLOURS, code.split("-"), strict=True):
            for _ in range(int(count)):
                w.dice.append(Die(len(w.dice), seat, colour))
    w.phase = Phase.ESSENCE
    w.emit("auswahl_shown", auswahl=chosen)


def _why(state: State, act: Action, player: PlayerId) -> str:
    if player in state.out:
        return "felsenfeuer.error.out"
    if not raw_actions(state, player):
        return "felsenfeuer.error.not_your_turn"
    if act in raw_actions(state, player):
        return "felsenfeuer.error.repetition"
    return "felsenfeuer.error.illegal"


def decisions_of(state: State) -> tuple[Decision, ...]:
    if state.phase == "end":
        return ()
    if state.pending is not None:
        p = state.pending
        return (Decision(p.seat, f"c{state.serial}", DecisionKind.CHOICE, p.prompt,
                         dict(p.params)),)  # fmt: skip
    if state.phase == "auswahl":
        return tuple(Decision(s, f"auswahl{s}", DecisionKind.SEALED, "felsenfeuer.ask.auswahl")
                     for s in range(state.settings.players)
                     if not state.auswahl[s] and s not in state.out)  # fmt: skip
    if state.phase == "roll":
        return (Decision(roll_seat(state), f"s{state.serial}", DecisionKind.TURN,
                         "felsenfeuer.ask.roll"),)  # fmt: skip
    if state.phase in ("draft", "essence"):
        seat = current_setup_seat(state)
        prompt = "felsenfeuer.ask.draft" if state.phase == "draft" else "felsenfeuer.ask.essence"
        return (Decision(seat, f"s{state.serial}", DecisionKind.TURN, prompt),)
    if state.phase == "action" and not state.stack:
        return (Decision(state.stone, f"t{state.serial}", DecisionKind.TURN,
                         "felsenfeuer.ask.turn"),)  # fmt: skip
    return ()


def outcome_of(state: State) -> Outcome | None:
    if state.phase != "end":
        return None
    winners = frozenset(state.winners)
    places: list[frozenset[int]] = [winners] if winners else []
    alive = frozenset(s for s in range(state.settings.players)
                      if s not in state.out and s not in winners)  # fmt: skip
    if alive:
        places.append(alive)
    places += [frozenset({s}) for s in reversed(state.out) if s not in winners]
    return Outcome(winners, state.result, tuple(places), tuple(state.out))


def eliminate_seat(state: State, player: PlayerId) -> tuple[State, list[Event]]:
    w = Work(state)
    if state.phase in ("auswahl", "draft", "essence", "roll"):
        w.out.append(player)
        for die in list(w.dice):
            if die.owner == player:
                w.set(replace(die, zone=Zone.OUT))
        w.emit("eliminated", player=player, reason="left")
        check_end(w)
        if state.phase == "auswahl":
            chosen = list(state.auswahl)
            chosen[player] = ""
            if any(chosen) and all(chosen[x] for x in range(w.players) if w.alive(x)):
                _reveal(w, chosen)
                chosen = [""] * len(chosen)
            return _frozen(w, state.seen, auswahl=tuple(chosen)), w.events
        if state.phase == "essence" or (state.phase == "roll" and roll_seat(w.freeze()) < 0):
            _maybe_start(w)
        elif state.phase == "draft" and all(sum(1 for d in w.dice if d.owner == x) >= HAND_SIZE
                 for x in range(w.players) if w.alive(x)):  # fmt: skip
            w.phase = Phase.ESSENCE
        return _frozen(w, state.seen), w.events
    w.pending = None
    if w.stack:
        w.stack[-1] = replace(w.stack[-1], answers=())
    knock_out(w, [player], "left")
    if w.phase == "action" and not w.stack and w.stone == player:
        w.stone = w.next_seat(player)
    w = settle(w)
    return _frozen(w, state.seen), w.events


class FelsenfeuerEngine:
    """Felsenfeuer for 2-6 seats (rules as played: data/felsenfeuer/RULES.md)."""

    name = "felsenfeuer"
    version = SCHEMA
    min_players = 2
    max_players = 6
    bot_levels = ("random", "normal", "hard")

    def initial_state(self, config: Mapping[str, Any], seed: int, players: int) -> State:
        return initial(config, seed, players)

    def decisions(self, state: State) -> tuple[Decision, ...]:
        return decisions_of(state)

    def legal_actions(self, state: State, player: PlayerId) -> Sequence[Action]:
        return legal(state, player)

    def apply(self, state: State, action: Action, player: PlayerId) -> tuple[State, list[Event]]:
        return play(state, action, player)

    def eliminate(self, state: State, player: PlayerId) -> tuple[State, list[Event]]:
        return eliminate_seat(state, player)

    def view_for(self, state: State, player: PlayerId | None) -> JsonDict:
        from engines.felsenfeuer.view import view

        return view(state, player)

    def outcome(self, state: State) -> Outcome | None:
        return outcome_of(state)

    def secrets_of(self, state: State, player: PlayerId) -> set[str]:
        if state.phase == "auswahl" and state.auswahl[player]:
            return {f"auswahl:{state.auswahl[player]}"}
        return set()

    def action_visible_to(
        self, state: State, action: Action, player: PlayerId
    ) -> frozenset[int] | None:
        return frozenset({player}) if isinstance(action, Auswahl) else None

    def parse_action(self, text: str) -> Action:
        return parse(text)

    def action_text(self, action: Action) -> str:
        return action_text(action)

    def action_path(self, action: Action) -> tuple[str, ...]:
        if isinstance(action, Auswahl):
            return ("auswahl", *[f"{c}{n}" for c, n in zip(COLOURS, action.counts, strict=True)])
        return (action.verb, *action.args)

    def choose_action(self, state: State, player: PlayerId, level: str, budget_s: float,
                      rng: random.Random) -> Action:  # fmt: skip
        from engines.felsenfeuer.ai import choose

        return choose(state, player, level, rng)

    def state_to_json(self, state: State) -> JsonDict:
        return STORED.dump(state)

    def state_from_json(self, data: JsonDict) -> State:
        """Raises BadInput for data of an unknown schema version or of another shape."""
        return STORED.load(data)


ENGINE = FelsenfeuerEngine()
