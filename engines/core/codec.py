"""The one codec for engine values: exact JSON round trips of frozen dataclasses, and schema
versions for what a game stores.

Supported field types: ``int``, ``str``, ``bool``, ``float``, ``None``, ``X | None``, StrEnums
(stored as their value), ``tuple[X, ...]``, fixed tuples ``tuple[X, Y]``, ``frozenset[X]``
(stored sorted, so equal sets give equal text), ``dict[str, X]``, :class:`Rng` and nested
dataclasses. A dataclass is stored as an object keyed by its field names. A field with a
default may be missing (data stored before the field was added reads back with the default);
any other missing or unknown key, or data of another shape, raises ``BadInput(error,
field=<path>)`` with the error key of the :class:`Codec` (each engine names its own message).

:class:`Schema` adds the version: ``dump`` writes ``{"schema": n, ...fields}``, ``load`` reads
every older version through the engine's upgrade functions (version k to k + 1, on plain
JSON) before it decodes, and refuses a version it does not know.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Generic, TypeVar

from engines.core.errors import BadInput
from engines.core.rng import Rng

JsonValue: typing.TypeAlias = (
    "bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None"
)
JsonObject: typing.TypeAlias = dict[str, JsonValue]
T = TypeVar("T")
_Decoder = Callable[[object, str], object]
_PLAIN = (int, str, bool, float, type(None))


class _Mismatch(Exception):
    """Data of another shape at ``path`` (turned into the codec's BadInput)."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


def encode(value: object) -> JsonValue:
    """Plain JSON data for a value (tuples become lists, sets sorted lists, enums their
    value, dataclasses objects keyed by field name)."""
    if isinstance(value, enum.Enum):
        plain: JsonValue = value.value
        return plain
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, tuple):
        return [encode(item) for item in value]
    if isinstance(value, frozenset):
        return sorted((encode(item) for item in value), key=_order)
    if isinstance(value, dict):
        return {str(key): encode(item) for key, item in value.items()}
    if isinstance(value, Rng):
        return [value.seed, value.counter]
    return encode_object(value)


def encode_object(value: object) -> JsonObject:
    """The JSON object of a dataclass value."""
    kind = type(value)
    if not dataclasses.is_dataclass(kind):
        raise TypeError(f"cannot encode {kind!r}")
    return {name: encode(getattr(value, name)) for name in _field_names(kind)}


def _order(item: JsonValue) -> tuple[str, JsonValue]:
    # items of one set share a type; the type name keeps a mixed set from failing to sort
    return (type(item).__name__, item)


@dataclass(frozen=True, slots=True)
class Codec:
    """Decoding with an engine's error key (``w6.combat.bad_state``, ...)."""

    error: str

    def decode(self, kind: type[T], data: object, path: str = "") -> T:
        """The value of type ``kind`` stored as ``data``. Raises BadInput on a mismatch."""
        try:
            return typing.cast(T, _decoder(typing.cast(object, kind))(data, path))
        except _Mismatch as mismatch:
            raise BadInput(self.error, field=mismatch.path) from None

    def decode_as(self, kind: object, data: object, path: str = "") -> object:
        """As :meth:`decode` for a type written as an expression (``tuple[Log, ...]``)."""
        try:
            return _decoder(kind)(data, path)
        except _Mismatch as mismatch:
            raise BadInput(self.error, field=mismatch.path) from None


Upgrade = Callable[[JsonObject], JsonObject]


@dataclass(frozen=True)
class Schema(Generic[T]):
    """A stored value with its version. ``upgrades[k]`` turns version ``k`` into ``k + 1``."""

    kind: type[T]
    version: int
    codec: Codec
    bad_version: str  # the error key for a version this engine cannot read
    upgrades: Mapping[int, Upgrade] = dataclasses.field(default_factory=dict)

    def dump(self, value: T) -> JsonObject:
        return {"schema": self.version, **encode_object(value)}

    def load(self, data: object) -> T:
        if not isinstance(data, dict):
            raise BadInput(self.codec.error, field="schema")
        found = data.get("schema")
        known = type(found) is int and (found == self.version or found in self.upgrades)
        if not known:
            raise BadInput(self.bad_version, found=found, expected=self.version)
        body: JsonObject = {key: value for key, value in data.items() if key != "schema"}
        version = typing.cast(int, found)
        while version < self.version:
            if version not in self.upgrades:
                raise BadInput(self.bad_version, found=found, expected=self.version)
            body = self.upgrades[version](body)
            version += 1
        return self.codec.decode(self.kind, body)


