"""The real ``spielleiter run`` process against the fake Discord: it connects, syncs, answers,
survives SIGKILL and a restart, and refuses to start without a token (friendly, no traceback)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.fake_discord import FakeDiscord, StoredMessage
from tests.harness import assert_ephemeral

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
START_TIMEOUT = 20.0


def _environment(fake: FakeDiscord | None, database: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DISCORD_", "SPIELLEITER_"))
    }
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env["SPIELLEITER_DB"] = str(database)
    env["SPIELLEITER_LOG_LEVEL"] = "INFO"
    if fake is not None:
        env["DISCORD_TOKEN"] = "e2e-token"
        env["DISCORD_API_BASE_URL"] = fake.api_base
        env["DISCORD_GATEWAY_URL"] = fake.gateway_url
    return env


class BotProcess:
    """``python -m bot run`` in ``workdir`` (no .env there), output kept in a log file;
    ``env`` adds settings (a database URL, shard ids)."""

    def __init__(self, fake: FakeDiscord, workdir: Path, env: dict[str, str] | None = None) -> None:
        self.fake = fake
        self.workdir = workdir
        self.env = env or {}
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0

    async def start(self) -> None:
        identified = len(self.fake.identifies)
        self.starts += 1
        log = (self.workdir / f"bot-{self.starts}.log").open("wb")
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "run",
            cwd=self.workdir,
            env={**_environment(self.fake, self.workdir / "spielleiter.sqlite"), **self.env},
            stdout=log,
            stderr=asyncio.subprocess.STDOUT,
        )
        log.close()
        await self._wait(lambda: len(self.fake.identifies) > identified, "IDENTIFY")
        await self.fake.wait_until_ready(START_TIMEOUT)

    async def _wait(self, condition: Callable[[], bool], what: str) -> None:
        def check() -> bool | None:
            if self.proc is not None and self.proc.returncode is not None:
                raise AssertionError(f"the bot exited ({self.proc.returncode}):\n{self.output()}")
            return condition() or None

        await self.fake.wait(check, START_TIMEOUT, what)

    async def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        await self.fake.wait(lambda: not self.fake.connected or None, 5, "the disconnect")

    def output(self) -> str:
        return "\n".join(
            p.read_text(errors="replace") for p in sorted(self.workdir.glob("bot-*.log"))
        )


@pytest.fixture
async def process(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    bot = BotProcess(fake, tmp_path)
    try:
        yield bot
    finally:
        if bot.proc is not None and bot.proc.returncode is None:
            bot.proc.kill()
            await bot.proc.wait()


async def test_run_sync_answer_kill_restart(fake: FakeDiscord, process: BotProcess) -> None:
    await process.start()
    await fake.wait_for_sync(START_TIMEOUT)
    assert {"hilfe", "sprache"} <= {c["name"] for c in fake.commands[None]}
    assert fake.identifies[0]["token"] == "e2e-token"

    # The preference written before the kill must still be there afterwards.
    chosen = await fake.slash("sprache", {"sprache": "en"}, user="alice", locale="de")
    assert_ephemeral(await chosen.callback())
    first = await (await fake.slash("hilfe", user="alice", locale="de")).callback()
    assert first.embeds[0]["title"] == "Spielleiter – commands"

    await process.kill()
    await process.start()
    # Same schema, same database: the restart does not sync again.
    assert fake.sync_count == 1
    again = await (await fake.slash("hilfe", user="alice", locale="de")).callback()
    assert again.embeds[0]["title"] == "Spielleiter – commands"
    assert "Traceback" not in process.output()


async def test_without_token_exits_nonzero_with_a_friendly_message(tmp_path: Path) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "run",
        cwd=tmp_path,
        env=_environment(None, tmp_path / "x.sqlite"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 30)
    text = (out + err).decode()
    assert proc.returncode != 0
    assert "DISCORD_TOKEN" in text
    assert "Traceback" not in text
    assert not (tmp_path / "x.sqlite").exists()


ESSENCE_ID = re.compile(r"^essenz:(\d+):(\d+):")
MENTION = re.compile(r"<@(\d+)>")


def _revision(board: StoredMessage) -> int:
    found = [int(m.group(2)) for cid in board.custom_ids if (m := ESSENCE_ID.match(cid))]
    assert found, f"no /essenz buttons on message {board.id}: {board.custom_ids}"
    return max(found)


async def _choose_one(fake: FakeDiscord, board: StoredMessage, actor: int) -> StoredMessage:
    """One click on the board as ``actor``: the first choice of a move select, else the first
    move button that is not "back". Returns the message that shows the game afterwards."""
    selects = [s for s in board.selects if ":p:" in s["custom_id"]]
    if selects:
        value = selects[0]["options"][0]["value"]
        ex = await fake.select(board, selects[0]["custom_id"], [value], user=actor)
    else:
        moves = [
            b
            for b in board.buttons
            if ":p:" in b.get("custom_id", "") and (b.get("emoji") or {}).get("name") != "↩"
        ]
        assert moves, f"no move to click on {board.custom_ids}"
        ex = await fake.click(board, moves[0]["custom_id"], user=actor)
    reply = await ex.callback(timeout=10)
    assert not reply.ephemeral, f"the click was refused: {reply.data}"
    await ex.settle()
    games = [m for m in fake.messages.values() if not m.deleted and m.custom_ids]
    return [m for m in games if any(ESSENCE_ID.match(c) for c in m.custom_ids)][-1]


async def test_essence_game_survives_a_kill_mid_game(
    fake: FakeDiscord, process: BotProcess
) -> None:
    await process.start()
    await fake.wait_for_sync(START_TIMEOUT)
    if "essenz" not in {c["name"] for c in fake.commands[None]}:
        pytest.skip("the /essenz cog is not loaded")

    invitation = await (
        await fake.slash("essenz start", {"gegner": "@bob"}, user="alice")
    ).message()
    accept = next(c for c in invitation.custom_ids if ":inv:1" in c)
    accepted = await fake.click(invitation, accept, user="bob")
    assert (await accepted.callback()).type == 7
    board = await accepted.message()
    start_revision = _revision(board)
    actor = int(MENTION.findall(board.content)[-1])
    board = await _choose_one(fake, board, actor)  # half a move: a mote is chosen

    await process.kill()
    await process.start()

    # The half-built choice lives in the custom_ids: finish the move on the same buttons.
    for _ in range(10):
        if _revision(board) > start_revision:
            break
        board = await _choose_one(fake, board, actor)
    assert _revision(board) > start_revision, "the move was not applied after the restart"
    assert "Traceback" not in process.output()
