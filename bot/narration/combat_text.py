"""The W6 combat in words, for the combat cog (nothing Discord-specific): the narration of
a step's events, the campaign-log entries of a step, and the status text (title, one line per
fighter in AB order, the pending step) drawn from a view (``view_for``: NPC values only in
the GM's view).
"""

from __future__ import annotations

import json
from typing import Any

from bot import fit
from bot.i18n import catalog, t
from bot.narration.w6 import step_words, tc
from bot.render.combat import CombatImageText
from engines.core import BadInput, Event
from engines.w6 import CombatAction, CombatState, parse_action
from engines.w6.actions import PAYLOAD_VERBS
from engines.w6.engine import lp_state

DESCRIPTION_LIMIT = 4000
NAME_KEYS = ("fighter", "attacker", "target", "blocker")
SILENT_EVENTS = ("attack_resolved",)  # the end of an attack already narrated step by step
# Event types whose text depends on one value (``<key>.<value>`` when the catalog has it):
# an unbought check has no "+0", falling back reads as an attempt to fall back.
EVENT_VARIANTS = {
    "defence_announced": "answer",
    "probe": "bought",
    "defence_roll": "how",
    "zone_effect": "effect",
}
ZONE_WORDS = {"Kopf": "kopf", "Torso": "torso", "Arme": "arme", "Hände": "haende", "Beine": "beine"}
VERB_PARAMS = ("what",)  # event values naming a step (``probe`` of ``angriff``) in words
DOWN_CONDITIONS = ("bewusstlos", "sterbend")


# ----------------------------------------------------------------------------- narration


def _names(state: CombatState) -> dict[str, str]:
    return {f.id: f.name for f in state.fighters}


def _param(value: Any, names: dict[str, str], lang: str) -> Any:
    if isinstance(value, bool):
        return t("w6cog.ev.ok" if value else "w6cog.ev.not_ok", lang)
    if isinstance(value, list):
        if value and all(isinstance(v, str) for v in value):  # participants, conditions
            return ", ".join(str(names.get(v, v)) for v in value)
        return " ".join(str(v) for v in value) or "–"  # dice
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    return value


def verb_words(verb: str, lang: str) -> str:
    """A verb (``angriff``) or step name (``schildblockade``) in words, else as it is."""
    key = f"w6cog.verb.{verb}"
    return t(key, lang) if key in catalog() else verb


def _payload_names(payload: str) -> list[str]:
    try:
        data = json.loads(payload)
    except ValueError:
        return []
    entries = data if isinstance(data, list) else [data]
    return [str(e.get("name", "?")) for e in entries if isinstance(e, dict)]


def action_who(action: CombatAction, names: dict[str, str]) -> str:
    """Who takes a step: the acting participant, or the participants a payload brings in."""
    if action.verb in PAYLOAD_VERBS:
        return ", ".join(_payload_names(action.payload))
    return names.get(action.fighter, action.fighter)


def action_words(text: str, names: dict[str, str], lang: str) -> str:
    """A step's notation in words with names (``Angriff: Thoin → Ork``)."""
    try:
        action = parse_action(text)
    except BadInput:
        return text[:100] or "–"
    targets = [names.get(target, target) for target in action.targets]
    return step_words(action.verb, action_who(action, names), targets, lang)


def npc_ids(*states: CombatState) -> frozenset[str]:
    """The fighters without an owner (the GM's NPCs) in any of ``states``: whose values only
    the GM's view shows."""
    return frozenset(f.id for state in states for f in state.fighters if f.owner is None)


