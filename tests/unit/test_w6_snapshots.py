"""Combats stored before W6 moved onto the core ``Schema`` (the wrapper ``{"schema":
"w6.combat", "version": 2, "state": {...}}``) keep loading and playing as they did.

``tests/golden/w6/snapshots_v2.json`` was written by the engine as it was before the move:
random combats (random rosters, techniques and optional rules) with a snapshot whenever a new
kind of pending step or condition showed (every stage of an attack: Ansage, Abwehr,
Entscheidung, Rundumschlag, Nachschlagen; two weapons, ranged), an ended combat, a combat
carried over from schema 1 with a ``base`` and a step after it. Each entry holds the stored
state and what that engine said about it: the open decisions, a digest of every seat's legal
actions and of every view, the outcome, and for most the next step taken (its events and a
digest of the state after it). Today's engine must read the old state and say the same.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

import engines.all  # noqa: F401  (registers every engine)
from engines.core import BadInput, registry
from engines.core.codec import encode
from engines.core.contract import seat_count
from engines.w6 import can_undo, undo

ENGINE = registry()["w6combat"]
_GOLDEN = Path(__file__).parents[1] / "golden" / "w6" / "snapshots_v2.json"
_SNAPSHOTS: list[dict[str, Any]] = json.loads(_GOLDEN.read_text(encoding="utf-8"))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_the_golden_file_covers_the_old_format() -> None:
    assert len(_SNAPSHOTS) >= 15
    assert all(s["state"]["schema"] == "w6.combat" for s in _SNAPSHOTS)
    assert all(s["state"]["version"] == 2 for s in _SNAPSHOTS)
    bodies = [s["state"]["state"] for s in _SNAPSHOTS]
    stages = {b["pending"]["stage"] for b in bodies if b["pending"]}
    assert stages == {"ansage", "abwehr", "entscheidung", "rundum", "nachschlagen"}
    assert any(b["base"] for b in bodies)
    assert any(b["ended"] for b in bodies)


@pytest.mark.parametrize("number", range(len(_SNAPSHOTS)))
def test_an_old_snapshot_loads_decides_and_plays_as_before(number: int) -> None:
    golden = _SNAPSHOTS[number]
    state = ENGINE.state_from_json(golden["state"])
    decisions = [
        [d.seat, d.id, str(d.kind), d.prompt, json.loads(json.dumps(d.params, sort_keys=True))]
        for d in ENGINE.decisions(state)
    ]
    assert decisions == golden["decisions"]
    seats = seat_count(ENGINE, state, 1)
    for seat in range(seats):
        texts = sorted(ENGINE.action_text(a) for a in ENGINE.legal_actions(state, seat))
        assert [len(texts), _digest("\n".join(texts))] == golden["legal_sha256"][str(seat)]
    for viewer in [None, *range(seats)]:
        view = json.dumps(ENGINE.view_for(state, viewer), sort_keys=True, ensure_ascii=False)
        assert _digest(view) == golden["view_sha256"][str(viewer)], viewer
    outcome = ENGINE.outcome(state)
    said = None if outcome is None else [sorted(outcome.winners), outcome.reason]
    assert said == (golden["outcome"] and golden["outcome"][:2])
    if "next" in golden:
        step = golden["next"]
        new, events = ENGINE.apply(state, ENGINE.parse_action(step["action"]), step["seat"])
        assert [e.type for e in events] == step["events"]
        assert _digest(json.dumps(encode(new), sort_keys=True)) == step["state_sha256"]
    # what it is stored as now reads back exactly, and undo still reaches back
    again = ENGINE.state_from_json(json.loads(json.dumps(ENGINE.state_to_json(state))))
    assert again == state
    if can_undo(state):
        assert undo(state)[0].log == state.log[:-1]


def test_a_combat_is_stored_in_the_core_schema_with_its_fields_at_the_top() -> None:
    state = ENGINE.state_from_json(_SNAPSHOTS[-1]["state"])
    stored = ENGINE.state_to_json(state)
    assert stored["schema"] == 3
    assert stored["gm"] == state.gm and stored["phase"] == state.phase
    assert "state" not in stored and "version" not in stored


@pytest.mark.parametrize(
    "stored",
    [
        {"schema": 4},
        {"schema": 0},
        {"schema": "w6.combat", "version": 9, "state": {}},
        {"schema": "w6.kampf", "version": 2, "state": {}},
        {"schema": "w6.combat", "version": 2},
        [],
    ],
)
def test_a_state_of_another_schema_or_version_is_refused(stored: Any) -> None:
    with pytest.raises(BadInput) as raised:
        ENGINE.state_from_json(stored)
    assert raised.value.key == "w6.combat.bad_state"


def test_a_damaged_state_names_the_field() -> None:
    old = json.loads(json.dumps(_SNAPSHOTS[-1]["state"]))
    old["state"]["fighters"][0]["lp"] = "viel"
    with pytest.raises(BadInput) as raised:
        ENGINE.state_from_json(old)
    assert raised.value.params == {"field": ".fighters[0].lp"}
    new = ENGINE.state_to_json(ENGINE.state_from_json(_SNAPSHOTS[-1]["state"]))
    new["fighters"][0]["lp"] = "viel"
    with pytest.raises(BadInput) as raised:
        ENGINE.state_from_json(new)
    assert raised.value.params == {"field": ".fighters[0].lp"}
