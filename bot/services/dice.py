"""The dice commands' reads and writes apart from Discord: saved rolls (a user's and a
campaign's), the characters a W6 check reads its pool from (a player rolls only with their own;
an NPC opponent is rolled with its values but shown hidden), the campaign log and the
language a secret roll's GM reads. ``cogs.dice`` parses, calls this and the texts of
``bot.narration.dice``, and replies."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.i18n import DEFAULT_LANGUAGE
from bot.narration.dice import (
    CHOICE_LIMIT,
    Person,
    Source,
    difficulty_of,
    display,
    roll_image,
)
from bot.render.dice import DiceImage, render_dice
from bot.replies import LANGUAGE_PREF
from bot.store import Store
from bot.store.base import CampaignRecord as CampaignRecord  # the records a cog reads
from bot.store.base import CharacterRecord as CharacterRecord
from engines.core import BadInput
from engines.core.rng import Rng
from engines.dice import DiceRoll, roll_notation
from engines.dice.w6 import Pool
from engines.w6.sheet_io import ATTRIBUTE_ALIASES, sheet_from_stored


def sheet_attribute(character: CharacterRecord, attribute: str) -> tuple[str, int]:
    """The Eigenschaft ``attribute`` (any case) of a W6 sheet (``sheet["eigenschaften"]``)."""
    values = character.sheet.get("eigenschaften")
    known = values if isinstance(values, dict) else {}
    typed = attribute.strip().casefold()
    # the English names /charakter feld takes (Dexterity → Geschick) work here too
    wanted = {typed, ATTRIBUTE_ALIASES.get(typed, typed).casefold()}
    for name, value in known.items():
        if str(name).casefold() in wanted and isinstance(value, int):
            return str(name), value
    skills = sheet_skills(character)
    is_skill = any(name.casefold() == typed for name in skills)
    raise BadInput(
        "roll.probe.skill_as_attribute" if is_skill else "roll.probe.unknown_attribute",
        name=attribute.strip()[:40],
        character=character.name,
        known=sorted(str(k) for k in known),  # a whole sheet: cut to a list with "und N weitere"
        skills=sorted(skills),
    )


def sheet_skills(character: CharacterRecord) -> dict[str, int]:
    """The Fertigkeiten of a W6 sheet. Raises BadInput (a sheet that no longer validates)."""
    return dict(sheet_from_stored(character.sheet).fertigkeiten)


def sheet_skill(character: CharacterRecord, skill: str) -> tuple[str, int]:
    """The Fertigkeit ``skill`` (any case) of a W6 sheet. Raises BadInput
    (``roll.probe.unknown_skill``, naming the character and its Fertigkeiten)."""
    skills = sheet_skills(character)
    wanted = skill.strip().casefold()
    for name, value in skills.items():
        if name.casefold() == wanted:
            return name, value
    raise BadInput(
        "roll.probe.unknown_skill",
        name=skill.strip()[:40],
        character=character.name,
        skills=sorted(skills),
    )


def limited(campaign: CampaignRecord, viewer: int, opponent: bool) -> bool:
    """Whether ``viewer`` may roll only with their own characters (a player's own side)."""
    return not opponent and not campaign.is_gm(viewer)


def may_use(
    campaign: CampaignRecord, character: CharacterRecord, viewer: int, opponent: bool
) -> bool:
    """The GMs use every character; a player their own, and as an opponent any character."""
    return not limited(campaign, viewer, opponent) or character.owner_id == viewer


def character_choices(
    characters: Sequence[CharacterRecord],
    campaign: CampaignRecord,
    viewer: int,
    current: str,
    opponent: bool,
) -> list[tuple[str, str]]:
    """The characters ``viewer`` may roll with (or against) whose name starts like ``current``."""
    word = current.strip().casefold()
    return [
        (c.name[:CHOICE_LIMIT], c.name[:CHOICE_LIMIT])
        for c in sorted(characters, key=lambda c: c.name)
        if c.name.casefold().startswith(word) and may_use(campaign, c, viewer, opponent)
    ]


def scopes(user_id: int, campaign: CampaignRecord | None) -> tuple[str, str | None]:
    """Where saved rolls are kept: the user's scope, and the channel's campaign's if any."""
    return f"user:{user_id}", (f"campaign:{campaign.id}" if campaign else None)


class DiceService:
    """The store behind the dice commands."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def campaign_in(self, channel_id: int | None) -> CampaignRecord | None:
        return None if channel_id is None else await self.store.active_campaign(channel_id)

    async def characters(self, campaign: CampaignRecord) -> list[CharacterRecord]:
        return await self.store.characters(campaign.id)

    async def log(
        self, campaign: CampaignRecord | None, user_id: int, kind: str, data: dict[str, Any]
    ) -> None:
        """A roll's campaign-log entry (nothing outside a campaign)."""
        if campaign is not None:
            await self.store.add_log(campaign.id, user_id, kind, data)

    async def language(self, user_id: int) -> str:
        """The language a user chose, else the default (a secret roll's DM to a GM)."""
        return await self.store.get_pref(user_id, LANGUAGE_PREF) or DEFAULT_LANGUAGE

    # -- saved rolls ----------------------------------------------------------------------

    async def saved(self, scopes: Sequence[str]) -> dict[str, str]:
        """The saved rolls of the scopes (a later scope's name wins)."""
        return await self.store.saved_rolls(list(scopes))

    async def save(
        self, scope: str, name: str, expression: str, user_id: int, limit: int
    ) -> str | None:
        """Save (or replace) a roll; returns the expression it replaced. Raises
        BadInput("roll.saved.too_many") at the scope's limit (counted inside the write, so
        concurrent saves cannot pass it)."""
        old = (await self.store.saved_rolls([scope])).get(name)
        if not await self.store.save_roll(scope, name, expression, user_id, limit=limit):
            raise BadInput("roll.saved.too_many", limit=limit)
        return old

    async def delete(self, scope: str, name: str) -> bool:
        return await self.store.delete_roll(scope, name)

    # -- the characters a check reads -------------------------------------------------------

    async def find_source(
        self,
        campaign: CampaignRecord | None,
        user: Person | None,
        character_name: str | None,
        attribute: str | None,
        value: int | None,
        *,
        fallback: str,
        viewer: int,
        skill: str | None = None,
        opponent: bool = False,
    ) -> Source:
        """A pool from a plain ``value``, or from ``attribute`` (and ``skill``) of a character:
        the one named, else the active character of ``user`` in the channel's campaign.

        NPC sheets are the GM's: a player (``viewer`` not a GM) rolls only with their own
        characters, and an NPC ``opponent`` is rolled with its values but ``hidden``."""
        if skill and (value is not None or not attribute):
            raise BadInput("roll.probe.skill_needs_attribute")
        if value is not None:
            label = character_name or (user.display_name if user else fallback)
            return Source(label, attribute.strip() if attribute else None, value, character_name)
        if not attribute and opponent:  # the opponent's side is missing, not mine
            who = character_name or (display(user) if user else fallback)
            raise BadInput("roll.contest.opponent_no_pool", name=who.strip()[:40])
        if not attribute:
            raise BadInput("roll.probe.no_pool")
        if campaign is None:
            raise BadInput("roll.probe.no_campaign")
        character = await self.find_character(campaign, user, character_name, viewer, opponent)
        if character.owner_id is None and not campaign.is_gm(viewer):  # an NPC opponent
            try:
                name, number = sheet_attribute(character, attribute)
            except BadInput:  # its error would list the sheet's attributes and skills
                raise BadInput(
                    "roll.contest.npc_cannot", name=character.name, attribute=attribute.strip()[:40]
                ) from None
            return Source(character.name, name, number, character.name, hidden=True)
        name, number = sheet_attribute(character, attribute)
        if not skill:
            return Source(character.name, name, number, character.name)
        skill_name, points = sheet_skill(character, skill)
        return Source(character.name, name, number, character.name, skill_name, points)

    async def find_character(
        self,
        campaign: CampaignRecord,
        user: Person | None,
        character_name: str | None,
        viewer: int,
        opponent: bool = False,
    ) -> CharacterRecord:
        """The character named, else ``user``'s active one. A player may name only their own
        characters (an opponent: any); an NPC or another's character reads as no such name."""
        if character_name:
            wanted = character_name.strip().casefold()
            for character in await self.store.characters(campaign.id):
                if character.name.casefold() == wanted and may_use(
                    campaign, character, viewer, opponent
                ):
                    return character
            key = "roll.probe.not_yours" if limited(campaign, viewer, opponent) else None
            raise BadInput(key or "roll.probe.unknown_character", name=character_name.strip()[:40])
        if user is None:
            raise BadInput("roll.contest.no_opponent")
        active = await self.store.active_character(campaign.id, user.id)
        if active is None:
            raise BadInput("roll.probe.no_character", name=display(user))
        return active

    async def choice_character(
        self,
        campaign: CampaignRecord,
        viewer: int,
        user: Person | None,
        character_name: str | None,
        opponent: bool,
    ) -> CharacterRecord | None:
        """The character whose values autocomplete may offer ``viewer``: as the commands find it,
        never an NPC's to a player (its values and names are the GM's)."""
        found = None
        if character_name:
            wanted = str(character_name).strip().casefold()
            everyone = await self.store.characters(campaign.id)
            found = next(
                (
                    c
                    for c in everyone
                    if c.name.casefold() == wanted and may_use(campaign, c, viewer, opponent)
                ),
                None,
            )
        elif user is not None:
            found = await self.store.active_character(campaign.id, user.id)
        if found is not None and found.owner_id is None and not campaign.is_gm(viewer):
            return None
        return found

    async def own_pool(
        self,
        campaign: CampaignRecord | None,
        user: Person,
        charakter: str | None,
        eigenschaft: str | None,
        wert: int | None,
        bonus: int,
        erschwernis: str | None,
        fertigkeit: str | None = None,
    ) -> tuple[Source, Pool]:
        """The roller's pool: Eigenschaft (sheet or value) + Fertigkeit + bonus − Erschwernis,
        the Fertigkeit's points added as dice as ``/charakter probe`` does: one Fertigkeit point
        adds one W6 (our reading of «Durch geeignete Fertigkeiten und Hilfsmittel kann die
        Anzahl der Würfel … erhöht werden», which names no amount; data/w6/RULES.md)."""
        source = await self.find_source(
            campaign,
            user,
            charakter,
            eigenschaft,
            wert,
            fallback="",
            viewer=user.id,
            skill=fertigkeit,
        )
        penalty, difficulty = difficulty_of(erschwernis)
        return source, Pool(source.value, bonus + source.skill_value, penalty, difficulty)


def heavy_roll(expression: str, rng: Rng) -> tuple[DiceRoll, DiceImage | None, bytes | None]:
    """A roll of hundreds of dice, its picture and the picture's PNG in one go: the dice
    command sends it to a worker process (``bot.workers.run_apart``), so neither the dice
    nor their drawing take time from the event loop. Raises BadInput as ``roll_notation``."""
    result, _ = roll_notation(expression, rng)
    image = roll_image(result)
    return result, image, render_dice(image) if image is not None else None
