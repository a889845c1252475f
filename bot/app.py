"""The Discord client: points discord.py at the configured API, opens the store, loads the
cogs, syncs slash commands when their schema changed, and routes components."""

from __future__ import annotations

import asyncio
import functools
import gc
import hashlib
import json
import logging
import sys
from collections.abc import Callable, Coroutine
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.chance import Chance
from bot.components import ComponentRouter
from bot.i18n import CatalogTranslator
from bot.replies import handle_error
from bot.settings import Settings
from bot.store import Store, StoreBusy, is_postgres, store_for
from bot.store.base import storage_failure
from bot.web.server import WebServer
from bot.workers import stop_worker_processes, use_worker_processes

log = logging.getLogger("spielleiter")

COGS = (
    "cogs.core",
    "cogs.w6_campaign",
    "cogs.w6_sheets",
    "cogs.combat",
    "cogs.dice",
    "cogs.essence",
    "cogs.felsenfeuer",
    "cogs.telperinquar",
    "cogs.telperinquar_draft",
    "cogs.armageddon",
    "cogs.web",
)
SCHEMA_META_KEY = "command_schema_hash"


def point_at_api(api_base_url: str, gateway_url: str | None) -> None:
    """Send every REST, webhook and gateway request of discord.py to the given URLs."""
    discord.http.Route.BASE = api_base_url.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord routes a guild's events to (direct messages: shard 0)."""
    return 0 if guild_id is None else (guild_id >> 22) % max(1, shard_count)


