"""The W6 combat of a channel (``/kampf``, one at a time): a game of kind ``w6combat`` played
through :class:`bot.games.GameService` like every game, plus what only a combat has.

Every step: map the user to a seat (the GM and co-GMs act as seat 0, a player as their seat,
a player's join of their own fighters is admitted as seat 0), try the step on the loaded state
for a friendly error, then ``GameService.act`` it (per-decision stale check, revision-guarded
write with the campaign-log entries and the fighter → character map in the same transaction).

Buttons carry a token naming what they were made for: ``<seat><decision id, cut>`` (the
decision), ``u<revision>`` (undo: the stored revision) or ``-`` (judged by nothing); a click
applies while that is still so and is refused as stale (``StaleAction``) after.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from typing import Any

from bot.games import ACTIVE, GameService, StepWrites, Turn, engine_of, load
from bot.i18n import t
from bot.narration.combat_text import log_entries
from bot.replies import LANGUAGE_PREF
from bot.store import LogRow, Store
from bot.store.base import AlreadyExists, CampaignRecord, CharacterRecord
from bot.store.base import GameRecord as GameRecord  # the record a cog reads
from engines.core import BadInput, Event, IllegalAction, StaleAction, registry
from engines.core import match as m
from engines.w6 import (
    CombatAction,
    CombatState,
    Settings,
    apply,
    fighter_from_sheet,
    make,
    set_field,
    sheet_to_json,
    to_act,
    usable_weapons,
    verbs_for,
)
from engines.w6.actions import PAYLOAD_VERBS as PAYLOAD_VERBS  # the cog's rules too
from engines.w6.actions import SET_FIELDS as SET_FIELDS
from engines.w6.codec import encode
from engines.w6.engine import lp_state
from engines.w6.sheet_io import sheet_from_stored
from engines.w6.state import OPTIONAL_RULES, Fighter, seat_of_owner
from engines.w6.state import WeaponStats as WeaponStats  # what the forms read of a weapon
from engines.w6.tables import sizes as sizes  # the Waffentabelle's sizes and zones
from engines.w6.tables import zones as zones

KIND = "w6combat"
TOKEN = re.compile(r"(\d+)([a-z][0-9a-z]*)")
TOKEN_ID = 6  # characters of a decision id a button carries (custom ids hold 100 at most)


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


def public_rows(record: GameRecord, state: CombatState) -> dict[str, dict[str, Any]]:
    """The fighters' rows of what everyone sees (``view_for(None)``: no NPC values), by id."""
    return {row["id"]: row for row in engine_of(record).view_for(state, None)["fighters"]}


def unpack(record: GameRecord) -> Loaded:
    """Raises BadInput("w6.combat.bad_state") for a stored state of another shape."""
    characters = record.display.get("characters", {})
    return Loaded(record, load(record).state, dict(characters))


async def active_combat(store: Store, channel_id: int) -> GameRecord | None:
    """The running combat of a channel (None: none)."""
    found = await store.games_in_channel(channel_id, kind=KIND, statuses=(ACTIVE,))
    return found[-1] if found else None


# ----------------------------------------------------------------------------- click tokens


def open_decision(record: GameRecord, token: str) -> tuple[int, str] | None:
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


def still_open(record: GameRecord, token: str) -> bool:
    """Whether a button made for ``token`` still applies: its decision is open for its seat
    (``<seat><decision id>``), its revision is the stored one (``u<revision>``), or it is
    judged by nothing (``-``)."""
    if token in ("", "-"):
        return True
    if token.startswith("u"):
        return token == f"u{record.revision}"
    return open_decision(record, token) is not None


def judged_by(record: GameRecord, token: str) -> dict[str, Any]:
    """The ``GameService.act`` arguments that judge a click made for ``token``. Raises
    StaleAction when its decision is no longer open."""
    if token.startswith("u") and token[1:].isdecimal():
        return {"revision": int(token[1:])}
    if token in ("", "-"):
        return {}
    found = open_decision(record, token)
    if found is None:
        raise StaleAction()
    return {"decision": found[1], "decision_seat": found[0]}


