"""``/charakter`` (sheets per campaign and owner: create, import, edit fields, show as embed and
image, choose the active one, export, checks) and ``/sl`` (the GM's tools: quick NPCs, damage,
healing, rest, secret checks)."""

from __future__ import annotations

import hashlib
import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import fit
from bot.app import SpielleiterBot
from bot.components import custom_id, modal_fields
from bot.i18n import cmd, t
from bot.limits import MAX_CHARACTERS_PER_CAMPAIGN, MAX_CHARACTERS_PER_PLAYER
from bot.narration.dice import Source, probe_text
from bot.render.base import render_async
from bot.render.sheet import Row, Section, SheetView, render_sheet
from bot.replies import lang_for, send
from bot.store.base import CampaignRecord, CharacterRecord
from cogs.w6 import (
    AUTOCOMPLETE_LIMIT,
    campaign_here,
    character_choices,
    character_option,
    find_character,
    load_sheet,
    log,
    pm_in_order,
    require_edit,
    require_gm,
    schwelle_text,
    sheet_embed,
)
from engines.core import BadInput, IllegalAction, Rng
from engines.core.content import data_dir
from engines.dice.w6 import Difficulty, Pool, ProbeResult, ProbeSpec, probe
from engines.w6.sheet import FIXABLE, Sheet, derive
from engines.w6.sheet_io import (
    ARMOUR_KEYS,
    INT_FIELDS,
    MAX_SHEET_BYTES,
    MOUNT_KEYS,
    SCHEMA,
    SHIELD_KEYS,
    VERSION,
    WEAPON_KEYS,
    edit_many,
    npc_from_text,
    set_field,
    sheet_from_json,
    sheet_from_text,
    sheet_to_json,
    sheet_to_text,
)

MODAL_PREFIX = "w6neu"
BUTTON_PREFIX = (
    "w6bogen"  # w6bogen:<zeigen/loeschen/abbrechen>:<character>:<asker>[:rev:name digest]
)
IMAGE_NAME = "charakter"
TEXT_FIELDS = ("name", "rasse", "notizen", "handlungen", "be_fertigkeiten")
DIFFICULTIES = {d.name.lower(): d for d in Difficulty}
TEMPLATE_FILE = data_dir("w6") / "vorlage.json"  # documented in data/w6/SHEET.md


# ----------------------------------------------------------------------------- pure helpers


def field_paths(sheet: Sheet) -> list[str]:
    """Every editable path of ``sheet`` (for autocomplete), in sheet order."""
    data = sheet_to_json(sheet)
    paths = [*TEXT_FIELDS, *INT_FIELDS]
    paths += [f"pm.{name}" for name in data["pm"]]
    paths += [f"eigenschaften.{name}" for name in data["eigenschaften"]]
    paths += [f"fertigkeiten.{name}" for name in data["fertigkeiten"]]
    for weapon in data["waffen"]:
        paths += [f"waffen.{weapon['name']}.{key}" for key in WEAPON_KEYS if key != "name"]
    for armour in data["ruestung"]:
        paths += [f"ruestung.{armour['name']}.{key}" for key in ARMOUR_KEYS if key != "name"]
    paths += [f"schild.{key}" for key in SHIELD_KEYS]
    paths += [f"reittier.{key}" for key in MOUNT_KEYS]
    paths += [f"fix.{key}" for key in FIXABLE]
    return paths


def _numbers(text: str, count: int, key: str) -> list[int]:
    parts = text.replace(",", " ").replace("/", " ").split()
    if not parts:
        return []
    if len(parts) > count or not all(p.lstrip("-").isdecimal() for p in parts):
        raise BadInput(key, value=text[:60])
    return [int(p) for p in parts]


# the creation form's lines and the sheet paths each fills: an error names the form's label
# (and the part of the line), never the internal path (``kw``, ``pm.K``)
MODAL_PARTS: dict[str, tuple[str, str | None]] = {
    "name": ("name", None),
    "rasse": ("rasse", None),
    **{f"pm.{name}": ("pm", name) for name in ("K", "G", "M", "B")},
    "lp_max": ("werte", "LP"),
    "lp": ("werte", "LP"),
    "kw": ("werte", "KW"),
    "reflex": ("werte", "Reflex"),
    "ab": ("werte", "AB"),
    "handlungen": ("handlungen", None),
}


def modal_label(path: str, lang: str) -> str:
    """The form's words for the sheet ``path`` the creation form filled (else ``path``)."""
    if path not in MODAL_PARTS:
        return path
    line, part = MODAL_PARTS[path]
    label = t(f"w6cog.modal.{line}", lang)
    return t("w6cog.modal.part", lang, label=label, part=part) if part else label


