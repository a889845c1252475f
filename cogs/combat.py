"""``/kampf``: the W6 combat tracker of a channel (one at a time), on top of the pure reducer in
``engines.w6``.

Every step is: load the stored combat, check the revision a button carries (a stale click gets
the stale message), ``apply`` the engine action as the user (the GM and co-GMs act as the
combat's GM), store it revision-guarded together with its campaign-log entries (one
transaction, entries built without I/O by ``log_entries``), and post the narration with a fresh
status embed whose buttons belong to whoever must act now. Buttons use
``kampf:<combat>:<revision>:<code>:<fighter>[:<target>]``.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import fit
from bot.app import SpielleiterBot
from bot.components import custom_id, modal_fields, values_of
from bot.i18n import catalog, cmd, language_of, t
from bot.replies import LANGUAGE_PREF, lang_for, pinging, send
from bot.store.base import AlreadyExists, CampaignRecord, CombatRecord
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
    step_words,
)
from cogs.w6_plural import tc
from engines.core import BadInput, EngineError, Event, IllegalAction, StaleAction
from engines.w6 import (
    CombatAction,
    CombatState,
    Settings,
    apply,
    can_undo,
    fighter_from_sheet,
    join_action,
    make,
    new_combat,
    parse_action,
    refresh_action,
    set_field,
    sheet_to_json,
    state_from_json,
    state_to_json,
    status_view,
    technique_options,
    to_act,
    verbs_for,
)
from engines.w6.actions import PAYLOAD_VERBS, SET_FIELDS

PREFIX = "kampf"
ENGINE_KEY = "engine"
CHARACTERS_KEY = "charaktere"
MAX_SELECT = 25
MAX_FIGHTERS_PER_ADD = 10
MAX_ROWS = 5
DESCRIPTION_LIMIT = 4000
CONTENT_LIMIT = 1900
NAME_KEYS = ("fighter", "attacker", "target", "blocker")
SILENT_EVENTS = ("attack_resolved",)  # the end of an attack already narrated step by step
# Events told in one of several texts by one value: ``w6cog.ev.<type>.<value>``.
# Event types whose text depends on one value (``<key>.<value>`` when the catalog has it):
# an unbought check has no "+0", falling back reads as an attempt to fall back.
EVENT_VARIANTS = {"defence_announced": "answer", "probe": "bought", "defence_roll": "how"}
VERB_PARAMS = ("what",)  # event values naming a step (``probe`` of ``angriff``) in words
STAGE_ROWS = {"abwehr": 2, "entscheidung": 1, "ansage": 1, "rundum": 2, "nachschlagen": 1}


@dataclass(frozen=True)
class Loaded:
    """A stored combat read back: the record, the engine state and fighter → character ids."""

    record: CombatRecord
    state: CombatState
    characters: dict[str, int]


def pack(state: CombatState, characters: dict[str, int]) -> dict[str, Any]:
    return {ENGINE_KEY: state_to_json(state), CHARACTERS_KEY: characters}


def unpack(record: CombatRecord) -> Loaded:
    """Raises BadInput("w6.combat.bad_state") for a stored state of another shape."""
    raw = record.state
    characters = raw.get(CHARACTERS_KEY, {})
    return Loaded(record, state_from_json(raw.get(ENGINE_KEY)), dict(characters))


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
    return f"{name} {number}" if number.isdigit() else name


# ----------------------------------------------------------------------------- narration


def _names(state: CombatState) -> dict[str, str]:
    return {f.id: f.name for f in state.fighters}


def _param(value: Any, names: dict[str, str], lang: str) -> Any:
    if isinstance(value, bool):
        return t("w6cog.ev.ok" if value else "w6cog.ev.not_ok", lang)
    if isinstance(value, list):
        if value and all(isinstance(v, str) for v in value):  # participants, conditions
            return ", ".join(str(names.get(v, v)) for v in value)
        return " ".join(str(v) for v in value) or "–"  # dice
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    return value


def verb_words(verb: str, lang: str) -> str:
    """A verb (``angriff``) or step name (``schildblockade``) in words, else as it is."""
    key = f"w6cog.verb.{verb}"
    return t(key, lang) if key in catalog() else verb


def _payload_names(payload: str) -> list[str]:
    try:
        data = json.loads(payload)
    except ValueError:
        return []
    entries = data if isinstance(data, list) else [data]
    return [str(e.get("name", "?")) for e in entries if isinstance(e, dict)]


def action_who(action: CombatAction, names: dict[str, str]) -> str:
    """Who takes a step: the acting participant, or the participants a payload brings in."""
    if action.verb in PAYLOAD_VERBS:
        return ", ".join(_payload_names(action.payload))
    return names.get(action.fighter, action.fighter)


def action_words(text: str, names: dict[str, str], lang: str) -> str:
    """A step's notation in words with names (``Angriff: Thoin → Ork``)."""
    try:
        action = parse_action(text)
    except BadInput:
        return text[:100] or "–"
    targets = [names.get(target, target) for target in action.targets]
    return step_words(action.verb, action_who(action, names), targets, lang)


