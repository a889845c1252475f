"""Sheet JSON import/export (schema-versioned, strict), single-field edits and NPC blocks.

Every validation error is ``BadInput(key, field=<path>, ...)``: the key names the kind of
problem (``w6.sheet.not_integer`` ...), ``field`` the path of the offending value
(``waffen.Streitaxt.schaden``), so a message can point at exactly that field.
"""

from __future__ import annotations

import json
import re
from typing import Any

from engines.core import BadInput
from engines.core.jsontext import has_breaking_chars, load_json
from engines.w6.sheet import (
    FIXABLE,
    PM_REQUIRED,
    TECHNIQUES,
    Armour,
    Bonus,
    Mount,
    Pairs,
    Sheet,
    Shield,
    Weapon,
)
from engines.w6.tables import zones

SCHEMA = "w6.sheet"
VERSION = 1
MAX_VALUE = 999
MAX_NAME = 64
MAX_NOTES = 4000
MAX_ENTRIES = 64
MAX_SHEET_BYTES = 200_000
NOTE_WHITESPACE = "\n\r\t"  # the only control characters free text (notes) may hold

_RATIO = re.compile(r"^\s*(\d{1,2})\s*-\s*(\d{1,2})\s*$")
_BONUS = re.compile(r"^\s*(?:([A-Za-zÄÖÜäöüß]{1,12})\s*)?(?:([+-])\s*(\d{1,3}))?\s*$")
_STAB = re.compile(r"^\s*(\d{1,3})\s*/\s*(\d{1,3})\s*$")

TOP_KEYS = (
    "schema",
    "version",
    "name",
    "rasse",
    "pm",
    "eigenschaften",
    "fertigkeiten",
    "erfahrung",
    "faktor",
    "lp",
    "lp_max",
    "rlp",
    "kw",
    "reflex",
    "magie",
    "ab",
    "handlungen",
    "waffen",
    "ruestung",
    "schild",
    "reittier",
    "be_temp",
    "be_fertigkeiten",
    "schwelle_mod",
    "fix",
    "notizen",
)
REQUIRED_KEYS = ("schema", "version", "name")
INT_FIELDS = {
    "erfahrung": (0, 100_000),
    "faktor": (0, 99),
    "lp": (-MAX_VALUE, MAX_VALUE),
    "lp_max": (0, MAX_VALUE),
    "rlp": (0, MAX_VALUE),
    "kw": (0, MAX_VALUE),
    "reflex": (0, MAX_VALUE),
    "magie": (0, MAX_VALUE),
    "ab": (-MAX_VALUE, MAX_VALUE),
    "be_temp": (-MAX_VALUE, MAX_VALUE),
    "schwelle_mod": (-99, 99),
}
WEAPON_KEYS = (
    "name",
    "fertigkeit",
    "schaden",
    "zusatz",
    "cap",
    "reichweite",
    "techniken",
    "fernkampf",
    "zielen",
    "block",
    "stabilitaet",
)
ARMOUR_KEYS = ("name", "zone", "rs", "be")
SHIELD_KEYS = ("name", "kw_bonus", "be", "block", "rs", "stabilitaet")
MOUNT_KEYS = ("name", "be")


# ----------------------------------------------------------------------------- export


def _stab_text(value: tuple[int, int] | None) -> str | None:
    return None if value is None else f"{value[0]}/{value[1]}"


def _weapon_json(w: Weapon) -> dict[str, Any]:
    return {
        "name": w.name,
        "fertigkeit": w.fertigkeit,
        "schaden": f"{w.schaden[0]}-{w.schaden[1]}",
        "zusatz": w.zusatz.text(),
        "cap": w.cap,
        "reichweite": w.reichweite,
        "techniken": list(w.techniken),
        "fernkampf": w.fernkampf,
        "zielen": w.zielen,
        "block": w.block,
        "stabilitaet": _stab_text(w.stabilitaet),
    }


