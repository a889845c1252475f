"""The game service on the tiny engine: invitations, moves, stale clicks, export, idle games."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from bot.games import ACTIVE, DECLINED, FINISHED, FORFEIT, REMIND, GameService, load
from bot.store import SqliteStore, StaleRevision
from engines.core import BadInput, IllegalAction
from tests.nim import NIM  # noqa: F401  (registers the tiny engine)

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
        await service.answer_invitation(game.id, CAROL, True, game.revision)
    game = await service.answer_invitation(game.id, BOB, True, game.revision)
    assert game.status == ACTIVE
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
    game = await service.answer_invitation(game.id, BOB, True, game.revision)
    old_revision = game.revision
    await service.act(game.id, ALICE, "1", revision=old_revision)
    with pytest.raises(StaleRevision):
        await service.act(game.id, BOB, "1", revision=old_revision)
    stored = await service.get(game.id)
    assert load(stored).state.heap == 3


async def test_bad_notation_and_decline(service: GameService) -> None:
    game = await _invite(service)
    declined = await service.answer_invitation(game.id, BOB, False, game.revision)
    assert declined.status == DECLINED
    with pytest.raises(StaleRevision):
        await service.answer_invitation(game.id, BOB, True, game.revision)
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


async def test_undo_replays_the_log_without_its_last_move(service: GameService) -> None:
    game = await _invite(service)
    game = await service.answer_invitation(game.id, BOB, True, game.revision)
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
