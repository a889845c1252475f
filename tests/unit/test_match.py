"""The match wrapper (resign, draw offers, forfeit) and the generic kit on a tiny engine."""

from __future__ import annotations

import pytest

from engines.core import BadInput, IllegalAction
from engines.core import match as m
from tests.kit import KitCase, check_case
from tests.nim import NIM


def test_the_kit_passes_on_the_tiny_engine() -> None:
    check_case(KitCase("nim-test", {"heap": 9}, seeds=10))


def test_the_kit_catches_a_leaked_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(NIM, "view_for", lambda state, player: {"cards": list(state.secret)})
    with pytest.raises(AssertionError, match="secrets"):
        check_case(KitCase("nim-test", {"heap": 5}, seeds=1))


def test_engine_actions_pass_through_and_clear_a_draw_offer() -> None:
    match = m.start(NIM, {"heap": 5}, 1, 2)
    match, _ = m.apply(NIM, match, "!draw-offer", 1)
    assert match.draw_offer_by == 1
    match, events = m.apply(NIM, match, "2", 0)
    assert match.state.heap == 3 and match.draw_offer_by is None
    assert events[0].type == "took"
    assert m.to_act(NIM, match) == frozenset({1})


def test_resign_ends_the_match_for_the_other_player() -> None:
    match = m.start(NIM, {}, 1, 2)
    match, events = m.apply(NIM, match, "!resign", 0)
    assert [e.type for e in events] == ["resigned"]
    outcome = m.outcome(NIM, match)
    assert outcome is not None and outcome.winners == {1} and outcome.reason == "resign"
    assert m.to_act(NIM, match) == frozenset()
    with pytest.raises(IllegalAction):
        m.apply(NIM, match, "1", 1)


def test_draw_offer_accept_and_decline() -> None:
    match = m.start(NIM, {}, 1, 2)
    match, _ = m.apply(NIM, match, "!draw-offer", 0)
    with pytest.raises(IllegalAction):
        m.apply(NIM, match, "!draw-accept", 0)  # not your own offer
    with pytest.raises(IllegalAction):
        m.apply(NIM, match, "!draw-offer", 1)
    declined, _ = m.apply(NIM, match, "!draw-decline", 1)
    assert declined.draw_offer_by is None and m.outcome(NIM, declined) is None
    accepted, _ = m.apply(NIM, match, "!draw-accept", 1)
    outcome = m.outcome(NIM, accepted)
    assert outcome is not None and outcome.is_draw


def test_forfeit_and_bad_meta() -> None:
    match = m.start(NIM, {}, 1, 2)
    forfeited, _ = m.apply(NIM, match, "!forfeit 1", 1, referee=True)
    outcome = m.outcome(NIM, forfeited)
    assert outcome is not None and outcome.winners == {0}
    with pytest.raises(BadInput):
        m.apply(NIM, match, "!dance", 0)
    with pytest.raises(IllegalAction):
        m.apply(NIM, match, "1", 5)
    with pytest.raises(BadInput):
        m.start(NIM, {}, 1, 3)


def test_json_round_trip() -> None:
    match = m.start(NIM, {}, 3, 2)
    match, _ = m.apply(NIM, match, "!resign", 1)
    assert m.from_json(NIM, m.to_json(NIM, match)) == match


@pytest.mark.parametrize("text", ["!forfeit 1", "!forfeit 0", "!forfeit", " !forfeit 1"])
@pytest.mark.parametrize("player", [0, 1])
def test_a_player_can_never_issue_the_referees_forfeit(text: str, player: int) -> None:
    match = m.start(NIM, {}, 1, 2)
    with pytest.raises((IllegalAction, BadInput)):
        m.apply(NIM, match, text, player)


def test_the_referee_forfeits_only_the_seat_that_kept_the_game_waiting() -> None:
    match = m.start(NIM, {}, 1, 2)
    with pytest.raises(BadInput):
        m.apply(NIM, match, "!forfeit 1", 0, referee=True)
