"""Telperinquár cards and decks: the data loads, the level tables follow RULES.md, deck lists
parse, export and validate with a reason per problem, and the command line says so."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest

from bot.i18n import catalog, t
from bot.narration.telperinquar import inline_list, resolve_card
from engines.core import BadInput
from engines.telperinquar.__main__ import main
from engines.telperinquar.cards import (
    ABILITIES,
    ATTRIBUTES,
    CLASSES,
    DRAFT,
    SOURCES,
    builtin_cards,
    catalogue,
    draft_hero,
    heroes,
    level_card_name,
    levels,
    load_cards_text,
)
from engines.telperinquar.decks import describe, export_list, parse_list, starter, validate


def keys(text: str) -> list[str]:
    return [p.key for p in validate(parse_list(text)).problems]


def test_builtin_cards_load_with_distinct_names() -> None:
    cards = builtin_cards()
    owner: dict[str, str] = {}
    for card in cards:  # a name in either language names one card (Wolf is Wolf in both)
        for name in {card.name.casefold(), card.name_en.casefold()}:
            assert owner.setdefault(name, card.name) == card.name, name
    assert all(c.steps for c in cards)


def test_heroes_unarmed_values_are_the_rulebooks() -> None:
    assert {c: h.unarmed for c, h in heroes().items()} == {
        "kaempfer": -1,
        "schurke": -2,
        "zauberer": -4,
        "geistlicher": -3,
    }


def test_level_tables_start_at_20_and_add_the_printed_gains() -> None:
    """The rulebook: 20 LP at the start ("wie auf der Stufenkarte vorgegeben"), the printed
    gain per level ("+2 / (22)"); RULES.md, "Level cards"."""
    for cls in CLASSES:
        rows = levels()[cls]
        assert [r.level for r in rows] == list(range(1, 11))
        assert rows[0].life == rows[0].life_max == 20
        for before, row in itertools.pairwise(rows):
            assert row.life_max == before.life_max + row.life
        assert [r.life_max for r in rows] == [20, 22, 25, 29, 34, 40, 46, 53, 61, 70]
        assert [r.actions for r in rows] == [3, 3, 4, 5, 7, 7, 9, 9, 11, 12]


@pytest.mark.parametrize(
    ("cls", "main"),
    [("kaempfer", "kraft"), ("schurke", "reflexe"), ("zauberer", "geist")],
)
def test_main_attribute_rises_by_three(cls: str, main: str) -> None:
    assert [r.attribute(main) for r in levels()[cls]] == [3 * n for n in range(1, 11)]


def test_geistlicher_is_the_printed_table() -> None:
    rows = levels()["geistlicher"]
    assert [r.aura for r in rows] == [2, 7, 9, 11, 13, 15, 20, 22, 24, 26]
    assert [r.kraft for r in rows] == [2, 3, 5, 7, 9, 11, 12, 14, 16, 18]
    assert [(r.resistance, r.armour) for r in rows][3:5] == [(1, 0), (1, 1)]
    assert [(r.resistance, r.armour) for r in levels()["kaempfer"]][3] == (0, 1)


@pytest.mark.parametrize("cls", CLASSES)
def test_starter_decks_are_legal(cls: str) -> None:
    info = validate(starter(cls))
    assert info.legal, info.problems
    assert info.classes == (cls,)


def test_export_then_import_is_the_same_deck() -> None:
    cat = catalogue()
    deck = starter("zauberer")
    text = export_list(deck.entries, cat)
    assert text.splitlines()[:2] == ["1 Zauberer", "16 Stufenkarte Zauberer"]
    assert parse_list(text).counts() == deck.counts()


def test_english_names_and_3x_are_read() -> None:
    deck = parse_list("1 Fighter\n3x Long Sword\n2 level card fighter\n")
    assert not deck.problems
    assert dict(deck.entries) == {"Kämpfer": 1, "Langschwert": 3, level_card_name("kaempfer"): 2}


def test_an_english_level_card_names_its_hero_first() -> None:
    """English word order: "Draft Hero Level Card", not the German order carried into English
    ("Level Card Draft Hero"); a list written in the old order is still read, and no upload
    may take a level card's name in either order."""
    assert level_card_name(DRAFT, "en") == "Draft Hero Level Card"
    assert [level_card_name(c, "en") for c in CLASSES] == [
        "Fighter Level Card",
        "Rogue Level Card",
        "Wizard Level Card",
        "Cleric Level Card",
    ]
    cat = catalogue()
    for name in ("Draft Hero Level Card", "level card draft hero", "Stufenkarte Draft-Held"):
        assert cat.resolve(name) == ("level", DRAFT, "Stufenkarte Draft-Held")
    assert "Level Card Fighter" not in cat.all_names()  # suggestions offer the new order
    deck = parse_list("1 Fighter\n2 fighter level card\n")
    assert not deck.problems and dict(deck.entries) == {"Kämpfer": 1, "Stufenkarte Kämpfer": 2}
    card = (
        '[[card]]\nname = "Drachen Level Card"\nname_en = "Dragon"\ntype = "weapon"\nplay = 2\n'
        'use = 1\nsize = "m"\nbonus = 2\nattack = "melee"\ntext_de = "W."\ntext_en = "W."\n'
        '[[card.step]]\ntext_de = "A."\ntext_en = "A."\ndo = "strike"\nkind = "physical"\n'
        'range = "melee"\n'
    )
    assert load_cards_text(card.replace("Drachen Level Card", "Drache"))[1] == []
    cards, errors = load_cards_text(card)
    assert not cards and any("taken by a hero or level card" in str(e) for e in errors), errors


