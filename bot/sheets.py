"""W6 character sheets of a campaign apart from Discord: the creation form read into a sheet,
the paths an edit may name, a check rolled with a sheet's values, LP changes, and the store
writes (one name per campaign, the limits, a character with its log entry in one
transaction)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from bot.i18n import catalog, t
from bot.limits import MAX_CHARACTERS_PER_CAMPAIGN, MAX_CHARACTERS_PER_PLAYER
from bot.store import Store
from bot.store.base import CampaignRecord, CharacterRecord, Json, TooManyCharacters
from engines.core import BadInput, IllegalAction, Rng
from engines.dice.pool import roll_pool
from engines.dice.w6 import Difficulty, Pool, ProbeResult, ProbeSpec, probe
from engines.w6.sheet import FIXABLE, Sheet, kraft_dice
from engines.w6.sheet_io import (
    ARMOUR_KEYS,
    ATTRIBUTE_ALIASES,
    INT_FIELDS,
    MOUNT_KEYS,
    SCHEMA,
    SHIELD_KEYS,
    VERSION,
    WEAPON_KEYS,
    edit_many,
    set_field,
    sheet_from_json,
    sheet_from_stored,
    sheet_to_json,
)
from engines.w6.sheet_io import MAX_SHEET_BYTES as MAX_SHEET_BYTES  # an upload's cap, for the cog
from engines.w6.tables import technique

TEXT_FIELDS = ("name", "rasse", "notizen", "handlungen", "be_fertigkeiten")
DIFFICULTIES = {d.name.lower(): d for d in Difficulty}


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
    if part and f"w6cog.modal.part.{part}" in catalog():  # KW: the reader's word for the pool
        part = t(f"w6cog.modal.part.{part}", lang)
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


def may_edit(campaign: CampaignRecord, record: CharacterRecord, user_id: int) -> bool:
    """A player edits their own sheets; the GM (and co-GMs) edit every sheet and NPC (the one
    rule for Discord and the web companion)."""
    return campaign.is_gm(user_id) or (record.owner_id is not None and record.owner_id == user_id)


def require_edit(campaign: CampaignRecord, record: CharacterRecord, user_id: int) -> None:
    """Raises IllegalAction: ``npc_gm_only`` for an NPC, ``not_your_sheet`` for another's."""
    if may_edit(campaign, record, user_id):
        return
    if record.owner_id is None:
        raise IllegalAction("w6cog.error.npc_gm_only")
    raise IllegalAction("w6cog.error.not_your_sheet")


def fingerprint(record: CharacterRecord) -> str:
    """A short digest of the character's name: a store may give a deleted character's id to a
    new one, and an old confirm must not delete that one (revision 1 again)."""
    return hashlib.sha256(f"{record.id}:{record.name}".encode()).hexdigest()[:10]


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
    # the English names /charakter feld takes (Dexterity → Geschick) work here too
    trait = _named(names, eigenschaft) or _named(
        names, ATTRIBUTE_ALIASES.get(eigenschaft.strip().casefold(), "")
    )
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


def blank_sheet() -> Sheet:
    """An empty sheet (its paths are the ones every sheet has)."""
    return sheet_from_json({"schema": SCHEMA, "version": VERSION, "name": "-"})


def lp_after(sheet: Sheet, kind: str, change: int) -> int:
    """The LP after damage (``change`` < 0), healing (up to the maximum) or a rest (RLP per
    day, Charakterdokument "RLP")."""
    if kind == "rest":
        change = sheet.rlp
    new_lp = min(sheet.lp_max, sheet.lp + change) if change > 0 else sheet.lp + change
    return max(-999, new_lp)


def _sheet_entry(event: str, name: str, npc: bool) -> dict[str, Any]:
    """A sheet's log entry; an NPC's is marked (that it exists is the GMs' to know)."""
    return {"event": event, "name": name, **({"npc": True} if npc else {})}


