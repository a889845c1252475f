"""A loopback fake of Discord's REST API and gateway for tests and the local playground.

The real discord.py client talks to it when ``discord.http.Route.BASE`` is set to
:attr:`FakeDiscord.api_base` and ``DiscordWebSocket.DEFAULT_GATEWAY`` to
:attr:`FakeDiscord.gateway_url`. It records every request, keeps the messages the bot sends,
answers the login and command-sync calls, and pushes INTERACTION_CREATE payloads built from the
synced command schema (slash commands, button clicks, select choices, modal submits,
autocomplete) for any user, channel, guild and locale.

Typical use::

    fake = FakeDiscord()
    await fake.start()
    ...  # start a bot pointed at fake.api_base / fake.gateway_url
    await fake.wait_until_ready()
    ex = await fake.slash("roll", {"ausdruck": "3W6"}, user="alice", locale="de")
    message = await ex.message()          # the visible answer, after a defer as well
    click = await fake.click(message, "essenz:1:0:a", user="bob")
    await click.callback()                # the raw callback (type 7 for an update)
    await fake.stop()

Like Discord, it refuses bodies over Discord's payload limits (:mod:`bot.sandbox.fake_limits`:
content, embeds, components, modals, autocomplete choices, flags, command schemas, file sizes) with
HTTP 400 ``{"code": 50035, "message": "Invalid Form Body", "errors": {...}}``; each refusal is
kept in :attr:`FakeDiscord.refused` and (unless ``report_refusals=False``) reported as a bot
error, so no test passes with a reply Discord would refuse.

Waiting helpers raise :class:`FakeTimeout` (an ``AssertionError``) with the latest requests in
the message, and :class:`BotFailed` as soon as an error was reported with :meth:`report_error`.

The package follows the fake's sections: :mod:`.model` (constants, errors and the values: users,
channels, guilds, stored messages, exchanges), :mod:`.base` (the records, waiting, lookups,
threads), :mod:`.gateway`, :mod:`.rest` (routes, refusals, messages, interaction answers),
:mod:`.interactions` (what a test pushes as a user) and :mod:`.server` (``FakeDiscord``: start
and stop). Import from the package: every name below is re-exported here.
"""

from bot.sandbox.fake_discord.model import (
    ACTION_ROW,
    ALL_PERMISSIONS,
    API_PREFIX,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    BOT_ID,
    BUTTON,
    CALLBACK_AUTOCOMPLETE,
    CALLBACK_DEADLINE,
    CALLBACK_DEFER,
    CALLBACK_DEFER_UPDATE,
    CALLBACK_MESSAGE,
    CALLBACK_MODAL,
    CALLBACK_UPDATE,
    CHANNEL_SELECT,
    CREATE_PUBLIC_THREADS,
    DEFAULT_TIMEOUT,
    DISCORD_EPOCH_MS,
    EMPTY,
    EPHEMERAL,
    FIRST_CHANNEL_ID,
    GUILD_ID,
    JSON_CONTENT_TYPE,
    LABEL,
    LOADING,
    LOCALE_ALIASES,
    MENTIONABLE_SELECT,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    OPT_ATTACHMENT,
    OPT_BOOLEAN,
    OPT_CHANNEL,
    OPT_GROUP,
    OPT_INTEGER,
    OPT_MENTIONABLE,
    OPT_NUMBER,
    OPT_ROLE,
    OPT_STRING,
    OPT_SUBCOMMAND,
    OPT_USER,
    PING,
    PUBLIC_THREAD,
    ROLE_SELECT,
    SELECT_TYPES,
    SEND_MESSAGES_IN_THREADS,
    STRING_SELECT,
    TEXT_INPUT,
    THREAD_ARCHIVE_MINUTES,
    USER_SELECT,
    BotFailed,
    CallbackTooLate,
    Exchange,
    FakeChannel,
    FakeGuild,
    FakeTimeout,
    FakeUser,
    PayloadRefused,
    RecordedRequest,
    Reply,
    StoredAttachment,
    StoredMessage,
    UploadedFile,
    default_guild,
    guild_on_shard,
    pinged,
    shard_of,
    stable_user_id,
)
from bot.sandbox.fake_discord.server import FakeDiscord

__all__ = [
    "ACTION_ROW",
    "ALL_PERMISSIONS",
    "API_PREFIX",
    "APPLICATION_COMMAND",
    "AUTOCOMPLETE",
    "BOT_ID",
    "BUTTON",
    "CALLBACK_AUTOCOMPLETE",
    "CALLBACK_DEADLINE",
    "CALLBACK_DEFER",
    "CALLBACK_DEFER_UPDATE",
    "CALLBACK_MESSAGE",
    "CALLBACK_MODAL",
    "CALLBACK_UPDATE",
    "CHANNEL_SELECT",
    "CREATE_PUBLIC_THREADS",
    "DEFAULT_TIMEOUT",
    "DISCORD_EPOCH_MS",
    "EMPTY",
    "EPHEMERAL",
    "FIRST_CHANNEL_ID",
    "GUILD_ID",
    "JSON_CONTENT_TYPE",
    "LABEL",
    "LOADING",
    "LOCALE_ALIASES",
    "MENTIONABLE_SELECT",
    "MESSAGE_COMPONENT",
    "MODAL_SUBMIT",
    "OPT_ATTACHMENT",
    "OPT_BOOLEAN",
    "OPT_CHANNEL",
    "OPT_GROUP",
    "OPT_INTEGER",
    "OPT_MENTIONABLE",
    "OPT_NUMBER",
    "OPT_ROLE",
    "OPT_STRING",
    "OPT_SUBCOMMAND",
    "OPT_USER",
    "PING",
    "PUBLIC_THREAD",
    "ROLE_SELECT",
    "SELECT_TYPES",
    "SEND_MESSAGES_IN_THREADS",
    "STRING_SELECT",
    "TEXT_INPUT",
    "THREAD_ARCHIVE_MINUTES",
    "USER_SELECT",
    "BotFailed",
    "CallbackTooLate",
    "Exchange",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeTimeout",
    "FakeUser",
    "PayloadRefused",
    "RecordedRequest",
    "Reply",
    "StoredAttachment",
    "StoredMessage",
    "UploadedFile",
    "default_guild",
    "guild_on_shard",
    "pinged",
    "shard_of",
    "stable_user_id",
]
