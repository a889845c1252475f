"""Replying to an interaction, and the one error path.

Engine errors (``EngineError``: illegal action, bad input, stale click) become an ephemeral
message in the user's language. Anything unexpected becomes an ephemeral "something went
wrong (code X)" and a log line with the same code and the traceback.
"""

from __future__ import annotations

import io
import logging
import secrets
import time
from typing import Any, Protocol

import discord
from discord import app_commands

from bot import fit
from bot.i18n import language_of, t
from bot.store.base import Store, storage_failure
from engines.core import EngineError


class StoreClient(Protocol):
    """The client as the replies use it: its store (the bot's ``SpielleiterBot``; the type
    named so that the replies, imported by the application, do not import it back)."""

    store: Store


log = logging.getLogger("spielleiter.errors")
LANGUAGE_PREF = "language"


# How long a user's chosen language is known without asking the database again: every
# interaction starts by asking it, and under load that read waits behind the heavy commands'
# writes. A language chosen in another shard process is seen here within this time.
LANGUAGE_SECONDS = 60.0


async def lang_for(interaction: discord.Interaction[Any]) -> str:
    """The user's chosen language (``/sprache``), else the one of their Discord client (also
    when the database cannot be read: the answer must not wait for it)."""
    client: StoreClient = interaction.client
    known: dict[int, tuple[str | None, float]] | None = getattr(client, "languages", None)
    user = interaction.user.id
    now = time.monotonic()
    if known is not None and user in known and known[user][1] > now:
        chosen = known[user][0]
    else:
        try:
            chosen = await client.store.get_pref(user, LANGUAGE_PREF)
        except Exception as error:
            if storage_failure(error) is None:
                raise
            log.warning("language of %s from the client: %s", _describe(interaction), error)
            return language_of(interaction.locale)
        remember_language(client, user, chosen)
    return chosen or language_of(interaction.locale)


def remember_language(client: Any, user_id: int, chosen: str | None) -> None:
    """``user_id`` chose ``chosen`` (None: their client's): known for ``LANGUAGE_SECONDS``."""
    known: dict[int, tuple[str | None, float]] | None = getattr(client, "languages", None)
    if known is None:
        return
    if len(known) > LANGUAGES_KEPT:
        known.clear()
    known[user_id] = (chosen, time.monotonic() + LANGUAGE_SECONDS)


LANGUAGES_KEPT = 50_000


def pinging(*user_ids: int) -> discord.AllowedMentions:
    """The mentions a message may notify: only these users. The bot's default (``create_bot``)
    is no mentions at all, so a name, note or narration that reads ``@everyone`` or ``<@id>``
    pings nobody; a message that means to call someone passes this as ``allowed_mentions``."""
    users = [discord.Object(user_id) for user_id in dict.fromkeys(user_ids)]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


async def send(
    interaction: discord.Interaction[Any],
    content: str | None = None,
    *,
    ephemeral: bool = False,
    **kwargs: Any,
) -> None:
    """Reply, or follow up when the interaction was already answered or deferred; text and
    embeds too long for Discord are shortened with a note (:mod:`bot.fit`)."""
    content, kwargs = await fit_reply(interaction, content, kwargs)
    if interaction.response.is_done():
        text = discord.utils.MISSING if content is None else content
        await interaction.followup.send(text, ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)


async def fit_reply(
    interaction: discord.Interaction[Any], content: str | None, kwargs: dict[str, Any]
) -> tuple[str | None, dict[str, Any]]:
    """``content`` and the ``embed``/``embeds`` in ``kwargs`` made to fit Discord's limits (the
    user's language is looked up only when something has to be shortened)."""
    embeds = ([kwargs["embed"]] if kwargs.get("embed") else []) + list(kwargs.get("embeds") or [])
    too_long = content is not None and len(content) > fit.CONTENT
    if not too_long and not fit.embeds_too_long(embeds):
        return content, kwargs
    lang = await lang_for(interaction)
    if content is not None:
        content = fit.shorten(content, fit.CONTENT, lang)
    fit.fit_embeds(embeds, lang)
    return content, kwargs


async def send_error(
    interaction: discord.Interaction[Any], key: str, *, lang: str | None = None, **params: Any
) -> None:
    """An ephemeral message from the catalog, in the user's language (``lang``: already
    known). Parameters are cut (:func:`bot.fit.fit_params`): they often repeat what the user
    typed, at any length. An autocomplete is answered with no choices (it shows no message)."""
    if interaction.type == discord.InteractionType.autocomplete:
        if not interaction.response.is_done():
            await interaction.response.autocomplete([])
        return
    lang = lang or await lang_for(interaction)
    await send(interaction, t(key, lang, **fit.fit_params(params, lang)), ephemeral=True)


async def handle_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """The one place an exception from a command, button, select or modal ends up. It never
    raises (an exception here would only be logged as "Task exception was never retrieved")
    and never needs the database: a database that cannot be reached or written is said in the
    language of the user's client."""
    original = _unwrap(error)
    try:
        if failure := storage_failure(original):
            log.warning("storage failed in %s: %r", _describe(interaction), original)
            await send_error(interaction, failure, lang=language_of(interaction.locale))
        elif isinstance(original, EngineError):
            await send_error(interaction, original.key, **original.params)
        elif isinstance(original, app_commands.CheckFailure):
            await send_error(interaction, "error.not_allowed")
        elif isinstance(original, app_commands.TransformerError):
            await send_error(interaction, "error.bad_option", value=str(original.value)[:100])
        else:
            code = secrets.token_hex(3)
            log.error("unexpected error %s in %s", code, _describe(interaction), exc_info=original)
            await send_error(interaction, "error.unexpected", code=code)
    except Exception:  # the answer itself failed (Discord refused it, the storage went away)
        log.exception("could not tell the user about an error in %s", _describe(interaction))


def _unwrap(error: BaseException) -> BaseException:
    """The exception a command raised, out of discord.py's wrappers (``.original``)."""
    while isinstance(error, app_commands.AppCommandError):
        inner = getattr(error, "original", None)
        if inner is None:
            break
        error = inner
    return error


def _describe(interaction: discord.Interaction[Any]) -> str:
    command = interaction.command.qualified_name if interaction.command else None
    custom_id = interaction.data.get("custom_id") if interaction.data else None
    return f"interaction {interaction.id} ({command or custom_id}) by user {interaction.user.id}"


def png_file(data: bytes, name: str) -> discord.File:
    """A PNG attachment (``name`` without extension)."""
    return discord.File(io.BytesIO(data), filename=f"{name}.png")