def sheet_from_modal(fields: dict[str, str], lang: str = "de") -> Sheet:
    """The basics of the creation modal as a sheet. Raises BadInput (the engine's keys with
    the form's labels as ``field``, or ``w6cog.sheet.bad_pm`` / ``bad_values`` /
    ``bad_thresholds`` for the number lines: exactly four numbers on the PM line, none or
    exactly four on the values line)."""
    pm = _numbers(fields.get("pm", ""), 4, "w6cog.sheet.bad_pm")
    if len(pm) != 4:
        raise BadInput("w6cog.sheet.bad_pm", value=fields.get("pm", "")[:60])
    edits = [f"pm.{name}={value}" for name, value in zip(("K", "G", "M", "B"), pm, strict=True)]
    values = _numbers(fields.get("werte", ""), 4, "w6cog.sheet.bad_values")
    if values and len(values) != 4:
        raise BadInput("w6cog.sheet.bad_values", value=fields["werte"][:60])
    for path, value in zip(("lp_max", "kw", "reflex", "ab"), values, strict=False):
        edits.append(f"{path}={value}")
        if path == "lp_max":
            edits.append(f"lp={value}")
    if fields.get("rasse", "").strip():
        edits.append(f"rasse={fields['rasse'].strip()}")
    thresholds = _numbers(fields.get("handlungen", ""), 5, "w6cog.sheet.bad_thresholds")
    if thresholds != sorted(thresholds):
        raise BadInput("w6cog.sheet.bad_thresholds", value=fields["handlungen"][:60])
    if thresholds:
        edits.append("handlungen=" + ",".join(str(n) for n in thresholds))
    try:
        base = sheet_from_json(
            {"schema": SCHEMA, "version": VERSION, "name": fields.get("name", "")}
        )
        return edit_many(base, edits)
    except BadInput as error:
        field = error.params.get("field")
        if isinstance(field, str):
            error.params["field"] = modal_label(field, lang)
        raise


def sheet_view(record: CharacterRecord, sheet: Sheet, lang: str) -> SheetView:
    """The plain data the sheet renderer draws (texts already translated)."""
    derived = derive(sheet)
    owner = t("w6cog.sheet.npc", lang) if record.owner_id is None else ""
    subtitle = " · ".join(p for p in (sheet.rasse, owner, f"#{record.id}") if p)

    def rows(pairs: tuple[tuple[str, int], ...]) -> tuple[Row, ...]:
        return tuple(Row(name, str(value)) for name, value in pairs)

    values = (
        Row("LP", f"{sheet.lp} / {sheet.lp_max}"),
        Row("RLP", str(sheet.rlp)),
        Row("KW", str(sheet.kw)),
        Row(t("w6cog.sheet.reflex", lang), str(sheet.reflex)),
        Row(t("w6cog.sheet.magie", lang), str(sheet.magie)),
        Row("AB", str(sheet.ab)),
        Row(t("w6cog.sheet.erfahrung", lang), f"{sheet.erfahrung} (×{sheet.faktor})"),
    )
    computed = (
        Row(t("w6cog.sheet.gesamtschutz", lang), str(derived.gesamtschutz), True),
        Row(t("w6cog.sheet.behinderung", lang), str(derived.behinderung_kw), True),
        Row(t("w6cog.sheet.kw_eff", lang), str(derived.kw_effektiv), True),
        Row(t("w6cog.sheet.reflex_eff", lang), str(derived.reflex_effektiv), True),
        Row(t("w6cog.sheet.handlungen", lang), str(derived.handlungen), True),
        Row(t("w6cog.sheet.schwelle", lang), schwelle_text(sheet, derived), True),
        Row(t("w6cog.sheet.kraft", lang), str(derived.kraft), True),
    )
    # a heading row names the columns of the weapon lines (Basis · Zusatz · Fertigkeit)
    heading = (Row(t("w6cog.sheet.weapon", lang), t("w6cog.sheet.weapon_columns", lang)),)
    weapons = tuple(
        Row(
            w.name,
            f"{w.basisschaden[0]}-{w.basisschaden[1]} · +{w.zusatzschaden} · "
            f"+{w.fertigkeitsschaden}",
            True,
        )
        for w in derived.waffen
    )
    weapons = heading + weapons if weapons else ()
    armour = tuple(Row(f"{a.name} ({a.zone})", f"RS {a.rs} / BE {a.be}") for a in sheet.ruestung)
    if sheet.schild is not None:
        armour += (Row(sheet.schild.name, f"KW +{sheet.schild.kw_bonus} / RS {sheet.schild.rs}"),)
    return SheetView(
        title=sheet.name,
        subtitle=subtitle,
        sections=(
            Section(t("w6cog.sheet.pm", lang), rows(pm_in_order(sheet))),
            Section(t("w6cog.sheet.values", lang), values),
            Section(t("w6cog.sheet.eigenschaften", lang), rows(sheet.eigenschaften)),
            Section(t("w6cog.sheet.fertigkeiten", lang), rows(sheet.fertigkeiten)),
            Section(t("w6cog.sheet.derived", lang), computed),
            Section(t("w6cog.sheet.waffen", lang), weapons),
            Section(t("w6cog.sheet.ruestung", lang), armour),
        ),
        legend=t("w6cog.sheet.legend", lang),
    )


