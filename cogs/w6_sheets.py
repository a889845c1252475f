"""``/charakter`` (sheets per campaign and owner: create, import, edit fields, show as embed and
image, choose the active one, export, checks) and ``/sl`` (the GM's tools: quick NPCs, damage,
healing, rest, secret checks). The store writes and the sheet logic are ``bot.sheets``, the
words, image and buttons ``bot.play.specs.w6_sheet``."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SpielleiterBot
from bot.components import modal_fields
from bot.i18n import cmd, t
from bot.play.specs.w6_sheet import (
    BUTTON_PREFIX,
    IMAGE_NAME,
    MODAL_PREFIX,
    character_list,
    check_text,
    creation_modal,
    delete_confirm,
    field_set,
    json_file,
    kraft_button,
    kraft_result,
    lp_text,
    sheet_embed,
    sheet_image,
)
from bot.replies import lang_for, send
from bot.services.campaigns import CampaignRecord, CharacterRecord, may_read_sheet
from bot.sheets import (
    DIFFICULTIES,
    MAX_SHEET_BYTES,
    Sheets,
    blank_sheet,
    field_paths,
    fingerprint,
    require_edit,
    roll_check,
    sheet_from_modal,
)
from cogs.w6 import (
    AUTOCOMPLETE_LIMIT,
    campaign_here,
    campaigns,
    channel_of,
    character_choices,
    character_option,
    find_character,
    load_sheet,
    log,
    require_gm,
)
from engines.core import BadInput, IllegalAction
from engines.core.content import data_dir
from engines.w6 import npc_from_text, set_field, sheet_from_text, sheet_to_text

TEMPLATE_FILE = data_dir("w6") / "vorlage.json"  # documented in data/w6/SHEET.md


class W6Sheets(commands.Cog):
    charakter = app_commands.Group(
        name=cmd("w6cog.cmd.char.name"), description=cmd("w6cog.cmd.char.desc")
    )
    sl = app_commands.Group(name=cmd("w6cog.cmd.gm.name"), description=cmd("w6cog.cmd.gm.desc"))

    def __init__(self, bot: SpielleiterBot) -> None:
        self.bot = bot
        self.sheets = Sheets(bot.store)

    async def cog_load(self) -> None:
        self.bot.components.register(MODAL_PREFIX, self.on_new_modal, buttons=False, forms=True)
        self.bot.components.register(BUTTON_PREFIX, self.on_button)

    async def cog_unload(self) -> None:
        self.bot.components.unregister(MODAL_PREFIX)
        self.bot.components.unregister(BUTTON_PREFIX)

    # -- shared steps ------------------------------------------------------------------------

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
        modal = creation_modal(lang)
        await interaction.response.send_modal(modal)

    async def on_new_modal(self, interaction: discord.Interaction[Any], args: list[str]) -> None:
        lang = await lang_for(interaction)
        campaign = await campaign_here(interaction)
        sheet = sheet_from_modal(modal_fields(interaction), lang)
        record = await self.sheets.create(campaign, sheet, interaction.user.id, interaction.user.id)
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
        record = await self.sheets.create(campaign, sheet, owner, interaction.user.id)
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
        record = await self.sheets.edit(campaign, record, sheet, feld, interaction.user.id)
        # a sheet is built field by field: each answer is the editor's alone, with what changed
        # (the field and the values derived from it); the whole sheet on a button
        answer = field_set(record, before, sheet, feld, wert, interaction.user.id, lang)
        await send(interaction, ephemeral=True, **answer)

    @feld.autocomplete("feld")
    async def feld_paths(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        campaign = await campaigns(interaction).in_channel(channel_of(interaction))
        if campaign is None:
            return []
        chosen = (interaction.namespace.charakter or None) if interaction.namespace else None
        blank = blank_sheet()
        try:
            record = await find_character(interaction, campaign, chosen)
            readable = may_read_sheet(campaign, record, interaction.user.id)
            # an NPC's paths would name its sheet's entries (eigenschaften.Feuerodem)
            paths = field_paths(load_sheet(record) if readable else blank)
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
        await campaigns(interaction).activate(campaign, interaction.user.id, record.id)
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
            file=json_file(text, record.name),
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
        records = await campaigns(interaction).characters(campaign)
        active = await campaigns(interaction).active_character(campaign, interaction.user.id)
        text = character_list(records, active, campaign.is_gm(interaction.user.id), lang)
        await send(interaction, text, ephemeral=True)

    @charakter.command(
        name=cmd("w6cog.cmd.char.delete.name"), description=cmd("w6cog.cmd.char.delete.desc")
    )
    @character_option
    async def loeschen(self, interaction: discord.Interaction[Any], charakter: str) -> None:
        lang = await lang_for(interaction)
        _, record = await self._editable(interaction, charakter)
        question = delete_confirm(record, interaction.user.id, fingerprint(record), lang)
        await send(interaction, ephemeral=True, **question)

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
        record = await campaigns(interaction).character(char_id)
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
        if what == "kraft":  # rolled once: the button goes with the result
            user, rng = interaction.user.id, self.bot.chance.rng()
            name, dice, required = await self.sheets.kraft_check(campaign, record, user, rng)
            result = kraft_result(name, dice, required, lang)
            content = interaction.message.content if interaction.message else ""
            await interaction.response.edit_message(
                content=f"{content}\n{result}".strip(), view=None
            )
            return
        if what != "loeschen" or len(args) != 5:
            raise BadInput("error.unknown_component")
        if fingerprint(record) != args[4]:  # the id of a deleted one, given to another
            raise BadInput("w6cog.sheet.gone")
        if record.revision != int(args[3]):
            raise BadInput("w6cog.sheet.changed_since", name=record.name)
        await self.sheets.delete(campaign, record, interaction.user.id)
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
        campaign = await campaigns(interaction).in_channel(channel_of(interaction))
        if campaign is None:
            return []
        chosen = getattr(interaction.namespace, "charakter", None)
        try:
            record = await find_character(interaction, campaign, chosen)
            sheet = load_sheet(record)
        except BadInput:
            return []
        if not may_read_sheet(campaign, record, interaction.user.id):
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
        record = await self.sheets.create(campaign, sheet, None, interaction.user.id)
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
        # the LP and their log entry in one write (an NPC's: for the GMs only, as the answer)
        sheet, new_lp = await self.sheets.change_lp(
            campaign, record, kind, change, interaction.user.id
        )
        npc = record.owner_id is None
        text = lp_text(kind, sheet, new_lp, lang)
        if kind == "damage" and new_lp < sheet.rlp:  # SCHADEN: a Kraft-Probe decides
            view = kraft_button(record, interaction.user.id, lang)
            await send(interaction, text, view=view, ephemeral=npc)
            return
        await send(interaction, text, ephemeral=npc)

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
