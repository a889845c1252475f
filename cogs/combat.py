"""``/kampf``: the W6 combat tracker of a channel (one at a time): a game of kind ``w6combat``
stored and played through ``bot.games.GameService`` like every game.

Every step is: load the channel's running combat, map the user to a seat (the GM and co-GMs
act as seat 0, a player as their seat, a player's join of their own fighters is admitted as
seat 0), try the step on the loaded state for a friendly error, then ``GameService.act`` it
(per-decision stale check, revision-guarded write with the campaign-log entries and the
fighter → character map in the same transaction), and post the narration with a fresh
status embed (what ``view_for(None)`` shows: no NPC values; the GM sees them with "GM view")
whose buttons belong to whoever must act now. The words live in ``bot.render.combat_text``.
Buttons use ``kf:<game>:<token>:<code>:<fighter>[:<target>]``: the token names the decision
the button was made for (``<seat><decision id>``) or, for undo, the revision (``u<revision>``);
buttons of the old format (``kampf:…``) are answered as stale.
"""

from __future__ import annotations

import io
import re
import unicodedata
from dataclasses import dataclass, replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SpielleiterBot
from bot.components import custom_id, modal_fields, values_of
from bot.games import ACTIVE, GameService, StepWrites, engine_of, load
from bot.i18n import cmd, language_of, options, t
from bot.render import render_async
from bot.render.combat import render_combat
from bot.render.combat_text import _cap, image_text, log_entries, narrate, status_text
from bot.replies import LANGUAGE_PREF, lang_for, pinging, send
from bot.store import LogRow, Store
from bot.store.base import AlreadyExists, CampaignRecord, GameRecord
from cogs.combat_forms import (
    FIELDS,
    IMMEDIATE,
    Form,
    choice_value,
    decode_form,
    distance_value,
    eligible_weapons,
    fighter_at,
    form_action,
    form_message,
    missing_key,
    named_params,
)
from cogs.w6 import (
    AUTOCOMPLETE_LIMIT,
    EMBED_COLOUR,
    campaign_here,
    campaign_rules,
    character_choices,
    find_character,
    load_sheet,
    require_edit,
    require_gm,
)
from cogs.w6_plural import tc
from engines.core import BadInput, EngineError, Event, IllegalAction, StaleAction, registry
from engines.core import match as m
from engines.w6 import (
    CombatAction,
    CombatState,
    Settings,
    apply,
    fighter_from_sheet,
    join_action,
    make,
    parse_action,
    refresh_action,
    set_field,
    sheet_to_json,
    technique_options,
    to_act,
    verbs_for,
)
from engines.w6.actions import PAYLOAD_VERBS, SET_FIELDS
from engines.w6.codec import encode
from engines.w6.state import seat_of_owner

PREFIX = "kf"
OLD_PREFIX = "kampf"  # buttons of the version that kept combats in their own table
KIND = "w6combat"
MAX_SELECT = 25
MAX_FIGHTERS_PER_ADD = 10
MAX_ROWS = 5
CONTENT_LIMIT = 1900
IMAGE_NAME = "kampf.png"
STAGE_ROWS = {"abwehr": 2, "entscheidung": 1, "ansage": 1, "rundum": 2, "nachschlagen": 1}


@dataclass(frozen=True)
class Loaded:
    """A stored combat read back: the game record, the engine state and fighter → character
    ids."""

    record: GameRecord
    state: CombatState
    characters: dict[str, int]
    token: str = ""  # the decision (or revision) the clicked button was made for

    @property
    def campaign_id(self) -> int | None:
        campaign = self.record.display.get("campaign")
        return campaign if isinstance(campaign, int) else None


def unpack(record: GameRecord) -> Loaded:
    """Raises BadInput("w6.combat.bad_state") for a stored state of another shape."""
    characters = record.display.get("characters", {})
    return Loaded(record, load(record).state, dict(characters))


async def active_combat(store: Store, channel_id: int) -> GameRecord | None:
    """The running combat of a channel (None: none)."""
    found = await store.games_in_channel(channel_id, kind=KIND, statuses=(ACTIVE,))
    return found[-1] if found else None


TOKEN = re.compile(r"(\d+)([a-z][0-9a-z]*)")
TOKEN_ID = 6  # characters of a decision id a button carries (custom ids hold 100 at most)


def _open_decision(record: GameRecord, token: str) -> tuple[int, str] | None:
    """The (seat, full decision id) a ``<seat><decision id, cut>`` token names, when that
    decision is open now."""
    found = TOKEN.fullmatch(token)
    if found is None:
        return None
    seat, cut = int(found[1]), found[2]
    for decision in m.decisions(engine_of(record), load(record)):
        if decision.seat != seat:
            continue
        if decision.id == cut or (len(cut) == TOKEN_ID and decision.id.startswith(cut)):
            return seat, decision.id
    return None


def _still_open(record: GameRecord, token: str) -> bool:
    """Whether a button made for ``token`` still applies: its decision is open for its seat
    (``<seat><decision id>``), its revision is the stored one (``u<revision>``), or it is
    judged by nothing (``-``)."""
    if token in ("", "-"):
        return True
    if token.startswith("u"):
        return token == f"u{record.revision}"
    return _open_decision(record, token) is not None