async def sheet_image(record: CharacterRecord, sheet: Sheet, lang: str) -> discord.File:
    """The rendered sheet (in a worker thread) as an attachment."""
    data = await render_async(render_sheet, sheet_view(record, sheet, lang))
    return discord.File(io.BytesIO(data), filename=f"{IMAGE_NAME}.png")


def derived_changes(before: Sheet, after: Sheet, lang: str) -> str:
    """The derived values an edit changed, ``Gesamtschutz 2 → 3 · …`` (empty: none)."""
    old, new = derive(before), derive(after)
    pairs = (
        ("gesamtschutz", old.gesamtschutz, new.gesamtschutz),
        ("behinderung", old.behinderung_kw, new.behinderung_kw),
        ("kw_eff", old.kw_effektiv, new.kw_effektiv),
        ("reflex_eff", old.reflex_effektiv, new.reflex_effektiv),
        ("handlungen", old.handlungen, new.handlungen),
        ("schwelle", schwelle_text(before, old), schwelle_text(after, new)),
        ("kraft", old.kraft, new.kraft),
    )
    return " · ".join(
        f"{t(f'w6cog.sheet.{key}', lang)} {was} → {now}" for key, was, now in pairs if was != now
    )


def _fingerprint(record: CharacterRecord) -> str:
    """A short digest of the character's name: a store may give a deleted character's id to a
    new one, and an old confirm must not delete that one (revision 1 again)."""
    return hashlib.sha256(f"{record.id}:{record.name}".encode()).hexdigest()[:10]


def _buttons(*specs: tuple[str, str, discord.ButtonStyle]) -> discord.ui.View:
    """A view of buttons answered by the component router (label, custom id, style)."""
    view = discord.ui.View(timeout=None)
    for label, cid, style in specs:
        view.add_item(discord.ui.Button(label=label[:80], custom_id=cid, style=style))
    view.stop()  # not kept in discord.py's view store: the router answers, also after a restart
    return view


def _json_file(text: str, name: str) -> discord.File:
    safe = "".join(c if c.isalnum() else "_" for c in name)[:40] or "charakter"
    return discord.File(io.BytesIO(text.encode()), filename=f"{safe}.json")


def _named(pairs: dict[str, int], wanted: str) -> str | None:
    """The name in ``pairs`` that is ``wanted`` in any case, else None."""
    folded = wanted.strip().casefold()
    return next((name for name in pairs if name.casefold() == folded), None)


def roll_check(
    sheet: Sheet, eigenschaft: str, fertigkeit: str | None, required: int, malus: int,
    schwierigkeit: str | None, rng: Rng,
) -> tuple[str, str | None, ProbeResult]:  # fmt: skip
    """A check of the engine's dice module with the sheet's values; returns the Eigenschaft
    and Fertigkeit as the sheet spells them (any case is accepted) and the result; one
    Fertigkeit point adds one W6 (the reading in data/w6/RULES.md). Raises BadInput
    (``w6cog.check.unknown_trait`` / ``unknown_skill``, or the engine's)."""
    names = dict(sheet.eigenschaften) | dict(sheet.pm)
    trait = _named(names, eigenschaft)
    if trait is None:
        raise BadInput("w6cog.check.unknown_trait", name=eigenschaft[:40])
    skill = _named(dict(sheet.fertigkeiten), fertigkeit) if fertigkeit else None
    if fertigkeit and skill is None:
        raise BadInput("w6cog.check.unknown_skill", name=fertigkeit[:40])
    spec = ProbeSpec(
        Pool(
            names[trait],
            sheet.fertigkeit(skill) if skill else 0,
            malus,
            DIFFICULTIES.get(schwierigkeit or ""),
        ),
        required,
    )
    spec.validate()
    result, _ = probe(spec, rng)
    return trait, skill, result


def check_text(name: str, trait: str, skill: str | None, result: ProbeResult, lang: str) -> str:
    """The check in the words and layout of ``/probe`` (header, pool, dice, verdict)."""
    source = Source(name, trait, result.spec.pool.base)
    text = probe_text(lang, discord.utils.escape_markdown(name), source, result)
    if skill is None:
        return text
    header, _, rest = text.partition("\n")
    return f"{header} + **{skill} {result.spec.pool.bonus}**\n{rest}"


# ----------------------------------------------------------------------------- the cog


