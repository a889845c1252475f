"""The words and components of ``/charakter`` and ``/sl`` beside the sheet renderer
(``bot.render.sheet``): the :class:`SheetView` it draws, the image, the creation form, what an
edit changed, a check's text, the character list, the LP change and the buttons answered by
``cogs.w6_sheets``' router."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot import fit
from bot.components import custom_id
from bot.i18n import t
from bot.play.ui import button, make_view
from bot.render.base import render_async
from bot.render.sheet import Row, Section, SheetView, render_sheet
from bot.render.w6_words import pm_in_order, schwelle_text
from engines.w6.sheet import Sheet, derive


class CharacterRecord(Protocol):
    """What these texts read of a stored character (``bot.store.CharacterRecord``)."""

    @property
    def id(self) -> int: ...

    @property
    def name(self) -> str: ...

    @property
    def owner_id(self) -> int | None: ...

    @property
    def revision(self) -> int: ...


IMAGE_NAME = "charakter"
MODAL_PREFIX = "w6neu"
BUTTON_PREFIX = (
    "w6bogen"  # w6bogen:<zeigen/loeschen/abbrechen>:<character>:<asker>[:rev:name digest]
)
# the creation form's lines: (key, length, required, placeholder)
MODAL_INPUTS = (
    ("name", 64, True, ""),
    ("rasse", 64, False, ""),
    ("pm", 40, True, "3 2 4 3"),
    ("werte", 40, False, "20 8 4 5"),
    ("handlungen", 40, False, "8, 12, 16, 20"),
)


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


def creation_modal(lang: str) -> discord.ui.Modal:
    """The form of ``/charakter neu``: name, race, PM and the basic values."""
    modal = discord.ui.Modal(
        title=t("w6cog.modal.title", lang)[:45], custom_id=custom_id(MODAL_PREFIX, "basis")
    )
    for key, limit, required, placeholder in MODAL_INPUTS:
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
    return modal


def field_set(record: CharacterRecord, before: Sheet, sheet: Sheet, field: str, value: str,
              asker: int, lang: str) -> dict[str, Any]:  # fmt: skip
    """The editor's answer to an edit: the field, the derived values it changed, and a button
    showing the whole sheet (``send`` arguments)."""
    text = t("w6cog.sheet.field_set", lang, name=sheet.name, field=field, value=value[:200])
    changes = derived_changes(before, sheet, lang)
    if changes:
        text += "\n" + t("w6cog.sheet.derived_changed", lang, changes=changes)
    show = custom_id(BUTTON_PREFIX, "zeigen", record.id, asker)
    return {
        "content": text,
        "view": make_view([[button(t("w6cog.sheet.show_button", lang), show)]]),
    }


def delete_confirm(record: CharacterRecord, asker: int, digest: str, lang: str) -> dict[str, Any]:
    """The question before a character is deleted, with its confirm and cancel buttons."""
    confirm = custom_id(BUTTON_PREFIX, "loeschen", record.id, asker, record.revision, digest)
    cancel = custom_id(BUTTON_PREFIX, "abbrechen", record.id, asker)
    buttons: list[discord.ui.Item[Any]] = [
        button(t("w6cog.sheet.delete_button", lang), confirm, "danger"),
        button(t("w6cog.sheet.cancel_button", lang), cancel),
    ]
    text = t("w6cog.sheet.delete_confirm", lang, name=record.name)
    return {"content": text, "view": make_view([buttons])}


def json_file(text: str, name: str) -> discord.File:
    safe = "".join(c if c.isalnum() else "_" for c in name)[:40] or "charakter"
    return discord.File(io.BytesIO(text.encode()), filename=f"{safe}.json")


def character_list(
    records: Sequence[CharacterRecord], active: CharacterRecord | None, gm: bool, lang: str
) -> str:
    """The campaign's characters, the user's active one starred (NPCs for the GM only)."""
    lines = []
    for r in records:
        if r.owner_id is None and not gm:
            continue
        owner = t("w6cog.sheet.npc", lang) if r.owner_id is None else f"<@{r.owner_id}>"
        mark = " ★" if active is not None and active.id == r.id else ""
        lines.append(f"#{r.id} **{r.name}** – {owner}{mark}")
    return fit.join_limited(lines, fit.CONTENT, lang, sep="\n") or t("w6cog.sheet.none", lang)


def lp_text(kind: str, sheet: Sheet, new_lp: int, lang: str) -> str:
    """What damage, healing or a rest did to ``sheet`` (its LP now ``new_lp``), with the
    Kraft check due below the RLP and a rest that heals nothing."""
    amount = abs(new_lp - sheet.lp)
    text = t(f"w6cog.gm.{kind}", lang, name=sheet.name, amount=amount, lp=new_lp,
             lp_max=sheet.lp_max)  # fmt: skip
    if kind == "damage" and new_lp < sheet.rlp:
        text += "\n" + t("w6cog.gm.kraft_check", lang, name=sheet.name)
    if kind == "rest" and sheet.rlp == 0:
        text += "\n" + t("w6cog.gm.rest_no_rlp", lang, name=sheet.name)
    return text


def kraft_button(record: CharacterRecord, asker: int, lang: str) -> discord.ui.View:
    """The button under a damage line below the RLP that rolls the Kraft-Probe."""
    roll = custom_id(BUTTON_PREFIX, "kraft", record.id, asker)
    return make_view([[button(t("w6cog.gm.kraft_button", lang), roll, "primary")]])


def kraft_result(name: str, dice: tuple[int, ...], required: int, lang: str) -> str:
    """The Kraft-Probe rolled after damage outside a combat (SCHADEN: «Kraft-Probe auf vier
    Erfolge …, um nicht bewusstlos zu Boden zu gehen»)."""
    successes = sum(1 for d in dice if d >= 5)
    key = "w6cog.gm.kraft_ok" if successes >= required else "w6cog.gm.kraft_failed"
    faces = " ".join(str(d) for d in dice) or "–"
    return t(key, lang, name=name, count=len(dice), dice=faces, successes=successes,
             required=required)  # fmt: skip
