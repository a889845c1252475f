"""The game service on the test engines (Nim for two seats, the party engine for N seats with
teams, reactions and a hidden hand): invitations, moves, stale clicks per decision, bot seats,
resigning, export, idle games."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from bot.games import (
    ACTIVE,
    DECLINED,
    FINISHED,
    FORFEIT,
    INVITED,
    REMIND,
    TIMED_OUT,
    GameService,
    bot_seats,
    engine_of,
    load,
    lobby_of,
    reaction_limit_s,
)
from bot.store import GameRecord, SqliteStore, StaleRevision
from engines.core import BadInput, IllegalAction
from engines.core import match as m
from tests.nim import NIM
from tests.party import PARTY, PartyState

ALICE, BOB, CAROL = 1, 2, 3


@pytest.fixture
async def service(tmp_path: Path):
    store = SqliteStore(tmp_path / "g.sqlite")
    await store.open()
    yield GameService(store)
    await store.close()


async def _invite(service: GameService):
    return await service.create(
        "nim-test", {"heap": 4}, channel_id=9, guild_id=None, players=[ALICE, BOB], invited=True
    )


async def test_invitation_accept_then_play_to_the_end(service: GameService) -> None:
    game = await _invite(service)
    with pytest.raises(IllegalAction):
        await service.act(game.id, ALICE, "1")  # not running yet
    with pytest.raises(IllegalAction):
        await service.accept(game.id, CAROL)
    with pytest.raises(IllegalAction):
        await service.accept(game.id, ALICE)  # the host is no guest
    game = await service.accept(game.id, BOB)
    assert game.status == ACTIVE
    with pytest.raises(StaleRevision):
        await service.accept(game.id, BOB)  # a second click on the invitation
    turn = await service.act(game.id, ALICE, "3", revision=game.revision)
    assert turn.events[0].data == {"player": 0, "count": 3} and turn.outcome is None
    with pytest.raises(IllegalAction):
        await service.act(game.id, ALICE, "1")  # Bob's turn
    with pytest.raises(IllegalAction):
        await service.act(game.id, CAROL, "1")
    turn = await service.act(game.id, BOB, "1")
    assert turn.record.status == FINISHED and turn.outcome is not None
    assert turn.outcome.winners == {1}
    exported = await service.export(turn.record)
    assert [a["action"] for a in exported["actions"]] == ["3", "1"]


async def test_a_stale_click_changes_nothing(service: GameService) -> None:
    game = await _invite(service)
    game = await service.accept(game.id, BOB)
    old_revision = game.revision
    await service.act(game.id, ALICE, "1", revision=old_revision)
    with pytest.raises(StaleRevision):
        await service.act(game.id, BOB, "1", revision=old_revision)
    stored = await service.get(game.id)
    assert load(stored).state.heap == 3


async def test_bad_notation_and_decline(service: GameService) -> None:
    game = await _invite(service)
    declined = await service.decline(game.id, BOB, close=True)
    assert declined.status == DECLINED
    with pytest.raises(StaleRevision):
        await service.accept(game.id, BOB)
    other = await service.create(
        "nim-test", {}, channel_id=9, guild_id=None, players=[ALICE, BOB], invited=False
    )
    with pytest.raises(BadInput):
        await service.act(other.id, ALICE, "drei")
    assert [g.id for g in await service.running_in_channel(9)] == [other.id]
    with pytest.raises(IllegalAction):
        await service.get(999)


async def test_self_play_uses_the_seat_to_act(service: GameService) -> None:
    game = await service.create(
        "nim-test", {"heap": 5}, channel_id=9, guild_id=None, players=[ALICE, ALICE], invited=False
    )
    first = await service.act(game.id, ALICE, "1")
    second = await service.act(game.id, ALICE, "1")
    assert (first.actor, second.actor) == (0, 1)


REMIND_S, FORFEIT_S = 60.0, 180.0


async def _due(service: GameService, after: float, **kwargs: Any) -> list[tuple[int, str, int]]:
    """(game id, due, seat) of the games idle ``after`` seconds from now."""
    due = await service.idle_due(time.time() + after, REMIND_S, FORFEIT_S, **kwargs)
    return [(idle.record.id, idle.due, idle.seat) for idle in due]


async def test_an_idle_player_is_reminded_once_then_forfeits(service: GameService) -> None:
    game = await service.create(
        "nim-test", {}, channel_id=9, guild_id=None, players=[ALICE, BOB], invited=False
    )
    assert await _due(service, 10) == []
    assert await _due(service, 100) == [(game.id, REMIND, 0)]
    await service.mark_reminded(game)
    assert await _due(service, 100) == []
    assert await _due(service, 200) == [(game.id, FORFEIT, 0)]  # no second reminder with it
    (idle,) = await service.idle_due(time.time() + 200, REMIND_S, FORFEIT_S)
    turn = await service.forfeit(idle.record, idle.seat)
    assert turn.record.status == FINISHED and turn.outcome is not None
    assert turn.outcome.winners == {1}
    assert await _due(service, 1000) == []


async def test_a_move_starts_the_wait_anew_for_the_other_player(service: GameService) -> None:
    game = await service.create(
        "nim-test", {}, channel_id=9, guild_id=None, players=[ALICE, BOB], invited=False
    )
    await service.mark_reminded(game)
    turn = await service.act(game.id, ALICE, "2")
    assert await _due(service, 100) == [(game.id, REMIND, 1)]
    with pytest.raises(StaleRevision):
        await service.forfeit(game, 0)  # read before Alice's move
    assert (await service.get(game.id)).revision == turn.record.revision


async def test_bots_other_kinds_and_invitations_never_wait(service: GameService) -> None:
    against_bot = await service.create(
        "nim-test", {}, channel_id=9, guild_id=None, players=[BOB, ALICE], invited=False
    )
    await _invite(service)
    assert await _due(service, 200, bots={BOB}) == []  # the bot is to act
    await service.act(against_bot.id, BOB, "1")
    assert await _due(service, 200, bots={BOB}) == [(against_bot.id, FORFEIT, 1)]
    assert await _due(service, 200, kind="essence") == []


# ---------------------------------------------------------------- N seats (the party engine)

DAVE, BOT_USER = 4, 99


def _party(record: GameRecord) -> PartyState:
    state = load(record).state
    assert isinstance(state, PartyState)
    return state


async def _three(service: GameService, config: dict[str, Any] | None = None) -> GameRecord:
    return await service.create(
        "party-test",
        config or {},
        channel_id=9,
        guild_id=None,
        players=[ALICE, BOB, CAROL],
        invited=False,
        seed=7,
    )


async def _alice_plays(service: GameService, game: GameRecord) -> GameRecord:
    card = _party(game).hands[0][0]
    return (await service.act(game.id, ALICE, f"play {card}", decision="t1")).record


async def test_three_seats_one_declines_and_the_bot_fills_the_seat(service: GameService) -> None:
    game = await service.create(
        "party-test",
        {},
        channel_id=9,
        guild_id=None,
        players=[ALICE, BOB, CAROL],
        invited=True,
        seed=3,
    )
    assert game.status == INVITED and lobby_of(game).seats == ("host", "invited", "invited")
    with pytest.raises(BadInput):
        await service.accept(game.id, BOB, "purple")  # not a colour of the game
    game = await service.accept(game.id, BOB, "blue")
    assert game.status == INVITED and lobby_of(game).seats[1] == "accepted"
    game = await service.decline(game.id, CAROL)
    assert game.status == INVITED and lobby_of(game).seats[2] == "declined"
    with pytest.raises(IllegalAction):
        await service.fill_with_bot(game.id, BOB, 2, BOT_USER, "random")  # only the host
    with pytest.raises(IllegalAction):
        await service.reinvite(game.id, ALICE, 1, DAVE)  # Bob's seat is taken
    game = await service.reinvite(game.id, ALICE, 2, DAVE)
    assert game.players == [ALICE, BOB, DAVE] and lobby_of(game).seats[2] == "invited"
    with pytest.raises(IllegalAction):
        await service.accept(game.id, CAROL)  # her seat went to Dave
    game = await service.decline(game.id, DAVE)
    game = await service.fill_with_bot(game.id, ALICE, 2, BOT_USER, "random")
    assert game.status == ACTIVE  # every seat is ready: the game starts by itself
    assert game.players == [ALICE, BOB, BOT_USER] and bot_seats(game) == {2: "random"}
    assert _party(game).colours == (None, "blue", None)  # Bob's choice reached the engine
    turn = await service.act(game.id, ALICE, f"play {_party(game).hands[0][0]}")
    assert service.bot_due(turn.record)
    record, turns = await service.play_bots(turn.record)
    assert [t.actor for t in turns] == [2]
    assert m.to_act(PARTY, load(record)) == {1}  # Bob's reaction is still open


async def test_the_host_starts_with_the_seats_that_accepted(service: GameService) -> None:
    game = await service.create(
        "party-test",
        {"teams": [0, 1, 1, 0]},
        channel_id=9,
        guild_id=None,
        players=[ALICE, BOB, CAROL, DAVE],
        invited=True,
    )
    with pytest.raises(IllegalAction):
        await service.start_now(game.id, ALICE)  # only the host is ready
    await service.accept(game.id, CAROL)
    with pytest.raises(IllegalAction):
        await service.start_now(game.id, CAROL)
    game = await service.start_now(game.id, ALICE)
    assert game.status == ACTIVE and game.players == [ALICE, CAROL]
    assert game.config["teams"] == [0, 1] and load(game).teams == (0, 1)


async def test_a_reaction_does_not_make_the_other_reaction_stale(service: GameService) -> None:
    for first, second in [(CAROL, BOB), (BOB, CAROL)]:
        game = await _alice_plays(service, await _three(service))
        assert {(d.seat, d.id) for d in m.decisions(PARTY, load(game))} == {
            (1, "r1.1"),
            (2, "r1.2"),
        }
        ids = {BOB: "r1.1", CAROL: "r1.2"}
        # Both clicks were made on the same board (the same revision).
        await service.act(game.id, first, "pass", game.revision, decision=ids[first])
        turn = await service.act(game.id, second, "pass", game.revision, decision=ids[second])
        assert [d.id for d in m.decisions(PARTY, turn.match)] == ["t2"]
        with pytest.raises(StaleRevision):
            await service.act(game.id, second, "pass", decision=ids[second])
    both = await _alice_plays(service, await _three(service))
    await asyncio.gather(
        service.act(both.id, BOB, "pass", decision="r1.1"),
        service.act(both.id, CAROL, "pass", decision="r1.2"),
    )
    assert sorted(s for s, _ in await service.store.game_actions(both.id)) == [0, 1, 2]


async def test_two_clicks_on_one_decision_apply_once(service: GameService) -> None:
    game = await _three(service)
    first, second = _party(game).hands[0][:2]
    results = await asyncio.gather(
        service.act(game.id, ALICE, f"play {first}", decision="t1"),
        service.act(game.id, ALICE, f"play {second}", decision="t1"),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["StaleRevision", "Turn"]
    assert len(await service.store.game_actions(game.id)) == 1


async def test_a_click_loads_the_game_once_and_applies_the_clicked_action(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await _three(service)
    loads = 0
    real = m.from_json

    def counting(engine: Any, data: Any) -> m.Match:
        nonlocal loads
        loads += 1
        return real(engine, data)

    monkeypatch.setattr(m, "from_json", counting)
    at = service.seated(game, ALICE, "t1")
    (action,) = [a for a in PARTY.legal_actions(at.match.state, at.seat) if a.verb == "play"][:1]
    turn = await service.click(at, ALICE, "t1", action)
    assert loads == 1  # seated once; the click applied on that match and stored it
    assert await service.store.game_actions(game.id) == [(0, PARTY.action_text(action))]
    assert turn.match.state == load(turn.record).state
    assert not service.bot_due(turn.record, turn.match)


async def test_a_click_on_an_answered_decision_is_stale_and_on_another_seats_not_theirs(
    service: GameService,
) -> None:
    game = await _three(service)
    at = service.seated(game, ALICE, "t1")
    first, second = [a for a in PARTY.legal_actions(at.match.state, 0) if a.verb == "play"][:2]
    await service.click(at, ALICE, "t1", first)
    with pytest.raises(StaleRevision):  # the record read before the first click: re-read
        await service.click(at, ALICE, "t1", second)
    assert len(await service.store.game_actions(game.id)) == 1
    record = await service.get(game.id)
    with pytest.raises(IllegalAction) as refused:
        service.seated(record, ALICE, "r1.1")  # Bob's reaction, not Alice's
    assert refused.value.key == "play.error.not_your_turn"
    with pytest.raises(StaleRevision):
        service.seated(record, BOB, "t1")


async def test_a_resign_in_three_seats_lets_the_other_two_play_on(service: GameService) -> None:
    game = await _alice_plays(service, await _three(service))
    turn = await service.act(game.id, BOB, "!resign")
    assert turn.record.status == ACTIVE and turn.outcome is None
    assert load(turn.record).eliminated == (1,)
    assert m.to_act(PARTY, turn.match) == {2}  # Bob's reaction is gone, Carol's stays
    with pytest.raises(IllegalAction):
        await service.act(game.id, BOB, "pass")
    turn = await service.act(game.id, CAROL, "pass", decision="r1.2")
    assert [d.seat for d in m.decisions(PARTY, turn.match)] == [2]  # Carol moves next
    turn = await service.act(game.id, CAROL, "!resign")
    assert turn.record.status == FINISHED and turn.outcome is not None
    assert turn.outcome.winners == {0} and turn.outcome.eliminated == (1, 2)
    assert turn.outcome.ranking == ({0}, {2}, {1})


async def test_the_export_of_a_running_game_hides_what_the_reader_may_not_know(
    service: GameService,
) -> None:
    game = await _alice_plays(service, await _three(service))
    secret = _party(game).hands[2][0]
    await service.act(game.id, CAROL, f"add {secret}", decision="r1.2")
    record = await service.get(game.id)
    state = _party(record)
    for reader, seat in [(ALICE, 0), (BOB, 1), (None, None)]:
        data = await service.export(record, reader)
        text = json.dumps(data)
        assert "seed" not in data
        hidden = [c for s in range(3) if s != seat for c in (*state.hands[s], *state.hidden[s])]
        assert hidden and not [c for c in hidden if c in text]
        assert data["actions"][1] == {"seat": 2, "action": None, "secret": True}
    own = await service.export(record, CAROL)
    assert own["actions"][1] == {"seat": 2, "action": f"add {secret}"}
    assert own["view"]["treasure"] == [secret]
    await service.act(game.id, BOB, "!resign")
    finished = (await service.act(game.id, CAROL, "!resign")).record
    full = await service.export(finished, ALICE)
    assert full["seed"] == 7 and full["actions"][1]["action"] == f"add {secret}"
    assert full["outcome"]["winners"] == [0]


async def test_every_seat_that_keeps_a_reaction_waiting_is_reminded_and_forfeits(
    service: GameService,
) -> None:
    game = await _alice_plays(service, await _three(service))
    assert await _due(service, 100) == [(game.id, REMIND, 1), (game.id, REMIND, 2)]
    await service.mark_reminded(game)
    due = await service.idle_due(time.time() + 200, REMIND_S, FORFEIT_S)
    assert [(i.due, i.seat, i.decision) for i in due] == [
        (FORFEIT, 1, "r1.1"),
        (FORFEIT, 2, "r1.2"),
    ]
    first = await service.forfeit(due[0].record, due[0].seat, due[0].decision)
    assert first.outcome is None  # Alice and Carol remain
    last = await service.forfeit(due[1].record, due[1].seat, due[1].decision)  # re-read
    assert last.outcome is not None and last.outcome.winners == {0}
    assert last.outcome.reason == "forfeit"


NIM_TABLE: dict[str, Any] = {
    "channel_id": 9,
    "guild_id": None,
    "players": [ALICE, BOB],
    "invited": False,
}


async def service_get(store: SqliteStore, game_id: int) -> int:
    return (await GameService(store).get(game_id)).seed


async def test_game_seeds_are_128_secret_bits_and_reproducible_when_seeded(
    tmp_path: Path,
) -> None:
    """A seed of 31 bits could be searched offline from one's own cards (issue 18): new games
    draw 128 bits from the secure source; a seeded session (``--seed``) gives the same ones."""
    from bot.chance import Chance

    store = SqliteStore(tmp_path / "seeds.sqlite")
    await store.open()
    try:
        asked: list[int] = []

        def entropy(bits: int) -> int:
            asked.append(bits)
            return Chance().bits(bits)

        secure = GameService(store, entropy)
        games = [await secure.create("nim-test", {"heap": 4}, **NIM_TABLE) for _ in range(4)]
        assert asked == [128] * 4
        assert max(g.seed for g in games) >= 2**64  # all four below 2^64: chance 2^-256
        assert len({g.seed for g in games}) == 4
        assert [(await service_get(store, g.id)) for g in games] == [g.seed for g in games]
        seeded = [
            (await GameService(store, Chance(42).bits).create("nim-test", {}, **NIM_TABLE)).seed
            for _ in range(2)
        ]
        assert seeded == [Chance(42).bits(128)] * 2
    finally:
        await store.close()


async def test_a_typed_resign_holds_when_another_write_came_first(service: GameService) -> None:
    """Issue 18: ``aufgeben`` typed while the bot's move was being written was refused as
    "take the newest message"; a resign (or a draw answer) is retried on the game as it is
    now."""
    game = await service.create(
        "nim-test", {"heap": 9}, channel_id=9, guild_id=None, players=[ALICE, BOB], invited=False
    )
    real = service.store.update_game
    raced: list[int] = []

    async def lost_once(*args: Any, **kwargs: Any) -> GameRecord:
        if not raced:  # another write (the bot's move) wins the first time
            raced.append(1)
            raise StaleRevision()
        return await real(*args, **kwargs)

    service.store.update_game = lost_once  # type: ignore[method-assign]
    turn = await service.act(game.id, ALICE, "!resign")
    assert turn.record.status == FINISHED and raced == [1]


async def test_a_typed_step_stands_while_its_decision_is_open(service: GameService) -> None:
    """A typed step whose write lost to another seat's (the bot's half of a simultaneous
    choice: a Felsenfeuer Auswahl typed while the bot chose its own was refused as "take the
    newest message") is retried while the decision it answers is still open, as a click is;
    once that decision was answered meanwhile (the same step sent twice), it is stale."""
    game = await service.create(
        "nim-test", {"heap": 9}, channel_id=9, guild_id=None, players=[ALICE, BOB], invited=False
    )
    real = service.store.update_game
    raced: list[str] = []

    async def lost_once(*args: Any, **kwargs: Any) -> GameRecord:
        if not raced:  # another write wins the first time, leaving Alice's decision open
            raced.append("other")
            raise StaleRevision()
        return await real(*args, **kwargs)

    service.store.update_game = lost_once  # type: ignore[method-assign]
    turn = await service.act(game.id, ALICE, "1")
    assert raced == ["other"] and turn.actor == 0
    assert [text for _, text in await service.store.game_actions(game.id)] == ["1"]

    async def answered_meanwhile(*args: Any, **kwargs: Any) -> GameRecord:
        if len(raced) == 1:  # Bob's own step, sent from elsewhere, is written first
            raced.append("bob")
            await service.act(game.id, BOB, "2")
            raise StaleRevision()
        return await real(*args, **kwargs)

    service.store.update_game = answered_meanwhile  # type: ignore[method-assign]
    record = await service.get(game.id)
    with pytest.raises(StaleRevision):
        await service.act(game.id, BOB, "1", record=record)
    assert [text for _, text in await service.store.game_actions(game.id)] == ["1", "2"]


async def test_bot_seats_play_the_same_from_the_same_seed(service: GameService) -> None:
    logs = []
    for _ in range(2):
        game = await service.create(
            "party-test",
            {"ai_levels": {"1": "random", "2": "random"}},
            channel_id=9,
            guild_id=None,
            players=[ALICE, BOT_USER, BOT_USER],
            invited=True,
            seed=11,
        )
        assert game.status == ACTIVE  # nobody to wait for
        game = await _alice_plays(service, game)
        record, turns = await service.play_bots(game)
        assert {t.actor for t in turns} == {1, 2}
        assert m.to_act(PARTY, load(record)) <= {0}
        logs.append(await service.store.game_actions(record.id))
    assert logs[0] == logs[1]


async def test_an_invitation_stored_before_lobbies_can_still_be_accepted(
    service: GameService,
) -> None:
    match = m.start(NIM, {}, 5, 2)
    old = await service.store.create_game(
        kind="nim-test",
        engine_version=1,
        config={},
        seed=5,
        guild_id=None,
        channel_id=9,
        players=[ALICE, BOB],
        status=INVITED,
        snapshot={k: v for k, v in m.to_json(NIM, match).items() if k != "draw_votes"},
    )
    assert lobby_of(old).seats == ("host", "invited")
    started = await service.accept(old.id, BOB)
    assert started.status == ACTIVE and "lobby" not in started.snapshot
    assert (await service.act(old.id, ALICE, "2", decision="h15")).actor == 0


async def test_undo_replays_the_log_without_its_last_move(service: GameService) -> None:
    game = await _invite(service)
    game = await service.accept(game.id, BOB)
    with pytest.raises(IllegalAction) as error:
        await service.undo_last(game)
    assert error.value.key == "error.nothing_to_undo"
    first = await service.act(game.id, ALICE, "1")
    last = await service.act(game.id, BOB, "3")
    assert last.record.status == FINISHED
    undone = await service.undo_last(last.record)
    assert undone.snapshot == first.record.snapshot and undone.status == ACTIVE
    assert undone.revision == last.record.revision + 1
    assert await service.store.game_actions(game.id) == [(0, "1")]
    with pytest.raises(StaleRevision):
        await service.undo_last(last.record)  # a second click on the same old button
    again = await service.act(game.id, BOB, "1")
    assert again.outcome is None and load(again.record).state.heap == 2


async def test_a_decision_the_game_does_not_wait_for_keeps_nobody_waiting(
    service: GameService,
) -> None:
    """Armageddon's game master may overrule at any time (a decision that never closes while
    the game runs): he is neither reminded nor forfeited while the players think."""
    import engines.armageddon  # noqa: F401  (registers it)

    game = await service.create(
        "armageddon",
        {"scenario": "scharmuetzel"},
        channel_id=9,
        guild_id=None,
        players=[ALICE, BOB, CAROL],
        invited=False,
    )
    started = await service.act(game.id, ALICE, "start")
    engine = engine_of(started.record)
    open_seats = {d.seat for d in m.decisions(engine, started.match)}
    assert 0 in open_seats and open_seats - {0}, "the GM and a party both have a decision"
    due = await _due(service, 100)
    assert due and {seat for _, _, seat in due} == open_seats - {0}


REACTION_S = 600.0


async def _passes(service: GameService, after: float, **kwargs: Any) -> list[tuple[int, int]]:
    """(game id, seat) of the reactions due to be passed ``after`` seconds from now."""
    due = await service.reactions_due(time.time() + after, REACTION_S, **kwargs)
    assert {idle.due for idle in due} <= {TIMED_OUT}
    return [(idle.record.id, idle.seat) for idle in due]


async def test_a_reaction_not_answered_in_time_passes_and_the_seat_stays(
    service: GameService,
) -> None:
    """Bob and Carol may react to Alice's card. After the reaction limit the service passes
    for both (logged as their own ``pass``); nobody is forfeited and Bob moves next."""
    game = await _alice_plays(service, await _three(service))
    assert await _passes(service, REACTION_S - 30) == []  # not yet
    due = await service.reactions_due(time.time() + REACTION_S + 30, REACTION_S)
    assert [(i.seat, i.decision) for i in due] == [(1, "r1.1"), (2, "r1.2")]
    first = await service.time_out(due[0].record, due[0].seat, due[0].decision)
    assert [e.type for e in first.events] == ["passed"] and first.actor == 1
    last = await service.time_out(due[1].record, due[1].seat, due[1].decision)  # re-read
    assert last.outcome is None and not last.match.eliminated
    assert m.to_act(PARTY, last.match) == {1}  # the game goes on: Bob's turn
    log = await service.store.game_actions(game.id)
    assert log[1:] == [(1, "pass"), (2, "pass")]
    assert await _passes(service, 10 * REACTION_S) == []  # a turn is no reaction
    assert await _due(service, 100) == [(game.id, REMIND, 1)]  # it is reminded as always


async def test_an_answer_before_the_pass_wins(service: GameService) -> None:
    game = await _alice_plays(service, await _three(service))
    (bob, _carol) = await service.reactions_due(time.time() + REACTION_S + 30, REACTION_S)
    card = _party(game).hands[1][0]
    await service.act(game.id, BOB, f"add {card}", decision="r1.1")
    with pytest.raises(StaleRevision):
        await service.time_out(bob.record, bob.seat, bob.decision)
    log = await service.store.game_actions(game.id)
    assert log[1:] == [(1, f"add {card}")]


async def test_a_games_own_reaction_limit_and_no_limit(service: GameService) -> None:
    """The config's ``reaction_minutes`` (the engine never sees it) overrides the setting;
    0 turns it off: the reaction then waits like any decision (reminders, forfeits)."""
    slow = await _alice_plays(service, await _three(service, {"reaction_minutes": 30}))
    off = await _alice_plays(service, await _three(service, {"reaction_minutes": 0}))
    # (the party engine refuses a config key it does not know: it never saw this one)
    assert await _passes(service, 20 * 60) == []
    assert await _passes(service, 31 * 60) == [(slow.id, 1), (slow.id, 2)]
    assert await _passes(service, 10**6) == [(slow.id, 1), (slow.id, 2)]
    assert (off.id, REMIND, 1) in await _due(service, 100)
    assert await _passes(service, 10**6, kind="nim-test") == []
    odd = await service.create(  # a value that is no number of minutes: the setting applies
        "party-test", {"reaction_minutes": "bald"}, channel_id=7, guild_id=None,
        players=[ALICE, BOB], invited=False, seed=7,
    )  # fmt: skip
    assert reaction_limit_s(odd, REACTION_S) == REACTION_S


async def test_bots_and_engines_without_a_timeout_action_are_not_passed_for(
    service: GameService,
) -> None:
    robots = await service.create(
        "party-test",
        {"ai_levels": {"2": "random"}},
        channel_id=9,
        guild_id=None,
        players=[ALICE, BOB, BOT_USER],
        invited=False,
        seed=7,
    )
    await _alice_plays(service, robots)
    nim = await service.create(
        "nim-test", {}, channel_id=8, guild_id=None, players=[ALICE, BOB], invited=False
    )
    assert m.decisions(NIM, load(nim))  # a turn waits, but nim has no reactions
    assert await _passes(service, 10**6) == [(robots.id, 1)]  # Bob, never the bot's seat
    assert await _passes(service, 10**6, bots={BOB}) == []


async def test_a_combat_waits_for_the_table_not_for_a_forfeit(service: GameService) -> None:
    """A W6 combat (its engine says ``idle_sweep = False``) is never reminded or forfeited,
    however long its open decisions wait; another game in the same sweep still is."""
    import engines.w6.engine  # registers w6combat

    combat = await service.create(
        "w6combat", {"gm": ALICE}, channel_id=9, guild_id=None, players=[ALICE], invited=False
    )
    assert m.decisions(engines.w6.engine.W6Combat(), load(combat))  # the GM's decision is open
    nim = await service.create(
        "nim-test", {}, channel_id=8, guild_id=None, players=[ALICE, BOB], invited=False
    )
    assert await _due(service, 1000) == [(nim.id, FORFEIT, 0)]


async def test_a_step_writes_its_campaign_log_seats_and_display_with_it(
    service: GameService,
) -> None:
    """``StepWrites``: the log rows (made from the new match and events), the seats after the
    step and the display data are written with the step; a stale step writes none of them."""
    from bot.games import StepWrites
    from engines.w6 import join_action
    from tests.unit.test_w6_combat import fighter

    store = service.store
    campaign = await store.create_campaign(
        guild_id=None, channel_id=9, name="K", gm_id=ALICE, settings={}
    )
    combat = await service.create(
        "w6combat", {"gm": ALICE}, channel_id=9, guild_id=None, players=[ALICE], invited=False
    )
    join = join_action(fighter("held", BOB)).text()
    writes = StepWrites(
        log=lambda match, events: [(campaign.id, BOB, "combat", {"n": len(events)})],
        display={"characters": {"held": 5}},
        players=lambda match: [match.state.gm, *match.state.seats],
    )
    turn = await service.act(combat.id, BOB, join, seat=0, writes=writes)
    assert turn.record.players == [ALICE, BOB]
    assert turn.record.display == {"characters": {"held": 5}}
    assert [e["kind"] for e in await store.campaign_log(campaign.id)] == ["combat"]
    with pytest.raises(StaleRevision):
        await service.act(combat.id, BOB, join, combat.revision, seat=0, writes=writes)
    assert len(await store.campaign_log(campaign.id)) == 1


async def test_every_way_a_game_ends_runs_the_end_of_game_hook_once(
    service: GameService,
) -> None:
    """``on_finished``: a move, a click, a resignation, a forfeit for idleness, a draw agreed,
    a reaction timed out and a bot's move each finish a game and run the hook once, with the
    finishing step; a step that does not finish, another kind's hook and a step refused
    after the end run nothing."""
    ended: list[tuple[int, int, str]] = []
    nim_only: list[int] = []

    async def hook(turn: Any) -> None:
        assert turn.record.status == FINISHED and turn.outcome is not None
        ended.append((turn.record.id, turn.actor, turn.outcome.reason))

    async def nim_hook(turn: Any) -> None:
        nim_only.append(turn.record.id)

    service.on_finished(hook)
    service.on_finished(nim_hook, kind="nim-test")

    async def nim(heap: int = 4) -> GameRecord:
        return await service.create(
            "nim-test", {"heap": heap}, channel_id=9, guild_id=None, players=[ALICE, BOB],
            invited=False,
        )  # fmt: skip

    moved = await nim()  # a typed move
    await service.act(moved.id, ALICE, "3")
    assert ended == []
    await service.act(moved.id, BOB, "1")
    with pytest.raises(IllegalAction):
        await service.act(moved.id, ALICE, "1")  # over: nothing runs again
    clicked = await nim(2)  # a click
    at = service.seated(clicked, ALICE, "h2")
    await service.click(at, ALICE, "h2", 2)
    resigned = await nim()
    await service.act(resigned.id, BOB, "!resign")
    idle = await nim()
    await service.forfeit(idle, 0)
    drawn = await nim()
    await service.act(drawn.id, ALICE, "!draw-offer")
    await service.act(drawn.id, BOB, "!draw-accept")
    nim_games = [moved.id, clicked.id, resigned.id, idle.id, drawn.id]
    assert [game for game, _actor, _reason in ended] == nim_games
    assert [actor for _game, actor, _reason in ended] == [1, 0, 1, 0, 1]
    assert nim_only == nim_games

    # the party engine: a reaction passed when its time is up ends the game
    timed = await service.create(
        "party-test", {"hand": 1}, channel_id=9, guild_id=None, players=[ALICE, BOB],
        invited=False, seed=7,
    )  # fmt: skip
    await _alice_plays(service, timed)
    (late,) = await service.reactions_due(time.time() + REACTION_S + 30, REACTION_S)
    await service.time_out(late.record, late.seat, late.decision)  # Bob passes: his turn
    card = _party(await service.get(timed.id)).hands[1][0]
    await service.act(timed.id, BOB, f"play {card}")
    (late,) = await service.reactions_due(time.time() + REACTION_S + 30, REACTION_S)
    assert ended[-1][0] != timed.id
    last = await service.time_out(late.record, late.seat, late.decision)
    assert last.record.status == FINISHED and ended[-1][:2] == (timed.id, 0)

    # a bot's move that ends the game (seed 4: the bot lays its only card down, none is left)
    botted = await service.create(
        "party-test", {"hand": 1, "ai_levels": {"1": "random"}}, channel_id=9, guild_id=None,
        players=[ALICE, BOT_USER], invited=False, seed=4,
    )  # fmt: skip
    await _alice_plays(service, botted)
    record, turns = await service.play_bots(await service.get(botted.id))
    assert record.status == FINISHED and turns[-1].actor == 1
    assert ended[-1][:2] == (botted.id, 1)
    assert len(ended) == len(nim_games) + 2 and len(set(ended)) == len(ended)
    assert nim_only == nim_games  # the nim hook saw no party game
