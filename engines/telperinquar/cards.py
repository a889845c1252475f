"""Telperinquár's cards as data: heroes, level cards and support cards from data/telperinquar.

``heroes.toml`` holds one ``[[hero]]`` per class and one ``[[level]]`` per class and level;
``cards.toml`` holds the support cards (``[[card]]`` with ``[[card.step]]`` tables in the effect
language below). A user may write their own cards in the same format: :func:`load_cards_text`
validates them with the line of every mistake, and :func:`catalogue` merges them with the
built-in ones (a name must be new).
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any

from engines.core.content import data_dir
from engines.effects import Item, Language, LoadError, Mistake, Param, Verb, load_toml
from engines.telperinquar.keywords import KEYWORDS
from engines.telperinquar.verbs import Step, compile_step

CLASSES = ("kaempfer", "schurke", "zauberer", "geistlicher")
ATTRIBUTES = ("kraft", "reflexe", "geist", "aura")
CARD_TYPES = ("weapon", "armour", "shield", "gear", "artifact", "wesen", "talent", "spell", "trap")
EQUIPMENT = ("weapon", "armour", "shield", "gear", "artifact")
SIZES = ("k", "m", "g")
WEIGHTS = ("l", "m", "s")
ATTACKS = ("melee", "ranged", "melee_magic", "ranged_magic")
ABILITIES = tuple(KEYWORDS)  # a Wesen's keywords: engines/telperinquar/keywords.py
RARITIES = ("common", "uncommon", "rare")
SOURCES = ("feuer", "eis", "blitz", "gift", "heilig", "schatten")
MAX_LEVEL = 10
# a level card is named after its hero: "Stufenkarte Kämpfer", "Fighter Level Card"; lists
# written with the old English word order ("Level Card Fighter") are still read
LEVEL_PREFIX = ("Stufenkarte ", "Level Card ")
LEVEL_SUFFIX_EN = " Level Card"

_TARGET = Param(
    "str",
    default="enemy",
    choices=("enemy", "enemy_hero", "enemy_wesen", "self", "friend", "attacker"),
    doc="enemy: an enemy hero or Wesen (attack rules apply); friend: own hero or Wesen",
)
# damage, healing and effects over time without a target work on the user's own hero
_OWN_TARGET = Param(
    "str",
    default="self",
    choices=_TARGET.choices,
    doc=_TARGET.doc + "; none given: the user's own hero",
)

VERBS = {
    v.name: v
    for v in (
        Verb(
            "strike",
            {
                "kind": Param("str", required=True, choices=("physical", "magical")),
                "range": Param("str", required=True, choices=("melee", "ranged")),
                "bonus": Param("int", default=0),
                "source": Param("str", default="", choices=("", *SOURCES)),
                "area": Param("bool", default=False),
            },
            "an attack: W10 + bonus against an enemy (critical 10, fumble 1)",
        ),
        Verb(
            "harm",
            {
                "amount": Param("value", required=True),
                "kind": Param("str", default="simple", choices=("simple", "physical", "magical")),
                "target": _OWN_TARGET,
                "source": Param("str", default="", choices=("", *SOURCES)),
            },
            "damage without an attack roll",
        ),
        Verb(
            "heal",
            {
                "kind": Param("str", required=True, choices=("natural", "magical")),
                "bonus": Param("int", default=0),
                "target": _OWN_TARGET,
            },
            "a healing roll: W10 + bonus (critical 10 un-wounds a Wesen, 1 heals nothing)",
        ),
        Verb(
            "bonus",
            {
                "stat": Param("str", required=True, choices=("armour", "resistance", *ATTRIBUTES)),
                "amount": Param("int", required=True),
            },
            "a passive bonus to the bearer while the card is in play",
        ),
        Verb(
            "buff",
            {
                "stat": Param("str", required=True, choices=("armour", "resistance", "bonus")),
                "amount": Param("int", required=True),
                "duration": Param("str", default="turn", choices=("turn", "attack", "round")),
            },
            "a temporary modifier on the own hero (this turn, the next attack, a round)",
        ),
        Verb(
            "over_time",
            {
                "effect": Param("str", required=True, choices=("damage", "heal")),
                "amount": Param("int", required=True),
                "rounds": Param("int", required=True),
                "target": _OWN_TARGET,
                "source": Param("str", default="", choices=("", *SOURCES)),
            },
            "now and in the user's next supply phases (each resolved on its own)",
        ),
        Verb("actions", {"amount": Param("int", required=True)}, "gain actions this turn"),
        Verb(
            "cancel",
            {"what": Param("str", required=True, choices=("melee", "ranged", "spell", "any"))},
            "a reaction: the answered attack on the own hero (or spell) does not happen",
        ),
        Verb("draw", {"count": Param("int", default=1)}, "draw cards"),
        Verb(
            "disarm",
            {
                "to": Param("str", default="discard", choices=("discard", "hand", "steal")),
                "target": Param("str", default="enemy_hero", choices=("enemy_hero", "attacker")),
            },
            "the target hero's best weapon without a Waffenkette leaves it: to its owner's"
            " discard pile, back to its owner's hand, or (steal) into the user's hand",
        ),
        Verb(
            "ew",
            {
                "against": Param("str", required=True, choices=("highest", *ATTRIBUTES, "value")),
                "value": Param("int", default=0),
                "target": _TARGET,
            },
            "an Erfolgswurf: W20 + the user's level must be higher than the target's attribute"
            " (highest: its highest one; value: the number); when it fails, the card's later"
            " steps do not happen",
        ),
    )
}

LANGUAGE = Language(
    verbs=VERBS,
    dice_keys={"@names": ""},
    player_values=(),
    condition_keys={},
    value_keys={"roll": "str"},
)


@dataclass(frozen=True, slots=True)
class Hero:
    name: str
    name_en: str
    cls: str
    symbol: str
    weapons: tuple[str, ...]
    second: tuple[str, ...]
    armour: tuple[str, ...]
    unarmed: int
    text_de: str
    text_en: str


@dataclass(frozen=True, slots=True)
class Level:
    cls: str
    level: int
    actions: int
    life: int  # gained on reaching this level (level 1: the start)
    life_max: int
    resistance: int
    armour: int
    kraft: int
    reflexe: int
    geist: int
    aura: int

    def attribute(self, name: str) -> int:
        return int(getattr(self, name))


@dataclass(frozen=True, slots=True)
class Card:
    """A support card; ``data`` is its TOML table (type values and steps)."""

    name: str
    name_en: str
    type: str
    classes: tuple[str, ...]
    play: int
    use: int
    requires: Mapping[str, int]
    defensive: bool
    inaktion: bool
    charges: int  # 0: no charges (unlimited uses)
    text_de: str
    text_en: str
    data: Mapping[str, Any]
    effects: tuple[Step, ...] = ()  # the steps compiled (verbs.py), what the rules read
    # the type's values, read once at load (0 or "" where the type has none)
    bonus: int = 0  # a weapon's or Wesen's attack bonus
    life: int = 0  # a Wesen's LP
    armour: int = 0
    resistance: int = 0
    attack: str = ""  # melee | ranged | melee_magic | ranged_magic
    size: str = ""  # a weapon's: k | m | g
    weight: str = ""  # an armour's: l | m | s
    chain: bool = False  # a Waffenkette: cannot be disarmed
    answers: str = "any"  # what a defensive card answers: any | lay | attack
    abilities: tuple[str, ...] = ()  # a Wesen's keywords (keywords.py)
    immune: tuple[str, ...] = ()  # sources that do it no harm
    double: tuple[str, ...] = ()  # sources that do it double damage
    attributes: Mapping[str, int] = field(default_factory=dict)  # a Wesen's printed ones

    @property
    def steps(self) -> list[Mapping[str, Any]]:
        return list(self.data.get("step", []))

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    @property
    def rarity(self) -> str:
        """common, uncommon or rare (booster drafts; a user card without one is common)."""
        return str(self.data.get("rarity", "common"))

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "name_en": self.name_en,
            "type": self.type,
            "classes": list(self.classes),
            "play": self.play,
            "use": self.use,
            "requires": dict(self.requires),
            "defensive": self.defensive,
            "inaktion": self.inaktion,
            "charges": self.charges,
            "rarity": self.rarity,
            "text_de": self.text_de,
            "text_en": self.text_en,
        }


_TYPE_KEYS: dict[str, dict[str, tuple[str, ...] | type]] = {
    "weapon": {"size": SIZES, "bonus": int, "attack": ATTACKS},
    "armour": {"weight": WEIGHTS, "armour": int, "resistance": int},
    "shield": {"armour": int},
    "wesen": {
        "life": int,
        "armour": int,
        "resistance": int,
        "attack": ATTACKS,
        "bonus": int,
    },
}
_COMMON = {
    "name",
    "name_en",
    "type",
    "classes",
    "play",
    "use",
    "requires",
    "defensive",
    "inaktion",
    "charges",
    "text_de",
    "text_en",
    "step",
    "test",
}
_OPTIONAL = {"chain", "abilities", "immune", "double", "attributes", "rarity", "answers"}
ANSWERS = ("any", "lay", "attack")  # what a defensive card answers (default any)
_TEST_KEYS = {"hero", "enemy", "action", "target", "attack", "dice", "expect", "enemy_equip"}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _choices(values: Any) -> str:
    return ", ".join(f"`{v}`" for v in values)


def check_card(entry: Mapping[str, Any]) -> list[Mistake]:
    """The mistakes of one card table beyond its steps (types, values, known keys); each
    names its key, a message code (translated by the bot) and an English text."""
    errors: list[Mistake] = []

    def bad(key: str, code: str, english: str, **params: Any) -> None:
        errors.append(Mistake(key, code, {"field": key, **params}, english))

    kind = entry.get("type")
    if kind not in CARD_TYPES:
        bad("type", "choice", f"one of {_choices(CARD_TYPES)}", choices=_choices(CARD_TYPES))
        return errors
    for key in ("name", "name_en", "text_de", "text_en"):
        if not isinstance(entry.get(key), str) or not entry.get(key):
            bad(key, "text", "a non-empty text")
    for key in ("name", "name_en"):  # drawn on boards and cards: one printable line
        value = entry.get(key)
        if isinstance(value, str) and value and not value.isprintable():
            bad(key, "one_line", "one line of printable text (no line breaks)")
    name = str(entry.get("name", ""))
    if (
        name.startswith(LEVEL_PREFIX)
        or name.casefold().endswith(LEVEL_SUFFIX_EN.casefold())
        or name.casefold() in {c.casefold() for c in _hero_names()}
    ):
        bad("name", "name_taken", "taken by a hero or level card")
    for key in ("play", "use"):
        value = entry.get(key, 0)
        if not _is_int(value) or not 0 <= value <= 20:
            bad(key, "cost", "an action cost 0-20")
    charges = entry.get("charges", 0)
    if not _is_int(charges) or charges < 0:
        bad("charges", "count", "a count of 0 or more")
    _check_lists(entry, bad)
    for key in ("defensive", "inaktion", "chain"):
        if key in entry and not isinstance(entry[key], bool):
            bad(key, "bool", "true or false")
    wanted = _TYPE_KEYS.get(str(kind), {})
    for key, spec in wanted.items():
        value = entry.get(key)
        if spec is int and not _is_int(value):
            bad(key, "int_for", f"an integer (needed for a {kind})", kind=str(kind))
        elif isinstance(spec, tuple) and value not in spec:
            bad(key, "choice", f"one of {_choices(spec)}", choices=_choices(spec))
    if entry.get("answers", "any") not in ANSWERS:
        bad("answers", "choice", f"one of {_choices(ANSWERS)}", choices=_choices(ANSWERS))
    if entry.get("rarity", "common") not in RARITIES:
        bad("rarity", "choice", f"one of {_choices(RARITIES)}", choices=_choices(RARITIES))
    unknown = sorted(set(entry) - _COMMON - _OPTIONAL - set(wanted))
    for key in unknown:
        bad(key, "unknown_key", "an unknown key")
    test = entry.get("test", {})
    if not isinstance(test, dict) or set(test) - _TEST_KEYS:
        keys = _choices(sorted(_TEST_KEYS))
        bad("test", "test_keys", f"a table with {keys}", choices=keys)
    elif not isinstance(test.get("expect", {}), dict) or not isinstance(test.get("dice", []), list):
        bad("test", "test_shape", "expect is a table, dice a list of numbers")
    if kind == "wesen" and _is_int(entry.get("life")) and entry["life"] < 1:
        bad("life", "life_min", "at least 1")
    return errors


def _check_lists(entry: Mapping[str, Any], bad: Callable[..., None]) -> None:
    """Classes, abilities, immunities and attribute tables."""
    lists = (("classes", CLASSES), ("abilities", tuple(KEYWORDS)), ("immune", SOURCES))
    for key, allowed in (*lists, ("double", SOURCES)):
        values = entry.get(key, [])
        if not isinstance(values, list) or any(v not in allowed for v in values):
            bad(key, "list_of", f"a list of {_choices(allowed)}", choices=_choices(allowed))
    for key in ("requires", "attributes"):
        table = entry.get(key, {})
        if not isinstance(table, dict) or any(
            k not in ATTRIBUTES or not _is_int(v) for k, v in table.items()
        ):
            names = _choices(ATTRIBUTES)
            bad(key, "attributes", f"attribute values ({names})", choices=names)


def _card(item: Item) -> Card:
    d = item.data
    return Card(
        name=str(d["name"]),
        name_en=str(d["name_en"]),
        type=str(d["type"]),
        classes=tuple(d.get("classes", [])),
        play=int(d.get("play", 0)),
        use=int(d.get("use", 0)),
        requires=dict(d.get("requires", {})),
        defensive=bool(d.get("defensive", False)),
        inaktion=bool(d.get("inaktion", False)),
        charges=int(d.get("charges", 0)),
        text_de=str(d["text_de"]),
        text_en=str(d["text_en"]),
        data=d,
        effects=tuple(compile_step(step) for step in d.get("step", [])),
        bonus=int(d.get("bonus", 0)),
        life=int(d.get("life", 0)),
        armour=int(d.get("armour", 0)),
        resistance=int(d.get("resistance", 0)),
        attack=str(d.get("attack", "")),
        size=str(d.get("size", "")),
        weight=str(d.get("weight", "")),
        chain=bool(d.get("chain", False)),
        answers=str(d.get("answers", "any")),
        abilities=tuple(d.get("abilities", ())),
        immune=tuple(d.get("immune", ())),
        double=tuple(d.get("double", ())),
        attributes=dict(d.get("attributes", {})),
    )


def load_cards_text(text: str) -> tuple[list[Card], list[LoadError]]:
    """The cards of a TOML text and its mistakes (cards with mistakes are left out)."""
    items, errors = load_toml(text, LANGUAGE, table="card", check_item=check_card)
    return [_card(item) for item in items], errors


@cache
def _hero_data() -> Mapping[str, Any]:
    with open(data_dir("telperinquar", "heroes.toml"), "rb") as handle:
        heroes = tomllib.load(handle)
    with open(data_dir("telperinquar", "levels.toml"), "rb") as handle:
        levels = tomllib.load(handle)
    return {"hero": heroes["hero"], "level": levels["level"]}


def _hero_names() -> list[str]:
    rows = [*_hero_data()["hero"], _draft_data()["hero"]]
    return [h["name"] for h in rows] + [h["name_en"] for h in rows]


@cache
def heroes() -> dict[str, Hero]:
    """The heroes by class."""
    out = {}
    for h in _hero_data()["hero"]:
        out[h["class"]] = Hero(
            h["name"],
            h["name_en"],
            h["class"],
            h["symbol"],
            tuple(h["weapons"]),
            tuple(h["second"]),
            tuple(h["armour"]),
            int(h["unarmed"]),
            h["text_de"],
            h["text_en"],
        )
    return out


@cache
def levels() -> dict[str, tuple[Level, ...]]:
    """Each class's level card rows, level 1 first."""
    rows: dict[str, list[Level]] = {c: [] for c in CLASSES}
    for r in _hero_data()["level"]:
        rows[r["class"]].append(_level(r))
    return {c: tuple(sorted(v, key=lambda lv: lv.level)) for c, v in rows.items()}


