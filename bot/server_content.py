"""Who may change a server's own content files (a Felsenfeuer spellbook, Telperinquár cards):
one rule for every game, worded by each game's own messages."""

from __future__ import annotations

from typing import Any

import discord

from engines.core import BadInput


def managed_guild(interaction: discord.Interaction[Any], texts: str) -> int:
    """The server whose content the user may change: someone with Manage Server, or the
    server's owner. Raises BadInput ``<texts>.error.server_only`` in a direct message and
    ``<texts>.error.not_manager`` for anyone else."""
    guild_id = interaction.guild_id
    if guild_id is None:
        raise BadInput(f"{texts}.error.server_only")
    owner = interaction.guild is not None and interaction.guild.owner_id == interaction.user.id
    if not (owner or interaction.permissions.manage_guild):
        raise BadInput(f"{texts}.error.not_manager")
    return guild_id
