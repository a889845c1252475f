"""Combat actions: one small value type with a text notation that parses back.

Notation: ``@<fighter> <verb> [targets] [key=value] [flag]`` for a participant's action
(``@thoin angriff ork1 kw=5 zone=Kopf``), ``<verb> ...`` for the GM's commands
(``setze ork1 lp=3``), ``beitritt <json>`` to add participants (one JSON object, or a list of
them for several copies at once) and ``aktualisieren <json>`` to take a participant's values
from their sheet again.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

from engines.core import BadInput
from engines.core.jsontext import load_json

INT = "int"
WORD = "word"
FLAG = "flag"

_ATTACK = {
    "kw": INT,
    "probe": INT,
    "kaufen": INT,
    "erschwert": INT,
    "erschwernis": INT,
    "waffe": WORD,
}


@dataclass(frozen=True, slots=True)
class Spec:
    """What a verb takes: whether a fighter acts, how many targets, which options."""

    fighter: bool
    min_targets: int = 0
    max_targets: int = 0
    opts: tuple[tuple[str, str], ...] = ()


def _spec(fighter: bool, targets: tuple[int, int] = (0, 0), **opts: str) -> Spec:
    return Spec(fighter, targets[0], targets[1], tuple(sorted(opts.items())))


SET_FIELDS = (
    "lp",
    "lp_max",
    "rlp",
    "kw",
    "kw_max",
    "handlungen",
    "handlungen_max",
    "reflex",
    "magie",
    "ab",
    "gesamtschutz",
    "schwelle",
    "blockade",
    "ausrichten",
    "malus",
    "kraft",
    "zielen",
    "intuition",
)

SPECS: dict[str, Spec] = {
    # the GM's commands
    "beginnen": _spec(False),
    "phase": _spec(False),
    "ende": _spec(False),
    "zurueck": _spec(False),
    "setze": _spec(False, (1, 1), **dict.fromkeys(SET_FIELDS, INT)),
    "zustand": _spec(False, (2, 8)),
    "wuerfel": _spec(False, (1, 60)),
    "entfernen": _spec(False, (1, 1)),
    "regel": _spec(
        False,
        schwere_treffer=WORD,
        kaufen=WORD,
        stabilitaet=WORD,
        freie_folgephasen=WORD,
        fernkampf_abwehr=WORD,
        undo_tiefe=INT,
    ),
    "reparieren": _spec(False, (1, 1), gegenstand=WORD, punkte=INT),
    "beitritt": _spec(False),
    "aktualisieren": _spec(False),
    # a participant's actions (need a Handlung unless noted in RULES.md)
    "angriff": _spec(True, (1, 1), **_ATTACK, zone=WORD, zweihaendig=FLAG, serie=FLAG),
    "fern": _spec(True, (1, 1), **_ATTACK, zone=WORD, dist=INT, groesse=WORD),
    "rundum": _spec(True, (1, 6), **_ATTACK, felder=INT),
    "beidhaendig": _spec(True, (1, 2), **_ATTACK, waffe2=WORD),
    "finte": _spec(True, (1, 1), **_ATTACK, angriff=INT, waffe2=WORD),
    "ausrichten": _spec(True, kw=INT, waffe=WORD),
    "durchbrechen": _spec(True, (1, 1), kw=INT, nur_beenden=FLAG),
    "blockade": _spec(True, probe=INT, kaufen=INT, kw=INT),
    "blockade_ende": _spec(True),
    "zauber": _spec(True, kw=INT, erfolge=INT),
    "probe": _spec(True, kw=INT, erfolge=INT, kaufen=INT, handlungen=INT),
    "handlung": _spec(True, anzahl=INT),
    "zielen": _spec(True, anzahl=INT),
    "reflex": _spec(True, erfolge=INT),
    "weiter": _spec(True),
    "fertig": _spec(True),
    "aufsitzen": _spec(True, handlungen=INT),
    "absitzen": _spec(True, handlungen=INT),
    "serie_ende": _spec(True),
    # answers to a pending step
    "ansage": _spec(True, kw=INT),
    "abwehr": _spec(True, kw=INT, keine=FLAG, reflex=FLAG),
    "wuerfeln": _spec(True),
    "zurueckweichen": _spec(True),
    "nachschlagen": _spec(True),
    "verzichten": _spec(True),
    "rundum_weiter": _spec(True, kw=INT),
    "abbruch": _spec(True),
    "zuerst": _spec(True),
    "danach": _spec(True),
}
GM_VERBS = frozenset(verb for verb, spec in SPECS.items() if not spec.fighter)
ANSWER_VERBS = frozenset(
    (
        "ansage",
        "abwehr",
        "wuerfeln",
        "zurueckweichen",
        "nachschlagen",
        "verzichten",
        "rundum_weiter",
        "abbruch",
        "zuerst",
        "danach",
    )
)
PAYLOAD_VERBS = ("beitritt", "aktualisieren")  # followed by participant JSON, not options
MAX_PAYLOAD_BYTES = 1_000_000  # the participant JSON of one beitritt/aktualisieren
MAX_INT = 999


@dataclass(frozen=True, slots=True)
class CombatAction:
    """One step. ``fighter`` is the participant acting ('' for the GM's commands);
    ``opts`` are sorted (key, value) pairs, flags have the value ''; ``payload`` carries
    the participant JSON of ``beitritt`` and ``aktualisieren``."""

    verb: str
    fighter: str = ""
    targets: tuple[str, ...] = ()
    opts: tuple[tuple[str, str], ...] = ()
    payload: str = ""

    def opt(self, key: str) -> str | None:
        return next((value for name, value in self.opts if name == key), None)

    def num(self, key: str, default: int = 0) -> int:
        value = self.opt(key)
        return default if value is None else int(value)

    def has(self, key: str) -> bool:
        return self.opt(key) is not None

    def text(self) -> str:
        """The notation; ``parse_action(a.text()) == a``."""
        if self.verb in PAYLOAD_VERBS:
            return f"{self.verb} {self.payload}"
        words = [f"@{self.fighter}"] if self.fighter else []
        words.append(self.verb)
        words.extend(shlex.quote(t) for t in self.targets)
        for key, value in self.opts:
            words.append(key if value == "" else shlex.quote(f"{key}={value}"))
        return " ".join(words)


def make(verb: str, fighter: str = "", targets: tuple[str, ...] = (), **opts: Any) -> CombatAction:
    """Build and validate an action: ``make("angriff", "thoin", ("ork1",), kw=5, serie=True)``.

    Flags take ``True``; ``False``/``None`` options are left out. Raises BadInput.
    """
    pairs = []
    for key, value in opts.items():
        if value is None or value is False:
            continue
        pairs.append((key, "" if value is True else str(value)))
    return validate(CombatAction(verb, fighter, tuple(targets), tuple(sorted(pairs))))


def validate(action: CombatAction) -> CombatAction:
    """Check verb, fighter, targets and options against SPECS. Raises BadInput."""
    spec = SPECS.get(action.verb)
    if spec is None:
        raise BadInput("w6.action.unknown_verb", verb=action.verb)
    if spec.fighter != bool(action.fighter):
        raise BadInput(
            "w6.action.fighter_needed" if spec.fighter else "w6.action.no_fighter", verb=action.verb
        )
    if not spec.min_targets <= len(action.targets) <= spec.max_targets:
        raise BadInput(
            "w6.action.target_count", verb=action.verb, min=spec.min_targets, max=spec.max_targets
        )
    kinds = dict(spec.opts)
    for key, value in action.opts:
        _check_opt(action.verb, kinds, key, value)
    if action.verb in PAYLOAD_VERBS and not action.payload:
        raise BadInput("w6.action.payload_needed", verb=action.verb)
    return action


def _check_opt(verb: str, kinds: dict[str, str], key: str, value: str) -> None:
    kind = kinds.get(key)
    if kind is None:
        raise BadInput("w6.action.unknown_option", verb=verb, option=key)
    if kind == FLAG and value != "":
        raise BadInput("w6.action.flag_value", option=key)
    if kind == INT:
        try:
            number = int(value)
        except ValueError:
            raise BadInput("w6.action.not_integer", option=key, value=value) from None
        if not -MAX_INT <= number <= MAX_INT or str(number) != value:
            raise BadInput("w6.action.not_integer", option=key, value=value)
    if kind == WORD and not value.strip():
        raise BadInput("w6.action.empty_option", option=key)


def parse_action(text: str) -> CombatAction:
    """Read the notation. Raises BadInput("w6.action.bad_notation") and as ``validate``."""
    stripped = text.strip()
    verb, _, rest = stripped.partition(" ")
    if verb in PAYLOAD_VERBS:
        payload = rest.strip()
        try:  # bounded: 5,000 ``[`` made json raise RecursionError
            load_json(payload, max_bytes=MAX_PAYLOAD_BYTES)
        except BadInput:
            raise BadInput("w6.action.bad_notation", text=text) from None
        return validate(CombatAction(verb, payload=payload))
    try:
        words = shlex.split(stripped)
    except ValueError:
        raise BadInput("w6.action.bad_notation", text=text) from None
    fighter = ""
    if words and words[0].startswith("@"):
        fighter = words.pop(0)[1:]
    if not words:
        raise BadInput("w6.action.bad_notation", text=text)
    verb = words.pop(0).lower()
    spec = SPECS.get(verb)
    flags = {key for key, kind in spec.opts if kind == FLAG} if spec else set()
    targets: list[str] = []
    opts: list[tuple[str, str]] = []
    for word in words:
        if "=" in word:
            key, value = word.split("=", 1)
            opts.append((key, value))
        elif word in flags:
            opts.append((word, ""))
        else:
            targets.extend(part for part in word.split(",") if part)
    return validate(CombatAction(verb, fighter, tuple(targets), tuple(sorted(opts))))
