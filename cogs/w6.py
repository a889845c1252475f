"""What the W6 cogs share: the campaign of a channel, who may do what, writing to the
campaign log, finding characters by name or id — each a call of
``bot.services.campaigns.CampaignService`` with what the interaction says (channel, user);
the words they show are ``bot.narration.w6``'s.

``cogs.w6_campaign`` (``/kampagne``), ``cogs.w6_sheets`` (``/charakter``, ``/sl``) and
``cogs.combat`` (``/kampf``) are the extensions; this module has no commands of its own.
Every permission failure raises ``IllegalAction`` with a ``w6cog.*`` key, so it takes
the one error path (an ephemeral message that changes nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands

from bot.i18n import cmd
from bot.services.campaigns import (
    BOOL_RULES,
    RULES_KEY,
    CampaignService,
    campaign_rules,
    clean_rules,
    load_sheet,
    require_gm,
)

if TYPE_CHECKING:
    from bot.app import SpielleiterBot
    from bot.services.campaigns import CampaignRecord, CharacterRecord

AUTOCOMPLETE_LIMIT = 25
__all__ = [
    "AUTOCOMPLETE_LIMIT", "BOOL_RULES", "RULES_KEY", "bot_of", "campaign_here",
    "campaign_rules", "campaigns", "channel_of", "character_choices", "character_option",
    "clean_rules", "find_character", "load_sheet", "log", "require_gm",
]  # fmt: skip


def bot_of(interaction: discord.Interaction[Any]) -> SpielleiterBot:
    client: SpielleiterBot = interaction.client
    return client


def campaigns(interaction: discord.Interaction[Any]) -> CampaignService:
    """The campaign service on the bot's store."""
    return CampaignService(bot_of(interaction).store)


def channel_of(interaction: discord.Interaction[Any]) -> int:
    """The channel a campaign lives in (a DM: the user's own)."""
    return interaction.channel_id or interaction.user.id


async def campaign_here(interaction: discord.Interaction[Any]) -> CampaignRecord:
    """The active campaign of this channel. Raises IllegalAction("w6cog.error.no_campaign")."""
    return await campaigns(interaction).here(channel_of(interaction))


async def log(
    interaction: discord.Interaction[Any], campaign: CampaignRecord, kind: str, **data: Any
) -> None:
    """One campaign-log entry (``kind``: check, damage, heal, rest, combat, sheet, campaign)."""
    await campaigns(interaction).log(campaign, interaction.user.id, kind, **data)


async def find_character(
    interaction: discord.Interaction[Any], campaign: CampaignRecord, text: str | None
) -> CharacterRecord:
    """The character named (or numbered) ``text``, else the user's active one; for a player
    never an NPC. Raises BadInput("w6cog.error.no_character"/"no_active")."""
    return await campaigns(interaction).find_character(campaign, interaction.user.id, text)


async def character_choices(
    interaction: discord.Interaction[Any], current: str, *, npcs_only: bool = False
) -> list[app_commands.Choice[str]]:
    """Autocomplete: the campaign's characters whose name contains ``current`` (own first);
    NPCs only for the GMs (their names are the GM's, as in ``/charakter liste``)."""
    found = await campaigns(interaction).matching(
        channel_of(interaction), interaction.user.id, current, npcs_only=npcs_only
    )
    return [
        app_commands.Choice(name=_choice_label(r)[:100], value=str(r.id))
        for r in found[:AUTOCOMPLETE_LIMIT]
    ]


CommandFunc = TypeVar("CommandFunc", bound=Callable[..., Any])


def character_option(func: CommandFunc) -> CommandFunc:
    """Names and describes a command's ``charakter`` option in the reader's language."""
    named = app_commands.rename(charakter=cmd("w6cog.opt.character.name"))(func)
    described: CommandFunc = app_commands.describe(charakter=cmd("w6cog.opt.character.desc"))(named)
    return described


def _choice_label(record: CharacterRecord) -> str:
    return f"{record.name} (NSC)" if record.owner_id is None else record.name
