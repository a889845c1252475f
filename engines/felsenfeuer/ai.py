"""Bot players: ``random``; ``normal`` (a heuristic: an Auswahl of the colours whose spells
are worth most, glyphs for the spells worth most on the table as it stands, a rune on 5 as a
ward, every cast offer taken for the spell worth most, every other choice inside a spell
judged one step ahead); ``hard`` (each candidate (the heuristic's choice, its next best
glyphs, ending the turn, blood magic worth its essence; inside a spell a sample of the
options) played out with ``normal`` for everyone to the end of the next two spell phases,
then judged: by the essence points of each side, in the Pentagramm by the two seats whose
fall wins it, in the Gilden-Duell the Vorsteher's weighing again).

What a spell is worth is read from its effects (``engines.felsenfeuer.ai_worth``), never
from its name, so the bots play any spellbook. Effort is counted in plays, not seconds
(deterministic given the rng), so ``budget_s`` is not needed."""

from __future__ import annotations

import random
from functools import cache

from engines.core.errors import BadInput, IllegalAction
from engines.felsenfeuer.actions import Action, Auswahl, Ende
from engines.felsenfeuer.ai_worth import StateProbe, TypicalProbe, spell_worth
from engines.felsenfeuer.codes import VORSTEHER
from engines.felsenfeuer.model import COLOURS, State
from engines.felsenfeuer.spells import Spell, book_for
from engines.felsenfeuer.turns import decisions_of, legal, play
from engines.felsenfeuer.work import Work

DIE_DECAY = 0.9  # a colour's n-th die in the Auswahl is worth its colour's value x 0.9^n
LAY_AT_LEAST = 0.5  # essence points a glyph's best spell must be worth to be laid
MAX_GLYPHS = 3  # own glyphs lying at once (the rest stays in hand for later)
BLOOD_AT_LEAST = 0.5  # what blood magic must net for normal to work it instead of passing
GLYPH_WEIGHT = 0.5  # a glyph's spell at a rollout's end counts half (it may be denied)


def castable_spells(state: State, colour: str, pips: int) -> list[Spell]:
    """The spells a glyph of this colour and pips may cast under the duel's rules."""
    adept = state.settings.rules == "adept"
    return [s for s in book_for(state.settings.spells).values()
            if s.colour == colour and s.pips == pips and (s.star or not adept)]  # fmt: skip


@cache
def colour_values(spells: str, rules: str, players: int, allies: int) -> dict[str, float]:
    """Each colour's worth before the duel: the mean of its three best spells' worth on a
    typical table (every opponent behind a 5)."""
    probe = TypicalProbe(players, allies)
    values = {}
    for colour in COLOURS:
        worths = sorted((spell_worth(s, probe) for s in book_for(spells).values()
                         if s.colour == colour and (s.star or rules != "adept")),
                        reverse=True)  # fmt: skip
        top = worths[:3]
        values[colour] = sum(top) / 3 if top else 0.0
    return values


def _table_values(state: State, seat: int) -> dict[str, float]:
    w = Work(state)
    allies = sum(1 for s in range(w.players) if s != seat and w.team(s) == w.team(seat))
    return colour_values(state.settings.spells, state.settings.rules, w.players, allies)


def choose_auswahl(state: State, seat: int, acts: list[Action]) -> Action:
    """Each of the eight dice to the colour whose next die is worth most (a colour's n-th
    die counts its value x ``DIE_DECAY``^n: another colour brings other spells)."""
    values = _table_values(state, seat)
    counts = dict.fromkeys(COLOURS, 0)
    for _ in range(sum(int(n) for n in acts[0].args[0].split("-"))):
        best = max(COLOURS, key=lambda c: (values[c] * DIE_DECAY ** counts[c], -COLOURS.index(c)))
        counts[best] += 1
    wanted = Auswahl(tuple(counts[c] for c in COLOURS))
    if wanted in acts:
        return wanted

    def worth(act: Action) -> float:
        counts = act.args[0].split("-")
        return sum(int(n) * values[c] for n, c in zip(counts, COLOURS, strict=True))

    return max(acts, key=worth)  # a capped supply: the best within the shares


def choose_essence(state: State, seat: int, acts: list[Action]) -> Action:
    """The essence from the colour worth least: the hand keeps the dice it casts with."""
    values = _table_values(state, seat)
    essences = [a for a in acts if a.verb == "essenz"]
    return min(essences, key=lambda a: (values[a.args[0]], COLOURS.index(a.args[0])))


