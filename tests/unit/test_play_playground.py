"""The terminal playground's command line: an option name the command does not have is
refused with the valid names, not glued onto another option's value."""

from __future__ import annotations

import pytest

from bot.sandbox.playground import parse_command
from tests.cog.test_harness_playground import _schema_fake


def test_an_unknown_option_is_named_with_the_valid_ones() -> None:
    fake = _schema_fake()
    with pytest.raises(ValueError, match="unbekannte Option / unknown option 'spieler'") as err:
        parse_command(fake, "essenz start spieler:@bob groesse:7", None)
    assert "gegner" in str(err.value) and "groesse" in str(err.value)
    with pytest.raises(ValueError, match="'gegnr'"):  # also after a known one
        parse_command(fake, "essenz start groesse:7 gegnr:@bob", None)


@pytest.mark.parametrize("name", ["x", "xy", "g"])
def test_a_short_unknown_option_is_refused_not_read_as_a_user(name: str) -> None:
    fake = _schema_fake()
    with pytest.raises(ValueError, match=f"unknown option '{name}'"):
        parse_command(fake, f"essenz start {name}:@bob", None)


def test_colons_in_a_value_are_no_option() -> None:
    fake = _schema_fake()
    text = "roll ausdruck:2W6 grund:Achtung: Falle um 12:30, siehe https://example.org/x"
    assert parse_command(fake, text, None) == (
        "roll",
        {"ausdruck": "2W6", "grund": "Achtung: Falle um 12:30, siehe https://example.org/x"},
    )