def narrate(events: list[Event], before: CombatState, after: CombatState, lang: str) -> list[str]:
    """One line per event in the user's language (names instead of ids, steps in words)."""
    names = _names(before) | _names(after)
    lines = []
    for event in events:
        if event.type in SILENT_EVENTS:
            continue
        params = {key: _param(value, names, lang) for key, value in event.data.items()}
        for key in NAME_KEYS:
            if key in event.data:
                params[key] = names.get(str(event.data[key]), event.data[key])
        for key in VERB_PARAMS:
            value = event.data.get(key)
            if isinstance(value, str):
                own = f"w6cog.what.{value}"  # a name of its own where the verb would repeat
                params[key] = t(own, lang) if own in catalog() else verb_words(value, lang)
        if event.type == "undone":
            params["action"] = action_words(str(event.data.get("action", "")), names, lang)
        key = f"w6cog.ev.{event.type}"
        variant = EVENT_VARIANTS.get(event.type)
        if variant and f"{key}.{event.data.get(variant)}" in catalog():
            key = f"{key}.{event.data.get(variant)}"
        if key in catalog():
            text = tc(key, lang, **params)
        else:
            detail = ", ".join(f"{k}={v}" for k, v in params.items())
            text = t("w6cog.ev.generic", lang, type=event.type, detail=detail)
        lines.append(text)
    return lines


def _cap(lines: list[str], limit: int) -> str:
    text = "\n".join(lines)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ----------------------------------------------------------------------------- campaign log

LogEntry = tuple[int | None, str, dict[str, Any]]
CHECK_EVENTS = ("probe", "reflex", "kraft_check", "spell")


def log_entries(
    user_id: int, action: CombatAction, events: list[Event], state: CombatState
) -> list[LogEntry]:
    """The campaign-log entries of one step (written with the step in one transaction): the
    action with its event types, then one ``damage`` per hit and one ``check`` per roll."""
    names = _names(state)
    text = action.text() if action.verb not in PAYLOAD_VERBS else action.verb
    step = {
        "action": text[:200],
        "events": [e.type for e in events],
        "verb": action.verb,
        "who": action_who(action, names)[:200],
        "targets": [names.get(target, target) for target in action.targets][:20],
    }
    entries: list[LogEntry] = [(user_id, "combat", step)]
    for event in events:
        data = event.data
        name = names.get(str(data.get("fighter")), data.get("fighter"))
        if event.type == "damage":
            fighter = state.find(str(data["fighter"]))
            lp_max = fighter.lp_max if fighter else data["lp"]
            entry = {"name": name, "amount": data["lp_verlust"], "lp": data["lp"], "lp_max": lp_max}
            entries.append((user_id, "damage", entry))
        elif event.type in CHECK_EVENTS:
            entry = {
                "name": name,
                "what": event.type,
                "successes": data.get("successes", 0),
                "required": data.get("required", 0),
            }
            entries.append((user_id, "check", entry))
    return entries


# ----------------------------------------------------------------------------- status


def _fighter_line(row: dict[str, Any], lang: str) -> str:
    mark = "▶" if row["is_turn"] else ("✋" if row["may_act"] else "•")
    reflex = "✓" if row["reflex_available"] else "✗"
    text = t(
        "w6cog.combat.fighter_line", lang, mark=mark, name=row["name"], id=row["id"],
        ab=row["ab"], lp=row["lp"], lp_max=row["lp_max"], kw=row["kw_left"],
        kw_max=row["kw_phase"], h=row["handlungen_left"], h_max=row["handlungen_max"],
        reflex=reflex,
    )  # fmt: skip
    conditions = [t(f"w6cog.cond.{c}", lang) for c in row["conditions"]]
    if row["blockade"]:
        conditions.append(t("w6cog.combat.blockade", lang, value=row["blockade"]))
    if row["fertig"]:
        conditions.append(t("w6cog.combat.done", lang))
    return text + (f" · *{', '.join(conditions)}*" if conditions else "")


