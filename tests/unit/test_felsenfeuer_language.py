# ruff: noqa: E501  (spell texts are one line each, as in the data files)
"""Felsenfeuer's effect language as real spells need it: named "zählt als" properties,
per-hand conditions and choices, counts and comparisons, any matrix, repeat and for-each, and
the Telekinese keyword as the rulebook quotes it; the loader names the spell and line of each
new kind of mistake."""

from __future__ import annotations

import pytest

from engines.felsenfeuer.scenario import run_spell_test
from engines.felsenfeuer.spells import keywords, load_text


def _spell(body: str, test: str, name: str = "Probe", colour: str = "grau", pips: int = 3) -> str:
    return (f'[[spell]]\nname = "{name}"\ncolour = "{colour}"\npips = {pips}\n{body}\n'
            f"[spell.test]\n{test}\n")  # fmt: skip


def _run(text: str) -> list[str]:
    spells, errors = load_text(text)
    assert errors == []
    return run_spell_test(spells[0], text)


TELEKINESE = """text_de = "Telekinese: Falls du auf deiner Hand Runen hast und auf deiner anderen Hand von jeder Farbe genauso viele Runen hast, reaktiviere die Spruchrune."
text_en = "Telekinese: If you have runes on your hand and as many runes of each colour on your other hand, reactivate the spell rune."
[[spell.step]]
text_de = "Telekinese: Falls du auf deiner Hand Runen hast und auf deiner anderen Hand von jeder Farbe genauso viele Runen hast, reaktiviere die Spruchrune."
text_en = "Telekinese: If you have runes on your hand and as many runes of each colour on your other hand, reactivate the spell rune."
keyword = "Telekinese"
"""


@pytest.mark.parametrize(("hands", "glyph"), [
    (["0 rot hand", "0 grau hand", "0 rot hand1", "0 grau hand1"], True),
    (["0 rot hand", "0 grau hand", "0 rot hand1"], False),  # one grey rune fewer
    (["0 rot hand", "0 rot hand1", "0 rot hand1"], False),  # two red against one
    (["0 rot hand"], False),  # no other hand: none of each colour there
    ([], False),  # no runes on the hand at all
])  # fmt: skip
def test_telekinese_reactivates_the_spell_rune_as_the_rulebook_quotes_it(
    hands: list[str], glyph: bool
) -> None:
    dice = ["0 grau rune 3", "0 rot essence 6", "1 rot essence 6", *hands]
    assert "Telekinese" in keywords()
    assert (
        _run(
            _spell(
                TELEKINESE,
                f'dice = {dice!r}\nexpect = {{"d0.glyph" = {str(glyph).lower()}}}'.replace(
                    "'", '"'
                ),
            )
        )
        == []
    )


NAMED = """text_de = "Deine Spruchrune zählt als Fluchrune. Zerstöre jede Duellplatz-Rune mit der Augenzahl einer Fluchrune."
text_en = "Your spell rune counts as a curse rune. Destroy every Duellplatz rune with the pips of a curse rune."
[[spell.step]]
text_de = "Deine Spruchrune zählt als Fluchrune."
text_en = "Your spell rune counts as a curse rune."
do = "counts_as"
property = "named"
value = "Fluchrune"
target = "spruchrune"
[[spell.step]]
text_de = "Zerstöre jede Duellplatz-Rune mit der Augenzahl einer Fluchrune."
text_en = "Destroy every Duellplatz rune with the pips of a curse rune."
do = "destroy"
target = {zone = "matrix", on = "duellplatz", named = "Fluchrune"}
"""


def test_a_named_property_counts_for_the_rest_of_the_spell() -> None:
    # only the rune that counts as Fluchrune is named: the 3s of the others stay
    assert _run(_spell(NAMED, 'expect = {"d0.zone" = "bag", "d7.zone" = "matrix"}')) == []


COMPARE = """text_de = "Falls deine Gegner mehr Glyphen haben als du, greife jeden Gegner so oft an, wie du Glyphen hast."
text_en = "If your opponents have more glyphs than you, attack every opponent as often as you have glyphs."
[[spell.step]]
text_de = "Falls deine Gegner mehr Glyphen haben als du, greife jeden Gegner so oft an, wie du Glyphen hast."
text_en = "If your opponents have more glyphs than you, attack every opponent as often as you have glyphs."
do = "attack"
if = {compare = {left = {count = {zone = "glyph", owner = "opponent"}}, op = "gt", right = {count = {zone = "glyph", owner = "self"}}}}
repeat = {count = {zone = "glyph", owner = "self"}}
"""


