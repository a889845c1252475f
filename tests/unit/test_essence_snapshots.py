"""Games stored before Essence moved onto the core codec (schema 1: the position in notation
and the last step's squares) keep loading and playing as they did.

``tests/golden/essence/snapshots_v1.json`` was written by the engine as it was before the
move: games of every board size and variant played by the easy and normal AI, a snapshot
every ninth step (every phase, a finished game). Each entry holds the stored state and what
that engine said about it: the open decision, a digest of each seat's legal actions and of the
view, the outcome, and for most the next step taken (its events and the position after it).
Today's engine must read the old state and say the same.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from engines.core.errors import BadInput
from engines.essence.engine import ENGINE

_GOLDEN = Path(__file__).parents[1] / "golden" / "essence" / "snapshots_v1.json"
_SNAPSHOTS: list[dict[str, Any]] = json.loads(_GOLDEN.read_text(encoding="utf-8"))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_the_golden_file_covers_the_old_format() -> None:
    assert len(_SNAPSHOTS) >= 50
    assert all(s["state"]["schema"] == 1 for s in _SNAPSHOTS)
    phases = {s["state"]["position"].split()[2] for s in _SNAPSHOTS}
    assert phases == {"g", "a1", "a2", "end"}
    assert any(s["state"]["last"] for s in _SNAPSHOTS)
    assert any("beschwoerung" in s["state"]["position"] for s in _SNAPSHOTS)


@pytest.mark.parametrize("number", range(len(_SNAPSHOTS)))
def test_an_old_snapshot_loads_decides_and_plays_as_before(number: int) -> None:
    golden = _SNAPSHOTS[number]
    state = ENGINE.state_from_json(golden["state"])
    decisions = [[d.seat, d.id, str(d.kind), d.prompt] for d in ENGINE.decisions(state)]
    assert decisions == golden["decisions"]
    for seat in (0, 1):
        texts = sorted(ENGINE.action_text(a) for a in ENGINE.legal_actions(state, seat))
        assert [len(texts), _digest("\n".join(texts))] == golden["legal_sha256"][str(seat)]
    view = json.dumps(ENGINE.view_for(state, None), sort_keys=True, ensure_ascii=False)
    assert _digest(view) == golden["view_sha256"]
    outcome = ENGINE.outcome(state)
    assert (None if outcome is None else [sorted(outcome.winners), outcome.reason]) == golden[
        "outcome"
    ]
    if "next" in golden:
        step = golden["next"]
        new, events = ENGINE.apply(state, ENGINE.parse_action(step["action"]), step["seat"])
        assert [[e.type, e.data] for e in events] == step["events"]
        assert ENGINE.position_text(new) == step["position"]
    # what it is stored as now reads back exactly
    again = ENGINE.state_from_json(json.loads(json.dumps(ENGINE.state_to_json(state))))
    assert again == state


def test_a_game_is_stored_through_the_core_codec_in_schema_2() -> None:
    state = ENGINE.state_from_json(_SNAPSHOTS[-1]["state"])
    stored = ENGINE.state_to_json(state)
    assert stored["schema"] == 2
    assert stored["cells"] == list(state.cells) and stored["phase"] == str(state.phase)
    assert "position" not in stored


@pytest.mark.parametrize("version", [0, 3, None, "1"])
def test_a_state_of_an_unknown_schema_version_is_refused(version: object) -> None:
    stored = ENGINE.state_to_json(ENGINE.state_from_json(_SNAPSHOTS[0]["state"]))
    with pytest.raises(BadInput) as raised:
        ENGINE.state_from_json({**stored, "schema": version})
    assert raised.value.key == "essence.error.bad_schema"


def test_a_damaged_state_names_the_field_and_an_old_one_the_position() -> None:
    stored = ENGINE.state_to_json(ENGINE.state_from_json(_SNAPSHOTS[0]["state"]))
    with pytest.raises(BadInput) as raised:
        ENGINE.state_from_json({**stored, "variants": ["wirbel"]})
    assert (raised.value.key, raised.value.params) == ("essence.error.bad_state",
                                                       {"field": ".variants[0]"})  # fmt: skip
    old = {**_SNAPSHOTS[0]["state"], "last": ["z9"]}
    with pytest.raises(BadInput) as raised:
        ENGINE.state_from_json(old)
    assert raised.value.key == "essence.error.bad_position"
