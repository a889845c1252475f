"""The Discord side of every game's life cycle, once: invitations, clicking through decisions,
the live board message, bot turns, idle reminders and forfeits, rematch and export.

A game cog composes one :class:`GameTable` with its :class:`~bot.play.spec.GameSpec` and
routes its commands to it; every click of the game's components (``custom_id`` prefix
``spec.prefix``) reaches :meth:`GameTable.on_component`. Nothing is kept in memory: every
choice so far lives in the ``custom_id``, so a button works after a restart.

``custom_id``: ``<prefix>:<game>:<token>:<op>:…``, where op is

- ``p:<path>[:<menu>]`` one click choice (a button carries the path with its token, a select
  the path before it); token: the id of the decision it was made for, so a click is stale
  exactly when that decision is answered, whatever other seats did meanwhile. The path is
  its tokens joined by ``.``, or option numbers (``#2``) where tokens are long or odd, so
  every ``custom_id`` fits Discord's 100 characters;
- ``pg:<path>:<page>`` the next page of options that did not fit (never dropped silently);
- ``o`` opens a decision privately (an ephemeral prompt built from that seat's view), for
  decisions of players whose turn it is not (reactions) and for games with private options;
- ``v`` shows the clicker their private view (a hand), ephemerally;
- ``m:<verb>`` resign (asked first) / draw votes; token: the game's revision;
- ``r`` rematch (token: the finished game's revision; one per game however often clicked);
- ``inv:<what>`` the invitation (token: the revision it was made for; answers per seat).

The game's ``display`` data (written without a revision bump) keep the players' names, its one
living board (the message, the revision and picture it shows, whom it called, its running
log), the language of the public board and the game's home (the thread it moved into from its
invitation, or why it has none): every screen goes through :meth:`GameTable.show`, which edits
the board in place and posts a new one (the old one stripped to a line) only when the person
to act changes after other messages came in between.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from discord.ext import tasks

from bot.play.spec import GameSpec, Option, Steps
from bot.play.table_base import (
    GUILD_LANGUAGE_PREF,
    IDLE_CHECK_MINUTES,
    LOG_LINES,
    REFRESH_WINDOW_S,
    ROW_BUTTONS,
    THREADS_PREF,
    GameInfo,
    channel_of,
    distinct_names,
    is_private,
    lobby_seat_of,
    shorten_line,
)
from bot.play.table_clicks import TableClicks
from bot.play.ui import Screen
from bot.store import StoreBusy
from bot.store.base import storage_failure

log = logging.getLogger("spielleiter.play")


class GameTable(TableClicks):
    """One game's Discord life cycle, for any engine (see the module docs), in layers, each
    calling only the ones below: ``table_base`` (display data, records), ``table_board``
    (screens, the game's home), ``table_show`` (the living board, the bot, the idle sweep),
    ``table_start`` (seating, invitation, first board), ``table_prompt`` (click paths and
    prompts), ``table_clicks`` (clicks and typed steps); here the routing and the sweep."""

    def __init__(self, bot: Any, spec: GameSpec) -> None:
        super().__init__(bot, spec)
        self.idle_loop = tasks.loop(minutes=IDLE_CHECK_MINUTES)(self._idle_tick)
        self._boards_refreshed = False  # see refresh_boards

    def register(self) -> None:
        """Route the game's components here (the cog's ``cog_load``)."""
        self.bot.components.register(self.spec.prefix, self.on_component)

    def unregister(self) -> None:
        """Stop routing and sweeping (the cog's ``cog_unload``)."""
        self.bot.components.unregister(self.spec.prefix)
        self.idle_loop.cancel()

    def start_sweeping(self) -> None:
        """Sweep idle games every minute once connected (the cog's ``on_ready``; not at load:
        a bot that only loads its cogs, e.g. to print the command schema, never connects)."""
        if not self.idle_loop.is_running():
            self.idle_loop.start()

    async def _idle_tick(self) -> None:
        try:
            if not self._boards_refreshed:  # the first sweep after start-up
                self._boards_refreshed = True
                await self.refresh_boards(time.time() - REFRESH_WINDOW_S)
            await self.sweep_idle(time.time())
        except StoreBusy:  # a database locked from outside: the next sweep does it
            log.warning("the idle sweep found the database busy; it tries again next time")
        except Exception as error:
            if storage_failure(error) is None:
                log.exception("the idle sweep of %s failed", self.spec.kind)
            else:  # the database is away or full: the next sweep tries again
                log.warning("the idle sweep of %s found no storage: %r", self.spec.kind, error)


__all__ = [
    "GUILD_LANGUAGE_PREF",
    "LOG_LINES",
    "ROW_BUTTONS",
    "THREADS_PREF",
    "GameInfo",
    "GameTable",
    "Option",
    "Screen",
    "Steps",
    "channel_of",
    "distinct_names",
    "is_private",
    "lobby_seat_of",
    "shorten_line",
]
