"""The words of the W6 campaign, sheets and combat that the cogs and the renderers share: the
W6 embed colour, a combat step in words, a campaign-log entry as a line (rolls, checks,
combat steps and rule changes from the data stored with it; an unreadable one noted), the
sheet embed, and the count-aware texts (``tc``: a message whose count is 1 uses its singular
variant ``<key>.one``, "1 Erfolg", "1 success"). No commands and no store: ``cogs.w6*`` and
``cogs.combat*`` reply with these; ``bot.render.sheet_text``, ``bot.render.combat_text`` and
``bot.narration.combat`` build on them."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

import discord

from bot import fit
from bot.i18n import t
from bot.narration.dice import Source, probe_text
from bot.render.sheet_text import CharacterRecord
from bot.render.w6_words import pm_in_order, schwelle_text, step_words
from engines.core import BadInput
from engines.dice.w6 import ProbeResult
from engines.w6.actions import parse_action
from engines.w6.sheet import Sheet, derive
from engines.w6.state import OPTIONAL_RULES

EMBED_COLOUR = discord.Colour(0xB5651D)
FIELD_LIMIT = 1024
CONTEST_SIDES = 2
COMBAT_CHECKS = ("probe", "reflex", "kraft_check", "spell")  # ``what`` of combat "check" entries

logger = logging.getLogger(__name__)

# ----------------------------------------------------------------------------- log


def combat_log_words(data: dict[str, Any], lang: str) -> str:
    """A ``combat`` log entry's step in words: from the names stored with it, else (older
    entries) from its notation with the participants' ids."""
    verb = data.get("verb")
    if isinstance(verb, str):
        targets = data.get("targets")
        names = [str(name) for name in targets] if isinstance(targets, list) else []
        return step_words(verb, str(data.get("who") or ""), names, lang)
    text = str(data.get("action", ""))
    if text == "start":
        return step_words("start", "", [], lang)
    try:
        action = parse_action(text)
    except BadInput:
        return step_words(text.split(" ")[0], "", [], lang)
    return step_words(action.verb, action.fighter, list(action.targets), lang)


def log_line(entry: dict[str, Any], lang: str) -> str:
    """One log entry as a line: time, who, what (``w6cog.log.<kind>`` with its data)."""
    when = dt.datetime.fromtimestamp(float(entry["at"]), dt.UTC).strftime("%d.%m. %H:%M")
    actor = f"<@{entry['actor_id']}>" if entry.get("actor_id") else "–"
    data = entry.get("data") or {}
    key = f"w6cog.log.{entry['kind']}"
    if "event" in data:
        key += f".{data['event']}"
    what = t(key, lang, **data)
    return f"`{when}` {actor} {what}"


def entry_line(entry: Any, lang: str) -> str:
    """The entry's line, or a note that it could not be read: one broken stored entry (an
    impossible time, odd data) never breaks ``/kampagne log``."""
    try:
        return log_line(readable(entry, lang), lang)
    except Exception:  # any shape a stored entry can have: note it, keep the others
        logger.warning("unreadable campaign log entry skipped: %.200r", entry, exc_info=True)
        return t("w6cog.campaign.log_unreadable", lang)


def readable(entry: dict[str, Any], lang: str) -> dict[str, Any]:
    """The entry with the parameters its ``w6cog.log.*`` text needs (rolls and checks of the
    dice commands, combat checks, rule changes), every stored field kept; an imported entry
    keeps the time it had in its first campaign."""
    data = dict(entry.get("data") or {})
    kind = entry["kind"]
    if kind == "roll":
        data["result"] = _roll_result(data, lang)
    elif kind in ("probe", "probe_komplex"):
        data.update(_probe_params(data, lang))
    elif kind == "probe_konkurrierend":
        data.update(_contest_params(data, lang))
    elif kind == "check" and data.get("what") in COMBAT_CHECKS:
        data["what"] = t(f"w6cog.log.what.{data['what']}", lang)
    elif kind == "combat":
        data["action"] = combat_log_words(data, lang)
    elif kind == "campaign" and data.get("event") == "rule":
        data.update(_rule_params(str(data.get("name", "")), lang))
    imported_at = data.get("imported_at")
    at = imported_at if isinstance(imported_at, int | float) and imported_at else entry["at"]
    return {**entry, "at": at, "data": data}


