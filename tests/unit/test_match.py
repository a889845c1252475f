"""The match wrapper (resign, draw votes, forfeit, teams, eliminated seats) and the generic kit
on the test engines."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engines.core import BadInput, IllegalAction, Outcome
from engines.core import match as m
from engines.core.record import replay, walk
from tests.kit import KitCase, check_case
from tests.nim import NIM
from tests.party import PARTY


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
    # the offer is not dropped silently: the step says it is withdrawn, then what it did
    assert [(e.type, e.data) for e in events[:1]] == [("draw_withdrawn", {"player": 1})]
    assert events[1].type == "took"
    assert m.to_act(NIM, match) == frozenset({1})
    _, quiet = m.apply(NIM, match, "1", 1)  # no offer pending: no such event
    assert [e.type for e in quiet] == ["took"]


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


# ---------------------------------------------------------------- any number of seats


def test_a_draw_needs_the_yes_of_every_remaining_player() -> None:
    match = m.start(PARTY, {}, 1, 3)
    match, _ = m.apply(PARTY, match, "!draw-offer", 0)
    match, events = m.apply(PARTY, match, "!draw-accept", 2)
    assert [e.type for e in events] == ["draw_accepted"] and m.outcome(PARTY, match) is None
    with pytest.raises(IllegalAction):
        m.apply(PARTY, match, "!draw-accept", 2)  # one yes each
    declined, _ = m.apply(PARTY, match, "!draw-decline", 1)
    assert declined.draw_votes == () and m.outcome(PARTY, declined) is None
    agreed, _ = m.apply(PARTY, match, "!draw-accept", 1)
    outcome = m.outcome(PARTY, agreed)
    assert outcome is not None and outcome.is_draw and outcome.reason == "draw_agreed"
    # Once a seat is out, the remaining players decide alone.
    match = m.start(PARTY, {}, 1, 3)
    match, _ = m.apply(PARTY, match, "!resign", 1)
    match, _ = m.apply(PARTY, match, "!draw-offer", 2)
    with pytest.raises(IllegalAction):
        m.apply(PARTY, match, "!draw-accept", 1)  # Bob is out
    match, _ = m.apply(PARTY, match, "!draw-accept", 0)
    outcome = m.outcome(PARTY, match)
    assert outcome is not None and outcome.is_draw and outcome.eliminated == (1,)


def test_allies_play_on_and_win_together() -> None:
    match = m.start(PARTY, {"teams": [0, 1, 0, 1]}, 1, 4)
    match, _ = m.apply(PARTY, match, "!resign", 1)
    assert m.outcome(PARTY, match) is None  # Bob's ally plays on for their team
    assert 1 not in m.to_act(PARTY, match) and match.sides() == {0, 1}
    match, _ = m.apply(PARTY, match, "!forfeit 3", 3, referee=True)
    outcome = m.outcome(PARTY, match)
    assert outcome is not None and outcome.winners == {0, 2} and outcome.reason == "forfeit"
    assert outcome.ranking == ({0, 2}, {3}, {1}) and outcome.eliminated == (1, 3)
    with pytest.raises(BadInput):
        m.start(PARTY, {"teams": [0, 1]}, 1, 4)


def test_a_match_written_before_draw_votes_still_loads() -> None:
    data = m.to_json(NIM, m.start(NIM, {}, 1, 2))
    del data["draw_votes"], data["teams"], data["eliminated"]
    data["draw_offer_by"] = 1
    data["ended"] = None
    match = m.from_json(NIM, data)
    assert match.draw_offer_by == 1 and match.draw_votes == (1,) and match.teams == ()
    data["ended"] = {"winners": [0], "reason": "resign"}
    outcome = m.outcome(NIM, m.from_json(NIM, data))
    assert outcome is not None and outcome.winners == {0} and outcome.ranking == ()


def test_the_kit_catches_a_secret_action_in_the_public_log(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(PARTY, "action_visible_to", lambda state, action, player: None)
    with pytest.raises(AssertionError, match="in the export"):
        check_case(KitCase("party-test", {}, players=3, seeds=5))


def test_the_kit_catches_a_decision_that_stays_open(monkeypatch: pytest.MonkeyPatch) -> None:
    decisions = PARTY.decisions
    monkeypatch.setattr(
        PARTY,
        "decisions",
        lambda state: tuple(replace(d, id="always") for d in decisions(state)),
    )
    with pytest.raises(AssertionError, match="closed by its answer"):
        check_case(KitCase("party-test", {}, players=2, seeds=1))


def test_the_kit_catches_a_winner_without_its_allies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        PARTY, "outcome", lambda state: Outcome(frozenset({0}), "x") if state.mover < 0 else None
    )
    with pytest.raises(AssertionError, match="allies"):
        check_case(KitCase("party-test", {"teams": [0, 0, 1]}, players=3, seeds=1, resign=False))


def test_an_event_type_is_a_strenum_member_that_travels_as_its_plain_name() -> None:
    import json

    from engines.core.codec import Codec, encode
    from engines.core.contract import Event, MatchEvent
    from engines.essence.engine import ENGINE as ESSENCE
    from engines.essence.events import EventType
    from engines.w6.state import LogEntry

    state = ESSENCE.initial_state({}, 0, 2)
    _state, events = ESSENCE.apply(state, ESSENCE.parse_action("move a1 c3"), 0)
    moved = events[0]
    assert moved.type is EventType.MOVED and isinstance(moved.type, str)
    assert moved.type == "moved" and {moved.type: 1}["moved"] == 1
    assert f"essence.event.{moved.type}" == "essence.event.moved"
    assert json.dumps({"type": moved.type}) == '{"type": "moved"}'
    # a log that keeps event types as str stores the member as its value and reads back equal
    entry = LogEntry(1, 0, "move a1 c3", (moved.type, "plain"))
    stored = json.loads(json.dumps(encode(entry)))
    assert stored["events"] == ["moved", "plain"]
    assert Codec("x").decode(LogEntry, stored) == entry
    # the match's own events are members too
    match = m.start(NIM, {}, 1, 2)
    _match, said = m.apply(NIM, match, "!resign", 0)
    assert said == [Event(MatchEvent.RESIGNED, {"player": 0})] and said[0].type == "resigned"


def test_a_walk_through_a_log_redacts_exactly_what_the_reader_may_not_read() -> None:
    """``record.walk``: the one replay the bot reads a log through (export, the web replay,
    Essence's positions): every step's match as a replay to it gives, an ``add`` (secret to
    its seat) readable only by that seat, everything readable without a reader."""
    match = m.start(PARTY, {}, 5, 3)
    log: list[tuple[int, str]] = []
    for _step in range(5):
        decision = m.decisions(PARTY, match)[0]
        actions = PARTY.legal_actions(match.state, decision.seat)
        action = next((a for a in actions if a.verb == "add"), actions[0])
        log.append((decision.seat, PARTY.action_text(action)))
        match, _events = m.apply(PARTY, match, log[-1][1], decision.seat)
    start, everything = walk(PARTY, {}, 5, 3, log)
    assert start == m.start(PARTY, {}, 5, 3)
    assert [step.action for step in everything] == [text for _seat, text in log]
    for index, step in enumerate(everything):
        assert step.match == replay(PARTY, {}, 5, 3, log[: index + 1])
    added = [(seat, text) for seat, text in log if text.startswith("add")]
    assert added, "the log has a secret step to hide"
    _start, seen = walk(PARTY, {}, 5, 3, log, reader=(added[0][0],))
    _start, spectator = walk(PARTY, {}, 5, 3, log, reader=())
    assert added[0][1] in [step.action for step in seen]
    assert [step.action for step in spectator] == [
        None if text.startswith("add") else text for _seat, text in log
    ]