class SpielleiterBot(commands.AutoShardedBot):
    """The bot. ``store``, ``components`` and ``settings`` are what cogs use.

    It runs the shards the settings name (default: as many as Discord recommends, all here);
    several processes with their own shard ids can share one PostgreSQL database. Background
    work on a stored game belongs to the process that runs the shard of its guild
    (:meth:`owns_guild`).
    """

    def __init__(
        self, settings: Settings, store: Store | None = None, *, auto_sync: bool = True
    ) -> None:
        intents = discord.Intents.default()  # no privileged intents: slash commands only
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            # Every message echoes user text (names, notes, narration): by default it pings
            # nobody; a message that calls someone names them (``bot.replies.pinging``).
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=settings.shard_count,
            **_shard_ids(settings),
        )
        self.settings = settings
        self.store: Store = store or default_store(settings)
        self.components = ComponentRouter()
        self.auto_sync = auto_sync
        self.freeze_heap = False  # the real process sets it (see freeze_startup_heap)
        self.chance = Chance(settings.seed)
        # the web companion, when SPIELLEITER_WEB_PORT is set (started in setup_hook)
        self.web: WebServer | None = None
        self.languages: dict[int, tuple[str | None, float]] = {}  # see bot.replies.lang_for
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        if self.shard_ids is not None and not is_postgres(self.settings.database):
            log.warning(
                "this process runs shards %s of %s on SQLite: other shard processes need the"
                " same database, so set SPIELLEITER_DATABASE_URL=postgresql://...",
                list(self.shard_ids),
                self.shard_count,
            )
        await self.store.open()
        if self.settings.render_processes:
            await asyncio.to_thread(use_worker_processes, self.settings.render_processes)
        await self.load_cogs()
        if self.settings.web_port is not None:
            await self.start_web()
        # commands are global: with several shard processes the one running shard 0 syncs them
        if self.auto_sync and self.owns_guild(None):
            await self.sync_if_changed()
        if self.freeze_heap:
            freeze_startup_heap()

    async def start_web(self) -> None:
        """Serve the web companion (``bot/web``). A port that cannot be had (taken by another
        process) is said in one line and the bot runs without it (``/web`` says it is off)."""
        bot_id = self.user.id if self.user is not None else 0
        server = WebServer(self.store, self.settings, bot_id=bot_id)
        try:
            await server.start()
        except OSError as error:
            await server.stop()
            log.warning(
                "the web companion cannot listen on %s:%s (%s); it stays off",
                self.settings.web_host,
                self.settings.web_port,
                error.strerror or error,
            )
            return
        self.web = server

    async def load_cogs(self) -> None:
        """Set the translator and add every cog (no network needed)."""
        await self.tree.set_translator(CatalogTranslator())
        for name in COGS:
            await self.load_extension(name)
        guard_autocompletes(self.tree)

    async def close(self) -> None:
        await self.finish_interactions()
        if self.web is not None:
            await self.web.stop()
        await super().close()
        await self.store.close()
        if self.settings.render_processes:
            stop_worker_processes()

    async def finish_interactions(self, timeout: float = 30.0) -> None:
        """Wait (at most ``timeout`` seconds) for the interactions still being handled (a bot
        thinking about its move, an import being written), so that closing does not pull the
        database away under them. Called by :meth:`close`."""
        current = asyncio.current_task()
        pending = [
            task
            for task in asyncio.all_tasks()
            if task is not current and not task.done() and _handles_an_interaction(task)
        ]
        if pending:
            await asyncio.wait(pending, timeout=timeout)

    def owns_guild(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard of ``guild_id`` (None: a DM, shard 0), so that
        idle reminders, forfeits and resumed bot turns of a game happen in one process only."""
        if self.shard_ids is None:
            return True  # every shard of the bot runs here
        return shard_of(guild_id, self.shard_count or 1) in self.shard_ids

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        await self.components.dispatch(interaction)

    async def _on_tree_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await handle_error(interaction, error)

    def _sync_target(self, guild_id: int | None) -> discord.Object | None:
        target = guild_id if guild_id is not None else self.settings.dev_guild_id
        return discord.Object(target) if target is not None else None

    async def command_schema(self) -> list[dict[str, Any]]:
        """The payload a sync would send, with every translation (for the change check)."""
        translator = self.tree.translator
        payloads = []
        for command in sorted(self.tree.get_commands(), key=lambda c: c.name):
            if translator is None:
                payloads.append(command.to_dict(self.tree))
            else:
                payloads.append(await command.get_translated_payload(self.tree, translator))
        return payloads

    async def schema_hash(self) -> str:
        text = json.dumps(await self.command_schema(), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()

    async def sync_commands(self, guild_id: int | None = None) -> int:
        """Register the slash commands globally or to one guild. Returns their count."""
        target = self._sync_target(guild_id)
        if target is not None:
            self.tree.copy_global_to(guild=target)
        synced = await self.tree.sync(guild=target)
        try:
            await self.store.set_meta(self._meta_key(target), await self.schema_hash())
        except StoreBusy:  # locked from outside: start anyway; the next start syncs again
            log.warning("database busy: the synced command schema is not recorded")
        where = f"to guild {target.id}" if target else "globally"
        log.info("synced %d commands %s", len(synced), where)
        return len(synced)

    async def sync_if_changed(self) -> bool:
        target = self._sync_target(None)
        stored = await self.store.get_meta(self._meta_key(target))
        if stored == await self.schema_hash():
            log.info("command schema unchanged; no sync needed")
            return False
        await self.sync_commands()
        return True

    @staticmethod
    def _meta_key(target: discord.Object | None) -> str:
        return SCHEMA_META_KEY if target is None else f"{SCHEMA_META_KEY}:{target.id}"


def guard_autocompletes(tree: app_commands.CommandTree[Any]) -> None:
    """Every autocomplete of ``tree`` answered with no choices when the database cannot be
    reached or written (discord.py would log the error and leave the user's list loading)."""
    for command in tree.walk_commands():
        if not isinstance(command, app_commands.Command):
            continue
        for param in command._params.values():
            if param.autocomplete is not None and not hasattr(param.autocomplete, "__guarded__"):
                param.autocomplete = _guarded(param.autocomplete)


def _guarded(
    complete: Callable[..., Coroutine[Any, Any, Any]],
) -> Callable[..., Coroutine[Any, Any, Any]]:
    @functools.wraps(complete)
    async def guarded(*args: Any) -> Any:
        try:
            return await complete(*args)
        except Exception as error:
            if storage_failure(error) is None:
                raise
            log.warning("autocomplete without the storage: %r", error)
            return []

    guarded.__guarded__ = True  # type: ignore[attr-defined]
    return guarded


def _handles_an_interaction(task: asyncio.Task[Any]) -> bool:
    """discord.py's own task names: app commands and dispatched ``on_interaction`` events."""
    name = task.get_name()
    return name == "CommandTree-invoker" or name == "discord.py: on_interaction"


def freeze_startup_heap() -> None:
    """Keep everything allocated at start-up (discord.py, the dice grammar, fonts, catalogs)
    out of the cyclic garbage collector's way. Without it, a full collection that falls into a
    large roll walks every start-up object: the 1000-die roll's p99 was ~50 ms of GC, not dice.
    Only for the real process: a test session that starts many bots would keep their garbage.

    Also hands the interpreter back to the event loop sooner: a thread rolling a thousand
    dice holds it for the whole switch interval (5 ms by default) each time the loop waits
    for a socket, which under fifty such rolls made light answers wait hundreds of ms."""
    gc.collect()
    gc.freeze()
    sys.setswitchinterval(LOOP_SWITCH_S)


LOOP_SWITCH_S = 0.0005


def default_store(settings: Settings) -> Store:
    """The store the settings ask for: PostgreSQL for a ``postgresql://`` URL, else SQLite."""
    return store_for(settings.database)


def _shard_ids(settings: Settings) -> dict[str, Any]:
    return {} if settings.shard_ids is None else {"shard_ids": list(settings.shard_ids)}


def create_bot(
    settings: Settings, store: Store | None = None, *, auto_sync: bool = True
) -> SpielleiterBot:
    point_at_api(settings.api_base_url, settings.gateway_url)
    return SpielleiterBot(settings, store, auto_sync=auto_sync)
