"""Armageddon's typed actions: each verb a frozen dataclass whose fields are the notation's
words, read from English or German notation and written back the same."""

from __future__ import annotations

import pytest

from engines.armageddon.actions import (
    BY_GM_VERB,
    BY_VERB,
    Cast,
    Dismount,
    GmMove,
    GmNote,
    GmVerb,
    Mount,
    Step,
    Verb,
    action_path,
    action_text,
    parse_action,
)
from engines.core.errors import BadInput


def test_every_verb_has_its_action_class() -> None:
    assert set(BY_VERB) | {Verb.GM} == set(Verb)
    assert set(BY_GM_VERB) == set(GmVerb)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("step k3 c4", Step("k3", "c4")),
        ("schritt k3 c4", Step("k3", "c4")),
        ("mount k3 pf2", Mount("k3", "pf2")),
        ("aufsitzen k3 w2 wagen", Mount("k3", "w2", "wagen")),
        ("dismount k3", Dismount("k3")),
        ("dismount k3 b2", Dismount("k3", "b2")),
        ("zaubern z1 versetzen c4 d5/2", Cast("z1", "versetzen", "c4", "d5/2")),
        ("sl versetzen k7 c4/2", GmMove("k7", "c4/2")),
    ],
)
def test_notation_reads_as_a_typed_action(text: str, action: object) -> None:
    parsed = parse_action(text)
    assert parsed == action
    assert parse_action(action_text(parsed)) == parsed


def test_the_words_after_the_verb_are_the_named_fields() -> None:
    cast = parse_action("cast z1 staerken c4")
    assert isinstance(cast, Cast)
    assert (cast.wizard, cast.spell, cast.place, cast.to) == ("z1", "staerken", "c4", "")
    assert action_path(cast) == ("cast", "z1", "staerken", "c4")
    assert action_path(parse_action("sl versetzen k7 c4/2")) == ("gm", "move", "k7", "c4/2")
    assert all(type(word) is str for word in action_path(parse_action("gm undo")))


def test_a_note_belongs_to_a_game_masters_action_and_is_no_part_of_it() -> None:
    moved = parse_action("gm move k7 c4 -- vom Wind")
    assert moved.note == "vom Wind" and moved == GmMove("k7", "c4")
    assert action_text(moved) == "gm move k7 c4 -- vom Wind"
    note = parse_action("sl notiz -- Regen")
    assert isinstance(note, GmNote) and note.note == "Regen"


@pytest.mark.parametrize(
    "text",
    ["", "fly k3", "step k3", "step k3 c4 d5", "mount k3", "end now", "gm", "gm fly",
     "gm undo k3", "gm note", "step k3 c4 -- a note", "step k3 C!"],
)  # fmt: skip
def test_unreadable_notation_is_refused(text: str) -> None:
    with pytest.raises(BadInput) as raised:
        parse_action(text)
    assert raised.value.key == "armageddon.error.bad_notation"