class Sheets:
    """The store writes of sheets."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def save(
        self,
        campaign: CampaignRecord,
        record: CharacterRecord,
        sheet: Sheet,
        log: Sequence[tuple[int | None, str, Json]] = (),
    ) -> CharacterRecord:
        """The sheet stored (its name one per campaign) with ``log`` entries in the same
        transaction. Raises StaleRevision when it changed since ``record`` was read."""
        await self.require_free_name(campaign, sheet.name, record.id)
        return await self.store.update_character(
            record.id,
            expected_revision=record.revision,
            name=sheet.name,
            sheet=sheet_to_json(sheet),
            log=log,
        )

    async def edit(
        self, campaign: CampaignRecord, record: CharacterRecord, sheet: Sheet, field: str, user: int
    ) -> CharacterRecord:
        """A field edited, with its log entry (an NPC's marked) in the same transaction."""
        entry = _sheet_entry("edited", sheet.name, record.owner_id is None) | {"field": field}
        return await self.save(campaign, record, sheet, [(user, "sheet", entry)])

    async def change_lp(
        self, campaign: CampaignRecord, record: CharacterRecord, kind: str, change: int, user: int
    ) -> tuple[Sheet, int]:
        """Damage (``change`` < 0), healing or a rest (``kind``) on the sheet, and its log entry
        (an NPC's marked: its LP are the GMs'), in one transaction: the sheet before and the
        LP now."""
        sheet = sheet_from_stored(record.sheet)
        new_lp = lp_after(sheet, kind, change)
        entry: dict[str, Any] = {
            "name": sheet.name, "amount": abs(new_lp - sheet.lp), "lp": new_lp,
            "lp_max": sheet.lp_max,
        }  # fmt: skip
        if record.owner_id is None:
            entry["npc"] = True
        await self.save(
            campaign, record, set_field(sheet, "lp", str(new_lp)), [(user, kind, entry)]
        )
        return sheet, new_lp

    async def kraft_check(
        self, campaign: CampaignRecord, record: CharacterRecord, user: int, rng: Rng
    ) -> tuple[str, tuple[int, ...], int]:
        """The Kraft-Probe after damage below the RLP (SCHADEN: four successes or unconscious),
        logged (an NPC's for the GMs only): the name, the dice and the successes required."""
        sheet = sheet_from_stored(record.sheet)
        roll, _ = roll_pool(kraft_dice(sheet), rng)
        required = technique("bewusstlosigkeit", "kraft_erfolge")
        entry: dict[str, Any] = {"name": sheet.name, "what": "kraft_check",
                                 "successes": roll.successes, "required": required}  # fmt: skip
        if record.owner_id is None:
            entry["npc"] = True
        await self.store.add_log(campaign.id, user, "check", entry)
        return sheet.name, roll.dice, required

    async def delete(self, campaign: CampaignRecord, record: CharacterRecord, user: int) -> None:
        """A character deleted, and the log says so."""
        await self.store.delete_character(record.id)
        entry = _sheet_entry("deleted", record.name, record.owner_id is None)
        await self.store.add_log(campaign.id, user, "sheet", entry)

    async def require_free_name(
        self, campaign: CampaignRecord, name: str, keep: int | None
    ) -> None:
        """A name is one character per campaign, whatever its case (character ``keep`` may keep
        its own), so every lookup by name finds the one meant. Raises
        BadInput("w6cog.error.name_taken")."""
        wanted = name.strip().casefold()
        for other in await self.store.characters(campaign.id):
            if other.id != keep and other.name.strip().casefold() == wanted:
                raise BadInput("w6cog.error.name_taken", name=name.strip()[:64])

    async def create(
        self, campaign: CampaignRecord, sheet: Sheet, owner_id: int | None, user: int
    ) -> CharacterRecord:
        """A new character (``owner_id`` None: an NPC), active for its owner; the campaign's
        and the player's limits hold."""
        await self.require_free_name(campaign, sheet.name, None)
        # character, active mark and log entry in one transaction, the limits counted in it
        # (two creates at once cannot pass them together): all or nothing
        try:
            return await self.store.create_character(
                campaign_id=campaign.id,
                owner_id=owner_id,
                name=sheet.name,
                sheet=sheet_to_json(sheet),
                activate=True,
                log=[(user, "sheet", _sheet_entry("created", sheet.name, owner_id is None))],
                max_in_campaign=MAX_CHARACTERS_PER_CAMPAIGN,
                max_per_owner=MAX_CHARACTERS_PER_PLAYER,
            )
        except TooManyCharacters as full:
            if full.which == "campaign":
                raise BadInput(
                    "w6cog.error.campaign_full", max=MAX_CHARACTERS_PER_CAMPAIGN
                ) from None
            raise BadInput(
                "w6cog.error.too_many_characters", max=MAX_CHARACTERS_PER_PLAYER
            ) from None