def decision_token(match: m.Match, seat: int, fighter_id: str | None, prefix: str = "") -> str:
    """``<seat><decision id>`` of the open decision of ``seat`` naming ``fighter_id`` (or, with
    ``prefix``, the seat's decision whose id starts so); the GM's seat when ``seat`` has
    none (a player who left). "" when there is none."""
    engine = registry()[match.engine_name]
    for candidate in (seat, 0):
        for decision in m.decisions(engine, match):
            if decision.seat != candidate or not decision.id.startswith(prefix):
                continue
            if fighter_id is None or fighter_id in decision.params.get("fighters", ()):
                return f"{decision.seat}{decision.id[:TOKEN_ID]}"
    return ""


def fighter_token(match: m.Match, fighter_id: str) -> str:
    """The token of the decision a fighter's buttons answer (their owner's seat)."""
    state = match.state
    seat = seat_of_owner(state, state.fighter(fighter_id).owner)
    return decision_token(match, seat, fighter_id)


# ----------------------------------------------------------------------------- fighters


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


def position(state: CombatState, fighter_id: str) -> int:
    return state.order.index(fighter_id) if fighter_id in state.order else len(state.order)


def acting(state: CombatState) -> list[str]:
    """The fighters who must act now, in the order of the round."""
    return sorted(to_act(state), key=lambda i: position(state, i))


def reflex_ready(state: CombatState) -> list[Any]:
    """The fighters who may roll their Reflex now without being asked."""
    now = to_act(state)
    return [f for f in state.fighters if f.id not in now and "reflex" in verbs_for(state, f.id)]


MENTION = re.compile(r"^<@!?(\d+)>$")
# verbs whose targets are not all participants: ``zustand ork +liegend``, ``wuerfel 5 6``
TARGET_FIGHTERS = {"zustand": 1, "wuerfel": 0}


def fighter_ref(state: CombatState, word: str) -> str:
    """The participant a typed word names: its id, a user mention (``<@123>``: that user's
    fighter who may act now, else their first), or its id or shown name in any case
    (``Thoin``, ``ORK``); else the word as it is (the engine then says who is unknown)."""
    if state.find(word) is not None:
        return word
    mention = MENTION.match(word)
    if mention:
        own = [f.id for f in state.fighters if f.owner == int(mention.group(1))]
        now = [i for i in own if i in to_act(state)]
        return (now or own or [word])[0]
    folded = word.casefold()
    by_id = [f.id for f in state.fighters if f.id.casefold() == folded]
    by_name = [f.id for f in state.fighters if f.name.casefold() == folded]
    found = by_id or by_name
    return found[0] if len(found) == 1 else word


def named_action(state: CombatState, action: CombatAction) -> CombatAction:
    """``action`` with its fighter and target words read by ``fighter_ref``."""
    if action.verb in PAYLOAD_VERBS:
        return action
    count = TARGET_FIGHTERS.get(action.verb, len(action.targets))
    targets = tuple(
        fighter_ref(state, word) if index < count else word
        for index, word in enumerate(action.targets)
    )
    fighter = fighter_ref(state, action.fighter) if action.fighter else ""
    return replace(action, fighter=fighter, targets=targets)


def notation_with_mention(text: str) -> str:
    """A notation that begins with a user mention (``<@123> angriff ork``, as Discord puts a
    mention into a text option) read as that user's fighter (``@<@123> angriff ork``)."""
    first, _, rest = text.strip().partition(" ")
    return f"@{first} {rest}" if MENTION.match(first) else text


def own_fighter(state: CombatState, user_id: int) -> str:
    """The user's participant that may act now (else their first). Raises BadInput."""
    own = [f.id for f in state.fighters if f.owner == user_id]
    if not own:
        raise BadInput("w6cog.combat.no_own_fighter")
    now = [i for i in own if i in to_act(state)]
    return (now or own)[0]


def to_answer(state: CombatState, gm_id: int) -> dict[int, list[str]]:
    """Who must answer a pending step: user → the names of their fighters (NPCs the GM's)."""
    if state.pending is None:
        return {}
    fighters: dict[int, list[str]] = {}
    for fighter_id in acting(state):
        fighter = state.fighter(fighter_id)
        fighters.setdefault(fighter.owner or gm_id, []).append(fighter.name)
    return dict(sorted(fighters.items()))


