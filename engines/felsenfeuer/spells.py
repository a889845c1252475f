"""The spellbook: Felsenfeuer's effect language and the spells loaded from data/felsenfeuer.

A spell file is TOML: ``[[spell]]`` tables with ``name``, ``colour``, ``pips``, ``star``,
``blood``, ``ritual``, ``keyword``, ``text_de``/``text_en`` (what players read), ``meta_de``/
``meta_en`` (meta sentences), and ``[[spell.step]]`` tables, one per sentence, each with its
``text_de``/``text_en`` and a verb (``do``) with its parameters, or ``parts`` (a sentence of
several instructions; ``joined = true`` makes it lapse whole when one part has no target, the
Visir-Regel). The verbs and selectors are listed in ``LANGUAGE`` (and in RULES.md).
"""

from __future__ import annotations

import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from engines.effects import Item, Language, LoadError, Param, Verb, load_toml
from engines.effects.loader import Mistake
from engines.felsenfeuer.model import COLOURS
from engines.felsenfeuer.sentences import CountsAs, Sentence, sentence

DATA = Path(__file__).resolve().parents[2] / "data" / "felsenfeuer"

_COUNT = Param(
    "any", default="all", doc="all | one | any (beliebige) | an integer | {up_to = n} (bis zu n)"
)
_CHOOSER = Param("str", default="caster", choices=("caster", "owner", "initiative"))
_TARGET = Param("dice", required=True, doc="the dice the instruction changes")
_PLAYERS = Param("players", default="opponents")
_PICK = Param("str", default="all", choices=("all", "one", "any"))


def _verb(name: str, doc: str, **params: Param) -> Verb:
    return Verb(name, params, doc)


def _targeted(name: str, doc: str, **more: Param) -> Verb:
    return _verb(name, doc, target=_TARGET, count=_COUNT, chooser=_CHOOSER, **more)


VERBS = {
    v.name: v
    for v in (
        _targeted(
            "lay",
            "lay hand runes as glyphs on the Duellplatz",
            value=Param("any", default="choose"),
        ),
        _targeted("trigger", "trigger glyphs (their owners may cast)"),
        _targeted("ban", "ban glyphs (no spell)"),
        _targeted("reactivate", "runes on a matrix become glyphs"),
        _targeted("destroy", "dice into their owners' bags"),
        _targeted("take_to_hand", "dice onto their owners' hands"),
        _targeted(
            "move_to_matrix",
            "dice to another matrix (essences take the marker along)",
            to=Param("str", required=True, choices=("duellplatz", "start", "marker", "choose")),
        ),
        _verb(
            "new_matrix",
            "dice to a new, empty matrix",
            target=_TARGET,
            extra=Param("dice"),
            extra_count=Param("any", default="any", doc=_COUNT.doc),
        ),
        _verb(
            "manifest",
            "build a temple: a rune on up to four shrines",
            target=_TARGET,
            shrines=Param("dice", required=True),
            shrine_count=Param("any", default="any"),
        ),
        _targeted("set_pips", "give dice pips", value=Param("any", required=True)),
        _verb(
            "swap_pips",
            "swap the pips of one die of target and one of other (essences or runes)",
            target=_TARGET,
            other=Param("dice", required=True, doc="the second die's selector"),
        ),
        _targeted("raise_pips", "raise pips (not beyond 6)", amount=Param("value", default=1)),
        _targeted("lower_pips", "lower pips (not below 1)", amount=Param("value", default=1)),
        _verb(
            "counts_as",
            "a 'zählt als' effect for the rest of the spell",
            target=Param("dice"),
            players=Param("players", default="self", doc="whose hands do not count (nohand)"),
            property=Param("str", required=True, choices=("colour", "pips", "nohand", "named")),
            value=Param("any", default=""),
        ),
        _verb("renew", "an Erneuerung (the stone stays)"),
        _targeted("freeze", "freeze glyphs"),
        _targeted("thaw", "thaw frozen glyphs"),
        _verb(
            "cast",
            "cast another spell at once",
            colour=Param("any", default=""),
            pips=Param("any", default=0),
        ),
        _targeted("float", "runes float over the Duellplatz"),
        _verb(
            "cauldron",
            "bags onto the Duellplatz as cauldrons",
            players=Param("players", default="self"),
            pick=_PICK,
        ),
        _targeted("second_hand", "runes onto their owners' second hands"),
        _verb(
            "attack", "attack players", players=_PLAYERS, pick=_PICK, times=Param("int", default=1)
        ),
        _verb(
            "lose_essence",
            "players lose essence points",
            players=_PLAYERS,
            pick=_PICK,
            amount=Param("value", default=1),
        ),
        _verb(
            "gain_essence",
            "players gain essence points (at most 6 per essence)",
            players=Param("players", default="self"),
            pick=_PICK,
            amount=Param("value", default=1),
        ),
        _verb("set_caster", "another player counts as caster", players=Param("players", True)),
        _verb("win", "the players are declared winners", players=Param("players", True)),
    )
}

