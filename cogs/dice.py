"""Dice: ``/roll``, saved rolls (``/würfel speichern|löschen|liste``), W6 checks (``/probe``,
``/probe-komplex``, ``/probe-konkurrierend``) and the Telperinquár rolls
(``/telperinquar-wurf angriff|erfolgswurf``). The rules live in ``engines.dice``; this cog
parses, rolls, renders and replies.

Visibility (every rolling command): open by default; ``privat`` answers ephemerally; ``geheim``
needs an active campaign in the channel: the roller gets the result ephemerally, every GM and
co-GM (except the roller) a DM in their own language, and the channel a notice without the
result. Rolls and W6 checks are written to the campaign log (before the reply) when the
channel has a campaign.

Saved rolls: when the ``/roll`` expression starts with a saved name (yours first, then the
campaign's), :func:`engines.dice.saved.expand_saved` replaces it; the names' rules are in
:mod:`bot.narration.dice`, as are every text, image and log entry of a roll.

"Nochmal würfeln" button: ``roll:again:<o|p|s>:<expression>`` (open, private, secret) holds the
expression after the saved name was replaced; when that would pass Discord's 100 characters it
is ``roll:again:<mode>`` and the expression is read back from the first `code span` of the
message the button is on. Nothing is kept in memory, so the button works after a restart.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SpielleiterBot
from bot.i18n import cmd, options, t
from bot.limits import MAX_SAVED_ROLLS
from bot.narration import dice as narration
from bot.render.dice import DiceImage, render_dice
from bot.replies import lang_for, send
from bot.services.dice import (
    CampaignRecord,
    CharacterRecord,
    DiceService,
    character_choices,
    heavy_roll,
    scopes,
    sheet_skills,
)
from bot.workers import render_async, run_apart
from engines.core import BadInput, IllegalAction, Rng
from engines.dice import (
    ContestSide,
    Pool,
    ProbeSpec,
    attack_roll,
    check_notation,
    erfolgswurf,
    komplexe_probe,
    konkurrierende_probe,
    parse_komplex,
    probe,
    roll_notation,
)

log = logging.getLogger("spielleiter.dice")
__all__ = ["Dice", "setup"]  # the dice texts (probe_text, Source …) are bot.narration.dice's

Visibility = narration.Visibility
MODE_LETTERS: dict[Visibility, str] = {"open": "o", "private": "p", "secret": "s"}
LETTER_MODES: dict[str, Visibility] = {v: k for k, v in MODE_LETTERS.items()}
PREFIX = "roll"
AGAIN = "again"
MAX_CUSTOM_ID = 100
AUTOCOMPLETE_LIMIT = 25
MAX_SAVED = MAX_SAVED_ROLLS
HEAVY_DICE = 100  # from here a roll and its image are made off the event loop, after a defer
IMAGE_NAME = "wuerfel"
CODE_SPAN = re.compile(r"`([^`]+)`")


def _image_file(lang: str, image: DiceImage, png: bytes) -> discord.File:
    return discord.File(
        io.BytesIO(png), filename=f"{IMAGE_NAME}.png", description=narration.image_alt(lang, image)
    )


def reroll_id(visibility: Visibility, expression: str) -> str:
    """The custom_id of the re-roll button: the expression inside when it fits."""
    full = ":".join((PREFIX, AGAIN, MODE_LETTERS[visibility], expression))
    if len(full) <= MAX_CUSTOM_ID:
        return full
    return ":".join((PREFIX, AGAIN, MODE_LETTERS[visibility]))


def _expression_from(message: discord.Message | None) -> str:
    found = CODE_SPAN.search(message.content) if message is not None else None
    if found is None:
        raise BadInput("roll.again.lost")
    return found.group(1)


def _choices(pairs: Sequence[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    """Autocomplete choices from (label, value) pairs, as many as Discord shows."""
    return [app_commands.Choice(name=n, value=v) for n, v in pairs[:AUTOCOMPLETE_LIMIT]]


# ---- the cog -------------------------------------------------------------------------------


# option groups several commands share (parameter -> catalog stem under "roll.opt", see options)
VISIBILITY = {"privat": "private", "geheim": "secret"}
POOL = {
    "eigenschaft": "attribute",
    "wert": "value",
    "bonus": "bonus",
    "charakter": "character",
    "erschwernis": "difficulty",
}
SKILL = {"fertigkeit": "skill"}
PoolSize = app_commands.Range[int, 0, 100]
Required = app_commands.Range[int, 1, 100]
TqNumber = app_commands.Range[int, -1000, 1000]
Level = app_commands.Range[int, 1, 10]


class Dice(commands.Cog):
    saved = app_commands.Group(
        name=cmd("roll.cmd.saved.name"), description=cmd("roll.cmd.saved.desc")
    )
    telperinquar = app_commands.Group(
        name=cmd("roll.cmd.tq.name"), description=cmd("roll.cmd.tq.desc")
    )

    def __init__(self, bot: SpielleiterBot) -> None:
        self.bot = bot
        self.dice = DiceService(bot.store)
        self.new_rng: Callable[[], Rng] = bot.chance.rng

    async def cog_load(self) -> None:
        self.bot.components.register(PREFIX, self.on_roll_button)

    async def cog_unload(self) -> None:
        self.bot.components.unregister(PREFIX)

    # ---- /roll ---------------------------------------------------------------------------

    @app_commands.command(name=cmd("roll.cmd.roll.name"), description=cmd("roll.cmd.roll.desc"))
    @options("roll.opt", ausdruck="expression", **VISIBILITY)
    async def roll(
        self,
        interaction: discord.Interaction[Any],
        ausdruck: str,
        privat: bool = False,
        geheim: bool = False,
    ) -> None:
        await self.roll_expression(interaction, ausdruck, narration.visibility_of(privat, geheim))

    @roll.autocomplete("ausdruck")
    async def _roll_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.expression_choices(interaction, current)

    async def on_roll_button(self, interaction: discord.Interaction[Any], args: list[str]) -> None:
        """``roll:again:<mode>[:<expression>]``: roll the same expression again."""
        if len(args) < 2 or args[0] != AGAIN or args[1] not in LETTER_MODES:
            raise BadInput("roll.again.lost")
        expression = ":".join(args[2:]) or _expression_from(interaction.message)
        await self.roll_expression(interaction, expression, LETTER_MODES[args[1]], expand=False)

    async def roll_expression(
        self,
        interaction: discord.Interaction[Any],
        text: str,
        visibility: Visibility,
        *,
        expand: bool = True,
    ) -> None:
        lang, campaign = await self._lang_and_campaign(interaction, visibility)
        expression = " ".join(text.split())
        if expand:
            expression = await self._expand_saved(expression, interaction.user.id, campaign)
        image, png = None, None
        if check_notation(expression).dice_count >= HEAVY_DICE:  # bad input is told at once
            await self._defer(interaction, visibility)
            result, image, png = await run_apart(heavy_roll, expression, self.new_rng())
        else:
            result, _ = roll_notation(expression, self.new_rng())
        who, again = narration.display(interaction.user), reroll_id(visibility, expression)
        shown = narration.roll_shown(who, expression, result, visibility, again, image)
        await self._deliver(interaction, lang, shown, visibility, campaign, png)

    async def _expand_saved(
        self, expression: str, user_id: int, campaign: CampaignRecord | None
    ) -> str:
        if narration.leading_name(expression) is None:
            return expression
        mine, theirs = scopes(user_id, campaign)
        saved = await self.dice.saved([mine] + ([theirs] if theirs else []))
        return narration.with_saved(expression, saved)

    async def expression_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The user's and the campaign's saved rolls whose name starts like ``current``."""
        mine, theirs = await self._saved_by_scope(interaction)
        return _choices(
            narration.expression_choices(await lang_for(interaction), current, mine, theirs)
        )

    async def _saved_by_scope(
        self, interaction: discord.Interaction[Any]
    ) -> tuple[dict[str, str], dict[str, str]]:
        campaign = await self._campaign(interaction)
        mine, theirs = scopes(interaction.user.id, campaign)
        return await self.dice.saved([mine]), (await self.dice.saved([theirs]) if theirs else {})

    # ---- /würfel speichern | löschen | liste -------------------------------------------------

    @saved.command(name=cmd("roll.cmd.save.name"), description=cmd("roll.cmd.save.desc"))
    @options(
        "roll.opt", name="name", ausdruck=("expression", "saved_expression"), kampagne="campaign"
    )
    async def save(
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, 32],
        ausdruck: str,
        kampagne: bool = False,
    ) -> None:
        lang = await lang_for(interaction)
        key = narration.check_name(name)
        expression = " ".join(ausdruck.split())
        check_notation(expression)
        scope = await self._writable_scope(interaction, kampagne)
        old = await self.dice.save(scope, key, expression, interaction.user.id, MAX_SAVED)
        text = narration.saved_text(lang, key, expression, old, campaign_wide=kampagne)
        await send(interaction, text, ephemeral=True)

    @saved.command(name=cmd("roll.cmd.delete.name"), description=cmd("roll.cmd.delete.desc"))
    @options("roll.opt", name=("name", "delete_name"), kampagne="campaign")
    async def delete(
        self, interaction: discord.Interaction[Any], name: str, kampagne: bool = False
    ) -> None:
        lang = await lang_for(interaction)
        key = name.strip().lower()
        scope = await self._writable_scope(interaction, kampagne)
        deleted = await self.dice.delete(scope, key)
        if not deleted:
            nearest = narration.nearest_names(key, await self.dice.saved([scope]))
            if nearest:
                raise BadInput(
                    "roll.saved.not_found_near", name=narration.plain(key[:40]), nearest=nearest
                )
            raise BadInput("roll.saved.not_found", name=narration.plain(key[:40]))
        await send(
            interaction,
            t("roll.saved.deleted", lang, name=narration.plain(key[:40])),
            ephemeral=True,
        )

    @delete.autocomplete("name")
    async def _delete_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        mine, theirs = await self._saved_by_scope(interaction)
        names = theirs if getattr(interaction.namespace, "kampagne", False) else mine
        return _choices(narration.saved_choices(names, current))

    @saved.command(name=cmd("roll.cmd.list.name"), description=cmd("roll.cmd.list.desc"))
    async def list_saved(self, interaction: discord.Interaction[Any]) -> None:
        lang = await lang_for(interaction)
        campaign = await self._campaign(interaction)
        mine, theirs = await self._saved_by_scope(interaction)
        name = campaign.name if campaign is not None else None
        await send(interaction, narration.saved_list_text(lang, mine, theirs, name), ephemeral=True)

    async def _writable_scope(
        self, interaction: discord.Interaction[Any], campaign_wide: bool
    ) -> str:
        """The user's scope, or the campaign's (only its GMs may write there)."""
        if not campaign_wide:
            return f"user:{interaction.user.id}"
        campaign = await self._campaign(interaction)
        if campaign is None:
            raise BadInput("roll.saved.no_campaign")
        if not campaign.is_gm(interaction.user.id):
            raise IllegalAction("roll.saved.gm_only")
        return f"campaign:{campaign.id}"

    # ---- /probe, /probe-komplex, /probe-konkurrierend ------------------------------------

    @app_commands.command(name=cmd("roll.cmd.probe.name"), description=cmd("roll.cmd.probe.desc"))
    @options("roll.opt", erfolge="required", **POOL, **SKILL, **VISIBILITY)
    async def probe_command(
        self,
        interaction: discord.Interaction[Any],
        eigenschaft: str | None = None,
        fertigkeit: str | None = None,
        wert: PoolSize | None = None,
        bonus: PoolSize = 0,
        erfolge: Required = 2,
        erschwernis: str | None = None,
        charakter: str | None = None,
        privat: bool = False,
        geheim: bool = False,
    ) -> None:
        lang, visibility, campaign = await self._context(interaction, privat, geheim)
        source, pool = await self.dice.own_pool(
            campaign,
            interaction.user,
            charakter,
            eigenschaft,
            wert,
            bonus,
            erschwernis,
            fertigkeit,
        )
        spec = ProbeSpec(pool, erfolge)
        result, _ = probe(spec, self.new_rng())
        shown = narration.probe_shown(
            narration.display(interaction.user), source, result, visibility
        )
        await self._deliver(interaction, lang, shown, visibility, campaign)

    @app_commands.command(
        name=cmd("roll.cmd.komplex.name"), description=cmd("roll.cmd.komplex.desc")
    )
    @options("roll.opt", aufteilung="split", erfolge="requirements", **POOL, **VISIBILITY)
    async def probe_komplex(
        self,
        interaction: discord.Interaction[Any],
        aufteilung: app_commands.Range[str, 1, 100],
        eigenschaft: str | None = None,
        wert: PoolSize | None = None,
        bonus: PoolSize = 0,
        erfolge: app_commands.Range[str, 1, 100] | None = None,
        erschwernis: str | None = None,
        charakter: str | None = None,
        privat: bool = False,
        geheim: bool = False,
    ) -> None:
        lang, visibility, campaign = await self._context(interaction, privat, geheim)
        source, pool = await self.dice.own_pool(
            campaign,
            interaction.user,
            charakter,
            eigenschaft,
            wert,
            bonus,
            erschwernis,
        )
        parts = parse_komplex(aufteilung, erfolge)
        result, _ = komplexe_probe(pool, parts, self.new_rng())
        who = narration.display(interaction.user)
        shown = narration.komplex_shown(lang, who, source, pool, result, visibility)
        await self._deliver(interaction, lang, shown, visibility, campaign)

    @app_commands.command(
        name=cmd("roll.cmd.contest.name"), description=cmd("roll.cmd.contest.desc")
    )
    @options(
        "roll.opt",
        gegner="opponent",
        gegner_charakter="opponent_character",
        gegner_eigenschaft="opponent_attribute",
        gegner_wert="opponent_value",
        gegner_bonus="opponent_bonus",
        eigenschaft=("attribute", "contest_attribute"),
        wert="value",
        bonus="bonus",
        charakter="character",
        **VISIBILITY,
    )
    async def probe_contest(
        self,
        interaction: discord.Interaction[Any],
        eigenschaft: str | None = None,
        wert: PoolSize | None = None,
        bonus: PoolSize = 0,
        charakter: str | None = None,
        gegner: discord.User | None = None,
        gegner_charakter: str | None = None,
        gegner_eigenschaft: str | None = None,
        gegner_wert: PoolSize | None = None,
        gegner_bonus: PoolSize = 0,
        privat: bool = False,
        geheim: bool = False,
    ) -> None:
        lang, visibility, campaign = await self._context(interaction, privat, geheim)
        if gegner is None and gegner_charakter is None and gegner_wert is None:
            raise BadInput("roll.contest.no_opponent")
        find = partial(self.dice.find_source, campaign, viewer=interaction.user.id)
        first = await find(interaction.user, charakter, eigenschaft, wert, fallback="")
        opponent = t("roll.contest.opponent", lang)
        attribute = gegner_eigenschaft or eigenschaft
        second = await find(
            gegner, gegner_charakter, attribute, gegner_wert, fallback=opponent, opponent=True
        )
        sides = (
            ContestSide(first.label, Pool(first.value, bonus)),
            ContestSide(second.label, Pool(second.value, gegner_bonus)),
        )
        result, _ = konkurrierende_probe(*sides, self.new_rng())
        who = narration.display(interaction.user)
        shown = narration.contest_shown(
            who, (first, second), (bonus, gegner_bonus), result, visibility
        )
        await self._deliver(interaction, lang, shown, visibility, campaign)

    @probe_command.autocomplete("eigenschaft")
    @probe_komplex.autocomplete("eigenschaft")
    @probe_contest.autocomplete("eigenschaft")
    async def _attribute_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        name = getattr(interaction.namespace, "charakter", None)
        return await self._attribute_choices(interaction, interaction.user, name, current, False)

    @probe_contest.autocomplete("gegner_eigenschaft")
    async def _opponent_attribute_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        namespace = interaction.namespace
        user = getattr(namespace, "gegner", None)
        name = getattr(namespace, "gegner_charakter", None)
        return await self._attribute_choices(interaction, user, name, current, True)

    async def _attribute_choices(
        self,
        interaction: discord.Interaction[Any],
        user: Any,
        character_name: str | None,
        current: str,
        opponent: bool,
    ) -> list[app_commands.Choice[str]]:
        """The Eigenschaften of the named character, else of ``user``'s active character."""
        character = await self._choice_character(interaction, user, character_name, opponent)
        values = character.sheet.get("eigenschaften") if character else None
        if not isinstance(values, dict):
            return []
        return _choices(narration.name_choices(values, current))

    @probe_command.autocomplete("fertigkeit")
    async def _skill_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The Fertigkeiten of the chosen character, else of the caller's active one."""
        name = getattr(interaction.namespace, "charakter", None)
        character = await self._choice_character(interaction, interaction.user, name, False)
        if character is None:
            return []
        try:
            return _choices(narration.name_choices(sheet_skills(character), current))
        except BadInput:  # a stored sheet that no longer validates offers nothing
            return []

    async def _choice_character(
        self,
        interaction: discord.Interaction[Any],
        user: Any,
        character_name: str | None,
        opponent: bool,
    ) -> CharacterRecord | None:
        """The character whose values autocomplete may offer: as the commands find it, never
        an NPC's to a player (its values and names are the GM's)."""
        campaign = await self._campaign(interaction)
        if campaign is None:
            return None
        person = user if isinstance(user, discord.abc.User) else None
        return await self.dice.choice_character(
            campaign, interaction.user.id, person, character_name, opponent
        )

    @probe_command.autocomplete("charakter")
    @probe_komplex.autocomplete("charakter")
    @probe_contest.autocomplete("charakter")
    async def _character_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The characters the caller may roll with: a player's own, every one for the GMs."""
        return await self._character_choices(interaction, current, opponent=False)

    @probe_contest.autocomplete("gegner_charakter")
    async def _opponent_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Every character as an opponent, NPCs too (names only; a choice carries no values)."""
        return await self._character_choices(interaction, current, opponent=True)

    async def _character_choices(
        self, interaction: discord.Interaction[Any], current: str, *, opponent: bool
    ) -> list[app_commands.Choice[str]]:
        campaign = await self._campaign(interaction)
        if campaign is None:
            return []
        everyone = await self.dice.characters(campaign)
        viewer = interaction.user.id
        return _choices(character_choices(everyone, campaign, viewer, current, opponent))

    @probe_command.autocomplete("erschwernis")
    @probe_komplex.autocomplete("erschwernis")
    async def _difficulty_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """A typed number as "−N W6", and the named levels that start like the text (all of
        them for an empty text or a number)."""
        return _choices(narration.difficulty_choices(await lang_for(interaction), current))

    # ---- /telperinquar-wurf angriff | erfolgswurf ----------------------------------------

    @telperinquar.command(
        name=cmd("roll.cmd.tq_attack.name"), description=cmd("roll.cmd.tq_attack.desc")
    )
    @options(
        "roll.opt", bonus=("bonus", "tq_bonus"), ruestung="armour", gegen="against", **VISIBILITY
    )
    @app_commands.choices(
        gegen=[
            app_commands.Choice(name=cmd("roll.choice.hero"), value="held"),
            app_commands.Choice(name=cmd("roll.choice.creature"), value="wesen"),
        ]
    )
    async def tq_attack(
        self,
        interaction: discord.Interaction[Any],
        bonus: TqNumber = 0,
        ruestung: TqNumber | None = None,
        gegen: str = "held",
        privat: bool = False,
        geheim: bool = False,
    ) -> None:
        lang, visibility, campaign = await self._context(interaction, privat, geheim)
        result, _ = attack_roll(bonus, self.new_rng())
        if ruestung is not None:
            result.damage(ruestung, target_is_hero=True)  # range check before anything is sent
        who, hero = narration.display(interaction.user), gegen != "wesen"
        shown = narration.attack_shown(who, result, ruestung, hero)
        await self._deliver(interaction, lang, shown, visibility, campaign)

    @telperinquar.command(name=cmd("roll.cmd.tq_ew.name"), description=cmd("roll.cmd.tq_ew.desc"))
    @options("roll.opt", stufe="level", ziel="target", **VISIBILITY)
    async def tq_erfolgswurf(
        self,
        interaction: discord.Interaction[Any],
        stufe: Level,
        ziel: TqNumber,
        privat: bool = False,
        geheim: bool = False,
    ) -> None:
        lang, visibility, campaign = await self._context(interaction, privat, geheim)
        result, _ = erfolgswurf(stufe, ziel, self.new_rng())
        shown = narration.erfolgswurf_shown(narration.display(interaction.user), result)
        await self._deliver(interaction, lang, shown, visibility, campaign)

    # ---- delivery ------------------------------------------------------------------------

    async def _context(
        self, interaction: discord.Interaction[Any], privat: bool, geheim: bool
    ) -> tuple[str, Visibility, CampaignRecord | None]:
        """Language, visibility and campaign of a roll; a secret roll needs a campaign."""
        visibility = narration.visibility_of(privat, geheim)
        lang, campaign = await self._lang_and_campaign(interaction, visibility)
        return lang, visibility, campaign

    async def _lang_and_campaign(
        self, interaction: discord.Interaction[Any], visibility: Visibility
    ) -> tuple[str, CampaignRecord | None]:
        lang = await lang_for(interaction)
        campaign = await self._campaign(interaction)
        self._check_secret(visibility, campaign)
        return lang, campaign

    async def _campaign(self, interaction: discord.Interaction[Any]) -> CampaignRecord | None:
        return await self.dice.campaign_in(interaction.channel_id)

    @staticmethod
    def _check_secret(visibility: Visibility, campaign: CampaignRecord | None) -> None:
        if visibility == "secret" and campaign is None:
            raise BadInput("roll.secret.no_campaign")

    async def _log(
        self, campaign: CampaignRecord | None, user_id: int, kind: str, data: dict[str, Any]
    ) -> None:
        await self.dice.log(campaign, user_id, kind, data)

    @staticmethod
    async def _defer(interaction: discord.Interaction[Any], visibility: Visibility) -> None:
        """Answer "thinking…" now, before heavy work: Discord drops an interaction that has
        no answer after 3 s. The result then replaces it (ephemeral unless it is open)."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=visibility != "open", thinking=True)

    @staticmethod
    def _extras(lang: str, shown: narration.Shown, png: bytes | None) -> dict[str, Any]:
        extras: dict[str, Any] = {}
        if shown.reroll is not None:
            view = discord.ui.View(timeout=None)
            view.add_item(
                discord.ui.Button(
                    label=t("roll.again.label", lang),
                    emoji="🎲",
                    style=discord.ButtonStyle.secondary,
                    custom_id=shown.reroll,
                )
            )
            view.stop()  # answered by the component router; not kept in discord.py's store
            extras["view"] = view
        if png is not None and shown.image is not None:
            extras["file"] = _image_file(lang, shown.image, png)
        return extras

    async def _deliver(
        self,
        interaction: discord.Interaction[Any],
        lang: str,
        shown: narration.Shown,
        visibility: Visibility,
        campaign: CampaignRecord | None,
        png: bytes | None = None,
    ) -> None:
        """Log, then answer with ``shown`` (its picture drawn here unless ``png`` is it)."""
        if shown.log is not None:  # written before the reply
            await self._log(campaign, interaction.user.id, *shown.log)
        if png is None and shown.image is not None:
            if shown.image.dice_count >= HEAVY_DICE:
                await self._defer(interaction, visibility)
                png = await run_apart(render_dice, shown.image)
            else:
                png = await render_async(render_dice, shown.image)
        text = narration.fit_message(shown.text(lang))
        extras = self._extras(lang, shown, png)
        quiet = discord.AllowedMentions.none()
        if visibility != "secret" or campaign is None:
            ephemeral = visibility == "private"
            await send(interaction, text, ephemeral=ephemeral, allowed_mentions=quiet, **extras)
            return
        await send(interaction, text, ephemeral=True, allowed_mentions=quiet, **extras)
        reached = await self._tell_gms(interaction, campaign, shown, png)
        notice = t("roll.secret.notice", lang, name=narration.display(interaction.user))
        await interaction.followup.send(notice, allowed_mentions=quiet)
        if not reached:
            await interaction.followup.send(t("roll.secret.dm_failed", lang), ephemeral=True)

    async def _tell_gms(
        self,
        interaction: discord.Interaction[Any],
        campaign: CampaignRecord,
        shown: narration.Shown,
        png: bytes | None,
    ) -> bool:
        """DM the result to every GM of the campaign except the roller; False if one failed."""
        roller = interaction.user.id
        gms = [g for g in dict.fromkeys([campaign.gm_id, *campaign.co_gm_ids]) if g != roller]
        results = await asyncio.gather(
            *(self._dm(gm, interaction, campaign, shown, png) for gm in gms)
        )
        return all(results)

    async def _dm(
        self,
        user_id: int,
        interaction: discord.Interaction[Any],
        campaign: CampaignRecord,
        shown: narration.Shown,
        png: bytes | None,
    ) -> bool:
        lang = await self.dice.language(user_id)
        who, channel = narration.display(interaction.user), f"<#{interaction.channel_id}>"
        header = narration.secret_header(lang, who, channel, campaign.name)
        extras: dict[str, Any] = {}
        if png is not None and shown.image is not None:
            extras["file"] = _image_file(lang, shown.image, png)
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(
                narration.fit_message(f"{header}\n{shown.text(lang)}"),
                allowed_mentions=discord.AllowedMentions.none(),
                **extras,
            )
        except discord.HTTPException:
            log.info("could not DM secret roll to GM %s of campaign %s", user_id, campaign.id)
            return False
        return True


async def setup(bot: SpielleiterBot) -> None:
    await bot.add_cog(Dice(bot))