def sheet_to_json(sheet: Sheet) -> dict[str, Any]:
    """The sheet as plain JSON data (``sheet_from_json`` reads it back to an equal sheet)."""
    shield = sheet.schild
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "name": sheet.name,
        "rasse": sheet.rasse,
        "pm": dict(sheet.pm),
        "eigenschaften": dict(sheet.eigenschaften),
        "fertigkeiten": dict(sheet.fertigkeiten),
        "erfahrung": sheet.erfahrung,
        "faktor": sheet.faktor,
        "lp": sheet.lp,
        "lp_max": sheet.lp_max,
        "rlp": sheet.rlp,
        "kw": sheet.kw,
        "reflex": sheet.reflex,
        "magie": sheet.magie,
        "ab": sheet.ab,
        "handlungen": list(sheet.handlungen),
        "waffen": [_weapon_json(w) for w in sheet.waffen],
        "ruestung": [
            {"name": a.name, "zone": a.zone, "rs": a.rs, "be": a.be} for a in sheet.ruestung
        ],
        "schild": None
        if shield is None
        else {
            "name": shield.name,
            "kw_bonus": shield.kw_bonus,
            "be": shield.be,
            "block": shield.block,
            "rs": shield.rs,
            "stabilitaet": _stab_text(shield.stabilitaet),
        },
        "reittier": None
        if sheet.reittier is None
        else {"name": sheet.reittier.name, "be": sheet.reittier.be},
        "be_temp": sheet.be_temp,
        "be_fertigkeiten": list(sheet.be_fertigkeiten),
        "schwelle_mod": sheet.schwelle_mod,
        "fix": dict(sheet.fix),
        "notizen": sheet.notizen,
    }


def sheet_to_text(sheet: Sheet) -> str:
    """The sheet as a JSON document (for a file export)."""
    return json.dumps(sheet_to_json(sheet), ensure_ascii=False, indent=2)


# ----------------------------------------------------------------------------- import


def _int(value: Any, path: str, low: int = 0, high: int = MAX_VALUE) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput("w6.sheet.not_integer", field=path, value=str(value))
    if not low <= value <= high:
        raise BadInput("w6.sheet.out_of_range", field=path, value=value, min=low, max=high)
    return value


def _text(
    value: Any, path: str, limit: int = MAX_NAME, required: bool = False, allow: str = ""
) -> str:
    """A text field; control and separator characters (but those in ``allow``) are refused,
    so no name can break a message line or an image."""
    if not isinstance(value, str):
        raise BadInput("w6.sheet.not_text", field=path)
    if len(value) > limit:
        raise BadInput("w6.sheet.too_long", field=path, max=limit)
    if has_breaking_chars(value, allow=allow):
        raise BadInput("w6.sheet.bad_chars", field=path)
    if required and not value.strip():
        raise BadInput("w6.sheet.empty", field=path)
    return value


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise BadInput("w6.sheet.not_bool", field=path)
    return value


