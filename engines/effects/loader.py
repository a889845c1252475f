"""Loading items (spells, cards) from TOML with the line of every mistake.

``tomllib`` gives no positions, so the loader finds the header line of each ``[[<table>]]``
and of each ``[[<table>.step]]`` in the text itself; a mistake names the item and the line of
its table (and of the step's table for step mistakes).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engines.effects.spec import Language


@dataclass(frozen=True, slots=True)
class Item:
    name: str
    line: int
    data: Mapping[str, Any]
    step_lines: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LoadError:
    item: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.item}: {self.message}"


def _headers(text: str, table: str) -> tuple[list[int], list[list[int]]]:
    """Line numbers (1-based) of each item header and, per item, of its step headers."""
    item_re = re.compile(rf"^\s*\[\[\s*{re.escape(table)}\s*\]\]")
    step_re = re.compile(rf"^\s*\[\[\s*{re.escape(table)}\.step\s*\]\]")
    items: list[int] = []
    steps: list[list[int]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if item_re.match(line):
            items.append(number)
            steps.append([])
        elif step_re.match(line) and steps:
            steps[-1].append(number)
    return items, steps


def _key_of(message: str) -> str:
    """The step key a validation message is about (its path, or the verb)."""
    named = re.search(r"has no parameter '([^']+)'", message)
    if named:
        return named.group(1)
    if "unknown verb" in message or "missing 'do'" in message:
        return "do"
    path = re.match(r"step \d+\.(\w+)", message)
    return path.group(1) if path else ""


def _key_line(lines: list[str], start: int, end: int, key: str) -> int:
    """The line (1-based) in ``start..end`` where ``key = ...`` is written, or 0."""
    if not key:
        return 0
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
    for number in range(start, min(end, len(lines) + 1)):
        if pattern.match(lines[number - 1]):
            return number
    return 0


def load_toml(
    text: str,
    language: Language,
    *,
    table: str = "spell",
    check_item: Callable[[Mapping[str, Any]], list[str]] | None = None,
) -> tuple[list[Item], list[LoadError]]:
    """The items of ``text`` and every mistake found (items with mistakes are left out)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        match = re.search(r"line (\d+)", str(error))
        return [], [LoadError("(file)", int(match.group(1)) if match else 0, str(error))]
    raw = data.get(table, [])
    errors: list[LoadError] = []
    extra = sorted(set(data) - {table})
    if extra:
        errors.append(LoadError("(file)", 1, f"unknown top-level key(s) {extra}"))
    if not isinstance(raw, list):
        return [], [LoadError("(file)", 1, f"[[{table}]] tables expected")]
    lines, step_lines = _headers(text, table)
    text_lines = text.splitlines()
    items: list[Item] = []
    seen: set[str] = set()
    for index, entry in enumerate(raw):
        line = lines[index] if index < len(lines) else 0
        slines = step_lines[index] if index < len(step_lines) else []
        name = str(entry.get("name", f"#{index + 1}"))
        mistakes: list[tuple[int, str]] = []
        if name in seen:
            mistakes.append((line, "a second item of this name"))
        seen.add(name)
        for message in check_item(entry) if check_item else []:
            mistakes.append((line, message))
        steps = entry.get("step", [])
        if not isinstance(steps, list) or not steps:
            mistakes.append((line, "no steps ([[spell.step]] tables)"))
            steps = []
        for number, step in enumerate(steps):
            sline = slines[number] if number < len(slines) else line
            end = slines[number + 1] if number + 1 < len(slines) else len(text_lines) + 1
            if number + 1 >= len(slines) and index + 1 < len(lines):
                end = lines[index + 1]
            if not isinstance(step, dict):
                mistakes.append((sline, f"step {number + 1}: a table"))
                continue
            if not step.get("text_de") or not step.get("text_en"):
                mistakes.append((sline, f"step {number + 1}: needs text_de and text_en"))
            for message in language.check_step(step, f"step {number + 1}"):
                at = _key_line(text_lines, sline, end, _key_of(message)) or sline
                mistakes.append((at, message))
        if mistakes:
            errors.extend(LoadError(name, at, message) for at, message in mistakes)
        else:
            items.append(Item(name, line, entry, tuple(slines)))
    return items, errors
