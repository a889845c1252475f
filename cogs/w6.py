"""What the W6 cogs share: the campaign of a channel, who may do what, the campaign log,
finding characters by name or id, and the character embed.

``cogs.w6_campaign`` (``/kampagne``), ``cogs.w6_sheets`` (``/charakter``, ``/sl``) and
``cogs.combat`` (``/kampf``) are the extensions; this module has no commands of its own.
Every permission failure raises ``IllegalAction`` with a ``w6cog.error.*`` key, so it takes
the one error path (an ephemeral message that changes nothing).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands

from bot import fit
from bot.i18n import catalog, cmd, t
from bot.store.base import CampaignRecord, CharacterRecord
from engines.core import BadInput, IllegalAction
from engines.w6.actions import parse_action
from engines.w6.sheet import PM_REQUIRED, Derived, Sheet, derive
from engines.w6.sheet_io import sheet_from_stored, sheet_to_json

if TYPE_CHECKING:
    from bot.app import SpielleiterBot

EMBED_COLOUR = discord.Colour(0xB5651D)
FIELD_LIMIT = 1024
AUTOCOMPLETE_LIMIT = 25
RULES_KEY = "regeln"
BOOL_RULES = ("schwere_treffer", "kaufen", "stabilitaet", "freie_folgephasen")  # engine names


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


def may_edit(campaign: CampaignRecord, record: CharacterRecord, user_id: int) -> bool:
    """A player edits their own sheets; the GM (and co-GMs) edit every sheet and NPC."""
    return campaign.is_gm(user_id) or (record.owner_id is not None and record.owner_id == user_id)


def require_edit(campaign: CampaignRecord, record: CharacterRecord, user_id: int) -> None:
    """Raises IllegalAction: ``npc_gm_only`` for an NPC, ``not_your_sheet`` for another's."""
    if may_edit(campaign, record, user_id):
        return
    if record.owner_id is None:
        raise IllegalAction("w6cog.error.npc_gm_only")
    raise IllegalAction("w6cog.error.not_your_sheet")


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


def step_words(verb: str, who: str, targets: list[str], lang: str) -> str:
    """A combat step in words: ``Angriff: Thoin → Ork`` (``w6cog.verb.<verb>``)."""
    key = f"w6cog.verb.{verb}"
    label = t(key, lang) if key in catalog() else verb
    text = f"{label}: {who}" if who else label
    return f"{text} → {', '.join(targets)}" if targets else text


def combat_log_words(data: dict[str, Any], lang: str) -> str:
    """A ``combat`` log entry's step in words: from the names stored with it, else (older
    entries) from its notation with the participants' ids."""
    verb = data.get("verb")
    if isinstance(verb, str):
        targets = data.get("targets")
        names = [str(name) for name in targets] if isinstance(targets, list) else []
        return step_words(verb, str(data.get("who") or ""), names, lang)
    text = str(data.get("action", ""))
    if text == "start":
        return step_words("start", "", [], lang)
    try:
        action = parse_action(text)
    except BadInput:
        return step_words(text.split(" ")[0], "", [], lang)
    return step_words(action.verb, action.fighter, list(action.targets), lang)


def log_line(entry: dict[str, Any], lang: str) -> str:
    """One log entry as a line: time, who, what (``w6cog.log.<kind>`` with its data)."""
    when = dt.datetime.fromtimestamp(float(entry["at"]), dt.UTC).strftime("%d.%m. %H:%M")
    actor = f"<@{entry['actor_id']}>" if entry.get("actor_id") else "–"
    data = entry.get("data") or {}
    key = f"w6cog.log.{entry['kind']}"
    if "event" in data:
        key += f".{data['event']}"
    what = t(key, lang, **data)
    return f"`{when}` {actor} {what}"


# ----------------------------------------------------------------------------- characters


async def find_character(
    interaction: discord.Interaction[Any], campaign: CampaignRecord, text: str | None
) -> CharacterRecord:
    """The character named (or numbered, from autocomplete) ``text`` in the campaign, else the
    user's active one. Raises BadInput("w6cog.error.no_character"/"no_active")."""
    store = bot_of(interaction).store
    if not text:
        active = await store.active_character(campaign.id, interaction.user.id)
        if active is None:
            raise BadInput("w6cog.error.no_active")
        return active
    records = await store.characters(campaign.id)
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


# ----------------------------------------------------------------------------- embed


