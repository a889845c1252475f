"""The slash-command schema: a snapshot (a change means a sync is needed) and completeness of
the German and English strings of every command, option and choice.

After an intended change, refresh the snapshot with
``UPDATE_GOLDEN=1 pytest tests/unit/test_commands.py``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import create_bot
from bot.settings import Settings
from bot.store import SqliteStore

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "commands.json"
ENGLISH = ("en-US", "en-GB")


@pytest.fixture
async def schema() -> list[dict[str, Any]]:
    bot = create_bot(Settings(), SqliteStore(":memory:"))
    await bot.load_cogs()
    return await bot.command_schema()


def _named(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        if "name" in node:
            yield node
        for value in node.values():
            yield from _named(value)
    elif isinstance(node, list):
        for item in node:
            yield from _named(item)


async def test_schema_matches_the_snapshot(schema: list[dict[str, Any]]) -> None:
    text = json.dumps(schema, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_text(text, encoding="utf-8")
    if GOLDEN.read_text(encoding="utf-8") != text:  # no rich diff: the schema is large
        pytest.fail("the command schema changed: a sync is needed; refresh with UPDATE_GOLDEN=1")


async def test_every_name_and_description_has_english(schema: list[dict[str, Any]]) -> None:
    missing = []
    for node in _named(schema):
        for field in ("name", "description"):
            if field not in node or (field == "description" and not node[field]):
                continue
            localized = node.get(f"{field}_localizations") or {}
            if not all(locale in localized for locale in ENGLISH):
                missing.append(f"{field} {node[field]!r}")
    assert not missing, "no English for: " + ", ".join(missing)


async def test_there_are_commands(schema: list[dict[str, Any]]) -> None:
    names = {c["name"] for c in schema}
    assert {"hilfe", "sprache"} <= names


KEY_USE = __import__("re").compile(
    r"\b(?:t|cmd|send_error|IllegalAction|BadInput|EngineError)\(\s*(?:interaction,\s*)?"
    r"\"([a-z_0-9]+(?:\.[a-z_0-9]+)+)\""
)


def test_every_message_key_used_in_code_exists() -> None:
    from bot.i18n import catalog

    root = Path(__file__).resolve().parents[2]
    missing = []
    for folder in ("bot", "cogs", "engines"):
        for path in (root / folder).rglob("*.py"):
            for key in KEY_USE.findall(path.read_text(encoding="utf-8")):
                if key not in catalog():
                    missing.append(f"{key} ({path.relative_to(root)})")
    assert not missing, "message keys without a translation: " + ", ".join(sorted(missing))


def test_options_names_and_describes_from_the_catalog() -> None:
    """``options`` writes each option once: name and description keys by convention, a pair
    when the description comes from another entry, and a typo fails at import, not at sync."""
    from discord import app_commands

    from bot.i18n import options

    @app_commands.command(name="probe", description="probe")
    @options("roll.opt", ausdruck=("expression", "saved_expression"), privat="private")
    async def probe(interaction: Any, ausdruck: str, privat: bool = False) -> None:
        return None

    params = {p.name: p for p in probe.parameters}
    assert params["ausdruck"].locale_name is not None
    assert params["ausdruck"].locale_name.extras["key"] == "roll.opt.expression.name"
    assert params["ausdruck"].locale_description is not None
    assert params["ausdruck"].locale_description.extras["key"] == "roll.opt.saved_expression.desc"
    assert params["privat"].locale_description is not None
    assert params["privat"].locale_description.extras["key"] == "roll.opt.private.desc"
    with pytest.raises(KeyError, match=r"roll\.opt\.nothing\.name"):
        options("roll.opt", privat="nothing")
