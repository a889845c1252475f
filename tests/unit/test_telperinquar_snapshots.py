"""Games stored before Telperinquár moved onto the core value model (schema 1: the state as
one JSON object, ``{"v": 1, ...}``) keep loading, deciding and playing as they did.

``tests/golden/telperinquar/snapshots_v1.json`` was written by the engine as it was before
the port: random games of the bots (duel, 2 vs 2, SVO, draft decks, a double class, a group's
own card file, turn and round limits), a snapshot whenever something new showed (hidden
cards, wounds, carried equipment, charges, the stack of declarations and reactions, effects
over time, modifiers, retired ids, the end). Each entry holds the stored state and what that
engine said about it: the open decisions, a digest of every seat's legal actions and views,
the outcome, and the next step taken (its events and the views after it).

Legal actions and views depend on the card data as well as on the state: they are compared
while the card files are the ones the golden file was written with (``cards_sha256``); the
rest (loading, decisions, the outcome, the stored round trip) always.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from engines.core.content import data_dir
from engines.core.errors import BadInput
from engines.telperinquar.engine import ENGINE

_GOLDEN = Path(__file__).parents[1] / "golden" / "telperinquar" / "snapshots_v1.json"
_FILE: dict[str, Any] = json.loads(_GOLDEN.read_text(encoding="utf-8"))
_SNAPSHOTS: list[dict[str, Any]] = _FILE["snapshots"]


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _cards_unchanged() -> bool:
    root = data_dir("telperinquar")
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".toml", ".txt"))
    text = "".join(p.read_text(encoding="utf-8") for p in files)
    return _digest(text) == _FILE["cards_sha256"]


def _view(state: Any, seat: int | None) -> str:
    return _digest(json.dumps(ENGINE.view_for(state, seat), sort_keys=True, ensure_ascii=False))


def test_the_golden_file_covers_the_old_format() -> None:
    assert len(_SNAPSHOTS) >= 40
    states = [s["state"] for s in _SNAPSHOTS]
    assert all(s["v"] == 1 and "schema" not in s for s in states)
    infos = [info for s in states for info in s["cards"].values()]
    for key in ("hidden", "wounded", "dmg", "bearer", "charges", "inaktion", "attacked"):
        assert any(key in info for info in infos), key
    kinds = {e["kind"] for s in states for e in s["stack"]}
    assert {"use", "dual", "react", "lay"} <= kinds
    assert any(s["ask"] is not None for s in states)
    assert any(p["ot"] for s in states for p in s["players"])
    assert any(p["mods"] for s in states for p in s["players"])
    assert any(s.get("retired") for s in states) and any(s.get("extra") for s in states)
    assert any(s.get("limit_hit") for s in states) and any(s["over"] for s in states)
    assert {s["phase"] for s in states} == {"entry", "main", "position"}
    assert {s["mode"] for s in states} == {"duel", "2v2"}


@pytest.mark.parametrize("number", range(len(_SNAPSHOTS)))
def test_an_old_snapshot_loads_decides_and_plays_as_before(number: int) -> None:
    golden = _SNAPSHOTS[number]
    state = ENGINE.state_from_json(golden["state"])
    decisions = [[d.seat, d.id, str(d.kind), d.prompt] for d in ENGINE.decisions(state)]
    assert decisions == golden["decisions"]
    outcome = ENGINE.outcome(state)
    assert (None if outcome is None else [sorted(outcome.winners), outcome.reason]) == golden[
        "outcome"
    ]
    # what it is stored as now reads back exactly
    again = ENGINE.state_from_json(json.loads(json.dumps(ENGINE.state_to_json(state))))
    assert again == state
    if not _cards_unchanged():
        return  # the card data changed since: the legal steps and views may differ by design
    for seat, (count, digest) in golden["legal_sha256"].items():
        texts = sorted(ENGINE.action_text(a) for a in ENGINE.legal_actions(state, int(seat)))
        assert [len(texts), _digest("\n".join(texts))] == [count, digest], seat
    for seat, digest in golden["view_sha256"].items():
        assert _view(state, None if seat == "None" else int(seat)) == digest, seat
    if "next" in golden:
        step = golden["next"]
        new, events = ENGINE.apply(state, ENGINE.parse_action(step["action"]), step["seat"])
        told = [
            [e.type, e.data, None if e.visible_to is None else sorted(e.visible_to)] for e in events
        ]
        assert json.loads(json.dumps(told)) == step["events"]
        assert _view(new, None) == step["view_sha256"]
        assert _view(new, step["seat"]) == step["mover_view_sha256"]


def test_a_state_is_stored_in_schema_2_with_only_what_a_card_carries() -> None:
    state = ENGINE.state_from_json(_SNAPSHOTS[-1]["state"])
    stored = ENGINE.state_to_json(state)
    assert stored["schema"] == 2 and "v" not in stored
    assert stored["phase"] == str(state.phase) and stored["rng"] == [
        state.rng.seed,
        state.rng.counter,
    ]
    plain = next(info for info in stored["cards"].values() if len(info) == 2)
    assert set(plain) == {"name", "owner"}  # a card with nothing on it stores no defaults


@pytest.mark.parametrize("version", [0, 3, None])
def test_a_state_of_an_unknown_schema_version_is_refused(version: object) -> None:
    stored = ENGINE.state_to_json(ENGINE.state_from_json(_SNAPSHOTS[0]["state"]))
    with pytest.raises(BadInput) as raised:
        ENGINE.state_from_json({**stored, "schema": version})
    assert raised.value.key == "tq.error.bad_state"


@pytest.mark.parametrize("version", [1, 2])
def test_a_damaged_state_names_the_field(version: int) -> None:
    stored = dict(_SNAPSHOTS[0]["state"])
    if version == 2:
        stored = ENGINE.state_to_json(ENGINE.state_from_json(stored))
    stored["players"] = [stored["players"][0], {**stored["players"][1], "life": "viel"}]
    with pytest.raises(BadInput) as raised:
        ENGINE.state_from_json(stored)
    assert raised.value.key == "tq.error.damaged_state"
    assert raised.value.params == {"field": ".players[1].life"}


def test_a_damaged_card_names_its_field() -> None:
    stored = ENGINE.state_to_json(ENGINE.state_from_json(_SNAPSHOTS[5]["state"]))
    cid = next(iter(stored["cards"]))
    stored["cards"] = {**stored["cards"], cid: {**stored["cards"][cid], "dmg": "viel"}}
    with pytest.raises(BadInput) as raised:
        ENGINE.state_from_json(stored)
    assert raised.value.params == {"field": f".cards.{cid}.dmg"}
