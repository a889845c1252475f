"""Bot players: ``random``; ``normal`` (a heuristic: glyphs for the strongest star spells,
a rune on 5 as a ward, every choice inside a spell judged one step ahead); ``hard`` (each
candidate (the heuristic's choice, its next best glyphs, ending the turn, blood magic; inside
a spell a sample of the options) played out with ``normal`` for everyone to the end of the
next two spell phases, then judged: by the essence points of each side, in the Pentagramm
by the two seats whose fall wins it, in the Gilden-Duell the Vorsteher's weighing again).
Effort is counted in plays, not seconds (deterministic given the rng): a hard decision takes
well under a second, so ``budget_s`` is not needed."""

from __future__ import annotations

import random
from functools import cache

from engines.core.errors import BadInput, IllegalAction
from engines.felsenfeuer.engine import VORSTEHER, Act, decisions_of, legal, play
from engines.felsenfeuer.model import State
from engines.felsenfeuer.spells import book_for
from engines.felsenfeuer.work import Work

_POWER = {"attack": 2.0, "lose_essence": 3.0, "gain_essence": 2.0, "destroy": 1.5,
          "trigger": 1.0, "cast": 2.0, "win": 5.0, "freeze": 0.5, "ban": 1.0}  # fmt: skip


@cache
def spell_power(slug: str, spells: str = "") -> float:
    spell = book_for(spells)[slug]
    power = 0.0
    for step in spell.steps:
        for part in step.get("parts", [step]):
            base = _POWER.get(part["do"], 0.3)
            times = part.get("times", 1)
            amount = part.get("amount", 1)
            likely = 0.3 if "if" in step or "if" in part else 1.0  # a condition seldom holds
            power += base * times * (amount if isinstance(amount, int) else 1) * likely
    return power


def evaluate(state: State, seat: int) -> float:
    w = Work(state)
    if state.phase == "end":
        if not state.winners:
            return 0.0
        return 1000.0 if seat in state.winners else -1000.0
    mine = w.team(seat)
    own = sum(w.essence_points(s) for s in range(w.players) if w.team(s) == mine and w.alive(s))
    foes = [s for s in range(w.players) if w.team(s) != mine and w.alive(s)]
    foe = sum(w.essence_points(s) for s in foes) / max(1, len({w.team(s) for s in foes}))
    hand = sum(1 for d in state.dice if d.owner == seat and d.zone == "hand")
    alive = sum(1 for s in range(w.players) if w.team(s) == mine and w.alive(s)) - len(foes)
    return 10.0 * (own - foe) + 20.0 * alive + 0.3 * hand


def judge(state: State, seat: int) -> float:
    """How good ``state`` is for ``seat`` at the end of a hard rollout: ``evaluate``, in the
    Pentagramm by what wins it (``_pentagram_value``)."""
    if state.phase == "end":
        return evaluate(state, seat)
    if state.settings.mode == "pentagramm":
        return _pentagram_value(state, Work(state), seat)
    if state.settings.mode == "gilde":
        return _guild_value(state, seat)
    return evaluate(state, seat)


def _guild_value(state: State, seat: int) -> float:
    """The Gilden-Duell is lost with the team's Vorsteher (RULES.md 30): beside the teams'
    essence points, each Vorsteher's own points weigh again."""
    w = Work(state)
    mine = w.team(seat)
    leaders = {team: w.essence_points(s) if w.alive(s) else 0 for team, s in VORSTEHER.items()}
    ours = leaders.get(mine, 0)
    theirs = sum(v for team, v in leaders.items() if team != mine)
    return evaluate(state, seat) + 8.0 * (ours - theirs)


def _pentagram_value(state: State, w: Work, seat: int) -> float:
    """The Pentagramm is won when the two seats opposite fall (RULES.md 29): their essence
    points weigh most, the others' less; a fallen opposite seat is half the way."""
    opposite = [(seat + 2) % 5, (seat + 3) % 5]
    points = {s: w.essence_points(s) if w.alive(s) else 0 for s in range(5)}
    target = sum(points[s] for s in opposite)
    others = [points[s] for s in range(5) if s != seat and s not in opposite and w.alive(s)]
    rest = sum(others) / max(1, len(others))
    fallen = sum(1 for s in opposite if not w.alive(s))
    hand = sum(1 for d in state.dice if d.owner == seat and d.zone == "hand")
    return 10.0 * points[seat] - 6.0 * target - 3.0 * rest + 25.0 * fallen + 0.3 * hand