_ZONES = "hand|bag|container|matrix|glyph|rune|essence|float|cauldron"
_OWNERS = "self|ally|team|opponent|others|any|chooser"
LANGUAGE = Language(
    verbs=VERBS,
    dice_keys={
        "@names": "spruchrune",
        "zone": f"enum:{_ZONES}",
        "owner": f"enum:{_OWNERS}",
        "colour": "enum:" + "|".join(COLOURS) + "|this",
        "hand": "enum:first|second|this|other",
        "named": "str",
        "pips": "int",
        "pips_min": "int",
        "pips_max": "int",
        "on": "enum:duellplatz|start|marker|any",
        "spruchrune": "bool",
        "frozen": "bool",
        "shrine": "bool",
        "temple": "bool",
        "bound": "str",
        "lowest": "bool",
        "highest": "bool",
        "any_of": "dice_list",
    },
    player_values=(
        "self",
        "opponents",
        "allies",
        "team",
        "all",
        "others",
        "initiative",
        "spruchrune_owner",
    ),
    condition_keys={
        "exists": "dice",
        "none": "dice",
        "not": "cond",
        "all": "cond_list",
        "any": "cond_list",
        "initiative": "players",
        "essence_at_most": "int",
        "duellplatz": "bool",
        "allies": "bool",
        "compare": "compare",
        "some_hand": "cond",
        "each_colour": "cond",
    },
    value_keys={
        "count": "dice",
        "pips_of_spruchrune": "bool",
        "essence": "str",
        "sum_pips": "dice",
        "essence_of": "players",
        "add": "value_list",
        "min": "value_list",
    },
    extra_check=lambda part: check_values(part),
    step_params={
        "repeat": Param("value", doc="run the sentence this many times (at most 12)"),
        "for_each": Param("dice", doc='run it once per die named now; {bound = "each"}'),
        "choose_hand": Param("bool", doc='the caster chooses the hand hand = "this" names'),
        "keyword": Param("str", doc="the keyword whose sentence this is (keywords/*.toml)"),
    },
    expand_step=lambda step: expand_keyword(step),
)


@cache
def keywords() -> Mapping[str, Mapping[str, Any]]:
    """The keywords (Schlüsselwörter) of data/felsenfeuer/keywords/*.toml by name: each the
    sentence it abbreviates (its texts and its step)."""
    found: dict[str, Mapping[str, Any]] = {}
    for path in sorted((DATA / "keywords").glob("*.toml")):
        for entry in tomllib.loads(path.read_text(encoding="utf-8")).get("keyword", []):
            found[str(entry["name"])] = entry
    return found


def expand_keyword(step: Mapping[str, Any]) -> Mapping[str, Any]:
    """A sentence that names a keyword and no verb is the keyword's sentence (its condition,
    verb and parameters); the sentence's own texts stay ("Telekinese: Falls du …")."""
    name = step.get("keyword")
    if not isinstance(name, str) or "do" in step or "parts" in step or name not in keywords():
        return step
    return {**keywords()[name]["step"], **step}