def _pending_text(view: dict[str, Any], names: dict[str, str], lang: str) -> str:
    pending = view["pending"]
    if pending is None:
        return ""
    targets = ", ".join(names.get(d["target"], d["target"]) for d in pending["targets"])
    return tc(
        f"w6cog.combat.pending.{pending['stage']}", lang,
        attacker=names.get(pending["attacker"], pending["attacker"]), targets=targets,
        kw=pending["kw"], successes=pending["successes"], required=pending["defence_required"],
        retreat=pending["retreat_required"],
    )  # fmt: skip


def status_embed(state: CombatState, lang: str) -> discord.Embed:
    """Phase, the AB order with LP / KW / Handlungen left and conditions, the pending step."""
    view = status_view(state)
    names = _names(state)
    if view["ended"]:
        title = t("w6cog.combat.title_ended", lang)
    elif view["started"]:
        title = t("w6cog.combat.title", lang, phase=view["phase"])
    else:
        title = t("w6cog.combat.title_setup", lang)
    lines = [_fighter_line(row, lang) for row in view["fighters"]]
    description = "\n".join(lines) or t("w6cog.combat.empty", lang)
    pending = _pending_text(view, names, lang)
    if pending:
        description += "\n\n" + pending
    elif view["to_act"] and not view["ended"]:
        who = ", ".join(names.get(i, i) for i in view["to_act"])
        description += "\n\n" + t("w6cog.combat.to_act", lang, who=who)
    embed = discord.Embed(
        title=title, description=fit.shorten(description, DESCRIPTION_LIMIT, lang)
    )
    embed.colour = EMBED_COLOUR
    embed.set_footer(text=t("w6cog.combat.footer", lang, step=view["step"]))
    return embed


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


