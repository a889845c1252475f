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
from operator import attrgetter
from typing import Any, Generic, TypeVar

from engines.core.errors import BadInput
from engines.core.rng import Rng

JsonValue: typing.TypeAlias = (
    "bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None"
)
JsonObject: typing.TypeAlias = dict[str, JsonValue]
T = TypeVar("T")
_Decoder = Callable[[object], object]
_Encoder = Callable[[Any], JsonValue]
_PLAIN = (int, str, bool, float, type(None))


class _Mismatch(Exception):
    """Data of another shape. The path is collected on the way out (each container adds its
    part), so reading good data builds no path strings."""

    def __init__(self, root: str = "") -> None:
        super().__init__(root)
        self.root = root  # the class whose keys did not match, named when at the top
        self.parts: list[str] = []

    def path(self, prefix: str) -> str:
        inner = "".join(reversed(self.parts))
        return prefix + inner if prefix or inner else self.root


def _at(mismatch: _Mismatch, part: str) -> _Mismatch:
    mismatch.parts.append(part)
    return mismatch


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
    return _object_encoder(kind)(value)


def _order(item: JsonValue) -> tuple[str, JsonValue]:
    # items of one set share a type; the type name keeps a mixed set from failing to sort
    return (type(item).__name__, item)


@cache
def _object_encoder(kind: type) -> Callable[[Any], JsonObject]:
    """The encoder of a dataclass, built once from its field types: plain fields are copied,
    the others go through the encoder of their type."""
    hints = typing.get_type_hints(kind)
    names = _field_names(kind)
    fields = [(name, _encoder(hints[name])) for name in names]
    if all(enc is None for _name, enc in fields):
        if len(names) == 1:
            only = names[0]
            return lambda value: {only: getattr(value, only)}
        get = attrgetter(*names)
        return lambda value: dict(zip(names, get(value), strict=True))

    def obj(value: Any) -> JsonObject:
        out: JsonObject = {}
        for name, enc in fields:
            item = getattr(value, name)
            out[name] = item if enc is None else enc(item)
        return out

    return obj


def _encode_any_object(value: object) -> JsonValue:
    kind: type = type(value)
    return _object_encoder(kind)(value)


@cache
def _encoder(kind: object) -> _Encoder | None:
    """How a field of type ``kind`` is encoded; None: it is plain JSON already."""
    origin = typing.get_origin(kind)
    if kind in _PLAIN:
        return None
    if origin in (typing.Union, types.UnionType):
        options = [o for o in typing.get_args(kind) if o is not type(None)]
        inners = [_encoder(o) for o in options]
        if all(inner is None for inner in inners):
            return None
        if len(inners) != 1:
            return encode
        inner = inners[0]
        assert inner is not None
        return lambda value: None if value is None else inner(value)
    if origin is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            item = _encoder(args[0])
            if item is None:
                return list
            return lambda value: [item(x) for x in value]
        items = [_encoder(arg) for arg in args]
        return lambda value: [x if e is None else e(x) for e, x in zip(items, value, strict=True)]
    if origin is frozenset:
        member = _encoder(typing.get_args(kind)[0])
        if member is None:
            return lambda value: sorted(value, key=_order)
        return lambda value: sorted((member(x) for x in value), key=_order)
    if origin is dict:
        entry = _encoder(typing.get_args(kind)[1])
        if entry is None:
            return lambda value: {str(k): v for k, v in value.items()}
        return lambda value: {str(k): entry(v) for k, v in value.items()}
    if kind is Rng:
        return lambda value: [value.seed, value.counter]
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return lambda value: value.value
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _encode_any_object  # by the value's own class (a subclass encodes its fields)
    return encode  # a field typed loosely: by what it holds


@dataclass(frozen=True, slots=True)
class Codec:
    """Decoding with an engine's error key (``w6.combat.bad_state``, ...)."""

    error: str

    def decode(self, kind: type[T], data: object, path: str = "") -> T:
        """The value of type ``kind`` stored as ``data``. Raises BadInput on a mismatch."""
        try:
            return typing.cast(T, _decoder(typing.cast(object, kind))(data))
        except _Mismatch as mismatch:
            raise BadInput(self.error, field=mismatch.path(path)) from None

    def decode_as(self, kind: object, data: object, path: str = "") -> object:
        """As :meth:`decode` for a type written as an expression (``tuple[Log, ...]``)."""
        try:
            return _decoder(kind)(data)
        except _Mismatch as mismatch:
            raise BadInput(self.error, field=mismatch.path(path)) from None


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


def _plain(kind: object) -> type | None:
    """The type itself for ``bool``, ``int`` and ``str``: checked inline, without a call."""
    return kind if kind in (bool, int, str) and isinstance(kind, type) else None


def _union_decoder(kind: object) -> _Decoder:
    options = typing.get_args(kind)
    nullable = type(None) in options
    inner = [_decoder(option) for option in options if option is not type(None)]
    if len(inner) != 1:
        raise TypeError(f"no decoder for {kind!r}: one type or None")
    one = inner[0]

    def union(data: object) -> object:
        return None if data is None and nullable else one(data)

    return union


