"""Uploaded JSON read safely: what Python's json crashes on or lets through is refused with a
typed BadInput (``json.*``), and names cannot carry control or separator characters."""

from __future__ import annotations

import json

import pytest

from engines.core import BadInput
from engines.core.jsontext import has_breaking_chars, load_json
from engines.w6.sheet_io import sheet_from_json, sheet_from_text
from tests.unit.test_w6_sheet import thoin_data

LIMIT = 2_000_000


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        ("[" * 100_000, "json.too_deep"),
        ('{"a":' * 50 + "1" + "}" * 50, "json.too_deep"),
        ('{"lp": NaN}', "json.not_finite"),
        ('{"lp": Infinity}', "json.not_finite"),
        ('{"lp": -Infinity}', "json.not_finite"),
        ('{"lp": 1e999}', "json.not_finite"),
        ('{"id": 9223372036854775808}', "json.number_too_big"),
        ('{"id": -9223372036854775808}', "json.number_too_big"),
        ('{"name": "\\ud800"}', "json.bad_text"),
        ('{"\\udfff": 1}', "json.bad_text"),
        ("{kaputt", "json.not_json"),
    ],
)
def test_load_json_refuses_what_poisons_a_store(raw: str, key: str) -> None:
    with pytest.raises(BadInput) as error:
        load_json(raw.encode(), max_bytes=LIMIT)
    assert error.value.key == key


def test_load_json_limits_size_and_keeps_good_data() -> None:
    with pytest.raises(BadInput) as error:
        load_json(b"[" + b"1," * 600 + b"1]", max_bytes=1000)
    assert (error.value.key, error.value.params["max"]) == ("json.too_big", 1)
    with pytest.raises(BadInput) as error:
        load_json(b"\xff\xfe", max_bytes=LIMIT)
    assert error.value.key == "json.not_json"
    data = {"name": "Thoin ⚒", "id": 2**63 - 1, "at": 1.5e9, "deep": [[[[1]]]]}
    assert load_json(json.dumps(data), max_bytes=LIMIT) == data


def test_a_sheet_file_with_deep_nesting_or_nan_is_refused() -> None:
    with pytest.raises(BadInput) as error:
        sheet_from_text("[" * 100_000)
    assert error.value.key == "json.too_deep"
    with pytest.raises(BadInput) as error:
        sheet_from_text(json.dumps(thoin_data()).replace('"lp": 30', '"lp": NaN'))
    assert error.value.key == "json.not_finite"


@pytest.mark.parametrize("name", ["Tho\nin", "Thoin\u2028", "Th\x00oin", "Thoin\x1b[31m", "\x85x"])
def test_names_with_control_or_separator_characters_are_refused(name: str) -> None:
    data = thoin_data()
    data["name"] = name
    with pytest.raises(BadInput) as error:
        sheet_from_json(data)
    assert (error.value.key, error.value.params["field"]) == ("w6.sheet.bad_chars", "name")
    data = thoin_data()
    data["fertigkeiten"] = {name: 2}
    with pytest.raises(BadInput) as error:
        sheet_from_json(data)
    assert error.value.key == "w6.sheet.bad_chars"


def test_notes_keep_line_breaks_but_not_other_control_characters() -> None:
    data = thoin_data()
    data["notizen"] = "Erste Zeile\r\nZweite\tZeile"
    assert sheet_from_json(data).notizen == "Erste Zeile\r\nZweite\tZeile"
    data["notizen"] = "Glocke\x07"
    with pytest.raises(BadInput) as error:
        sheet_from_json(data)
    assert error.value.key == "w6.sheet.bad_chars"
    assert not has_breaking_chars("Zwerg 🧔\u200d♂️ Ä")
