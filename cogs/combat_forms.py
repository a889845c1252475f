"""The guided forms of ``/kampf``: every special technique, ranged combat, casting, aiming,
checks, mounting and the reflex by clicking, without engine notation.

A form is a technique, the fighter who uses it and the choices made so far; all three travel in
the custom_ids of its selects and buttons (``kf:<game>:<token>:<code>:<fighter>:
<technique>:<choices>[:<key>]``), so nothing is kept in memory and a form opened before
someone else acted is refused as stale. Choices are compact: ``t1-3.z0.p5`` (``t`` targets by
their position among the fighters, ``w``/``x`` weapons by position, ``z`` zone, ``g`` size by
position in the rulebook's tables, numbers as they are). Choosing in a select redraws the form;
the execute button builds the engine action (``form_action``) and the cog applies it. The
distance of a ranged attack comes from a modal (a select of 25 distances would be clumsy).

Everything here is pure: it reads a ``CombatState`` and builds components and actions; the
engine decides what is legal (``technique_options``, ``probe_required``, ``apply``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot import fit
from bot.combat import (
    MAX_TARGETS,
    WeaponStats,
    eligible_weapons,
    fighter_label,
    opponents_first,
    sizes,
    zones,
)
from bot.components import custom_id
from bot.i18n import t
from bot.narration.w6 import tc
from bot.play.ui import button, make_view
from engines.core import BadInput, EngineError
from engines.w6 import CombatAction, CombatState, Fighter, make, probe_required

PREFIX = "kf"
MAX_OPTIONS = 25
MAX_SELECT_ROWS = 4
MAX_LEVEL = 5
MAX_SUCCESSES = 15
MAX_DISTANCE = 999
EMPTY = "_"
VALUE = re.compile(r"^\d{1,3}(-\d{1,3}){0,5}$")

# The fields of each form, in display order (one select each, "d" is the modal's number).
FIELDS: dict[str, tuple[str, ...]] = {
    "erschwert": ("t", "e", "w", "p"),
    "gezielt": ("t", "z", "w", "p"),
    "zweihaendig": ("t", "w", "k"),
    "serie": ("t", "w", "k"),
    "rundum": ("t", "f", "w", "p"),
    "beidhaendig": ("t", "w", "x", "p"),
    "finte": ("t", "p", "k", "a"),
    "fern": ("t", "g", "w", "p", "d"),
    "zielen": ("h",),
    "ausrichten": ("w", "k"),
    "durchbrechen": ("t", "m", "k"),
    "blockade": ("p", "k"),
    "zauber": ("k", "n"),
    "probe": ("k", "n", "h"),
    "handlung": ("h",),
    "reflex": ("r", "n"),
}
IMMEDIATE = ("blockade_ende", "serie_ende", "aufsitzen", "absitzen")
KEYS = frozenset(key for keys in FIELDS.values() for key in keys)
# The Fertigkeit a weapon needs for the technique (techniques of the weapon table).
ZONE_KEYS = {"Kopf": "kopf", "Torso": "torso", "Arme": "arme", "Hände": "haende", "Beine": "beine"}
DEFAULTS = {"e": "1", "n": "2", "h": "1", "m": "0"}
NEEDED = "tzpkad"  # choices without a default


# Error parameters naming participants by id, and the technique names of the weapon table.
ID_PARAMS = ("fighter", "target", "attacker", "blocker", "current")
TECHNIQUE_FORMS = {"zweihaendig": "zweihaendig", "angriffsserie": "serie",
                   "rundumschlag": "rundum", "ausrichten": "ausrichten"}  # fmt: skip


def named_params(params: dict[str, Any], state: CombatState, lang: str) -> dict[str, Any]:
    """An engine error's parameters as a player reads them: participants by name instead of
    id (``who`` is a comma-separated list), techniques by their name in ``lang``."""
    names = {f.id: f.name for f in state.fighters}
    shown = dict(params)
    for key in ID_PARAMS:
        if isinstance(shown.get(key), str):
            shown[key] = names.get(shown[key], shown[key])
    if isinstance(shown.get("who"), str) and shown["who"]:
        shown["who"] = ", ".join(names.get(i.strip(), i.strip()) for i in shown["who"].split(","))
    technique = TECHNIQUE_FORMS.get(str(shown.get("technique")))
    if technique:
        shown["technique"] = t(f"w6cog.tech.{technique}", lang)
    return shown


def missing_key(key: str) -> str:
    """The message key saying that the choice ``key`` is still to be made."""
    return f"w6cog.form.missing.{key}"


@dataclass(frozen=True, slots=True)
class Form:
    """A technique form: who uses it and the choices so far (sorted key → digits)."""

    technique: str
    fighter: str
    choices: tuple[tuple[str, str], ...] = ()

    def get(self, key: str) -> str | None:
        return next((value for name, value in self.choices if name == key), None)

    def number(self, key: str) -> int | None:
        value = self.get(key) or DEFAULTS.get(key)
        return None if value is None else int(value.split("-")[0])

    def indices(self, key: str) -> list[int]:
        value = self.get(key)
        return [int(part) for part in value.split("-")] if value else []

    def with_choice(self, key: str, value: str | None) -> Form:
        kept = [(name, old) for name, old in self.choices if name != key]
        if value is not None:
            kept.append((key, value))
        return replace(self, choices=tuple(sorted(kept)))

    def encoded(self) -> str:
        return ".".join(f"{key}{value}" for key, value in self.choices) or EMPTY


def decode_form(technique: str, fighter: str, text: str) -> Form:
    """The form a custom_id carries. Raises BadInput("w6cog.combat.bad_choice")."""
    if technique not in FIELDS:
        raise BadInput("w6cog.combat.bad_choice")
    choices: dict[str, str] = {}
    for part in [] if text == EMPTY else text.split("."):
        key, value = part[:1], part[1:]
        if key not in KEYS or not VALUE.match(value) or key in choices:
            raise BadInput("w6cog.combat.bad_choice")
        choices[key] = value
    return Form(technique, fighter, tuple(sorted(choices.items())))


def choice_value(key: str, values: list[str]) -> str:
    """A select's chosen values as one choice (several targets joined by ``-``).
    Raises BadInput("w6cog.combat.bad_choice")."""
    if not values or len(values) > max(MAX_TARGETS.values()) or (key != "t" and len(values) > 1):
        raise BadInput("w6cog.combat.bad_choice")
    value = "-".join(values)
    if not VALUE.match(value):
        raise BadInput("w6cog.combat.bad_choice")
    return value


def distance_value(text: str) -> str:
    """The modal's distance. Raises BadInput("w6cog.form.bad_number")."""
    stripped = text.strip()
    if not stripped.isdecimal() or not 0 <= int(stripped) <= MAX_DISTANCE:
        raise BadInput("w6cog.form.bad_number", min=0, max=MAX_DISTANCE)
    return str(int(stripped))


