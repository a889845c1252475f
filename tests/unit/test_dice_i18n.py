"""Every message key the dice engines raise exists in data/i18n/dice.json, in German and
English, with the same placeholders."""

from __future__ import annotations

import json
import re
import string
from collections.abc import Callable
from pathlib import Path

import pytest

from engines.core import BadInput, Rng
from engines.dice.notation import roll_notation
from engines.dice.saved import expand_saved
from engines.dice.telperinquar import attack_roll, erfolgswurf
from engines.dice.w6 import (
    Difficulty,
    Pool,
    ProbeSpec,
    komplexe_probe,
    parse_difficulty,
    parse_komplex,
    parse_probe,
    probe,
)

ROOT = Path(__file__).resolve().parents[2]
MESSAGES = json.loads((ROOT / "data/i18n/dice.json").read_text(encoding="utf-8"))


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_raised_key_has_a_message() -> None:
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "engines/dice").glob("*.py"))
    raised = set(re.findall(r'BadInput\(\s*"([a-z0-9_.]+)"', source))
    assert raised, "no keys found"
    assert raised <= set(MESSAGES), raised - set(MESSAGES)


def test_difficulty_names_have_messages() -> None:
    assert {level.key for level in Difficulty} <= set(MESSAGES)


def test_german_and_english_use_the_same_placeholders() -> None:
    for key, texts in MESSAGES.items():
        assert set(texts) == {"de", "en"}, key
        assert _placeholders(texts["de"]) == _placeholders(texts["en"]), key


def _raised(call: Callable[[], object]) -> BadInput:
    try:
        call()
    except BadInput as error:
        return error
    raise AssertionError("no BadInput raised")


TRIGGERS: list[Callable[[], object]] = [
    lambda: roll_notation("", Rng(1)),
    lambda: roll_notation("1" * 300, Rng(1)),
    lambda: roll_notation("2d6+abc", Rng(1)),
    lambda: roll_notation("2d6+", Rng(1)),
    lambda: roll_notation("1001d6", Rng(1)),
    lambda: roll_notation("1d1001", Rng(1)),
    lambda: roll_notation("(" * 11 + "1" + ")" * 11, Rng(1)),
    lambda: roll_notation("1d6mi<2", Rng(1)),
    lambda: roll_notation("1/0", Rng(1)),
    lambda: parse_probe("5 foo"),
    lambda: parse_probe("500"),
    lambda: parse_difficulty("leicht"),
    lambda: parse_komplex("3"),
    lambda: parse_komplex("quatsch"),
    lambda: parse_komplex("3/2", "zwei"),
    lambda: roll_notation("3X6", Rng(1)),
    lambda: roll_notation("0W6", Rng(1)),
    lambda: expand_saved("feuerball", "8W6>=5", "*2"),
    lambda: parse_komplex("3/2", "1,2,3"),
    lambda: probe(ProbeSpec(Pool(90, bonus=20)), Rng(1)),
    lambda: komplexe_probe(Pool(3), parse_komplex("2/2"), Rng(1)),
    lambda: erfolgswurf(11, 3, Rng(1)),
    lambda: attack_roll(5000, Rng(1)),
]


@pytest.mark.parametrize("trigger", TRIGGERS)
def test_raised_params_fill_the_message(trigger: Callable[[], object]) -> None:
    error = _raised(trigger)
    for text in MESSAGES[error.key].values():
        assert "{" not in text.format(**error.params)
