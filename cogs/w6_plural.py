"""Count-aware W6 texts: a message whose count is 1 uses its singular variant ``<key>.one``
("1 success", "1 Erfolg") instead of the plural sentence."""

from __future__ import annotations

from typing import Any

from bot.i18n import catalog, t

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
