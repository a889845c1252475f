"""A small exact JSON codec for the frozen dataclasses of the combat state.

Supports int, str, bool, None, ``X | None``, ``tuple[X, ...]``, fixed tuples and nested
dataclasses. A field with a default may be missing (data stored before the field was added
reads back with the default); any other missing or unknown key raises
BadInput("w6.combat.bad_state", field=...), as does data of another shape.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
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
Decoder = Callable[[Any, str], Any]


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
    return _decoder(kind)(data, path)


def _bad(path: str) -> BadInput:
    return BadInput("w6.combat.bad_state", field=path)


@cache
def _decoder(kind: Any) -> Decoder:
    """A decoding function for ``kind``, built once per type (states are read on every
    click, and the kit reads one after every step)."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(kind)
        nullable = type(None) in options
        inner = _decoder(next(option for option in options if option is not type(None)))

        def union(data: Any, path: str) -> Any:
            return None if data is None and nullable else inner(data, path)

        return union
    if origin is tuple:
        return _tuple_decoder(kind)
    if kind is Rng:
        return _decode_rng
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        return _class_decoder(kind)
    if kind in (bool, int, str):
        return _plain_decoder(kind)
    raise TypeError(f"no decoder for {kind!r}")


def _plain_decoder(kind: type) -> Decoder:
    def plain(data: Any, path: str) -> Any:
        if type(data) is not kind:  # bool is no int here
            raise _bad(path)
        return data

    return plain


def _decode_rng(data: Any, path: str) -> Rng:
    ok = isinstance(data, list) and len(data) == 2
    if not ok or not all(type(x) is int for x in data):
        raise _bad(path)
    return Rng.from_json(data)


def _tuple_decoder(kind: Any) -> Decoder:
    args = typing.get_args(kind)
    if len(args) == 2 and args[1] is Ellipsis:
        item = _decoder(args[0])

        def many(data: Any, path: str) -> tuple[Any, ...]:
            if not isinstance(data, list):
                raise _bad(path)
            return tuple(item(value, f"{path}[{i}]") for i, value in enumerate(data))

        return many
    items = [_decoder(arg) for arg in args]

    def fixed(data: Any, path: str) -> tuple[Any, ...]:
        if not isinstance(data, list) or len(data) != len(items):
            raise _bad(path)
        return tuple(
            dec(value, f"{path}[{i}]")
            for i, (dec, value) in enumerate(zip(items, data, strict=True))
        )

    return fixed


def _class_decoder(kind: type) -> Decoder:
    names = _field_names(kind)
    wanted = set(names)
    hints = _hints(kind)
    fields = [(name, _decoder(hints[name])) for name in names]
    # a field added later with a default may be missing from data stored before it existed
    optional = {f.name for f in dataclasses.fields(kind) if f.default is not dataclasses.MISSING}

    def instance(data: Any, path: str) -> Any:
        if not isinstance(data, dict) or not wanted - optional <= data.keys() <= wanted:
            raise _bad(path or kind.__name__ if isinstance(data, dict) else path)
        return kind(
            **{name: dec(data[name], f"{path}.{name}") for name, dec in fields if name in data}
        )

    return instance
