"""What the first play-test of ``/armageddon`` found (issue #14), each pinned: an alliance that
would leave one side is refused, an overcrowding is named by its field, the game master may
overrule while a placement error is being resolved, the generic end reasons are worded."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import pytest

from bot.i18n import t
from engines.armageddon.engine import ENGINE
from engines.core.contract import Outcome
from engines.core.errors import IllegalAction
from tests.unit.test_armageddon_rules import game, legal, play, refused


def test_an_alliance_of_the_only_two_parties_is_neither_offered_nor_accepted() -> None:
    state = game("figur: 1 krieger a1\nfigur: 2 krieger c1\n", start=False)
    assert not any(a.startswith("ally") for a in legal(state, 0))
    refused(state, 0, "ally 1 2", "one_side_alliance")
    assert state.phase == "setup"


def test_with_three_parties_one_alliance_is_fine_but_not_the_one_that_joins_all() -> None:
    body = "figur: 1 krieger a1\nfigur: 2 krieger b1\nfigur: 3 krieger c1\n"
    state = game(body, parties=3, start=False)
    state = play(state, 0, "ally 1 2")
    assert "ally 1 2" in legal(state, 0)  # breaking it is always possible
    assert "ally 2 3" not in legal(state, 0)
    refused(state, 0, "ally 2 3", "one_side_alliance")
    state = play(state, 0, "start")
    assert state.phase == "move"


CROWD = "figur: 1 krieger a1\nfigur: 1 krieger a1\nfigur: 1 krieger a1\nfigur: 1 krieger a1\n"


def test_a_waiting_overcrowding_is_named_by_its_field_not_an_internal_id() -> None:
    state = game(CROWD + "figur: 1 krieger a1\nfigur: 2 krieger c1\n", start=False)
    assert state.crowds
    with pytest.raises(IllegalAction) as caught:
        play(state, 2, "end")
    assert caught.value.key == "armageddon.error.resolve_first"
    assert caught.value.params == {"field": "a1", "player": 1}
    for lang in ("de", "en"):
        text = t(caught.value.key, lang, **caught.value.params)
        assert "a1" in text and "f:" not in text


def test_the_game_master_may_overrule_while_a_placement_error_is_resolved() -> None:
    state = game(CROWD + "figur: 1 krieger a1\nfigur: 2 krieger c1\n", start=False)
    assert any(d.seat == 0 for d in ENGINE.decisions(state))
    assert "gm remove k1" in legal(state, 0)
    state = play(state, 0, "gm remove k1 -- zu viele")
    assert not state.crowds and state.phase == "setup"
    assert "start" in legal(state, 0)


@pytest.mark.parametrize("reason", ["draw_agreed", "resign", "forfeit"])
def test_every_generic_end_reason_is_worded_without_a_missing_key(
    reason: str, caplog: pytest.LogCaptureFixture
) -> None:
    from bot.narration.armageddon import SPEC

    state = game("figur: 1 krieger a1\nfigur: 2 krieger c1\n")
    outcome = Outcome(frozenset() if reason == "draw_agreed" else frozenset({1}), reason)
    for lang in ("de", "en"):
        ctx: Any = SimpleNamespace(
            match=SimpleNamespace(state=state), names=["Greta", "Alice", "Bob"], lang=lang
        )
        with caplog.at_level(logging.ERROR, logger="bot.i18n"):
            text = SPEC.outcome_text(outcome, ctx)
        assert t(f"play.reason.{reason}", lang) in text
    assert not caplog.records
