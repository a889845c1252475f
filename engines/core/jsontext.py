"""Reading an uploaded JSON document safely: bounded size and nesting, finite numbers that fit
a 64-bit column, strings that can be stored and drawn.

Python's ``json`` raises ``RecursionError`` on deeply nested input (100,000 ``[``), accepts
``NaN``/``Infinity`` and turns ``1e999`` into ``inf``, and lets ``"\\ud800"`` through as a lone
surrogate that SQLite (UTF-8) cannot store. ``load_json`` refuses all of these with a
``BadInput`` whose key names the problem (``json.*``, messages in ``data/i18n/core.json``).
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from typing import Any

from engines.core.errors import BadInput

MAX_DEPTH = 32
INT_LIMIT = 2**63  # SQLite INTEGER / PostgreSQL BIGINT: every int must lie in (-2^63, 2^63)
_SURROGATE = re.compile("[\ud800-\udfff]")
# control and separator characters a name must not contain (tab/newline only in free text)
_BREAKING = ("Cc", "Cs", "Zl", "Zp")


def _constant(name: str) -> Any:
    raise BadInput("json.not_finite", value=name)


def load_json(raw: bytes | str, *, max_bytes: int, max_depth: int = MAX_DEPTH) -> Any:
    """The document in ``raw`` (UTF-8 bytes or text) as plain data.

    Raises BadInput: ``json.too_big`` (``max`` kB), ``json.not_json`` (``line``),
    ``json.too_deep`` (``max``), ``json.not_finite`` (NaN, Infinity, 1e999),
    ``json.number_too_big`` (an integer beyond ±2^63), ``json.bad_text`` (a lone surrogate).
    """
    size = len(raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw)
    if size > max_bytes:
        raise BadInput("json.too_big", max=max_bytes // 1000)
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise BadInput("json.not_json", line=0) from error
    try:
        data = json.loads(raw, parse_constant=_constant)
    except RecursionError as error:
        raise BadInput("json.too_deep", max=max_depth) from error
    except ValueError as error:
        raise BadInput("json.not_json", line=getattr(error, "lineno", 0)) from error
    check_plain(data, max_depth=max_depth)
    return data


def check_plain(data: Any, *, max_depth: int = MAX_DEPTH) -> None:
    """Walk ``data`` (without recursion) and raise BadInput as ``load_json`` does for nesting
    deeper than ``max_depth``, a number that is not finite or does not fit 64 bits, or a
    string (value or key) with a lone surrogate."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            if depth >= max_depth:
                raise BadInput("json.too_deep", max=max_depth)
            for key, item in value.items():
                _check_text(key)
                stack.append((item, depth + 1))
        elif isinstance(value, list):
            if depth >= max_depth:
                raise BadInput("json.too_deep", max=max_depth)
            stack.extend((item, depth + 1) for item in value)
        elif isinstance(value, str):
            _check_text(value)
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if not -INT_LIMIT < value < INT_LIMIT:
                raise BadInput("json.number_too_big")
        elif isinstance(value, float) and not math.isfinite(value):
            raise BadInput("json.not_finite", value=str(value))


def _check_text(text: str) -> None:
    if _SURROGATE.search(text):
        raise BadInput("json.bad_text")


def has_breaking_chars(text: str, *, allow: str = "") -> bool:
    """Whether ``text`` holds a control, surrogate or line/paragraph separator character
    (other than those in ``allow``, e.g. ``"\\n\\t"`` for free text)."""
    return any(ch not in allow and unicodedata.category(ch) in _BREAKING for ch in text)