@pytest.mark.parametrize(("extra", "essence"), [
    ([], 9),  # two glyphs each: not more, nothing happens
    (["1 rot glyph 6"], 7),  # three against two: two attacks
])  # fmt: skip
def test_counts_and_comparisons(extra: list[str], essence: int) -> None:
    test = f'extra = {extra!r}\nexpect = {{"essence.1" = {essence}}}'.replace("'", '"')
    assert _run(_spell(COMPARE, test)) == []


FOR_EACH = """text_de = "Senke jede Duellplatz-Glyphe deiner Gegner für jede deiner Glyphen um 1."
text_en = "Lower each of your opponents' Duellplatz glyphs by 1 for each of your glyphs."
[[spell.step]]
text_de = "Senke jede Duellplatz-Glyphe deiner Gegner für jede deiner Glyphen um 1."
text_en = "Lower each of your opponents' Duellplatz glyphs by 1 for each of your glyphs."
do = "lower_pips"
target = {zone = "glyph", owner = "opponent", on = "duellplatz"}
for_each = {zone = "glyph", owner = "self"}
"""


def test_for_each_runs_the_sentence_once_per_die() -> None:
    assert _run(_spell(FOR_EACH, 'expect = {"d10.pips" = 1, "d11.pips" = 2}')) == []


MOVE_ANY = """text_de = "Verschiebe eine beliebige Glyphe eines Gegners auf eine beliebige Matrix."
text_en = "Move any one opponent's glyph onto any matrix."
[[spell.step]]
text_de = "Verschiebe eine beliebige Glyphe eines Gegners auf eine beliebige Matrix."
text_en = "Move any one opponent's glyph onto any matrix."
do = "move_to_matrix"
to = "choose"
target = {zone = "glyph", owner = "opponent"}
count = "one"
"""


def test_moving_onto_a_matrix_of_the_casters_choice() -> None:
    assert _run(_spell(MOVE_ANY, 'answers = ["d10", "m1"]\nexpect = {"d10.matrix" = 1}')) == []


CHOOSE_HAND = """text_de = "Wähle eine deiner Hände und lege alle Runen dieser Hand als 1 auf den Duellplatz."
text_en = "Choose one of your hands and lay all runes of that hand on the Duellplatz as 1s."
[[spell.step]]
text_de = "Wähle eine deiner Hände und lege alle Runen dieser Hand als 1 auf den Duellplatz."
text_en = "Choose one of your hands and lay all runes of that hand on the Duellplatz as 1s."
choose_hand = true
do = "lay"
value = 1
target = {zone = "hand", owner = "self", hand = "this"}
"""


@pytest.mark.parametrize(("hand", "laid", "kept"), [("h1", 4, 3), ("h0", 3, 4)])
def test_a_two_handed_player_chooses_the_hand(hand: str, laid: int, kept: int) -> None:
    dice = '["0 grau rune 3", "0 rot essence 6", "1 rot essence 6", "0 rot hand", "0 rot hand1", "0 grau hand1"]'
    test = (f'dice = {dice}\nanswers = ["{hand}"]\n'
            f'expect = {{"d{laid}.zone" = "matrix", "d{laid}.pips" = 1, "d{kept}.zone" = "hand"}}')  # fmt: skip
    assert _run(_spell(CHOOSE_HAND, test)) == []


BRESCHE = """text_de = "Bresche: Jede Duellplatz-Rune deiner Gegner, die eine 5 zeigt, zählt als 4. Greife jeden Gegner an."
text_en = "Bresche: Each of your opponents' Duellplatz runes showing a 5 counts as a 4. Attack every opponent."
[[spell.step]]
text_de = "Bresche: Jede Duellplatz-Rune deiner Gegner, die eine 5 zeigt, zählt als 4."
text_en = "Bresche: Each of your opponents' Duellplatz runes showing a 5 counts as a 4."
keyword = "Bresche"
[[spell.step]]
text_de = "Greife jeden Gegner an."
text_en = "Attack every opponent."
do = "attack"
"""


def test_bresche_breaks_a_ward_of_5_for_the_spell_and_no_longer() -> None:
    assert (
        _run(
            _spell(BRESCHE, 'extra = ["1 rot rune 5"]\nexpect = {"essence.1" = 8, "d15.pips" = 5}')
        )
        == []
    )


