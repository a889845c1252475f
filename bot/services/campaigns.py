"""The W6 campaigns of a server apart from Discord: a channel's campaign, its characters found
by name for a user (a hidden NPC reads like a missing name for a player), the campaign log
(written, and read as a user may see it: NPC values only for the GMs), the campaign's writes
(start, archive, lead, co-GMs, rules) and its file (export, and the import checked completely
before anything is written). ``cogs.w6`` and the W6 cogs parse, call this and reply; nothing
here knows Discord. Every refusal is a typed error with a ``w6cog.*`` key.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from bot.limits import (
    MAX_CHARACTERS_PER_CAMPAIGN,
    MAX_CHARACTERS_PER_PLAYER,
    MAX_IMPORT_BYTES,
    MAX_LOG_ENTRIES_IMPORT,
)
from bot.narration.w6 import COMBAT_CHECKS
from bot.store import Store
from bot.store.base import AlreadyExists, CampaignStatus
from bot.store.base import CampaignRecord as CampaignRecord  # the records a cog reads
from bot.store.base import CharacterRecord as CharacterRecord
from engines.core import BadInput, IllegalAction
from engines.core.jsontext import has_breaking_chars, load_json
from engines.w6 import Sheet
from engines.w6.sheet_io import sheet_from_json, sheet_from_stored, sheet_to_json
from engines.w6.state import OPTIONAL_RULES

RULES_KEY = "regeln"
BOOL_RULES = OPTIONAL_RULES  # the engine's names


def campaign_rules(campaign: CampaignRecord) -> dict[str, bool]:
    """The optional rules switched on or off for the campaign (engine setting names)."""
    return clean_rules(campaign.settings.get(RULES_KEY, {}))


def clean_rules(rules: Any) -> dict[str, bool]:
    """Only known rules with true/false values (an imported file may hold anything)."""
    if not isinstance(rules, dict):
        return {}
    return {k: v for k, v in rules.items() if k in BOOL_RULES and isinstance(v, bool)}


def load_sheet(record: CharacterRecord) -> Sheet:
    """The stored sheet (control characters an older import let in read as spaces).
    Raises BadInput (a stored sheet that no longer validates)."""
    return sheet_from_stored(record.sheet)


def require_gm(campaign: CampaignRecord, user_id: int) -> None:
    """Raises IllegalAction("w6cog.error.gm_only") unless ``user_id`` leads the campaign."""
    if not campaign.is_gm(user_id):
        raise IllegalAction("w6cog.error.gm_only")


def require_main_gm(campaign: CampaignRecord, user_id: int) -> None:
    """Raises IllegalAction("w6cog.error.main_gm_only") unless ``user_id`` is the campaign's
    main GM (handing the campaign over and choosing co-GMs are theirs alone)."""
    if user_id != campaign.gm_id:
        raise IllegalAction("w6cog.error.main_gm_only")


def may_read_sheet(campaign: CampaignRecord, record: CharacterRecord, user_id: int) -> bool:
    """Whether ``user_id`` may read ``record``'s sheet, even its names in an autocomplete: an
    NPC's sheet is the GMs' alone."""
    return record.owner_id is not None or campaign.is_gm(user_id)


def player_names(characters: list[CharacterRecord]) -> frozenset[str]:
    """The casefolded names of the players' characters (``may_see``: what is no NPC)."""
    return frozenset(c.name.strip().casefold() for c in characters if c.owner_id is not None)