DRAFT = "draft"  # the booster draft's hero class (data/telperinquar/draft.toml)


@cache
def _draft_data() -> Mapping[str, Any]:
    with open(data_dir("telperinquar", "draft.toml"), "rb") as handle:
        return tomllib.load(handle)


def _level(r: Mapping[str, Any]) -> Level:
    return Level(
        r["class"],
        r["level"],
        r["actions"],
        r["life"],
        r["life_max"],
        r["resistance"],
        r["armour"],
        r["kraft"],
        r["reflexe"],
        r["geist"],
        r["aura"],
    )


@cache
def draft_hero() -> Hero:
    """The booster draft's hero (every class restriction lifted, unarmed −5)."""
    h = _draft_data()["hero"]
    return Hero(
        h["name"],
        h["name_en"],
        DRAFT,
        h["symbol"],
        tuple(h["weapons"]),
        tuple(h["second"]),
        tuple(h["armour"]),
        int(h["unarmed"]),
        h["text_de"],
        h["text_en"],
    )


@cache
def draft_levels() -> tuple[Level, ...]:
    """The draft level card's rows, level 1 first (the rulebook's table)."""
    return tuple(sorted((_level(r) for r in _draft_data()["level"]), key=lambda lv: lv.level))


def hero_of(cls: str) -> Hero:
    """The hero card of a class (``draft``: the draft hero)."""
    return draft_hero() if cls == DRAFT else heroes()[cls]