def test_each_problem_has_its_reason() -> None:
    assert keys("40 Dolch\n") == ["tq.deck.too_many_copies", "tq.deck.no_hero"]
    base = "1 Kämpfer\n1 Stufenkarte Kämpfer\n"
    assert keys(base) == ["tq.deck.too_few"]
    assert keys("1 Kämpfer\n" + "4 Dolch\n" * 1 + "36 Stufenkarte Kämpfer\n") == []
    assert "tq.deck.no_level" in keys("1 Kämpfer\n39 Wolf\n")
    assert "tq.deck.foreign_level" in keys(base + "1 Stufenkarte Zauberer\n38 Stufenkarte Kämpfer")
    assert "tq.deck.hero_count" in keys("2 Kämpfer\n38 Stufenkarte Kämpfer\n")


def test_double_class_deck() -> None:
    text = "1 Zauberer\n1 Schurke\n5 Stufenkarte Zauberer\n5 Stufenkarte Schurke\n"
    text += "".join(f"4 {n}\n" for n in ["Dolch", "Feuerpfeil", "Wolf", "Heiltrank"])
    text += "".join(f"4 {n}\n" for n in ["Irrlicht", "Kurzbogen", "Ausweichen"])
    text += "2 Hinterhalt\n"
    info = validate(parse_list(text))
    assert info.legal, info.problems
    assert set(info.classes) == {"zauberer", "schurke"}
    assert keys(text.replace("5 Stufenkarte Schurke", "5 Stufenkarte Kämpfer")) == [
        "tq.deck.no_level",
        "tq.deck.foreign_level",
    ]


def test_unknown_name_names_the_nearest() -> None:
    deck = parse_list("1 Kämpfer\n3 Langschwrt\nkein Zähler\n")
    unknown, bad = deck.problems
    assert unknown.key == "tq.deck.unknown_card"
    assert "Langschwert" in unknown.kwargs["near"]
    assert unknown.kwargs["line"] == 2
    assert bad.key == "tq.deck.bad_line"
    assert "Langschwert" in describe(unknown, "de") and "Ähnliche" in describe(unknown, "de")