def ranked_lays(state: State, seat: int, acts: list[Act]) -> list[Act]:
    """The heuristic's glyphs, best first: a ward on 5 when unwarded, then the strongest
    star spells (slower spells a little less); none once two own glyphs lie."""
    lays = [a for a in acts if a.verb == "lege"]
    own_glyphs = [d for d in state.dice if d.owner == seat and d.zone == "matrix" and d.glyph]
    if not lays or len(own_glyphs) >= 2:
        return []
    w = Work(state)
    warded = any(d.owner == seat and d.zone == "matrix" and w.pips_of(d) == 5 and
                 d.matrix == state.markers[seat] for d in state.dice)  # fmt: skip
    book = book_for(state.settings.spells)
    adept = state.settings.rules == "adept"
    scored: list[tuple[float, int, Act]] = []
    for index, act in enumerate(lays):
        colour, pips, matrix = act.args[0], int(act.args[1]), int(act.args[2][1:])
        if matrix != state.markers[seat]:
            continue
        spells = [s for s in book.values()
                  if s.colour == colour and s.pips == pips and (s.star or not adept)]  # fmt: skip
        if not spells:
            continue
        score = max(spell_power(s.slug, state.settings.spells) for s in spells) - 0.25 * pips
        if pips == 5 and not warded:
            score += 3.0
        scored.append((score, -index, act))
    return [act for _s, _i, act in sorted(scored, reverse=True)]


def _greedy(state: State, seat: int, acts: list[Act], rng: random.Random) -> Act:
    scored = []
    for act in acts[:24]:
        try:
            after, _ = play(state, act, seat)
        except (IllegalAction, BadInput):
            continue
        scored.append((evaluate(after, seat), rng.random(), act))
    return max(scored)[2] if scored else rng.choice(acts)


def normal(state: State, seat: int, rng: random.Random) -> Act:
    acts = legal(state, seat)
    if not acts:
        raise IllegalAction("felsenfeuer.error.not_your_turn")
    if len(acts) == 1:
        return acts[0]
    verb = acts[0].verb
    if verb == "auswahl":
        prefer = [a for a in acts if a.args[0] in ("2-2-2-0-2", "0-2-3-0-3", "2-0-3-3-0")]
        return prefer[0] if prefer else rng.choice(acts)
    if verb == "essenz":  # Weltentor: float one rune at most, the hand is what it casts with
        floats = [a for a in acts if a.verb == "schwebe"]
        floated = any(d.owner == seat and d.zone == "float" for d in state.dice)
        if floats and not floated and rng.random() < 0.3:
            return rng.choice(floats)
        return rng.choice([a for a in acts if a.verb == "essenz"])
    if verb in ("draft", "wuerfle"):
        return rng.choice(acts)
    if state.phase == "action" and state.pending is None:
        lays = ranked_lays(state, seat, acts)
        if lays:
            return lays[0]
        end = Act("ende")
        return end if end in acts else rng.choice(acts)  # the Wiederholungsregel forbade it
    return _greedy(state, seat, acts, rng)


HORIZON = 2  # spell phases a rollout plays to their end


def rollout(state: State, seat: int, rng: random.Random, limit: int = 120) -> float:
    """Play on with ``normal`` for everyone until ``HORIZON`` more spell phases have ended."""
    goal = state.phases + HORIZON
    for _ in range(limit):
        if state.phase == "end" or state.phases >= goal:
            break
        decision = decisions_of(state)
        if not decision:
            break
        who = decision[0].seat
        state, _ = play(state, normal(state, who, rng), who)
    return judge(state, seat)


def hard(state: State, seat: int, rng: random.Random) -> Act:
    acts = legal(state, seat)
    if len(acts) <= 1 or acts[0].verb in ("auswahl", "essenz", "draft", "wuerfle"):
        return normal(state, seat, rng)
    base = normal(state, seat, rng)
    if state.pending is None and state.phase == "action":
        pool = [a for a in ranked_lays(state, seat, acts) if a != base][:5]
        pool += [a for a in acts if a.verb == "blut"][:2]
    else:
        pool = [a for a in acts if a != base]
        rng.shuffle(pool)
    candidates = [base, *pool[:7]]
    if state.pending is None and Act("ende") in acts and Act("ende") not in candidates:
        candidates.append(Act("ende"))
    scored: list[tuple[float, float, Act]] = []
    for act in candidates:
        after, _ = play(state, act, seat)
        score = rollout(after, seat, random.Random(rng.random()))
        scored.append((score + (0.5 if act == base else 0.0), rng.random(), act))
    return max(scored)[2]


def choose(state: State, seat: int, level: str, rng: random.Random) -> Act:
    if level == "random":
        acts = legal(state, seat)
        if not acts:
            raise IllegalAction("felsenfeuer.error.not_your_turn")
        return rng.choice(acts)
    if level == "normal":
        return normal(state, seat, rng)
    if level == "hard":
        return hard(state, seat, rng)
    raise BadInput("felsenfeuer.error.bad_level", level=level)