def narrate(
    events: list[Event],
    before: CombatState,
    after: CombatState,
    lang: str,
    *,
    hidden: frozenset[str] = frozenset(),
) -> list[str]:
    """One line per event in the user's language (names instead of ids, steps in words).

    The events of a fighter in ``hidden`` (the NPCs, for every reader but the GM) are told in
    their ``.npc`` wording where the catalog has one: a hit without armour and LP (the LP in
    words, as the players' status shows them), a join without AB and LP, holding without the
    number of Handlungen."""
    names = _names(before) | _names(after)
    lines = []
    for event in events:
        if event.type in SILENT_EVENTS:
            continue
        params = {key: _param(value, names, lang) for key, value in event.data.items()}
        for key in NAME_KEYS:
            if key in event.data:
                params[key] = names.get(str(event.data[key]), event.data[key])
        for key in VERB_PARAMS:
            value = event.data.get(key)
            if isinstance(value, str):
                own = f"w6cog.what.{value}"  # a name of its own where the verb would repeat
                params[key] = t(own, lang) if own in catalog() else verb_words(value, lang)
        if event.type == "undone":
            params["action"] = action_words(str(event.data.get("action", "")), names, lang)
        zone = event.data.get("zone")
        if isinstance(zone, str) and zone in ZONE_WORDS:
            params["zone"] = t(f"w6cog.zone.{ZONE_WORDS[zone]}", lang)
        key = f"w6cog.ev.{event.type}"
        variant = EVENT_VARIANTS.get(event.type)
        if variant and f"{key}.{event.data.get(variant)}" in catalog():
            key = f"{key}.{event.data.get(variant)}"
        if event.data.get("dice") == [] and f"{key}.none" in catalog():
            key = f"{key}.none"  # a roll of no dice says so (not "Kraft-Probe ab: –")
        secret = str(event.data.get("fighter", ""))
        npc_key = next(
            (k for k in (f"{key}.npc", f"w6cog.ev.{event.type}.npc") if k in catalog()), None
        )  # a roll of an NPC says nothing of its dice (how many is an NPC's value)
        if secret in hidden and npc_key is not None:
            key = npc_key
            fighter = after.find(secret) or before.find(secret)
            if fighter is not None:
                params["state"] = t(f"w6cog.lp_state.{lp_state(fighter)}", lang)
        if key in catalog():
            text = tc(key, lang, **params)
        else:
            detail = ", ".join(f"{k}={v}" for k, v in params.items())
            text = t("w6cog.ev.generic", lang, type=event.type, detail=detail)
        if event.type == "defence_roll" and event.data.get("shield_kw"):
            text += " " + tc(
                "w6cog.ev.defence_shield", lang, shield=event.data["shield"],
                kw=event.data["shield_kw"],
            )  # fmt: skip
        lines.append(text)
    return lines


def _cap(lines: list[str], limit: int) -> str:
    text = "\n".join(lines)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ----------------------------------------------------------------------------- campaign log

LogEntry = tuple[int | None, str, dict[str, Any]]
CHECK_EVENTS = ("probe", "reflex", "kraft_check", "spell")


def log_entries(
    user_id: int, action: CombatAction, events: list[Event], state: CombatState
) -> list[LogEntry]:
    """The campaign-log entries of one step (written with the step in one transaction): the
    action with its event types, then one ``damage`` per hit and one ``check`` per roll."""
    names = _names(state)
    text = action.text() if action.verb not in PAYLOAD_VERBS else action.verb
    step = {
        "action": text[:200],
        "events": [e.type for e in events],
        "verb": action.verb,
        "who": action_who(action, names)[:200],
        "targets": [names.get(target, target) for target in action.targets][:20],
    }
    entries: list[LogEntry] = [(user_id, "combat", step)]
    for event in events:
        data = event.data
        name = names.get(str(data.get("fighter")), data.get("fighter"))
        if event.type == "damage":
            fighter = state.find(str(data["fighter"]))
            lp_max = fighter.lp_max if fighter else data["lp"]
            entry = {"name": name, "amount": data["lp_verlust"], "lp": data["lp"], "lp_max": lp_max}
            if fighter is not None and fighter.owner is None:
                entry["npc"] = True  # an NPC's LP: for the GMs' eyes (see ``may_see``)
            entries.append((user_id, "damage", entry))
        elif event.type in CHECK_EVENTS:
            entry = {
                "name": name,
                "what": event.type,
                "successes": data.get("successes", 0),
                "required": data.get("required", 0),
            }
            rolled = state.find(str(data.get("fighter")))
            if rolled is not None and rolled.owner is None:
                entry["npc"] = True  # an NPC's roll tells of its dice: for the GMs' eyes
            entries.append((user_id, "check", entry))
    return entries


# ----------------------------------------------------------------------------- status


def is_down(row: dict[str, Any]) -> bool:
    """Whether a fighter's row (of any view) shows them unable to fight: LP at or below zero
    (for an NPC in a player's view: dying), unconscious or dying."""
    if any(c in DOWN_CONDITIONS for c in row["conditions"]) or row.get("down"):
        return True
    if "lp" in row:
        return bool(row["lp"] <= 0)
    return row.get("lp_state") == "sterbend"


def down_words(row: dict[str, Any], lang: str) -> str:
    """What marks a fighter who is down: ``bewusstlos``/``sterbend``, else ``kampfunfähig``."""
    for condition in reversed(DOWN_CONDITIONS):
        if condition in row["conditions"]:
            return t(f"w6cog.cond.{condition}", lang)
    return t("w6cog.combat.down", lang)


def _mark(row: dict[str, Any]) -> str:
    if is_down(row):
        return "✖"
    return "▶" if row["is_turn"] else ("✋" if row["may_act"] else "•")


