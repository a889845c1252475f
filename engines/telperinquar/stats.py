"""What a hero, a Wesen or a card is worth now: levels, attributes, armour and resistance
with equipment and modifiers, the equipment worn or carried, sides and enemies; the card
catalogue of a game. Only reads (a :data:`Board`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from engines.core import BadInput
from engines.telperinquar.cards import (
    DRAFT,
    Card,
    Catalogue,
    Level,
    catalogue,
    check_extra,
    level_rows,
    load_cards_text,
)
from engines.telperinquar.keywords import Keyword, keywords
from engines.telperinquar.state import Board, hero_seat, is_hero
from engines.telperinquar.verbs import Aimed, Bonus, Disarm, Ew, Harm, Heal, OverTimeStep, Strike

HAND = 7
MAX_WESEN = 5
MAX_EQUIP = 5
MAX_CARDS_TEXT = 200_000
EQUIPMENT = ("weapon", "armour", "shield", "gear", "artifact")
ENEMY_TARGETS = ("enemy", "enemy_hero", "enemy_wesen")


@lru_cache(maxsize=16)
def catalogue_for(text: str) -> Catalogue:
    """The built-in cards plus a group's own card file (config ``cards``, checked when the
    game starts)."""
    return catalogue(load_cards_text(text)[0]) if text else catalogue()


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


def card_of(d: Board, cid: str) -> Card:
    return catalogue_for(d.extra).cards[d.cards[cid].name]


def level_row(cls: str, level: int) -> Level:
    return level_rows(cls)[max(1, min(10, level)) - 1]


def best(d: Board, seat: int, attr: str) -> int:
    p = d.players[seat]
    return max(int(getattr(level_row(c, p.levels[c]), attr)) for c in p.classes)


def best_start(classes: Iterable[str]) -> int:
    """A hero's LP at the start: the level 1 row's (the best of a double class's)."""
    return max(level_row(c, 1).life_max for c in classes)


def hero_level(d: Board, seat: int) -> int:
    return int(max(d.players[seat].levels.values()))


def max_life(d: Board, seat: int) -> int:
    return best(d, seat, "life_max")


def hero_equip(d: Board, seat: int) -> list[str]:
    """The equipment the hero wears (not the pieces its Wesen carry)."""
    return [c for c in d.players[seat].equip if not d.cards[c].bearer]


def borne(d: Board, wesen: str) -> list[str]:
    """The equipment a Wesen carries."""
    owner = d.players[d.cards[wesen].owner]
    return [c for c in owner.equip if d.cards[c].bearer == wesen]


def _bonus_sum(d: Board, cids: Iterable[str], stat: str) -> int:
    total = 0
    for cid in cids:
        for step in card_of(d, cid).effects:
            if isinstance(step, Bonus) and step.stat == stat:
                total += step.amount
    return total


def _passive(d: Board, seat: int, stat: str) -> int:
    return _bonus_sum(d, [*hero_equip(d, seat), *d.players[seat].field], stat)


def wesen_stat(d: Board, wesen: str, stat: str) -> int:
    """A Wesen's armour, resistance, attack bonus or attribute with what it carries: a
    weapon adds its bonus, armour, shields and gear their passive bonuses."""
    card = card_of(d, wesen)
    gear = borne(d, wesen)
    if stat == "bonus":
        weapons = [card_of(d, c) for c in gear if card_of(d, c).type == "weapon"]
        return card.bonus + sum(w.bonus for w in weapons)
    if stat == "armour":
        base = card.armour
    elif stat == "resistance":
        base = card.resistance
    else:
        base = card.attributes.get(stat, 0)
    return base + _bonus_sum(d, gear, stat)


def mods(d: Board, seat: int, stat: str) -> int:
    return sum(m.amount for m in d.players[seat].mods if m.stat == stat)


def attribute(d: Board, seat: int, attr: str, card: Card | None = None) -> int:
    """A hero's attribute for ``card`` (double class: a class card reads its class's level
    card, a free card the best of both)."""
    p = d.players[seat]
    classes = [c for c in p.classes if card is None or not card.classes or c in card.classes]
    base = max(level_row(c, p.levels[c]).attribute(attr) for c in classes or p.classes)
    return base + _passive(d, seat, attr)


def armour(d: Board, seat: int) -> int:
    return best(d, seat, "armour") + _passive(d, seat, "armour") + mods(d, seat, "armour")


def resistance(d: Board, seat: int) -> int:
    return (
        best(d, seat, "resistance") + _passive(d, seat, "resistance") + mods(d, seat, "resistance")
    )


def class_ok(d: Board, seat: int, card: Card) -> bool:
    """Whether the hero's classes allow ``card`` (a draft hero ignores class restrictions)."""
    classes = d.players[seat].classes
    return not card.classes or DRAFT in classes or bool(set(card.classes) & set(classes))


def may_use(d: Board, seat: int, card: Card) -> bool:
    if not class_ok(d, seat, card):
        return False
    return all(attribute(d, seat, a, card) >= v for a, v in card.requires.items())


def side(d: Board, seat: int) -> int:
    return int(d.teams[seat])


def enemies(d: Board, seat: int) -> list[int]:
    return [
        s for s in range(len(d.players)) if side(d, s) != side(d, seat) and not d.players[s].out
    ]


def owner_of(d: Board, target: str) -> int:
    return hero_seat(target) if is_hero(target) else d.cards[target].owner


def is_wesen(d: Board, cid: str) -> bool:
    return card_of(d, cid).type == "wesen"


def strike_step(card: Card) -> Strike | None:
    return next((s for s in card.effects if isinstance(s, Strike)), None)


def offensive(card: Card) -> bool:
    """Damage, or an EW against another player's hero or Wesen ("die ... einem anderen
    Spieler und seine Karten als Ziel haben")."""
    return any(
        isinstance(s, Strike | Harm | Disarm)
        or (isinstance(s, OverTimeStep) and s.effect == "damage")
        or (isinstance(s, Ew) and s.target in ENEMY_TARGETS)
        for s in card.effects
    )


def target_kind(card: Card) -> str:
    """Whom a card's effect is aimed at: enemy (attack rules), enemy_hero, friend or self."""
    for step in card.effects:
        if isinstance(step, Harm | OverTimeStep) and step.target in ("enemy", "enemy_hero"):
            return "enemy"
        if isinstance(step, Disarm | Ew) and step.target == "enemy_hero":
            return "enemy_hero"  # no attack: the Wesen do not shield their hero
        if isinstance(step, Ew) and step.target in ENEMY_TARGETS:
            return "enemy"
        if isinstance(step, Heal | OverTimeStep | Harm) and step.target == "friend":
            return "friend"
    return "self"


def aims_at_attacker(card: Card) -> bool:
    """Whether an answer with ``card`` is aimed at the one whose action it answers."""
    return any(isinstance(s, Aimed) and s.target == "attacker" for s in card.effects)


def target_alive(d: Board, target: str) -> bool:
    if is_hero(target):
        return not d.players[hero_seat(target)].out
    owner = d.cards[target].owner
    return target in d.players[owner].row


def mover(d: Board) -> int:
    return int(d.order[d.cur])


def card_name(d: Board, cid: str) -> str:
    return d.cards[cid].name


def card_keywords(card: Card) -> tuple[Keyword, ...]:
    return keywords(card.abilities)


def keywords_of(d: Board, cid: str) -> tuple[Keyword, ...]:
    """The keywords of a card in play (its ``abilities``)."""
    return card_keywords(card_of(d, cid))


def flies(d: Board, cid: str) -> bool:
    return any(k.flies for k in keywords_of(d, cid))