# ----------------------------------------------------------------------------- choices


def _weapon(fighter: Fighter, form: Form, key: str, fallback: int) -> WeaponStats | None:
    positions = eligible_weapons(fighter, form.technique)
    chosen = form.number(key)
    if chosen is None:
        chosen = positions[fallback] if len(positions) > fallback else None
    if chosen is None or not 0 <= chosen < len(fighter.waffen):
        return None
    return fighter.waffen[chosen]


def _targets(state: CombatState, form: Form) -> tuple[str, ...]:
    ids = []
    for index in form.indices("t"):
        if not 0 <= index < len(state.fighters):
            raise BadInput("w6cog.combat.bad_choice")
        ids.append(state.fighters[index].id)
    return tuple(ids)


def _zone(form: Form) -> str | None:
    index = form.number("z")
    names = list(zones())
    return names[index] if index is not None and 0 <= index < len(names) else None


def _size(form: Form) -> str:
    index = form.number("g")
    names = list(sizes())
    return names[index] if index is not None and 0 <= index < len(names) else "mittel"


def _visible(state: CombatState, form: Form) -> tuple[str, ...]:
    """The form's fields worth showing: a weapon select only with a real choice, the probe
    only when the Erschwernis is not known to be zero."""
    fighter = state.fighter(form.fighter)
    weapons = eligible_weapons(fighter, form.technique)
    shown = []
    for key in FIELDS[form.technique]:
        if key == "w" and len(weapons) < (3 if form.technique == "beidhaendig" else 2):
            continue
        if key == "x" and len(weapons) < 3:
            continue
        if key == "p" and preview(state, form) == 0:
            continue
        shown.append(key)
    return tuple(shown)


# ----------------------------------------------------------------------------- actions


def form_action(state: CombatState, form: Form, *, final: bool = True) -> CombatAction | None:
    """The engine action of a form. With ``final`` every needed choice must be made (raises
    BadInput("w6cog.form.missing.<key>")); without, missing choices are left out and
    ``None`` means too little is chosen to say anything. Raises BadInput for a bad choice."""
    fighter = state.fighter(form.fighter)
    if final:
        missing = [k for k in _visible(state, form) if k in NEEDED and form.get(k) is None]
        if missing:
            raise BadInput(missing_key(missing[0]))
    targets = _targets(state, form)
    if "t" in FIELDS[form.technique] and not targets:
        return None
    return _build(state, fighter, form, targets)