def _object(value: Any, path: str, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadInput("w6.sheet.not_object", field=path)
    for key in value:
        if key not in keys:
            raise unknown_field(f"{path}.{key}".lstrip("."), keys)
    return value


def unknown_field(path: str, keys: tuple[str, ...]) -> BadInput:
    """The error for a field that does not exist, listing the fields that do."""
    allowed = ", ".join(key for key in keys if key not in ("schema", "version"))
    return BadInput("w6.sheet.unknown_field", field=path, allowed=allowed)


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise BadInput("w6.sheet.not_list", field=path)
    if len(value) > MAX_ENTRIES:
        raise BadInput("w6.sheet.too_many", field=path, max=MAX_ENTRIES)
    return value


def _pairs(value: Any, path: str, low: int = 0, high: int = MAX_VALUE) -> Pairs:
    if not isinstance(value, dict):
        raise BadInput("w6.sheet.not_object", field=path)
    if len(value) > MAX_ENTRIES:
        raise BadInput("w6.sheet.too_many", field=path, max=MAX_ENTRIES)
    pairs = []
    for key, number in value.items():
        _text(key, f"{path}.{key}", required=True)
        pairs.append((key, _int(number, f"{path}.{key}", low, high)))
    return tuple(pairs)


def _ratio(value: Any, path: str) -> tuple[int, int]:
    match = _RATIO.match(value) if isinstance(value, str) else None
    if match is None:
        raise BadInput("w6.sheet.bad_ratio", field=path, value=str(value))
    return int(match.group(1)), int(match.group(2))


def parse_bonus(value: Any, path: str = "zusatz") -> Bonus:
    """``K+1``, ``K``, ``G-2``, ``+3`` or empty. Raises BadInput("w6.sheet.bad_bonus")."""
    match = _BONUS.match(value) if isinstance(value, str) else None
    if match is None:
        raise BadInput("w6.sheet.bad_bonus", field=path, value=str(value))
    trait, sign, digits = match.groups()
    mod = int(digits) * (-1 if sign == "-" else 1) if digits else 0
    return Bonus(trait or "", mod)


def _stability(value: Any, path: str) -> tuple[int, int] | None:
    if value is None:
        return None
    match = _STAB.match(value) if isinstance(value, str) else None
    if match is None or int(match.group(1)) < 1:
        raise BadInput("w6.sheet.bad_stability", field=path, value=str(value))
    return int(match.group(1)), int(match.group(2))


def _names_unique(names: list[str], path: str) -> None:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise BadInput("w6.sheet.duplicate_name", field=path, value=name)
        seen.add(name)


def _named_path(data: Any, path: str, head: str) -> str:
    """``waffen.Axt`` for an entry named Axt (so a message names the entry), else ``path``."""
    name = data.get("name") if isinstance(data, dict) else None
    return f"{head}.{name}" if isinstance(name, str) and name.strip() else path


def _weapon(data: Any, path: str, sheet_pm: Pairs) -> Weapon:
    raw = _object(data, _named_path(data, path, "waffen"), WEAPON_KEYS)
    name = _text(raw.get("name"), f"{path}.name", required=True)
    path = f"waffen.{name}"
    techniques = tuple(
        _text(t, f"{path}.techniken") for t in _list(raw.get("techniken", []), f"{path}.techniken")
    )
    for technique in techniques:
        if technique not in TECHNIQUES:
            raise BadInput(
                "w6.sheet.bad_technique",
                field=f"{path}.techniken",
                value=technique,
                allowed=", ".join(TECHNIQUES),
            )
    bonus = parse_bonus(raw.get("zusatz", ""), f"{path}.zusatz")
    if bonus.trait and bonus.trait not in dict(sheet_pm):
        raise BadInput("w6.sheet.unknown_trait", field=f"{path}.zusatz", value=bonus.trait)
    return Weapon(
        name=name,
        fertigkeit=_text(raw.get("fertigkeit", ""), f"{path}.fertigkeit"),
        schaden=_ratio(raw.get("schaden", "1-1"), f"{path}.schaden"),
        zusatz=bonus,
        cap=_int(raw.get("cap", 0), f"{path}.cap"),
        reichweite=_int(raw.get("reichweite", 1), f"{path}.reichweite", 1, 99),
        techniken=tuple(sorted(set(techniques))),
        fernkampf=_bool(raw.get("fernkampf", False), f"{path}.fernkampf"),
        zielen=_int(raw.get("zielen", 1), f"{path}.zielen", 1, 99),
        block=_int(raw.get("block", 0), f"{path}.block"),
        stabilitaet=_stability(raw.get("stabilitaet"), f"{path}.stabilitaet"),
    )


def _armour(data: Any, path: str) -> Armour:
    raw = _object(data, _named_path(data, path, "ruestung"), ARMOUR_KEYS)
    name = _text(raw.get("name"), f"{path}.name", required=True)
    path = f"ruestung.{name}"
    zone = raw.get("zone", "Torso")
    if zone not in zones():
        raise BadInput(
            "w6.sheet.bad_zone", field=f"{path}.zone", value=str(zone), zones=", ".join(zones())
        )
    return Armour(
        name, zone, _int(raw.get("rs", 0), f"{path}.rs"), _int(raw.get("be", 0), f"{path}.be")
    )


def _shield(data: Any) -> Shield | None:
    if data is None:
        return None
    raw = _object(data, "schild", SHIELD_KEYS)
    return Shield(
        name=_text(raw.get("name", "Schild"), "schild.name", required=True),
        kw_bonus=_int(raw.get("kw_bonus", 0), "schild.kw_bonus"),
        be=_int(raw.get("be", 0), "schild.be"),
        block=_int(raw.get("block", 0), "schild.block"),
        rs=_int(raw.get("rs", 0), "schild.rs"),
        stabilitaet=_stability(raw.get("stabilitaet"), "schild.stabilitaet"),
    )


def _mount(data: Any) -> Mount | None:
    if data is None:
        return None
    raw = _object(data, "reittier", MOUNT_KEYS)
    return Mount(
        _text(raw.get("name", "Reittier"), "reittier.name", required=True),
        _int(raw.get("be", 0), "reittier.be"),
    )


def _check_header(raw: dict[str, Any]) -> None:
    for key in REQUIRED_KEYS:
        if key not in raw:
            raise BadInput("w6.sheet.missing_field", field=key)
    if raw["version"] != VERSION:
        raise BadInput(
            "w6.sheet.bad_version", field="version", value=str(raw["version"]), expected=VERSION
        )


def sheet_from_json(data: Any) -> Sheet:
    """A sheet from JSON data. Raises BadInput (key per problem, ``field`` = its path);
    ``w6.sheet.not_a_sheet`` / ``bad_schema`` for data that is no W6 sheet at all (checked
    before anything else, so such a file is not blamed for a missing field)."""
    if not isinstance(data, dict):
        raise BadInput("w6.sheet.not_a_sheet", schema=SCHEMA)
    if data.get("schema") != SCHEMA:
        raise BadInput(
            "w6.sheet.bad_schema", field="schema", value=str(data.get("schema", "")), schema=SCHEMA
        )
    raw = _object(data, "", TOP_KEYS)
    _check_header(raw)
    pm = _pairs(raw.get("pm", {name: 0 for name in PM_REQUIRED}), "pm")
    for name in PM_REQUIRED:
        if name not in dict(pm):
            raise BadInput("w6.sheet.missing_field", field=f"pm.{name}")
    ints = {key: _int(raw.get(key, 0), key, low, high) for key, (low, high) in INT_FIELDS.items()}
    if "faktor" not in raw:
        ints["faktor"] = 1
    if ints["lp"] > ints["lp_max"]:
        raise BadInput("w6.sheet.lp_above_max", field="lp", value=ints["lp"], max=ints["lp_max"])
    thresholds = tuple(
        _int(t, "handlungen") for t in _list(raw.get("handlungen", []), "handlungen")
    )
    if len(thresholds) > 5 or list(thresholds) != sorted(thresholds):
        raise BadInput("w6.sheet.bad_thresholds", field="handlungen")
    waffen = tuple(
        _weapon(w, f"waffen[{i}]", pm) for i, w in enumerate(_list(raw.get("waffen", []), "waffen"))
    )
    _names_unique([w.name for w in waffen], "waffen")
    ruestung = tuple(
        _armour(a, f"ruestung[{i}]")
        for i, a in enumerate(_list(raw.get("ruestung", []), "ruestung"))
    )
    _names_unique([a.name for a in ruestung], "ruestung")
    fix = _pairs(raw.get("fix", {}), "fix")
    for key, _value in fix:
        if key not in FIXABLE:
            raise unknown_field(f"fix.{key}", FIXABLE)
    be_skills = tuple(
        _text(s, "be_fertigkeiten", required=True)
        for s in _list(raw.get("be_fertigkeiten", ["Zähigkeit"]), "be_fertigkeiten")
    )
    return Sheet(
        name=_text(raw["name"], "name", required=True),
        rasse=_text(raw.get("rasse", ""), "rasse"),
        pm=pm,
        eigenschaften=_pairs(raw.get("eigenschaften", {}), "eigenschaften"),
        fertigkeiten=_pairs(raw.get("fertigkeiten", {}), "fertigkeiten"),
        handlungen=thresholds,
        waffen=waffen,
        ruestung=ruestung,
        schild=_shield(raw.get("schild")),
        reittier=_mount(raw.get("reittier")),
        be_fertigkeiten=be_skills,
        fix=fix,
        notizen=_text(raw.get("notizen", ""), "notizen", MAX_NOTES, allow=NOTE_WHITESPACE),
        **ints,
    )


def sheet_from_stored(data: Any) -> Sheet:
    """A sheet the store kept: as ``sheet_from_json``, but control and separator characters
    that older versions let into its texts are replaced by spaces instead of refused, so such
    a character can still be loaded (and renamed)."""
    return sheet_from_json(_scrub(data, ""))


def _scrub(value: Any, key: str) -> Any:
    if isinstance(value, str):
        allow = NOTE_WHITESPACE if key == "notizen" else ""
        if not has_breaking_chars(value, allow=allow):
            return value
        return "".join(" " if has_breaking_chars(ch, allow=allow) else ch for ch in value)
    if isinstance(value, dict):
        return {_scrub(k, ""): _scrub(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(item, key) for item in value]
    return value


def sheet_from_text(text: str | bytes) -> Sheet:
    """A sheet from a JSON document (text or UTF-8 bytes, at most ``MAX_SHEET_BYTES``).
    Raises BadInput("json.*", see ``load_json``) or as above."""
    return sheet_from_json(load_json(text, max_bytes=MAX_SHEET_BYTES))


# ----------------------------------------------------------------------------- edit

ALIASES = {
    "lpmax": "lp_max", "lp.max": "lp_max", "ruestungen": "ruestung", "waffe": "waffen",
    # English words for the sheet's fields (an English user types what the sheet shows them)
    "race": "rasse", "traits": "pm", "attributes": "eigenschaften", "skills": "fertigkeiten",
    "experience": "erfahrung", "factor": "faktor", "hp": "lp", "hp_max": "lp_max",
    "combat_dice": "kw", "magic": "magie", "actions": "handlungen", "weapons": "waffen",
    "weapon": "waffen", "armour": "ruestung", "armor": "ruestung", "shield": "schild",
    "mount": "reittier", "notes": "notizen", "encumbrance_temp": "be_temp",
}  # fmt: skip
# The Charakterdokument's words for a weapon's columns (``waffen.Axt.basis=2-4``), and the
# English words for the fields of a weapon, an armour piece, a shield and a mount.
_ENGLISH_LEAVES = {
    "skill": "fertigkeit", "damage": "schaden", "bonus": "zusatz", "reach": "reichweite",
    "techniques": "techniken", "ranged": "fernkampf", "aim": "zielen", "stability": "stabilitaet",
    "encumbrance": "be", "armour": "rs", "protection": "rs", "dice_bonus": "kw_bonus",
}  # fmt: skip
FIELD_ALIASES = {
    "waffen": {"basis": "schaden", "basisschaden": "schaden", "zusatzschaden": "zusatz"}
    | _ENGLISH_LEAVES,
    "ruestung": _ENGLISH_LEAVES,
    "schild": _ENGLISH_LEAVES,
    "reittier": _ENGLISH_LEAVES,
}
# English names of the Eigenschaften the rules read (Geschick, Intuition, Kraft, Wahrnehmung)
ATTRIBUTE_ALIASES = {"dexterity": "Geschick", "intuition": "Intuition", "strength": "Kraft",
                     "perception": "Wahrnehmung"}  # fmt: skip
# A body zone by the words of an armour piece's name (the zones of GEZIELTE ATTACKE), German
# and English; a name without one of them asks for the zone. The words are found anywhere
# (German compounds: Lederhelm, Lederarmschienen) except the short ones, which must be a word
# of their own (``Arm guards``, ``Leg guards``; not ``Lucky charm``, ``Legendary cloak``).
ZONE_WORDS = (
    ("Kopf", ("helm", "kopf", "haube", "kappe", "head", "hood", "coif")),
    ("Hände", ("handschuh", "hände", "haende", "glove", "gauntlet")),
    ("Arme", ("armschiene", "armschutz", "armband", "armreif", "vambrace", "bracer")),
    ("Beine", ("bein", "stiefel", "hose", "legging", "greave", "boot")),
    ("Torso", ("brust", "torso", "harnisch", "hemd", "kürass", "wams", "weste", "chest",
               "breastplate", "cuirass", "mail", "shirt", "jerkin")),
)  # fmt: skip
ZONE_SHORT_WORDS = (("Hände", "hand"), ("Arme", "arm"), ("Beine", "leg"))
ZONE_NAMES_EN = {
    "head": "Kopf",
    "torso": "Torso",
    "arms": "Arme",
    "hands": "Hände",
    "legs": "Beine",
}


def zone_from_name(name: str) -> str | None:
    """The body zone an armour piece's name names (``Helm`` → ``Kopf``), else None."""
    folded = name.casefold()
    for zone, words in ZONE_WORDS:
        if any(word in folded for word in words):
            return zone
    for zone, word in ZONE_SHORT_WORDS:
        if re.search(rf"(?<![^\W\d_]){word}s?(?![^\W\d_])", folded):
            return zone
    return None


LIST_FIELDS = ("handlungen", "be_fertigkeiten")
NAMED_LISTS = {"waffen": WEAPON_KEYS, "ruestung": ARMOUR_KEYS}
MAPS = ("pm", "eigenschaften", "fertigkeiten", "fix")
OPTIONAL_OBJECTS = {"schild": SHIELD_KEYS, "reittier": MOUNT_KEYS}
DELETE = "-"
_TEXT_KEYS = {"name", "rasse", "notizen", "fertigkeit", "schaden", "zusatz"}


def _number(text: str, path: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise BadInput("w6.sheet.not_integer", field=path, value=text) from None


def _convert(key: str, text: str, path: str) -> Any:
    """The JSON value for ``text`` written into the leaf ``key``."""
    if key in _TEXT_KEYS:
        return text
    if key in ("techniken",):
        return [part.strip() for part in text.split(",") if part.strip()]
    if key == "fernkampf":
        if text.strip().lower() not in ("ja", "nein", "true", "false", "1", "0"):
            raise BadInput("w6.sheet.not_bool", field=path)
        return text.strip().lower() in ("ja", "true", "1")
    if key == "stabilitaet":
        return None if text.strip() == DELETE else text
    if key == "zone":
        return ZONE_NAMES_EN.get(text.strip().casefold(), text.strip())
    return _number(text, path)


def _leaf(head: str, key: str, keys: tuple[str, ...], path: str) -> str:
    """The stored name of an entry's field (aliases resolved). Raises BadInput
    ("w6.sheet.unknown_field", field=path, allowed=...) for a field the entry does not have."""
    key = FIELD_ALIASES.get(head, {}).get(key, key)
    if key not in keys:
        raise unknown_field(path, keys)
    return key


def _edit_named(items: list[dict[str, Any]], parts: list[str], text: str, path: str) -> None:
    name = parts[1]
    item = next((entry for entry in items if entry.get("name") == name), None)
    if len(parts) == 2:
        if text.strip() != DELETE:
            raise BadInput("w6.sheet.bad_path", field=path)
        if item is None:
            raise BadInput("w6.sheet.no_such_entry", field=path, value=name)
        items.remove(item)
        return
    if len(parts) != 3:
        raise BadInput("w6.sheet.bad_path", field=path)
    key = _leaf(parts[0], parts[2], NAMED_LISTS[parts[0]], path)
    if item is None:
        item = {"name": name}
        if parts[0] == "ruestung" and key != "zone":  # a new piece goes on its zone
            zone = zone_from_name(name)
            if zone is None:
                raise BadInput(
                    "w6.sheet.zone_needed", field=path, name=name, zones=", ".join(zones())
                )
            item["zone"] = zone
        items.append(item)
    item[key] = _convert(key, text, path)


def _edit_value(data: dict[str, Any], parts: list[str], text: str, path: str) -> None:
    head = parts[0]
    if head == "eigenschaften" and len(parts) == 2:
        parts = [head, ATTRIBUTE_ALIASES.get(parts[1].casefold(), parts[1])]
    if head in MAPS and len(parts) == 2:
        if text.strip() == DELETE:
            if parts[1] not in data[head]:
                raise BadInput("w6.sheet.no_such_entry", field=path, value=parts[1])
            del data[head][parts[1]]
        else:
            data[head][parts[1]] = _number(text, path)
    elif head in NAMED_LISTS and len(parts) >= 2:
        _edit_named(data[head], parts, text, path)
    elif head in OPTIONAL_OBJECTS and len(parts) == 1 and text.strip() == DELETE:
        data[head] = None
    elif head in OPTIONAL_OBJECTS and len(parts) == 2:
        key = _leaf(head, parts[1], OPTIONAL_OBJECTS[head], path)
        data[head] = data[head] or {}
        data[head][key] = _convert(key, text, path)
    elif head in LIST_FIELDS and len(parts) == 1:
        items = [part.strip() for part in text.split(",") if part.strip()]
        data[head] = [_number(i, path) for i in items] if head == "handlungen" else items
    elif len(parts) == 1 and head in TOP_KEYS and head not in ("schema", "version"):
        if head in MAPS or head in NAMED_LISTS or head in OPTIONAL_OBJECTS:
            raise BadInput("w6.sheet.bad_path", field=path)
        data[head] = _convert(head, text, path)
    else:
        raise BadInput("w6.sheet.bad_path", field=path)


def _stored_path(parts: list[str]) -> str:
    """The path as the sheet's own errors name it (aliases resolved)."""
    if len(parts) == 3:
        return ".".join([*parts[:2], FIELD_ALIASES.get(parts[0], {}).get(parts[2], parts[2])])
    return ".".join(parts)


def set_field(sheet: Sheet, path: str, text: str) -> Sheet:
    """The sheet with the value at ``path`` set from ``text`` (``-`` deletes an entry).

    Paths: ``lp``, ``kw``, ``name`` ..., ``pm.K``, ``eigenschaften.Geschick``,
    ``fertigkeiten.Spaltwaffen``, ``handlungen`` (``8,12,16``), ``waffen.<Name>.<feld>``
    (creates the weapon; ``basis`` is ``schaden``), ``ruestung.<Name>.<feld>``,
    ``schild.<feld>``, ``reittier.<feld>``, ``fix.gesamtschutz``. Raises BadInput whose
    ``field`` is the path as typed, for a bad path or value; an unknown field of a weapon,
    armour piece, shield or mount lists the fields it has (``allowed``).
    """
    typed = path.strip()
    clean = ALIASES.get(typed, typed)
    parts = [part.strip() for part in clean.split(".")]
    parts[0] = ALIASES.get(parts[0], parts[0])
    if not parts[0] or any(not part for part in parts):
        raise BadInput("w6.sheet.bad_path", field=path)
    data = sheet_to_json(sheet)
    _edit_value(data, parts, text, typed)
    try:
        return sheet_from_json(data)
    except BadInput as error:
        if error.params.get("field") == _stored_path(parts):
            error.params["field"] = typed
        raise


def edit_sheet(sheet: Sheet, assignment: str) -> Sheet:
    """Apply ``path=value`` (e.g. ``eigenschaften.Geschick=4``). Raises BadInput."""
    if "=" not in assignment:
        raise BadInput("w6.sheet.bad_edit", text=assignment)
    path, text = assignment.split("=", 1)
    return set_field(sheet, path, text)


def edit_many(sheet: Sheet, assignments: list[str]) -> Sheet:
    """Apply several ``path=value`` edits; all or nothing. Raises BadInput."""
    for assignment in assignments:
        sheet = edit_sheet(sheet, assignment)
    return sheet


# ----------------------------------------------------------------------------- NPCs


# The Kraft-Probe dice of a quick NPC given neither ``kraft=`` nor ``k=`` (silent): the PM K of
# the rulebook's average human, as in ``/charakter vorlage`` (K 4), not 0 dice that always fail.
NPC_KRAFT = 4


def npc_sheet(
    name: str,
    lp: int,
    kw: int,
    ab: int,
    gesamtschutz: int = 0,
    weapon: str = "Waffe",
    schaden: str = "1-1",
    zusatz: int = 0,
    handlungen: int = 2,
    reflex: int = 0,
    k: int = 0,
    g: int = 0,
    schwelle: int | None = None,
    rlp: int = 0,
    kraft: int | None = None,
) -> Sheet:
    """A quick NPC stat block: the GM's numbers taken as they are (Gesamtschutz and
    Handlungen fixed, Zusatzschaden a fixed number). ``k``/``g`` are the PM K and G (the
    heavy-hit threshold (K + G) x Faktor follows from them); ``schwelle`` fixes the threshold.
    An NPC without K, G and ``schwelle`` is not subject to heavy hits (see RULES.md); ``rlp``
    (the daily LP regeneration) is what the Kraft-Probe at «LP … kleiner als … RLP» compares;
    ``kraft`` the dice of that Kraft-Probe (the Eigenschaft Kraft), else the PM K, else
    ``NPC_KRAFT`` (see RULES.md). Raises BadInput for a bad value."""
    fix = {"gesamtschutz": gesamtschutz, "handlungen": handlungen}
    if schwelle is not None:
        fix["schwelle"] = schwelle
    data = {
        "schema": SCHEMA,
        "version": VERSION,
        "name": name,
        "pm": {"K": k, "G": g, "M": 0, "B": 0},
        "lp": lp,
        "lp_max": max(lp, 0),  # an NPC brought in already down (lp=-5) has no negative maximum
        "rlp": rlp,
        "kw": kw,
        "reflex": reflex,
        "ab": ab,
        "eigenschaften": {"Kraft": kraft if kraft is not None else k or NPC_KRAFT},
        "waffen": [
            {"name": weapon, "schaden": schaden, "zusatz": f"{zusatz:+d}" if zusatz else ""}
        ],
        "fix": fix,
    }
    return sheet_from_json(data)


_NPC_NUMBERS = (
    "lp", "kw", "ab", "gs", "zusatz", "handlungen", "reflex", "k", "g", "schwelle", "rlp",
    "kraft",
)  # fmt: skip
_NPC_KEYS = {*_NPC_NUMBERS, "waffe", "schaden"}


def npc_from_text(text: str) -> Sheet:
    """``Ork lp=20 kw=8 ab=5 gs=2 waffe=Säbel schaden=2-3 zusatz=2 handlungen=2 k=4 g=3 rlp=4``
    (``schwelle=7`` fixes the heavy-hit threshold instead of (K + G) x Faktor).

    Raises BadInput("w6.sheet.bad_npc") for unknown or missing parts, as npc_sheet else.
    """
    words = text.split()
    names = [w for w in words if "=" not in w]
    values = dict(w.split("=", 1) for w in words if "=" in w)
    unknown = set(values) - _NPC_KEYS
    if not names or unknown or not {"lp", "kw", "ab"} <= set(values):
        raise BadInput("w6.sheet.bad_npc", text=text)
    numbers = {key: _number(values[key], key) for key in _NPC_NUMBERS if key in values}
    return npc_sheet(
        " ".join(names),
        numbers["lp"],
        numbers["kw"],
        numbers["ab"],
        gesamtschutz=numbers.get("gs", 0),
        weapon=values.get("waffe", "Waffe"),
        schaden=values.get("schaden", "1-1"),
        zusatz=numbers.get("zusatz", 0),
        handlungen=numbers.get("handlungen", 2),
        reflex=numbers.get("reflex", 0),
        k=numbers.get("k", 0),
        g=numbers.get("g", 0),
        schwelle=numbers.get("schwelle"),
        rlp=numbers.get("rlp", 0),
        kraft=numbers.get("kraft"),
    )