class W6Sheets(commands.Cog):
    charakter = app_commands.Group(
        name=cmd("w6cog.cmd.char.name"), description=cmd("w6cog.cmd.char.desc")
    )
    sl = app_commands.Group(name=cmd("w6cog.cmd.gm.name"), description=cmd("w6cog.cmd.gm.desc"))

    def __init__(self, bot: SpielleiterBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.components.register(MODAL_PREFIX, self.on_new_modal, buttons=False, forms=True)
        self.bot.components.register(BUTTON_PREFIX, self.on_button)

    async def cog_unload(self) -> None:
        self.bot.components.unregister(MODAL_PREFIX)
        self.bot.components.unregister(BUTTON_PREFIX)

    # -- shared steps ------------------------------------------------------------------------

    async def _save(
        self,
        interaction: discord.Interaction[Any],
        campaign: CampaignRecord,
        record: CharacterRecord,
        sheet: Sheet,
    ) -> CharacterRecord:
        await self._require_free_name(campaign, sheet.name, record.id)
        return await self.bot.store.update_character(
            record.id,
            expected_revision=record.revision,
            name=sheet.name,
            sheet=sheet_to_json(sheet),
        )

    async def _require_free_name(
        self, campaign: CampaignRecord, name: str, keep: int | None
    ) -> None:
        """A name is one character per campaign, whatever its case (character ``keep`` may keep
        its own), so every lookup by name finds the one meant. Raises
        BadInput("w6cog.error.name_taken")."""
        wanted = name.strip().casefold()
        for other in await self.bot.store.characters(campaign.id):
            if other.id != keep and other.name.strip().casefold() == wanted:
                raise BadInput("w6cog.error.name_taken", name=name.strip()[:64])

    async def _create(
        self,
        interaction: discord.Interaction[Any],
        campaign: CampaignRecord,
        sheet: Sheet,
        owner_id: int | None,
    ) -> CharacterRecord:
        store = self.bot.store
        characters = await store.characters(campaign.id)
        await self._require_free_name(campaign, sheet.name, None)
        if len(characters) >= MAX_CHARACTERS_PER_CAMPAIGN:
            raise BadInput("w6cog.error.campaign_full", max=MAX_CHARACTERS_PER_CAMPAIGN)
        if owner_id is not None:
            own = [c for c in characters if c.owner_id == owner_id]
            if len(own) >= MAX_CHARACTERS_PER_PLAYER:
                raise BadInput("w6cog.error.too_many_characters", max=MAX_CHARACTERS_PER_PLAYER)
        # character, active mark and log entry in one transaction: all or nothing
        return await store.create_character(
            campaign_id=campaign.id,
            owner_id=owner_id,
            name=sheet.name,
            sheet=sheet_to_json(sheet),
            activate=True,
            log=[(interaction.user.id, "sheet", {"event": "created", "name": sheet.name})],
        )

    async def _editable(
        self, interaction: discord.Interaction[Any], charakter: str | None
    ) -> tuple[CampaignRecord, CharacterRecord]:
        campaign = await campaign_here(interaction)
        record = await find_character(interaction, campaign, charakter)
        require_edit(campaign, record, interaction.user.id)
        return campaign, record

    # -- /charakter ----------------------------------------------------------------------------

    @charakter.command(
        name=cmd("w6cog.cmd.char.new.name"), description=cmd("w6cog.cmd.char.new.desc")
    )
    async def neu(self, interaction: discord.Interaction[Any]) -> None:
        lang = await lang_for(interaction)
        await campaign_here(interaction)
        modal = discord.ui.Modal(
            title=t("w6cog.modal.title", lang)[:45], custom_id=custom_id(MODAL_PREFIX, "basis")
        )
        inputs = (
            ("name", 64, True, ""),
            ("rasse", 64, False, ""),
            ("pm", 40, True, "3 2 4 3"),
            ("werte", 40, False, "20 8 4 5"),
            ("handlungen", 40, False, "8, 12, 16, 20"),
        )
        for key, limit, required, placeholder in inputs:
            modal.add_item(
                discord.ui.TextInput(
                    label=t(f"w6cog.modal.{key}", lang)[:45],
                    custom_id=key,
                    max_length=limit,
                    required=required,
                    placeholder=placeholder or None,
                )
            )
        modal.stop()  # answered by the component router, not kept in discord.py's view store
        await interaction.response.send_modal(modal)

    async def on_new_modal(self, interaction: discord.Interaction[Any], args: list[str]) -> None:
        lang = await lang_for(interaction)
        campaign = await campaign_here(interaction)
        sheet = sheet_from_modal(modal_fields(interaction), lang)
        record = await self._create(interaction, campaign, sheet, interaction.user.id)
        embed = sheet_embed(record, sheet, lang)
        await send(interaction, t("w6cog.sheet.created", lang, name=sheet.name), embed=embed)

    @charakter.command(
        name=cmd("w6cog.cmd.char.import.name"), description=cmd("w6cog.cmd.char.import.desc")
    )
    @app_commands.rename(datei=cmd("w6cog.opt.attachment.name"), npc=cmd("w6cog.opt.npc.name"))
    @app_commands.describe(datei=cmd("w6cog.opt.sheet_file.desc"), npc=cmd("w6cog.opt.npc.desc"))
    async def importieren(
        self, interaction: discord.Interaction[Any], datei: discord.Attachment, npc: bool = False
    ) -> None:
        lang = await lang_for(interaction)
        campaign = await campaign_here(interaction)
        if npc:
            require_gm(campaign, interaction.user.id)
        if datei.size > MAX_SHEET_BYTES:
            raise BadInput("json.too_big", max=MAX_SHEET_BYTES // 1000)
        sheet = sheet_from_text(await datei.read())
        owner = None if npc else interaction.user.id
        record = await self._create(interaction, campaign, sheet, owner)
        await send(
            interaction,
            t("w6cog.sheet.imported", lang, name=sheet.name),
            embed=sheet_embed(record, sheet, lang),
            ephemeral=npc,
        )

    @charakter.command(
        name=cmd("w6cog.cmd.char.field.name"), description=cmd("w6cog.cmd.char.field.desc")
    )
    @app_commands.rename(
        feld=cmd("w6cog.opt.field.name"),
        wert=cmd("w6cog.opt.value.name"),
        charakter=cmd("w6cog.opt.character.name"),
    )
    @app_commands.describe(
        feld=cmd("w6cog.opt.field.desc"),
        wert=cmd("w6cog.opt.value.desc"),
        charakter=cmd("w6cog.opt.character.desc"),
    )
    async def feld(
        self,
        interaction: discord.Interaction[Any],
        feld: app_commands.Range[str, 1, 100],
        wert: app_commands.Range[str, 1, 4000],
        charakter: str | None = None,
    ) -> None:
        lang = await lang_for(interaction)
        campaign, record = await self._editable(interaction, charakter)
        before = load_sheet(record)
        sheet = set_field(before, feld, wert)
        record = await self._save(interaction, campaign, record, sheet)
        await log(interaction, campaign, "sheet", event="edited", name=sheet.name, field=feld)
        # a sheet is built field by field: each answer is the editor's alone, with what changed
        # (the field and the values derived from it); the whole sheet on a button
        text = t("w6cog.sheet.field_set", lang, name=sheet.name, field=feld, value=wert[:200])
        changes = derived_changes(before, sheet, lang)
        if changes:
            text += "\n" + t("w6cog.sheet.derived_changed", lang, changes=changes)
        view = _buttons(
            (
                t("w6cog.sheet.show_button", lang),
                custom_id(BUTTON_PREFIX, "zeigen", record.id, interaction.user.id),
                discord.ButtonStyle.secondary,
            )
        )
        await send(interaction, text, view=view, ephemeral=True)

    @feld.autocomplete("feld")
    async def feld_paths(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        campaign = await self.bot.store.active_campaign(interaction.channel_id or 0)
        if campaign is None:
            return []
        chosen = (interaction.namespace.charakter or None) if interaction.namespace else None
        blank = sheet_from_json({"schema": SCHEMA, "version": VERSION, "name": "-"})
        try:
            record = await find_character(interaction, campaign, chosen)
            npc_hidden = record.owner_id is None and not campaign.is_gm(interaction.user.id)
            # an NPC's paths would name its sheet's entries (eigenschaften.Feuerodem)
            paths = field_paths(blank if npc_hidden else load_sheet(record))
        except BadInput:
            paths = field_paths(blank)
        needle = current.casefold()
        found = [p for p in paths if needle in p.casefold()]
        if current and current not in found:
            found.insert(0, current)
        return [
            app_commands.Choice(name=p[:100], value=p[:100]) for p in found[:AUTOCOMPLETE_LIMIT]
        ]

    @charakter.command(
        name=cmd("w6cog.cmd.char.show.name"), description=cmd("w6cog.cmd.char.show.desc")
    )
    @character_option
    async def zeigen(
        self, interaction: discord.Interaction[Any], charakter: str | None = None
    ) -> None:
        lang = await lang_for(interaction)
        campaign = await campaign_here(interaction)
        record = await find_character(interaction, campaign, charakter)
        if record.owner_id is None:
            require_gm(campaign, interaction.user.id)
        sheet = load_sheet(record)
        await interaction.response.defer(ephemeral=record.owner_id is None, thinking=True)
        embed = sheet_embed(record, sheet, lang)
        embed.set_image(url=f"attachment://{IMAGE_NAME}.png")
        file = await sheet_image(record, sheet, lang)
        await send(interaction, embed=embed, file=file, ephemeral=record.owner_id is None)

    @charakter.command(
        name=cmd("w6cog.cmd.char.active.name"), description=cmd("w6cog.cmd.char.active.desc")
    )
    @character_option
    async def aktiv(self, interaction: discord.Interaction[Any], charakter: str) -> None:
        lang = await lang_for(interaction)
        campaign, record = await self._editable(interaction, charakter)
        await self.bot.store.set_active_character(campaign.id, interaction.user.id, record.id)
        await send(interaction, t("w6cog.sheet.active", lang, name=record.name), ephemeral=True)

    @charakter.command(
        name=cmd("w6cog.cmd.char.export.name"), description=cmd("w6cog.cmd.char.export.desc")
    )
    @character_option
    async def exportieren(
        self, interaction: discord.Interaction[Any], charakter: str | None = None
    ) -> None:
        lang = await lang_for(interaction)
        _, record = await self._editable(interaction, charakter)
        text = sheet_to_text(load_sheet(record))
        await send(
            interaction,
            t("w6cog.sheet.exported", lang, name=record.name),
            file=_json_file(text, record.name),
            ephemeral=True,
        )

    @charakter.command(
        name=cmd("w6cog.cmd.char.template.name"), description=cmd("w6cog.cmd.char.template.desc")
    )
    async def vorlage(self, interaction: discord.Interaction[Any]) -> None:
        """A filled example sheet (weapons, armour, shield) that ``/charakter import`` takes
        as it is; the fields are explained in data/w6/SHEET.md."""
        lang = await lang_for(interaction)
        file = discord.File(io.BytesIO(TEMPLATE_FILE.read_bytes()), filename=TEMPLATE_FILE.name)
        await send(interaction, t("w6cog.sheet.template", lang), file=file, ephemeral=True)

    @charakter.command(
        name=cmd("w6cog.cmd.char.list.name"), description=cmd("w6cog.cmd.char.list.desc")
    )
    async def liste(self, interaction: discord.Interaction[Any]) -> None:
        lang = await lang_for(interaction)
        campaign = await campaign_here(interaction)
        records = await self.bot.store.characters(campaign.id)
        active = await self.bot.store.active_character(campaign.id, interaction.user.id)
        gm = campaign.is_gm(interaction.user.id)
        lines = []
        for r in records:
            if r.owner_id is None and not gm:
                continue
            owner = t("w6cog.sheet.npc", lang) if r.owner_id is None else f"<@{r.owner_id}>"
            mark = " ★" if active is not None and active.id == r.id else ""
            lines.append(f"#{r.id} **{r.name}** – {owner}{mark}")
        text = fit.join_limited(lines, fit.CONTENT, lang, sep="\n") or t("w6cog.sheet.none", lang)
        await send(interaction, text, ephemeral=True)

    @charakter.command(
        name=cmd("w6cog.cmd.char.delete.name"), description=cmd("w6cog.cmd.char.delete.desc")
    )
    @character_option
    async def loeschen(self, interaction: discord.Interaction[Any], charakter: str) -> None:
        lang = await lang_for(interaction)
        _, record = await self._editable(interaction, charakter)
        asker = interaction.user.id
        digest = _fingerprint(record)
        view = _buttons(
            (
                t("w6cog.sheet.delete_button", lang),
                custom_id(BUTTON_PREFIX, "loeschen", record.id, asker, record.revision, digest),
                discord.ButtonStyle.danger,
            ),
            (
                t("w6cog.sheet.cancel_button", lang),
                custom_id(BUTTON_PREFIX, "abbrechen", record.id, asker),
                discord.ButtonStyle.secondary,
            ),
        )
        text = t("w6cog.sheet.delete_confirm", lang, name=record.name)
        await send(interaction, text, view=view, ephemeral=True)

    async def on_button(self, interaction: discord.Interaction[Any], args: list[str]) -> None:
        """The buttons of ``/charakter feld`` (the whole sheet) and ``/charakter löschen``
        (confirm, cancel): only the user who asked; a button of a character deleted or changed
        since is answered kindly and changes nothing."""
        lang = await lang_for(interaction)
        if len(args) < 3 or not all(a.isdecimal() for a in args[1:4]):
            raise BadInput("error.unknown_component")
        what, char_id, asker = args[0], int(args[1]), int(args[2])
        if asker != interaction.user.id:
            raise IllegalAction("w6cog.sheet.not_your_button")
        record = await self.bot.store.get_character(char_id)
        if what == "abbrechen":
            name = record.name if record else "–"
            text = t("w6cog.sheet.delete_cancelled", lang, name=name)
            await interaction.response.edit_message(content=text, view=None)
            return
        campaign = await campaign_here(interaction)
        if record is None or record.campaign_id != campaign.id:
            raise BadInput("w6cog.sheet.gone")
        require_edit(campaign, record, interaction.user.id)
        if what == "zeigen":
            sheet = load_sheet(record)
            await send(interaction, embed=sheet_embed(record, sheet, lang), ephemeral=True)
            return
        if what != "loeschen" or len(args) != 5:
            raise BadInput("error.unknown_component")
        if _fingerprint(record) != args[4]:  # the id of a deleted one, given to another
            raise BadInput("w6cog.sheet.gone")
        if record.revision != int(args[3]):
            raise BadInput("w6cog.sheet.changed_since", name=record.name)
        await self.bot.store.delete_character(record.id)
        await log(interaction, campaign, "sheet", event="deleted", name=record.name)
        text = t("w6cog.sheet.deleted", lang, name=record.name)
        await interaction.response.edit_message(content=text, view=None)

    @charakter.command(
        name=cmd("w6cog.cmd.char.check.name"), description=cmd("w6cog.cmd.char.check.desc")
    )
    @app_commands.rename(
        eigenschaft=cmd("w6cog.opt.trait.name"),
        fertigkeit=cmd("w6cog.opt.skill.name"),
        erfolge=cmd("w6cog.opt.successes.name"),
        malus=cmd("w6cog.opt.malus.name"),
        schwierigkeit=cmd("w6cog.opt.difficulty.name"),
    )
    @app_commands.describe(
        eigenschaft=cmd("w6cog.opt.trait.desc"),
        fertigkeit=cmd("w6cog.opt.skill.desc"),
        erfolge=cmd("w6cog.opt.successes.desc"),
        malus=cmd("w6cog.opt.malus.desc"),
        schwierigkeit=cmd("w6cog.opt.difficulty.desc"),
    )
    @app_commands.choices(
        schwierigkeit=[
            app_commands.Choice(name=cmd(f"w6cog.difficulty.{name}"), value=name)
            for name in DIFFICULTIES
        ]
    )
    async def probe(
        self,
        interaction: discord.Interaction[Any],
        eigenschaft: str,
        fertigkeit: str | None = None,
        erfolge: app_commands.Range[int, 1, 30] = 2,
        malus: app_commands.Range[int, 0, 60] = 0,
        schwierigkeit: str | None = None,
    ) -> None:
        lang = await lang_for(interaction)
        campaign = await campaign_here(interaction)
        record = await find_character(interaction, campaign, None)
        trait, skill, result = roll_check(
            load_sheet(record), eigenschaft, fertigkeit, erfolge, malus, schwierigkeit,
            self.bot.chance.rng(),
        )  # fmt: skip
        label = trait + (f" + {skill}" if skill else "")
        await log(
            interaction, campaign, "check", name=record.name, what=label,
            successes=result.successes, required=result.required,
        )  # fmt: skip
        await send(interaction, check_text(record.name, trait, skill, result, lang))

    @probe.autocomplete("eigenschaft")
    async def probe_traits(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._names(interaction, current, "eigenschaften")

    @probe.autocomplete("fertigkeit")
    async def probe_skills(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._names(interaction, current, "fertigkeiten")

    async def _names(
        self, interaction: discord.Interaction[Any], current: str, which: str
    ) -> list[app_commands.Choice[str]]:
        campaign = await self.bot.store.active_campaign(interaction.channel_id or 0)
        if campaign is None:
            return []
        chosen = getattr(interaction.namespace, "charakter", None)
        try:
            record = await find_character(interaction, campaign, chosen)
            sheet = load_sheet(record)
        except BadInput:
            return []
        if record.owner_id is None and not campaign.is_gm(interaction.user.id):
            return []  # an NPC's sheet is the GM's: not even its names for a player
        pairs = sheet.eigenschaften + sheet.pm if which == "eigenschaften" else sheet.fertigkeiten
        needle = current.casefold()
        return [
            app_commands.Choice(name=f"{name} ({value})"[:100], value=name[:100])
            for name, value in pairs
            if needle in name.casefold()
        ][:AUTOCOMPLETE_LIMIT]

    # -- /sl (GM tools) ----------------------------------------------------------------------

    @sl.command(name=cmd("w6cog.cmd.gm.npc.name"), description=cmd("w6cog.cmd.gm.npc.desc"))
    @app_commands.rename(werte=cmd("w6cog.opt.npc_text.name"))
    @app_commands.describe(werte=cmd("w6cog.opt.npc_text.desc"))
    async def npc(
        self, interaction: discord.Interaction[Any], werte: app_commands.Range[str, 1, 300]
    ) -> None:
        lang = await lang_for(interaction)
        campaign = await campaign_here(interaction)
        require_gm(campaign, interaction.user.id)
        sheet = npc_from_text(werte)
        record = await self._create(interaction, campaign, sheet, None)
        await send(
            interaction,
            t("w6cog.sheet.npc_created", lang, name=sheet.name),
            embed=sheet_embed(record, sheet, lang),
            ephemeral=True,
        )

    async def _change_lp(
        self,
        interaction: discord.Interaction[Any],
        charakter: str,
        kind: str,
        change: int,
    ) -> None:
        lang = await lang_for(interaction)
        campaign = await campaign_here(interaction)
        require_gm(campaign, interaction.user.id)
        record = await find_character(interaction, campaign, charakter)
        sheet = load_sheet(record)
        if kind == "rest":
            change = sheet.rlp  # daily regeneration: RLP per day (Charakterdokument "RLP")
        new_lp = min(sheet.lp_max, sheet.lp + change) if change > 0 else sheet.lp + change
        new_lp = max(-999, new_lp)
        updated = set_field(sheet, "lp", str(new_lp))
        await self._save(interaction, campaign, record, updated)
        await log(
            interaction, campaign, kind, name=sheet.name, amount=abs(new_lp - sheet.lp),
            lp=new_lp, lp_max=sheet.lp_max,
        )  # fmt: skip
        text = t(
            f"w6cog.gm.{kind}", lang, name=sheet.name, amount=abs(new_lp - sheet.lp), lp=new_lp,
            lp_max=sheet.lp_max,
        )  # fmt: skip
        if kind == "damage" and new_lp < sheet.rlp:
            text += "\n" + t("w6cog.gm.kraft_check", lang, name=sheet.name)
        if kind == "rest" and sheet.rlp == 0:
            text += "\n" + t("w6cog.gm.rest_no_rlp", lang, name=sheet.name)
        await send(interaction, text)

    @sl.command(name=cmd("w6cog.cmd.gm.damage.name"), description=cmd("w6cog.cmd.gm.damage.desc"))
    @app_commands.rename(
        charakter=cmd("w6cog.opt.character.name"), punkte=cmd("w6cog.opt.points.name")
    )
    @app_commands.describe(
        charakter=cmd("w6cog.opt.character.desc"), punkte=cmd("w6cog.opt.points.desc")
    )
    async def schaden(
        self,
        interaction: discord.Interaction[Any],
        charakter: str,
        punkte: app_commands.Range[int, 1, 999],
    ) -> None:
        await self._change_lp(interaction, charakter, "damage", -punkte)

    @sl.command(name=cmd("w6cog.cmd.gm.heal.name"), description=cmd("w6cog.cmd.gm.heal.desc"))
    @app_commands.rename(
        charakter=cmd("w6cog.opt.character.name"), punkte=cmd("w6cog.opt.points.name")
    )
    @app_commands.describe(
        charakter=cmd("w6cog.opt.character.desc"), punkte=cmd("w6cog.opt.points.desc")
    )
    async def heilen(
        self,
        interaction: discord.Interaction[Any],
        charakter: str,
        punkte: app_commands.Range[int, 1, 999],
    ) -> None:
        await self._change_lp(interaction, charakter, "heal", punkte)

    @sl.command(name=cmd("w6cog.cmd.gm.rest.name"), description=cmd("w6cog.cmd.gm.rest.desc"))
    @character_option
    async def rast(self, interaction: discord.Interaction[Any], charakter: str) -> None:
        await self._change_lp(interaction, charakter, "rest", 0)

    @sl.command(name=cmd("w6cog.cmd.gm.secret.name"), description=cmd("w6cog.cmd.gm.secret.desc"))
    @app_commands.rename(
        charakter=cmd("w6cog.opt.character.name"),
        eigenschaft=cmd("w6cog.opt.trait.name"),
        fertigkeit=cmd("w6cog.opt.skill.name"),
        erfolge=cmd("w6cog.opt.successes.name"),
        malus=cmd("w6cog.opt.malus.name"),
    )
    @app_commands.describe(
        charakter=cmd("w6cog.opt.character.desc"),
        eigenschaft=cmd("w6cog.opt.trait.desc"),
        fertigkeit=cmd("w6cog.opt.skill.desc"),
        erfolge=cmd("w6cog.opt.successes.desc"),
        malus=cmd("w6cog.opt.malus.desc"),
    )
    async def geheim(
        self,
        interaction: discord.Interaction[Any],
        charakter: str,
        eigenschaft: str,
        fertigkeit: str | None = None,
        erfolge: app_commands.Range[int, 1, 30] = 2,
        malus: app_commands.Range[int, 0, 60] = 0,
    ) -> None:
        lang = await lang_for(interaction)
        campaign = await campaign_here(interaction)
        require_gm(campaign, interaction.user.id)
        record = await find_character(interaction, campaign, charakter)
        trait, skill, result = roll_check(
            load_sheet(record), eigenschaft, fertigkeit, erfolge, malus, None, self.bot.chance.rng()
        )
        label = trait + (f" + {skill}" if skill else "")
        await log(
            interaction, campaign, "secret_check", name=record.name, what=label,
            successes=result.successes, required=result.required,
        )  # fmt: skip
        text = check_text(record.name, trait, skill, result, lang)
        await send(interaction, text, ephemeral=True)

    @feld.autocomplete("charakter")
    @zeigen.autocomplete("charakter")
    @aktiv.autocomplete("charakter")
    @exportieren.autocomplete("charakter")
    @loeschen.autocomplete("charakter")
    @schaden.autocomplete("charakter")
    @heilen.autocomplete("charakter")
    @rast.autocomplete("charakter")
    @geheim.autocomplete("charakter")
    async def character_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await character_choices(interaction, current)

    @geheim.autocomplete("eigenschaft")
    async def geheim_traits(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._names(interaction, current, "eigenschaften")


async def setup(bot: SpielleiterBot) -> None:
    await bot.add_cog(W6Sheets(bot))