EXPORT_SCHEMA = "spielleiter.w6.kampagne"
EXPORT_VERSION = 1
LOG_KIND = re.compile(r"[a-z_]{1,32}")
MAX_TIMESTAMP = 253_402_300_799  # 9999-12-31 23:59:59 UTC, the last second datetime can show
# keys of a log entry's data that its text needs for itself (``t``'s own parameters): an
# imported entry must not bring them
RESERVED_LOG_KEYS = ("key", "lang")
MAX_NAME = 80
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
    """An entry with an NPC's values from before they were marked ``npc``: LP, a combat
    roll's successes, or a sheet made, edited or deleted, of a name that is no player's
    character."""
    values = (
        (kind in LP_KINDS and "lp" in data)
        or (kind == "check" and data.get("what") in COMBAT_CHECKS)
        or (kind == "sheet" and data.get("event") in ("created", "edited", "deleted"))
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


def visible_for(characters: list[CharacterRecord], user_id: int, gm: bool) -> list[CharacterRecord]:
    """The characters a user may name: for a player never an NPC (the GM's)."""
    return characters if gm else [c for c in characters if c.owner_id is not None]


class CampaignService:
    """The store's campaign, character and log reads and writes, with the rules of who may
    see what."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- campaigns ----------------------------------------------------------------------

    async def in_channel(self, channel_id: int) -> CampaignRecord | None:
        """The active campaign of a channel (None: none)."""
        return await self.store.active_campaign(channel_id)

    async def here(self, channel_id: int) -> CampaignRecord:
        """Raises IllegalAction("w6cog.error.no_campaign")."""
        campaign = await self.store.active_campaign(channel_id)
        if campaign is None:
            raise IllegalAction("w6cog.error.no_campaign")
        return campaign

    async def start(
        self, guild_id: int | None, channel_id: int, name: str, gm_id: int
    ) -> CampaignRecord:
        """A new campaign led by ``gm_id``, with its first log entry. Raises
        IllegalAction("w6cog.error.campaign_exists") while the channel has one."""
        if await self.store.active_campaign(channel_id) is not None:
            raise IllegalAction("w6cog.error.campaign_exists")
        try:
            campaign = await self.store.create_campaign(
                guild_id=guild_id, channel_id=channel_id, name=name.strip(), gm_id=gm_id,
                settings={RULES_KEY: {}},
            )  # fmt: skip
        except AlreadyExists:  # a second start in the same moment won
            raise IllegalAction("w6cog.error.campaign_exists") from None
        await self.log(campaign, gm_id, "campaign", event="start", name=campaign.name)
        return campaign

    async def of_guild(self, guild_id: int | None) -> list[CampaignRecord]:
        return await self.store.campaigns(guild_id)

    async def archive(self, campaign: CampaignRecord, user_id: int) -> None:
        await self.log(campaign, user_id, "campaign", event="archive", name=campaign.name)
        await self.store.update_campaign(campaign.id, status=CampaignStatus.ARCHIVED)

    async def hand_over(self, campaign: CampaignRecord, user_id: int, new_gm: int) -> None:
        """Raises IllegalAction("w6cog.error.main_gm_only") for anyone but the main GM."""
        require_main_gm(campaign, user_id)
        co = [u for u in campaign.co_gm_ids if u != new_gm]
        await self.store.update_campaign(campaign.id, gm_id=new_gm, co_gm_ids=co)
        await self.log(campaign, user_id, "campaign", event="handover", name=str(new_gm))

    async def set_co_gm(
        self, campaign: CampaignRecord, user_id: int, co_gm: int, *, remove: bool
    ) -> None:
        """Raises IllegalAction("w6cog.error.main_gm_only") for anyone but the main GM,
        BadInput("w6cog.error.already_gm" / "not_cogm")."""
        require_main_gm(campaign, user_id)
        if co_gm == campaign.gm_id:
            raise BadInput("w6cog.error.already_gm", user=f"<@{co_gm}>")
        if remove and co_gm not in campaign.co_gm_ids:
            raise BadInput("w6cog.error.not_cogm", user=f"<@{co_gm}>")
        co = [u for u in campaign.co_gm_ids if u != co_gm]
        if not remove:
            co.append(co_gm)
        await self.store.update_campaign(campaign.id, co_gm_ids=co)
        event = "cogm_removed" if remove else "cogm_added"
        await self.log(campaign, user_id, "campaign", event=event, name=str(co_gm))

    async def set_rule(self, campaign: CampaignRecord, user_id: int, rule: str, on: bool) -> None:
        """One optional rule (``BOOL_RULES``, the command's choices) switched on or off."""
        rules = {**campaign_rules(campaign), rule: on}
        settings = {**campaign.settings, RULES_KEY: rules}
        await self.store.update_campaign(campaign.id, settings=settings)
        await self.log(campaign, user_id, "campaign", event="rule", name=f"{rule}={on}")

    # -- characters ---------------------------------------------------------------------

    async def characters(self, campaign: CampaignRecord) -> list[CharacterRecord]:
        return await self.store.characters(campaign.id)

    async def character(self, character_id: int) -> CharacterRecord | None:
        return await self.store.get_character(character_id)

    async def active_character(
        self, campaign: CampaignRecord, user_id: int
    ) -> CharacterRecord | None:
        return await self.store.active_character(campaign.id, user_id)

    async def activate(self, campaign: CampaignRecord, user_id: int, character_id: int) -> None:
        await self.store.set_active_character(campaign.id, user_id, character_id)

    async def find_character(
        self, campaign: CampaignRecord, user_id: int, text: str | None
    ) -> CharacterRecord:
        """The character named (or numbered, from autocomplete) ``text`` in the campaign, else
        the user's active one; for a player never an NPC (a hidden NPC and a missing name read
        the same). Raises BadInput("w6cog.error.no_character"/"no_active")."""
        if not text:
            active = await self.store.active_character(campaign.id, user_id)
            if active is None:
                raise BadInput("w6cog.error.no_active")
            return active
        records = visible_for(
            await self.store.characters(campaign.id), user_id, campaign.is_gm(user_id)
        )
        wanted = text.strip()
        for record in records:
            if wanted == f"#{record.id}" or wanted == str(record.id):
                return record
        matches = [r for r in records if r.name.casefold() == wanted.casefold()]
        mine = [r for r in matches if r.owner_id == user_id]
        if mine or matches:
            return (mine or matches)[0]
        raise BadInput("w6cog.error.no_character", name=wanted[:64])

    async def matching(
        self, channel_id: int, user_id: int, current: str, *, npcs_only: bool = False
    ) -> list[CharacterRecord]:
        """Autocomplete: the channel campaign's characters whose name contains ``current``
        (own first); NPCs only for the GMs (their names are the GM's)."""
        campaign = await self.store.active_campaign(channel_id)
        if campaign is None:
            return []
        records = await self.store.characters(campaign.id)
        if npcs_only:
            records = [r for r in records if r.owner_id is None]
        records = visible_for(records, user_id, campaign.is_gm(user_id))
        needle = current.casefold()
        found = [r for r in records if needle in r.name.casefold()]
        found.sort(key=lambda r: (r.owner_id != user_id, r.name.casefold()))
        return found

    # -- the log ------------------------------------------------------------------------

    async def log(
        self, campaign: CampaignRecord, user_id: int | None, kind: str, **data: Any
    ) -> None:
        """One campaign-log entry (``kind``: check, damage, heal, rest, combat, sheet,
        campaign, roll, probe…)."""
        await self.store.add_log(campaign.id, user_id, kind, data)

    async def visible_log(
        self, campaign: CampaignRecord, user_id: int, *, everything: bool = False
    ) -> list[dict[str, Any]]:
        """The entries ``user_id`` may read (the newest 500, or ``everything``), oldest first:
        ``may_see``, with the players' characters told from NPCs for entries from before NPC
        entries were marked."""
        entries = await self.store.campaign_log(campaign.id, limit=0 if everything else 500)
        players = player_names(await self.store.characters(campaign.id))
        gm = campaign.is_gm(user_id)
        return [e for e in entries if _may_see(e, user_id, gm, players)]

    # -- the campaign file --------------------------------------------------------------

    async def export(self, campaign: CampaignRecord) -> tuple[dict[str, Any], int]:
        """The whole campaign as plain JSON data, and how many characters it holds."""
        characters = await self.store.characters(campaign.id)
        entries = await self.store.campaign_log(campaign.id, limit=0)
        active = set()
        for owner in {c.owner_id for c in characters if c.owner_id is not None}:
            record = await self.store.active_character(campaign.id, owner)
            if record is not None:
                active.add(record.id)
        return export_campaign(campaign, characters, entries, frozenset(active)), len(characters)

    async def require_free_channel(self, channel_id: int) -> None:
        """Raises IllegalAction("w6cog.error.campaign_exists")."""
        if await self.store.active_campaign(channel_id) is not None:
            raise IllegalAction("w6cog.error.campaign_exists")

    async def import_(
        self, guild_id: int | None, channel_id: int, gm_id: int, data: dict[str, Any]
    ) -> CampaignRecord:
        """A campaign read by ``parse_import`` stored in the channel (its characters, NPCs
        and log in one transaction), each player's active character as the export had it.
        Raises IllegalAction("w6cog.error.campaign_exists")."""
        await self.require_free_channel(channel_id)
        log_entries = [_imported_entry(entry) for entry in data["log"]]
        log_entries.append((gm_id, "campaign", {"event": "import", "name": data["name"]}))
        campaign = await self.store.import_campaign(
            guild_id=guild_id,
            channel_id=channel_id,
            name=data["name"],
            gm_id=gm_id,
            settings=data["settings"],
            characters=[
                (item["owner_id"], item["name"], item["sheet"])
                for item in data["characters"] + data["npcs"]
            ],
            log=log_entries,
        )
        by_name = {c.name: c.id for c in await self.store.characters(campaign.id)}
        for owner, name in active_after_import(data["characters"]).items():
            if name in by_name:  # each player keeps the active character of the export
                await self.store.set_active_character(campaign.id, owner, by_name[name])
        return campaign