@dataclass(frozen=True, slots=True)
class Spell:
    name: str
    slug: str
    colour: str
    pips: int
    star: bool
    blood: bool
    ritual: bool
    keyword: str
    text_de: str
    text_en: str
    meta_de: tuple[str, ...]
    meta_en: tuple[str, ...]
    steps: tuple[Sentence, ...]  # compiled at load (``engines.felsenfeuer.sentences``)
    own: bool  # the project's own text (not from the rulebook)
    source: str
    line: int
    test: Mapping[str, Any]  # the spell's own scenario ([spell.test]), may be empty
    reads_essences: bool = False  # its sentences look at essences (paying for it changes them)

    def summary(self) -> dict[str, Any]:
        return {"name": self.name, "slug": self.slug, "colour": self.colour, "pips": self.pips,
                "star": self.star, "blood": self.blood, "ritual": self.ritual,
                "keyword": self.keyword, "text_de": self.text_de, "text_en": self.text_en,
                "own_text": self.own}  # fmt: skip


def slug_of(name: str) -> str:
    flat = name.lower().replace("ß", "ss")
    for a, b in (("ä", "ae"), ("ö", "oe"), ("ü", "ue")):
        flat = flat.replace(a, b)
    flat = unicodedata.normalize("NFKD", flat).encode("ascii", "ignore").decode()
    return "-".join("".join(c if c.isalnum() else " " for c in flat).split())


_ITEM_KEYS = {"name", "colour", "pips", "star", "blood", "ritual", "keyword", "text_de",
              "text_en", "meta_de", "meta_en", "step", "own", "test"}  # fmt: skip
_TEST_KEYS = {"dice", "extra", "rune", "caster", "answers", "expect", "rules", "teams"}


def _is_count(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, dict):  # {up_to = 2}: "bis zu zwei", any of them up to that many
        limit = value.get("up_to")
        return set(value) == {"up_to"} and isinstance(limit, int) and not isinstance(limit, bool) \
            and limit >= 1  # fmt: skip
    return value in ("all", "one", "any") or (isinstance(value, int) and value >= 1)


def check_values(part: Mapping[str, Any]) -> list[str]:
    """What the declared types cannot say: counts, pips, colours of a part (each message
    starts with the key it is about)."""
    errors = []
    for key in ("count", "extra_count", "shrine_count"):
        if key in part and not _is_count(part[key]):
            errors.append(f"{key}: must be all, one, any, a positive integer or {{up_to = n}}")
    verb = part.get("do")
    value = part.get("value")
    plain_pips = isinstance(value, dict) or (isinstance(value, int) and 1 <= value <= 6)
    if verb in ("set_pips", "lay") and value not in (None, "choose") and not plain_pips:
        errors.append('value: must be 1..6, "choose" or a value table')
    if verb == "counts_as":
        prop = part.get("property")
        if prop == "named" and not (isinstance(value, str) and value[:1].isupper()):
            errors.append('value: a named property is a capitalised name ("Fluchrune")')
        if prop == "colour" and value not in (*COLOURS, "alle"):
            errors.append(f'a colour effect needs a colour or "alle", not {value!r}')
        if prop == "pips" and not (isinstance(value, int) and 1 <= value <= 6):
            errors.append("value: a pips effect needs pips 1..6")
        if prop != "nohand" and "target" not in part:
            errors.append("property: a colour or pips effect needs a target")
    if verb == "cast":
        colours = part.get("colour", "")
        for colour in colours if isinstance(colours, list) else [colours]:
            if colour and colour not in COLOURS:
                errors.append(f"colour: unknown colour {colour!r}")
        pips = part.get("pips", 0)
        if not isinstance(pips, int) or not 0 <= pips <= 6:
            errors.append("pips: must be 0 (any) or 1..6")
    return errors