def _plain_decoder(kind: type) -> _Decoder:
    def plain(data: object) -> object:
        if type(data) is not kind:  # bool is no int here
            raise _Mismatch()
        return data

    return plain


def _decode_float(data: object) -> object:
    if type(data) is float:
        return data
    if type(data) is int:  # JSON writes 2.0 as 2.0, but hand-written data may say 2
        return float(data)
    raise _Mismatch()


def _enum_decoder(kind: type[enum.Enum]) -> _Decoder:
    by_value = {member.value: member for member in kind}

    def member(data: object) -> object:
        if type(data) is not str or data not in by_value:
            raise _Mismatch()
        return by_value[data]

    return member


def _decode_rng(data: object) -> object:
    if type(data) is not list or len(data) != 2 or not all(type(x) is int for x in data):
        raise _Mismatch()
    return Rng(data[0], data[1])


def _items(item: _Decoder, plain: type | None, data: object) -> list[object]:
    if type(data) is not list:
        raise _Mismatch()
    if plain is not None:
        for i, value in enumerate(data):
            if type(value) is not plain:
                raise _at(_Mismatch(), f"[{i}]")
        return data
    out = []
    for i, value in enumerate(data):
        try:
            out.append(item(value))
        except _Mismatch as mismatch:
            raise _at(mismatch, f"[{i}]") from None
    return out


def _tuple_decoder(kind: object) -> _Decoder:
    args = typing.get_args(kind)
    if len(args) == 2 and args[1] is Ellipsis:
        item, plain = _decoder(args[0]), _plain(args[0])

        def many(data: object) -> object:
            return tuple(_items(item, plain, data))

        return many
    items = [_decoder(arg) for arg in args]

    def fixed(data: object) -> object:
        if type(data) is not list or len(data) != len(items):
            raise _Mismatch()
        out = []
        for i, (dec, value) in enumerate(zip(items, data, strict=True)):
            try:
                out.append(dec(value))
            except _Mismatch as mismatch:
                raise _at(mismatch, f"[{i}]") from None
        return tuple(out)

    return fixed


def _set_decoder(kind: object) -> _Decoder:
    arg = typing.get_args(kind)[0]
    item, plain = _decoder(arg), _plain(arg)

    def members(data: object) -> object:
        return frozenset(_items(item, plain, data))

    return members


def _dict_decoder(kind: object) -> _Decoder:
    key_type, value_type = typing.get_args(kind)
    if key_type is not str:
        raise TypeError(f"no decoder for {kind!r}: keys must be str")
    item = _decoder(value_type)

    def mapping(data: object) -> object:
        if type(data) is not dict:
            raise _Mismatch()
        out = {}
        for key, value in data.items():
            try:
                out[str(key)] = item(value)
            except _Mismatch as mismatch:
                raise _at(mismatch, f".{key}") from None
        return out

    return mapping


def _class_decoder(kind: type) -> _Decoder:
    names = _field_names(kind)
    wanted = frozenset(names)
    hints = typing.get_type_hints(kind)
    fields = [(name, _plain(hints[name]), _decoder(hints[name])) for name in names]
    # a field added later with a default may be missing from data stored before it existed
    optional = {
        f.name
        for f in dataclasses.fields(kind)
        if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
    }
    required = wanted - optional
    checks = [(name, plain) for name, plain, _dec in fields if plain is not None]
    positional = all(f.init and not f.kw_only for f in dataclasses.fields(kind))
    if len(checks) == len(fields) and positional:  # every field plain (a figure)
        every = tuple(name for name, _plain in checks)
        expected = tuple(plain for _name, plain in checks)

        def flat(data: object) -> object:
            if type(data) is not dict:
                raise _Mismatch()
            if len(data) == len(every):  # the usual case: checked in one pass, built in order
                values = tuple(map(data.get, every))
                if tuple(map(type, values)) == expected:
                    return kind(*values)
            if not required <= data.keys() <= wanted:
                raise _Mismatch(kind.__name__)
            for name, plain in checks:
                if name in data and type(data[name]) is not plain:
                    raise _at(_Mismatch(), f".{name}")
            return kind(**data)

        return flat

    def instance(data: object) -> object:
        if type(data) is not dict:
            raise _Mismatch()
        keys = data.keys()
        if not required <= keys <= wanted:
            raise _Mismatch(kind.__name__)
        values: dict[str, object] = {}
        for name, plain, dec in fields:
            if name not in data:
                continue
            value = data[name]
            if plain is not None:
                if type(value) is not plain:
                    raise _at(_Mismatch(), f".{name}")
                values[name] = value
                continue
            try:
                values[name] = dec(value)
            except _Mismatch as mismatch:
                raise _at(mismatch, f".{name}") from None
        return kind(**values)

    return instance