def test_an_unknown_card_outside_a_list_names_no_line_and_no_empty_similar_names() -> None:
    cat = catalogue()
    far = parse_list("1 Kämpfer\n2 Qqqqqqqqqqqq\n").problems[0]
    assert far.key == "tq.deck.unknown_card.far" and "near" not in far.kwargs
    assert describe(far, "de") == "Zeile 2: die Karte „Qqqqqqqqqqqq“ kenne ich nicht."
    stored = validate({"Kämpfer": 1, "Dolhc": 2}, cat).problems[0]
    assert stored.key == "tq.deck.unknown_name" and "line" not in stored.kwargs
    assert describe(stored, "de").startswith("Die Karte „Dolhc“ kenne ich nicht. Ähnliche Namen:")
    with pytest.raises(BadInput) as caught:
        resolve_card("Dolhc", cat)
    assert caught.value.key == "tq.deck.unknown_name" and "Dolch" in caught.value.params["near"]
    with pytest.raises(BadInput) as caught:
        resolve_card("Qqqqqqqqqqqq", cat)
    assert caught.value.key == "tq.deck.unknown_name.far"
    assert parse_list(inline_list("1 Kämpfer, 2 Dolch\\n3 Kurzschwert")).entries == (
        ("Kämpfer", 1),
        ("Dolch", 2),
        ("Kurzschwert", 3),
    )


def test_user_cards_are_checked_with_lines() -> None:
    text = """
[[card]]
name = "Eigenes Schwert"
name_en = "Own Sword"
type = "weapon"
play = 2
use = 1
size = "x"
bonus = 2
attack = "melee"
text_de = "Eine Waffe."
text_en = "A weapon."
[[card.step]]
text_de = "Angriff."
text_en = "Attack."
do = "strik"
"""
    cards, errors = load_cards_text(text)
    assert not cards
    messages = [str(e) for e in errors]
    assert any("size" in m and "line 8" in m for m in messages)  # the line of the field
    assert any("did you mean 'strike'" in m and "line 16" in m for m in messages)
    fixed, errors = load_cards_text(
        text.replace('"x"', '"m"').replace(
            '"strik"', '"strike"\nkind = "physical"\nrange = "melee"'
        )
    )
    assert not errors and fixed[0].name == "Eigenes Schwert"
    cat = catalogue(fixed)
    assert cat.resolve("own sword") == ("card", "Eigenes Schwert", "Eigenes Schwert")


def test_a_card_name_with_a_line_break_is_refused_at_upload() -> None:
    """A name with a line break or separator would break every board it is drawn on: the
    file names the field and its line (issue 18)."""
    good = (
        'name = "Eigenes Schwert"\nname_en = "Own Sword"\ntype = "weapon"\nplay = 2\nuse = 1\n'
        'size = "m"\nbonus = 2\nattack = "melee"\ntext_de = "W."\ntext_en = "W."\n'
        '[[card.step]]\ntext_de = "A."\ntext_en = "A."\ndo = "strike"\nkind = "physical"\n'
        'range = "melee"\n'
    )
    assert load_cards_text("[[card]]\n" + good) == (load_cards_text("[[card]]\n" + good)[0], [])
    for breaking in ("\\r\\n", "\\u001c", "\\u0085", "\\u2029"):
        text = "[[card]]\n" + good.replace("Own Sword", f"Own{breaking}Sword")
        cards, errors = load_cards_text(text)
        assert not cards
        assert any("name_en" in str(e) and "line 3" in str(e) for e in errors), errors


def test_cli_cards_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "--json"]) == 0
    cards = json.loads(capsys.readouterr().out)
    kinds = {c["type"] for c in cards}
    assert {"hero", "level", "weapon", "wesen", "spell", "trap"} <= kinds
    assert all({"name", "type", "classes", "text_de", "text_en"} <= set(c) for c in cards)


def test_cli_validate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.txt"
    good.write_text(export_list(starter("kaempfer").entries, catalogue()), encoding="utf-8")
    assert main(["validate", str(good)]) == 0
    bad = tmp_path / "bad.txt"
    bad.write_text("1 Kämpfer\n5 Dolch\n", encoding="utf-8")
    assert main(["validate", str(bad), "--lang", "en"]) == 1
    out = capsys.readouterr().out
    assert "at most 4 times" in out and "at least 40" in out
    assert main(["validate", str(tmp_path / "missing.txt")]) == 1