def level_rows(cls: str) -> tuple[Level, ...]:
    """A class's level card rows (``draft``: the draft level card)."""
    return draft_levels() if cls == DRAFT else levels()[cls]


_LEVEL_KEYS = tuple(f.name for f in fields(Level) if f.name != "cls")


def level_card_name(cls: str, lang: str = "de") -> str:
    hero = hero_of(cls)
    return f"{LEVEL_PREFIX[0]}{hero.name}" if lang == "de" else f"{hero.name_en}{LEVEL_SUFFIX_EN}"


def _level_card_names(cls: str) -> tuple[str, ...]:
    """Every name a list may give the level card of ``cls``, casefolded (the old English
    word order too)."""
    old_en = f"{LEVEL_PREFIX[1]}{hero_of(cls).name_en}"
    return tuple(n.casefold() for n in (level_card_name(cls), level_card_name(cls, "en"), old_en))


@cache
def builtin_cards() -> tuple[Card, ...]:
    text = data_dir("telperinquar", "cards.toml").read_text(encoding="utf-8")
    cards, errors = load_cards_text(text)
    if errors:  # the project's own data: a mistake is a bug the tests catch
        raise ValueError("; ".join(str(e) for e in errors))
    return tuple(cards)


@dataclass(frozen=True)
class Catalogue:
    """Every card a deck may name: heroes, level cards, support cards (German names are the
    keys; English names are accepted on import)."""

    cards: Mapping[str, Card]

    def support(self, name: str) -> Card | None:
        return self.cards.get(name)

    def all_names(self) -> list[str]:
        """Every name a list may use (German and English)."""
        names: list[str] = []
        for cls, hero in [*heroes().items(), (DRAFT, draft_hero())]:
            names += [hero.name, hero.name_en, level_card_name(cls), level_card_name(cls, "en")]
        for card in self.cards.values():
            names += [card.name, card.name_en]
        return names

    def resolve(self, name: str) -> tuple[str, str, str] | None:
        """``(kind, key, german name)`` for a name in either language, case-insensitive:
        kind ``hero``/``level`` (key: the class) or ``card`` (key: the German name)."""
        folded = name.strip().casefold()
        for cls, hero in [*heroes().items(), (DRAFT, draft_hero())]:
            if folded in (hero.name.casefold(), hero.name_en.casefold()):
                return "hero", cls, hero.name
            if folded in _level_card_names(cls):
                return "level", cls, level_card_name(cls)
        for card in self.cards.values():
            if folded in (card.name.casefold(), card.name_en.casefold()):
                return "card", card.name, card.name
        return None