def _fighter_line(row: dict[str, Any], lang: str) -> str:
    """One fighter in the order: every value for the GM's view and players' own fighters; an
    NPC in a player's view by name, LP in words and conditions. A fighter who is down says so
    first."""
    mark = _mark(row)
    if "ab" in row:
        reflex = "✓" if row["reflex_available"] else "✗"
        text = t(
            "w6cog.combat.fighter_line", lang, mark=mark, name=row["name"], id=row["id"],
            ab=row["ab"], lp=row["lp"], lp_max=row["lp_max"], kw=row["kw_left"],
            kw_max=row["kw_phase"], h=row["handlungen_left"], h_max=row["handlungen_max"],
            reflex=reflex,
        )  # fmt: skip
    else:
        text = t(
            "w6cog.combat.npc_line", lang, mark=mark, name=row["name"], id=row["id"],
            lp=t(f"w6cog.lp_state.{row['lp_state']}", lang),
        )  # fmt: skip
    conditions = [t(f"w6cog.cond.{c}", lang) for c in row["conditions"]]
    if is_down(row) and not any(c in DOWN_CONDITIONS for c in row["conditions"]):
        conditions.insert(0, down_words(row, lang))
    if row["blockade"]:
        value = row["blockade"] if row["blockade"] is not True else "✓"
        conditions.append(t("w6cog.combat.blockade", lang, value=value))
    if row["fertig"]:
        conditions.append(t("w6cog.combat.done", lang))
    return text + (f" · *{', '.join(conditions)}*" if conditions else "")


def _pending_text(view: dict[str, Any], names: dict[str, str], lang: str) -> str:
    pending = view["pending"]
    if pending is None:
        return ""
    targets = ", ".join(names.get(d["target"], d["target"]) for d in pending["targets"])
    return tc(
        f"w6cog.combat.pending.{pending['stage']}", lang,
        attacker=names.get(pending["attacker"], pending["attacker"]), targets=targets,
        kw=pending["kw"], successes=pending["successes"], required=pending["defence_required"],
        retreat=pending["retreat_required"],
    )  # fmt: skip


def status_text(view: dict[str, Any], lang: str) -> tuple[str, str, str]:
    """Title, description and footer of the status: phase, the AB order with LP / KW /
    Handlungen left and conditions (as far as ``view`` shows them), the pending step."""
    names = {row["id"]: row["name"] for row in view["fighters"]}
    if view["ended"]:
        title = t("w6cog.combat.title_ended", lang)
    elif view["started"]:
        title = t("w6cog.combat.title", lang, phase=view["phase"])
    else:
        title = t("w6cog.combat.title_setup", lang)
    lines = [_fighter_line(row, lang) for row in view["fighters"]]
    description = "\n".join(lines) or t("w6cog.combat.empty", lang)
    pending = _pending_text(view, names, lang)
    if pending:
        description += "\n\n" + pending
    elif view["to_act"] and not view["ended"]:
        who = ", ".join(names.get(i, i) for i in view["to_act"])
        description += "\n\n" + t("w6cog.combat.to_act", lang, who=who)
    footer = t("w6cog.combat.footer", lang, step=view["step"])
    return title, fit.shorten(description, DESCRIPTION_LIMIT, lang), footer


def image_text(view: dict[str, Any], lang: str) -> CombatImageText:
    """The words of the status image (``bot.render.combat``) for ``view``."""
    title, _description, footer = status_text(view, lang)
    names = {row["id"]: row["name"] for row in view["fighters"]}
    if view["to_act"] and not view["ended"]:
        who = ", ".join(names.get(i, i) for i in view["to_act"])
        footer = t("w6cog.combat.to_act", lang, who=who)
    conditions = {}
    for row in view["fighters"]:
        words = [t(f"w6cog.cond.{c}", lang) for c in row["conditions"]]
        if is_down(row) and not any(c in DOWN_CONDITIONS for c in row["conditions"]):
            words.insert(0, down_words(row, lang))
        if row["fertig"]:
            words.append(t("w6cog.combat.done", lang))
        conditions[row["id"]] = ", ".join(words)
    return CombatImageText(
        title=title,
        lp=t("w6cog.image.lp", lang),
        kw=t("w6cog.image.kw", lang),
        handlungen=t("w6cog.image.handlungen", lang),
        footer=footer,
        lp_words={
            row["id"]: t(f"w6cog.lp_state.{row['lp_state']}", lang)
            for row in view["fighters"]
            if "lp_state" in row
        },
        conditions=conditions,
    )
