"""The Telperinquár engine on the house contract.

The state is plain JSON data (``TqState.data``): players with hero, levels, life, action pool,
hand, draw pile, discard pile, equipment, cards in play and the Wesen row; card instances by
id; the turn (order, phase, round); the stack of declared actions waiting for answers; the RNG.
Actions are words (``play c12345``, ``use c12345 h1``, ``pass``). Every decision is one seat at
a time: the mover's TURN, or one REACTION of a seat that could answer the top of the stack
(seats that cannot are skipped without a question). Readings: data/telperinquar/RULES.md.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engines.core import BadInput, Event, IllegalAction, Outcome, Rng, register
from engines.core.contract import Decision, DecisionKind, JsonDict, PlayerId
from engines.telperinquar.cards import (
    ATTRIBUTES,
    CLASSES,
    DRAFT,
    Card,
    Catalogue,
    Level,
    catalogue,
    check_extra,
    hero_of,
    level_rows,
    load_cards_text,
)
from engines.telperinquar.decks import describe, parse_list, starter, validate

SCHEMA = 1
HAND = 7
MAX_WESEN = 5
MAX_EQUIP = 5
_CONFIG = {"mode", "decks", "teams", "svo", "turn_limit", "round_limit", "cards", "seat_choices"}
MAX_CARDS_TEXT = 200_000
OFFENSIVE_VERBS = ("strike", "harm", "disarm")
ENEMY_TARGETS = ("enemy", "enemy_hero", "enemy_wesen")


@dataclass(frozen=True, slots=True)
class Act:
    words: tuple[str, ...]

    def __str__(self) -> str:
        return " ".join(self.words)


@dataclass(frozen=True)
class TqState:
    data: JsonDict

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TqState) and self.data == other.data

    def __hash__(self) -> int:
        return hash(repr(self.data))


def _act(*words: str) -> Act:
    return Act(tuple(words))


# ------------------------------------------------------------------ small accessors


@lru_cache(maxsize=16)
def catalogue_for(text: str) -> Catalogue:
    """The built-in cards plus a group's own card file (config ``cards``, checked when the
    game starts)."""
    return catalogue(load_cards_text(text)[0]) if text else catalogue()


def _card(d: JsonDict, cid: str) -> Card:
    return catalogue_for(d.get("extra", "")).cards[d["cards"][cid]["name"]]


def _level_row(cls: str, level: int) -> Level:
    return level_rows(cls)[max(1, min(10, level)) - 1]


def _best(d: JsonDict, seat: int, attr: str) -> int:
    p = d["players"][seat]
    return max(int(getattr(_level_row(c, p["levels"][c]), attr)) for c in p["classes"])


def _best_start(classes: Any) -> int:
    """A hero's LP at the start: the level 1 row's (the best of a double class's)."""
    return max(_level_row(c, 1).life_max for c in classes)


def hero_level(d: JsonDict, seat: int) -> int:
    return int(max(d["players"][seat]["levels"].values()))


def max_life(d: JsonDict, seat: int) -> int:
    return _best(d, seat, "life_max")


def hero_equip(d: JsonDict, seat: int) -> list[str]:
    """The equipment the hero wears (not the pieces its Wesen carry)."""
    return [c for c in d["players"][seat]["equip"] if "bearer" not in d["cards"][c]]


def borne(d: JsonDict, wesen: str) -> list[str]:
    """The equipment a Wesen carries."""
    owner = d["players"][int(d["cards"][wesen]["owner"])]
    return [c for c in owner["equip"] if d["cards"][c].get("bearer") == wesen]


def _bonus_sum(d: JsonDict, cids: list[str], stat: str) -> int:
    total = 0
    for cid in cids:
        for step in _card(d, cid).steps:
            if step.get("do") == "bonus" and step.get("stat") == stat:
                total += int(step["amount"])
    return total


def _passive(d: JsonDict, seat: int, stat: str) -> int:
    return _bonus_sum(d, hero_equip(d, seat) + d["players"][seat]["field"], stat)


def wesen_stat(d: JsonDict, wesen: str, stat: str) -> int:
    """A Wesen's armour, resistance, attack bonus or attribute with what it carries: a
    weapon adds its bonus, armour, shields and gear their passive bonuses."""
    card = _card(d, wesen)
    gear = borne(d, wesen)
    if stat == "bonus":
        weapons = [_card(d, c) for c in gear if _card(d, c).type == "weapon"]
        return int(card.get("bonus", 0)) + sum(int(w.get("bonus", 0)) for w in weapons)
    if stat in ("armour", "resistance"):
        base = int(card.get(stat, 0))
    else:
        base = int(dict(card.get("attributes", {})).get(stat, 0))
    return base + _bonus_sum(d, gear, stat)


def _mods(d: JsonDict, seat: int, stat: str) -> int:
    return sum(m["amount"] for m in d["players"][seat]["mods"] if m["stat"] == stat)


def attribute(d: JsonDict, seat: int, attr: str, card: Card | None = None) -> int:
    """A hero's attribute for ``card`` (double class: a class card reads its class's level
    card, a free card the best of both)."""
    p = d["players"][seat]
    classes = [c for c in p["classes"] if card is None or not card.classes or c in card.classes]
    base = max(_level_row(c, p["levels"][c]).attribute(attr) for c in classes or p["classes"])
    return base + _passive(d, seat, attr)


def armour(d: JsonDict, seat: int) -> int:
    return _best(d, seat, "armour") + _passive(d, seat, "armour") + _mods(d, seat, "armour")


def resistance(d: JsonDict, seat: int) -> int:
    return (
        _best(d, seat, "resistance")
        + _passive(d, seat, "resistance")
        + _mods(d, seat, "resistance")
    )


def _may_use(d: JsonDict, seat: int, card: Card) -> bool:
    p = d["players"][seat]
    if card.classes and DRAFT not in p["classes"] and not set(card.classes) & set(p["classes"]):
        return False  # a draft hero ignores class restrictions
    return all(attribute(d, seat, a, card) >= v for a, v in card.requires.items())


def _side(d: JsonDict, seat: int) -> int:
    return int(d["teams"][seat])


def _enemies(d: JsonDict, seat: int) -> list[int]:
    return [
        s
        for s in range(len(d["players"]))
        if _side(d, s) != _side(d, seat) and not d["players"][s]["out"]
    ]


def _owner(d: JsonDict, target: str) -> int:
    return int(target[1:]) if target.startswith("h") else int(d["cards"][target]["owner"])


def _is_wesen(d: JsonDict, cid: str) -> bool:
    return _card(d, cid).type == "wesen"


def _abilities(d: JsonDict, cid: str) -> list[str]:
    return list(_card(d, cid).get("abilities", []))


def _strike_step(card: Card) -> Mapping[str, Any] | None:
    return next((s for s in card.steps if s.get("do") == "strike"), None)


def _offensive(card: Card) -> bool:
    """Damage, or an EW against another player's hero or Wesen ("die ... einem anderen
    Spieler und seine Karten als Ziel haben")."""
    return any(
        s.get("do") in OFFENSIVE_VERBS
        or (s.get("do") == "over_time" and s.get("effect") == "damage")
        or (s.get("do") == "ew" and s.get("target", "enemy") in ENEMY_TARGETS)
        for s in card.steps
    )


# ------------------------------------------------------------------ set-up


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


def user_cards(config: Mapping[str, Any]) -> str:
    """A group's own card file (config ``cards``): checked with the card loader; a bad file
    is refused with its first mistake's line, and nothing starts."""
    text = config.get("cards") or ""
    if not isinstance(text, str) or len(text) > MAX_CARDS_TEXT:
        raise BadInput("tq.error.bad_config", option="cards")
    if not text:
        return ""
    cards, errors = load_cards_text(text)
    if errors:
        first = errors[0]
        raise BadInput(
            "tqdraft.error.bad_cards", line=first.line, card=first.item, reason=first.message
        )
    clash = check_extra(cards)
    if clash:
        raise BadInput("tqdraft.error.card_exists", card=clash[0])
    return text


def _new_state(config: Mapping[str, Any], seed: int, players: int) -> JsonDict:
    if set(config) - _CONFIG:
        raise BadInput("tq.error.bad_config", option=", ".join(sorted(set(config) - _CONFIG)))
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
        from engines.telperinquar.draft import sealed_deck

        for seat, own in enumerate(chosen):
            if own is None:
                built[seat] = _deck_for(sealed_deck(seed + 1 + seat, extra), cat)
    if len({DRAFT in classes for _, classes in built}) > 1:
        raise BadInput("tqdraft.error.mixed_decks")  # a draft deck meets only draft decks
    rng = Rng(seed)
    cards: dict[str, JsonDict] = {}
    seats: list[JsonDict] = []
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
            cards[cid] = {"name": name, "owner": seat}
            if kind and kind[0] == "level":
                cards[cid]["level"] = kind[1]
            pile.append(cid)
        pile, rng = rng.shuffle(pile)
        seats.append(
            {
                "classes": list(classes),
                "levels": dict.fromkeys(classes, 1),
                "life": _best_start(classes),
                "actions": 0,
                "hand": pile[:HAND],
                "deck": pile[HAND:],
                "discard": [],
                "laid": [],
                "equip": [],
                "field": [],
                "row": [],
                "out": False,
                "mods": [],
                "ot": [],
            }
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
    d: JsonDict = {
        "v": SCHEMA,
        "mode": mode,
        "svo": bool(config.get("svo", False)),
        "svo_on": False,
        "turn_limit": limit,
        "round_limit": rounds,
        "teams": teams,
        "order": order,
        "cur": 0,
        "round": 1,
        "turns": 1,
        "phase": "entry",
        "level_done": False,
        "combat": "none",
        "players": seats,
        "cards": cards,
        "stack": [],
        "ask": None,
        "seq": 0,
        "forced": [],
        "over": False,
        "rng": rng.to_json(),
    }
    if extra:
        d["extra"] = extra
    _start_turn(d, first_turn=True)
    return d


# ------------------------------------------------------------------ dice


def _roll(d: JsonDict, sides: int) -> int:
    if d["forced"]:
        return int(d["forced"].pop(0))
    value, rng = Rng.from_json(d["rng"]).randint(1, sides)
    d["rng"] = rng.to_json()
    return value


def _roll_expr(d: JsonDict, value: Any) -> int:
    if isinstance(value, int):
        return value
    text = str(value.get("roll", "0")).upper()
    count, _, rest = text.partition("W")
    sides, plus, add = rest.partition("+")
    total = sum(_roll(d, int(sides)) for _ in range(int(count or 1)))
    return total + (int(add) if plus else 0)


# ------------------------------------------------------------------ turn flow


def mover(d: JsonDict) -> int:
    return int(d["order"][d["cur"]])


def _draw(d: JsonDict, seat: int, events: list[Event] | None = None) -> None:
    p = d["players"][seat]
    if p["deck"]:  # no deck-out loss: an empty pile is skipped
        p["hand"].append(p["deck"].pop(0))
        if events is not None:
            events.append(Event("drew", {"player": seat}))


def _start_turn(d: JsonDict, first_turn: bool = False, events: list[Event] | None = None) -> None:
    seat = mover(d)
    if not first_turn:
        _draw(d, seat, events)  # told like the draw at the end of a turn
    # the old pool lapses with the new turn: the Einstiegsphase shows the refreshed one (a
    # level card laid now raises it once more when the phase ends, in _supply)
    d["players"][seat]["actions"] = _best(d, seat, "actions")
    d["phase"] = "entry"
    d["flew"] = False
    d["level_done"] = False
    d["combat"] = "none"
    if not _level_cards(d, seat):
        _supply(d, events)


def _level_cards(d: JsonDict, seat: int) -> list[str]:
    p = d["players"][seat]
    return [
        cid
        for cid in p["hand"]
        if "level" in d["cards"][cid] and p["levels"][d["cards"][cid]["level"]] < 10
    ]


def _same_level(d: JsonDict, action: Act, player: int) -> bool:
    """``level <id>`` with any of the identical level cards offered as one choice."""
    if action.words[0] != "level" or len(action.words) != 2 or d["phase"] != "entry":
        return False
    if d["over"] or d["ask"] is not None or player != mover(d):
        return False
    return action.words[1] in _level_cards(d, player)


def _supply(d: JsonDict, events: list[Event] | None = None) -> None:
    """Versorgungsphase: round effects end, long-term effects one by one, InAktion reset,
    the tournament SVO; then the Hauptphase."""
    seat = mover(d)
    p = d["players"][seat]
    # The Einstiegsphase ends here: a level card is laid before "der Aktionspool wird
    # aufgefrischt", so the pool holds the new level's Aktionen (RULES.md, "Phases").
    p["actions"] = _best(d, seat, "actions")  # old actions lapse
    p["mods"] = [m for m in p["mods"] if m["until"] not in ("round", "attack")]
    kept = []
    for effect in p["ot"]:
        _resolve_over_time(d, seat, effect, events)
        effect["left"] -= 1
        if effect["left"] > 0:
            kept.append(effect)
    p["ot"] = kept
    for cid in p["equip"] + p["field"] + p["row"]:
        d["cards"][cid].pop("inaktion", None)
    if d["svo_on"]:
        damage = _roll(d, 20)
        p["life"] -= damage
        if events is not None:
            events.append(Event("svo", {"player": seat, "damage": damage}))
    d["phase"] = "main"


def _resolve_over_time(
    d: JsonDict, seat: int, effect: JsonDict, events: list[Event] | None
) -> None:
    target = effect["target"]
    if not target.startswith("h") and target not in d["cards"]:
        return
    if not _target_alive(d, target):
        return
    if effect["effect"] == "damage":
        _deal(d, target, int(effect["amount"]), "simple", effect.get("source", ""), events)
    else:
        _heal_target(d, target, int(effect["amount"]), "magical", False, events)


def _target_alive(d: JsonDict, target: str) -> bool:
    if target.startswith("h"):
        return not d["players"][int(target[1:])]["out"]
    owner = d["cards"][target]["owner"]
    return target in d["players"][owner]["row"]


def _end_turn(d: JsonDict, events: list[Event]) -> None:
    # Wesen: damage counted per turn; more than half → wounded (again: dies)
    for p in d["players"]:
        for cid in list(p["row"]):
            info = d["cards"][cid]
            card = _card(d, cid)
            if card.type != "wesen":
                continue
            dmg = info.pop("dmg", 0)
            if dmg * 2 > int(card.get("life")):
                if info.get("wounded"):  # wounded before (or by a critical hit this turn)
                    _kill(d, cid, events, why="wounded_twice")
                    continue
                info["wounded"] = True
                events.append(_wounded_event(d, cid, "half"))
            info.pop("free", None)
            info.pop("attacked", None)
        p["mods"] = [m for m in p["mods"] if m["until"] != "turn"]
    seat = mover(d)
    _draw(d, seat, events)
    # a hero at 0 LP or less loses at the end of the turn (glossary "Lebenspunkte")
    for s, p in enumerate(d["players"]):
        if not p["out"] and p["life"] <= 0:
            _knock_out(d, s, events)
    if _sides_left(d) <= 1:
        d["over"] = True
        return
    if d["turn_limit"] and d["turns"] >= d["turn_limit"]:
        d["over"] = True
        d["limit_hit"] = "turn_limit"
        return
    _next_mover(d)
    if d.get("round_limit") and d["round"] > d["round_limit"]:
        d["over"] = True  # the last round of the limit is played out
        d["limit_hit"] = "round_limit"
        return
    if (
        d["svo"]
        and not d["svo_on"]
        and all(min(p["levels"].values()) >= 10 for p in d["players"] if not p["out"])
    ):
        d["svo_on"] = True
    d["turns"] += 1
    _start_turn(d, events=events)


def _next_mover(d: JsonDict) -> None:
    for _ in range(len(d["order"])):
        d["cur"] = (d["cur"] + 1) % len(d["order"])
        if d["cur"] == 0:
            d["round"] += 1
        if not d["players"][mover(d)]["out"]:
            return


def _knock_out(d: JsonDict, seat: int, events: list[Event]) -> None:
    d["players"][seat]["out"] = True
    events.append(Event("hero_fell", {"player": seat}))


def _sides_left(d: JsonDict) -> int:
    return len({_side(d, s) for s, p in enumerate(d["players"]) if not p["out"]})


def _kill(d: JsonDict, cid: str, events: list[Event] | None, why: str = "") -> None:
    owner = d["cards"][cid]["owner"]
    p = d["players"][owner]
    if cid not in p["row"]:
        return
    p["row"].remove(cid)  # gaps close at once
    p["discard"].append(cid)
    for gear in borne(d, cid):  # what a Wesen carries goes to the discard pile with it
        p["equip"].remove(gear)
        p["discard"].append(gear)
        for key in ("bearer", "inaktion", "charges"):
            d["cards"][gear].pop(key, None)
    for key in ("wounded", "dmg", "hidden", "free", "attacked", "inaktion"):
        d["cards"][cid].pop(key, None)
    if events is not None:
        died = {"player": owner, "card": _card(d, cid).name}
        events.append(Event("wesen_died", {**died, "why": why} if why else died))


# ------------------------------------------------------------------ damage and healing


def _reduction(d: JsonDict, target: str, kind: str) -> int:
    if kind == "simple":
        return 0
    if target.startswith("h"):
        seat = int(target[1:])
        return armour(d, seat) if kind in ("physical", "natural") else resistance(d, seat)
    key = "armour" if kind in ("physical", "natural") else "resistance"
    return wesen_stat(d, target, key)


def _deal(
    d: JsonDict,
    target: str,
    amount: int,
    kind: str,
    source: str,
    events: list[Event] | None,
    *,
    critical: bool = False,
) -> int:
    """Damage after armour/resistance (a critical hit ignores a hero's), immunity, double
    damage and Schattenhaftigkeit. Returns the damage taken."""
    if target.startswith("h"):
        seat = int(target[1:])
        taken = max(0, amount if critical else amount - _reduction(d, target, kind))
        d["players"][seat]["life"] -= taken
        if events is not None:
            events.append(Event("damage", {"target": target, "amount": taken}))
        return taken
    card = _card(d, target)
    if source and source in card.get("immune", []):
        taken = 0
    else:
        taken = max(0, amount - _reduction(d, target, kind))
        if source and source in card.get("double", []):
            taken *= 2
        if taken and "schattenhaftigkeit" in card.get("abilities", []) and _roll(d, 10) <= 2:
            taken = 0
    info = d["cards"][target]
    info["dmg"] = info.get("dmg", 0) + taken
    if events is not None:
        events.append(Event("damage", {"target": target, "amount": taken}))
    if info["dmg"] >= int(card.get("life")):
        _kill(d, target, events)
    return taken


def _crit_wesen(d: JsonDict, target: str, events: list[Event] | None) -> bool:
    """A critical hit on a Wesen: wounded at once, or dies at once when wounded. True when
    it died."""
    info = d["cards"][target]
    if info.get("wounded"):
        _kill(d, target, events, why="critical")
        return True
    info["wounded"] = True
    if events is not None:
        events.append(_wounded_event(d, target, "critical"))
    return False


def _wounded_event(d: JsonDict, cid: str, why: str) -> Event:
    """A Wesen is verletzt now (a critical hit) or at the end of the turn (over half)."""
    owner = d["cards"][cid]["owner"]
    return Event("wesen_wounded", {"player": owner, "card": _card(d, cid).name, "why": why})


def _heal_target(
    d: JsonDict, target: str, amount: int, kind: str, critical: bool, events: list[Event] | None
) -> None:
    if target.startswith("h"):
        seat = int(target[1:])
        p = d["players"][seat]
        before = p["life"]
        p["life"] = min(max_life(d, seat), p["life"] + max(0, amount))
        if events is not None:
            events.append(Event("healed", {"target": target, "amount": p["life"] - before}))
        return
    card = _card(d, target)
    healed = max(0, amount - _reduction(d, target, kind))
    info = d["cards"][target]
    info["dmg"] = max(0, info.get("dmg", 0) - healed)
    if critical or healed * 2 > int(card.get("life")):
        info.pop("wounded", None)
    if events is not None:
        events.append(Event("healed", {"target": target, "amount": healed}))


# ------------------------------------------------------------------ targets


def _visible_row(d: JsonDict, seat: int) -> list[str]:
    return [c for c in d["players"][seat]["row"] if not d["cards"][c].get("hidden")]


def _melee_capable(d: JsonDict, attacker: str) -> bool:
    """Whether ``attacker`` (a hero id ``h<seat>`` or a Wesen) can fight in melee."""
    if attacker.startswith("h"):
        return True  # a hero always counter-attacks (a weapon or the unarmed value)
    return _card(d, attacker).get("attack") in ("melee", "melee_magic")


def targets(d: JsonDict, attacker: str, rng_kind: str, seat: int) -> list[str]:
    """Enemy heroes and Wesen ``attacker`` may attack with a ``rng_kind`` attack.

    Melee: a Wesen at row position i reaches enemy Wesen at positions i-1..i+1, a hero every
    enemy Wesen; flying Wesen only by flying attackers; hidden cards never. Ranged: every
    enemy Wesen except mist-form ones. A hero is a target only when no enemy Wesen is in
    this attack's reach (RULES.md): for a Wesen's melee attack, the places i-1..i+1."""
    out: list[str] = []
    flying = not attacker.startswith("h") and "fliegen" in _abilities(d, attacker)
    pos = None
    if not attacker.startswith("h"):
        pos = d["players"][seat]["row"].index(attacker)
    for enemy in _enemies(d, seat):
        hits: list[str] = []
        for index, cid in enumerate(d["players"][enemy]["row"]):
            info = d["cards"][cid]
            if info.get("hidden") or not _is_wesen(d, cid):
                continue
            abilities = _abilities(d, cid)
            if rng_kind == "melee":
                if "fliegen" in abilities and not flying:
                    continue
                if pos is not None and abs(index - pos) > 1:
                    continue
            elif "nebelgestalt" in abilities:
                continue
            hits.append(cid)
        out += hits
        # "Falls außer dem Helden kein weiteres Ziel in Nahkampfreichweite eines Angriffes
        # ist, kann der Held als Ziel gewählt werden": only what this attack could hit
        # protects the hero (a Wesen out of a Wesen's melee reach does not)
        if not hits:
            out.append(f"h{enemy}")
    return out


def _friends(d: JsonDict, seat: int) -> list[str]:
    out = []
    for s, p in enumerate(d["players"]):
        if _side(d, s) == _side(d, seat) and not p["out"]:
            out.append(f"h{s}")
            out += [c for c in p["row"] if _is_wesen(d, c) and not d["cards"][c].get("hidden")]
    return out


# ------------------------------------------------------------------ what a seat may do


def _pool(d: JsonDict, seat: int) -> int:
    return int(d["players"][seat]["actions"])


def _usable(d: JsonDict, seat: int, cid: str) -> bool:
    card = _card(d, cid)
    info = d["cards"][cid]
    if info.get("inaktion"):
        return False
    if card.charges and info.get("charges", card.charges) <= 0:
        return False
    return _pool(d, seat) >= card.use and _may_use(d, seat, card)


def _equip_ok(d: JsonDict, seat: int, card: Card, moving: str = "") -> bool:
    """Whether the hero may put on ``card`` (``moving``: a piece already in play that changes
    its bearer, so it counts neither towards the 5 nor as worn)."""
    return not _equip_problem(d, seat, card, moving)


def _equip_problem(d: JsonDict, seat: int, card: Card, moving: str = "") -> str:
    """Why the hero may not put on ``card`` (a reason code), or "" when it may."""
    p = d["players"][seat]
    if len([c for c in p["equip"] if c != moving]) >= MAX_EQUIP:
        return "equip_full"
    worn = [_card(d, c) for c in hero_equip(d, seat) if c != moving]
    heroes_ = [hero_of(c) for c in p["classes"]]
    weapons = [c for c in worn if c.type == "weapon"]
    shields = [c for c in worn if c.type == "shield"]
    large = any(w.get("size") == "g" for w in weapons)
    if card.type == "weapon":
        if not any(card.get("size") in h.weapons for h in heroes_):
            return "weapon_size"
        if not weapons and not shields:
            return ""
        if shields or len(weapons) >= 2 or card.get("size") == "g" or large:
            return "hands_full"
        return "" if any("weapon" in h.second for h in heroes_) else "no_second_weapon"
    if card.type == "shield":
        if shields:
            return "shield_twice"
        if large:
            return "shield_beside_large"
        if len(weapons) >= 2:
            return "hands_full"
        return "" if any("shield" in h.second for h in heroes_) else "no_shield"
    if card.type == "armour":
        if any(c.type == "armour" for c in worn):
            return "armour_twice"
        return "" if any(card.get("weight") in h.armour for h in heroes_) else "armour_weight"
    return ""


def why_not(d: JsonDict, seat: int, cid: str) -> JsonDict:
    """Why a hand card cannot be played now (``{"key": code, ...}``), for the player's own
    prompt; {} when nothing speaks against it (or it is not the seat's main phase)."""
    p = d["players"][seat]
    if d["over"] or mover(d) != seat or d["phase"] != "main" or d["ask"] is not None:
        return {}
    if "level" in d["cards"][cid]:
        return {}  # a level card says itself when it is laid (the Einstiegsphase)
    card = _card(d, cid)
    if card.classes and DRAFT not in p["classes"] and not set(card.classes) & set(p["classes"]):
        return {"key": "class", "classes": list(card.classes)}
    for attr, need in card.requires.items():
        have = attribute(d, seat, attr, card)
        if have < need:
            return {"key": "attribute", "attr": attr, "need": need, "have": have}
    if p["actions"] < card.play:
        return {"key": "actions", "need": card.play, "have": p["actions"]}
    if card.type in ("weapon", "armour", "shield", "gear", "artifact"):
        if _bearers(d, seat, cid, moving=False):
            return {}
        problem = _equip_problem(d, seat, card)
        return {"key": problem} if problem else {}
    if card.type in ("wesen", "trap") and len(p["row"]) >= MAX_WESEN:
        return {"key": "row_full"}
    return {}


def _wesen_equip_ok(d: JsonDict, seat: int, card: Card, wesen: str, moving: str = "") -> bool:
    """Whether a Wesen of ``seat`` may carry ``card``: only a Wesen with the ability
    Ausrüstbar, only free (classless) equipment, at most one piece of each kind (no shield
    beside a large weapon), the card's requirements met by the Wesen's attributes (glossary
    "Attribute der Wesen"); the 5 pieces of the player count all bearers (RULES.md)."""
    p = d["players"][seat]
    if wesen not in p["row"] or not _is_wesen(d, wesen) or d["cards"][wesen].get("hidden"):
        return False
    if "ausruestbar" not in _abilities(d, wesen) or card.classes:
        return False
    if len([c for c in p["equip"] if c != moving]) >= MAX_EQUIP:
        return False
    if any(wesen_stat(d, wesen, a) < v for a, v in card.requires.items()):
        return False
    carried = [_card(d, c) for c in borne(d, wesen) if c != moving]
    if any(c.type == card.type for c in carried):
        return False
    large = [c for c in [*carried, card] if c.type == "weapon" and c.get("size") == "g"]
    return not (large and any(c.type == "shield" for c in [*carried, card]))


def _bearers(d: JsonDict, seat: int, cid: str, moving: bool) -> list[str]:
    """Where ``cid`` may be put on now: ``h<seat>`` (the hero) and Wesen ids (for ``arm``
    from the hand only Wesen; for ``move`` every other bearer). Costs: the play cost."""
    if "level" in d["cards"][cid]:
        return []
    card = _card(d, cid)
    p = d["players"][seat]
    if card.type not in ("weapon", "armour", "shield", "gear", "artifact"):
        return []
    if p["actions"] < card.play:
        return []
    now = d["cards"][cid].get("bearer", f"h{seat}") if moving else ""
    out = []
    hero_ok = _may_use(d, seat, card) and _equip_ok(d, seat, card, moving=cid)
    if moving and now != f"h{seat}" and hero_ok:
        out.append(f"h{seat}")
    for wesen in p["row"]:
        if wesen != now and _wesen_equip_ok(d, seat, card, wesen, cid if moving else ""):
            out.append(wesen)
    return out


def _can_play(d: JsonDict, seat: int, cid: str) -> bool:
    if "level" in d["cards"][cid]:
        return False
    card = _card(d, cid)
    p = d["players"][seat]
    if p["actions"] < card.play or not _may_use(d, seat, card):
        return False
    if card.type in ("weapon", "armour", "shield", "gear", "artifact"):
        return _equip_ok(d, seat, card)
    if card.type in ("wesen", "trap"):
        return len(p["row"]) < MAX_WESEN
    return True


def _offence_open(d: JsonDict) -> bool:
    return bool(d["round"] > 1 and d["combat"] != "closed")


def _uses(d: JsonDict, seat: int) -> list[Act]:
    """The main-phase uses of cards in play (attacks with their targets, other effects)."""
    p = d["players"][seat]
    out: list[Act] = []
    for cid in hero_equip(d, seat) + p["field"] + p["row"]:
        card = _card(d, cid)
        info = d["cards"][cid]
        if card.type == "trap" or (info.get("hidden") and card.type != "wesen"):
            continue  # a hidden Wesen is turned up by its attack (Verstecken)
        free = card.type == "wesen" and info.get("free", 0) > 0
        if card.type == "wesen" and info.get("attacked") and not free:
            continue  # a Wesen attacks once per turn (Beidhändigkeit: twice for one payment)
        if not free and not _usable(d, seat, cid):
            continue
        if free and info.get("inaktion"):
            continue
        strike = _strike_step(card)
        if strike is not None:
            if not _offence_open(d):
                continue
            attacker = cid if card.type == "wesen" else f"h{seat}"
            for target in targets(d, attacker, str(strike["range"]), seat):
                out.append(_act("use", cid, target))
            continue
        if any(s.get("do") == "cancel" for s in card.steps) or card.type in (
            "armour",
            "shield",
            "artifact",
        ):
            continue
        if all(s.get("do") == "bonus" for s in card.steps):
            continue
        harmful = _offensive(card)
        if harmful and not _offence_open(d):
            continue
        need = _target_kind(card)
        if need == "enemy":
            for target in targets(d, f"h{seat}", "ranged", seat):
                out.append(_act("use", cid, target))
        elif need == "enemy_hero":
            for enemy in _enemies(d, seat):
                out.append(_act("use", cid, f"h{enemy}"))
        elif need == "friend":
            for target in _friends(d, seat):
                out.append(_act("use", cid, target))
        else:
            out.append(_act("use", cid))
    # attacks with two weapons (melee only)
    weapons = [
        c
        for c in hero_equip(d, seat)
        if _card(d, c).type == "weapon" and _card(d, c).get("attack") == "melee"
    ]
    if len(weapons) == 2 and _offence_open(d):
        a, b = weapons
        ca, cb = _card(d, a), _card(d, b)
        if all(_usable(d, seat, w) for w in weapons) and _pool(d, seat) >= ca.use + cb.use:
            for target in targets(d, f"h{seat}", "melee", seat):
                out.append(_act("dual", a, b, target))
    return out


def _flights(d: JsonDict, seat: int) -> list[Act]:
    """Two flying Wesen of the mover swap places, once per turn, outside the Kampfphase
    (Fliegen: "einmalig pro Zug vor oder nach der Kampfphase")."""
    if d.get("flew"):
        return []
    row = d["players"][seat]["row"]
    flying = [
        i
        for i, c in enumerate(row)
        if not d["cards"][c].get("hidden") and _is_wesen(d, c) and "fliegen" in _abilities(d, c)
    ]
    return [_act("fly", str(i), str(j)) for i in flying for j in flying if i < j]


def _target_kind(card: Card) -> str:
    for step in card.steps:
        target = step.get("target")
        if step.get("do") in ("harm", "over_time") and target in ("enemy", "enemy_hero"):
            return "enemy"
        disarm = step.get("do") == "disarm" and target in ("enemy_hero", None)
        if disarm or (step.get("do") == "ew" and target == "enemy_hero"):
            return "enemy_hero"  # no attack: the Wesen do not shield their hero
        if step.get("do") == "ew" and target in (None, *ENEMY_TARGETS):
            return "enemy"
        if step.get("do") in ("heal", "over_time", "harm") and target == "friend":
            return "friend"
    return "self"


def _reactions(d: JsonDict, seat: int) -> list[Act]:
    """What ``seat`` may answer the top of the stack with (empty: not asked)."""
    if d["round"] <= 1 or d["players"][seat]["out"]:
        return []
    top = d["stack"][-1]
    p = d["players"][seat]
    out: list[Act] = []
    at_me = top.get("target") == f"h{seat}"
    for cid in hero_equip(d, seat) + p["field"]:
        card = _card(d, cid)
        if not card.defensive or not _usable(d, seat, cid):
            continue
        cancel = next((s for s in card.steps if s.get("do") == "cancel"), None)
        if cancel is not None:
            what = cancel["what"]
            parries = what != "spell" and at_me and what in ("any", top.get("range"))
            if (what == "spell" and top.get("spell")) or parries:
                out.append(_act("react", cid))
            continue
        answers = card.get("answers", "any")
        if answers == "lay" and top.get("kind") != "lay":
            continue
        if answers == "attack" and top.get("range") not in ("melee", "ranged"):
            continue
        if _strike_step(card) is None and _target_kind(card) == "self":
            out.append(_act("react", cid))
    if at_me and top.get("range") in ("melee", "ranged"):
        # the hidden card was no target, so the hero was: it may be turned up (a trap
        # springs; a hidden Wesen takes the attack, at range unless it has Nebelgestalt)
        for cid in p["row"]:
            info = d["cards"][cid]
            if info.get("hidden"):
                misty = _is_wesen(d, cid) and "nebelgestalt" in _abilities(d, cid)
                if top["range"] == "melee" or not misty:
                    out.append(_act("reveal", cid))
            elif top["range"] == "melee" and "fliegen" in _abilities(d, cid):
                out.append(_act("intercept", cid))
    # 2 vs 2: a team-mate's Wesen may take an attack meant for an unprotected hero
    if top.get("target", "").startswith("h") and top.get("target") != f"h{seat}":
        victim = int(top["target"][1:])
        if _side(d, victim) == _side(d, seat) and victim != seat:
            for cid in _visible_row(d, seat):
                if _is_wesen(d, cid) and top.get("range") in ("melee", "ranged"):
                    out.append(_act("intercept", cid))
    if out:
        out.insert(0, _act("pass"))
    return out


# ------------------------------------------------------------------ the engine


class Telperinquar:
    name = "telperinquar"
    version = 1
    min_players = 2
    max_players = 4
    bot_levels = ("random", "normal", "hard")

    def initial_state(self, config: Mapping[str, Any], seed: int, players: int) -> TqState:
        if players not in (2, 4):
            raise BadInput("error.player_count", min=2, max=4)
        return TqState(_new_state(config, seed, players))

    # ---------------------------------------------------------- decisions

    def decisions(self, state: TqState) -> tuple[Decision, ...]:
        d = state.data
        if d["over"]:
            return ()
        if d["ask"] is not None:
            return (
                Decision(
                    int(d["ask"]),
                    f"r{d['seq']}",
                    DecisionKind.REACTION,
                    "tq.prompt.react",
                    {"action": d["stack"][-1]["text"]},
                ),
            )
        return (Decision(mover(d), f"t{d['seq']}", DecisionKind.TURN, f"tq.prompt.{d['phase']}"),)

    def timeout_action(self, state: TqState, decision: Decision) -> Act | None:
        """A reaction left unanswered past the reaction limit passes (RULES.md, "Reactions
        nobody answers")."""
        return _act("pass") if decision.kind == DecisionKind.REACTION else None

    def legal_actions(self, state: TqState, player: PlayerId) -> Sequence[Act]:
        d = state.data
        if d["over"]:
            return []
        if d["ask"] is not None:
            return _reactions(d, player) if player == d["ask"] else []
        if player != mover(d):
            return []
        p = d["players"][player]
        if d["phase"] == "entry":
            # one offer per class: identical level cards are one choice
            first = {d["cards"][c]["level"]: c for c in reversed(_level_cards(d, player))}
            level_acts = [_act("level", c) for c in _level_cards(d, player) if c in first.values()]
            return [_act("go"), *level_acts]
        if d["phase"] == "position":
            n = len(p["row"])
            swaps = [_act("swap", str(i), str(j)) for i in range(n) for j in range(i + 1, n)]
            return [_act("end"), *swaps]
        acts = [_act("next")]
        for cid in p["hand"]:
            if _can_play(d, player, cid):
                card = _card(d, cid)
                acts.append(_act("play", cid))
                if card.type == "trap" or "verstecken" in card.get("abilities", []):
                    acts.append(_act("hide", cid))
        for cid in p["hand"]:
            acts += [_act("arm", cid, w) for w in _bearers(d, player, cid, moving=False)]
        acts += _uses(d, player)
        for cid in p["equip"]:
            if not any(t.get("target") == cid for t in d["stack"]):
                acts.append(_act("take", cid))
                acts += [_act("move", cid, b) for b in _bearers(d, player, cid, moving=True)]
        acts += _flights(d, player)
        return acts

    # ---------------------------------------------------------- apply

    def apply(self, state: TqState, action: Act, player: PlayerId) -> tuple[TqState, list[Event]]:
        legal = self.legal_actions(state, player)
        if action not in legal and not _same_level(state.data, action, player):
            if state.data["over"]:
                raise IllegalAction("error.game_over")
            raise IllegalAction("tq.error.not_allowed", action=str(action))
        d = copy.deepcopy(state.data)
        d["seq"] += 1
        events: list[Event] = []
        verb, *args = action.words
        if d["ask"] is not None:
            self._answer(d, player, verb, args, events)
        elif verb == "go":
            _supply(d, events)
        elif verb == "level":
            self._level(d, player, args[0], events)
        elif verb == "next":
            if len(d["players"][player]["row"]) >= 2:
                d["phase"] = "position"
            else:
                _end_turn(d, events)
        elif verb == "end":
            _end_turn(d, events)
        elif verb == "swap":
            row = d["players"][player]["row"]
            i, j = int(args[0]), int(args[1])
            row[i], row[j] = row[j], row[i]
        elif verb in ("play", "hide"):
            self._play(d, player, args[0], verb == "hide", events)
        elif verb in ("arm", "move"):
            self._attach(d, player, verb, args[0], args[1], events)
        elif verb == "fly":
            row = d["players"][player]["row"]
            i, j = int(args[0]), int(args[1])
            row[i], row[j] = row[j], row[i]
            d["flew"] = True
            if d["combat"] == "open":  # before or after the Kampfphase, never inside it
                d["combat"] = "closed"
            events.append(Event("flew", {"player": player, "places": [i, j]}))
        elif verb == "take":
            p = d["players"][player]
            p["equip"].remove(args[0])
            # back in the hand the card is secret again: it gets a new id (charges kept)
            info = d["cards"].pop(args[0])
            d.setdefault("retired", []).append(args[0])  # never handed out again
            info.pop("inaktion", None)
            info.pop("bearer", None)
            fresh = _fresh_id(d)
            d["cards"][fresh] = info
            p["hand"].append(fresh)
            events.append(Event("took_back", {"player": player, "card": info["name"]}))
        elif verb in ("use", "dual"):
            self._declare(d, player, verb, args, events)
        _settle(d, events)
        return TqState(d), events

    def _attach(
        self, d: JsonDict, seat: int, verb: str, cid: str, bearer: str, events: list[Event]
    ) -> None:
        """Put equipment on a bearer: ``arm`` from the hand onto a Wesen, ``move`` from its
        bearer to another; either way the play cost is paid (again)."""
        p = d["players"][seat]
        card = _card(d, cid)
        p["actions"] -= card.play
        if verb == "arm":
            p["hand"].remove(cid)
            p["equip"].append(cid)
            if card.charges and "charges" not in d["cards"][cid]:
                d["cards"][cid]["charges"] = card.charges
        if bearer.startswith("h"):
            d["cards"][cid].pop("bearer", None)
        else:
            d["cards"][cid]["bearer"] = bearer
        if d["combat"] == "open":
            d["combat"] = "closed"
        events.append(Event("equipped", {"player": seat, "card": card.name, "bearer": bearer}))
        _lay_on_stack(d, seat, [verb, cid, bearer])

    def _level(self, d: JsonDict, seat: int, cid: str, events: list[Event]) -> None:
        p = d["players"][seat]
        cls = d["cards"][cid]["level"]
        p["hand"].remove(cid)
        # "zu den anderen Stufenkarten gelegt": beside the hero, not on the discard pile
        p.setdefault("laid", []).append(cid)
        before = max(p["levels"].values())
        p["levels"][cls] += 1
        new = p["levels"][cls]
        if new > before:  # double class: life once per level
            p["life"] += _level_row(cls, new).life
            p["life"] = min(p["life"], max_life(d, seat))
        events.append(Event("level_up", {"player": seat, "class": cls, "level": new}))
        _supply(d, events)

    def _play(self, d: JsonDict, seat: int, cid: str, hidden: bool, events: list[Event]) -> None:
        p = d["players"][seat]
        card = _card(d, cid)
        p["actions"] -= card.play
        p["hand"].remove(cid)
        info = d["cards"][cid]
        if card.charges and "charges" not in info:
            info["charges"] = card.charges
        if card.type in ("weapon", "armour", "shield", "gear", "artifact"):
            p["equip"].append(cid)
        elif card.type in ("wesen", "trap"):
            p["row"].append(cid)
            if hidden:
                info["hidden"] = True
        else:
            p["field"].append(cid)
        if d["combat"] == "open":
            d["combat"] = "closed"
        shown = {"player": seat, "card": cid}
        if not hidden:
            shown["name"] = card.name
        events.append(Event("played", shown))
        _lay_on_stack(d, seat, ["hide" if hidden else "play", cid])

    def _declare(
        self, d: JsonDict, seat: int, verb: str, args: list[str], events: list[Event]
    ) -> None:
        p = d["players"][seat]
        if verb == "dual":
            a, b, target = args
            cost = _card(d, a).use + _card(d, b).use
            p["actions"] -= cost
            entry: JsonDict = {"seat": seat, "kind": "dual", "cards": [a, b], "target": target}
            entry["range"] = "melee"
            entry["bonus"] = int(_card(d, a).get("bonus")) + int(_card(d, b).get("bonus"))
            entry["attacker"] = f"h{seat}"
        else:
            cid = args[0]
            card = _card(d, cid)
            info = d["cards"][cid]
            if card.type == "wesen" and info.get("free", 0) > 0:
                info["free"] -= 1
            else:
                p["actions"] -= card.use
                if card.type == "wesen":
                    info["attacked"] = True
                    if "beidhaendigkeit" in card.get("abilities", []):
                        info["free"] = 1
            if card.inaktion:
                info["inaktion"] = True
            entry = {"seat": seat, "kind": "use", "cards": [cid]}
            if len(args) > 1:
                entry["target"] = args[1]
            strike = _strike_step(card)
            if strike is not None:
                entry["range"] = strike["range"]
                entry["attacker"] = cid if card.type == "wesen" else f"h{seat}"
            entry["spell"] = card.type == "spell"
            info.pop("hidden", None)
        first = _card(d, str(entry["cards"][0]))
        if _offensive(first):
            d["combat"] = "open"
        elif d["combat"] == "open":
            d["combat"] = "closed"
        entry["text"] = " ".join([verb, *args])
        entry["asked"] = []
        d["stack"].append(entry)
        events.append(Event("declared", {"player": seat, "action": entry["text"]}))

    def _answer(
        self, d: JsonDict, seat: int, verb: str, args: list[str], events: list[Event]
    ) -> None:
        top = d["stack"][-1]
        top["asked"].append(seat)
        d["ask"] = None
        if verb == "pass":
            events.append(Event("passed", {"player": seat}))
            return
        cid = args[0]
        if verb == "intercept":
            top["target"] = cid
            events.append(Event("intercepted", {"player": seat, "card": _card(d, cid).name}))
            return
        if verb == "reveal":
            d["cards"][cid].pop("hidden", None)
            card = _card(d, cid)
            events.append(Event("revealed", {"player": seat, "card": card.name}))
            if card.type == "trap":
                entry = {
                    "seat": seat,
                    "kind": "trap",
                    "cards": [cid],
                    "target": top["attacker"],
                    "spell": False,
                }
            else:
                top["target"] = cid
                return
        else:
            card = _card(d, cid)
            d["players"][seat]["actions"] -= card.use
            if card.inaktion:
                d["cards"][cid]["inaktion"] = True
            entry = {"seat": seat, "kind": "react", "cards": [cid], "spell": card.type == "spell"}
            entry["answers"] = len(d["stack"]) - 1
            if any(s.get("target") == "attacker" for s in card.steps):
                # aimed at the one whose action it answers (its attacking Wesen, else its hero)
                entry["target"] = top.get("attacker") or f"h{top['seat']}"
        entry["text"] = " ".join([verb, *args])
        entry["asked"] = []
        d["stack"].append(entry)
        events.append(Event("declared", {"player": seat, "action": entry["text"]}))

    # ---------------------------------------------------------- the rest of the contract

    def eliminate(self, state: TqState, player: PlayerId) -> tuple[TqState, list[Event]]:
        d = copy.deepcopy(state.data)
        if d["over"] or d["players"][player]["out"]:
            raise IllegalAction("error.game_over")
        events: list[Event] = []
        _knock_out(d, player, events)
        d["seq"] += 1
        if _sides_left(d) <= 1:
            d["over"] = True
            d["ask"] = None
            return TqState(d), events
        if d["ask"] == player:
            d["stack"][-1]["asked"].append(player)
            d["ask"] = None
        d["stack"] = [e for e in d["stack"] if e["seat"] != player]
        if mover(d) == player:
            d["stack"], d["ask"] = [], None
            _end_turn(d, events)
        _settle(d, events)
        return TqState(d), events

    def view_for(self, state: TqState, player: PlayerId | None) -> JsonDict:
        d = state.data

        def shown(cid: str, owner: int) -> JsonDict:
            info = d["cards"][cid]
            if info.get("hidden") and owner != player:
                return {"id": cid, "hidden": True}
            card = _card(d, cid)
            out: JsonDict = {"id": cid, "name": card.name, "type": card.type}
            for key in ("charges", "inaktion", "wounded", "dmg", "hidden", "bearer"):
                if key in info:
                    out[key] = info[key]
            return out

        seats = []
        for s, p in enumerate(d["players"]):
            seat: JsonDict = {
                "classes": list(p["classes"]),
                "levels": dict(p["levels"]),
                "life": p["life"],
                "max_life": max_life(d, s),
                "actions": p["actions"],
                "armour": armour(d, s),
                "resistance": resistance(d, s),
                "hand_count": len(p["hand"]),
                "deck_count": len(p["deck"]),
                "discard": [_card_name(d, c) for c in p["discard"]],
                "equip": [shown(c, s) for c in p["equip"]],
                "field": [shown(c, s) for c in p["field"]],
                "row": [shown(c, s) for c in p["row"]],
                "out": p["out"],
                "team": d["teams"][s],
            }
            if s == player:
                seat["hand"] = [{"id": c, "name": _card_name(d, c)} for c in p["hand"]]
                for shown_card in seat["hand"]:
                    blocked = why_not(d, s, shown_card["id"])
                    if blocked:
                        shown_card["why"] = blocked
            seats.append(seat)
        return {
            "mode": d["mode"],
            "round": d["round"],
            "mover": mover(d),
            "phase": d["phase"],
            "order": list(d["order"]),
            "svo": d["svo_on"],
            "svo_rule": d["svo"],
            "round_limit": d.get("round_limit", 0),
            "stack": [e["text"] for e in d["stack"]],
            "ask": d["ask"],
            "players": seats,
            "over": d["over"],
        }

    def outcome(self, state: TqState) -> Outcome | None:
        d = state.data
        if not d["over"]:
            return None
        seats = range(len(d["players"]))
        alive = {_side(d, s) for s in seats if not d["players"][s]["out"]}
        fallen = tuple(s for s in seats if d["players"][s]["out"])
        if len(alive) == 1 and not d.get("limit_hit"):
            (side,) = alive
            winners = frozenset(s for s in seats if _side(d, s) == side)
            rest = frozenset(seats) - winners
            return Outcome(winners, "hero_fell", (winners, rest), fallen)
        if not alive:  # every hero fell in the same turn
            return Outcome(frozenset(), "both_fell", (), fallen)
        limit = d.get("limit_hit")
        return Outcome(frozenset(), limit if isinstance(limit, str) else "turn_limit", (), fallen)

    def secrets_of(self, state: TqState, player: PlayerId) -> set[str]:
        p = state.data["players"][player]
        return set(p["hand"]) | set(p["deck"])

    def action_visible_to(
        self, state: TqState, action: Act, player: PlayerId
    ) -> frozenset[PlayerId] | None:
        return None  # card ids are random; a hidden card's name is never in an action

    def parse_action(self, text: str) -> Act:
        words = tuple(text.split())
        arity = {"go": 0, "next": 0, "end": 0, "pass": 0, "level": 1, "play": 1, "hide": 1}
        arity |= {"take": 1, "react": 1, "reveal": 1, "intercept": 1, "swap": 2, "dual": 3}
        arity |= {"arm": 2, "move": 2, "fly": 2}
        if not words:
            raise BadInput("tq.error.bad_notation", text=text)
        if words[0] == "use" and len(words) in (2, 3):
            return Act(words)
        if arity.get(words[0], -1) != len(words) - 1:
            raise BadInput("tq.error.bad_notation", text=text[:60])
        return Act(words)

    def action_text(self, action: Act) -> str:
        return str(action)

    def action_path(self, action: Act) -> tuple[str, ...]:
        return action.words

    def state_to_json(self, state: TqState) -> JsonDict:
        return copy.deepcopy(state.data)

    def state_from_json(self, data: JsonDict) -> TqState:
        if data.get("v") != SCHEMA:
            raise BadInput("tq.error.bad_state")
        return TqState(copy.deepcopy(data))

    def choose_action(
        self, state: TqState, player: PlayerId, level: str, budget_s: float, rng: random.Random
    ) -> Act:
        from engines.telperinquar.ai import choose

        chosen: Act = choose(self, state, player, level, rng)
        return chosen


def _lay_on_stack(d: JsonDict, seat: int, words: list[str]) -> None:
    """Laying a card is an action like any other: the others may answer it ("wie bei jeder
    Aktion"). The card lies already; the entry is the moment to answer, and resolves to
    nothing more (RULES.md, "Reactions")."""
    entry = {"seat": seat, "kind": "lay", "cards": [words[1]], "spell": False}
    d["stack"].append({**entry, "text": " ".join(words), "asked": []})


def _fresh_id(d: JsonDict) -> str:
    """A new secret id: none a card has now, nor one a card had before (a retired id is in
    the public log, so handing it to a card in a hand would tell which card it is)."""
    rng = Rng.from_json(d["rng"])
    retired = set(d.get("retired", ()))
    while True:
        number, rng = rng.randint(10000, 99999)
        if f"c{number}" not in d["cards"] and f"c{number}" not in retired:
            d["rng"] = rng.to_json()
            return f"c{number}"


def _card_name(d: JsonDict, cid: str) -> str:
    return str(d["cards"][cid]["name"])


# ------------------------------------------------------------------ resolving the stack


def _reaction_order(d: JsonDict, actor: int) -> list[int]:
    order = d["order"]
    start = order.index(actor)
    return [order[(start + k) % len(order)] for k in range(1, len(order))]


def _settle(d: JsonDict, events: list[Event]) -> None:
    """Ask the next seat that could answer the top of the stack, or resolve it (last
    declared, first resolved) and go on with the one below."""
    while d["stack"] and not d["over"]:
        top = d["stack"][-1]
        for seat in _reaction_order(d, top["seat"]):
            if seat in top["asked"]:
                continue
            top["asked"].append(seat)
            d["ask"] = seat
            if _reactions(d, seat):
                top["asked"].pop()
                # the declarer's own note: its action waits for this seat's answer
                waits = Event("waits", {"player": seat}, visible_to=frozenset({top["seat"]}))
                events.append(waits)
                return
            d["ask"] = None
        d["stack"].pop()
        if not top.get("cancelled"):
            _resolve(d, top, events)
    d["ask"] = None


def _resolve(d: JsonDict, entry: JsonDict, events: list[Event]) -> None:
    """Resolve one declared action; a card used up by it is told after its effect (a
    throwing knife's last throw first, then that it is gone)."""
    if entry["kind"] == "lay":
        return  # the card was laid when it was declared
    start = len(events)
    _resolve_entry(d, entry, events)
    told = events[start:]
    events[start:] = [e for e in told if e.type != "spent"] + [e for e in told if e.type == "spent"]


def _resolve_entry(d: JsonDict, entry: JsonDict, events: list[Event]) -> None:
    seat = entry["seat"]
    kind = entry["kind"]
    cards = entry["cards"]
    if any(c not in d["cards"] for c in cards):  # it went back to a hand (a new secret id)
        events.append(Event("lapsed", {"action": entry["text"]}))
        return
    card = _card(d, cards[0])
    owner = d["cards"][cards[0]]["owner"]
    if kind == "trap":
        p = d["players"][owner]
        if cards[0] in p["row"]:
            p["row"].remove(cards[0])
            p["discard"].append(cards[0])
        for step in card.steps:
            if not _target_alive(d, entry["target"]):
                break
            if step.get("do") == "harm":
                amount = _roll_expr(d, step["amount"])
                _deal(d, entry["target"], amount, step.get("kind", "simple"), "", events)
            elif step.get("do") == "over_time":
                effect = {
                    "effect": step["effect"],
                    "amount": int(step["amount"]),
                    "left": int(step["rounds"]),
                    "target": entry["target"],
                    "source": step.get("source", ""),
                }
                _resolve_over_time(d, owner, effect, events)
                d["players"][owner]["ot"].append(effect)
            elif step.get("do") == "disarm":
                _disarm(d, owner, entry["target"], str(step.get("to", "discard")), events)
        return
    # the card must still be where it was used from
    p = d["players"][owner]
    if not all(c in p["equip"] + p["field"] + p["row"] for c in cards):
        events.append(Event("lapsed", {"action": entry["text"]}))
        return
    _spend_charges(d, cards, events)
    if kind == "dual":
        if not _target_alive(d, entry["target"]):
            events.append(Event("lapsed", {"action": entry["text"]}))
            return
        _attack(d, seat, entry, entry["bonus"], "physical", "", events)
        return
    target = entry.get("target")
    for step in card.steps:
        verb = step.get("do")
        if verb == "strike":
            if target is None or not _target_alive(d, target):
                events.append(Event("lapsed", {"action": entry["text"]}))
                return
            bonus = int(step.get("bonus", 0))
            if card.type == "wesen":  # a weapon the Wesen carries adds its bonus
                bonus += wesen_stat(d, cards[0], "bonus") - int(card.get("bonus", 0))
            if entry.get("attacker", "").startswith("h"):
                bonus += _mods(d, seat, "bonus")
                d["players"][seat]["mods"] = [
                    m for m in d["players"][seat]["mods"] if m["until"] != "attack"
                ]
            entry = {**entry, "range": step["range"], "area": step.get("area", False)}
            _attack(d, seat, entry, bonus, str(step["kind"]), str(step.get("source", "")), events)
        elif verb == "harm":
            goal = entry.get("target") or f"h{seat}"
            if _target_alive(d, goal):
                amount = _roll_expr(d, step["amount"])
                _deal(d, goal, amount, step.get("kind", "simple"), step.get("source", ""), events)
        elif verb == "heal":
            goal = entry.get("target") or f"h{seat}"
            if _target_alive(d, goal):
                die = _roll(d, 10)
                amount = 0 if die == 1 else die + int(step.get("bonus", 0))
                _heal_target(d, goal, amount, str(step["kind"]), die == 10, events)
                events.append(Event("roll", {"die": die, "for": "heal"}))
        elif verb == "buff":
            until = step.get("duration", "turn")
            d["players"][seat]["mods"].append(
                {"stat": step["stat"], "amount": int(step["amount"]), "until": until}
            )
        elif verb == "over_time":
            goal = entry.get("target") or f"h{seat}"
            effect = {
                "effect": step["effect"],
                "amount": int(step["amount"]),
                "left": int(step["rounds"]),
                "target": goal,
                "source": step.get("source", ""),
            }
            _resolve_over_time(d, seat, effect, events)
            d["players"][seat]["ot"].append(effect)
        elif verb == "actions":
            d["players"][seat]["actions"] += int(step["amount"])
        elif verb == "draw":
            for _ in range(int(step.get("count", 1))):
                _draw(d, seat, events)
        elif verb == "disarm":
            goal = entry.get("target")
            if goal and _target_alive(d, goal):
                _disarm(d, seat, str(goal), str(step.get("to", "discard")), events)
        elif verb == "ew":
            if not _ew(d, seat, entry, step, events):
                return  # a failed EW: the card's later steps do not happen
        elif verb == "cancel":
            below = d["stack"][entry["answers"]] if entry.get("answers") is not None else None
            if below is not None:
                below["cancelled"] = True
                events.append(Event("parried", {"action": below["text"]}))


def _disarm(d: JsonDict, seat: int, target: str, to: str, events: list[Event]) -> None:
    """The target hero's best weapon (highest bonus) leaves it, unless every weapon it holds
    has a Waffenkette ("kann nur durch ihren Beherrscher entfernt oder aufgenommen werden"):
    to its owner's discard pile, back to its owner's hand, or (``steal``) into the hand of
    ``seat``. A weapon going to a hand gets a new secret id. A Wesen is not disarmed."""
    if not target.startswith("h"):
        return
    owner = int(target[1:])
    p = d["players"][owner]
    weapons = [c for c in hero_equip(d, owner) if _card(d, c).type == "weapon"]
    free = [c for c in weapons if not _card(d, c).get("chain")]
    if not free:
        if weapons:
            events.append(Event("chained", {"player": owner, "card": _card(d, weapons[0]).name}))
        return
    cid = max(free, key=lambda c: (int(_card(d, c).get("bonus", 0)), c))
    name = _card(d, cid).name
    p["equip"].remove(cid)
    if to == "discard":
        p["discard"].append(cid)
        d["cards"][cid].pop("inaktion", None)
    else:
        info = d["cards"].pop(cid)
        d.setdefault("retired", []).append(cid)
        info.pop("inaktion", None)
        info.pop("bearer", None)
        keeper = seat if to == "steal" else owner
        info["owner"] = keeper
        fresh = _fresh_id(d)
        d["cards"][fresh] = info
        d["players"][keeper]["hand"].append(fresh)
    events.append(Event("disarmed", {"player": seat, "card": name, "target": target, "to": to}))


def ew_value(d: JsonDict, target: str, against: str, value: int = 0) -> int:
    """What an EW must beat: a number, or an attribute of ``target`` (a hero's, or a Wesen's
    printed attributes; a Wesen without them has 0), ``highest`` its highest one."""
    if against == "value":
        return value
    names = ATTRIBUTES if against == "highest" else (against,)
    if target.startswith("h"):
        return max(attribute(d, int(target[1:]), a) for a in names)
    return max(wesen_stat(d, target, a) for a in names)


def _ew(
    d: JsonDict, seat: int, entry: JsonDict, step: Mapping[str, Any], events: list[Event]
) -> bool:
    """An Erfolgswurf (glossary "EW") of the card's user against its target (or its own
    hero): W20 + the roller's current level, higher than the value succeeds."""
    target = str(entry.get("target") or f"h{seat}")
    if not _target_alive(d, target):
        events.append(Event("lapsed", {"action": entry["text"]}))
        return False
    value = ew_value(d, target, str(step["against"]), int(step.get("value", 0)))
    die = _roll(d, 20)
    level = hero_level(d, seat)
    success = die + level > value
    events.append(
        Event(
            "ew", {"player": seat, "die": die, "level": level, "value": value, "success": success}
        )
    )
    return success


def _spend_charges(d: JsonDict, cards: list[str], events: list[Event]) -> None:
    for cid in cards:
        card = _card(d, cid)
        info = d["cards"][cid]
        if not card.charges:
            continue
        info["charges"] = info.get("charges", card.charges) - 1
        if info["charges"] <= 0:
            owner = d["players"][info["owner"]]
            for zone in ("equip", "field", "row"):
                if cid in owner[zone]:
                    owner[zone].remove(cid)
            owner["discard"].append(cid)
            info.pop("charges", None)
            events.append(Event("spent", {"card": card.name}))


def _counter_strike(d: JsonDict, defender: str, attacker: str) -> tuple[int, str] | None:
    """The counter-attack of ``defender``: (bonus, damage kind), or None when it cannot
    strike back in melee. A hero strikes with the melee weapon that hurts ``attacker`` most
    (bonus minus the attacker's Rüstung for a physical, Resistenz for a magic weapon: "Bestimmt
    er bei seinem Angriff (oder Gegenangriff) mit welcher Waffe"), else unarmed (physical);
    a Wesen with its own strike and the weapon it carries."""
    if defender.startswith("h"):
        seat = int(defender[1:])
        weapons = [_card(d, c) for c in hero_equip(d, seat) if _card(d, c).type == "weapon"]
        melee = [
            (int(w.get("bonus")), "magical" if w.get("attack") == "melee_magic" else "physical")
            for w in weapons
            if w.get("attack") in ("melee", "melee_magic")
        ]
        if melee:
            return max(melee, key=lambda m: (m[0] - _reduction(d, attacker, m[1]), m[0]))
        if weapons:
            return None  # only ranged weapons: a pure ranged fighter
        return min(hero_of(c).unarmed for c in d["players"][seat]["classes"]), "physical"
    card = _card(d, defender)
    if card.get("attack") not in ("melee", "melee_magic"):
        return None
    kind = "magical" if card.get("attack") == "melee_magic" else "physical"
    return wesen_stat(d, defender, "bonus"), kind


def _attack(
    d: JsonDict,
    seat: int,
    entry: JsonDict,
    bonus: int,
    kind: str,
    source: str,
    events: list[Event],
) -> None:
    target = entry["target"]
    attacker = entry.get("attacker", f"h{seat}")
    die = _roll(d, 10)
    critical, fumble = die == 10, die == 1
    events.append(Event("roll", {"die": die, "bonus": bonus, "target": target}))
    # the counter-attack as the target stands now: a Wesen that dies of this attack still
    # strikes back, with the weapon it carried ("steht dieser dennoch zu")
    counter = _counter_strike(d, target, attacker)
    victims = [target]
    if not attacker.startswith("h") and "rundumschlag" in _abilities(d, attacker):
        victims += _sweep(d, target, attacker, seat)
    elif entry.get("area"):
        victims += _area(d, target, attacker)
    for index, victim in enumerate(victims):
        if not _target_alive(d, victim):
            continue
        direct = index == 0
        amount = 0 if fumble else die + bonus
        if critical and direct and not victim.startswith("h") and _crit_wesen(d, victim, events):
            continue  # a critical hit on a wounded Wesen kills it at once
        _deal(d, victim, amount, kind, source, events, critical=critical and direct)
    # a melee attack is answered by a counter-attack of the target (also when it died)
    if entry.get("range") != "melee":  # told, so that nobody waits for one
        events.append(Event("no_counter", {"why": "ranged", "target": target}))
        return
    if not _attacker_alive(d, attacker):
        return
    if counter is None:
        events.append(Event("no_counter", {"why": "defender", "target": target}))
        return
    bonus, counter_kind = counter
    die = _roll(d, 10)
    amount = 0 if die == 1 else die + bonus
    events.append(Event("counter", {"die": die, "bonus": bonus, "target": attacker}))
    if die == 10 and not attacker.startswith("h") and _crit_wesen(d, attacker, events):
        return
    _deal(d, attacker, amount, counter_kind, "", events, critical=die == 10)


def _attacker_alive(d: JsonDict, attacker: str) -> bool:
    return _target_alive(d, attacker)


def _sweep(d: JsonDict, target: str, attacker: str, seat: int) -> list[str]:
    """The others a Rundumschlag hits: every non-flying card in the attacker's own
    Drohbereich ("bei allen nicht-fliegenden Wesen oder Helden im Drohbereich"), i.e. what
    it could attack in melee now besides the target."""
    return [
        c
        for c in targets(d, attacker, "melee", seat)
        if c != target and (c.startswith("h") or "fliegen" not in _abilities(d, c))
    ]


def _area(d: JsonDict, target: str, attacker: str) -> list[str]:
    """The other cards an area effect hits: the target's neighbours in its row, and in 2 vs
    2 the cards at the same places of the target's team-mate."""
    owner = _owner(d, target)
    extra: list[str] = []
    mates = [s for s in range(len(d["players"])) if _side(d, s) == _side(d, owner)]
    for s in mates:
        row = d["players"][s]["row"]
        if target.startswith("h"):
            if s != owner and not d["players"][s]["out"]:
                extra.append(f"h{s}")
            continue
        pos = (
            d["players"][owner]["row"].index(target) if target in d["players"][owner]["row"] else -1
        )
        for index, cid in enumerate(row):
            if cid == target or not _is_wesen(d, cid) or d["cards"][cid].get("hidden"):
                continue
            if abs(index - pos) <= (1 if s == owner else 0):
                extra.append(cid)
    return extra


ENGINE = Telperinquar()
register(ENGINE)