# --- the loader names the spell and the line of each new mistake -------------------------------
@pytest.mark.parametrize(("body", "needle", "line"), [
    ('text_de = "Zauberwort: x"\ntext_en = "y"\n[[spell.step]]\ntext_de = "Zauberwort: x"\n'
     'text_en = "y"\nkeyword = "Zauberwort"', "unknown keyword 'Zauberwort'", 1),
    ('text_de = "x"\ntext_en = "y"\n[[spell.step]]\ntext_de = "x"\ntext_en = "y"\n'
     'keyword = "Telekinese"', 'starts with "Telekinese: "', 1),
    ('text_de = "x"\ntext_en = "y"\n[[spell.step]]\ntext_de = "x"\ntext_en = "y"\ndo = "attack"\n'
     'if = {compare = {left = 1, op = "mehr", right = 2}}', "'mehr' is not one of", 11),
    ('text_de = "x"\ntext_en = "y"\n[[spell.step]]\ntext_de = "x"\ntext_en = "y"\n'
     'do = "counts_as"\nproperty = "named"\nvalue = "fluch"\ntarget = "spruchrune"',
     "a named property is a capitalised name", 12),
    ('text_de = "x"\ntext_en = "y"\n[[spell.step]]\ntext_de = "x"\ntext_en = "y"\ndo = "attack"\n'
     'repeat = "oft"', "an integer or a one-key value table", 11),
    ('text_de = "x"\ntext_en = "y"\n[[spell.step]]\ntext_de = "x"\ntext_en = "y"\ndo = "destroy"\n'
     'target = {zone = "hand", hand = "links"}', "'links' is not one of", 11),
])  # fmt: skip
def test_new_mistakes_name_the_spell_and_the_line(body: str, needle: str, line: int) -> None:
    _spells, errors = load_text(_spell(body, 'expect = {"essence.1" = 9}', name="Fehler"))
    found = [e for e in errors if needle in e.message]
    assert found, [str(e) for e in errors]
    assert found[0].item == "Fehler" and found[0].line == line


SUMS = """text_de = "Du erhältst so viele Essenzpunkte, wie die Augen deiner Glyphen und 1 zusammen über 6 liegen."
text_en = "You gain as many essence points as the pips of your glyphs plus 1 exceed 6."
[[spell.step]]
text_de = "Du erhältst so viele Essenzpunkte, wie die Augen deiner Glyphen und 1 zusammen über 6 liegen."
text_en = "You gain as many essence points as the pips of your glyphs plus 1 exceed 6."
do = "gain_essence"
amount = {add = [{sum_pips = {zone = "glyph", owner = "self"}}, 1, -6]}
"""


@pytest.mark.parametrize(
    ("glyphs", "essence"), [(["0 grau glyph 4", "0 rot glyph 3"], 4), (["0 grau glyph 2"], 2)]
)
def test_sums_and_additions_of_values(glyphs: list[str], essence: int) -> None:
    # 4 + 3 + 1 - 6 = 2 points gained; 2 + 1 - 6 is below one: nothing is gained
    dice = ["0 gruen rune 3", "0 gruen essence 2", "1 rot essence 6", *glyphs]
    test = f'dice = {dice!r}\nexpect = {{"essence.0" = {essence}}}'.replace("'", '"')
    assert _run(_spell(SUMS, test, colour="gruen")) == []


def test_the_matrix_and_hand_choices_are_asked_and_labelled_in_both_languages() -> None:
    from bot.i18n import t
    from bot.render.felsenfeuer_text import option_label
    from engines.felsenfeuer.scenario import BASE, answer, build, cast

    text = _spell(MOVE_ANY, 'answers = ["d10", "m1"]\nexpect = {"d10.matrix" = 1}')
    lines = [line.format(colour="grau", pips=3) for line in BASE]
    state, _ = cast(build(lines, spells=text), "probe", 0, 0)
    state = answer(state, "d10")
    assert state.pending is not None and state.pending.prompt == "felsenfeuer.ask.matrix"
    assert state.pending.options == ("m0", "m1")
    assert option_label("m1", {}, "de") == "Matrix 1" and option_label("m1", {}, "en") == "matrix 1"
    for key in ("felsenfeuer.ask.matrix", "felsenfeuer.ask.which_hand"):
        assert t(key, "de") != t(key, "en") and key not in (t(key, "de"), t(key, "en"))