def _judged_by(record: GameRecord, token: str) -> dict[str, Any]:
    """The ``GameService.act`` arguments that judge a click made for ``token``. Raises
    StaleAction when its decision is no longer open."""
    if token.startswith("u") and token[1:].isdecimal():
        return {"revision": int(token[1:])}
    if token in ("", "-"):
        return {}
    found = _open_decision(record, token)
    if found is None:
        raise StaleAction()
    return {"decision": found[1], "decision_seat": found[0]}


def _display(loaded: Loaded, characters: dict[str, int], undos: int = 0) -> dict[str, Any]:
    return {**loaded.record.display, "characters": characters, "undos": undos}


def fighter_id_for(name: str, taken: set[str]) -> str:
    """A short id from a name (``Thoin Eisenfaust`` → ``thoin``), unique among ``taken``."""
    folded = name.casefold().replace("ß", "ss").replace("ä", "ae").replace("ö", "oe")
    folded = unicodedata.normalize("NFKD", folded.replace("ü", "ue"))
    word = "".join(c for c in folded.split(" ")[0] if c.isascii() and c.isalnum())[:16] or "k"
    if word not in taken:
        return word
    number = 2
    while f"{word}{number}" in taken:
        number += 1
    return f"{word}{number}"


def copy_name(name: str, fighter_id: str) -> str:
    """The name of one copy of an NPC: ``Ork`` for ``ork``, ``Ork 2`` for ``ork2`` (the
    narration and the selects tell copies apart by name)."""
    number = fighter_id[len(fighter_id_for(name, set())) :]
    return f"{name} {number}" if number.isdecimal() else name


def _position(state: CombatState, fighter_id: str) -> int:
    return state.order.index(fighter_id) if fighter_id in state.order else len(state.order)


def _button(label: str, cid: str, style: discord.ButtonStyle) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label[:80], custom_id=cid, style=style)


def _kw_select(
    cid: str, kw_left: int, placeholder: str, row: int, lang: str
) -> discord.ui.Select[Any]:
    options = [
        discord.SelectOption(label=tc("w6cog.combat.kw_option", lang, kw=n), value=str(n))
        for n in range(min(kw_left, MAX_SELECT - 1) + 1)
    ]
    return discord.ui.Select(custom_id=cid, placeholder=placeholder[:150], options=options, row=row)


def status_embed(view: dict[str, Any], lang: str) -> discord.Embed:
    """The status of a combat as ``view`` (a ``view_for``) shows it."""
    title, description, footer = status_text(view, lang)
    embed = discord.Embed(title=title, description=description)
    embed.colour = EMBED_COLOUR
    embed.set_footer(text=footer)
    return embed


def public_embed(record: GameRecord, lang: str) -> discord.Embed:
    """The status everyone sees: ``view_for(None)`` (NPC values hidden)."""
    return status_embed(engine_of(record).view_for(load(record).state, None), lang)


async def status_image(record: GameRecord, lang: str) -> discord.File:
    """The status image (``bot.render.combat``) of ``view_for(None)``, drawn off the loop."""
    view = engine_of(record).view_for(load(record).state, None)
    png = await render_async(render_combat, view, image_text(view, lang))
    return discord.File(io.BytesIO(png), filename=IMAGE_NAME)


async def public_status(record: GameRecord, lang: str) -> dict[str, Any]:
    """The ``send`` arguments of a public status: the embed with its image, the components."""
    embed = public_embed(record, lang)
    embed.set_image(url=f"attachment://{IMAGE_NAME}")
    return {
        "embed": embed,
        "file": await status_image(record, lang),
        "view": status_view_components(record, lang),
    }


def _decision_token(match: m.Match, seat: int, fighter_id: str | None, prefix: str = "") -> str:
    """``<seat><decision id>`` of the open decision of ``seat`` naming ``fighter_id`` (or, with
    ``prefix``, the seat's decision whose id starts so); the GM's seat when ``seat`` has
    none (a player who left). "" when there is none."""
    engine = engine_of_match(match)
    for candidate in (seat, 0):
        for decision in m.decisions(engine, match):
            if decision.seat != candidate or not decision.id.startswith(prefix):
                continue
            if fighter_id is None or fighter_id in decision.params.get("fighters", ()):
                return f"{decision.seat}{decision.id[:TOKEN_ID]}"
    return ""


def engine_of_match(match: m.Match) -> Any:
    return registry()[match.engine_name]