@cache
def _decoder(kind: object) -> _Decoder:
    """A decoding function for ``kind``, built once per type (states are read on every
    click, and the kit reads one after every step)."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        return _union_decoder(kind)
    if origin is tuple:
        return _tuple_decoder(kind)
    if origin is frozenset:
        return _set_decoder(kind)
    if origin is dict:
        return _dict_decoder(kind)
    if kind is Rng:
        return _decode_rng
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return _enum_decoder(kind)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _class_decoder(kind)
    if kind in (bool, int, str):
        return _plain_decoder(typing.cast(type, kind))
    if kind is float:
        return _decode_float
    raise TypeError(f"no decoder for {kind!r}")


def _union_decoder(kind: object) -> _Decoder:
    options = typing.get_args(kind)
    nullable = type(None) in options
    inner = [_decoder(option) for option in options if option is not type(None)]
    if len(inner) != 1:
        raise TypeError(f"no decoder for {kind!r}: one type or None")
    one = inner[0]

    def union(data: object, path: str) -> object:
        return None if data is None and nullable else one(data, path)

    return union


def _plain_decoder(kind: type) -> _Decoder:
    def plain(data: object, path: str) -> object:
        if type(data) is not kind:  # bool is no int here
            raise _Mismatch(path)
        return data

    return plain


def _decode_float(data: object, path: str) -> object:
    if type(data) is float:
        return data
    if type(data) is int:  # JSON writes 2.0 as 2.0, but hand-written data may say 2
        return float(data)
    raise _Mismatch(path)


def _enum_decoder(kind: type[enum.Enum]) -> _Decoder:
    by_value = {member.value: member for member in kind}

    def member(data: object, path: str) -> object:
        if type(data) is not str or data not in by_value:
            raise _Mismatch(path)
        return by_value[data]

    return member


def _decode_rng(data: object, path: str) -> object:
    if not isinstance(data, list) or len(data) != 2 or not all(type(x) is int for x in data):
        raise _Mismatch(path)
    return Rng(data[0], data[1])


def _tuple_decoder(kind: object) -> _Decoder:
    args = typing.get_args(kind)
    if len(args) == 2 and args[1] is Ellipsis:
        item = _decoder(args[0])

        def many(data: object, path: str) -> object:
            if not isinstance(data, list):
                raise _Mismatch(path)
            return tuple(item(value, f"{path}[{i}]") for i, value in enumerate(data))

        return many
    items = [_decoder(arg) for arg in args]

    def fixed(data: object, path: str) -> object:
        if not isinstance(data, list) or len(data) != len(items):
            raise _Mismatch(path)
        return tuple(
            dec(value, f"{path}[{i}]")
            for i, (dec, value) in enumerate(zip(items, data, strict=True))
        )

    return fixed


def _set_decoder(kind: object) -> _Decoder:
    item = _decoder(typing.get_args(kind)[0])

    def members(data: object, path: str) -> object:
        if not isinstance(data, list):
            raise _Mismatch(path)
        return frozenset(item(value, f"{path}[{i}]") for i, value in enumerate(data))

    return members


def _dict_decoder(kind: object) -> _Decoder:
    key_type, value_type = typing.get_args(kind)
    if key_type is not str:
        raise TypeError(f"no decoder for {kind!r}: keys must be str")
    item = _decoder(value_type)

    def mapping(data: object, path: str) -> object:
        if not isinstance(data, dict):
            raise _Mismatch(path)
        return {str(key): item(value, f"{path}.{key}") for key, value in data.items()}

    return mapping


def _class_decoder(kind: type) -> _Decoder:
    names = _field_names(kind)
    wanted = set(names)
    hints = typing.get_type_hints(kind)
    fields = [(name, _decoder(hints[name])) for name in names]
    # a field added later with a default may be missing from data stored before it existed
    optional = {
        f.name
        for f in dataclasses.fields(kind)
        if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
    }
    required = wanted - optional

    def instance(data: object, path: str) -> object:
        if not isinstance(data, dict):
            raise _Mismatch(path)
        if not required <= data.keys() <= wanted:
            raise _Mismatch(path or kind.__name__)
        return kind(
            **{name: dec(data[name], f"{path}.{name}") for name, dec in fields if name in data}
        )

    return instance