def joining(
    loaded: Loaded, sheet: Any, char_id: int, owner: int | None, copies: int
) -> tuple[list[Any], dict[str, int]]:
    """The fighters a character joins as (an NPC, a template, in ``copies`` fresh copies; a
    player's character once) and the fighter → character map with them."""
    if owner is None and sheet.lp_max > 0:
        sheet = replace(sheet, lp=sheet.lp_max)  # an NPC is a template: fresh copies
    characters = dict(loaded.characters)
    fighters = []
    taken = {f.id for f in loaded.state.fighters}
    for _ in range(copies if owner is None else 1):
        fighter_id = fighter_id_for(sheet.name, taken)
        taken.add(fighter_id)
        characters[fighter_id] = char_id
        fighter = fighter_from_sheet(sheet, fighter_id, owner)
        fighters.append(replace(fighter, name=copy_name(sheet.name, fighter_id)))
    return fighters, characters


# ----------------------------------------------------------------------------- autocomplete


def fighter_label(fighter: Fighter, lang: str, *, gm: bool) -> str:
    """A participant among choices: name, id and LP; an NPC's LP in words for a reader who
    is not the GM, as the public status shows it (``Ork (ork, verletzt)``)."""
    if fighter.owner is None and not gm:
        return f"{fighter.name} ({fighter.id}, {t(f'w6cog.lp_state.{lp_state(fighter)}', lang)})"
    return f"{fighter.name} ({fighter.id}, LP {fighter.lp})"


def opponents_first(attacker: Fighter, fighters: list[Fighter]) -> list[Fighter]:
    """``fighters`` as a target list: the other side first (the players' fighters for an
    NPC, the NPCs for a player's), each side in join order — a select holds 25, and a big
    fight's last joiner must not fall off every menu."""
    return sorted(fighters, key=lambda f: (f.owner is None) == (attacker.owner is None))


# ----------------------------------------------------------------------------- attacks

MAX_TARGETS = {"rundum": 6, "beidhaendig": 2}  # targets a technique's form may name
# the weapon technique a form's weapon must carry (Waffentabelle: "Techniken")
WEAPON_TECHNIQUE = {
    "zweihaendig": "zweihaendig",
    "serie": "angriffsserie",
    "rundum": "rundumschlag",
    "ausrichten": "ausrichten",
}


def eligible_weapons(fighter: Fighter, technique: str) -> list[int]:
    """Positions (in ``fighter.waffen``) of the weapons that can carry the technique."""
    usable = {w.name for w in usable_weapons(fighter)}
    needed = WEAPON_TECHNIQUE.get(technique)
    return [
        i
        for i, w in enumerate(fighter.waffen)
        if w.name in usable
        and w.fernkampf == (technique == "fern")
        and (needed is None or needed in w.techniken)
    ]


def attack_targets(state: CombatState, fighter_id: str) -> list[Fighter]:
    """Whom a plain attack of ``fighter_id`` may go at: every other conscious participant,
    the other side first."""
    others = [f for f in state.fighters if f.id != fighter_id and f.conscious]
    return opponents_first(state.fighter(fighter_id), others)


def plain_weapon(state: CombatState, fighter_id: str, chosen: str) -> str | None:
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


def fighter_matches(
    state: CombatState, current: str, lang: str, *, gm: bool
) -> list[tuple[str, str]]:
    """(label, id) of the participants whose name or id contains ``current``."""
    needle = current.casefold()
    return [
        (fighter_label(f, lang, gm=gm), f.id)
        for f in state.fighters
        if needle in f.name.casefold() or needle in f.id
    ]


def weapon_matches(state: CombatState, attacker: str | None, user: int, current: str) -> list[str]:
    """The weapons of the attacker (else the user's fighter) whose name contains ``current``.
    Raises BadInput or IllegalAction without such a fighter."""
    fighter = state.fighter(attacker or own_fighter(state, user))
    return [w.name for w in fighter.waffen if current.casefold() in w.name.casefold()]


def notation_matches(state: CombatState, gm: bool, user: int, current: str) -> list[str]:
    """What the user's participants (all of them for the GM) may do now, as notation,
    matching ``current`` (which comes first when it is not among them)."""
    mine = [f for f in state.fighters if gm or f.owner == user]
    proposals = [f"@{f.id} {verb}" for f in mine for verb in verbs_for(state, f.id)]
    if gm:
        proposals += ["phase", "zustand ", "wuerfel ", "entfernen ", "regel "]
    needle = current.strip().casefold()
    found = [p for p in proposals if p.casefold().startswith(needle) or needle in p]
    if current.strip() and current not in found:
        found.insert(0, current)
    return found


# ----------------------------------------------------------------------------- who may click


