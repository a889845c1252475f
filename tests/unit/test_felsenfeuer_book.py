"""Felsenfeuer's Kompendium (the spells the rulebook names, at least 60 in all) and a group's
own spell file: validated like the shipped ones, merged for one duel through its config."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engines.core.errors import BadInput
from engines.felsenfeuer.engine import ENGINE, settings_of
from engines.felsenfeuer.scenario import answer_rest, build, cast
from engines.felsenfeuer.spells import MAX_EXTRA_BYTES, book_for, merged, spellbook
from engines.felsenfeuer.uploads import spellbook_with

# Teil 2 of the rulebook lists the blood-magic spells of the Kompendium Arkanum by name.
BLOOD = {
    "Lebenskraft": ("gruen", 1), "Wildwuchs": ("gruen", 2), "Seelenbäume": ("gruen", 3),
    "Feenstaub": ("gruen", 4), "Phasenverschiebung": ("grau", 2), "Strom Der Zeit": ("grau", 2),
    "Wanderstecken": ("grau", 3), "Prophezeihung": ("grau", 6), "Blau-Flackern": ("rot", 2),
    "Kampfschrei": ("rot", 2), "Puls": ("rot", 2), "Blutrune": ("rot", 4),
    "Einflüsterung": ("schwarz", 1), "Rache": ("schwarz", 2), "Seelensog": ("schwarz", 2),
    "Verführen": ("schwarz", 3), "Seifenblasen": ("violett", 1), "Schandmaske": ("violett", 2),
    "Djinn": ("violett", 3), "Zauberkessel": ("violett", 4),
}  # fmt: skip


def test_the_kompendium_holds_the_named_spells_and_sixty_in_all() -> None:
    book = {s.name: s for s in spellbook().values()}
    assert len(book) >= 60
    for name, (colour, pips) in BLOOD.items():
        spell = book[name]
        assert (spell.colour, spell.pips, spell.blood) == (colour, pips, True), name
        assert spell.meta_de == ("Du darfst diesen Zauber mit Blutmagie wirken.",)
    assert {(s.colour, s.pips) for s in book.values() if s.star} == {
        (c, p) for c in ("gruen", "grau", "rot", "schwarz", "violett") for p in range(1, 7)
    }
    verbs_used = {part.do for s in book.values() for step in s.steps for part in step.parts}
    assert {"manifest", "cauldron", "second_hand", "freeze", "thaw", "float",
            "new_matrix"} <= verbs_used  # fmt: skip
    allied = [s.name for s in book.values() if "Verbündet" in s.text_de]
    assert len(allied) >= 3
    rituals = [s for s in book.values() if s.ritual]
    assert len(rituals) >= 2 and all(s.meta_de and s.meta_en for s in rituals)
    for spell in book.values():  # a keyword abbreviates the sentence that follows it
        if spell.keyword:
            assert f"{spell.keyword}: " in spell.text_de, spell.name


COLOURS = ("gruen", "grau", "rot", "schwarz", "violett")


def test_the_kompendium_fills_every_cell_with_a_star_and_two_magister_spells() -> None:
    book = list(spellbook().values())
    assert len(book) >= 120
    for colour in COLOURS:
        for pips in range(1, 7):
            cell = [s for s in book if (s.colour, s.pips) == (colour, pips)]
            assert sum(s.star for s in cell) >= 1, (colour, pips)
            assert sum(not s.star for s in cell) >= 2, (colour, pips)


def test_no_two_spells_share_a_text() -> None:
    for attr in ("text_de", "text_en"):
        texts = [getattr(s, attr) for s in spellbook().values()]
        assert len(texts) == len(set(texts)), [t for t in texts if texts.count(t) > 1]


def test_every_term_of_the_rules_is_used_and_walls_of_5s_can_be_broken() -> None:
    book = list(spellbook().values())
    parts = [p for s in book for step in s.steps for p in step.parts]
    verbs = {p.do for p in parts}
    assert {
        "manifest",
        "cauldron",
        "second_hand",
        "freeze",
        "float",
        "new_matrix",
        "move_to_matrix",
        "counts_as",
        "lose_essence",
        "gain_essence",
        "renew",
    } <= verbs
    assert any(s.ritual for s in book) and any("Verbündet" in s.text_de for s in book)
    assert {"Telekinese", "Bresche"} <= {s.keyword for s in book}
    assert any(getattr(p, "property", None) == "named" for p in parts)
    # ways around a 5 on the Duellplatz: raise, lower, destroy, move, take to hand, "zählt als"
    five = [s.name for s in book if "die eine 5 zeigt" in s.text_de or "zählt als" in s.text_de]
    assert len(five) >= 12
    for colour in COLOURS:
        assert sum(1 for s in book if s.colour == colour and "Greife" in s.text_de) >= 8, colour


def test_every_spell_reads_in_both_languages() -> None:
    for spell in spellbook().values():
        assert spell.text_de and spell.text_en and spell.text_de != spell.text_en
        for step in spell.steps:
            assert step.text_de in spell.text_de, spell.name
            assert step.text_en in spell.text_en, spell.name


# --- a group's own spells ----------------------------------------------------------------------
NEW_SPELL = """
[[spell]]
name = "Hausgewitter"
colour = "rot"
pips = 3
text_de = "Greife jeden Gegner dreimal an."
text_en = "Attack every opponent three times."
[[spell.step]]
text_de = "Greife jeden Gegner dreimal an."
text_en = "Attack every opponent three times."
do = "attack"
times = 3
[spell.test]
expect = {"essence.1" = 6}
"""

OVERRIDE = """
[[spell]]
name = "Funkenschlag"
colour = "rot"
pips = 1
star = true
text_de = "Jeder deiner Gegner verliert einen Essenzpunkt."
text_en = "Each of your opponents loses one essence point."
[[spell.step]]
text_de = "Jeder deiner Gegner verliert einen Essenzpunkt."
text_en = "Each of your opponents loses one essence point."
do = "lose_essence"
[spell.test]
extra = ["1 rot rune 5"]
expect = {"essence.1" = 8}
"""


def test_a_new_spell_is_added_and_the_shipped_book_stays_as_it_was() -> None:
    before = dict(spellbook())
    book = spellbook_with(NEW_SPELL)
    assert set(book) == set(before) | {"hausgewitter"}
    assert book["hausgewitter"].source == "upload"
    assert dict(spellbook()) == before


def test_an_override_replaces_the_shipped_spell_of_that_name() -> None:
    book = spellbook_with(OVERRIDE)
    assert len(book) == len(spellbook())
    assert book["funkenschlag"].steps[0].parts[0].do == "lose_essence"
    assert spellbook()["funkenschlag"].steps[0].parts[0].do == "attack"


def test_a_duel_configured_with_its_own_spells_casts_them() -> None:
    settings, _ = settings_of({"spells": NEW_SPELL, "rules": "magister"}, 1, 2)
    assert settings.spells == NEW_SPELL
    state = build(["0 rot rune 3", "0 rot essence 6", "1 grau essence 6"], spells=NEW_SPELL)
    state, _ = cast(state, "hausgewitter", 0, 0)
    state = answer_rest(state)
    assert sum(d.pips for d in state.dice if d.owner == 1 and d.zone == "essence") == 3
    again = ENGINE.state_from_json(ENGINE.state_to_json(state))
    assert again == state and again.settings.spells == NEW_SPELL
    # the spell is offered for a red 3 in that duel's cast choice, not in a plain one
    assert "hausgewitter" in book_for(state.settings.spells)
    assert "hausgewitter" not in book_for("")


def test_a_whole_duel_plays_with_an_overridden_spell() -> None:
    import random

    from engines.core import match as m

    match = m.start(ENGINE, {"spells": OVERRIDE, "phase_limit": 6}, 3, 2)
    rng = random.Random(3)
    while m.outcome(ENGINE, match) is None:
        seat = m.decisions(ENGINE, match)[0].seat
        action = ENGINE.choose_action(match.state, seat, "normal", 1.0, rng)
        match, _ = m.apply(ENGINE, match, ENGINE.action_text(action), seat)
    assert match.state.settings.spells == OVERRIDE


BROKEN_SYNTAX = NEW_SPELL.replace("times = 3", "times = = 3")
UNKNOWN_VERB = NEW_SPELL.replace('do = "attack"', 'do = "atack"')
FAILING_TEST = NEW_SPELL.replace('"essence.1" = 6', '"essence.1" = 2')
NO_TEST = NEW_SPELL.split("[spell.test]")[0]
TWICE = NEW_SPELL + NEW_SPELL


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        (BROKEN_SYNTAX, "line 12"),
        (UNKNOWN_VERB, "line 11: Hausgewitter: step 1: unknown verb"),
        (FAILING_TEST, "line 2: Hausgewitter: essence.1 is 6, expected 2"),
        (NO_TEST, "Hausgewitter: no [spell.test]"),
        (TWICE, "Hausgewitter"),
        ("# nothing here\n", "no [[spell]]"),
        (NEW_SPELL + "#" * MAX_EXTRA_BYTES, f"at most {MAX_EXTRA_BYTES}"),
    ],
)
def test_a_bad_file_is_refused_with_its_line_and_changes_nothing(text: str, needle: str) -> None:
    before = dict(spellbook())
    with pytest.raises(BadInput) as caught:
        spellbook_with(text)
    params = caught.value.params
    if caught.value.key == "felsenfeuer.error.spellbook_line":  # the line apart, to translate
        said = f"line {params['line']}: {params['problem']}"
    else:
        assert caught.value.key == "felsenfeuer.error.spellbook"
        said = params["problem"]
    assert needle in said, caught.value.params
    assert caught.value.params["count"] >= 1
    assert dict(spellbook()) == before
    with pytest.raises(BadInput):
        settings_of({"spells": text}, 1, 2)


def test_the_config_refuses_spells_that_are_not_text() -> None:
    with pytest.raises(BadInput) as caught:
        settings_of({"spells": 7}, 1, 2)
    assert caught.value.params == {"option": "spells"}


def test_merged_books_are_cached_per_text() -> None:
    assert merged(NEW_SPELL) is merged(NEW_SPELL)


def test_the_command_line_checks_an_upload_and_plays_with_it(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.toml", tmp_path / "bad.toml"
    good.write_text(NEW_SPELL, encoding="utf-8")
    bad.write_text(FAILING_TEST, encoding="utf-8")
    ok = _cli("validate", "--upload", str(good))
    assert ok.returncode == 0 and f"{len(spellbook()) + 1} spells" in ok.stdout
    refused = _cli("validate", "--upload", str(bad))
    assert refused.returncode == 1 and "essence.1 is 6, expected 2" in refused.stdout
    played = _cli("selfplay", "--rules", "magister", "--spells", str(good), "--seed", "4")
    assert played.returncode == 0 and "1 games, 0 errors" in played.stdout


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engines.felsenfeuer", *args],
                          capture_output=True, text=True, check=False)  # fmt: skip
