"""Essence of the Arcane's words: the steps told as lines, the squares the last turn touched,
and the board's texts (status, detail, variants) from a view. Pure functions of events and
views, in the reader's language; the game's table plug-in is ``bot.play.specs.essence``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import t
from bot.play.spec import Steps
from bot.render.essence import BoardText


def board_text(
    view: Mapping[str, Any], names_list: Sequence[str], lang: str, seat: int | None, outcome: Any
) -> BoardText:
    names = (names_list[0], names_list[1])
    variants = variants_text(view["variants"], bool(view["quick"]), lang)
    if outcome is not None:
        reason = t(f"essenzcog.reason.{outcome.reason}", lang)
        winners = sorted(outcome.winners)
        if not winners:
            return BoardText(names, t("essenzcog.status.draw", lang, reason=reason), "", variants)
        status = t("essenzcog.status.won", lang, name=names[winners[0]], reason=reason)
        return BoardText(names, status, "", variants, winner=winners[0])
    if seat is None:
        return BoardText(names, t("essenzcog.status.waiting", lang), "", variants)
    phase = str(view["phase"])
    status = t(f"essenzcog.status.{phase}", lang, name=names[seat], round=view["round"])
    if phase == "g":
        detail = t("essenzcog.detail.growth", lang)
    else:
        kinds = " · ".join(t(f"essence.kind.{k}", lang) for k in view["available"])
        detail = t("essenzcog.detail.available", lang, kinds=kinds)
    return BoardText(names, status, detail, variants, to_act=seat)


def variants_text(variants: Sequence[str], quick: bool, lang: str) -> str:
    names = [t(f"essence.variant.{v}", lang) for v in variants]
    if quick:
        names.append(t("essence.variant.quick", lang))
    if not names:
        return t("essenzcog.variants.none", lang)
    return t("essenzcog.variants.some", lang, names=", ".join(names))


def touched(steps: Steps) -> list[str]:
    """The squares the steps of the last player in ``steps`` touched, each once."""
    if not steps.items:
        return []
    actor = steps.items[-1][0]
    squares: list[str] = []
    for who, event in steps.items:
        if who != actor:
            continue
        for key in ("void_from", "source", "square", "target", "hit"):
            value = event.data.get(key)
            for square in value if isinstance(value, list) else [value]:
                if isinstance(square, str) and square not in squares:
                    squares.append(square)
    return squares


def touched_by_action(steps: Steps) -> list[list[str]]:
    """The squares each action of the last player's answer touched, in order (one list per
    action that touched any)."""
    if not steps.items:
        return []
    actor = steps.items[-1][0]
    answer: list[list[tuple[int, Any]]] = []
    for action in reversed(steps.actions()):  # the trailing run of that player's actions
        if action[0][0] != actor:
            break
        answer.insert(0, action)
    each = [touched(Steps(list(action))) for action in answer]
    return [squares for squares in each if squares]


def narrate(steps: Steps, names: Sequence[str], lang: str) -> list[str]:
    lines = []
    for actor, event in steps.items:
        data = dict(event.data)
        player = int(data.get("player", actor))
        name = names[player] if 0 <= player < len(names) else "?"
        kind = event.type
        if kind in ("turn_started", "game_won", "game_drawn"):
            continue  # the status line says it
        if kind == "moved" and data.get("through_void"):
            kind = "moved_through_void"
        if kind == "destabilized":
            data["hit"] = ", ".join(data.get("hit", []))
            kind = "destabilized" if data["hit"] else "destabilized_alone"
        key = f"essence.event.{kind}" if kind in ENGINE_EVENTS else f"essenzcog.event.{kind}"
        lines.append(t(key, lang, **{**data, "name": name}))
    return lines


ENGINE_EVENTS = {
    "grown",
    "moved",
    "moved_through_void",
    "split",
    "healed",
    "void_shifted",
    "destroyed",
    "destabilized",
    "destabilized_alone",
    "removed",
    "summoned",
}
