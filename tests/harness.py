"""Helpers for cog tests: run a real bot against the fake Discord, and wire-level assertions.

Writing a cog test (fixtures ``fake`` and ``bot`` come from ``tests/conftest.py``)::

    async def test_roll(fake: FakeDiscord, bot: Any) -> None:
        ex = await fake.slash("roll", {"ausdruck": "3W6"}, user="alice", locale="de")
        reply = await ex.callback()           # the raw callback: reply.type, .data, .json, .files
        message = await ex.message()          # the answer as the user sees it (after defers too)
        click = await fake.click(message, "roll:again", user="bob")   # or a 1-based button index
        assert (await click.callback()).type == 7                      # message updated in place
        chosen = await fake.select(message, "essenz:1:1:p::0", ["a1"], user="alice")
        choices = await fake.autocomplete("roll", {"ausdruck": "3W"})
        opened = await fake.slash("charakter neu")                     # bot answers with a modal
        done = await fake.submit_modal(opened, {"name": "Thoin"})

Any error the bot logs (``spielleiter.errors`` "unexpected error", discord.py's "Ignoring
exception ...", a missing message key) makes every wait raise ``BotFailed`` at once; a test that
provokes one on purpose asserts it with ``pytest.raises(BotFailed)`` and then
``fake.errors.clear()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import discord
from PIL import Image

from bot.sandbox.fake_discord import (
    EPHEMERAL,
    FakeDiscord,
    Reply,
    StoredAttachment,
    StoredMessage,
    UploadedFile,
)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
READY_TIMEOUT = 10.0


class ErrorCapture(logging.Handler):
    """Reports every ERROR log record (with or without traceback) to the fake Discord, so that a
    waiting test fails at once instead of timing out. The bot logs exactly the errors it did
    not expect (``spielleiter.errors``, discord.py's "Ignoring exception in ...")."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__(level=logging.ERROR)
        self.fake = fake

    def emit(self, record: logging.LogRecord) -> None:
        error = record.exc_info[1] if record.exc_info else None
        self.fake.report_error(error or RuntimeError(f"{record.name}: {record.getMessage()}"))


def settings_for(fake: FakeDiscord, database: Path, **overrides: Any) -> Any:
    """Settings pointing at ``fake`` with their own database file."""
    from bot.settings import Settings

    values: dict[str, Any] = {
        "token": "fake-token",
        "database_path": database,
        "api_base_url": fake.api_base,
        "gateway_url": fake.gateway_url,
        "log_level": "WARNING",
        "render_processes": 0,  # boards drawn in threads: no worker processes per test
        "game_threads": False,  # a test that plays in threads says so
    }
    values.update(overrides)
    return Settings(**values)


@contextlib.asynccontextmanager
async def running_client(
    fake: FakeDiscord, client: discord.Client, token: str = "fake-token"
) -> AsyncIterator[discord.Client]:
    """Start ``client`` (already pointed at ``fake``) in a task; yield once it is ready and its
    guilds are cached; close it afterwards. Unexpected errors it logs fail the waits."""
    client._connection.guild_ready_timeout = 0.05  # discord.py waits this long after GUILD_CREATE
    capture = ErrorCapture(fake)
    root = logging.getLogger()
    root.addHandler(capture)
    task = asyncio.create_task(client.start(token), name="bot under test")
    try:
        ready = asyncio.create_task(client.wait_until_ready())
        done, _ = await asyncio.wait(
            {ready, task}, timeout=READY_TIMEOUT, return_when="FIRST_COMPLETED"
        )
        if task in done:
            ready.cancel()
            task.result()  # raises what stopped the start
            raise AssertionError("the bot stopped before it was ready")
        if ready not in done:
            ready.cancel()
            raise AssertionError(f"the bot was not ready after {READY_TIMEOUT}s")
        await fake.wait_until_ready()
        yield client
    finally:
        root.removeHandler(capture)
        await client.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(task, 5)


@contextlib.asynccontextmanager
async def running_bot(fake: FakeDiscord, settings: Any) -> AsyncIterator[Any]:
    """The real ``create_bot(settings)``, started against ``fake`` (see :func:`running_client`)."""
    from bot.app import create_bot

    bot = create_bot(settings)
    fake.in_process_work = bot.finish_interactions  # settle waits on the bot, not on time
    async with running_client(fake, bot, settings.token or "fake-token") as client:
        yield client


@contextlib.asynccontextmanager
async def bot_on_fake(**overrides: Any) -> AsyncIterator[tuple[FakeDiscord, Any]]:
    """A started fake Discord and the real bot on a throwaway database, commands synced
    (for benchmarks and scripts outside pytest's fixtures); ``overrides``: settings."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        fake = FakeDiscord()
        await fake.start()
        try:
            settings = settings_for(fake, Path(folder) / "bot.sqlite", **overrides)
            async with running_bot(fake, settings) as bot:
                await fake.wait_for_sync()
                yield fake, bot
        finally:
            await fake.stop()


# --------------------------------------------------------------------------- assertions


def _flags(thing: Reply | StoredMessage | dict[str, Any]) -> int:
    if isinstance(thing, Reply | StoredMessage):
        return thing.flags
    return int(thing.get("flags") or 0)


def assert_ephemeral(thing: Reply | StoredMessage | dict[str, Any]) -> None:
    """The reply/message carries the ephemeral flag 64."""
    assert _flags(thing) & EPHEMERAL, f"expected ephemeral (flags & 64), got flags={_flags(thing)}"


def assert_public(thing: Reply | StoredMessage | dict[str, Any]) -> None:
    """The reply/message is visible to everyone (no flag 64)."""
    assert not _flags(thing) & EPHEMERAL, f"expected a public message, flags={_flags(thing)}"


def assert_png(data: bytes) -> Image.Image:
    """``data`` is a real PNG: signature, Pillow verifies and decodes it. Returns the image."""
    assert data[:8] == PNG_SIGNATURE, f"not a PNG: starts with {data[:8]!r}"
    Image.open(io.BytesIO(data)).verify()
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    assert image.width > 0 and image.height > 0
    return image


def png_attachments(
    thing: Reply | StoredMessage,
) -> list[UploadedFile] | list[StoredAttachment]:
    """The PNG files of a reply (as uploaded) or a message (as stored)."""
    files = thing.files
    return [f for f in files if f.filename.lower().endswith(".png")]  # type: ignore[return-value]


def assert_png_attachment(thing: Reply | StoredMessage, filename: str | None = None) -> Image.Image:
    """Exactly one PNG is attached (named ``filename`` if given) and it decodes; returns it."""
    pngs = png_attachments(thing)
    assert len(pngs) == 1, f"expected one PNG attachment, got {[f.filename for f in thing.files]}"
    if filename is not None:
        assert pngs[0].filename == filename
    return assert_png(pngs[0].data)


def custom_id_rows(thing: Reply | StoredMessage | list[dict[str, Any]]) -> list[list[str]]:
    """The action rows as lists of custom_ids (link buttons show their url)."""
    components = thing if isinstance(thing, list) else thing.components
    rows = []
    for row in components:
        assert row["type"] == 1, f"top-level component is not an action row: {row}"
        rows.append([c.get("custom_id") or c.get("url", "") for c in row["components"]])
    return rows


def assert_components_valid(thing: Reply | StoredMessage | list[dict[str, Any]]) -> None:
    """Discord's limits: <= 5 rows, <= 5 buttons or 1 select per row, custom_ids unique and
    <= 100 characters, labels <= 80, select options <= 25."""
    components = thing if isinstance(thing, list) else thing.components
    assert len(components) <= 5, "more than 5 action rows"
    seen: set[str] = set()
    for row in components:
        children = row["components"]
        assert 1 <= len(children) <= 5, f"a row has {len(children)} components"
        if any(c["type"] != 2 for c in children):
            assert len(children) == 1, "a select menu must be alone in its row"
        for comp in children:
            cid = comp.get("custom_id")
            if cid is not None:
                assert len(cid) <= 100, f"custom_id too long: {cid!r}"
                assert cid not in seen, f"duplicate custom_id {cid!r}"
                seen.add(cid)
            assert len(comp.get("label") or "") <= 80, f"label too long: {comp.get('label')!r}"
            assert len(comp.get("options", [])) <= 25, "more than 25 select options"


def button_labels(thing: Reply | StoredMessage) -> list[str]:
    """Labels of every button, in display order."""
    message_like = thing.message if isinstance(thing, Reply) and thing.message else thing
    if isinstance(message_like, StoredMessage):
        return [b.get("label", "") for b in message_like.buttons]
    return [c.get("label", "") for row in thing.components for c in row["components"]]


def embed_text(thing: Reply | StoredMessage) -> str:
    """All text of the embeds (titles, descriptions, fields, footers), newline-joined."""
    parts: list[str] = []
    for embed in thing.embeds:
        parts += [embed.get("title", ""), embed.get("description", "")]
        for item in embed.get("fields", []):
            parts += [item.get("name", ""), item.get("value", "")]
        parts.append((embed.get("footer") or {}).get("text", ""))
    return "\n".join(p for p in parts if p)


def find_request(fake: FakeDiscord, predicate: Callable[[Any], bool]) -> Any:
    """The first recorded request matching ``predicate`` (AssertionError if none)."""
    for request in fake.requests:
        if predicate(request):
            return request
    raise AssertionError(f"no matching request among {len(fake.requests)}")


async def live_board_of(
    fake: FakeDiscord,
    bot: Any,
    game_id: int,
    predicate: Callable[[StoredMessage], bool] = lambda message: True,
    timeout: float = 5.0,
) -> StoredMessage:
    """The game's one living board (the message its display data names) once it satisfies
    ``predicate`` (the board is edited in place step by step)."""
    found: StoredMessage | None = None

    async def board() -> StoredMessage | None:
        record = await bot.store.get_game(game_id)
        board = (record.display or {}).get("board") if record is not None else None
        message = fake.messages.get(board) if board is not None else None
        if message is None or message.deleted or not predicate(message):
            return None
        return message

    deadline = asyncio.get_running_loop().time() + timeout
    while found is None:
        found = await board()
        if found is None:
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"the board of game {game_id} never showed what was awaited")
            await asyncio.sleep(0.02)
    return found


def ever_shown(fake: FakeDiscord, text: str) -> bool:
    """Whether any message the bot sent or edited said ``text`` at some point (a living board
    is edited step by step: what it said before is in the requests, not in its last state)."""
    for request in fake.requests:
        body = request.json
        if body is not None and text in json.dumps(body, ensure_ascii=False):
            return True
    return False