def check_controls(
    campaign: CampaignRecord, state: CombatState, fighter_id: str, user_id: int
) -> None:
    """The fighter's owner or the GM, while the fighter must act. Raises IllegalAction."""
    fighter = state.fighter(fighter_id)
    if not campaign.is_gm(user_id) and fighter.owner != user_id:
        raise IllegalAction("w6cog.combat.not_yours", name=fighter.name)
    if fighter_id not in to_act(state):
        raise IllegalAction("w6cog.combat.not_now", name=fighter.name)


def reflex_candidates(
    campaign: CampaignRecord, state: CombatState, user_id: int
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


def check_form(
    campaign: CampaignRecord, state: CombatState, technique: str, fighter_id: str, user_id: int
) -> None:
    """Who may fill a form: the fighter's owner or the GM; the reflex at any time, every
    other technique only when the fighter may act. Raises IllegalAction."""
    if technique != "reflex":
        check_controls(campaign, state, fighter_id, user_id)
    elif fighter_id not in reflex_candidates(campaign, state, user_id):
        raise IllegalAction("w6cog.combat.not_yours", name=state.fighter(fighter_id).name)


# ----------------------------------------------------------------------------- buttons


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
    "zuerst": "zuerst",
    "danach": "danach",
}
GM_BUTTONS = ("beginnen", "phase", "zurueck", "ende")
KW_SELECTS = ("abwehr", "ansage", "rundum_weiter")


def button_action(code: str, fighter_id: str, values: list[str]) -> CombatAction:
    """The engine action of a status-message button or select. Raises BadInput."""
    if code in GM_BUTTONS:
        return make(code)
    if code in KW_SELECTS:
        return make(code, fighter_id, kw=one_number(values))
    if code == "keine":
        return make("abwehr", fighter_id, keine=True)
    if code == "refabw":
        return make("abwehr", fighter_id, reflex=True)
    if code in BUTTON_ACTIONS:
        return make(BUTTON_ACTIONS[code], fighter_id)
    raise BadInput("w6cog.combat.unknown_button", code=code[:20])


def one_value(values: list[str]) -> str:
    if len(values) != 1:
        raise BadInput("w6cog.combat.bad_choice")
    return values[0]


def one_number(values: list[str]) -> int:
    if len(values) != 1 or not values[0].isdecimal():
        raise BadInput("w6cog.combat.bad_choice")
    return int(values[0])


# ----------------------------------------------------------------------------- the service