def _fighter_items(
    state: CombatState, fighter_id: str, cid: Any, lang: str, row: int
) -> list[discord.ui.Item[Any]]:
    """The buttons and selects of one fighter who must or may act now, from ``row`` on; every
    button names the fighter."""
    fighter = state.fighter(fighter_id)
    name = fighter.name
    pending = state.pending

    def named(key: str) -> str:
        return f"{name}: {t(key, lang)}"

    reflex_dice = fighter.reflex > 0 and not fighter.reflex_used
    items: list[discord.ui.Item[Any]] = []
    if pending is None:
        items.append(_styled(t("w6cog.btn.attack", lang, name=name), cid("atk", fighter_id),
                             "danger", row))  # fmt: skip
        if technique_options(state, fighter_id):
            items.append(_styled(named("w6cog.btn.technique"), cid("tech", fighter_id),
                                 "primary", row))  # fmt: skip
        items.append(_styled(named("w6cog.btn.hold"), cid("weiter", fighter_id), "secondary", row))
        items.append(_styled(named("w6cog.btn.done"), cid("fertig", fighter_id), "secondary", row))
        if reflex_dice:
            items.append(_styled(named("w6cog.btn.reflex"), cid("reflex", fighter_id),
                                 "secondary", row))  # fmt: skip
    elif pending.stage == "abwehr":
        items.append(_kw_select(cid("abwehr", fighter_id), fighter.kw_left,
                                t("w6cog.btn.defend", lang, name=name), row, lang))  # fmt: skip
        items.append(_styled(t("w6cog.btn.no_defence", lang, name=name), cid("keine", fighter_id),
                             "secondary", row + 1))  # fmt: skip
        if reflex_dice:
            items.append(_styled(named("w6cog.btn.reflex_defence"), cid("refabw", fighter_id),
                                 "secondary", row + 1))  # fmt: skip
    elif pending.stage == "entscheidung":
        items.append(_styled(t("w6cog.btn.roll", lang, name=name), cid("wuerfeln", fighter_id),
                             "primary", row))  # fmt: skip
        items.append(_styled(named("w6cog.btn.retreat"), cid("zurueckweichen", fighter_id),
                             "secondary", row))  # fmt: skip
    elif pending.stage == "ansage":
        items.append(_kw_select(cid("ansage", fighter_id), fighter.kw_left,
                                t("w6cog.btn.announce", lang, name=name), row, lang))  # fmt: skip
    elif pending.stage == "rundum":
        items.append(_kw_select(cid("rundum_weiter", fighter_id), fighter.kw_left,
                                t("w6cog.btn.sweep_on", lang, name=name), row, lang))  # fmt: skip
        items.append(_styled(named("w6cog.btn.abort"), cid("abbruch", fighter_id), "secondary",
                             row + 1))  # fmt: skip
    elif pending.stage == "nachschlagen":
        items.append(_styled(t("w6cog.btn.follow", lang, name=name),
                             cid("nachschlagen", fighter_id), "danger", row))  # fmt: skip
        items.append(_styled(named("w6cog.btn.skip"), cid("verzichten", fighter_id), "secondary",
                             row))  # fmt: skip
    return items


def _reflex_ready(state: CombatState) -> list[Any]:
    """The fighters who may roll their Reflex now without being asked."""
    acting = to_act(state)
    return [f for f in state.fighters if f.id not in acting and "reflex" in verbs_for(state, f.id)]


def _acting(state: CombatState) -> list[str]:
    return sorted(to_act(state), key=lambda i: _position(state, i))


def _fighter_cid(record: GameRecord, match: m.Match) -> Any:
    state = match.state

    def cid(code: str, fighter_id: str, *args: object) -> str:
        seat = seat_of_owner(state, state.fighter(fighter_id).owner)
        token = _decision_token(match, seat, fighter_id)
        return custom_id(PREFIX, record.id, token, code, fighter_id, *args)

    return cid


def status_view_components(record: GameRecord, lang: str) -> discord.ui.View:
    """Buttons and selects for whoever must act now (fighters that do not fit in the rows are
    offered in a select of their own, never dropped), and the GM's row."""
    view = discord.ui.View(timeout=None)
    match = load(record)
    state = match.state
    if state.ended:
        return view
    cid = _fighter_cid(record, match)
    pending = state.pending
    need = STAGE_ROWS.get(pending.stage, 1) if pending else 1
    acting = _acting(state)
    rows = MAX_ROWS - 1  # the last row is the GM's
    shown = acting if len(acting) * need <= rows else acting[: (rows - 1) // need]
    row = 0
    for fighter_id in shown:
        for item in _fighter_items(state, fighter_id, cid, lang, row):
            view.add_item(item)
        row += need
    rest = acting[len(shown) :]
    if rest:
        options = [
            discord.SelectOption(label=state.fighter(i).name[:100], value=i)
            for i in rest[:MAX_SELECT]
        ]
        token = _decision_token(match, 0, rest[0])
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_id(PREFIX, record.id, token, "wer", "alle"),
            placeholder=t("w6cog.btn.pick_fighter", lang)[:150],
            options=options,
            row=row,
        )
        view.add_item(select)
        row += 1
    gm_row = min(row, MAX_ROWS - 1)
    gm = _decision_token(match, 0, None, "g")

    def gm_cid(code: str, token: str = gm) -> str:
        return custom_id(PREFIX, record.id, token, code, "sl")

    if state.phase < 1:
        view.add_item(_styled(t("w6cog.btn.begin", lang), gm_cid("beginnen"), "success", gm_row))
    elif pending is None:
        view.add_item(_styled(t("w6cog.btn.next_phase", lang), gm_cid("phase"), "secondary",
                              gm_row))  # fmt: skip
    reflex = _decision_token(match, 0, None, "r")
    if reflex and any(f.reflex > 0 for f in _reflex_ready(state)):
        view.add_item(_styled(t("w6cog.btn.reflex_any", lang), custom_id(PREFIX, record.id,
                              reflex, "rfx", "alle"), "secondary", gm_row))  # fmt: skip
    if state.log:
        view.add_item(_styled(t("w6cog.btn.undo", lang), gm_cid("zurueck", f"u{record.revision}"),
                              "secondary", gm_row))  # fmt: skip
    view.add_item(_styled(t("w6cog.btn.end", lang), gm_cid("ende"), "secondary", gm_row))
    view.add_item(_styled(t("w6cog.btn.gm_view", lang), custom_id(PREFIX, record.id, "-", "slsicht",
                          "sl"), "secondary", gm_row))  # fmt: skip
    return view


