"""A small exact JSON codec for the frozen dataclasses of the combat state.

Supports int, str, bool, None, ``X | None``, ``tuple[X, ...]``, fixed tuples and nested
dataclasses. Raises BadInput("w6.combat.bad_state", field=...) for data of another shape.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Any

from engines.core import BadInput, Rng


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


_PLAIN = (int, str, bool, float, type(None))


def encode(value: Any) -> Any:
    """Plain JSON data for a dataclass value (tuples become lists)."""
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, tuple):
        return [encode(item) for item in value]
    if isinstance(value, Rng):
        return value.to_json()
    kind: type = type(value)
    return {name: encode(getattr(value, name)) for name in _field_names(kind)}


def decode(kind: Any, data: Any, path: str = "") -> Any:
    """The value of type ``kind`` stored as ``data``. Raises BadInput on a mismatch."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(kind)
        if data is None and type(None) in options:
            return None
        real = [option for option in options if option is not type(None)]
        return decode(real[0], data, path)
    if origin is tuple:
        return _decode_tuple(kind, data, path)
    if kind is Rng:
        ok = isinstance(data, list) and len(data) == 2
        if not ok or not all(isinstance(x, int) and not isinstance(x, bool) for x in data):
            raise BadInput("w6.combat.bad_state", field=path)
        return Rng.from_json(data)
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        return _decode_class(kind, data, path)
    if kind is bool:
        if not isinstance(data, bool):
            raise BadInput("w6.combat.bad_state", field=path)
        return data
    if kind is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise BadInput("w6.combat.bad_state", field=path)
        return data
    if kind is str:
        if not isinstance(data, str):
            raise BadInput("w6.combat.bad_state", field=path)
        return data
    raise BadInput("w6.combat.bad_state", field=path)


def _decode_tuple(kind: Any, data: Any, path: str) -> tuple[Any, ...]:
    if not isinstance(data, list):
        raise BadInput("w6.combat.bad_state", field=path)
    args = typing.get_args(kind)
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(decode(args[0], item, f"{path}[{i}]") for i, item in enumerate(data))
    if len(args) != len(data):
        raise BadInput("w6.combat.bad_state", field=path)
    return tuple(
        decode(arg, item, f"{path}[{i}]")
        for i, (arg, item) in enumerate(zip(args, data, strict=True))
    )


def _decode_class(kind: type, data: Any, path: str) -> Any:
    if not isinstance(data, dict):
        raise BadInput("w6.combat.bad_state", field=path)
    hints = _hints(kind)
    names = [f.name for f in dataclasses.fields(kind)]
    if set(data) != set(names):
        raise BadInput("w6.combat.bad_state", field=path or kind.__name__)
    values = {name: decode(hints[name], data[name], f"{path}.{name}") for name in names}
    return kind(**values)
