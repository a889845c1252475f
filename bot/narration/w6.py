"""The words of the W6 campaign, sheets and combat that the cogs and the plug-ins share: the
W6 embed colour, a combat step in words, a campaign-log entry as a line (rolls, checks,
combat steps and rule changes from the data stored with it; an unreadable one noted), a
sheet's PM and threshold as shown, and the count-aware texts (``tc``: a message whose count
is 1 uses its singular variant ``<key>.one``, "1 Erfolg", "1 success"). Pure functions: no
Discord, no commands, no store. ``cogs.w6*`` and ``cogs.combat*`` reply with these;
``bot.narration.combat_text``, ``bot.play.specs.w6`` (a combat's status, buttons and menus)
and ``bot.play.specs.w6_sheet`` (the sheet's embed, view and buttons) build on them."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from bot.i18n import catalog, t
from engines.core import BadInput
from engines.w6.actions import parse_action
from engines.w6.sheet import PM_REQUIRED, Derived, Sheet
from engines.w6.state import OPTIONAL_RULES

EMBED_COLOUR = 0xB5651D  # W6's embeds (a campaign, a sheet, a combat status)
CONTEST_SIDES = 2
COMBAT_CHECKS = ("probe", "reflex", "kraft_check", "spell")  # ``what`` of combat "check" entries

logger = logging.getLogger(__name__)

# The message keys that put a noun right after a count, and the parameter holding that count.
COUNTED = {
    "w6cog.ev.attack_roll": "successes",
    "w6cog.ev.follow_up": "successes",
    "w6cog.ev.feint": "successes",
    "w6cog.ev.aligned": "successes",
    "w6cog.ev.shield_wall": "successes",
    "w6cog.ev.aimed": "handlungen",
    "w6cog.ev.attack_dice_announced": "kw",
    "w6cog.ev.kw_returned": "kw",
    "w6cog.ev.combat_started": "fighters",
    "w6cog.ev.defence_shield": "kw",
    "w6cog.ev.defence_announced.kw": "kw",
    "w6cog.combat.kw_option": "kw",
    "w6cog.combat.pending.entscheidung": "successes",
    "w6cog.option.kw": "n",
    "w6cog.option.successes": "n",
    "w6cog.option.zone": "required",
}


def counted_key(key: str, params: dict[str, Any]) -> str:
    """``key``, or its singular variant when the count it names is 1."""
    param = COUNTED.get(key)
    if param is not None and params.get(param) == 1 and f"{key}.one" in catalog():
        return f"{key}.one"
    return key


def tc(key: str, lang: str, **params: Any) -> str:
    """``t`` with the singular variant chosen by the count (see ``COUNTED``)."""
    return t(counted_key(key, params), lang, **params)


# ----------------------------------------------------------------------------- log


def step_words(verb: str, who: str, targets: list[str], lang: str) -> str:
    """A combat step in words: ``Angriff: Thoin → Ork`` (``w6cog.verb.<verb>``)."""
    key = f"w6cog.verb.{verb}"
    label = t(key, lang) if key in catalog() else verb
    text = f"{label}: {who}" if who else label
    return f"{text} → {', '.join(targets)}" if targets else text


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


# ----------------------------------------------------------------------------- sheet values


def pm_in_order(sheet: Sheet) -> tuple[tuple[str, int], ...]:
    """The PM as the Charakterdokument lists them (K, G, M, B, then any others): the store
    keeps JSON objects with sorted keys."""
    rank = {name: index for index, name in enumerate(PM_REQUIRED)}
    return tuple(sorted(sheet.pm, key=lambda pair: (rank.get(pair[0], len(rank)), pair[0])))


def schwelle_text(sheet: Sheet, derived: Derived) -> str:
    """The heavy-hit threshold, or ``–`` for a sheet without K and G and without a fixed
    threshold (the rule does not apply to it, see data/w6/RULES.md)."""
    exempt = sheet.pm_value("K") + sheet.pm_value("G") == 0 and derived.schwelle == 0
    return "–" if exempt else str(derived.schwelle)