def _styled(label: str, cid: str, style: str, row: int) -> discord.ui.Button[Any]:
    button = _button(label, cid, getattr(discord.ButtonStyle, style))
    button.row = row
    return button


BUTTON_ACTIONS = {
    "weiter": "weiter",
    "fertig": "fertig",
    "reflex": "reflex",
    "keine": "abwehr",
    "refabw": "abwehr",
    "wuerfeln": "wuerfeln",
    "zurueckweichen": "zurueckweichen",
    "nachschlagen": "nachschlagen",
    "verzichten": "verzichten",
    "abbruch": "abbruch",
}
GM_BUTTONS = ("beginnen", "phase", "zurueck", "ende")
KW_SELECTS = ("abwehr", "ansage", "rundum_weiter")


def button_action(code: str, fighter_id: str, values: list[str]) -> CombatAction:
    """The engine action of a status-message button or select. Raises BadInput."""
    if code in GM_BUTTONS:
        return make(code)
    if code in KW_SELECTS:
        return make(code, fighter_id, kw=_one_number(values))
    if code == "keine":
        return make("abwehr", fighter_id, keine=True)
    if code == "refabw":
        return make("abwehr", fighter_id, reflex=True)
    if code in BUTTON_ACTIONS:
        return make(BUTTON_ACTIONS[code], fighter_id)
    raise BadInput("w6cog.combat.unknown_button", code=code[:20])


def _one_number(values: list[str]) -> int:
    if len(values) != 1 or not values[0].isdecimal():
        raise BadInput("w6cog.combat.bad_choice")
    return int(values[0])


# ----------------------------------------------------------------------------- the cog