def status_view_components(record: CombatRecord, state: CombatState, lang: str) -> discord.ui.View:
    """Buttons and selects for whoever must act now, and the GM's row."""
    view = discord.ui.View(timeout=None)
    if state.ended:
        return view

    def cid(code: str, *args: str) -> str:
        return custom_id(PREFIX, record.id, record.revision, code, *args)

    row = 0
    pending = state.pending
    for fighter_id in sorted(
        to_act(state), key=lambda i: state.order.index(i) if i in state.order else 99
    ):
        fighter = state.fighter(fighter_id)
        need = STAGE_ROWS.get(pending.stage, 1) if pending else 1
        if row + need > MAX_ROWS - 1:
            break
        name = fighter.name
        if pending is None:
            view.add_item(
                _styled(
                    t("w6cog.btn.attack", lang, name=name), cid("atk", fighter_id), "danger", row
                )
            )
            if technique_options(state, fighter_id):
                view.add_item(
                    _styled(t("w6cog.btn.technique", lang), cid("tech", fighter_id), "primary", row)
                )
            view.add_item(
                _styled(t("w6cog.btn.hold", lang), cid("weiter", fighter_id), "secondary", row)
            )
            view.add_item(
                _styled(t("w6cog.btn.done", lang), cid("fertig", fighter_id), "secondary", row)
            )
            if not fighter.reflex_used:
                view.add_item(
                    _styled(
                        t("w6cog.btn.reflex", lang), cid("reflex", fighter_id), "secondary", row
                    )
                )
        elif pending.stage == "abwehr":
            view.add_item(
                _kw_select(cid("abwehr", fighter_id), fighter.kw_left,
                           t("w6cog.btn.defend", lang, name=name), row, lang)
            )  # fmt: skip
            view.add_item(
                _styled(
                    t("w6cog.btn.no_defence", lang, name=name),
                    cid("keine", fighter_id),
                    "secondary",
                    row + 1,
                )
            )
            if not fighter.reflex_used:
                view.add_item(
                    _styled(
                        t("w6cog.btn.reflex_defence", lang),
                        cid("refabw", fighter_id),
                        "secondary",
                        row + 1,
                    )
                )
        elif pending.stage == "entscheidung":
            view.add_item(
                _styled(
                    t("w6cog.btn.roll", lang, name=name),
                    cid("wuerfeln", fighter_id),
                    "primary",
                    row,
                )
            )
            view.add_item(
                _styled(
                    t("w6cog.btn.retreat", lang),
                    cid("zurueckweichen", fighter_id),
                    "secondary",
                    row,
                )
            )
        elif pending.stage == "ansage":
            view.add_item(
                _kw_select(cid("ansage", fighter_id), fighter.kw_left,
                           t("w6cog.btn.announce", lang, name=name), row, lang)
            )  # fmt: skip
        elif pending.stage == "rundum":
            view.add_item(
                _kw_select(cid("rundum_weiter", fighter_id), fighter.kw_left,
                           t("w6cog.btn.sweep_on", lang, name=name), row, lang)
            )  # fmt: skip
            view.add_item(
                _styled(
                    t("w6cog.btn.abort", lang), cid("abbruch", fighter_id), "secondary", row + 1
                )
            )
        elif pending.stage == "nachschlagen":
            view.add_item(
                _styled(
                    t("w6cog.btn.follow", lang, name=name),
                    cid("nachschlagen", fighter_id),
                    "danger",
                    row,
                )
            )
            view.add_item(
                _styled(t("w6cog.btn.skip", lang), cid("verzichten", fighter_id), "secondary", row)
            )
        row += need
    gm_row = min(row, MAX_ROWS - 1)
    if state.phase < 1:
        view.add_item(_styled(t("w6cog.btn.begin", lang), cid("beginnen", "sl"), "success", gm_row))
    elif pending is None:
        view.add_item(
            _styled(t("w6cog.btn.next_phase", lang), cid("phase", "sl"), "secondary", gm_row)
        )
    if any("reflex" in verbs_for(state, f.id) for f in state.fighters if f.id not in to_act(state)):
        view.add_item(_styled(t("w6cog.btn.reflex_any", lang), cid("rfx", "alle"), "secondary",
                              gm_row))  # fmt: skip
    if can_undo(state):
        view.add_item(_styled(t("w6cog.btn.undo", lang), cid("zurueck", "sl"), "secondary", gm_row))
    view.add_item(_styled(t("w6cog.btn.end", lang), cid("ende", "sl"), "secondary", gm_row))
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

    async def cog_load(self) -> None:
        self.bot.components.register(PREFIX, self.on_component, forms=True)

    async def cog_unload(self) -> None:
        self.bot.components.unregister(PREFIX)

    # -- the one path every step takes ------------------------------------------------------

    async def _load(self, interaction: discord.Interaction[Any]) -> Loaded:
        record = await self.bot.store.active_combat(interaction.channel_id or 0)
        if record is None:
            raise IllegalAction("w6cog.combat.none")
        return unpack(record)

    def _actor(self, campaign: CampaignRecord, state: CombatState, user_id: int) -> int:
        """The GM and co-GMs act as the combat's GM; everyone else as themselves."""
        return state.gm if campaign.is_gm(user_id) else user_id

    async def step(
        self,
        interaction: discord.Interaction[Any],
        campaign: CampaignRecord,
        loaded: Loaded,
        action: CombatAction,
        characters: dict[str, int] | None = None,
    ) -> None:
        """Apply, store (revision-guarded), log and post the narration with the new status."""
        lang = await lang_for(interaction)
        actor = self._actor(campaign, loaded.state, interaction.user.id)
        try:
            state, events = apply(loaded.state, action, actor)
        except EngineError as error:
            error.params = named_params(error.params, loaded.state, lang)
            raise
        chars = characters if characters is not None else loaded.characters
        record = await self.bot.store.update_combat(
            loaded.record.id,
            expected_revision=loaded.record.revision,
            state=pack(state, chars),
            status="ended" if state.ended else None,
            log=log_entries(interaction.user.id, action, events, state),
        )
        if state.ended:
            await self._write_back(campaign, state, chars)
        lines = narrate(events, loaded.state, state, lang)
        pings = await self._pings(interaction, state, campaign, lang)
        await send(
            interaction,
            _cap(lines + list(pings.values()), CONTENT_LIMIT) or None,
            embed=status_embed(state, lang),
            view=status_view_components(record, state, lang),
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
        """After the combat, each character's sheet keeps the LP the combat left it with."""
        for fighter in state.fighters:
            char_id = characters.get(fighter.id)
            record = await self.bot.store.get_character(char_id) if char_id else None
            if record is None:
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

    async def on_component(self, interaction: discord.Interaction[Any], args: list[str]) -> None:
        if len(args) < 4 or not args[0].isdecimal() or not args[1].isdecimal():
            raise BadInput("w6cog.combat.bad_choice")
        combat_id, revision, code, fighter_id = int(args[0]), int(args[1]), args[2], args[3]
        campaign = await campaign_here(interaction)
        loaded = await self._load(interaction)
        if loaded.record.id != combat_id or loaded.record.revision != revision:
            raise StaleAction()
        values = values_of(interaction)
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
            if (gm or f.owner == user_id) and "reflex" in verbs_for(state, f.id)
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
        text, view = form_message(record.id, record.revision, state, form, lang, candidates)
        if new:
            await send(interaction, text, view=view, ephemeral=True)
        else:
            await interaction.response.edit_message(content=text, view=view)

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
        cid = custom_id(PREFIX, loaded.record.id, loaded.record.revision, "tsel", fighter_id)
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
                custom_id=custom_id(
                    PREFIX, loaded.record.id, loaded.record.revision, "ziel", fighter_id
                ),
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
            return custom_id(
                PREFIX, record.id, record.revision, code, fighter_id, target_id, *extra
            )

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
        if await self.bot.store.active_combat(channel_id) is not None:
            raise IllegalAction("w6cog.combat.exists")
        rules = campaign_rules(campaign)
        settings = Settings(
            schwere_treffer=rules.get("schwere_treffer", False),
            kaufen=rules.get("kaufen", False),
            stabilitaet=rules.get("stabilitaet", False),
            freie_folgephasen=rules.get("freie_folgephasen", False),
        )
        state = new_combat(campaign.gm_id, interaction.id, settings)
        try:
            record = await self.bot.store.create_combat(
                channel_id=channel_id, campaign_id=campaign.id, state=pack(state, {})
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
            embed=status_embed(state, lang),
            view=status_view_components(record, state, lang),
        )

    @kampf.command(
        name=cmd("w6cog.cmd.combat.add.name"), description=cmd("w6cog.cmd.combat.add.desc")
    )
    @app_commands.rename(
        charakter=cmd("w6cog.opt.character.name"), anzahl=cmd("w6cog.opt.copies.name")
    )
    @app_commands.describe(
        charakter=cmd("w6cog.opt.character.desc"), anzahl=cmd("w6cog.opt.copies.desc")
    )
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
    @app_commands.rename(kaempfer=cmd("w6cog.opt.fighter.name"))
    @app_commands.describe(kaempfer=cmd("w6cog.opt.fighter.desc"))
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
            embed=status_embed(loaded.state, lang),
            view=status_view_components(loaded.record, loaded.state, lang),
        )

    @kampf.command(
        name=cmd("w6cog.cmd.combat.attack.name"), description=cmd("w6cog.cmd.combat.attack.desc")
    )
    @app_commands.rename(
        ziel=cmd("w6cog.opt.target.name"), kw=cmd("w6cog.opt.kw.name"),
        angreifer=cmd("w6cog.opt.attacker.name"), waffe=cmd("w6cog.opt.weapon.name"),
        zone=cmd("w6cog.opt.zone.name"),
    )  # fmt: skip
    @app_commands.describe(
        ziel=cmd("w6cog.opt.target.desc"), kw=cmd("w6cog.opt.kw.desc"),
        angreifer=cmd("w6cog.opt.attacker.desc"), waffe=cmd("w6cog.opt.weapon.desc"),
        zone=cmd("w6cog.opt.zone.desc"),
    )  # fmt: skip
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
    @app_commands.rename(
        kaempfer=cmd("w6cog.opt.fighter.name"), erfolge=cmd("w6cog.opt.successes.name")
    )
    @app_commands.describe(
        kaempfer=cmd("w6cog.opt.fighter.desc"), erfolge=cmd("w6cog.opt.successes.desc")
    )
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
        record = await self.bot.store.active_combat(interaction.channel_id or 0)
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
        record = await self.bot.store.active_combat(interaction.channel_id or 0)
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
    @app_commands.rename(notation=cmd("w6cog.opt.notation.name"))
    @app_commands.describe(notation=cmd("w6cog.opt.notation.desc"))
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
        record = await self.bot.store.active_combat(interaction.channel_id or 0)
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
    @app_commands.rename(
        kaempfer=cmd("w6cog.opt.fighter.name"), feld=cmd("w6cog.opt.combat_field.name"),
        wert=cmd("w6cog.opt.number.name"),
    )  # fmt: skip
    @app_commands.describe(
        kaempfer=cmd("w6cog.opt.fighter.desc"), feld=cmd("w6cog.opt.combat_field.desc"),
        wert=cmd("w6cog.opt.number.desc"),
    )  # fmt: skip
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
        custom_id=custom_id(PREFIX, record.id, record.revision, "fdsv", form.fighter,
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