class CombatService:
    """Start, step, undo and finish a channel's combat on the game service."""

    def __init__(self, store: Store, games: GameService | None = None) -> None:
        self.store = store
        self.games = games or GameService(store)
        self.games.on_finished(self._ended, kind=KIND)

    async def _ended(self, turn: Turn) -> None:
        """A combat's end-of-game work (``GameService.on_finished``): once the GM ended it,
        the players' LP written back to their sheets, by the fighter → character map stored
        with the finishing step."""
        if turn.match.state.ended:
            characters = turn.record.display.get("characters", {})
            await self.write_back(turn.match.state, dict(characters))

    async def set_display(self, game_id: int, display: dict[str, Any]) -> None:
        """The tracker's display data (its message, log, pings) stored with the combat."""
        await self.store.set_game_display(game_id, display)

    async def chosen_language(self, user_id: int) -> str | None:
        """The language a user chose (``/sprache``), None when they chose none."""
        return await self.store.get_pref(user_id, LANGUAGE_PREF)

    async def character(self, character_id: int) -> CharacterRecord | None:
        """A participant's character (its current sheet, for ``/kampf aktualisieren``)."""
        return await self.store.get_character(character_id)

    async def running(self, channel_id: int) -> Loaded:
        """The channel's combat. Raises IllegalAction("w6cog.combat.none")."""
        record = await active_combat(self.store, channel_id)
        if record is None:
            raise IllegalAction("w6cog.combat.none")
        return unpack(record)

    async def state_here(self, channel_id: int) -> CombatState | None:
        """The state of the channel's combat for autocomplete (None: none, or unreadable)."""
        record = await active_combat(self.store, channel_id)
        try:
            return None if record is None else unpack(record).state
        except BadInput:
            return None

    async def start(
        self,
        campaign: CampaignRecord,
        rules: dict[str, Any],
        user: int,
        channel_id: int,
        guild_id: int | None,
    ) -> GameRecord:
        """A new combat of the campaign in the channel with the campaign's optional rules.
        Raises IllegalAction("w6cog.combat.exists") while one runs there."""
        if await active_combat(self.store, channel_id) is not None:
            raise IllegalAction("w6cog.combat.exists")
        settings = Settings(**{name: rules.get(name, False) for name in OPTIONAL_RULES})
        try:
            record = await self.games.create(
                KIND,
                {"gm": campaign.gm_id, "settings": encode(settings)},
                channel_id=channel_id,
                guild_id=guild_id,
                players=[campaign.gm_id],
                invited=False,
                one_per_channel=True,
                display={"campaign": campaign.id, "characters": {}},
            )
        except AlreadyExists:  # a second start in the same moment won
            raise IllegalAction("w6cog.combat.exists") from None
        step = {"action": "start", "events": [], "verb": "start", "who": "", "targets": []}
        await self.store.add_log(campaign.id, user, "combat", step)
        return record

    @staticmethod
    def actor(campaign: CampaignRecord, state: CombatState, user_id: int) -> int:
        """The GM and co-GMs act as the combat's GM; everyone else as themselves."""
        return state.gm if campaign.is_gm(user_id) else user_id

    @staticmethod
    def seat(state: CombatState, action: CombatAction, actor: int) -> int:
        """The seat ``actor`` (a user id, the GM's for co-GMs) takes ``action`` as: the GM's
        seat 0; a player's join of their own fighters is admitted by the table (seat 0)."""
        if actor == state.gm or action.verb == "beitritt":
            return 0
        return int(seat_of_owner(state, actor))

    def check(
        self, campaign: CampaignRecord, loaded: Loaded, action: CombatAction, user: int
    ) -> int:
        """Try the step on the loaded state (the engine's own user-level entry: its friendly
        errors); the actor."""
        actor = self.actor(campaign, loaded.state, user)
        apply(loaded.state, action, actor)
        return actor

    async def step(
        self,
        campaign: CampaignRecord,
        loaded: Loaded,
        action: CombatAction,
        user: int,
        actor: int,
        characters: dict[str, int] | None = None,
    ) -> Turn:
        """Apply a checked step (the campaign-log entries and the fighter → character map in
        the same transaction); a step that ends the combat writes the players' LP back
        (``_ended``, the game service's end-of-game hook)."""
        chars = characters if characters is not None else loaded.characters
        campaign_id = loaded.campaign_id or campaign.id

        def log(match: m.Match, events: list[Event]) -> list[LogRow]:
            entries = log_entries(user, action, events, match.state)
            return [(campaign_id, actor_id, kind, data) for actor_id, kind, data in entries]

        def players(match: m.Match) -> list[int]:
            return [match.state.gm, *match.state.seats]

        writes = StepWrites(log=log, display=_display(loaded, chars), players=players)
        return await self.games.act(
            loaded.record.id,
            user,
            action.text(),
            **judged_by(loaded.record, loaded.token),
            seat=self.seat(loaded.state, action, actor),
            writes=writes,
        )

    async def undo(
        self, campaign: CampaignRecord, loaded: Loaded, user: int
    ) -> tuple[GameRecord, Event]:
        """The last step taken back (``GameService.undo_last``: the log without it, replayed),
        at most ``undo_tiefe`` steps in a row; the stored game and the event to narrate."""
        record, state = loaded.record, loaded.state
        if not still_open(record, loaded.token):
            raise StaleAction()
        undos = int(record.display.get("undos", 0))
        actions = await self.store.game_actions(record.id)
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
            log=[(campaign_id, user, "combat", step)],
        )
        return stored, event

    async def write_back(self, state: CombatState, characters: dict[str, int]) -> None:
        """After the combat, each player's character keeps the LP the combat left it with;
        an NPC is a template (its copies join fresh), so its sheet stays as the GM wrote it."""
        for fighter in state.fighters:
            char_id = characters.get(fighter.id)
            record = await self.store.get_character(char_id) if char_id else None
            if record is None or record.owner_id is None:
                continue
            try:
                sheet = set_field(sheet_from_stored(record.sheet), "lp", str(max(-999, fighter.lp)))
            except BadInput:
                continue
            await self.store.update_character(
                record.id,
                expected_revision=record.revision,
                name=sheet.name,
                sheet=sheet_to_json(sheet),
            )


def _display(loaded: Loaded, characters: dict[str, int], undos: int = 0) -> dict[str, Any]:
    return {**loaded.record.display, "characters": characters, "undos": undos}