_LAST_WORTHS: tuple[State | None, dict[int, tuple[StateProbe, dict[str, float]]]] = (None, {})


def _worths(state: State, seat: int) -> tuple[StateProbe, dict[str, float]]:
    """The probe of ``seat`` on ``state`` and the worths read with it so far. The last state's
    are remembered: a bot weighs the same spells for its glyphs, its blood magic and a cast
    offer on one state (states are frozen, so the answers hold)."""
    global _LAST_WORTHS
    last, seats = _LAST_WORTHS
    if last is not state:
        seats = {}
        _LAST_WORTHS = (state, seats)
    found = seats.get(seat)
    if found is None:
        found = seats[seat] = (StateProbe(state, seat), {})
    return found


def worth_now(state: State, seat: int, spell: Spell) -> float:
    """``spell_worth`` of ``spell`` cast by ``seat`` on the table as it stands."""
    probe, known = _worths(state, seat)
    value = known.get(spell.slug)
    if value is None:
        value = known[spell.slug] = spell_worth(spell, probe)
    return value


def best_worth(state: State, seat: int, colour: str, pips: int) -> float:
    return max((worth_now(state, seat, s) for s in castable_spells(state, colour, pips)),
               default=0.0)  # fmt: skip


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


def glyph_balance(state: State, seat: int) -> float:
    """The glyphs lying on the matrices, each worth its owner's best spell on the table as it
    stands: ``seat``'s side's less its opponents' (per opposing side), in essence points."""
    w = Work(state)
    glyphs = [d for d in w.glyphs() if d.shrine_of < 0 and w.alive(d.owner)]
    if not glyphs:
        return 0.0
    mine = w.team(seat)
    own = foe = 0.0
    for die in glyphs:
        pips = w.pips_of(die)
        worth = max((best_worth(state, die.owner, c, pips) for c in w.colours_of(die)),
                    default=0.0)  # fmt: skip
        if w.team(die.owner) == mine:
            own += worth
        else:
            foe += worth
    sides = {w.team(s) for s in range(w.players) if w.alive(s) and w.team(s) != mine}
    return own - foe / max(1, len(sides))


def judge(state: State, seat: int) -> float:
    """How good ``state`` is for ``seat`` at the end of a hard rollout: ``evaluate``, in the
    Pentagramm by what wins it (``_pentagram_value``), and the glyphs lying, whose spells
    the rollout's two spell phases did not reach (``glyph_balance``)."""
    if state.phase == "end":
        return evaluate(state, seat)
    glyphs = 10.0 * GLYPH_WEIGHT * glyph_balance(state, seat)  # the spells still to come
    if state.settings.mode == "pentagramm":
        return _pentagram_value(state, Work(state), seat) + glyphs
    if state.settings.mode == "gilde":
        return _guild_value(state, seat) + glyphs
    return evaluate(state, seat) + glyphs


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


def ranked_lays(state: State, seat: int, acts: list[Action]) -> list[Action]:
    """The heuristic's glyphs, best first: each by the worth of the best spell it may cast on
    the table as it stands, a ward on 5 when unwarded counting too; none worth less than
    ``LAY_AT_LEAST`` and none once ``MAX_GLYPHS`` own glyphs lie."""
    lays = [a for a in acts if a.verb == "lege"]
    own_glyphs = [d for d in state.dice if d.owner == seat and d.zone == "matrix" and d.glyph]
    if not lays or len(own_glyphs) >= MAX_GLYPHS:
        return []
    own_warded = _worths(state, seat)[0].own_warded
    worth: dict[tuple[str, int], float] = {}
    scored: list[tuple[float, int, Action]] = []
    for index, act in enumerate(lays):
        colour, pips, matrix = act.args[0], int(act.args[1]), int(act.args[2][1:])
        if matrix != state.markers[seat]:
            continue
        if (colour, pips) not in worth:
            worth[colour, pips] = best_worth(state, seat, colour, pips)
        score = worth[colour, pips] - 0.02 * pips  # a lower glyph is cast sooner
        if pips == 5 and not own_warded:
            score += 1.0
        if score >= LAY_AT_LEAST:
            scored.append((score, -index, act))
    return [act for _s, _i, act in sorted(scored, reverse=True)]


def cast_worth(state: State, seat: int, slug: str) -> float:
    """What casting ``slug`` now is worth to ``seat`` ("keiner": nothing)."""
    book = book_for(state.settings.spells)
    return worth_now(state, seat, book[slug]) if slug in book else 0.0


