"""Booster drafts stored before the draft moved onto the core value model (schema 1: one JSON
object, ``{"v": 1, ...}``) keep loading, deciding and picking as they did.

``tests/golden/telperinquar/draft_snapshots_v1.json`` was written by the draft engine as it was
before the port: drafts of 2, 3, 4 and 8 seats (short boosters, one or two rounds, a group's own
cards, a seat that left), a snapshot every fifth step and at the end, with what that engine said:
the open decisions, digests of every seat's legal picks and views, the outcome and the next pick
(its events and the picker's view after it). Picks and views depend on the card data too: they
are compared while the card files are the ones the golden file was written with.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from engines.core.content import data_dir
from engines.core.errors import BadInput
from engines.telperinquar.draft import DRAFT_ENGINE as E

_GOLDEN = Path(__file__).parents[1] / "golden" / "telperinquar" / "draft_snapshots_v1.json"
_FILE: dict[str, Any] = json.loads(_GOLDEN.read_text(encoding="utf-8"))
_SNAPSHOTS: list[dict[str, Any]] = _FILE["snapshots"]


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _cards_unchanged() -> bool:
    root = data_dir("telperinquar")
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".toml", ".txt"))
    return _digest("".join(p.read_text(encoding="utf-8") for p in files)) == _FILE["cards_sha256"]


def _view(state: Any, seat: int | None) -> str:
    return _digest(json.dumps(E.view_for(state, seat), sort_keys=True, ensure_ascii=False))


def test_the_golden_file_covers_the_old_format() -> None:
    states = [s["state"] for s in _SNAPSHOTS]
    assert len(states) >= 30 and all(s["v"] == 1 for s in states)
    assert {s["seats"] for s in states} == {2, 3, 4, 8}
    assert any(any(s["out"]) for s in states) and any(s["over"] for s in states)
    assert any(s.get("extra") for s in states) and any(any(s["done"]) for s in states)


@pytest.mark.parametrize("number", range(len(_SNAPSHOTS)))
def test_an_old_draft_loads_decides_and_picks_as_before(number: int) -> None:
    golden = _SNAPSHOTS[number]
    state = E.state_from_json(golden["state"])
    decisions = [[d.seat, d.id, str(d.kind), d.prompt, dict(d.params)] for d in E.decisions(state)]
    assert decisions == golden["decisions"]
    outcome = E.outcome(state)
    assert (
        None
        if outcome is None
        else [sorted(outcome.winners), outcome.reason, list(outcome.eliminated)]
    ) == golden["outcome"]
    assert E.state_from_json(json.loads(json.dumps(E.state_to_json(state)))) == state
    if not _cards_unchanged():
        return  # the card data changed since: the boosters' cards may differ by design
    for seat, digest in golden["legal_sha256"].items():
        texts = sorted(E.action_text(a) for a in E.legal_actions(state, int(seat)))
        assert _digest("\n".join(texts)) == digest, seat
    for seat, digest in golden["view_sha256"].items():
        assert _view(state, None if seat == "None" else int(seat)) == digest, seat
    if "next" in golden:
        step = golden["next"]
        new, events = E.apply(state, E.parse_action(step["action"]), step["seat"])
        told = [
            [e.type, dict(e.data), None if e.visible_to is None else sorted(e.visible_to)]
            for e in events
        ]
        assert json.loads(json.dumps(told)) == step["events"]
        assert _view(new, step["seat"]) == step["view_sha256"]


def test_an_unknown_draft_version_is_refused() -> None:
    stored = dict(_SNAPSHOTS[0]["state"])
    with pytest.raises(BadInput) as raised:
        E.state_from_json({**stored, "v": 7})
    assert raised.value.key == "tq.error.bad_state"
