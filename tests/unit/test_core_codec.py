"""The one codec (engines/core/codec.py): exact round trips and schema versions."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum

import pytest

from engines.core import BadInput, Rng
from engines.core.codec import Codec, JsonObject, Schema, encode, encode_object

CODEC = Codec("test.bad_state")


class Colour(StrEnum):
    RED = "rot"
    BLUE = "blau"


@dataclass(frozen=True, slots=True)
class Piece:
    name: str
    colour: Colour
    level: int = 0


@dataclass(frozen=True, slots=True)
class Board:
    pieces: tuple[Piece, ...]
    edges: frozenset[tuple[str, str]]
    scores: dict[str, int]
    pair: tuple[int, str]
    held: Piece | None
    rng: Rng
    weight: float = 1.5
    note: str = ""


def _board() -> Board:
    return Board(
        pieces=(Piece("k1", Colour.RED, 2), Piece("k2", Colour.BLUE)),
        edges=frozenset({("b2", "a1"), ("a1", "a2")}),
        scores={"1": 3, "2": 0},
        pair=(4, "x"),
        held=None,
        rng=Rng(7, 3),
    )


def test_a_value_round_trips_exactly_through_json_text() -> None:
    board = _board()
    data = encode(board)
    assert CODEC.decode(Board, json.loads(json.dumps(data))) == board
    assert isinstance(data, dict)
    assert data["edges"] == [["a1", "a2"], ["b2", "a1"]]  # sorted: equal sets, equal text
    assert data["pieces"] == [
        {"name": "k1", "colour": "rot", "level": 2},
        {"name": "k2", "colour": "blau", "level": 0},
    ]
    assert type(CODEC.decode(Board, data).pieces[0].colour) is Colour


def test_a_field_with_a_default_may_be_missing() -> None:
    data = encode_object(_board())
    del data["note"], data["weight"]
    assert CODEC.decode(Board, data) == _board()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.pop("pair"), "Board"),  # a required field missing
        (lambda d: d.update(extra=1), "Board"),  # an unknown key
        (lambda d: d.update(pair=[4]), ".pair"),  # a fixed tuple of another length
        (lambda d: d.update(pieces=[{"name": "k1", "colour": "gruen"}]), ".pieces[0].colour"),
        (lambda d: d.update(scores={"1": True}), ".scores.1"),  # a bool is no int
        (lambda d: d.update(rng=[1]), ".rng"),
    ],
)
def test_data_of_another_shape_is_refused_with_the_codecs_key(change: object, field: str) -> None:
    data = encode_object(_board())
    change(data)  # type: ignore[operator]
    with pytest.raises(BadInput) as raised:
        CODEC.decode(Board, data)
    assert raised.value.key == "test.bad_state"
    assert raised.value.params == {"field": field}


def _v1_to_v2(data: JsonObject) -> JsonObject:
    # version 1 kept pieces as [name, colour] lists
    pieces = data["pieces"]
    assert isinstance(pieces, list)
    out: list[object] = []
    for piece in pieces:
        assert isinstance(piece, list)
        out.append({"name": piece[0], "colour": piece[1]})
    return {**data, "pieces": out}  # type: ignore[dict-item]


SCHEMA = Schema(Board, 2, CODEC, "test.bad_schema", {1: _v1_to_v2})


def test_a_schema_dumps_its_version_and_reads_older_ones_through_upgrades() -> None:
    board = _board()
    stored = SCHEMA.dump(board)
    assert stored["schema"] == 2
    assert SCHEMA.load(json.loads(json.dumps(stored))) == board
    old = {**stored, "schema": 1, "pieces": [["k1", "rot"], ["k2", "blau"]]}
    loaded = SCHEMA.load(old)
    assert loaded.pieces == (Piece("k1", Colour.RED), Piece("k2", Colour.BLUE))


@pytest.mark.parametrize("version", [0, 3, "2", None])
def test_an_unknown_schema_version_is_refused(version: object) -> None:
    stored = {**SCHEMA.dump(_board()), "schema": version}
    with pytest.raises(BadInput) as raised:
        SCHEMA.load(stored)
    assert raised.value.key == "test.bad_schema"


@dataclass(frozen=True, slots=True)
class Flat:
    name: str
    count: int
    done: bool = False


def test_a_value_of_plain_fields_reads_back_with_its_defaults() -> None:
    assert CODEC.decode(Flat, {"name": "x", "count": 1, "done": True}) == Flat("x", 1, True)
    assert CODEC.decode(Flat, {"name": "x", "count": 1}) == Flat("x", 1)
    assert CODEC.decode(tuple[Flat, ...], [encode(Flat("y", 2))]) == (Flat("y", 2),)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"name": "x", "count": True, "done": False}, ".count"),  # a bool is no int
        ({"name": "x", "count": 1, "done": 0}, ".done"),  # an int is no bool
        ({"name": "x", "count": 1, "other": False}, "Flat"),  # an unknown key
        ({"name": "x", "done": False}, "Flat"),  # a required key missing
        (["x", 1, False], ""),
    ],
)
def test_a_value_of_plain_fields_is_checked_field_by_field(data: object, field: str) -> None:
    with pytest.raises(BadInput) as raised:
        CODEC.decode(Flat, data, "")
    assert raised.value.params == {"field": field}


@dataclass(frozen=True, slots=True)
class Token:
    colour: Colour
    count: int
    owner: Colour | None = None
    tag: str = ""
    marks: tuple[Colour, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Named:
    first: int
    token: Token


def test_enum_fields_dump_as_plain_strings_and_read_back_as_members() -> None:
    token = Token(Colour.BLUE, 2, Colour.RED, marks=(Colour.RED,))
    data = encode_object(token)
    assert data == {"colour": "blau", "count": 2, "owner": "rot", "tag": "", "marks": ["rot"]}
    assert type(data["colour"]) is str and type(data["owner"]) is str
    back = CODEC.decode(Token, json.loads(json.dumps(data)))
    assert back == token and type(back.colour) is Colour and type(back.marks[0]) is Colour
    named = Named(first=1, token=token)
    assert CODEC.decode(Named, encode(named)) == named


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"colour": "gruen", "count": 1, "owner": None, "tag": "", "marks": []}, ".colour"),
        ({"colour": True, "count": 1, "owner": None, "tag": "", "marks": []}, ".colour"),
        ({"colour": ["rot"], "count": 1, "owner": None, "tag": "", "marks": []}, ".colour"),
        ({"colour": "rot", "count": 1, "owner": 3, "tag": "", "marks": []}, ".owner"),
        ({"colour": "rot", "count": 1, "owner": None, "tag": "", "marks": ["x"]}, ".marks[0]"),
        ({"colour": "rot", "count": 1, "owner": None, "tag": 0, "marks": []}, ".tag"),
        ({"colour": "rot", "count": 1, "owner": None, "tag": "", "other": []}, ""),
    ],
)
def test_a_damaged_enum_field_is_named_by_its_path(data: object, field: str) -> None:
    with pytest.raises(BadInput) as raised:
        CODEC.decode(Named, {"first": 1, "token": data})
    assert raised.value.params == {"field": ".token" + field}  # a stray key: the value