def catalogue(extra: Sequence[Card] = ()) -> Catalogue:
    """The built-in cards plus ``extra`` (user cards; their names must be new: a clash is
    the caller's BadInput, see :func:`check_extra`)."""
    if not extra:
        return _builtin_catalogue()
    cards = {c.name: c for c in builtin_cards()}
    for card in extra:
        cards.setdefault(card.name, card)
    return Catalogue(cards)


@cache
def _builtin_catalogue() -> Catalogue:
    return Catalogue({c.name: c for c in builtin_cards()})


def check_extra(extra: Sequence[Card]) -> list[str]:
    """Names of user cards that clash with a built-in name (either language)."""
    base = catalogue()
    return [c.name for c in extra if base.resolve(c.name) or base.resolve(c.name_en)]


def card_json(cat: Catalogue) -> list[dict[str, Any]]:
    """Every card as plain data (heroes, level cards, the booster draft's hero and level
    card, support cards)."""
    out: list[dict[str, Any]] = []
    for cls, hero in [*heroes().items(), (DRAFT, draft_hero())]:
        out.append(
            {
                "name": hero.name,
                "name_en": hero.name_en,
                "type": "hero",
                "classes": [cls],
                "symbol": hero.symbol,
                "weapons": list(hero.weapons),
                "second": list(hero.second),
                "armour": list(hero.armour),
                "unarmed": hero.unarmed,
                "text_de": hero.text_de,
                "text_en": hero.text_en,
            }
        )
        out.append(
            {
                "name": level_card_name(cls),
                "name_en": level_card_name(cls, "en"),
                "type": "level",
                "classes": [cls],
                "levels": [{k: getattr(r, k) for k in _LEVEL_KEYS} for r in level_rows(cls)],
                "text_de": f"Stufenkarte: {hero.name}, Stufe 1-10.",
                "text_en": f"Level card: {hero.name_en}, levels 1-10.",
            }
        )
    out += [card.to_json() for card in cat.cards.values()]
    return out
