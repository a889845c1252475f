"""Telperinquár's booster draft on the house contract, and the deck built from the picks.

A pod of 2-8 seats. Each round every seat opens a booster made from the card pool with a
rarity spread (per 10 cards: 1 rare, 3 uncommon, 6 common); every seat picks one card at the
same time (a SEALED decision of its own: the others see only how many cards each has picked),
then the rest of every booster passes on, to the left in rounds 1 and 3, to the right in round
2, until the boosters are empty. After three rounds each seat has its picks; the game is over
(no winner: a draft ranks nobody). :func:`build_draft_deck` makes a 40-card deck of them with
the draft hero and the draft level card (RULES.md, "Booster draft"), which the game engine
plays by the draft rules. A seat that leaves is picked for by the heuristic, so the boosters
still go round; the draft goes on while one seat remains (``play_on_alone``), so the last
person of two still gets a deck.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engines.core import BadInput, Event, IllegalAction, Outcome, Rng, register
from engines.core.codec import Codec, JsonObject, Schema
from engines.core.contract import Decision, DecisionKind, JsonDict, PlayerId
from engines.telperinquar.cards import (
    DRAFT,
    RARITIES,
    Card,
    Catalogue,
    draft_hero,
    level_card_name,
)
from engines.telperinquar.stats import catalogue_for, user_cards

SCHEMA = 2  # 1: the state as one JSON object {"v": 1, ...} (read as schema 1)
ROUNDS = 3
BOOSTER = 10
DECK_SIZE = 40
LEVEL_CARDS = 10  # one laid out at the start, nine to rise to level 10
_CONFIG = {"booster", "rounds", "cards", "teams"}
# the wanted share of each card type in a drafted deck's 29 support cards
_WANTED = {
    "weapon": 4,
    "armour": 2,
    "shield": 1,
    "gear": 3,
    "artifact": 2,
    "wesen": 8,
    "talent": 3,
    "spell": 5,
    "trap": 1,
}


@dataclass(frozen=True, slots=True)
class Pick:
    card: str  # a card id of the seat's current booster

    def __str__(self) -> str:
        return f"pick {self.card}"


class DraftEvent(StrEnum):
    PICKED = "picked"
    LEFT = "left"
    PASSED = "passed"  # the boosters went on to the next seat
    NEW_ROUND = "new_round"
    DRAFT_OVER = "draft_over"


@dataclass(frozen=True, slots=True)
class DraftState:
    """A draft: the boosters each seat holds now (card ids), what each picked, who picked
    this time round and who left; card ids map to card names."""

    seats: int
    size: int  # cards per booster
    rounds: int
    round: int
    pick: int
    cards: dict[str, str]
    packs: tuple[tuple[str, ...], ...]
    picks: tuple[tuple[str, ...], ...]
    done: tuple[bool, ...]
    out: tuple[bool, ...]
    over: bool
    rng: Rng
    extra: str = ""  # a group's own card file

    def __hash__(self) -> int:
        return hash((self.round, self.pick, self.done, self.out, self.rng))

    @property
    def data(self) -> JsonObject:
        """The state as stored: plain data for tests and exports."""
        return STORED.dump(self)


@dataclass(slots=True)
class _Work:
    """A draft's working copy during one step."""

    seats: int
    size: int
    rounds: int
    round: int
    pick: int
    cards: dict[str, str]
    packs: list[list[str]]
    picks: list[list[str]]
    done: list[bool]
    out: list[bool]
    over: bool
    rng: Rng
    extra: str

    @classmethod
    def of(cls, s: DraftState) -> _Work:
        return cls(
            s.seats, s.size, s.rounds, s.round, s.pick, dict(s.cards),
            [list(p) for p in s.packs], [list(p) for p in s.picks], list(s.done), list(s.out),
            s.over, s.rng, s.extra,
        )  # fmt: skip

    def freeze(self) -> DraftState:
        return DraftState(
            self.seats, self.size, self.rounds, self.round, self.pick, dict(self.cards),
            tuple(map(tuple, self.packs)), tuple(map(tuple, self.picks)), tuple(self.done),
            tuple(self.out), self.over, self.rng, self.extra,
        )  # fmt: skip