def _roll_result(data: dict[str, Any], lang: str) -> str:
    """A /roll's result in the log: the total, the successes, the margin of a target, every
    set's total of a repeated roll."""
    total = data.get("total", "?")
    sets = data.get("sets")
    if isinstance(sets, list) and sets and data.get("mode") == "sum":
        return f"{', '.join(str(n) for n in sets)} (Σ {total})"
    if data.get("mode") == "target" and isinstance(data.get("margin"), int):
        margin = data["margin"]
        return f"{total} ({'+' if margin >= 0 else '−'}{abs(margin)})"
    if data.get("mode") != "successes":
        return str(total)
    return t("roll.count.success" if total == 1 else "roll.count.successes", lang, count=total)


def _probe_params(data: dict[str, Any], lang: str) -> dict[str, Any]:
    attribute, character = data.get("attribute"), data.get("character")
    if attribute:
        what = t("w6cog.log.on_attribute", lang, attribute=attribute)
    else:
        what = t("w6cog.log.with_dice", lang, dice=data.get("pool", data.get("available", 0)))
    if character:
        what += f" ({character})"
    stored = data.get("parts")
    parts: list[Any] = stored if isinstance(stored, list) else []
    made = len([p for p in parts if isinstance(p, dict) and _made(p)])
    verdict = t("w6cog.check.passed" if data.get("passed") else "w6cog.check.failed", lang)
    return {"what": what, "verdict": verdict, "made": made, "count": len(parts)}


def _made(part: dict[str, Any]) -> bool:
    successes, required = part.get("successes", 0), part.get("required", 1)
    return isinstance(successes, int) and isinstance(required, int) and successes >= required


def _contest_params(data: dict[str, Any], lang: str) -> dict[str, Any]:
    sides = [s for s in data.get("sides") or [] if isinstance(s, dict)]
    if len(sides) != CONTEST_SIDES:
        sides = [{"label": "?", "successes": 0}] * CONTEST_SIDES
    names = [str(s.get("label") or "?") for s in sides]
    winner = data.get("winner")
    if isinstance(winner, int) and 0 <= winner < CONTEST_SIDES:
        outcome = t("w6cog.log.contest_winner", lang, name=names[winner])
    else:
        outcome = t("w6cog.log.contest_tie", lang)
    return {
        "first": names[0],
        "second": names[1],
        "first_successes": sides[0].get("successes", 0),
        "second_successes": sides[1].get("successes", 0),
        "outcome": outcome,
    }


def _rule_params(stored: str, lang: str) -> dict[str, Any]:
    """``"schwere_treffer=True"`` (as stored) → the rule's name and "an"/"aus"."""
    rule, _, value = stored.partition("=")
    name = t(f"w6cog.rule.{rule}", lang) if rule in OPTIONAL_RULES else rule
    return {"rule": name, "state": t("w6cog.on" if value == "True" else "w6cog.off", lang)}


# ----------------------------------------------------------------------------- sheet embed


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


def check_text(name: str, trait: str, skill: str | None, result: ProbeResult, lang: str) -> str:
    """The check in the words and layout of ``/probe`` (header, pool, dice, verdict)."""
    source = Source(name, trait, result.spec.pool.base)
    text = probe_text(lang, discord.utils.escape_markdown(name), source, result)
    if skill is None:
        return text
    header, _, rest = text.partition("\n")
    return f"{header} + **{skill} {result.spec.pool.bonus}**\n{rest}"
