"""Loading items (spells, cards) from TOML with the line of every mistake.

``tomllib`` gives no positions, so the loader finds the header line of each ``[[<table>]]``
and of each ``[[<table>.step]]`` in the text itself; a mistake names the item and the line of
its table (and of the step's table for step mistakes).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.effects.spec import Language


@dataclass(frozen=True, slots=True)
class Item:
    name: str
    line: int
    data: Mapping[str, Any]
    step_lines: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Mistake:
    """A mistake about one key of an item, for a translated message: ``code`` and ``params``
    name it, ``english`` is the plain text; the loader finds the line of ``key``."""

    key: str
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)
    english: str = ""

    def __str__(self) -> str:
        return f"{self.key}: {self.english}"


@dataclass(frozen=True, slots=True)
class LoadError:
    """One mistake: the item, the line, the English text and (for translation) a code and
    its parameters (``step``: a step message, ``toml``: the file is no TOML, …)."""

    item: str
    line: int
    message: str
    code: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)

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


def _step_mistakes(step: Any, number: int, language: Language) -> list[str]:
    if not isinstance(step, dict):
        return [f"step {number}: a table"]
    found = []
    if not step.get("text_de") or not step.get("text_en"):
        found.append(f"step {number}: needs text_de and text_en")
    return found + language.check_step(step, f"step {number}")


MAX_NESTING = 32  # lists and inline tables inside each other (tomllib recurses on each)
MAX_DIGITS = 100  # no count or cost has more; Python's int() refuses past 4,300


def _outsized(text: str) -> tuple[int, int]:
    """The first line where lists and inline tables nest deeper than ``MAX_NESTING`` and the
    first line with a number of more than ``MAX_DIGITS`` digits (0: none), outside strings
    and comments: where a file that ``tomllib`` could not read went wrong."""
    deep = long = depth = digits = 0
    line, i, size = 1, 0, len(text)
    while i < size:
        ch = text[i]
        if ch == "\n":
            line, digits = line + 1, 0
        elif ch == "#":
            end = text.find("\n", i)
            i = size if end < 0 else end
            continue
        elif ch in "\"'":
            quote = ch * 3 if text.startswith(ch * 3, i) else ch
            end = i + len(quote)
            while end < size and not text.startswith(quote, end):
                if text[end] == "\n" and len(quote) == 1:
                    break  # an unclosed one-line string ends with its line
                end += 2 if text[end] == "\\" and ch == '"' else 1
            line += text.count("\n", i, end)
            i = end + len(quote)
            continue
        elif ch in "[{":
            depth += 1
            deep = deep or (line if depth > MAX_NESTING else 0)
        elif ch in "]}":
            depth = max(0, depth - 1)
        if ch.isdigit():
            digits += 1
            long = long or (line if digits > MAX_DIGITS else 0)
        elif ch != "_":
            digits = 0
        i += 1
    return deep, long


def load_toml(
    text: str,
    language: Language,
    *,
    table: str = "spell",
    check_item: Callable[[Mapping[str, Any]], Sequence[str | Mistake]] | None = None,
) -> tuple[list[Item], list[LoadError]]:
    """The items of ``text`` and every mistake found (items with mistakes are left out)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        match = re.search(r"line (\d+), column (\d+)", str(error))
        line, column = (int(match.group(1)), int(match.group(2))) if match else (0, 0)
        return [], [LoadError("(file)", line, str(error), "toml", {"column": column})]
    except (RecursionError, ValueError):  # nested too deep; an integer of thousands of digits
        deep, long = _outsized(text)
        if deep or not long:
            message = f"nested deeper than {MAX_NESTING} lists or tables"
            return [], [LoadError("(file)", deep, message, "toml_deep", {"max": MAX_NESTING})]
        message = f"a number longer than {MAX_DIGITS} digits"
        return [], [LoadError("(file)", long, message, "toml_number", {"max": MAX_DIGITS})]
    raw = data.get(table, [])
    errors: list[LoadError] = []
    extra = sorted(set(data) - {table})
    if extra:
        message = f"unknown top-level key(s) {extra}"
        errors.append(LoadError("(file)", 1, message, "top_level", {"keys": extra, "table": table}))
    if not isinstance(raw, list):
        message = f"[[{table}]] tables expected"
        return [], [LoadError("(file)", 1, message, "tables", {"table": table})]
    lines, step_lines = _headers(text, table)
    text_lines = text.splitlines()
    items: list[Item] = []
    seen: set[str] = set()
    for index, entry in enumerate(raw):
        line = lines[index] if index < len(lines) else 0
        last = lines[index + 1] if index + 1 < len(lines) else len(text_lines) + 1
        slines = step_lines[index] if index < len(step_lines) else []
        name = str(entry.get("name", f"#{index + 1}"))
        mistakes: list[LoadError] = []
        if name in seen:
            mistakes.append(LoadError(name, line, "a second item of this name", "duplicate"))
        seen.add(name)
        own_end = slines[0] if slines else last
        for found in check_item(entry) if check_item else []:
            if isinstance(found, Mistake):
                at = _key_line(text_lines, line, own_end, found.key) or line
                mistakes.append(LoadError(name, at, str(found), found.code, found.params))
            else:
                mistakes.append(LoadError(name, line, found))
        steps = entry.get("step", [])
        if isinstance(steps, list) and language.expand_step is not None:
            steps = [language.expand_step(s) if isinstance(s, dict) else s for s in steps]
            entry = {**entry, "step": steps}
        if not isinstance(steps, list) or not steps:
            message = f"no steps ([[{table}.step]] tables)"
            mistakes.append(LoadError(name, line, message, "no_steps", {"table": table}))
            steps = []
        for number, step in enumerate(steps):
            sline = slines[number] if number < len(slines) else line
            end = slines[number + 1] if number + 1 < len(slines) else last
            for message in _step_mistakes(step, number + 1, language):
                at = _key_line(text_lines, sline, end, _key_of(message)) or sline
                code = "step" if message.startswith("step") else ""
                mistakes.append(LoadError(name, at, message, code, {"step": number + 1}))
        if mistakes:
            errors.extend(mistakes)
        else:
            items.append(Item(name, line, entry, tuple(slines)))
    return items, errors
