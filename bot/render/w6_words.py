"""The words the W6 renderers and narration share: the count-aware ``t`` (``tc``: "1 Erfolg",
"2 Erfolge"), a combat step in words, the PM in the Charakterdokument's order and the
heavy-hit threshold as a sheet shows it. Plain functions of plain values (no store, no
narration), so every W6 text module may use them."""

from __future__ import annotations

from typing import Any

from bot.i18n import catalog, t
from engines.w6 import Derived, Sheet
from engines.w6.sheet import PM_REQUIRED

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


def step_words(verb: str, who: str, targets: list[str], lang: str) -> str:
    """A combat step in words: ``Angriff: Thoin → Ork`` (``w6cog.verb.<verb>``)."""
    key = f"w6cog.verb.{verb}"
    label = t(key, lang) if key in catalog() else verb
    text = f"{label}: {who}" if who else label
    return f"{text} → {', '.join(targets)}" if targets else text


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
