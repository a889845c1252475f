"""Discord components for the shared game table: the board message as sent or edited,
buttons and views made for sending (no callbacks kept: every click is routed by its
``custom_id``), and click paths written into a ``custom_id`` and read back.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import discord

from bot.replies import pinging
from engines.core import BadInput
from engines.core.choices import ChoiceTree

MAX_ROWS = 5


@dataclass
class Screen:
    """One board message: text, embed, image and components; with what the living board
    keeps of it (its running ``log``, a one-line ``summary`` for when a newer board replaces
    it, the ``status`` line) and ``keep_image``: an edit keeps the picture the message shows
    (a bot still thinking: the picture changes once, with its answer)."""

    content: str
    embed: discord.Embed
    file: discord.File | None
    view: discord.ui.View | None
    pings: tuple[int, ...] = ()  # the users the content calls (names in it ping nobody)
    image: bytes | None = None  # the picture as drawn (a new File is made for every send)
    filename: str = "board.png"
    log: list[str] = field(default_factory=list)
    summary: str = ""
    status: str = ""
    keep_image: bool = False

    def new_file(self) -> discord.File | None:
        if self.image is None:
            return self.file
        return discord.File(io.BytesIO(self.image), filename=self.filename)


def pictured_at(screen: Screen, url: str) -> Screen:
    """``screen`` showing a picture already uploaded with another message (at ``url``)
    instead of uploading it again: its embed names the url, it carries no file."""
    embed = screen.embed.copy()
    embed.set_image(url=url)
    return replace(screen, embed=embed, file=None, image=None)


def parse_path(text: str) -> tuple[str, ...]:
    return tuple(token for token in text.split(".") if token)


PLAIN_PATH = 48  # a longer click path is written by option numbers in the custom_id
INDEX = "#"
WHOLE = "="  # ``=<n>``: the n-th complete step after the path so far, offered whole


def whole_steps(tree: ChoiceTree[Any], prefix: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The paths of every complete step that begins with ``prefix``, in the tree's order
    (what ``=<n>`` counts)."""
    depth = len(prefix)
    return [path for path in tree.paths if len(path) > depth and path[:depth] == prefix]


def encode_path(tree: ChoiceTree[Any], path: tuple[str, ...]) -> str:
    """The click path for a ``custom_id``: its tokens, or where a token cannot be written
    there (a ``.``, ``:`` or ``#`` in it) or the path is long, ``#<n>``: the n-th option at
    that point (the decision id in the same ``custom_id`` keeps the options the same)."""
    plain = ".".join(path)
    if len(plain) <= PLAIN_PATH and not any(set(token) & set(".:" + INDEX) for token in path):
        return plain
    return ".".join(
        token if token.startswith(WHOLE) else option_ref(tree, path[:depth], token)
        for depth, token in enumerate(path)
    )


def option_ref(tree: ChoiceTree[Any], prefix: tuple[str, ...], token: str) -> str:
    return f"{INDEX}{tree.options(prefix).index(token)}"


def decode_path(tree: ChoiceTree[Any], tokens: tuple[str, ...], error: str) -> tuple[str, ...]:
    """The tokens of a path read from a ``custom_id`` (see :func:`encode_path`; a last
    ``=<n>`` stands for the whole n-th step after the tokens before it). Raises BadInput
    (``error``) for an option number that is not there."""
    path: tuple[str, ...] = ()
    for position, token in enumerate(tokens):
        if token.startswith(WHOLE):  # a whole step: only last, and one that is there
            steps = whole_steps(tree, path)
            number = token[len(WHOLE) :]
            if position != len(tokens) - 1 or not number.isdecimal():
                raise BadInput(error)
            if int(number) >= len(steps):
                raise BadInput(error)
            return steps[int(number)]
        if token.startswith(INDEX):
            options = tree.options(path)
            number = token[len(INDEX) :]
            if not number.isdecimal() or int(number) >= len(options):
                raise BadInput(error)
            token = options[int(number)]
        path += (token,)
    return path


def button(
    label: str, cid: str, style: str = "secondary", emoji: str | None = None
) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=label[:80], custom_id=cid, style=getattr(discord.ButtonStyle, style), emoji=emoji
    )


def make_view(rows: list[list[discord.ui.Item[Any]]]) -> discord.ui.View:
    """A container for sending; stopped at once so discord.py keeps no callbacks for it."""
    view = discord.ui.View(timeout=None)
    for index, row in enumerate(rows[:MAX_ROWS]):
        for item in row:
            item.row = index
            view.add_item(item)
    view.stop()
    return view


def send_kwargs(screen: Screen) -> dict[str, Any]:
    kwargs: dict[str, Any] = {
        "content": screen.content or None,
        "embed": screen.embed,
        "allowed_mentions": pinging(*screen.pings),
    }
    file = screen.new_file()
    if file is not None:
        kwargs["file"] = file
    if screen.view is not None:
        kwargs["view"] = screen.view
    return kwargs


def edit_kwargs(screen: Screen, *, keep_image: bool = False) -> dict[str, Any]:
    """An edit to ``screen``; ``keep_image``: the message keeps the picture it has (nothing
    uploaded again; its embed names the same file)."""
    kwargs: dict[str, Any] = {
        "content": screen.content or None,
        "embed": screen.embed,
        "view": screen.view,
        "allowed_mentions": pinging(*screen.pings),
    }
    if not keep_image:
        file = screen.new_file()
        kwargs["attachments"] = [file] if file is not None else []
    return kwargs


T = TypeVar("T")

# Discord forgets an interaction not answered within 3 s of its creation. A board that is not
# drawn by this many seconds after the click is answered with a deferral first (then edited).
ANSWER_BY_S = 2.0


async def update_in_time(interaction: discord.Interaction[Any], drawing: Awaitable[Screen]) -> None:
    """Update the clicked message to the screen ``drawing`` makes: at once when it is drawn in
    time (the usual case), else acknowledged first (a deferred update) and edited when drawn,
    so the first answer never comes after Discord's 3 s, however busy the bot is."""
    task = asyncio.ensure_future(drawing)
    if not await _drawn_in_time(interaction, task):
        await interaction.response.defer()
    screen = await task
    if interaction.response.is_done():
        await interaction.edit_original_response(**edit_kwargs(screen))
    else:
        await interaction.response.edit_message(**edit_kwargs(screen))


async def in_time(
    interaction: discord.Interaction[Any],
    work: Awaitable[T],
    *,
    ephemeral: bool = False,
    thinking: bool = True,
) -> T:
    """``work`` (drawing a new message's image), with the interaction acknowledged first (a
    deferral, "thinking") when it is not done by ``ANSWER_BY_S`` after the interaction came;
    the caller then answers with ``bot.replies.send`` as usual (a followup after a deferral).
    ``thinking=False`` acknowledges a click that will edit its message (a deferred update):
    the caller then edits with ``edit_original_response``."""
    task = asyncio.ensure_future(work)
    if not interaction.response.is_done() and not await _drawn_in_time(interaction, task):
        await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
    return await task


async def _drawn_in_time(interaction: discord.Interaction[Any], task: asyncio.Future[Any]) -> bool:
    elapsed = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    done, _ = await asyncio.wait({task}, timeout=max(0.0, ANSWER_BY_S - elapsed))
    return bool(done)