def _upgrade_v1(body: JsonObject) -> JsonObject:
    """Schema 1 held the same fields; only its version key was ``v``."""
    return {key: value for key, value in body.items() if key != "v"}


STORED = Schema(
    DraftState, SCHEMA, Codec("tq.error.damaged_state"), "tq.error.bad_state", {1: _upgrade_v1}
)


# ------------------------------------------------------------------ boosters


def spread(size: int) -> dict[str, int]:
    """How many cards of each rarity a booster of ``size`` holds (10: 1 rare, 3 uncommon,
    6 common)."""
    rare = max(1, size // 10)
    uncommon = max(1, round(size * 0.3))
    return {"rare": rare, "uncommon": uncommon, "common": size - rare - uncommon}


def _pool(cat: Catalogue) -> dict[str, list[str]]:
    pool: dict[str, list[str]] = {r: [] for r in RARITIES}
    for card in cat.cards.values():
        pool[card.rarity].append(card.name)
    return {r: sorted(names) for r, names in pool.items()}


def _booster(size: int, extra: str, cards: dict[str, str], rng: Rng) -> tuple[list[str], Rng]:
    """A new booster of card ids, added to ``cards`` (a rarity with too few cards is filled
    from the commons)."""
    pool = _pool(catalogue_for(extra))
    names: list[str] = []
    short = 0
    for rarity, count in spread(size).items():
        chosen, rng = rng.shuffle(list(pool[rarity]))
        names += chosen[:count]
        short += max(0, count - len(chosen))
    rest, rng = rng.shuffle([n for n in pool["common"] if n not in names])
    names += rest[:short]
    ids: list[str] = []
    for name in names:
        while True:
            number, rng = rng.randint(100000, 999999)
            cid = f"k{number}"
            if cid not in cards:
                break
        cards[cid] = name
        ids.append(cid)
    return ids, rng


def _open_boosters(d: _Work) -> None:
    rng = d.rng
    packs = []
    for _ in range(d.seats):
        ids, rng = _booster(d.size, d.extra, d.cards, rng)
        packs.append(ids)
    d.packs = packs
    d.rng = rng


# ------------------------------------------------------------------ the bot's judgement


def _need(card: Card, have: Counter[str]) -> float:
    wanted = _WANTED.get(card.type, 1)
    return 2.0 if have[card.type] < wanted else -1.0 - 0.2 * (have[card.type] - wanted)


def pick_score(card: Card, picks: Sequence[Card]) -> float:
    """How much a drafter with ``picks`` wants ``card``: rarity and strength, what the deck
    still lacks (weapons, Wesen, spells ...), and how soon its requirements are met."""
    value = {"common": 1.0, "uncommon": 2.0, "rare": 3.0}.get(card.rarity, 1.0)
    value += _need(card, Counter(c.type for c in picks))
    strength = int(card.get("bonus", 0) or 0) + int(card.get("life", 0) or 0) / 5
    value += strength / 3
    value += 0.5 if card.defensive else 0.0
    highest = max(card.requires.values(), default=0)
    value -= highest / 10  # the draft hero gains 3 per level: high needs come late
    return value


def bot_pick(names: Sequence[str], picked: Sequence[str], cat: Catalogue) -> int:
    """The index in ``names`` (the booster's card names) the heuristic takes."""
    have = [cat.cards[n] for n in picked if n in cat.cards]
    scores = [pick_score(cat.cards[n], have) for n in names]
    return scores.index(max(scores))


def build_draft_deck(picks: Sequence[str], cat: Catalogue | None = None) -> str:
    """A 40-card deck list from the draft ``picks`` (card names): the draft hero, ten draft
    level cards and the 29 picks the heuristic likes best (more picks: the weakest stay
    out; fewer: more level cards fill the deck up to 40). Used for bots and offered to
    people as a suggestion."""
    cat = cat or catalogue_for("")
    known = [cat.cards[n] for n in picks if n in cat.cards]
    room = DECK_SIZE - 1 - LEVEL_CARDS
    chosen: list[Card] = []
    rest = list(known)
    while rest and len(chosen) < room:
        scores = [pick_score(c, chosen) for c in rest]
        chosen.append(rest.pop(scores.index(max(scores))))
    levels = DECK_SIZE - 1 - len(chosen)
    counts = Counter(c.name for c in chosen)
    lines = [f"1 {draft_hero().name}", f"{levels} {level_card_name(DRAFT)}"]
    lines += [f"{n} {name}" for name, n in sorted(counts.items(), key=lambda x: x[0].casefold())]
    return "\n".join(lines) + "\n"


def sealed_deck(seed: int, extra: str = "", boosters: int = ROUNDS, size: int = BOOSTER) -> str:
    """A draft deck for a seat that drafts alone (the bot against a drafted deck): it opens
    ``boosters`` boosters of ``size`` cards (the draft's rarities, the game's own cards with
    ``extra``), keeps every card and builds its deck as a drafter's (:func:`build_draft_deck`),
    under the first line ``# Draft``."""
    cards: dict[str, str] = {}
    rng = Rng(seed)
    picks: list[str] = []
    for _ in range(boosters):
        ids, rng = _booster(size, extra, cards, rng)
        picks += [cards[cid] for cid in ids]
    return "# Draft\n" + build_draft_deck(picks, catalogue_for(extra))


# ------------------------------------------------------------------ the engine


class TqDraft:
    name = "telperinquar-draft"
    version = SCHEMA
    min_players = 2
    max_players = 8
    bot_levels = ("random", "normal")
    # nobody wins a draft: when the other person of two leaves, the last one drafts on (the
    # heuristic picks for the seat that left) and still gets a deck (RULES.md, "Booster draft")
    play_on_alone = True

    def initial_state(self, config: Mapping[str, Any], seed: int, players: int) -> DraftState:
        if not 2 <= players <= 8:
            raise BadInput("error.player_count", min=2, max=8)
        if set(config) - _CONFIG:
            raise BadInput("tq.error.bad_config", option=", ".join(sorted(set(config) - _CONFIG)))
        size = config.get("booster", BOOSTER)
        rounds = config.get("rounds", ROUNDS)
        if not isinstance(size, int) or not 3 <= size <= 15:
            raise BadInput("tq.error.bad_config", option="booster")
        if not isinstance(rounds, int) or not 1 <= rounds <= ROUNDS:
            raise BadInput("tq.error.bad_config", option="rounds")
        extra = user_cards(config)
        d = _Work(
            seats=players,
            size=size,
            rounds=rounds,
            round=0,
            pick=0,
            cards={},
            packs=[],
            picks=[[] for _ in range(players)],
            done=[False] * players,
            out=[False] * players,
            over=False,
            rng=Rng(seed),
            extra=extra,
        )
        _open_boosters(d)
        return d.freeze()

    def decisions(self, state: DraftState) -> tuple[Decision, ...]:
        d = state
        if d.over:
            return ()
        return tuple(
            Decision(
                seat,
                f"k{d.round}.{d.pick}.{seat}",
                DecisionKind.SEALED,
                "tqdraft.prompt.pick",
                {"round": d.round + 1, "pick": d.pick + 1},
            )
            for seat in range(d.seats)
            if not d.done[seat] and not d.out[seat]
        )

    def legal_actions(self, state: DraftState, player: PlayerId) -> Sequence[Pick]:
        d = state
        if d.over or d.done[player] or d.out[player]:
            return []
        return [Pick(cid) for cid in d.packs[player]]

    def apply(
        self, state: DraftState, action: Pick, player: PlayerId
    ) -> tuple[DraftState, list[Event]]:
        if action not in self.legal_actions(state, player):
            if state.over:
                raise IllegalAction("error.game_over")
            raise IllegalAction("tqdraft.error.not_in_booster")
        d = _Work.of(state)
        events = [_take(d, player, action.card)]
        _advance(d, events)
        return d.freeze(), events

    def eliminate(self, state: DraftState, player: PlayerId) -> tuple[DraftState, list[Event]]:
        if state.over or state.out[player]:
            raise IllegalAction("error.game_over")
        d = _Work.of(state)
        d.out[player] = True
        events = [Event(DraftEvent.LEFT, {"player": player})]
        _advance(d, events)
        return d.freeze(), events

    def view_for(self, state: DraftState, player: PlayerId | None) -> JsonDict:
        d = state
        view: JsonDict = {
            "round": d.round + 1,
            "rounds": d.rounds,
            "pick": d.pick + 1,
            "booster": d.size,
            "direction": "left" if d.round % 2 == 0 else "right",
            "over": d.over,
            "seats": [
                {
                    "picks": len(d.picks[s]),
                    "picked": d.done[s],
                    "booster": len(d.packs[s]) if d.packs else 0,
                    "out": d.out[s],
                }
                for s in range(d.seats)
            ],
        }
        if player is not None:
            view["pack"] = [{"id": c, "name": d.cards[c]} for c in d.packs[player]]
            view["picks"] = [d.cards[c] for c in d.picks[player]]
        return view

    def outcome(self, state: DraftState) -> Outcome | None:
        if not state.over:
            return None
        out = tuple(s for s in range(state.seats) if state.out[s])
        return Outcome(frozenset(), "drafted", (), out)

    def secrets_of(self, state: DraftState, player: PlayerId) -> set[str]:
        return set(state.picks[player]) | set(state.packs[player] if state.packs else [])

    def action_visible_to(
        self, state: DraftState, action: Pick, player: PlayerId
    ) -> frozenset[PlayerId] | None:
        return frozenset({player})  # a pick is secret

    def parse_action(self, text: str) -> Pick:
        words = text.split()
        if len(words) != 2 or words[0] != "pick" or not words[1].startswith("k"):
            raise BadInput("tq.error.bad_notation", text=text[:60])
        return Pick(words[1])

    def action_text(self, action: Pick) -> str:
        return str(action)

    def action_path(self, action: Pick) -> tuple[str, ...]:
        return (action.card,)

    def state_to_json(self, state: DraftState) -> JsonDict:
        return STORED.dump(state)

    def state_from_json(self, data: JsonDict) -> DraftState:
        if "schema" not in data and "v" in data:
            data = {"schema": data["v"], **data}  # schema 1 named its version "v"
        return STORED.load(data)

    def choose_action(
        self, state: DraftState, player: PlayerId, level: str, budget_s: float, rng: random.Random
    ) -> Pick:
        actions = list(self.legal_actions(state, player))
        if not actions:
            raise IllegalAction("error.not_your_turn")
        if level == "random":
            return rng.choice(actions)
        view = self.view_for(state, player)
        names = [c["name"] for c in view["pack"]]
        cat = catalogue_for(state.extra)
        return actions[bot_pick(names, view["picks"], cat)]


def _take(d: _Work, seat: int, cid: str) -> Event:
    d.packs[seat].remove(cid)
    d.picks[seat].append(cid)
    d.done[seat] = True
    return Event(DraftEvent.PICKED, {"player": seat, "card": d.cards[cid]}, frozenset({seat}))


def _advance(d: _Work, events: list[Event]) -> None:
    """When every remaining seat has picked: the heuristic picks for seats that left, the
    boosters pass on (left in odd rounds, right in even ones), a new round opens new
    boosters, and after the last round the draft is over."""
    if not all(d.done[s] or d.out[s] for s in range(d.seats)):
        return
    cat = catalogue_for(d.extra)
    for seat in range(d.seats):
        if d.out[seat] and not d.done[seat] and d.packs[seat]:
            names = [d.cards[c] for c in d.packs[seat]]
            picked = [d.cards[c] for c in d.picks[seat]]
            _take(d, seat, d.packs[seat][bot_pick(names, picked, cat)])
    n = d.seats
    step = 1 if d.round % 2 == 0 else -1
    d.packs = [d.packs[(s - step) % n] for s in range(n)]
    d.done = [False] * n
    d.pick += 1
    if d.packs[0]:
        events.append(Event(DraftEvent.PASSED, {"round": d.round + 1, "pick": d.pick + 1}))
        return
    d.round += 1
    d.pick = 0
    if d.round >= d.rounds:
        d.over = True
        d.packs = [[] for _ in range(n)]
        events.append(Event(DraftEvent.DRAFT_OVER, {}))
        return
    _open_boosters(d)
    events.append(Event(DraftEvent.NEW_ROUND, {"round": d.round + 1}))


def picks_of(state: DraftState, seat: PlayerId) -> list[str]:
    """The card names ``seat`` picked, in the order picked."""
    return [state.cards[c] for c in state.picks[seat]]


DRAFT_ENGINE = TqDraft()
register(DRAFT_ENGINE)
