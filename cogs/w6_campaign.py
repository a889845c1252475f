"""``/kampagne``: start a W6 campaign in a channel, hand the lead over, set optional rules,
read the log, archive, and move a whole campaign between channels as a JSON file."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import fit
from bot.app import SpielleiterBot
from bot.i18n import cmd, options, t
from bot.limits import DEFER_IMPORT_BYTES, MAX_IMPORT_BYTES
from bot.narration.w6 import EMBED_COLOUR, entry_line
from bot.replies import lang_for, pinging, send
from bot.services.campaigns import MAX_NAME, CampaignRecord, parse_import, require_main_gm
from cogs.w6 import (
    BOOL_RULES,
    campaign_here,
    campaign_rules,
    campaigns,
    channel_of,
    require_gm,
)
from engines.core import BadInput

logger = logging.getLogger(__name__)

LOG_PAGE = 20
DESCRIPTION_LIMIT = 4000


class W6Campaign(commands.Cog):
    kampagne = app_commands.Group(
        name=cmd("w6cog.cmd.campaign.name"), description=cmd("w6cog.cmd.campaign.desc")
    )

    def __init__(self, bot: SpielleiterBot) -> None:
        self.bot = bot

    @kampagne.command(
        name=cmd("w6cog.cmd.campaign.start.name"), description=cmd("w6cog.cmd.campaign.start.desc")
    )
    @options("w6cog.opt", name="campaign_name")
    async def start(
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, MAX_NAME],
    ) -> None:
        lang = await lang_for(interaction)
        campaign = await campaigns(interaction).start(
            interaction.guild_id, channel_of(interaction), name, interaction.user.id
        )
        text = t("w6cog.campaign.started", lang, name=campaign.name, gm=interaction.user.mention)
        await send(interaction, text)

    @kampagne.command(
        name=cmd("w6cog.cmd.campaign.info.name"), description=cmd("w6cog.cmd.campaign.info.desc")
    )
    async def info(self, interaction: discord.Interaction[Any]) -> None:
        lang = await lang_for(interaction)
        campaign = await campaign_here(interaction)
        characters = await campaigns(interaction).characters(campaign)
        await send(interaction, embed=self._info_embed(campaign, characters, lang))

    def _info_embed(
        self, campaign: CampaignRecord, characters: list[Any], lang: str
    ) -> discord.Embed:
        embed = discord.Embed(title=campaign.name, colour=EMBED_COLOUR)
        gms = [f"<@{campaign.gm_id}>"] + [f"<@{u}> (Co)" for u in campaign.co_gm_ids]
        embed.add_field(
            name=t("w6cog.campaign.gm", lang),
            value=fit.join_limited(gms, fit.FIELD_VALUE, lang),
            inline=False,
        )
        rules = campaign_rules(campaign)
        lines = [
            f"{t(f'w6cog.rule.{name}', lang)}: "
            f"{t('w6cog.on' if rules.get(name) else 'w6cog.off', lang)}"
            for name in BOOL_RULES
        ]
        embed.add_field(name=t("w6cog.campaign.rules", lang), value="\n".join(lines), inline=False)
        # Public: the players' characters; of the NPCs (the GM's) only how many there are.
        names = [f"{c.name} (<@{c.owner_id}>)" for c in characters if c.owner_id is not None]
        npcs = sum(1 for c in characters if c.owner_id is None)
        if npcs:
            key = "w6cog.campaign.npc_count" + (".one" if npcs == 1 else "")
            names.append(f"*{t(key, lang, count=npcs)}*")
        embed.add_field(
            name=t("w6cog.campaign.characters", lang),
            value=fit.join_limited(names, fit.FIELD_VALUE, lang, sep="\n") or "–",
            inline=False,
        )
        return fit.fit_embed(embed, lang)

    @kampagne.command(
        name=cmd("w6cog.cmd.campaign.list.name"), description=cmd("w6cog.cmd.campaign.list.desc")
    )
    async def liste(self, interaction: discord.Interaction[Any]) -> None:
        lang = await lang_for(interaction)
        found = await campaigns(interaction).of_guild(interaction.guild_id)
        lines = [
            t(
                f"w6cog.campaign.list_line.{c.status}",
                lang,
                name=c.name,
                channel=c.channel_id,
                gm=c.gm_id,
            )
            for c in found
        ]
        text = fit.join_limited(lines, DESCRIPTION_LIMIT, lang, sep="\n")
        embed = discord.Embed(
            title=t("w6cog.campaign.list_title", lang),
            description=text or t("w6cog.campaign.none", lang),
            colour=EMBED_COLOUR,
        )
        await send(interaction, embed=embed, ephemeral=True)

    @kampagne.command(
        name=cmd("w6cog.cmd.campaign.archive.name"),
        description=cmd("w6cog.cmd.campaign.archive.desc"),
    )
    async def archivieren(self, interaction: discord.Interaction[Any]) -> None:
        lang, campaign = await _gm_here(interaction)
        await campaigns(interaction).archive(campaign, interaction.user.id)
        await send(interaction, t("w6cog.campaign.archived", lang, name=campaign.name))

    @kampagne.command(
        name=cmd("w6cog.cmd.campaign.handover.name"),
        description=cmd("w6cog.cmd.campaign.handover.desc"),
    )
    @options("w6cog.opt", nutzer="user")
    async def uebergeben(self, interaction: discord.Interaction[Any], nutzer: discord.User) -> None:
        lang, campaign = await _main_gm_here(interaction, nutzer)
        await campaigns(interaction).hand_over(campaign, interaction.user.id, nutzer.id)
        text = t("w6cog.campaign.handed_over", lang, gm=nutzer.mention)
        await send(interaction, text, allowed_mentions=pinging(nutzer.id))  # tells the new GM

    @kampagne.command(
        name=cmd("w6cog.cmd.campaign.cogm.name"), description=cmd("w6cog.cmd.campaign.cogm.desc")
    )
    @options("w6cog.opt", nutzer="user", entfernen="remove")
    async def co_sl(
        self, interaction: discord.Interaction[Any], nutzer: discord.User, entfernen: bool = False
    ) -> None:
        lang, campaign = await _main_gm_here(interaction, nutzer)
        service = campaigns(interaction)
        await service.set_co_gm(campaign, interaction.user.id, nutzer.id, remove=entfernen)
        event = "cogm_removed" if entfernen else "cogm_added"
        key = f"w6cog.campaign.{event}"
        await send(
            interaction, t(key, lang, user=nutzer.mention), allowed_mentions=pinging(nutzer.id)
        )

    @kampagne.command(
        name=cmd("w6cog.cmd.campaign.rule.name"), description=cmd("w6cog.cmd.campaign.rule.desc")
    )
    @options("w6cog.opt", regel="rule", an="on")
    @app_commands.choices(
        regel=[
            app_commands.Choice(name=cmd(f"w6cog.rule.{name}"), value=name) for name in BOOL_RULES
        ]
    )
    async def regel(self, interaction: discord.Interaction[Any], regel: str, an: bool) -> None:
        lang, campaign = await _gm_here(interaction)
        await campaigns(interaction).set_rule(campaign, interaction.user.id, regel, an)
        state = t("w6cog.on" if an else "w6cog.off", lang)
        await send(
            interaction,
            t("w6cog.campaign.rule_set", lang, rule=t(f"w6cog.rule.{regel}", lang), state=state),
        )

    @kampagne.command(
        name=cmd("w6cog.cmd.campaign.log.name"), description=cmd("w6cog.cmd.campaign.log.desc")
    )
    @options("w6cog.opt", anzahl="count", datei="file")
    async def protokoll(
        self,
        interaction: discord.Interaction[Any],
        anzahl: app_commands.Range[int, 1, 100] = LOG_PAGE,
        datei: bool = False,
    ) -> None:
        lang = await lang_for(interaction)
        campaign = await campaign_here(interaction)
        visible = await campaigns(interaction).visible_log(
            campaign, interaction.user.id, everything=datei
        )
        if datei:
            body = json.dumps(visible, ensure_ascii=False, indent=2).encode()
            file = discord.File(io.BytesIO(body), filename="kampagne-log.json")
            await send(interaction, t("w6cog.campaign.log_file", lang), file=file, ephemeral=True)
            return
        lines = [entry_line(entry, lang) for entry in visible[-anzahl:]]
        text = "\n".join(lines) or t("w6cog.campaign.log_empty", lang)
        while len(text) > DESCRIPTION_LIMIT:
            text = text.split("\n", 1)[1] if "\n" in text else text[-DESCRIPTION_LIMIT:]
        embed = discord.Embed(
            title=t("w6cog.campaign.log_title", lang, name=campaign.name),
            description=text,
            colour=EMBED_COLOUR,
        )
        await send(interaction, embed=embed, ephemeral=True)

    @kampagne.command(
        name=cmd("w6cog.cmd.campaign.export.name"),
        description=cmd("w6cog.cmd.campaign.export.desc"),
    )
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        lang, campaign = await _gm_here(interaction)
        data, count = await campaigns(interaction).export(campaign)
        body = json.dumps(data, ensure_ascii=False, indent=2).encode()
        file = discord.File(io.BytesIO(body), filename="kampagne.json")
        text = t("w6cog.campaign.exported", lang, name=campaign.name, count=count)
        await send(interaction, text, file=file, ephemeral=True)

    @kampagne.command(
        name=cmd("w6cog.cmd.campaign.import.name"),
        description=cmd("w6cog.cmd.campaign.import.desc"),
    )
    @options("w6cog.opt", datei="attachment")
    async def import_(
        self, interaction: discord.Interaction[Any], datei: discord.Attachment
    ) -> None:
        lang = await lang_for(interaction)
        service = campaigns(interaction)
        await service.require_free_channel(channel_of(interaction))
        if datei.size > MAX_IMPORT_BYTES:
            raise BadInput("json.too_big", max=MAX_IMPORT_BYTES // 1000)
        deferred = datei.size > DEFER_IMPORT_BYTES
        if deferred:  # errors stay private: the first followup edits this ephemeral answer
            await interaction.response.defer(ephemeral=True, thinking=True)
        raw = await datei.read()
        data = await asyncio.to_thread(parse_import, raw)
        campaign = await service.import_(
            interaction.guild_id, channel_of(interaction), interaction.user.id, data
        )
        count = len(data["characters"]) + len(data["npcs"])
        text = t("w6cog.campaign.imported", lang, name=campaign.name, count=count)
        if deferred:
            done = t("w6cog.campaign.import_done", lang, entries=len(data["log"]))
            await send(interaction, done, ephemeral=True)
            await interaction.followup.send(text)
            return
        await send(interaction, text)


async def _gm_here(interaction: discord.Interaction[Any]) -> tuple[str, CampaignRecord]:
    """The user's language and the channel's campaign, which the user leads (or co-leads).
    Raises IllegalAction (no campaign, not the GM)."""
    lang = await lang_for(interaction)
    campaign = await campaign_here(interaction)
    require_gm(campaign, interaction.user.id)
    return lang, campaign


async def _main_gm_here(
    interaction: discord.Interaction[Any], nutzer: discord.User
) -> tuple[str, CampaignRecord]:
    """As ``_gm_here`` for the main GM only, handing something to ``nutzer`` (not a bot).
    Raises IllegalAction("w6cog.error.main_gm_only") / BadInput("w6cog.error.no_bots")."""
    lang = await lang_for(interaction)
    campaign = await campaign_here(interaction)
    require_main_gm(campaign, interaction.user.id)
    if nutzer.bot:
        raise BadInput("w6cog.error.no_bots")
    return lang, campaign


async def setup(bot: SpielleiterBot) -> None:
    await bot.add_cog(W6Campaign(bot))