def _check_item(entry: Mapping[str, Any]) -> list[str | Mistake]:
    errors: list[str | Mistake] = [f"unknown key {k!r}" for k in entry if k not in _ITEM_KEYS]
    if not isinstance(entry.get("name"), str) or not entry.get("name"):
        errors.append("needs a name")
    elif not str(entry["name"]).isprintable():  # drawn on the board: one printable line
        errors.append("name must be one line of printable text (no line breaks)")
    if entry.get("colour") not in COLOURS:
        errors.append(f"colour {entry.get('colour')!r} is not one of {list(COLOURS)}")
    pips = entry.get("pips")
    if not isinstance(pips, int) or isinstance(pips, bool) or not 1 <= pips <= 6:
        errors.append("pips must be 1..6")
    for key in ("star", "blood", "ritual", "own"):
        if key in entry and not isinstance(entry[key], bool):
            errors.append(f"{key} must be true or false")
    for key in ("text_de", "text_en"):
        if not isinstance(entry.get(key), str) or not entry.get(key):
            errors.append(f"needs {key}")
    for number, step in enumerate(entry.get("step", []) or [], start=1):
        name = step.get("keyword") if isinstance(step, dict) else None
        if name is None:
            continue
        if name not in keywords():
            errors.append(Mistake("keyword", "keyword", {"name": name},
                                  f"step {number}: unknown keyword {name!r} "
                                  f"(known: {sorted(keywords())})"))  # fmt: skip
        elif not str(step.get("text_de", "")).startswith(f"{name}: "):
            errors.append(
                Mistake(
                    "keyword",
                    "keyword_text",
                    {"name": name},
                    f'step {number}: the sentence starts with "{name}: "',
                )
            )
    test = entry.get("test", {})
    if not isinstance(test, dict):
        errors.append("test must be a table")
    else:
        errors += [f"test: unknown key {k!r}" for k in test if k not in _TEST_KEYS]
        if not isinstance(test.get("expect", {}), dict):
            errors.append("test.expect must be a table")
    return errors


def _compiled(item: Item, step_key: str = "step") -> tuple[Sentence, ...]:
    """The item's sentences compiled (ValueError naming the line of the step that fails)."""
    steps = list(item.data[step_key])
    out = []
    for number, step in enumerate(steps):
        try:
            out.append(sentence(step, VERBS))
        except ValueError as error:
            line = item.step_lines[number] if number < len(item.step_lines) else item.line
            raise _Uncompiled(line, f"step {number + 1}: {error}") from None
    return tuple(out)


class _Uncompiled(ValueError):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line, self.message = line, message


def _to_spell(item: Item, source: str) -> Spell:
    d = item.data
    return Spell(
        name=str(d["name"]), slug=slug_of(str(d["name"])), colour=str(d["colour"]),
        pips=int(d["pips"]), star=bool(d.get("star", False)), blood=bool(d.get("blood", False)),
        ritual=bool(d.get("ritual", False)), keyword=str(d.get("keyword", "")),
        text_de=str(d["text_de"]), text_en=str(d["text_en"]),
        meta_de=tuple(d.get("meta_de", [])), meta_en=tuple(d.get("meta_en", [])),
        steps=_compiled(item), own=bool(d.get("own", True)), source=source, line=item.line,
        test=dict(d.get("test", {})), reads_essences="essence" in repr(tuple(d["step"])),
    )  # fmt: skip


def load_text(text: str, source: str = "<text>") -> tuple[list[Spell], list[LoadError]]:
    """The spells of ``text`` and every mistake (each with its item and line)."""
    items, errors = load_toml(text, LANGUAGE, table="spell", check_item=_check_item)
    spells = []
    for item in items:
        try:
            spells.append(_to_spell(item, source))
        except _Uncompiled as error:
            errors.append(LoadError(item.name, error.line, error.message, "step"))
    return spells, errors


def load_file(path: Path) -> tuple[list[Spell], list[LoadError]]:
    return load_text(path.read_text(encoding="utf-8"), path.name)


@dataclass(frozen=True, slots=True)
class Sphere:
    """A sphere (Weltentor): in force while a rune of its colour and pips floats. Its steps
    are ``counts_as`` effects whose targets are named by the dice's own properties."""

    name: str
    slug: str
    colour: str
    pips: int
    text_de: str
    text_en: str
    effects: tuple[CountsAs, ...]
    own: bool
    line: int

    def summary(self) -> dict[str, Any]:
        return {"name": self.name, "slug": self.slug, "colour": self.colour, "pips": self.pips,
                "text_de": self.text_de, "text_en": self.text_en, "own_text": self.own}  # fmt: skip


_SPHERE_KEYS = {"name", "colour", "pips", "text_de", "text_en", "step", "own"}
_SPHERE_SELECTOR = {"zone", "colour", "pips", "frozen"}


