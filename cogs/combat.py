"""``/kampf``: the W6 combat tracker of a channel (one at a time). The cog parses, calls
``bot.combat.CombatService`` (the combat as a game of ``bot.games.GameService``: seats, stale
clicks, the writes) and replies with the narration (``bot.narration.combat_text``) and a fresh
status with its buttons (``bot.play.specs.w6``: what ``view_for(None)`` shows, no NPC
values; the GM sees them with "GM view"), whose buttons belong to whoever must act now.
Buttons of the old format (``kampf:…``) are answered as stale.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SpielleiterBot
from bot.combat import (
    PAYLOAD_VERBS,
    SET_FIELDS,
    CombatService,
    Loaded,
    attack_targets,
    button_action,
    check_controls,
    check_form,
    copy_name,
    eligible_weapons,
    fighter_matches,
    fighter_ref,
    joining,
    named_action,
    notation_matches,
    notation_with_mention,
    one_number,
    one_value,
    own_fighter,
    plain_weapon,
    reflex_candidates,
    still_open,
    weapon_matches,
)
from bot.components import modal_fields, values_of
from bot.games import GameService
from bot.i18n import cmd, options, t
from bot.play.specs.w6 import (
    distance_modal,
    fighter_menu,
    gm_view,
    kw_menu,
    target_menu,
    technique_menu,
    tracker_parts,
)
from bot.play.ui import in_time
from bot.replies import lang_for, send
from bot.services.campaigns import CampaignRecord
from bot.sheets import require_edit
from cogs.combat_forms import (
    FIELDS,
    IMMEDIATE,
    Form,
    choice_value,
    decode_form,
    distance_value,
    fighter_at,
    form_action,
    form_message,
    missing_key,
    named_params,
)
from cogs.combat_tracker import Tracker
from cogs.w6 import (
    AUTOCOMPLETE_LIMIT,
    campaign_here,
    campaign_rules,
    campaigns,
    channel_of,
    character_choices,
    find_character,
    load_sheet,
    require_gm,
)
from engines.core import BadInput, EngineError, IllegalAction, StaleAction
from engines.w6 import (
    CombatAction,
    CombatState,
    fighter_from_sheet,
    join_action,
    make,
    parse_action,
    refresh_action,
    technique_options,
)

PREFIX = "kf"
OLD_PREFIX = "kampf"  # buttons of the version that kept combats in their own table
MAX_FIGHTERS_PER_ADD = 10
FORM_CODES = ("tech", "tsel", "rfx", "fset", "fdst", "fdsv", "fdo")


class Combat(commands.Cog):
    kampf = app_commands.Group(
        name=cmd("w6cog.cmd.combat.name"), description=cmd("w6cog.cmd.combat.desc")
    )

    def __init__(self, bot: SpielleiterBot) -> None:
        self.bot = bot
        # the bot's randomness (seeded in ``spielleiter play --seed N``) seeds every combat
        self.combats = CombatService(bot.store, GameService(bot.store, self._entropy))
        self.tracker = Tracker(bot, self.combats)

    def _entropy(self, bits: int) -> int:
        return self.bot.chance.bits(bits)

    async def cog_load(self) -> None:
        self.bot.components.register(PREFIX, self.on_component, forms=True)
        self.bot.components.register(OLD_PREFIX, self.on_old_component, forms=True)

    async def cog_unload(self) -> None:
        self.bot.components.unregister(PREFIX)
        self.bot.components.unregister(OLD_PREFIX)

    # -- the one path every step takes ------------------------------------------------------

    async def _load(self, interaction: discord.Interaction[Any]) -> Loaded:
        return await self.combats.running(interaction.channel_id or 0)

    async def step(
        self,
        interaction: discord.Interaction[Any],
        campaign: CampaignRecord,
        loaded: Loaded,
        action: CombatAction,
        characters: dict[str, int] | None = None,
    ) -> None:
        """Check, apply through the combat service and show it on the tracker; undo is the
        GM's."""
        lang = await lang_for(interaction)
        user = interaction.user.id
        action = named_action(loaded.state, action)  # names and mentions, in any case
        if action.verb == "zurueck":
            require_gm(campaign, user)
            record, event = await self.combats.undo(campaign, loaded, user)
            await self.tracker.post(interaction, campaign, record, [event], loaded.state, lang)
            return
        try:
            actor = self.combats.check(campaign, loaded, action, user)
        except EngineError as error:
            error.params = named_params(error.params, loaded.state, lang)
            raise
        turn = await self.combats.step(campaign, loaded, action, user, actor, characters)
        await self.tracker.post(interaction, campaign, turn.record, turn.events, loaded.state, lang)

    # -- components --------------------------------------------------------------------------

    async def on_old_component(
        self, interaction: discord.Interaction[Any], args: list[str]
    ) -> None:
        """A button of the version that kept combats in their own table: stale."""
        raise StaleAction()

    async def on_component(self, interaction: discord.Interaction[Any], args: list[str]) -> None:
        if len(args) < 4 or not args[0].isdecimal():
            raise BadInput("w6cog.combat.bad_choice")
        game_id, token, code, fighter_id = int(args[0]), args[1], args[2], args[3]
        campaign = await campaign_here(interaction)
        loaded = await self._load(interaction)
        if loaded.record.id != game_id or not still_open(loaded.record, token):
            raise StaleAction()
        loaded = replace(loaded, token=token)
        values = values_of(interaction)
        if code in ("slsicht", "wer", "npc", "atk", "ziel", "zatk") or (
            code == "waffe" and len(args) >= 5
        ):
            await self._menu(interaction, campaign, loaded, code, args, values)
        elif code == "kwatk" and len(args) >= 5:
            weapon = plain_weapon(loaded.state, fighter_id, args[5] if len(args) > 5 else "")
            action = make("angriff", fighter_id, (args[4],), kw=one_number(values), waffe=weapon)
            await self.step(interaction, campaign, loaded, action)
        elif code in FORM_CODES:
            await self._form_step(interaction, campaign, loaded, code, args[3:], values)
        else:
            await self.step(interaction, campaign, loaded, button_action(code, fighter_id, values))

    async def _menu(
        self,
        interaction: discord.Interaction[Any],
        campaign: CampaignRecord,
        loaded: Loaded,
        code: str,
        args: list[str],
        values: list[str],
    ) -> None:
        """The private menus: the GM view, one fighter's buttons (``wer``, and ``npc``: an
        NPC's answer with its KW left, kept off the public tracker), the plain attack's
        target (``atk``) and its dice and weapon (``ziel``, ``waffe``; ``zatk``: the target
        chosen on the tracker itself, so a plain attack is two clicks: target, dice)."""
        lang = await lang_for(interaction)
        state, user = loaded.state, interaction.user.id
        if code == "slsicht":
            require_gm(campaign, user)
            await send(interaction, ephemeral=True, **gm_view(loaded, lang))
            return
        chosen = one_value(values) if code in ("wer", "ziel", "zatk") else ""
        weapon = one_number(values) if code == "waffe" else None
        fighter_id = chosen if code == "wer" else args[3]
        check_controls(campaign, state, fighter_id, user)
        if code in ("wer", "npc"):  # npc: an NPC's answer with its KW, for the GM alone
            await send(interaction, ephemeral=True, **fighter_menu(loaded, fighter_id, lang))
        elif code == "atk":
            targets = attack_targets(state, fighter_id)
            if not targets:
                raise IllegalAction("w6cog.combat.no_targets")
            menu = target_menu(loaded, fighter_id, targets, lang)
            await send(interaction, ephemeral=True, **menu)
        else:
            target = chosen if code in ("ziel", "zatk") else args[4]
            if code == "zatk" and target not in {f.id for f in attack_targets(state, fighter_id)}:
                raise BadInput("w6cog.combat.bad_choice")
            weapons = eligible_weapons(state.fighter(fighter_id), "angriff")
            menu = kw_menu(loaded, fighter_id, target, weapons, weapon, lang)
            if code == "zatk":  # chosen on the public tracker: the dice in a private prompt
                await send(interaction, ephemeral=True, **menu)
            else:
                await interaction.response.edit_message(**menu)

    # -- technique forms ----------------------------------------------------------------------

    async def _form_step(
        self,
        interaction: discord.Interaction[Any],
        campaign: CampaignRecord,
        loaded: Loaded,
        code: str,
        args: list[str],
        values: list[str],
    ) -> None:
        """``tech``: the technique menu; ``tsel``: a technique chosen; ``rfx``: the reflex form;
        ``fset``: a choice in a form; ``fdst``/``fdsv``: the distance modal and its answer;
        ``fdo``: the form executed."""
        state, user = loaded.state, interaction.user.id
        if code == "tech":
            check_controls(campaign, state, args[0], user)
            lang = await lang_for(interaction)
            await send(interaction, ephemeral=True, **technique_menu(loaded, args[0], lang))
            return
        if code == "rfx":
            fighter_id = reflex_candidates(campaign, state, user)[0]
            await self._show_form(interaction, campaign, loaded, Form("reflex", fighter_id), True)
            return
        if code == "tsel":
            check_controls(campaign, state, args[0], user)
            technique = one_value(values)
            if technique not in technique_options(state, args[0]):
                raise BadInput("w6cog.combat.bad_choice")
            if technique in IMMEDIATE:
                await self.step(interaction, campaign, loaded, make(technique, args[0]))
                return
            await self._show_form(interaction, campaign, loaded, Form(technique, args[0]))
            return
        if len(args) < 3:
            raise BadInput("w6cog.combat.bad_choice")
        form = decode_form(args[1], args[0], args[2])
        if code == "fset" and len(args) >= 4:
            form = _with_choice(state, form, args[3], values)
            await self._show_form(interaction, campaign, loaded, form)
        elif code == "fdst":
            check_form(campaign, state, form.technique, form.fighter, user)
            lang = await lang_for(interaction)
            modal = distance_modal(loaded, form.fighter, form.technique, form.encoded(),
                                   form.get("d"), lang)  # fmt: skip
            await interaction.response.send_modal(modal)
        elif code == "fdsv":
            distance = distance_value(modal_fields(interaction).get("d", ""))
            await self._show_form(interaction, campaign, loaded, form.with_choice("d", distance))
        elif code == "fdo":
            check_form(campaign, state, form.technique, form.fighter, user)
            action = form_action(state, form)
            if action is None:
                raise BadInput(missing_key("t"))
            await self.step(interaction, campaign, loaded, action)
        else:
            raise BadInput("w6cog.combat.unknown_button", code=code[:20])

    async def _show_form(
        self,
        interaction: discord.Interaction[Any],
        campaign: CampaignRecord,
        loaded: Loaded,
        form: Form,
        new: bool = False,
    ) -> None:
        """Draw a form: as a new ephemeral message (``new``) or in place of the last step."""
        lang = await lang_for(interaction)
        state, user = loaded.state, interaction.user.id
        check_form(campaign, state, form.technique, form.fighter, user)
        reflex = form.technique == "reflex"
        candidates = reflex_candidates(campaign, state, user) if reflex else ()
        record = loaded.record
        text, view = form_message(record.id, loaded.token, state, form, lang, candidates)
        if new:
            await send(interaction, text, view=view, ephemeral=True)
        else:
            await interaction.response.edit_message(content=text, view=view)

    # -- commands -------------------------------------------------------------------------------

    @kampf.command(
        name=cmd("w6cog.cmd.combat.start.name"), description=cmd("w6cog.cmd.combat.start.desc")
    )
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        lang = await lang_for(interaction)
        campaign = await campaign_here(interaction)
        require_gm(campaign, interaction.user.id)
        record = await self.combats.start(
            campaign,
            campaign_rules(campaign),
            interaction.user.id,
            interaction.channel_id or 0,
            interaction.guild_id,
        )
        display = {**record.display, "lang": lang}  # the tracker speaks its GM's language
        parts = await in_time(interaction, tracker_parts(record, lang))
        log = [t("w6cog.combat.started", lang)]
        await self.tracker.new(interaction, record.id, display, log, parts, {}, [])

    @kampf.command(
        name=cmd("w6cog.cmd.combat.add.name"), description=cmd("w6cog.cmd.combat.add.desc")
    )
    @options("w6cog.opt", charakter="character", anzahl="copies")
    async def dazu(
        self,
        interaction: discord.Interaction[Any],
        charakter: str | None = None,
        anzahl: app_commands.Range[int, 1, MAX_FIGHTERS_PER_ADD] = 1,
    ) -> None:
        campaign = await campaign_here(interaction)
        loaded = await self._load(interaction)
        record = await find_character(interaction, campaign, charakter)
        require_edit(campaign, record, interaction.user.id)
        if record.owner_id is not None and record.id in loaded.characters.values():
            raise IllegalAction("w6cog.combat.already_in", name=record.name)
        sheet = load_sheet(record)
        fighters, characters = joining(loaded, sheet, record.id, record.owner_id, anzahl)
        await self.step(interaction, campaign, loaded, join_action(*fighters), characters)

    @dazu.autocomplete("charakter")
    async def dazu_characters(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await character_choices(interaction, current)

    @kampf.command(
        name=cmd("w6cog.cmd.combat.refresh.name"),
        description=cmd("w6cog.cmd.combat.refresh.desc"),
    )
    @options("w6cog.opt", kaempfer="fighter")
    async def aktualisieren(self, interaction: discord.Interaction[Any], kaempfer: str) -> None:
        """The GM takes a participant's current sheet into the combat (a weapon added, a value
        fixed); LP, spent KW and Handlungen stay as the combat left them."""
        campaign = await campaign_here(interaction)
        require_gm(campaign, interaction.user.id)
        loaded = await self._load(interaction)
        fighter = loaded.state.fighter(fighter_ref(loaded.state, kaempfer))
        char_id = loaded.characters.get(fighter.id)
        record = await self.combats.character(char_id) if char_id else None
        if record is None:
            raise IllegalAction("w6cog.combat.no_sheet", name=fighter.name)
        sheet = load_sheet(record)
        fresh = fighter_from_sheet(sheet, fighter.id, fighter.owner)
        action = refresh_action(replace(fresh, name=copy_name(sheet.name, fighter.id)))
        await self.step(interaction, campaign, loaded, action)

    @kampf.command(
        name=cmd("w6cog.cmd.combat.status.name"), description=cmd("w6cog.cmd.combat.status.desc")
    )
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        """The tracker brought down to the end of the channel (the old one goes)."""
        lang = await lang_for(interaction)
        campaign = await campaign_here(interaction)
        loaded = await self._load(interaction)
        await self.tracker.post(interaction, campaign, loaded.record, [], loaded.state, lang)

    @kampf.command(
        name=cmd("w6cog.cmd.combat.attack.name"), description=cmd("w6cog.cmd.combat.attack.desc")
    )
    @options("w6cog.opt", ziel="target", kw="kw", angreifer="attacker", waffe="weapon", zone="zone")
    @app_commands.choices(
        zone=[
            app_commands.Choice(name=cmd(f"w6cog.zone.{z}"), value=v)
            for z, v in (
                ("kopf", "Kopf"),
                ("torso", "Torso"),
                ("arme", "Arme"),
                ("haende", "Hände"),
                ("beine", "Beine"),
            )
        ]
    )
    async def angriff(
        self,
        interaction: discord.Interaction[Any],
        ziel: str,
        kw: app_commands.Range[int, 0, 200],
        angreifer: str | None = None,
        waffe: str | None = None,
        zone: str | None = None,
    ) -> None:
        campaign = await campaign_here(interaction)
        loaded = await self._load(interaction)
        attacker = angreifer or own_fighter(loaded.state, interaction.user.id)
        action = make("angriff", attacker, (ziel,), kw=kw, waffe=waffe, zone=zone)
        await self.step(interaction, campaign, loaded, action)

    @kampf.command(
        name=cmd("w6cog.cmd.combat.reflex.name"), description=cmd("w6cog.cmd.combat.reflex.desc")
    )
    @options("w6cog.opt", kaempfer="fighter", erfolge="successes")
    async def reflex(
        self,
        interaction: discord.Interaction[Any],
        kaempfer: str | None = None,
        erfolge: app_commands.Range[int, 1, 30] = 2,
    ) -> None:
        """A reflex roll at any moment of the phase (REFLEX), also outside the own turn."""
        campaign = await campaign_here(interaction)
        loaded = await self._load(interaction)
        fighter = kaempfer or own_fighter(loaded.state, interaction.user.id)
        await self.step(interaction, campaign, loaded, make("reflex", fighter, erfolge=erfolge))

    @angriff.autocomplete("waffe")
    async def weapon_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        state = await self.combats.state_here(interaction.channel_id or 0)
        attacker = getattr(interaction.namespace, "angreifer", None)
        try:
            found = (
                []
                if state is None
                else weapon_matches(state, attacker, interaction.user.id, current)
            )
        except (BadInput, IllegalAction):
            return []
        return [app_commands.Choice(name=w[:100], value=w[:100]) for w in found][
            :AUTOCOMPLETE_LIMIT
        ]

    @kampf.command(
        name=cmd("w6cog.cmd.combat.action.name"), description=cmd("w6cog.cmd.combat.action.desc")
    )
    @options("w6cog.opt", notation="notation")
    async def aktion(
        self, interaction: discord.Interaction[Any], notation: app_commands.Range[str, 1, 300]
    ) -> None:
        campaign = await campaign_here(interaction)
        loaded = await self._load(interaction)
        action = parse_action(notation_with_mention(notation))
        if action.verb in PAYLOAD_VERBS:
            raise IllegalAction(f"w6cog.combat.use_{action.verb}")
        await self.step(interaction, campaign, loaded, action)

    @aktion.autocomplete("notation")
    async def notation_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """What the user's participants (all of them for the GM) may do now, as notation."""
        campaign = await campaigns(interaction).in_channel(channel_of(interaction))
        state = await self.combats.state_here(interaction.channel_id or 0)
        if campaign is None or state is None:
            return []
        gm = campaign.is_gm(interaction.user.id)
        found = notation_matches(state, gm, interaction.user.id, current)
        choices = [app_commands.Choice(name=p[:100], value=p[:100]) for p in found]
        return choices[:AUTOCOMPLETE_LIMIT]

    @kampf.command(
        name=cmd("w6cog.cmd.combat.set.name"), description=cmd("w6cog.cmd.combat.set.desc")
    )
    @options("w6cog.opt", kaempfer="fighter", feld="combat_field", wert="number")
    @app_commands.choices(
        feld=[
            app_commands.Choice(name=cmd(f"w6cog.setfield.{name}"), value=name)
            for name in SET_FIELDS
        ]
    )
    async def setzen(
        self,
        interaction: discord.Interaction[Any],
        kaempfer: str,
        feld: str,
        wert: app_commands.Range[int, -999, 999],
    ) -> None:
        campaign = await campaign_here(interaction)
        require_gm(campaign, interaction.user.id)
        loaded = await self._load(interaction)
        await self.step(
            interaction, campaign, loaded, make("setze", "", (kaempfer,), **{feld: wert})
        )

    @aktualisieren.autocomplete("kaempfer")
    @reflex.autocomplete("kaempfer")
    @angriff.autocomplete("ziel")
    @angriff.autocomplete("angreifer")
    @setzen.autocomplete("kaempfer")
    async def fighters_matching(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete: the combat's participants whose name or id contains ``current``."""
        state = await self.combats.state_here(interaction.channel_id or 0)
        found: list[tuple[str, str]] = []
        if state is not None:  # an NPC's LP in words unless the GM asks
            campaign = await campaign_here(interaction)
            gm = campaign.is_gm(interaction.user.id)
            found = fighter_matches(state, current, await lang_for(interaction), gm=gm)
        return [app_commands.Choice(name=n[:100], value=v) for n, v in found][:AUTOCOMPLETE_LIMIT]

    async def _gm_step(self, interaction: discord.Interaction[Any], verb: str) -> None:
        campaign = await campaign_here(interaction)
        require_gm(campaign, interaction.user.id)
        loaded = await self._load(interaction)
        await self.step(interaction, campaign, loaded, make(verb))

    @kampf.command(
        name=cmd("w6cog.cmd.combat.begin.name"), description=cmd("w6cog.cmd.combat.begin.desc")
    )
    async def beginnen(self, interaction: discord.Interaction[Any]) -> None:
        await self._gm_step(interaction, "beginnen")

    @kampf.command(
        name=cmd("w6cog.cmd.combat.phase.name"), description=cmd("w6cog.cmd.combat.phase.desc")
    )
    async def phase(self, interaction: discord.Interaction[Any]) -> None:
        await self._gm_step(interaction, "phase")

    @kampf.command(
        name=cmd("w6cog.cmd.combat.undo.name"), description=cmd("w6cog.cmd.combat.undo.desc")
    )
    async def zurueck(self, interaction: discord.Interaction[Any]) -> None:
        await self._gm_step(interaction, "zurueck")

    @kampf.command(
        name=cmd("w6cog.cmd.combat.end.name"), description=cmd("w6cog.cmd.combat.end.desc")
    )
    async def ende(self, interaction: discord.Interaction[Any]) -> None:
        await self._gm_step(interaction, "ende")


def _with_choice(state: CombatState, form: Form, key: str, values: list[str]) -> Form:
    """The form after a select: the reflex form's fighter select switches the fighter."""
    if key == "r":
        return replace(form, fighter=fighter_at(state, one_value(values)))
    if key not in FIELDS[form.technique]:
        raise BadInput("w6cog.combat.bad_choice")
    return form.with_choice(key, choice_value(key, values))


async def setup(bot: SpielleiterBot) -> None:
    await bot.add_cog(Combat(bot))
