"""Every W6 message key and event type has German and English text that formats."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from engines.core import Event
from tests.unit.test_w6_random import play

ROOT = Path(__file__).resolve().parents[2]
MESSAGES = json.loads((ROOT / "data" / "i18n" / "w6.json").read_text(encoding="utf-8"))


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_raised_key_is_translated() -> None:
    source = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "engines" / "w6").glob("*.py"))
    keys = set(re.findall(r'"(w6\.(?:sheet|combat|action|table)\.[a-z_]+)"', source))
    assert keys and keys <= set(MESSAGES)


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_languages_share_placeholders(key: str) -> None:
    assert _fields(MESSAGES[key]["de"]) == _fields(MESSAGES[key]["en"])


def test_events_of_random_combats_narrate() -> None:
    seen: set[str] = set()
    for seed in range(8):
        events: list[Event] = []
        play(seed, seen=events)
        for event in events:
            entry = MESSAGES[f"w6.event.{event.type}"]
            entry["de"].format(**event.data)
            entry["en"].format(**event.data)
            seen.add(event.type)
    assert {"attack_roll", "damage", "phase_started"} <= seen
