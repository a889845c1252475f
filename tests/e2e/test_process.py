"""The real ``spielleiter run`` process against the fake Discord: it connects, syncs, answers,
survives SIGKILL (also in the middle of a stream of writes) and a restart, and refuses to start
without a token or on a database it cannot use (friendly, one line, no traceback)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import sqlite3
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.sandbox.fake_discord import Exchange, FakeDiscord, StoredMessage
from tests.harness import assert_ephemeral

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
START_TIMEOUT = 20.0
STREAM_CONFIRMED = 40  # answered rolls before the kill
STREAM_MAX = 400


def _environment(fake: FakeDiscord | None, database: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DISCORD_", "SPIELLEITER_"))
    }
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env["SPIELLEITER_DB"] = str(database)
    env["SPIELLEITER_LOG_LEVEL"] = "INFO"
    env["SPIELLEITER_GAME_THREADS"] = "off"  # the games stay in their channel: counted there
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


ESSENCE_ID = re.compile(r"^essenz:(\d+):([^:]+):")
MENTION = re.compile(r"<@(\d+)>")


def _tokens(board: StoredMessage) -> set[str]:
    """What the board's buttons were made for: the open decision (step choices) and the
    game's revision (the other buttons); both change once a step is played."""
    found = {m.group(2) for cid in board.custom_ids if (m := ESSENCE_ID.match(cid))}
    assert found, f"no /essenz buttons on message {board.id}: {board.custom_ids}"
    return found


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
    assert (await accepted.callback()).type == 6  # acknowledged, the board drawn after
    board = await accepted.message()
    start = _tokens(board)
    actor = int(MENTION.findall(board.content)[-1])
    board = await _choose_one(fake, board, actor)  # half a move: a mote is chosen

    await process.kill()
    await process.start()

    # The half-built choice lives in the custom_ids: finish the move on the same buttons.
    for _ in range(10):
        if not _tokens(board) & start:
            break
        board = await _choose_one(fake, board, actor)
    assert not _tokens(board) & start, "the move was not applied after the restart"
    assert "Traceback" not in process.output()


async def test_a_kill_during_a_stream_of_writes_loses_no_confirmed_write(
    fake: FakeDiscord, process: BotProcess, tmp_path: Path
) -> None:
    """Rolls in a campaign channel are written to the campaign log before they are shown; the
    process is SIGKILLed while rolls are still coming in. After the restart the database is
    intact and every roll the user saw answered is in the log."""
    await process.start()
    await fake.wait_for_sync(START_TIMEOUT)
    started = await (await fake.slash("kampagne start", {"name": "Sturm"}, user="gm")).callback()
    assert not started.ephemeral
    pushed: list[tuple[str, Exchange]] = []
    for index in range(STREAM_MAX):
        expression = f"1W6+{index}"
        pushed.append((expression, await fake.slash("roll", {"ausdruck": expression})))
        if sum(ex.callback_reply is not None for _, ex in pushed) >= STREAM_CONFIRMED:
            break
        await asyncio.sleep(0.005)
    await process.kill()  # the last rolls are still being written or answered
    confirmed = {e: ex.callback_reply for e, ex in pushed if ex.callback_reply is not None}
    assert len(confirmed) >= STREAM_CONFIRMED
    for reply in confirmed.values():
        assert not reply.ephemeral, f"a roll was refused: {reply.data}"

    await process.start()
    with contextlib.closing(sqlite3.connect(tmp_path / "spielleiter.sqlite")) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        rows = db.execute("SELECT data FROM campaign_log WHERE kind = 'roll'").fetchall()
    logged = {json.loads(data)["expression"] for (data,) in rows}
    assert set(confirmed) <= logged
    after = await (await fake.slash("roll", {"ausdruck": "1W6+1000"})).callback()
    assert not after.ephemeral  # it goes on writing
    assert "Traceback" not in process.output()


def _unusable_databases(tmp_path: Path) -> list[Path]:
    """Database paths that cannot be used: a "folder" that is a file, a folder where nothing
    may be written (procfs, even for root; a read-only folder when not running as root)."""
    a_file = tmp_path / "eine-datei"
    a_file.write_text("x")
    paths = [a_file / "sub" / "bot.sqlite", Path("/proc/1/bot.sqlite")]
    if os.geteuid() != 0:
        read_only = tmp_path / "nur-lesen"
        read_only.mkdir(mode=0o555)
        paths.append(read_only / "bot.sqlite")
    return paths


@pytest.mark.parametrize("command", [["run"], ["play", "--out", "bilder"]])
async def test_an_unusable_database_is_named_in_one_line_and_exits_2(
    tmp_path: Path, command: list[str]
) -> None:
    for database in _unusable_databases(tmp_path):
        env = _environment(None, database)
        env["DISCORD_TOKEN"] = "e2e-token"
        env["DISCORD_API_BASE_URL"] = "http://127.0.0.1:9/api"  # nothing listens: never reached
        extra = ["--db", str(database)] if command[0] == "play" else []
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            *command,
            *extra,
            cwd=tmp_path,
            env=env,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(proc.communicate(b"/hilfe\n"), 60)
        lines = err.decode().splitlines()
        assert proc.returncode == 2, (out + err).decode()
        assert len(lines) == 1 and str(database) in lines[0], lines
        assert "Traceback" not in (out + err).decode()


async def test_the_process_serves_the_web_companion_and_sessions_survive_a_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    import aiohttp

    with socket.socket() as probe:  # a port free right now
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = BotProcess(fake, tmp_path, {"SPIELLEITER_WEB_PORT": str(port)})
    try:
        await process.start()
        await fake.wait_for_sync(START_TIMEOUT)
        reply = await (await fake.slash("web", user="alice")).callback()
        link = re.search(rf"http://127\.0\.0\.1:{port}/login/[\w-]+", reply.content or "")
        assert link, reply.content
        base, token = link.group(0).split("/login/")
        jar = aiohttp.CookieJar(unsafe=True)
        async with aiohttp.ClientSession(cookie_jar=jar) as browser:
            signed = await browser.post(f"{base}/login", data={"token": token})
            assert signed.status == 200
            await process.kill()
            await process.start()
            again = await browser.get(f"{base}/")  # the session lives in the database
            assert again.status == 200 and "Spielleiter Testgilde" in await again.text()
        assert "Traceback" not in process.output()
    finally:
        if process.proc is not None and process.proc.returncode is None:
            process.proc.kill()
            await process.proc.wait()