def _greedy(state: State, seat: int, acts: list[Action], rng: random.Random) -> Action:
    """The option judged best one step ahead; on a cast offer, where a spell that has not
    run yet changes nothing one step ahead, ties go to the spell worth most, and "keiner"
    (worth nothing) only beats spells that would cost more than they bring."""
    offer = state.pending is not None and state.pending.prompt == "felsenfeuer.ask.cast"
    scored = []
    for act in acts[:24]:
        try:
            after, _ = play(state, act, seat)
        except (IllegalAction, BadInput):
            continue
        worth = cast_worth(state, seat, act.args[0]) if offer else 0.0
        scored.append((round(evaluate(after, seat), 6), worth, rng.random(), act))
    return max(scored)[3] if scored else rng.choice(acts)


def normal(state: State, seat: int, rng: random.Random) -> Action:
    acts = legal(state, seat)
    if not acts:
        raise IllegalAction("felsenfeuer.error.not_your_turn")
    if len(acts) == 1:
        return acts[0]
    verb = acts[0].verb
    if verb == "auswahl":
        return choose_auswahl(state, seat, acts)
    if verb == "essenz":  # Weltentor: float one rune at most, the hand is what it casts with
        floats = [a for a in acts if a.verb == "schwebe"]
        floated = any(d.owner == seat and d.zone == "float" for d in state.dice)
        if floats and not floated and rng.random() < 0.3:
            return rng.choice(floats)
        return choose_essence(state, seat, acts)
    if verb in ("draft", "wuerfle"):
        return rng.choice(acts)
    if state.phase == "action" and state.pending is None:
        lays = ranked_lays(state, seat, acts)
        if lays:
            return lays[0]
        blood = blood_options(state, seat, acts)
        if blood and blood[0][0] >= BLOOD_AT_LEAST:  # better than passing: it nets something
            return blood[0][1]
        end = Ende()
        return end if end in acts else rng.choice(acts)  # the Wiederholungsregel forbade it
    return _greedy(state, seat, acts, rng)


def blood_options(state: State, seat: int, acts: list[Action]) -> list[tuple[float, Action]]:
    """The blood magic on offer with what it nets (its worth less the essence points it
    costs), best first."""
    book = book_for(state.settings.spells)
    bloods = [a for a in acts if a.verb == "blut" and a.args[0] in book]
    if not bloods:
        return []
    scored = [
        (worth_now(state, seat, book[a.args[0]]) - book[a.args[0]].pips, a.args[0], a)
        for a in bloods
    ]  # blood magic costs its pips (ai_worth.blood_worth)
    return [(worth, a) for worth, _slug, a in sorted(scored, reverse=True)]


def worthy_blood(state: State, seat: int, acts: list[Action]) -> list[Action]:
    """Blood magic worth more than the essence points it costs, best first."""
    return [a for worth, a in blood_options(state, seat, acts) if worth > 0]


HORIZON = 2  # spell phases a rollout plays to their end
ROLLOUTS = 1  # rollouts per candidate (their average judges it)
BASE_BONUS = 0.5  # the heuristic's own choice wins a tie of the rollouts


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


def hard(state: State, seat: int, rng: random.Random) -> Action:
    acts = legal(state, seat)
    if len(acts) <= 1 or acts[0].verb in ("auswahl", "essenz", "draft", "wuerfle"):
        return normal(state, seat, rng)
    base = normal(state, seat, rng)
    if state.pending is None and state.phase == "action":
        pool = [a for a in ranked_lays(state, seat, acts) if a != base][:5]
        pool += worthy_blood(state, seat, acts)[:2]
    else:
        pool = [a for a in acts if a != base]
        rng.shuffle(pool)
    candidates = [base, *pool[:7]]
    if state.pending is None and Ende() in acts and Ende() not in candidates:
        candidates.append(Ende())
    scored: list[tuple[float, float, Action]] = []
    seeds = [rng.random() for _ in range(ROLLOUTS)]  # the same futures for every candidate
    for act in candidates:
        after, _ = play(state, act, seat)
        score = sum(rollout(after, seat, random.Random(s)) for s in seeds) / ROLLOUTS
        scored.append((score + (BASE_BONUS if act == base else 0.0), rng.random(), act))
    return max(scored)[2]


def choose(state: State, seat: int, level: str, rng: random.Random) -> Action:
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