def pm_in_order(sheet: Sheet) -> tuple[tuple[str, int], ...]:
    """The PM as the Charakterdokument lists them (K, G, M, B, then any others): the store
    keeps JSON objects with sorted keys."""
    rank = {name: index for index, name in enumerate(PM_REQUIRED)}
    return tuple(sorted(sheet.pm, key=lambda pair: (rank.get(pair[0], len(rank)), pair[0])))


def schwelle_text(sheet: Sheet, derived: Derived) -> str:
    """The heavy-hit threshold, or ``–`` for a sheet without K and G and without a fixed
    threshold (the rule does not apply to it, see data/w6/RULES.md)."""
    exempt = sheet.pm_value("K") + sheet.pm_value("G") == 0 and derived.schwelle == 0
    return "–" if exempt else str(derived.schwelle)


def _pairs_text(pairs: tuple[tuple[str, int], ...], lang: str) -> str:
    """``Name Wert, …`` within one embed field ("und N weitere" when there are too many)."""
    return fit.join_limited((f"{name} {value}" for name, value in pairs), FIELD_LIMIT, lang) or "–"


def _text_field(embed: discord.Embed, lang: str, key: str, *, inline: bool, **params: Any) -> None:
    """A field titled ``key`` whose text is ``key + "_text"`` filled with ``params``."""
    embed.add_field(name=t(key, lang), value=t(f"{key}_text", lang, **params), inline=inline)


def sheet_embed(record: CharacterRecord, sheet: Sheet, lang: str) -> discord.Embed:
    """The sheet as an embed: entered values, then the derived values marked as derived."""
    derived = derive(sheet)
    owner = t("w6cog.sheet.npc", lang) if record.owner_id is None else f"<@{record.owner_id}>"
    embed = discord.Embed(
        title=sheet.name,
        description=t(
            "w6cog.sheet.header", lang, rasse=sheet.rasse or "–", owner=owner, id=record.id
        ),
        colour=EMBED_COLOUR,
    )
    embed.add_field(
        name=t("w6cog.sheet.pm", lang), value=_pairs_text(pm_in_order(sheet), lang), inline=True
    )
    _text_field(
        embed,
        lang,
        "w6cog.sheet.values",
        inline=True,
        lp=sheet.lp,
        lp_max=sheet.lp_max,
        rlp=sheet.rlp,
        kw=sheet.kw,
        reflex=sheet.reflex,
        magie=sheet.magie,
        ab=sheet.ab,
        erfahrung=sheet.erfahrung,
        faktor=sheet.faktor,
    )
    for key, pairs in (
        ("eigenschaften", sheet.eigenschaften),
        ("fertigkeiten", sheet.fertigkeiten),
    ):
        embed.add_field(
            name=t(f"w6cog.sheet.{key}", lang), value=_pairs_text(pairs, lang), inline=False
        )
    weapons = [
        t(
            "w6cog.sheet.weapon_line",
            lang,
            name=w.name,
            basis=f"{w.basisschaden[0]}-{w.basisschaden[1]}",
            zusatz=w.zusatzschaden,
            fert=w.fertigkeitsschaden,
        )
        for w in derived.waffen
    ]
    embed.add_field(
        name=t("w6cog.sheet.waffen", lang),
        value=fit.join_limited(weapons, FIELD_LIMIT, lang, sep="\n") or "–",
        inline=False,
    )
    armour = [f"{a.name} ({a.zone}, RS {a.rs}, BE {a.be})" for a in sheet.ruestung]
    if sheet.schild is not None:
        armour.append(f"{sheet.schild.name} (KW +{sheet.schild.kw_bonus})")
    embed.add_field(
        name=t("w6cog.sheet.ruestung", lang),
        value=fit.join_limited(armour, FIELD_LIMIT, lang) or "–",
        inline=False,
    )
    _text_field(
        embed,
        lang,
        "w6cog.sheet.derived",
        inline=False,
        gs=derived.gesamtschutz,
        be=derived.behinderung_kw,
        kw=derived.kw_effektiv,
        reflex=derived.reflex_effektiv,
        handlungen=derived.handlungen,
        schwelle=schwelle_text(sheet, derived),
        kraft=derived.kraft,
    )
    if sheet.notizen:
        embed.add_field(
            name=t("w6cog.sheet.notizen", lang),
            value=fit.shorten(sheet.notizen, FIELD_LIMIT, lang),
            inline=False,
        )
    return fit.fit_embed(embed, lang)  # many long lists together: over 6,000 characters
