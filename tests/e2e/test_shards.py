"""Two real ``spielleiter run`` processes, one shard each, on one PostgreSQL database against the
fake Discord: each answers its own guilds, background work (reminders, forfeits, resumed bot
turns) happens once per game, two processes clicking the same old button apply it once, and a
process SIGKILLed mid-game is restarted and its game goes on on the same buttons."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.games import GameService
from bot.sandbox.fake_discord import (
    BOT_ID,
    FakeChannel,
    FakeDiscord,
    StoredMessage,
    guild_on_shard,
    stable_user_id,
)
from bot.store.postgres import PostgresStore
from engines.essence import ENGINE
from tests.e2e.test_process import ESSENCE_ID, MENTION, START_TIMEOUT, BotProcess, _tokens
from tests.pg import fresh_schema, schema_url

pytestmark = pytest.mark.e2e

ALICE, BOB = stable_user_id("alice"), stable_user_id("bob")
DAY = 24 * 3600


@pytest.fixture
async def sharded() -> AsyncIterator[tuple[FakeDiscord, str]]:
    """A fake Discord that recommends two shards (a guild on each) and a fresh schema."""
    fake = FakeDiscord([guild_on_shard(0, 2), guild_on_shard(1, 2)], shard_count=2)
    await fake.start()
    try:
        async with fresh_schema("e2e") as schema:
            yield fake, schema_url(schema)
    finally:
        await fake.stop()


def _boards(fake: FakeDiscord, channel: FakeChannel) -> list[StoredMessage]:
    return [
        m for m in fake.channel_messages(channel) if any(ESSENCE_ID.match(c) for c in m.custom_ids)
    ]


def _move_component(board: StoredMessage) -> tuple[str, list[str] | None]:
    """The first choice on the board: a move select's first value, else the first move button
    that is not "back" (as the single-process e2e test plays)."""
    selects = [s for s in board.selects if ":p:" in s["custom_id"]]
    if selects:
        return selects[0]["custom_id"], [selects[0]["options"][0]["value"]]
    moves = [
        b
        for b in board.buttons
        if ":p:" in b.get("custom_id", "") and (b.get("emoji") or {}).get("name") != "↩"
    ]
    assert moves, f"no move to click on {board.custom_ids}"
    return moves[0]["custom_id"], None


async def _press(
    fake: FakeDiscord, board: StoredMessage, actor: int, shard: int | None = None
) -> Any:
    custom_id, values = _move_component(board)
    if values is None:
        return await fake.click(board, custom_id, user=actor, shard=shard)
    return await fake.select(board, custom_id, values, user=actor, shard=shard)


async def _step(fake: FakeDiscord, board: StoredMessage, actor: int) -> StoredMessage:
    """One click as ``actor`` (routed to the guild's shard); the board afterwards."""
    ex = await _press(fake, board, actor)
    reply = await ex.callback(timeout=15)
    assert not reply.ephemeral, f"the click was refused: {reply.data}"
    await ex.settle()
    return _boards(fake, fake.channel(board.channel_id))[-1]


async def _new_game(fake: FakeDiscord, channel: FakeChannel) -> tuple[StoredMessage, int]:
    """/essenz start alice against bob in ``channel``; the board and whose turn it is."""
    invitation = await (
        await fake.slash("essenz start", {"gegner": "@bob"}, user="alice", channel=channel)
    ).message(timeout=15)
    accept = next(c for c in invitation.custom_ids if ":inv:1" in c)
    accepted = await fake.click(invitation, accept, user="bob")
    assert (await accepted.callback(timeout=15)).type == 6  # acknowledged, then drawn
    board = await accepted.message(timeout=15)
    return board, int(MENTION.findall(board.content)[-1])


async def _age(store: PostgresStore, game_id: int, seconds: float) -> None:
    await store.pool.execute(
        "UPDATE games SET updated_at = updated_at - $1, created_at = created_at - $1 WHERE id = $2",
        seconds,
        game_id,
    )


async def _until(what: str, check: Any, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.2)


async def test_two_shard_processes_share_one_postgres_database(
    sharded: tuple[FakeDiscord, str], tmp_path: Path
) -> None:
    fake, url = sharded
    kind = ENGINE.name
    g0, g1 = fake.guilds
    dm_alice, dm_bob = fake.dm_channel("alice"), fake.dm_channel("bob")

    # Games left waiting while the bot was down: forfeits due (one per shard, one in a DM),
    # reminders due (one per shard), and a bot turn left unplayed (in a DM: shard 0's).
    store = PostgresStore(url)
    await store.open()
    service = GameService(store)
    ids: dict[str, int] = {}

    async def waiting(name: str, channel: FakeChannel, age: float, players: list[int]) -> None:
        config: dict[str, Any] = {"variants": []}
        if BOT_ID in players:
            config = {"variants": [], "quick": True, "ai_levels": {"0": "easy"}}
        record = await service.create(
            kind,
            config,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            players=players,
            invited=False,
        )
        await _age(store, record.id, age)
        ids[name] = record.id

    await waiting("forfeit0", g0.channels[0], 10 * DAY, [ALICE, BOB])
    await waiting("forfeit1", g1.channels[0], 10 * DAY, [ALICE, BOB])
    await waiting("forfeit_dm", dm_alice, 10 * DAY, [ALICE, BOB])
    await waiting("remind0", g0.channels[1], 2 * DAY, [ALICE, BOB])
    await waiting("remind1", g1.channels[1], 2 * DAY, [ALICE, BOB])
    await waiting("bot_dm", dm_bob, 120, [BOT_ID, BOB])

    env = {
        "SPIELLEITER_DATABASE_URL": url,
        "SPIELLEITER_SHARD_COUNT": "2",
        "SPIELLEITER_GAME_THREADS": "off",  # the games stay in their channel: counted there
    }
    # each process gets its own token (the fake takes any) to tell their requests apart
    processes = [
        BotProcess(
            fake,
            tmp_path / f"p{i}",
            {**env, "SPIELLEITER_SHARD_IDS": str(i), "DISCORD_TOKEN": f"e2e-token-{i}"},
        )
        for i in (0, 1)
    ]
    for process in processes:
        process.workdir.mkdir()
    try:
        await processes[0].start()
        await fake.wait_for_sync(START_TIMEOUT)
        await processes[1].start()
        assert [i["shard"] for i in fake.identifies] == [[0, 2], [1, 2]]
        assert fake.sync_count == 1  # by the process of shard 0 only

        # --- background work, once per game, by the process of the game's shard
        async def swept() -> bool:
            games = {name: await service.get(i) for name, i in ids.items()}
            reminded = await store.pool.fetchval(
                "SELECT COUNT(*) FROM games WHERE id = ANY($1::bigint[])"
                " AND reminded_at IS NOT NULL",
                [ids["remind0"], ids["remind1"]],
            )
            forfeited = all(games[n].status == "finished" for n in ids if "forfeit" in n)
            return forfeited and reminded == 2 and games["bot_dm"].revision >= 2

        await _until("the idle sweep of both processes", swept)
        await asyncio.sleep(1.0)  # a second process would send its duplicates now

        async def background_once() -> None:
            for name in ("forfeit0", "forfeit1", "forfeit_dm"):
                actions = await store.game_actions(ids[name])
                assert [a for _, a in actions] == [f"!forfeit {actions[0][0]}"], name
            for channel in (g0.channels[0], g1.channels[0], dm_alice):
                trophies = [m for m in fake.channel_messages(channel) if "🏆" in m.text]
                assert len(trophies) == 1, f"{len(trophies)} forfeit boards in {channel.name}"
            for name, channel in (("remind0", g0.channels[1]), ("remind1", g1.channels[1])):
                notes = [m for m in fake.channel_messages(channel) if f"#{ids[name]}" in m.content]
                assert len(notes) == 1, f"{len(notes)} reminders for {name}"
            assert [s for s, _ in await store.game_actions(ids["bot_dm"])] == [0, 0]
            assert len([m for m in fake.channel_messages(dm_bob) if m.attachments]) == 1
            # done by the process that runs the game's shard (the first one up would have done
            # everything otherwise)
            owners = {g0.channels[0]: 0, g0.channels[1]: 0, dm_alice: 0, dm_bob: 0}
            owners |= {g1.channels[0]: 1, g1.channels[1]: 1}
            for channel, shard in owners.items():
                posts = [
                    r.authorization
                    for r in fake.requests
                    if r.method == "POST" and r.path == f"/channels/{channel.id}/messages"
                ]
                assert posts and set(posts) == {f"Bot e2e-token-{shard}"}, (channel.name, posts)

        await background_once()

        # --- a game in each shard's guild, each answered by its own process
        board1, actor1 = await _new_game(fake, g1.channels[2])
        board0, actor0 = await _new_game(fake, g0.channels[2])

        # --- both processes get the same clicks on one game (as while resharding): every
        # click goes to both at once; the one that makes the move applies once, the other is
        # refused as stale
        game0 = int(ESSENCE_ID.match(board0.custom_ids[0]).group(1))  # type: ignore[union-attr]
        start = _tokens(board0)
        for _ in range(10):
            before = len(await store.game_actions(game0))
            both = await asyncio.gather(
                _press(fake, board0, actor0, shard=0), _press(fake, board0, actor0, shard=1)
            )
            replies = [await ex.callback(timeout=15) for ex in both]
            for ex in both:
                await ex.settle()
            after = len(await store.game_actions(game0))
            assert after - before <= 1, "one old button was applied twice"
            board0 = _boards(fake, g0.channels[2])[-1]
            if after > before:
                # the other click was stale and never applied (above): refused privately, or,
                # when its process still saw the board showing the step before while the
                # winner was drawing it, answered with the board as the game now stands (the
                # recovery of a board behind its game, issue 18)
                refused = [r for r in replies if r.ephemeral]
                assert len(refused) <= 1, [r.data for r in replies]
                break
            assert not any(r.ephemeral for r in replies), [r.data for r in replies]
        assert _tokens(board0) != start, "no move was made by the doubled clicks"

        # --- the shard-1 process is killed halfway through a move and restarted
        start = _tokens(board1)
        board1 = await _step(fake, board1, actor1)  # half a move: a mote is chosen
        await processes[1].kill()
        await processes[1].start()
        assert [i["shard"] for i in fake.identifies][-1] == [1, 2]
        for _ in range(10):
            if _tokens(board1) != start:
                break
            board1 = await _step(fake, board1, actor1)
        assert _tokens(board1) != start, "the move was not applied after the restart"

        # the restarted process swept again: still one reminder and one forfeit per game
        await asyncio.sleep(1.0)
        await background_once()
        for process in processes:
            assert "Traceback" not in process.output()
    finally:
        for process in processes:
            if process.proc is not None and process.proc.returncode is None:
                process.proc.kill()
                await process.proc.wait()
        await store.close()
