"""W6's use of the core codec (engines/core/codec.py): its values decode with W6's error key,
``BadInput("w6.combat.bad_state", field=...)``."""

from __future__ import annotations

from typing import Any

from engines.core.codec import Codec
from engines.core.codec import encode as _encode

CODEC = Codec("w6.combat.bad_state")


def encode(value: object) -> Any:
    """Plain JSON data for a W6 value (typed loosely: W6 merges it into its own dicts)."""
    return _encode(value)


def decode(kind: Any, data: Any, path: str = "") -> Any:
    """The value of type ``kind`` stored as ``data``. Raises BadInput on a mismatch."""
    return CODEC.decode_as(kind, data, path)
