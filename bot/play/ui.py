"""Discord components for the shared game table: the board message as sent or edited,
buttons and views made for sending (no callbacks kept: every click is routed by its
``custom_id``), and click paths written into a ``custom_id`` and read back.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

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