def test_at_least_100_support_cards_of_every_type() -> None:
    cards = builtin_cards()
    assert len(cards) >= 100
    types = {c.type for c in cards}
    assert types == {
        "weapon",
        "armour",
        "shield",
        "gear",
        "artifact",
        "wesen",
        "talent",
        "spell",
        "trap",
    }
    for ability in ("beidhaendigkeit", "fliegen", "verstecken", "nebelgestalt", "rundumschlag"):
        assert any(ability in c.get("abilities", []) for c in cards), ability
    assert any(c.defensive for c in cards) and any(c.inaktion for c in cards)
    assert any(c.get("chain") for c in cards)


# ---------------------------------------------------------------- one language per text

_WORD = re.compile(r"[^\W\d_]+")
_FAMILIES = {
    **{s: "source" for s in SOURCES},
    **{a: "ability" for a in ABILITIES},
    **{a: "attr" for a in ATTRIBUTES},
}


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text))


def _texts() -> list[tuple[str, str, str]]:
    """(card, German text, English text) of every card, every card step and every hero."""
    out = []
    for card in builtin_cards():
        out.append((card.name, card.text_de, card.text_en))
        out += [(card.name, str(s["text_de"]), str(s["text_en"])) for s in card.steps]
    return out + [(h.name, h.text_de, h.text_en) for h in [*heroes().values(), draft_hero()]]


def _only_in(lang: str) -> set[str]:
    """Words the catalogs use in ``lang`` and never in the other language of the same key:
    the data's own evidence that a word belongs to one language."""
    other = "en" if lang == "de" else "de"
    found: set[str] = set()
    for value in catalog().values():
        found |= _words(value.get(lang, "")) - _words(value.get(other, ""))
    return found


def _vocabulary(lang: str) -> set[str]:
    """Every word of the cards' texts and of the renderer's words in ``lang``, less words
    with evidence in the other language and the terms both languages share (Aura, Talent)."""
    other = "en" if lang == "de" else "de"
    render = [v for k, v in catalog().items() if k.startswith("tqrender.")]
    words = set().union(
        *(_words(texts[1 if lang == "de" else 2]) for texts in _texts()),
        *(_words(v[lang]) for v in render),
    )
    shared = set().union(*(_words(v["de"]) & _words(v["en"]) for v in render))
    return words - _only_in(other) - shared


def _raw_keys(lang: str) -> set[str]:
    """Sources, abilities and attributes whose word in ``lang`` is not their key: the key in
    a text is a leak (English: ``gift`` for poison; German: ``gift`` for the noun Gift)."""
    words = {key: t(f"tqrender.{family}.{key}", lang) for key, family in _FAMILIES.items()}
    if lang == "en":
        return {key for key, word in words.items() if word.casefold() != key}
    return {key for key, word in words.items() if word != key}


def test_english_card_texts_hold_no_german_word() -> None:
    german = _vocabulary("de")
    keys = _raw_keys("en")
    leaks = {
        name: sorted(w for w in _words(en) if w in german or w.casefold() in keys)
        for name, _, en in _texts()
    }
    assert {name: words for name, words in leaks.items() if words} == {}


def test_german_card_texts_hold_no_english_word_or_raw_key() -> None:
    english = _vocabulary("en")
    keys = _raw_keys("de")
    leaks = {
        name: sorted(w for w in _words(de) if w in english or w in keys) for name, de, _ in _texts()
    }
    assert {name: words for name, words in leaks.items() if words} == {}


def test_the_leak_check_finds_the_old_leaks() -> None:
    german = _vocabulary("de")
    leaks = ("Immune: feuer. Double damage: eis.", "in the next 2 Versorgungsphasen",
             "Wesen. Life 4. fliegen.", "InAktion. Kraft +2.", "Weapon (k), 1W6")  # fmt: skip
    for leaked in leaks:
        assert _words(leaked) & (german | _raw_keys("en")), leaked
    assert _words("Immunität: gift. fliegen.") & _raw_keys("de")
