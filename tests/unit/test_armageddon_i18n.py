"""Every message key the Armageddon engine raises or asks with exists in
data/i18n/armageddon.json, in German and English, and its placeholders are parameters the
engine passes (file and line for every scenario error)."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MESSAGES = json.loads((ROOT / "data/i18n/armageddon.json").read_text(encoding="utf-8"))
SOURCE = "\n".join(
    p.read_text(encoding="utf-8") for p in sorted((ROOT / "engines/armageddon").glob("*.py"))
)
_CALL = re.compile(
    r'(r\.fail|[^.\w]fail|BadInput|IllegalAction)\(\s*"([a-z_.]+)"((?:[^()]|\([^()]*\))*)\)'
)


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _raised() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for how, key, rest in _CALL.findall(SOURCE):
        if how == "r.fail":
            full, params = f"armageddon.scenario.{key}", {"file", "line"}
        elif how.endswith("fail"):
            full, params = f"armageddon.error.{key}", set()
        else:
            full, params = key, set()
        params |= set(re.findall(r"(\w+)=", rest))
        found.setdefault(full, set()).update(params)
    return found


def test_every_raised_key_has_a_message_with_known_placeholders() -> None:
    raised = _raised()
    assert len(raised) > 100
    missing = sorted(set(raised) - set(MESSAGES))
    assert not missing, missing
    for key, params in raised.items():
        for lang in ("de", "en"):
            unknown = _placeholders(MESSAGES[key][lang]) - params
            assert not unknown, (key, lang, unknown)


def test_every_prompt_has_a_message() -> None:
    prompts = set(re.findall(r'"(armageddon\.prompt\.[a-z_]+)"', SOURCE))
    assert prompts and prompts <= set(MESSAGES)


def test_german_and_english_use_the_same_placeholders() -> None:
    for key, texts in MESSAGES.items():
        assert set(texts) == {"de", "en"}, key
        assert _placeholders(texts["de"]) == _placeholders(texts["en"]), key


def test_the_four_double_step_messages_read_as_sentences() -> None:
    """Height, river, moat and wall: 'geht … und ist darum ein Doppelschritt' / '…, so it is a
    double step' (they used to have two verbs in one clause)."""
    from bot.i18n import t

    params = {"figure": "k1", "field": "b1", "left": 1, "cost": 2}
    german = {
        "height": "geht bergauf oder bergab",
        "river": "geht durch einen Fluss ohne Brücke",
        "moat": "geht über einen Graben ohne Brücke",
        "wall": "steigt über eine Mauer",
    }
    english = {
        "height": "goes uphill or downhill",
        "river": "crosses a river without a bridge",
        "moat": "crosses a moat without a bridge",
        "wall": "climbs over a wall",
    }
    for why in german:
        key = f"armageddon.error.no_steps_{why}"
        assert t(key, "de", **params) == (
            f"k1 hat nicht mehr genug Schritte: der Schritt nach b1 {german[why]} und ist darum "
            "ein Doppelschritt (2 nötig, 1 übrig)."
        )
        assert t(key, "en", **params) == (
            f"k1 does not have enough steps left: the step to b1 {english[why]}, so it is a "
            "double step (2 needed, 1 left)."
        )


def test_a_forbidden_field_names_its_terrain() -> None:
    from bot.i18n import t

    assert t("armageddon.error.forbidden_swamp", "de", figure="e1", field="c1") == (
        "e1 darf nicht auf c1: das ist Sumpf."
    )
    assert t("armageddon.error.forbidden_forest", "en", figure="q1", field="c1") == (
        "q1 may not enter c1: it is forest."
    )


def test_german_texts_show_the_german_notation_words() -> None:
    """A German table types `ende`, `fertig`, `beginnen`, `drehen` (RULES.md): the German
    prompts named the English `end`, `done`, `start`, `face` (seen in the playground). Only
    the notation help lists the English words, as such ("auch englisch")."""
    from engines.armageddon.actions import GERMAN

    english_only = set(GERMAN.values()) - set(GERMAN)
    cog = json.loads((ROOT / "data/i18n/armageddoncog.json").read_text(encoding="utf-8"))
    wrong = {
        key: word
        for key, entry in {**MESSAGES, **cog}.items()
        if "englisch" not in entry["de"]
        for word in re.findall(r"[`„]([a-z]+)[ `“]", entry["de"])
        if word in english_only
    }
    assert wrong == {}


def test_every_english_message_begins_as_a_sentence() -> None:
    """Six English errors began in lower case ("there is no party “1” …")."""
    lower = [key for key, entry in MESSAGES.items() if re.match(r"[a-z]", entry["en"])]
    assert lower == []


def test_english_spell_names_are_names_like_the_german_ones() -> None:
    """A wizard "casts strengthen on g4" beside "zaubert Stärken auf g4": a spell's name is
    written as a name in both languages."""
    cog = json.loads((ROOT / "data/i18n/armageddoncog.json").read_text(encoding="utf-8"))
    spells = {k: v["en"] for k, v in cog.items() if k.startswith("armageddoncog.spell.")}
    assert len(spells) >= 11 and all(name[:1].isupper() for name in spells.values())