def check_sphere(entry: Mapping[str, Any]) -> list[str]:
    errors = [f"unknown key {k!r}" for k in entry if k not in _SPHERE_KEYS]
    errors += [str(e) for e in _check_item({**entry, "own": entry.get("own", True)})
               if not str(e).startswith("unknown key")]  # fmt: skip
    for number, step in enumerate(entry.get("step", []), start=1):
        if not isinstance(step, dict) or step.get("do") != "counts_as":
            errors.append(f"step {number}: a sphere's steps are counts_as effects")
            continue
        target = step.get("target", {})
        if not isinstance(target, dict) or set(target) - _SPHERE_SELECTOR:
            errors.append(f"step {number}: a sphere names dice by {sorted(_SPHERE_SELECTOR)}")
        if step.get("property") == "nohand" and step.get("players", "all") != "all":
            errors.append(f"step {number}: a sphere's nohand applies to all players")
    return errors


@cache
def spheres() -> Mapping[str, Sphere]:
    """Every sphere of data/felsenfeuer/spheres/*.toml by slug (ValueError on a mistake)."""
    found: dict[str, Sphere] = {}
    problems: list[str] = []
    for path in sorted((DATA / "spheres").glob("*.toml")):
        items, errors = load_toml(path.read_text(encoding="utf-8"), LANGUAGE, table="sphere",
                                  check_item=check_sphere)  # fmt: skip
        problems += [f"{path.name}: {e}" for e in errors]
        for item in items:
            d = item.data
            try:
                effects = tuple(p for s in _compiled(item) for p in s.parts
                                if isinstance(p, CountsAs))  # fmt: skip
            except _Uncompiled as error:
                problems.append(f"{path.name}: line {error.line}: {item.name}: {error.message}")
                continue
            sphere = Sphere(str(d["name"]), slug_of(str(d["name"])), str(d["colour"]),
                            int(d["pips"]), str(d["text_de"]), str(d["text_en"]),
                            effects, bool(d.get("own", True)), item.line)  # fmt: skip
            found[sphere.slug] = sphere
    if problems:
        raise ValueError("; ".join(problems))
    return found


@cache
def spellbook() -> Mapping[str, Spell]:
    """Every spell of data/felsenfeuer/*.toml by slug. Raises ValueError on any mistake (the
    corpus is checked in the tests; a broken file must not load half)."""
    book: dict[str, Spell] = {}
    problems: list[str] = []
    for path in sorted(DATA.glob("*.toml")):
        spells, errors = load_file(path)
        problems += [f"{path.name}: {e}" for e in errors]
        for spell in spells:
            if spell.slug in book:
                problems.append(f"{path.name}: line {spell.line}: {spell.name}: name twice")
            book[spell.slug] = spell
    if problems:
        raise ValueError("; ".join(problems))
    return book


# --- a group's own spells (uploaded TOML in the same format) ----------------------------------
Spellbook = Mapping[str, Spell]
MAX_EXTRA_BYTES = 128_000  # an uploaded spell file at most (the whole shipped book is ~60 kB)
MAX_EXTRA_SPELLS = 200


def extra_problems(extra_toml: str) -> tuple[list[Spell], list[str]]:
    """The spells of an uploaded file and its mistakes (each ``line N: Name: message``)."""
    size = len(extra_toml.encode("utf-8"))
    if size > MAX_EXTRA_BYTES:
        return [], [f"the file has {size} bytes, at most {MAX_EXTRA_BYTES} are allowed"]
    spells, errors = load_text(extra_toml, "upload")
    problems = [str(e) for e in errors]
    if not spells and not errors:
        problems.append("the file holds no [[spell]] table")
    if len(spells) > MAX_EXTRA_SPELLS:
        problems.append(f"{len(spells)} spells, at most {MAX_EXTRA_SPELLS} in one file")
    return spells, problems


@lru_cache(maxsize=32)
def merged(extra_toml: str) -> Spellbook:
    """The shipped spellbook with an uploaded file's spells added or put in place of the
    shipped spell of the same name (loader checks only; ValueError on a mistake)."""
    spells, problems = extra_problems(extra_toml)
    if problems:
        raise ValueError("; ".join(problems))
    book = dict(spellbook())
    for spell in spells:
        book[spell.slug] = spell
    return book


def book_for(extra_toml: str) -> Spellbook:
    """The spellbook a duel plays with (its config's ``spells``: an uploaded file or "")."""
    return merged(extra_toml) if extra_toml else spellbook()
