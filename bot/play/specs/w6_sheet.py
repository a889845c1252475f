"""The W6 sheets' plug-in for ``/charakter`` and ``/sl`` (not a table game): the sheet's
embed, the :class:`SheetView` the sheet renderer (``bot.render.sheet``) draws, the image, the
creation form, what an edit changed, a check's text, the character list, the LP change and
the buttons answered by ``cogs.w6_sheets``' router. The words are ``bot.narration.w6``'s."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import discord

from bot import fit
from bot.components import custom_id
from bot.i18n import t
from bot.narration.dice import Source, probe_text
from bot.narration.w6 import EMBED_COLOUR, pm_in_order, schwelle_text
from bot.play.ui import button, make_view
from bot.render.sheet import Row, Section, SheetView, render_sheet
from bot.store.base import CharacterRecord
from bot.workers import render_async
from engines.dice.w6 import ProbeResult
from engines.w6.sheet import Sheet, derive

IMAGE_NAME = "charakter"
FIELD_LIMIT = 1024  # characters of an embed field
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


def check_text(name: str, trait: str, skill: str | None, result: ProbeResult, lang: str) -> str:
    """The check in the words and layout of ``/probe`` (header, pool, dice, verdict)."""
    source = Source(name, trait, result.spec.pool.base)
    text = probe_text(lang, discord.utils.escape_markdown(name), source, result)
    if skill is None:
        return text
    header, _, rest = text.partition("\n")
    return f"{header} + **{skill} {result.spec.pool.bonus}**\n{rest}"


def _pairs_text(pairs: tuple[tuple[str, int], ...], lang: str) -> str:
    """``Name Wert, …`` within one embed field ("und N weitere" when there are too many)."""
    return fit.join_limited((f"{name} {value}" for name, value in pairs), FIELD_LIMIT, lang) or "–"


def _text_field(embed: discord.Embed, lang: str, key: str, *, inline: bool, **params: Any) -> None:
    """A field titled ``key`` whose text is ``key + "_text"`` filled with ``params``."""
    embed.add_field(name=t(key, lang), value=t(f"{key}_text", lang, **params), inline=inline)


def sheet_embed(record: CharacterRecord, sheet: Sheet, lang: str) -> discord.Embed:
    """The sheet as an embed: entered values, then the derived values marked as derived."""
    derived = derive(sheet)
    owner = t("w6cog.sheet.npc", lang) if record.owner_id is None else f"<@{record.owner_id}>"
    embed = discord.Embed(
        title=sheet.name,
        description=t(
            "w6cog.sheet.header", lang, rasse=sheet.rasse or "–", owner=owner, id=record.id
        ),
        colour=EMBED_COLOUR,
    )
    embed.add_field(
        name=t("w6cog.sheet.pm", lang), value=_pairs_text(pm_in_order(sheet), lang), inline=True
    )
    _text_field(
        embed,
        lang,
        "w6cog.sheet.values",
        inline=True,
        lp=sheet.lp,
        lp_max=sheet.lp_max,
        rlp=sheet.rlp,
        kw=sheet.kw,
        reflex=sheet.reflex,
        magie=sheet.magie,
        ab=sheet.ab,
        erfahrung=sheet.erfahrung,
        faktor=sheet.faktor,
    )
    for key, pairs in (
        ("eigenschaften", sheet.eigenschaften),
        ("fertigkeiten", sheet.fertigkeiten),
    ):
        embed.add_field(
            name=t(f"w6cog.sheet.{key}", lang), value=_pairs_text(pairs, lang), inline=False
        )
    weapons = [
        t(
            "w6cog.sheet.weapon_line",
            lang,
            name=w.name,
            basis=f"{w.basisschaden[0]}-{w.basisschaden[1]}",
            zusatz=w.zusatzschaden,
            fert=w.fertigkeitsschaden,
        )
        for w in derived.waffen
    ]
    embed.add_field(
        name=t("w6cog.sheet.waffen", lang),
        value=fit.join_limited(weapons, FIELD_LIMIT, lang, sep="\n") or "–",
        inline=False,
    )
    armour = [f"{a.name} ({a.zone}, RS {a.rs}, BE {a.be})" for a in sheet.ruestung]
    if sheet.schild is not None:
        armour.append(f"{sheet.schild.name} (KW +{sheet.schild.kw_bonus})")
    embed.add_field(
        name=t("w6cog.sheet.ruestung", lang),
        value=fit.join_limited(armour, FIELD_LIMIT, lang) or "–",
        inline=False,
    )
    _text_field(
        embed,
        lang,
        "w6cog.sheet.derived",
        inline=False,
        gs=derived.gesamtschutz,
        be=derived.behinderung_kw,
        kw=derived.kw_effektiv,
        reflex=derived.reflex_effektiv,
        handlungen=derived.handlungen,
        schwelle=schwelle_text(sheet, derived),
        kraft=derived.kraft,
    )
    if sheet.notizen:
        embed.add_field(
            name=t("w6cog.sheet.notizen", lang),
            value=fit.shorten(sheet.notizen, FIELD_LIMIT, lang),
            inline=False,
        )
    return fit.fit_embed(embed, lang)  # many long lists together: over 6,000 characters
