"""``/kampagne``: start a W6 campaign in a channel, hand the lead over, set optional rules,
read the log, archive, and move a whole campaign between channels as a JSON file."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
from collections import Counter
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import fit
from bot.app import SpielleiterBot
from bot.i18n import cmd, options, t
from bot.limits import (
    DEFER_IMPORT_BYTES,
    MAX_CHARACTERS_PER_CAMPAIGN,
    MAX_CHARACTERS_PER_PLAYER,
    MAX_IMPORT_BYTES,
    MAX_LOG_ENTRIES_IMPORT,
)
from bot.narration.w6 import COMBAT_CHECKS, EMBED_COLOUR, entry_line
from bot.replies import lang_for, pinging, send
from bot.store.base import AlreadyExists, CampaignRecord
from cogs.w6 import (
    BOOL_RULES,
    RULES_KEY,
    bot_of,
    campaign_here,
    campaign_rules,
    clean_rules,
    log,
    require_gm,
)
from engines.core import BadInput, IllegalAction
from engines.core.jsontext import has_breaking_chars, load_json
from engines.w6.sheet_io import sheet_from_json, sheet_to_json

logger = logging.getLogger(__name__)

EXPORT_SCHEMA = "spielleiter.w6.kampagne"
EXPORT_VERSION = 1
LOG_KIND = re.compile(r"[a-z_]{1,32}")
MAX_TIMESTAMP = 253_402_300_799  # 9999-12-31 23:59:59 UTC, the last second datetime can show
# keys of a log entry's data that its text needs for itself (``t``'s own parameters): an
# imported entry must not bring them
RESERVED_LOG_KEYS = ("key", "lang")
MAX_NAME = 80
LOG_PAGE = 20
DESCRIPTION_LIMIT = 4000
SECRET_KINDS = ("secret_check",)


def may_see(
    entry: dict[str, Any], user_id: int, gm: bool, players: frozenset[str] | None = None
) -> bool:
    """Whether ``user_id`` may read a log entry: a GM's secret check only for GMs; a roll
    made ``privat`` only for its roller; one made ``geheim`` for its roller and the GMs; an
    NPC's LP (a combat's hit on it) and its combat rolls only for GMs, as the combat's public
    status. Entries written before NPC entries were marked: an LP change or a combat roll
    naming none of ``players`` (the casefolded names of the players' characters) is taken
    for an NPC's."""
    data = entry.get("data") or {}
    if entry["kind"] in SECRET_KINDS or data.get("npc"):
        return gm
    if not gm and players is not None and _unmarked_npc(entry["kind"], data, players):
        return False
    visibility = (entry.get("data") or {}).get("visibility")
    mine = entry.get("actor_id") == user_id
    if visibility == "private":
        return mine
    if visibility == "secret":
        return mine or gm
    return True


LP_KINDS = ("damage", "heal", "rest")


def _unmarked_npc(kind: str, data: dict[str, Any], players: frozenset[str]) -> bool:
    """An entry with an NPC's values from before they were marked ``npc``: LP, or a combat
    roll's successes, of a name that is no player's character."""
    values = (kind in LP_KINDS and "lp" in data) or (
        kind == "check" and data.get("what") in COMBAT_CHECKS
    )
    return values and str(data.get("name", "")).strip().casefold() not in players


def _may_see(entry: Any, user_id: int, gm: bool, players: frozenset[str] | None = None) -> bool:
    """``may_see``, and an entry too broken to tell shown (as a note, see ``entry_line``)
    only to the GMs."""
    try:
        return may_see(entry, user_id, gm, players)
    except Exception:  # a stored entry of any shape must not break the log
        return gm


def export_campaign(
    campaign: CampaignRecord,
    characters: list[Any],
    entries: list[dict[str, Any]],
    active: frozenset[int] = frozenset(),
) -> dict[str, Any]:
    """The whole campaign as plain JSON data: settings, characters (``active``: the ids of the
    players' active characters, marked so an import keeps them), NPCs, log."""
    players = [c for c in characters if c.owner_id is not None]
    npcs = [c for c in characters if c.owner_id is None]
    return {
        "schema": EXPORT_SCHEMA,
        "version": EXPORT_VERSION,
        "name": campaign.name,
        "gm_id": campaign.gm_id,
        "co_gm_ids": list(campaign.co_gm_ids),
        "settings": campaign.settings,
        "characters": [
            {"owner_id": c.owner_id, "sheet": c.sheet}
            | ({"active": True} if c.id in active else {})
            for c in players
        ],
        "npcs": [{"sheet": c.sheet} for c in npcs],
        "log": entries,
    }


def parse_import(raw: bytes) -> dict[str, Any]:
    """A campaign export read back and checked completely (every sheet through the engine,
    every log entry), so that nothing is written for a file with any fault.

    Raises BadInput: ``json.*`` (size, nesting, numbers, text; see ``load_json``),
    ``w6cog.import.bad_schema``, ``w6cog.import.bad_field`` (with ``field``),
    ``w6cog.import.too_many`` (``field``, ``max``), ``w6cog.import.reserved_key`` or the
    engine's ``w6.sheet.*`` errors (``field`` prefixed with the character's place).
    """
    data = load_json(raw, max_bytes=MAX_IMPORT_BYTES)
    if not isinstance(data, dict) or data.get("schema") != EXPORT_SCHEMA:
        raise BadInput("w6cog.import.bad_schema")
    if data.get("version") != EXPORT_VERSION:
        raise BadInput("w6cog.import.bad_schema")
    name = data.get("name")
    if (
        not isinstance(name, str)
        or not name.strip()
        or len(name) > MAX_NAME
        or has_breaking_chars(name)
    ):
        raise BadInput("w6cog.import.bad_field", field="name")
    settings = data.get("settings", {})
    if not isinstance(settings, dict):
        raise BadInput("w6cog.import.bad_field", field="settings")
    settings = {RULES_KEY: clean_rules(settings.get(RULES_KEY, {}))}
    characters = _entries(data, "characters", with_owner=True)
    npcs = _entries(data, "npcs", with_owner=False)
    _check_counts(characters + npcs)
    _check_names(characters, npcs)
    entries = data.get("log", [])
    if not isinstance(entries, list):
        raise BadInput("w6cog.import.bad_field", field="log")
    if len(entries) > MAX_LOG_ENTRIES_IMPORT:
        raise BadInput("w6cog.import.too_many", field="log", max=MAX_LOG_ENTRIES_IMPORT)
    for index, entry in enumerate(entries):
        _check_log_entry(entry, f"log[{index}]")
    return {
        "name": name.strip(),
        "settings": settings,
        "characters": characters,
        "npcs": npcs,
        "log": entries,
    }


def _entries(data: dict[str, Any], key: str, *, with_owner: bool) -> list[dict[str, Any]]:
    items = data.get(key, [])
    if not isinstance(items, list):
        raise BadInput("w6cog.import.bad_field", field=key)
    if len(items) > MAX_CHARACTERS_PER_CAMPAIGN:
        raise BadInput("w6cog.import.too_many", field=key, max=MAX_CHARACTERS_PER_CAMPAIGN)
    checked = []
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            raise BadInput("w6cog.import.bad_field", field=f"{key}[{index}]")
        owner = item.get("owner_id") if with_owner else None
        if with_owner and not _is_id(owner):
            raise BadInput("w6cog.import.bad_field", field=f"{key}[{index}].owner_id")
        try:
            sheet = sheet_from_json(item.get("sheet"))
        except BadInput as error:  # name the character's place in the file
            place = f"{key}[{index}]"
            if "field" not in error.params:
                raise BadInput("w6cog.import.bad_field", field=f"{place}.sheet") from error
            error.params["field"] = f"{place}.{error.params['field']}"
            raise
        if not isinstance(item.get("active", False), bool):
            raise BadInput("w6cog.import.bad_field", field=f"{key}[{index}].active")
        checked.append(
            {
                "owner_id": owner,
                "name": sheet.name,
                "sheet": sheet_to_json(sheet),
                "active": bool(item.get("active", False)),
            }
        )
    return checked


def active_after_import(characters: list[dict[str, Any]]) -> dict[int, str]:
    """Each player's active character after an import (owner → name): the one the export
    marked ``active``, else the player's first (an export of an older version marks none)."""
    first: dict[int, str] = {}
    marked: dict[int, str] = {}
    for item in characters:
        owner = item["owner_id"]
        if owner is None:
            continue
        first.setdefault(owner, item["name"])
        if item["active"]:
            marked.setdefault(owner, item["name"])
    return first | marked


def _check_names(characters: list[dict[str, Any]], npcs: list[dict[str, Any]]) -> None:
    """A name is one character per campaign, whatever its case (as ``/charakter`` keeps it).
    Raises BadInput("w6cog.import.duplicate_name") naming both places in the file."""
    seen: dict[str, str] = {}
    for key, items in (("characters", characters), ("npcs", npcs)):
        for index, item in enumerate(items):
            folded = str(item["name"]).strip().casefold()
            place = f"{key}[{index}]"
            if folded in seen:
                raise BadInput(
                    "w6cog.import.duplicate_name",
                    name=str(item["name"])[:64], first=seen[folded], second=place,
                )  # fmt: skip
            seen[folded] = place


def _check_counts(characters: list[dict[str, Any]]) -> None:
    """Raises BadInput("w6cog.import.too_many") for more characters than a campaign or a
    player may have."""
    if len(characters) > MAX_CHARACTERS_PER_CAMPAIGN:
        raise BadInput("w6cog.import.too_many", field="characters", max=MAX_CHARACTERS_PER_CAMPAIGN)
    per_owner = Counter(c["owner_id"] for c in characters if c["owner_id"] is not None)
    for owner, count in per_owner.items():
        if count > MAX_CHARACTERS_PER_PLAYER:
            raise BadInput(
                "w6cog.import.too_many_for_player",
                user=f"<@{owner}>",
                max=MAX_CHARACTERS_PER_PLAYER,
            )


def _is_id(value: Any) -> bool:
    """A Discord snowflake: a positive whole number that fits a 64-bit column."""
    return type(value) is int and 0 < value < 2**63


def _check_log_entry(entry: Any, place: str) -> None:
    """Raises BadInput("w6cog.import.bad_field" / "reserved_key") for a log entry that is
    no object, has no short kind, a time outside year 1970..9999, an actor that is no id, or
    data that is no object or uses a key the log's text needs for itself."""
    if not isinstance(entry, dict):
        raise BadInput("w6cog.import.bad_field", field=place)
    kind = entry.get("kind")
    if not isinstance(kind, str) or not LOG_KIND.fullmatch(kind):
        raise BadInput("w6cog.import.bad_field", field=f"{place}.kind")
    if not _is_time(entry.get("at", 0)):
        raise BadInput("w6cog.import.bad_field", field=f"{place}.at")
    actor = entry.get("actor_id")
    if actor is not None and not _is_id(actor):
        raise BadInput("w6cog.import.bad_field", field=f"{place}.actor_id")
    data = entry.get("data", {})
    if not isinstance(data, dict):
        raise BadInput("w6cog.import.bad_field", field=f"{place}.data")
    for key in data:
        if key in RESERVED_LOG_KEYS:
            raise BadInput("w6cog.import.reserved_key", field=f"{place}.data.{key}")
    if "imported_at" in data and not _is_time(data["imported_at"]):  # an earlier import's
        raise BadInput("w6cog.import.bad_field", field=f"{place}.data.imported_at")


def _is_time(value: Any) -> bool:
    """A time ``datetime`` can show: seconds since 1970 up to the end of year 9999."""
    return (
        not isinstance(value, bool)
        and isinstance(value, int | float)
        and 0 <= value <= MAX_TIMESTAMP
    )


def _imported_entry(entry: dict[str, Any]) -> tuple[int | None, str, dict[str, Any]]:
    """A checked log entry as the import stores it: its first time kept as ``imported_at``
    (from an earlier import, if it went through one already)."""
    data = entry.get("data", {})
    first = data.get("imported_at", entry.get("at", 0))
    return entry.get("actor_id"), entry["kind"], {**data, "imported_at": first}


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
        channel_id = interaction.channel_id or interaction.user.id
        if await self.bot.store.active_campaign(channel_id) is not None:
            raise IllegalAction("w6cog.error.campaign_exists")
        try:
            campaign = await self.bot.store.create_campaign(
                guild_id=interaction.guild_id,
                channel_id=channel_id,
                name=name.strip(),
                gm_id=interaction.user.id,
                settings={RULES_KEY: {}},
            )
        except AlreadyExists:  # a second start in the same moment won
            raise IllegalAction("w6cog.error.campaign_exists") from None
        await log(interaction, campaign, "campaign", event="start", name=campaign.name)
        text = t("w6cog.campaign.started", lang, name=campaign.name, gm=interaction.user.mention)
        await send(interaction, text)

    @kampagne.command(
        name=cmd("w6cog.cmd.campaign.info.name"), description=cmd("w6cog.cmd.campaign.info.desc")
    )
    async def info(self, interaction: discord.Interaction[Any]) -> None:
        lang = await lang_for(interaction)
        campaign = await campaign_here(interaction)
        characters = await self.bot.store.characters(campaign.id)
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
        campaigns = await self.bot.store.campaigns(interaction.guild_id)
        lines = [
            t(
                f"w6cog.campaign.list_line.{c.status}",
                lang,
                name=c.name,
                channel=c.channel_id,
                gm=c.gm_id,
            )
            for c in campaigns
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
        await log(interaction, campaign, "campaign", event="archive", name=campaign.name)
        await self.bot.store.update_campaign(campaign.id, status="archived")
        await send(interaction, t("w6cog.campaign.archived", lang, name=campaign.name))

    @kampagne.command(
        name=cmd("w6cog.cmd.campaign.handover.name"),
        description=cmd("w6cog.cmd.campaign.handover.desc"),
    )
    @options("w6cog.opt", nutzer="user")
    async def uebergeben(self, interaction: discord.Interaction[Any], nutzer: discord.User) -> None:
        lang, campaign = await _main_gm_here(interaction, nutzer)
        co = [u for u in campaign.co_gm_ids if u != nutzer.id]
        await self.bot.store.update_campaign(campaign.id, gm_id=nutzer.id, co_gm_ids=co)
        await log(interaction, campaign, "campaign", event="handover", name=str(nutzer.id))
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
        if nutzer.id == campaign.gm_id:
            raise BadInput("w6cog.error.already_gm", user=nutzer.mention)
        if entfernen and nutzer.id not in campaign.co_gm_ids:
            raise BadInput("w6cog.error.not_cogm", user=nutzer.mention)
        co = [u for u in campaign.co_gm_ids if u != nutzer.id]
        if not entfernen:
            co.append(nutzer.id)
        await self.bot.store.update_campaign(campaign.id, co_gm_ids=co)
        event = "cogm_removed" if entfernen else "cogm_added"
        await log(interaction, campaign, "campaign", event=event, name=str(nutzer.id))
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
        rules = campaign_rules(campaign)
        rules[regel] = an
        settings = {**campaign.settings, RULES_KEY: rules}
        await self.bot.store.update_campaign(campaign.id, settings=settings)
        state = t("w6cog.on" if an else "w6cog.off", lang)
        await log(interaction, campaign, "campaign", event="rule", name=f"{regel}={an}")
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
        gm = campaign.is_gm(interaction.user.id)
        entries = await self.bot.store.campaign_log(campaign.id, limit=0 if datei else 500)
        characters = await self.bot.store.characters(campaign.id)
        players = frozenset(c.name.strip().casefold() for c in characters if c.owner_id)
        visible = [e for e in entries if _may_see(e, interaction.user.id, gm, players)]
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
        characters = await self.bot.store.characters(campaign.id)
        entries = await self.bot.store.campaign_log(campaign.id, limit=0)
        active = set()
        for owner in {c.owner_id for c in characters if c.owner_id is not None}:
            record = await self.bot.store.active_character(campaign.id, owner)
            if record is not None:
                active.add(record.id)
        data = export_campaign(campaign, characters, entries, frozenset(active))
        body = json.dumps(data, ensure_ascii=False, indent=2).encode()
        file = discord.File(io.BytesIO(body), filename="kampagne.json")
        text = t("w6cog.campaign.exported", lang, name=campaign.name, count=len(characters))
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
        channel_id = interaction.channel_id or interaction.user.id
        if await self.bot.store.active_campaign(channel_id) is not None:
            raise IllegalAction("w6cog.error.campaign_exists")
        if datei.size > MAX_IMPORT_BYTES:
            raise BadInput("json.too_big", max=MAX_IMPORT_BYTES // 1000)
        deferred = datei.size > DEFER_IMPORT_BYTES
        if deferred:  # errors stay private: the first followup edits this ephemeral answer
            await interaction.response.defer(ephemeral=True, thinking=True)
        raw = await datei.read()
        data = await asyncio.to_thread(parse_import, raw)
        store = bot_of(interaction).store
        if await store.active_campaign(channel_id) is not None:
            raise IllegalAction("w6cog.error.campaign_exists")
        log_entries = [_imported_entry(entry) for entry in data["log"]]
        log_entries.append(
            (interaction.user.id, "campaign", {"event": "import", "name": data["name"]})
        )
        campaign = await store.import_campaign(
            guild_id=interaction.guild_id,
            channel_id=channel_id,
            name=data["name"],
            gm_id=interaction.user.id,
            settings=data["settings"],
            characters=[
                (item["owner_id"], item["name"], item["sheet"])
                for item in data["characters"] + data["npcs"]
            ],
            log=log_entries,
        )
        by_name = {c.name: c.id for c in await store.characters(campaign.id)}
        for owner, name in active_after_import(data["characters"]).items():
            if name in by_name:  # each player keeps the active character of the export
                await store.set_active_character(campaign.id, owner, by_name[name])
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
    if interaction.user.id != campaign.gm_id:
        raise IllegalAction("w6cog.error.main_gm_only")
    if nutzer.bot:
        raise BadInput("w6cog.error.no_bots")
    return lang, campaign


async def setup(bot: SpielleiterBot) -> None:
    await bot.add_cog(W6Campaign(bot))
