"""Duels stored before Felsenfeuer moved onto the core codec (schema 1: dice, modifiers and the
open decision as positional lists, the settings without the options added later) keep loading,
deciding and playing as they did.

``tests/golden/felsenfeuer/snapshots_v1.json`` was written by the engine as it was before the
move: random duels of every mode (two to six seats, adept and magister, the Würfeldraft,
Weltentor, the Teil 3 scenarios, teams, the cap), played by the random and normal bots, a
snapshot whenever a new feature showed (every phase and zone, every kind of stack entry, the
open questions of the spells, bindings, modifiers, temples and cauldrons, the second hand,
seats out, the end), and one duel stored before the later settings existed. Each entry holds
the stored state and what that engine said about it: the open decisions, a digest of each
seat's legal actions and of every seat's view, the outcome and the next step taken (its
events, the view and the decisions after it). Today's engine must read the old state and say
the same, and know each situation by the hash it had (the Wiederholungsregel remembers the
situations of a duel by that hash).

Three entries were re-recorded when the Kompendium changed (issue 22's balance, after the port
had passed all of them): 27 sits inside Strom der Zeit and 32 inside Schandmaske, whose
sentences changed, so their views and next steps are today's; 31's view after its next step
shows a changed spell (Djinn's choice of the 2-pip spells; re-recorded again when Puls gained
its one-colour sentence and when Schandmaske's second attack gained its one-colour condition).
Their states, decisions and legal actions are still the old engine's.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from engines.core.errors import BadInput
from engines.felsenfeuer import ENGINE
from engines.felsenfeuer.engine import situation

_GOLDEN = Path(__file__).parents[1] / "golden" / "felsenfeuer" / "snapshots_v1.json"
_SNAPSHOTS: list[dict[str, Any]] = json.loads(_GOLDEN.read_text(encoding="utf-8"))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _view(state: Any, seat: int | None) -> str:
    return _digest(json.dumps(ENGINE.view_for(state, seat), sort_keys=True, ensure_ascii=False))


def _plain(value: Any) -> bool:
    """Plain JSON data: no subclass of str (an enum member) anywhere."""
    if isinstance(value, dict):
        return all(type(k) is str and _plain(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return all(_plain(v) for v in value)
    return type(value) in (str, int, float, bool, type(None))


def test_the_golden_file_covers_the_old_format() -> None:
    assert len(_SNAPSHOTS) >= 40
    states = [s["state"] for s in _SNAPSHOTS]
    assert all(s["schema"] == 1 for s in states)
    assert all(isinstance(d, list) for s in states for d in s["dice"])  # positional dice
    assert {s["phase"] for s in states} >= {"auswahl", "draft", "essence", "roll", "action",
                                            "spell", "end"}  # fmt: skip
    assert any(isinstance(s["pending"], list) for s in states)
    assert any(e["mods"] for s in states for e in s["stack"])
    assert any(e["bind"] for s in states for e in s["stack"])
    assert any("cap" not in s["settings"] for s in states)  # stored before the cap existed


@pytest.mark.parametrize("number", range(len(_SNAPSHOTS)))
def test_an_old_snapshot_loads_decides_and_plays_as_before(number: int) -> None:
    golden = _SNAPSHOTS[number]
    state = ENGINE.state_from_json(golden["state"])
    decisions = [
        [d.seat, d.id, str(d.kind), d.prompt, {k: str(v) for k, v in d.params.items()}]
        for d in ENGINE.decisions(state)
    ]
    assert decisions == golden["decisions"]
    for seat, (count, digest) in golden["legal_sha256"].items():
        texts = sorted(ENGINE.action_text(a) for a in ENGINE.legal_actions(state, int(seat)))
        assert (len(texts), _digest("\n".join(texts))) == (count, digest), seat
    for seat, digest in golden["view_sha256"].items():
        assert _view(state, None if int(seat) < 0 else int(seat)) == digest, seat
    assert _plain(ENGINE.view_for(state, None))  # a view travels to the render processes
    outcome = ENGINE.outcome(state)
    assert (None if outcome is None else [sorted(outcome.winners), outcome.reason]) == golden[
        "outcome"
    ]
    if "next" in golden:
        step = golden["next"]
        new, events = ENGINE.apply(state, ENGINE.parse_action(step["action"]), step["seat"])
        assert json.loads(json.dumps([[e.type, e.data] for e in events])) == step["events"]
        assert _view(new, None) == step["view_sha256"]
        after = [[d.seat, d.id, str(d.kind), d.prompt] for d in ENGINE.decisions(new)]
        assert after == step["decisions"]
    # the Wiederholungsregel knows the situation by the hash the old engine gave it
    assert situation(state) == golden["situation"]
    # and what it is stored as now reads back exactly
    again = ENGINE.state_from_json(json.loads(json.dumps(ENGINE.state_to_json(state))))
    assert again == state


def test_an_old_duel_without_the_cap_setting_plays_with_the_cap() -> None:
    """A duel saved before ``cap`` was a setting was played with the cap (each seat its share
    of a colour); one saved before Weltentor, the scenarios and the Erdbeben without them."""
    old = next(s["state"] for s in _SNAPSHOTS if "cap" not in s["state"]["settings"])
    settings = ENGINE.state_from_json(old).settings
    assert settings.cap is True
    assert (settings.weltentor, settings.roll, settings.quake) == (False, "", False)


@pytest.mark.parametrize("version", [0, 3, None, "1"])
def test_a_state_of_an_unknown_schema_version_is_refused(version: object) -> None:
    stored = ENGINE.state_to_json(ENGINE.state_from_json(_SNAPSHOTS[0]["state"]))
    with pytest.raises(BadInput) as raised:
        ENGINE.state_from_json({**stored, "schema": version})
    assert raised.value.key == "felsenfeuer.error.bad_schema"


def test_a_damaged_state_is_refused_with_its_reason() -> None:
    stored = dict(_SNAPSHOTS[-1]["state"])
    stored["dice"] = [*stored["dice"][:2], ["x"]]
    with pytest.raises(BadInput) as raised:
        ENGINE.state_from_json(stored)
    assert raised.value.key == "felsenfeuer.error.bad_state"
