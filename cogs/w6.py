"""What the W6 cogs share: the campaign of a channel, who may do what, writing to the
campaign log, finding characters by name or id (the words they show are
``bot.narration.w6``'s).

``cogs.w6_campaign`` (``/kampagne``), ``cogs.w6_sheets`` (``/charakter``, ``/sl``) and
``cogs.combat`` (``/kampf``) are the extensions; this module has no commands of its own.
Every permission failure raises ``IllegalAction`` with a ``w6cog.error.*`` key, so it takes
the one error path (an ephemeral message that changes nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands

from bot.i18n import cmd
from bot.store.base import CampaignRecord, CharacterRecord
from engines.core import BadInput, IllegalAction
from engines.w6.sheet import Sheet
from engines.w6.sheet_io import sheet_from_stored, sheet_to_json
from engines.w6.state import OPTIONAL_RULES

if TYPE_CHECKING:
    from bot.app import SpielleiterBot

AUTOCOMPLETE_LIMIT = 25
RULES_KEY = "regeln"
BOOL_RULES = OPTIONAL_RULES  # the engine's names


def bot_of(interaction: discord.Interaction[Any]) -> SpielleiterBot:
    client: SpielleiterBot = interaction.client
    return client


# ----------------------------------------------------------------------------- campaigns


async def campaign_here(interaction: discord.Interaction[Any]) -> CampaignRecord:
    """The active campaign of this channel. Raises IllegalAction("w6cog.error.no_campaign")."""
    campaign = await bot_of(interaction).store.active_campaign(_channel_id(interaction))
    if campaign is None:
        raise IllegalAction("w6cog.error.no_campaign")
    return campaign


def _channel_id(interaction: discord.Interaction[Any]) -> int:
    return interaction.channel_id or interaction.user.id


def require_gm(campaign: CampaignRecord, user_id: int) -> None:
    """Raises IllegalAction("w6cog.error.gm_only") unless ``user_id`` leads the campaign."""
    if not campaign.is_gm(user_id):
        raise IllegalAction("w6cog.error.gm_only")


def campaign_rules(campaign: CampaignRecord) -> dict[str, bool]:
    """The optional rules switched on or off for the campaign (engine setting names)."""
    return clean_rules(campaign.settings.get(RULES_KEY, {}))


def clean_rules(rules: Any) -> dict[str, bool]:
    """Only known rules with true/false values (an imported file may hold anything)."""
    if not isinstance(rules, dict):
        return {}
    return {k: v for k, v in rules.items() if k in BOOL_RULES and isinstance(v, bool)}


async def log(
    interaction: discord.Interaction[Any], campaign: CampaignRecord, kind: str, **data: Any
) -> None:
    """One campaign-log entry (``kind``: check, damage, heal, rest, combat, sheet, campaign)."""
    await bot_of(interaction).store.add_log(campaign.id, interaction.user.id, kind, data)


# ----------------------------------------------------------------------------- characters


async def find_character(
    interaction: discord.Interaction[Any], campaign: CampaignRecord, text: str | None
) -> CharacterRecord:
    """The character named (or numbered, from autocomplete) ``text`` in the campaign, else the
    user's active one; for a player never an NPC (a hidden NPC and a missing name read the
    same). Raises BadInput("w6cog.error.no_character"/"no_active")."""
    store = bot_of(interaction).store
    if not text:
        active = await store.active_character(campaign.id, interaction.user.id)
        if active is None:
            raise BadInput("w6cog.error.no_active")
        return active
    records = await store.characters(campaign.id)
    if not campaign.is_gm(interaction.user.id):
        # an NPC is the GM's: for a player it reads exactly like a name nobody has
        records = [r for r in records if r.owner_id is not None]
    wanted = text.strip()
    for record in records:
        if wanted == f"#{record.id}" or wanted == str(record.id):
            return record
    matches = [r for r in records if r.name.casefold() == wanted.casefold()]
    mine = [r for r in matches if r.owner_id == interaction.user.id]
    if mine or matches:
        return (mine or matches)[0]
    raise BadInput("w6cog.error.no_character", name=wanted[:64])


async def character_choices(
    interaction: discord.Interaction[Any], current: str, *, npcs_only: bool = False
) -> list[app_commands.Choice[str]]:
    """Autocomplete: the campaign's characters whose name contains ``current`` (own first);
    NPCs only for the GMs (their names are the GM's, as in ``/charakter liste``)."""
    campaign = await bot_of(interaction).store.active_campaign(_channel_id(interaction))
    if campaign is None:
        return []
    records = await bot_of(interaction).store.characters(campaign.id)
    if npcs_only:
        records = [r for r in records if r.owner_id is None]
    if not campaign.is_gm(interaction.user.id):
        records = [r for r in records if r.owner_id is not None]
    needle = current.casefold()
    found = [r for r in records if needle in r.name.casefold()]
    found.sort(key=lambda r: (r.owner_id != interaction.user.id, r.name.casefold()))
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


def load_sheet(record: CharacterRecord) -> Sheet:
    """The stored sheet (control characters an older import let in read as spaces).
    Raises BadInput (a stored sheet that no longer validates)."""
    return sheet_from_stored(record.sheet)


def sheet_json(sheet: Sheet) -> dict[str, Any]:
    return sheet_to_json(sheet)
