"""Games stored before the value model (schema 1: figures as positional lists) keep loading.

``tests/golden/armageddon/snapshots_v1.json`` was written by the engine as it was before the
port (random games of the three shipped scenarios, a snapshot whenever a new feature showed:
riders, led animals, enchantments, charmed animals, open gates, sieges, crowds, the game
master's undo and fallen figures, the end). Each entry holds the stored state and what that
engine said about it: the open decisions, a digest of every seat's legal actions and of the
view. Today's engine must read the old state and say the same.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from engines.armageddon.engine import ENGINE
from engines.core.errors import BadInput

_GOLDEN = Path(__file__).parents[1] / "golden" / "armageddon" / "snapshots_v1.json"
_SNAPSHOTS: list[dict[str, Any]] = json.loads(_GOLDEN.read_text(encoding="utf-8"))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_the_golden_file_covers_the_old_format() -> None:
    assert len(_SNAPSHOTS) >= 10
    assert all(s["state"]["schema"] == 1 for s in _SNAPSHOTS)
    states = [s["state"] for s in _SNAPSHOTS]
    assert any(s["undo"] is not None for s in states)
    assert any(s["fallen"] for s in states)
    assert any(f[14] for s in states for f in s["figures"])  # an enchantment
    assert any(f[6] for s in states for f in s["figures"])  # a rider


@pytest.mark.parametrize("number", range(len(_SNAPSHOTS)))
def test_an_old_snapshot_loads_and_plays_as_before(number: int) -> None:
    golden = _SNAPSHOTS[number]
    state = ENGINE.state_from_json(golden["state"])
    decisions = [[d.seat, d.id, str(d.kind), d.prompt] for d in ENGINE.decisions(state)]
    assert decisions == golden["decisions"]
    for seat, (count, digest) in golden["legal_sha256"].items():
        texts = sorted(ENGINE.action_text(a) for a in ENGINE.legal_actions(state, int(seat)))
        assert (len(texts), _digest("\n".join(texts))) == (count, digest), seat
    view = json.dumps(ENGINE.view_for(state, None), sort_keys=True, ensure_ascii=False)
    assert _digest(view) == golden["view_sha256"]
    # and what it is stored as now reads back exactly
    again = ENGINE.state_from_json(json.loads(json.dumps(ENGINE.state_to_json(state))))
    assert again == state


def test_a_state_is_stored_with_named_figure_fields_in_schema_2() -> None:
    state = ENGINE.state_from_json(_SNAPSHOTS[-1]["state"])
    stored = ENGINE.state_to_json(state)
    assert stored["schema"] == 2
    first = stored["figures"][0]
    assert first["id"] == state.figures[0].id and first["kind"] == state.figures[0].kind
    assert stored["phase"] == str(state.phase)


@pytest.mark.parametrize("version", [0, 3, None])
def test_a_state_of_an_unknown_schema_version_is_refused(version: object) -> None:
    stored = ENGINE.state_to_json(ENGINE.state_from_json(_SNAPSHOTS[0]["state"]))
    with pytest.raises(BadInput) as raised:
        ENGINE.state_from_json({**stored, "schema": version})
    assert raised.value.key == "armageddon.error.bad_schema"


@pytest.mark.parametrize("version", [1, 2])
def test_a_damaged_state_names_the_field(version: int) -> None:
    stored = dict(_SNAPSHOTS[0]["state"])
    if version == 2:
        stored = ENGINE.state_to_json(ENGINE.state_from_json(stored))
    stored["figures"] = [*stored["figures"][:2], ["k9", "krieger"]]
    with pytest.raises(BadInput) as raised:
        ENGINE.state_from_json(stored)
    assert raised.value.key == "armageddon.error.bad_state"
    assert raised.value.params == {"field": ".figures[2]"}
