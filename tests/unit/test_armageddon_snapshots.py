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
