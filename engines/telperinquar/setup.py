"""A new game: the configuration checked, each seat's deck (a class's starter deck, a deck
list, a draft deck), the card ids drawn, the piles shuffled, the turn order rolled."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.core import BadInput, Rng
from engines.telperinquar.cards import CLASSES, DRAFT, Catalogue, hero_of
from engines.telperinquar.decks import describe, parse_list, starter, validate
from engines.telperinquar.draft import sealed_deck
from engines.telperinquar.flow import start_turn
from engines.telperinquar.state import CardInfo, Combat, Mode, Phase, Work, WorkSeat
from engines.telperinquar.stats import HAND, best_start, catalogue_for, user_cards

CONFIG = {"mode", "decks", "teams", "svo", "turn_limit", "round_limit", "cards", "seat_choices"}


def _deck_for(entry: Any, cat: Catalogue) -> tuple[list[str], tuple[str, ...]]:
    """(card names with repeats, classes) of a config deck: a class name (its starter deck)
    or a deck list text (a draft deck: the class ``draft``)."""
    if isinstance(entry, str) and entry in CLASSES:
        deck = starter(entry)
    elif isinstance(entry, str):
        deck = parse_list(entry, cat)
    else:
        raise BadInput("tq.error.bad_config", option="decks")
    info = validate(deck, cat)
    if not info.legal:
        raise BadInput("tq.error.bad_deck", reason=describe(info.problems[0]))
    names: list[str] = []
    for name, count in deck.entries:
        names += [name] * count
    return names, info.classes


def new_game(config: Mapping[str, Any], seed: int, players: int) -> Work:
    if set(config) - CONFIG:
        raise BadInput("tq.error.bad_config", option=", ".join(sorted(set(config) - CONFIG)))
    mode = config.get("mode", "duel" if players == 2 else "2v2")
    if mode not in ("duel", "2v2") or (mode == "duel" and players != 2):
        raise BadInput("tq.error.bad_config", option="mode")
    if mode == "2v2" and players != 4:
        raise BadInput("error.player_count", min=4, max=4)
    teams = list(config.get("teams") or ([0, 1] if mode == "duel" else [0, 1, 0, 1]))
    if len(teams) != players or sorted(set(teams)) != [0, 1] or teams.count(0) != teams.count(1):
        raise BadInput("tq.error.bad_config", option="teams")
    decks = list(config.get("decks") or [CLASSES[s % 4] for s in range(players)])
    chosen = list(config.get("seat_choices") or [None] * players)  # each seat's own deck
    if len(decks) != players or len(chosen) != players:
        raise BadInput("tq.error.bad_config", option="decks")
    decks = [own if own is not None else deck for own, deck in zip(chosen, decks, strict=True)]
    limit = config.get("turn_limit", 0)
    if not isinstance(limit, int) or limit < 0:
        raise BadInput("tq.error.bad_config", option="turn_limit")
    rounds = config.get("round_limit", 0)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 0:
        raise BadInput("tq.error.bad_config", option="round_limit")
    extra = user_cards(config)
    cat = catalogue_for(extra)
    built = [_deck_for(entry, cat) for entry in decks]
    drafted = any(DRAFT in classes for _, classes in built)
    if drafted and not config.get("decks"):
        # a seat that chose no deck (the bot) beside a drafted deck drafts alone: its own
        # draft deck from the game's seed (RULES.md, "Draft decks")
        for seat, own in enumerate(chosen):
            if own is None:
                built[seat] = _deck_for(sealed_deck(seed + 1 + seat, extra), cat)
    if len({DRAFT in classes for _, classes in built}) > 1:
        raise BadInput("tqdraft.error.mixed_decks")  # a draft deck meets only draft decks
    rng = Rng(seed)
    cards: dict[str, CardInfo] = {}
    seats: list[WorkSeat] = []
    for seat, (names, classes) in enumerate(built):
        hero_names = {hero_of(c).name for c in classes}
        level_left = {c: 1 for c in classes}  # one level card per class is laid out
        pile: list[str] = []
        for name in names:
            if name in hero_names:
                continue
            kind = cat.resolve(name)
            if kind and kind[0] == "level" and level_left.get(kind[1], 0):
                level_left[kind[1]] -= 1
                continue
            while True:
                number, rng = rng.randint(10000, 99999)
                cid = f"c{number}"
                if cid not in cards:
                    break
            level = kind[1] if kind and kind[0] == "level" else ""
            cards[cid] = CardInfo(name, seat, level=level)
            pile.append(cid)
        pile, rng = rng.shuffle(pile)
        seats.append(
            WorkSeat(
                classes=tuple(classes),
                levels=dict.fromkeys(classes, 1),
                life=best_start(classes),
                actions=0,
                hand=pile[:HAND],
                deck=pile[HAND:],
                discard=[],
                equip=[],
                field=[],
                row=[],
                out=False,
                mods=[],
                ot=[],
                laid=[],
            )
        )
    # turn order by die roll: the rolled side starts, sides alternate (2 vs 2)
    die, rng = rng.randint(1, players)
    first = die - 1
    by_side = {
        side: [s for s in [*range(first, players), *range(first)] if teams[s] == side]
        for side in (0, 1)
    }
    start_side = teams[first]
    order: list[int] = []
    for a, b in zip(by_side[start_side], by_side[1 - start_side], strict=True):
        order += [a, b]
    w = Work(
        mode=Mode(mode),
        svo=bool(config.get("svo", False)),
        svo_on=False,
        turn_limit=limit,
        teams=tuple(teams),
        order=tuple(order),
        cur=0,
        round=1,
        turns=1,
        phase=Phase.ENTRY,
        level_done=False,
        combat=Combat.NONE,
        players=seats,
        cards=cards,
        stack=[],
        ask=None,
        seq=0,
        forced=[],
        over=False,
        rng=rng,
        round_limit=rounds,
        flew=False,
        extra=extra,
        retired=[],
        limit_hit="",
    )
    start_turn(w, first_turn=True)
    return w