def _build(
    state: CombatState, fighter: Fighter, form: Form, targets: tuple[str, ...]
) -> CombatAction:
    tech, who, num = form.technique, fighter.id, form.number
    weapon = _weapon(fighter, form, "w", 0)
    name = weapon.name if weapon else None
    if tech in ("erschwert", "gezielt", "zweihaendig", "serie"):
        return make(
            "angriff", who, targets, waffe=name, probe=num("p"), kw=num("k"),
            erschwert=num("e") if tech == "erschwert" else None,
            zone=_zone(form) if tech == "gezielt" else None,
            zweihaendig=tech == "zweihaendig", serie=tech == "serie",
        )  # fmt: skip
    if tech == "rundum":
        fields = num("f") or len(targets)
        return make("rundum", who, targets, waffe=name, felder=fields, probe=num("p"))
    if tech == "beidhaendig":
        second = _weapon(fighter, form, "x", 1)
        return make("beidhaendig", who, targets, waffe=name, probe=num("p"),
                    waffe2=second.name if second else None)  # fmt: skip
    if tech == "finte":
        return make("finte", who, targets, probe=num("p"), kw=num("k"), angriff=num("a"))
    if tech == "fern":
        return make("fern", who, targets, waffe=name, probe=num("p"), dist=num("d"),
                    groesse=_size(form))  # fmt: skip
    if tech == "durchbrechen":
        return make("durchbrechen", who, targets, kw=num("k"), nur_beenden=num("m") == 1)
    if tech == "ausrichten":
        return make("ausrichten", who, waffe=name, kw=num("k"))
    if tech == "blockade":
        return make("blockade", who, probe=num("p"), kw=num("k"))
    if tech in ("zauber", "probe"):
        return make(tech, who, kw=num("k"), erfolge=num("n"),
                    handlungen=num("h") if tech == "probe" else None)  # fmt: skip
    if tech == "reflex":
        return make("reflex", who, erfolge=num("n"))
    return make(tech, who, anzahl=num("h"))


def preview(state: CombatState, form: Form) -> int | None:
    """The successes the form's Erschwernisprobe needs so far (None: not known yet)."""
    if "p" not in FIELDS[form.technique]:
        return 0
    if "d" in FIELDS[form.technique] and form.get("d") is None:
        return None  # the distance decides the ranged Erschwernis
    if "z" in FIELDS[form.technique] and form.get("z") is None:
        return None  # the zone decides a called shot's Erschwernis (not "none needed")
    try:
        action = form_action(state, form, final=False)
        return None if action is None else probe_required(state, action)
    except EngineError:
        return None


def preview_error(state: CombatState, form: Form, lang: str) -> str:
    """Why the choices so far would be refused ('' if nothing is known to be wrong)."""
    try:
        action = form_action(state, form, final=False)
        if action is not None:
            probe_required(state, action)
    except EngineError as error:
        return t(error.key, lang, **fit.fit_params(named_params(error.params, state, lang), lang))
    return ""


# ----------------------------------------------------------------------------- drawing


def form_message(
    record_id: int,
    token: str,
    state: CombatState,
    form: Form,
    lang: str,
    candidates: tuple[str, ...] = (),
) -> tuple[str, discord.ui.View]:
    """The form's text (what is chosen, what the probe needs) and its components;
    ``candidates`` are the fighters a reflex form may switch to."""
    fighter = state.fighter(form.fighter)

    def cid(code: str, *extra: str) -> str:
        return custom_id(
            PREFIX, record_id, token, code, form.fighter, form.technique, form.encoded(), *extra
        )

    shown = [key for key in _visible(state, form) if key != "d"]
    rows: list[list[discord.ui.Item[Any]]] = [
        [_select(state, fighter, form, key, cid("fset", key), lang, candidates)]
        for key in shown[:MAX_SELECT_ROWS]
    ]
    buttons: list[discord.ui.Item[Any]] = []
    if "d" in FIELDS[form.technique]:
        distance = form.get("d")
        label = (
            t("w6cog.btn.distance", lang, d=distance)
            if distance is not None
            else t("w6cog.btn.distance_unset", lang)
        )
        buttons.append(button(label, cid("fdst")))
    buttons.append(button(t("w6cog.btn.execute", lang), cid("fdo"), "success"))
    return _form_text(state, fighter, form, lang), make_view([*rows, buttons])


def _form_text(state: CombatState, fighter: Fighter, form: Form, lang: str) -> str:
    lines = [
        t(
            "w6cog.form.header",
            lang,
            name=fighter.name,
            technique=t(f"w6cog.tech.{form.technique}", lang),
            kw=fighter.kw_left,
            h=fighter.handlungen_left,
        ),
        t(f"w6cog.tech.{form.technique}.desc", lang),
    ]
    if form.technique == "zauber":
        lines.append(t("w6cog.form.magic", lang, magie=fighter.magie))
    if form.technique in ("fern", "zielen"):
        lines.append(t("w6cog.form.aimed", lang, zielen=fighter.zielen))
    required = preview(state, form)
    if "p" in FIELDS[form.technique] and required is not None:
        key = "w6cog.form.probe" if required > 0 else "w6cog.form.no_probe"
        if required > 0 and "a" in FIELDS[form.technique]:  # attack dice chosen on this form
            key = "w6cog.form.probe_attack_now"
        lines.append(t(key, lang, required=required))
    problem = preview_error(state, form, lang)
    if problem:
        lines.append(t("w6cog.form.problem", lang, error=problem))
    return "\n".join(lines)


