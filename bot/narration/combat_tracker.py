"""The living tracker of a W6 combat (issue #19): one public message per combat, edited
through the round, that shows the status (embed, image, the buttons of whoever must act) and
a short running log; a compact line when a phase ends; a ping only when a decision opens.

Everything here is pure: what the tracker keeps in the game's ``display`` (``tracker``: its
message, the last image's digest, the log; ``phase_sum``: the phase's attacks, hits and LP
at its start; ``pinged``: the decision last pinged) and the words. ``cogs.combat`` sends.
"""

from __future__ import annotations

import hashlib
from typing import Any

from bot.i18n import t
from bot.narration.w6 import tc
from engines.core import Event
from engines.w6 import CombatState

LOG_LINES = 6  # the running log on the tracker: the last steps, in full in /kampagne log
LOG_LIMIT = 1500  # characters of that log (the message content holds 2,000)


def digest(png: bytes) -> str:
    """What tells whether the status image changed (a new image only then)."""
    return hashlib.sha256(png).hexdigest()[:16]


def running_log(display: dict[str, Any], lines: list[str]) -> list[str]:
    """The tracker's log after ``lines``: the last ``LOG_LINES`` within ``LOG_LIMIT``."""
    tracker = display.get("tracker") or {}
    kept = [str(line) for line in tracker.get("log", [])] + lines
    kept = kept[-LOG_LINES:]
    while kept and len("\n".join(kept)) > LOG_LIMIT:
        kept.pop(0)
    return kept


def _snapshot(state: CombatState) -> dict[str, int]:
    return {f.id: f.lp for f in state.fighters}


def phase_summaries(
    display: dict[str, Any],
    events: list[Event],
    before: CombatState,
    after: CombatState,
    rows: dict[str, dict[str, Any]],
    lang: str,
) -> tuple[list[str], dict[str, Any]]:
    """The compact lines of the phases ``events`` end, and the new ``phase_sum``: attacks,
    hits and each fighter's LP at the phase's start. ``rows`` are the public view's rows (an
    NPC's LP only in words there)."""
    summary = dict(display.get("phase_sum") or {})
    if summary.get("phase") != before.phase:
        summary = {"phase": before.phase, "attacks": 0, "hits": 0, "lp": _snapshot(before)}
    lines = []
    for event in events:
        if event.type == "attack_roll":
            summary["attacks"] = int(summary.get("attacks", 0)) + 1
        elif event.type == "damage" and int(event.data.get("lp_verlust", 0)) > 0:
            summary["hits"] = int(summary.get("hits", 0)) + 1
        elif event.type == "phase_ended":
            lines.append(_summary_line(summary, after, rows, lang))
        elif event.type == "phase_started":
            summary = {
                "phase": event.data["phase"],
                "attacks": 0,
                "hits": 0,
                "lp": _snapshot(after),
            }
    return lines, summary


def _summary_line(
    summary: dict[str, Any], state: CombatState, rows: dict[str, dict[str, Any]], lang: str
) -> str:
    parts = [
        tc("w6cog.tracker.summary", lang, phase=summary.get("phase", 0),
           attacks=int(summary.get("attacks", 0)), hits=int(summary.get("hits", 0)))
    ]  # fmt: skip
    start: dict[str, int] = summary.get("lp", {})
    for fighter in state.fighters:
        lost = int(start.get(fighter.id, fighter.lp)) - fighter.lp
        row = rows.get(fighter.id, {})
        if lost <= 0:
            continue
        if "lp" in row:  # a player's fighter: the numbers
            parts.append(t("w6cog.tracker.lost", lang, name=fighter.name, lost=lost,
                           lp=fighter.lp, lp_max=fighter.lp_max))  # fmt: skip
        else:  # an NPC: its LP in words, as the public status shows it
            state_words = t(f"w6cog.lp_state.{row.get('lp_state', 'verletzt')}", lang)
            parts.append(t("w6cog.tracker.npc_hit", lang, name=fighter.name, lp=state_words))
    return " · ".join(parts)


def decision_key(state: CombatState) -> str:
    """The open decision that pings its users once: the attack (or choice) it belongs to,
    whatever its stage (announcing the defence, then rolling or falling back, is one)."""
    pending = state.pending
    return "" if pending is None else str(pending.nr)


def fresh_pings(
    display: dict[str, Any], pings: dict[int, str], key: str, clicker: int, phase: int
) -> list[int]:
    """The users to ping now, and ``display["pinged"]`` updated: a user whose decision opened
    (``key`` new for them), who did not click this step and who has no ping of this phase
    still unanswered (pinged and not acted since: they were told already; the tracker shows
    the rest). Whoever clicks has answered their ping."""
    pinged: dict[str, list[Any]] = {
        user: list(entry) for user, entry in (display.get("pinged") or {}).items()
        if isinstance(entry, list) and len(entry) == 2
    }  # fmt: skip
    pinged.pop(str(clicker), None)
    fresh = []
    for user in pings:
        if not key or user == clicker:
            continue
        last = pinged.get(str(user))
        if last is not None and (last[0] == key or last[1] == phase):
            continue
        pinged[str(user)] = [key, phase]
        fresh.append(user)
    display["pinged"] = pinged
    return fresh