class Combat(commands.Cog):
    kampf = app_commands.Group(
        name=cmd("w6cog.cmd.combat.name"), description=cmd("w6cog.cmd.combat.desc")
    )

    def __init__(self, bot: SpielleiterBot) -> None:
        self.bot = bot
        self.games = GameService(bot.store)

    async def cog_load(self) -> None:
        self.bot.components.register(PREFIX, self.on_component, forms=True)
        self.bot.components.register(OLD_PREFIX, self.on_old_component, forms=True)

    async def cog_unload(self) -> None:
        self.bot.components.unregister(PREFIX)
        self.bot.components.unregister(OLD_PREFIX)

    # -- the one path every step takes ------------------------------------------------------

    async def _load(self, interaction: discord.Interaction[Any]) -> Loaded:
        record = await active_combat(self.bot.store, interaction.channel_id or 0)
        if record is None:
            raise IllegalAction("w6cog.combat.none")
        return unpack(record)

    @staticmethod
    def _actor(campaign: CampaignRecord, state: CombatState, user_id: int) -> int:
        """The GM and co-GMs act as the combat's GM; everyone else as themselves."""
        return state.gm if campaign.is_gm(user_id) else user_id

    @staticmethod
    def _seat(state: CombatState, action: CombatAction, actor: int) -> int:
        """The seat ``actor`` (a user id, the GM's for co-GMs) takes ``action`` as: the GM's
        seat 0; a player's join of their own fighters is admitted by the table (seat 0)."""
        if actor == state.gm or action.verb == "beitritt":
            return 0
        return int(seat_of_owner(state, actor))

    async def step(
        self,
        interaction: discord.Interaction[Any],
        campaign: CampaignRecord,
        loaded: Loaded,
        action: CombatAction,
        characters: dict[str, int] | None = None,
    ) -> None:
        """Check, apply through the game service (per-decision stale check with ``token``;
        the campaign-log entries and the fighter → character map in the same transaction)
        and post the narration with the new status."""
        lang = await lang_for(interaction)
        if action.verb == "zurueck":
            await self._undo(interaction, campaign, loaded, lang)
            return
        actor = self._actor(campaign, loaded.state, interaction.user.id)
        try:  # the engine's own user-level entry: the same friendly errors as ever
            apply(loaded.state, action, actor)
        except EngineError as error:
            error.params = named_params(error.params, loaded.state, lang)
            raise
        chars = characters if characters is not None else loaded.characters
        campaign_id = loaded.campaign_id or campaign.id
        user = interaction.user.id

        def log(match: m.Match, events: list[Event]) -> list[LogRow]:
            entries = log_entries(user, action, events, match.state)
            return [(campaign_id, actor_id, kind, data) for actor_id, kind, data in entries]

        def players(match: m.Match) -> list[int]:
            return [match.state.gm, *match.state.seats]

        writes = StepWrites(log=log, display=_display(loaded, chars), players=players)
        turn = await self.games.act(
            loaded.record.id,
            user,
            action.text(),
            **_judged_by(loaded.record, loaded.token),
            seat=self._seat(loaded.state, action, actor),
            writes=writes,
        )
        state = turn.match.state
        if state.ended:
            await self._write_back(campaign, state, chars)
        lines = narrate(turn.events, loaded.state, state, lang)
        await self._post(interaction, campaign, turn.record, lines, lang)

    async def _undo(
        self,
        interaction: discord.Interaction[Any],
        campaign: CampaignRecord,
        loaded: Loaded,
        lang: str,
    ) -> None:
        """The GM takes the last step back (``GameService.undo_last``: the log without it,
        replayed), at most ``undo_tiefe`` steps in a row."""
        require_gm(campaign, interaction.user.id)
        record, state = loaded.record, loaded.state
        if not _still_open(record, loaded.token):
            raise StaleAction()
        undos = int(record.display.get("undos", 0))
        actions = await self.bot.store.game_actions(record.id)
        if not actions or undos >= state.settings.undo_tiefe:
            raise IllegalAction("w6.combat.nothing_to_undo")
        last = actions[-1][1]
        event = Event("undone", {"action": last, "step": state.step, "undone_step": state.step})
        step = {"action": "zurueck", "events": ["undone"], "verb": "zurueck", "who": "",
                "targets": []}  # fmt: skip
        campaign_id = loaded.campaign_id or campaign.id
        stored = await self.games.undo_last(
            record,
            display=_display(loaded, loaded.characters, undos + 1),
            log=[(campaign_id, interaction.user.id, "combat", step)],
        )
        after = load(stored).state
        await self._post(interaction, campaign, stored, narrate([event], state, after, lang), lang)

    async def _post(
        self,
        interaction: discord.Interaction[Any],
        campaign: CampaignRecord,
        record: GameRecord,
        lines: list[str],
        lang: str,
    ) -> None:
        state = load(record).state
        pings = await self._pings(interaction, state, campaign, lang)
        await send(
            interaction,
            _cap(lines + list(pings.values()), CONTENT_LIMIT) or None,
            **await public_status(record, lang),
            allowed_mentions=pinging(*pings),  # only those who must answer; names ping nobody
        )

    async def _pings(
        self,
        interaction: discord.Interaction[Any],
        state: CombatState,
        campaign: CampaignRecord,
        lang: str,
    ) -> dict[int, str]:
        """One line per user who must answer a pending step, saying what for (``@alice, du
        bist dran: Abwehr für Thoin ansagen``), in that user's language if they chose one,
        else in the server's (the acting user's outside a server); keyed by the user."""
        if state.pending is None:
            return {}
        fighters: dict[int, list[str]] = {}
        for fighter_id in sorted(to_act(state), key=lambda i: _position(state, i)):
            fighter = state.fighter(fighter_id)
            fighters.setdefault(fighter.owner or campaign.gm_id, []).append(fighter.name)
        default = language_of(interaction.guild_locale) if interaction.guild_locale else lang
        lines = {}
        for user_id, names in sorted(fighters.items()):
            chosen = await self.bot.store.get_pref(user_id, LANGUAGE_PREF)
            user_lang = chosen or (lang if user_id == interaction.user.id else default)
            lines[user_id] = t(
                f"w6cog.combat.ping.{state.pending.stage}", user_lang,
                mention=f"<@{user_id}>", names=", ".join(names),
            )  # fmt: skip
        return lines

    async def _write_back(
        self, campaign: CampaignRecord, state: CombatState, characters: dict[str, int]
    ) -> None:
        """After the combat, each player's character keeps the LP the combat left it with;
        an NPC is a template (its copies join fresh), so its sheet stays as the GM wrote it."""
        for fighter in state.fighters:
            char_id = characters.get(fighter.id)
            record = await self.bot.store.get_character(char_id) if char_id else None
            if record is None or record.owner_id is None:
                continue
            try:
                sheet = set_field(load_sheet(record), "lp", str(max(-999, fighter.lp)))
            except BadInput:
                continue
            await self.bot.store.update_character(
                record.id,
                expected_revision=record.revision,
                name=sheet.name,
                sheet=sheet_to_json(sheet),
            )

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
        if loaded.record.id != game_id or not _still_open(loaded.record, token):
            raise StaleAction()
        loaded = replace(loaded, token=token)
        values = values_of(interaction)
        if code == "slsicht":
            require_gm(campaign, interaction.user.id)
            lang = await lang_for(interaction)
            view = engine_of(loaded.record).view_for(loaded.state, 0)
            await send(interaction, embed=status_embed(view, lang), ephemeral=True)
            return
        if code == "wer":
            await self._fighter_menu(interaction, campaign, loaded, _one_value(values))
            return
        if code == "atk":
            await self._choose_target(interaction, campaign, loaded, fighter_id)
        elif code == "ziel":
            await self._choose_kw(interaction, campaign, loaded, fighter_id, _one_value(values))
        elif code == "waffe" and len(args) >= 5:
            chosen = _one_number(values)
            await self._choose_kw(interaction, campaign, loaded, fighter_id, args[4], chosen)
        elif code == "kwatk" and len(args) >= 5:
            weapon = _plain_weapon(loaded.state, fighter_id, args[5] if len(args) > 5 else "")
            action = make("angriff", fighter_id, (args[4],), kw=_one_number(values), waffe=weapon)
            await self.step(interaction, campaign, loaded, action)
        elif code in FORM_CODES:
            await self._form_step(interaction, campaign, loaded, code, args[3:], values)
        else:
            await self.step(interaction, campaign, loaded, button_action(code, fighter_id, values))

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
            self._check_controls(campaign, state, args[0], user)
            await self._technique_menu(interaction, loaded, args[0])
            return
        if code == "rfx":
            fighter_id = self._reflex_candidates(campaign, state, user)[0]
            await self._show_form(interaction, campaign, loaded, Form("reflex", fighter_id), True)
            return
        if code == "tsel":
            self._check_controls(campaign, state, args[0], user)
            technique = _one_value(values)
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
            self._check_form(campaign, state, form, user)
            await interaction.response.send_modal(
                _distance_modal(loaded, form, await lang_for(interaction))
            )
        elif code == "fdsv":
            distance = distance_value(modal_fields(interaction).get("d", ""))
            await self._show_form(interaction, campaign, loaded, form.with_choice("d", distance))
        elif code == "fdo":
            self._check_form(campaign, state, form, user)
            action = form_action(state, form)
            if action is None:
                raise BadInput(missing_key("t"))
            await self.step(interaction, campaign, loaded, action)
        else:
            raise BadInput("w6cog.combat.unknown_button", code=code[:20])

    def _check_form(
        self, campaign: CampaignRecord, state: CombatState, form: Form, user_id: int
    ) -> None:
        """Who may fill a form: the fighter's owner or the GM; the reflex at any time, every
        other technique only when the fighter may act. Raises IllegalAction."""
        if form.technique != "reflex":
            self._check_controls(campaign, state, form.fighter, user_id)
        elif form.fighter not in self._reflex_candidates(campaign, state, user_id):
            raise IllegalAction("w6cog.combat.not_yours", name=state.fighter(form.fighter).name)

    def _reflex_candidates(
        self, campaign: CampaignRecord, state: CombatState, user_id: int
    ) -> tuple[str, ...]:
        """The user's fighters (every fighter for the GM) who may roll their reflex now.
        Raises IllegalAction("w6cog.combat.no_reflex") when there is none."""
        gm = campaign.is_gm(user_id)
        found = tuple(
            f.id
            for f in state.fighters
            if (gm or f.owner == user_id) and f.reflex > 0 and "reflex" in verbs_for(state, f.id)
        )
        if not found:
            raise IllegalAction("w6cog.combat.no_reflex")
        return found

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
        self._check_form(campaign, state, form, user)
        candidates = (
            self._reflex_candidates(campaign, state, user) if form.technique == "reflex" else ()
        )
        record = loaded.record
        text, view = form_message(record.id, loaded.token, state, form, lang, candidates)
        if new:
            await send(interaction, text, view=view, ephemeral=True)
        else:
            await interaction.response.edit_message(content=text, view=view)

    async def _fighter_menu(
        self,
        interaction: discord.Interaction[Any],
        campaign: CampaignRecord,
        loaded: Loaded,
        fighter_id: str,
    ) -> None:
        """The buttons of one fighter chosen from the status message's select (more fighters
        may act than fit in its rows), for their owner or the GM, privately."""
        lang = await lang_for(interaction)
        self._check_controls(campaign, loaded.state, fighter_id, interaction.user.id)
        match = load(loaded.record)
        view = discord.ui.View(timeout=None)
        for item in _fighter_items(loaded.state, fighter_id, _fighter_cid(loaded.record, match),
                                   lang, 0):  # fmt: skip
            view.add_item(item)
        name = loaded.state.fighter(fighter_id).name
        await send(interaction, t("w6cog.combat.more_fighters", lang, name=name), view=view,
                   ephemeral=True)  # fmt: skip

    async def _technique_menu(
        self, interaction: discord.Interaction[Any], loaded: Loaded, fighter_id: str
    ) -> None:
        lang = await lang_for(interaction)
        state = loaded.state
        options = [
            discord.SelectOption(
                label=t(f"w6cog.tech.{name}", lang)[:100],
                value=name,
                description=t(f"w6cog.tech.{name}.desc", lang)[:100],
            )
            for name in technique_options(state, fighter_id)
        ]
        view = discord.ui.View(timeout=None)
        cid = custom_id(PREFIX, loaded.record.id, loaded.token, "tsel", fighter_id)
        placeholder = t("w6cog.btn.technique", lang)[:150]
        view.add_item(discord.ui.Select(custom_id=cid, placeholder=placeholder, options=options))
        name = state.fighter(fighter_id).name
        await send(interaction, t("w6cog.form.choose_technique", lang, name=name), view=view,
                   ephemeral=True)  # fmt: skip

    def _check_controls(
        self, campaign: CampaignRecord, state: CombatState, fighter_id: str, user_id: int
    ) -> None:
        fighter = state.fighter(fighter_id)
        if not campaign.is_gm(user_id) and fighter.owner != user_id:
            raise IllegalAction("w6cog.combat.not_yours", name=fighter.name)
        if fighter_id not in to_act(state):
            raise IllegalAction("w6cog.combat.not_now", name=fighter.name)

    async def _choose_target(
        self,
        interaction: discord.Interaction[Any],
        campaign: CampaignRecord,
        loaded: Loaded,
        fighter_id: str,
    ) -> None:
        lang = await lang_for(interaction)
        state = loaded.state
        self._check_controls(campaign, state, fighter_id, interaction.user.id)
        targets = [f for f in state.fighters if f.id != fighter_id and f.conscious]
        if not targets:
            raise IllegalAction("w6cog.combat.no_targets")
        options = [
            discord.SelectOption(label=f"{f.name} ({f.id}, LP {f.lp})"[:100], value=f.id)
            for f in targets[:MAX_SELECT]
        ]
        view = discord.ui.View(timeout=None)
        view.add_item(
            discord.ui.Select(
                custom_id=custom_id(PREFIX, loaded.record.id, loaded.token, "ziel", fighter_id),
                placeholder=t("w6cog.btn.target", lang)[:150],
                options=options,
            )
        )
        name = state.fighter(fighter_id).name
        await send(interaction, t("w6cog.combat.choose_target", lang, name=name), view=view,
                   ephemeral=True)  # fmt: skip

    async def _choose_kw(
        self,
        interaction: discord.Interaction[Any],
        campaign: CampaignRecord,
        loaded: Loaded,
        fighter_id: str,
        target_id: str,
        weapon: int | None = None,
    ) -> None:
        """The attack's dice, and its weapon when the fighter has several melee weapons."""
        lang = await lang_for(interaction)
        state = loaded.state
        self._check_controls(campaign, state, fighter_id, interaction.user.id)
        fighter, target = state.fighter(fighter_id), state.fighter(target_id)
        view = discord.ui.View(timeout=None)

        def cid(code: str, *extra: object) -> str:
            record = loaded.record
            return custom_id(PREFIX, record.id, loaded.token, code, fighter_id, target_id, *extra)

        weapons = eligible_weapons(fighter, "angriff")
        if weapon is not None and weapon not in weapons:
            raise BadInput("w6cog.combat.bad_choice")
        row = 0
        if len(weapons) > 1:
            chosen = weapons[0] if weapon is None else weapon
            options = [
                discord.SelectOption(
                    label=fighter.waffen[i].name[:100], value=str(i), default=i == chosen
                )
                for i in weapons[:MAX_SELECT]
            ]
            placeholder = t("w6cog.field.w", lang)[:150]
            view.add_item(
                discord.ui.Select(custom_id=cid("waffe"), placeholder=placeholder, options=options)
            )
            row = 1
        extra = () if weapon is None else (weapon,)
        view.add_item(
            _kw_select(cid("kwatk", *extra), fighter.kw_left, t("w6cog.btn.attack_kw", lang), row,
                       lang)
        )  # fmt: skip
        text = t("w6cog.combat.choose_kw", lang, name=fighter.name, target=target.name,
                 kw=fighter.kw_left)  # fmt: skip
        await interaction.response.edit_message(content=text, view=view)

    # -- commands -------------------------------------------------------------------------------

    @kampf.command(
        name=cmd("w6cog.cmd.combat.start.name"), description=cmd("w6cog.cmd.combat.start.desc")
    )
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        lang = await lang_for(interaction)
        campaign = await campaign_here(interaction)
        require_gm(campaign, interaction.user.id)
        channel_id = interaction.channel_id or 0
        if await active_combat(self.bot.store, channel_id) is not None:
            raise IllegalAction("w6cog.combat.exists")
        rules = campaign_rules(campaign)
        settings = Settings(
            schwere_treffer=rules.get("schwere_treffer", False),
            kaufen=rules.get("kaufen", False),
            stabilitaet=rules.get("stabilitaet", False),
            freie_folgephasen=rules.get("freie_folgephasen", False),
        )
        try:
            record = await self.games.create(
                KIND,
                {"gm": campaign.gm_id, "settings": encode(settings)},
                channel_id=channel_id,
                guild_id=interaction.guild_id,
                players=[campaign.gm_id],
                invited=False,
                one_per_channel=True,
                display={"campaign": campaign.id, "characters": {}},
            )
        except AlreadyExists:  # a second start in the same moment won
            raise IllegalAction("w6cog.combat.exists") from None
        await self.bot.store.add_log(
            campaign.id,
            interaction.user.id,
            "combat",
            {"action": "start", "events": [], "verb": "start", "who": "", "targets": []},
        )
        await send(
            interaction,
            t("w6cog.combat.started", lang),
            **await public_status(record, lang),
        )

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
        if record.owner_id is None and sheet.lp_max > 0:
            sheet = replace(sheet, lp=sheet.lp_max)  # an NPC is a template: fresh copies
        characters = dict(loaded.characters)
        fighters = []
        taken = {f.id for f in loaded.state.fighters}
        for _ in range(anzahl if record.owner_id is None else 1):
            fighter_id = fighter_id_for(sheet.name, taken)
            taken.add(fighter_id)
            characters[fighter_id] = record.id
            fighter = fighter_from_sheet(sheet, fighter_id, record.owner_id)
            fighters.append(replace(fighter, name=copy_name(sheet.name, fighter_id)))
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
        fighter = loaded.state.fighter(kaempfer)
        char_id = loaded.characters.get(fighter.id)
        record = await self.bot.store.get_character(char_id) if char_id else None
        if record is None:
            raise IllegalAction("w6cog.combat.no_sheet", name=fighter.name)
        sheet = load_sheet(record)
        fresh = fighter_from_sheet(sheet, fighter.id, fighter.owner)
        action = refresh_action(replace(fresh, name=copy_name(sheet.name, fighter.id)))
        await self.step(interaction, campaign, loaded, action)

    @aktualisieren.autocomplete("kaempfer")
    async def refresh_fighters(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.fighters_matching(interaction, current)

    @kampf.command(
        name=cmd("w6cog.cmd.combat.status.name"), description=cmd("w6cog.cmd.combat.status.desc")
    )
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        lang = await lang_for(interaction)
        loaded = await self._load(interaction)
        await send(
            interaction,
            **await public_status(loaded.record, lang),
        )

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
        attacker = angreifer or self._own_fighter(loaded.state, interaction.user.id)
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
        fighter = kaempfer or self._own_fighter(loaded.state, interaction.user.id)
        await self.step(interaction, campaign, loaded, make("reflex", fighter, erfolge=erfolge))

    @reflex.autocomplete("kaempfer")
    async def reflex_fighters(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.fighters_matching(interaction, current)

    def _own_fighter(self, state: CombatState, user_id: int) -> str:
        """The user's participant that may act now (else their first). Raises BadInput."""
        own = [f.id for f in state.fighters if f.owner == user_id]
        if not own:
            raise BadInput("w6cog.combat.no_own_fighter")
        acting = [i for i in own if i in to_act(state)]
        return (acting or own)[0]

    @angriff.autocomplete("ziel")
    async def target_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.fighters_matching(interaction, current)

    @angriff.autocomplete("angreifer")
    async def attacker_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.fighters_matching(interaction, current)

    async def fighters_matching(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete: the combat's participants whose name or id contains ``current``."""
        record = await active_combat(self.bot.store, interaction.channel_id or 0)
        if record is None:
            return []
        try:
            state = unpack(record).state
        except BadInput:
            return []
        needle = current.casefold()
        return [
            app_commands.Choice(name=f"{f.name} ({f.id}, LP {f.lp})"[:100], value=f.id)
            for f in state.fighters
            if needle in f.name.casefold() or needle in f.id
        ][:AUTOCOMPLETE_LIMIT]

    @angriff.autocomplete("waffe")
    async def weapon_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        record = await active_combat(self.bot.store, interaction.channel_id or 0)
        if record is None:
            return []
        try:
            state = unpack(record).state
            attacker = getattr(interaction.namespace, "angreifer", None)
            fighter = state.fighter(attacker or self._own_fighter(state, interaction.user.id))
        except (BadInput, IllegalAction):
            return []
        return [
            app_commands.Choice(name=w.name[:100], value=w.name[:100])
            for w in fighter.waffen
            if current.casefold() in w.name.casefold()
        ][:AUTOCOMPLETE_LIMIT]

    @kampf.command(
        name=cmd("w6cog.cmd.combat.action.name"), description=cmd("w6cog.cmd.combat.action.desc")
    )
    @options("w6cog.opt", notation="notation")
    async def aktion(
        self, interaction: discord.Interaction[Any], notation: app_commands.Range[str, 1, 300]
    ) -> None:
        campaign = await campaign_here(interaction)
        loaded = await self._load(interaction)
        action = parse_action(notation)
        if action.verb in PAYLOAD_VERBS:
            raise IllegalAction(f"w6cog.combat.use_{action.verb}")
        await self.step(interaction, campaign, loaded, action)

    @aktion.autocomplete("notation")
    async def notation_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """What the user's participants (all of them for the GM) may do now, as notation."""
        campaign = await self.bot.store.active_campaign(interaction.channel_id or 0)
        record = await active_combat(self.bot.store, interaction.channel_id or 0)
        if campaign is None or record is None:
            return []
        try:
            state = unpack(record).state
        except BadInput:
            return []
        gm = campaign.is_gm(interaction.user.id)
        mine = [f for f in state.fighters if gm or f.owner == interaction.user.id]
        proposals = [f"@{f.id} {verb}" for f in mine for verb in verbs_for(state, f.id)]
        if gm:
            proposals += ["phase", "zustand ", "wuerfel ", "entfernen ", "regel "]
        needle = current.strip().casefold()
        found = [p for p in proposals if p.casefold().startswith(needle) or needle in p]
        if current.strip() and current not in found:
            found.insert(0, current)
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

    @setzen.autocomplete("kaempfer")
    async def set_fighters(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.fighters_matching(interaction, current)

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


FORM_CODES = ("tech", "tsel", "rfx", "fset", "fdst", "fdsv", "fdo")


def _plain_weapon(state: CombatState, fighter_id: str, chosen: str) -> str | None:
    """The weapon of a plain attack: the one chosen (by position), else the first usable melee
    weapon (the engine's default is the first weapon, which may be a bow).
    Raises BadInput("w6cog.combat.bad_choice")."""
    fighter = state.fighter(fighter_id)
    weapons = eligible_weapons(fighter, "angriff")
    if chosen:
        if not chosen.isdecimal() or int(chosen) not in weapons:
            raise BadInput("w6cog.combat.bad_choice")
        return fighter.waffen[int(chosen)].name
    return fighter.waffen[weapons[0]].name if weapons else None


def _with_choice(state: CombatState, form: Form, key: str, values: list[str]) -> Form:
    """The form after a select: the reflex form's fighter select switches the fighter."""
    if key == "r":
        return replace(form, fighter=fighter_at(state, _one_value(values)))
    if key not in FIELDS[form.technique]:
        raise BadInput("w6cog.combat.bad_choice")
    return form.with_choice(key, choice_value(key, values))


def _distance_modal(loaded: Loaded, form: Form, lang: str) -> discord.ui.Modal:
    record = loaded.record
    modal = discord.ui.Modal(
        title=t("w6cog.modal.distance_title", lang)[:45],
        custom_id=custom_id(PREFIX, record.id, loaded.token, "fdsv", form.fighter,
                            form.technique, form.encoded()),
    )  # fmt: skip
    modal.add_item(
        discord.ui.TextInput(
            label=t("w6cog.modal.distance", lang)[:45],
            custom_id="d",
            max_length=3,
            default=form.get("d"),
            placeholder="8",
        )
    )
    modal.stop()  # answered by the component router, not kept in discord.py's view store
    return modal


def _one_value(values: list[str]) -> str:
    if len(values) != 1:
        raise BadInput("w6cog.combat.bad_choice")
    return values[0]


async def setup(bot: SpielleiterBot) -> None:
    await bot.add_cog(Combat(bot))