def _select(
    state: CombatState,
    fighter: Fighter,
    form: Form,
    key: str,
    cid: str,
    lang: str,
    candidates: tuple[str, ...],
) -> discord.ui.Select[Any]:
    options = _options(state, fighter, form, key, lang, candidates)
    chosen = set((form.get(key) or DEFAULTS.get(key) or "").split("-"))
    if key == "w" and form.get("w") is None:
        chosen = {str(i) for i in eligible_weapons(fighter, form.technique)[:1]}
    if key == "x" and form.get("x") is None:
        chosen = {str(i) for i in eligible_weapons(fighter, form.technique)[1:2]}
    if key == "r":
        chosen = {str(_position(state, fighter.id))}
    select_options = [
        discord.SelectOption(label=label[:100], value=value, default=value in chosen)
        for value, label in options[:MAX_OPTIONS]
    ]
    if not select_options:
        select_options = [discord.SelectOption(label="–", value=EMPTY)]
    most = min(MAX_TARGETS.get(form.technique, 1) if key == "t" else 1, len(select_options))
    return discord.ui.Select(
        custom_id=cid, placeholder=t(f"w6cog.field.{key}", lang)[:150], options=select_options,
        min_values=1, max_values=most,
    )  # fmt: skip


def _numbers(low: int, high: int, key: str, lang: str) -> list[tuple[str, str]]:
    top = min(high, low + MAX_OPTIONS - 1)
    return [(str(n), tc(f"w6cog.option.{key}", lang, n=n)) for n in range(low, top + 1)]


def _position(state: CombatState, fighter_id: str) -> int:
    return next(i for i, f in enumerate(state.fighters) if f.id == fighter_id)


def fighter_at(state: CombatState, value: str) -> str:
    """The fighter a position choice names. Raises BadInput("w6cog.combat.bad_choice")."""
    if not value.isdecimal() or not 0 <= int(value) < len(state.fighters):
        raise BadInput("w6cog.combat.bad_choice")
    return state.fighters[int(value)].id


def _options(
    state: CombatState,
    fighter: Fighter,
    form: Form,
    key: str,
    lang: str,
    candidates: tuple[str, ...] = (),
) -> list[tuple[str, str]]:
    """(value, label) pairs of one field's select."""
    if key == "t":
        return _target_options(state, fighter, form, lang)
    if key in ("w", "x"):
        return [(str(i), fighter.waffen[i].name) for i in eligible_weapons(fighter, form.technique)]
    if key == "z":
        return [
            (
                str(i),
                tc(
                    "w6cog.option.zone",
                    lang,
                    zone=t(f"w6cog.zone.{ZONE_KEYS.get(z, z)}", lang),
                    required=zone.erschwernis,
                ),
            )
            for i, (z, zone) in enumerate(zones().items())
        ]
    if key == "g":
        return [(str(i), t(f"w6cog.size.{name}", lang)) for i, name in enumerate(sizes())]
    if key == "m":
        return [("0", t("w6cog.option.break", lang)), ("1", t("w6cog.option.end_only", lang))]
    if key == "r":
        return [
            (str(i), f"{f.name} ({f.id})")
            for i, f in enumerate(state.fighters)
            if f.id in candidates
        ]
    if key in ("p", "k", "a"):
        return _numbers(0, fighter.kw_left, "kw", lang)
    if key == "e":
        return _numbers(1, MAX_LEVEL, "level", lang)
    if key == "f":
        return _numbers(max(1, len(form.indices("t"))), MAX_TARGETS["rundum"], "fields", lang)
    if key == "h":
        return _numbers(1, max(1, fighter.handlungen_left), "handlungen", lang)
    return _numbers(1, MAX_SUCCESSES, "successes", lang)


def _target_options(
    state: CombatState, fighter: Fighter, form: Form, lang: str
) -> list[tuple[str, str]]:
    found = []
    index_of = {f.id: index for index, f in enumerate(state.fighters)}
    for other in opponents_first(fighter, list(state.fighters)):
        index = index_of[other.id]
        if other.id == fighter.id or not other.conscious:
            continue
        if form.technique == "durchbrechen" and other.ausrichten <= 0:
            continue
        # a player's fighter sees an NPC's LP in words; an NPC's form is the GM's
        found.append((str(index), fighter_label(other, lang, gm=fighter.owner is None)))
    return found
