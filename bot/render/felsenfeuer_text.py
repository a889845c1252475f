"""Felsenfeuer in words: a sentence for every event the engine emits, the prompt of every
open decision and a label for each of its options, in German and English
(``data/i18n/felsenfeuer.json``). Discord-free: it reads the view (``view_for``) and events
as plain data, so the cog only wires commands and buttons to the shared game layer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import t
from engines.felsenfeuer.model import COLOURS
from engines.felsenfeuer.spells import book_for

# Every event type FelsenfeuerEngine emits (tests/unit/test_felsenfeuer_render.py checks that
# a random duel emits no other and that each has its sentence in both languages).
EVENT_TYPES = (
    "attack_missed", "attack_warded", "attacked", "auswahl_chosen", "auswahl_shown", "banned",
    "blood_magic", "cast", "caster", "cauldron", "chose", "destroyed", "drafted",
    "duel_started", "eliminated", "essence_chosen", "essence_destroyed", "essence_gained",
    "essence_lost", "fizzled", "floated", "frozen", "thawed", "game_over", "laid",
    "manifested", "moved", "new_matrix", "no_spell", "pips", "quake", "reactivated",
    "renewal", "rolled", "second_hand", "spell_done", "spell_phase", "step", "taken",
    "temple_moved", "temple_dissolved", "triggered", "turn_ended",
)  # fmt: skip


def seat_name(seat: int, names: Sequence[str] | None) -> str:
    """A seat's whole name in a sentence (the image cuts long names to fit, a text need not)."""
    if names and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return f"P{seat + 1}"


def _k(key: str, lang: str, **params: Any) -> str:
    return t(f"felsenfeuer.{key}", lang, **params)


def colour_name(colour: str, lang: str) -> str:
    return _k(f"colour.{colour}", lang) if colour in COLOURS else colour


def spell_name(slug: str, view: Mapping[str, Any] | None = None, spells: str = "") -> str:
    """The spell's name (the running stack's name first, then the duel's spellbook)."""
    for entry in (view or {}).get("stack") or []:
        if entry.get("spell") == slug and entry.get("name"):
            return str(entry["name"])
    spell = book_for(spells).get(slug)
    return spell.name if spell else slug


def die_text(view: Mapping[str, Any], die: Any, lang: str, pips: Any = None,
             known: bool = False) -> str:  # fmt: skip
    """A die as the players read it: its colour and (on a matrix) its pips, e.g. "rot 3".
    ``known``: ``pips`` are the die's at the moment of the sentence (None: it had none then),
    else the view's (the state after the batch) unless ``pips`` are given."""
    dice = view.get("dice") or []
    try:
        index = int(str(die).lstrip("d"))
        data = dice[index]
    except (ValueError, IndexError, TypeError):
        return str(die)
    shown = pips if known or pips is not None else data.get("pips")
    colour = colour_name(str(data.get("colour", "")), lang)
    if shown is None:
        return _k("die.nopips", lang, colour=colour)
    return _k("die", lang, colour=colour, pips=shown)


def die_owner(view: Mapping[str, Any], die: Any, names: Sequence[str] | None) -> str:
    """Whose die it is (a name), or "?" for a die the view does not hold."""
    dice = view.get("dice") or []
    try:
        return seat_name(int(dice[int(str(die).lstrip("d"))]["owner"]), names)
    except (ValueError, IndexError, TypeError, KeyError):
        return "?"


def _params(event_type: str, data: Mapping[str, Any], view: Mapping[str, Any], lang: str,
            names: Sequence[str] | None, spells: str) -> dict[str, Any]:  # fmt: skip
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in ("player", "by") and isinstance(value, int):
            out[key] = seat_name(value, names)
        elif key == "spell":
            out[key] = spell_name(str(value), view, spells)
        elif key == "die":
            out[key] = die_text(view, value, lang, data.get("pips"), known="pips" in data)
            out["owner"] = die_owner(view, value, names)
        elif key == "colour":
            out[key] = colour_name(str(value), lang)
        elif key == "token" and str(value)[:1] == "d" and str(value)[1:].isdigit():
            chooser = data.get("player") if isinstance(data.get("player"), int) else None
            out[key] = _die_option(int(str(value)[1:]), view, lang, names, data.get("pips"),
                                   chooser, data if "zone" in data else None)  # fmt: skip
        elif key == "token":
            out[key] = option_label(str(value), view, lang, names, spells)
        elif key == "shrines":
            out["count"] = len(value)
        elif key == "winners":
            out[key] = ", ".join(seat_name(int(s), names) for s in value)
        elif key == "auswahl":
            out[key] = "; ".join(
                f"{seat_name(seat, names)}: {_counts(str(counts), lang)}"
                for seat, counts in enumerate(value)
            )
        else:
            out[key] = value
    if event_type == "step":
        out["number"] = int(data.get("step", 0)) + 1
    if event_type == "game_over":  # the reason is the board's status line; here the points
        out["points"] = points_text(view, names)
    return out


def _counts(counts: str, lang: str) -> str:
    """``2-2-4-0-0`` as "2 grün, 2 grau, 4 rot"."""
    parts = counts.split("-")
    return ", ".join(f"{n} {colour_name(c, lang)}" for n, c in zip(parts, COLOURS, strict=False)
                     if n.isdigit() and int(n))  # fmt: skip


def told(events: Sequence[tuple[str, Mapping[str, Any]]]) -> list[bool]:
    """Which events of a batch get a sentence: a choice that a later sentence of the batch
    says again is not told (the chosen spell is cast, the chosen die is destroyed, triggered,
    loses a point; "kein Zauber" is followed by "spricht keinen Zauber")."""
    keep = []
    for index, (kind, data) in enumerate(events):
        if kind != "chose":
            keep.append(True)
            continue
        token = str(data.get("token", ""))
        later = events[index + 1 :]
        if token == "keiner":
            retold = any(k == "no_spell" for k, _ in later)
        elif token[:1] == "d" and token[1:].isdigit():
            retold = any(d.get("die") == int(token[1:]) for k, d in later if k != "chose")
        else:
            retold = any(d.get("spell") == token for k, d in later if k == "cast")
        keep.append(not retold)
    return keep


def points_text(view: Mapping[str, Any], names: Sequence[str] | None) -> str:
    """Every seat's essence points, e.g. "Alrik 7, Borbarad 0"."""
    return ", ".join(f"{seat_name(int(seat['seat']), names)} {int(seat['essence_points'])}"
                     for seat in view.get("seats") or [])  # fmt: skip


def narrate(event_type: str, data: Mapping[str, Any], view: Mapping[str, Any], lang: str,
            names: Sequence[str] | None = None, spells: str = "") -> str:  # fmt: skip
    """The sentence for one event (``view``: the view after it, for dice and names)."""
    key = event_type
    if event_type == "step" and data.get("lapsed"):
        key = "step_lapsed"
    if event_type == "turn_ended" and data.get("passed"):
        key = "passed"
    if event_type == "rolled" and not data.get("glyph"):
        key = "rolled_rune"
    if event_type == "quake" and not data.get("count"):
        key = "quake_none"
    if event_type == "chose" and data.get("token") in ("fertig", "ja", "nein"):  # not "wählt ja"
        key = {"fertig": "chose_done", "ja": "chose_yes", "nein": "chose_no"}[str(data["token"])]
    if event_type == "floated" and "colour" not in data:  # a spell's, not the Weltentor start
        key = "floated_spell"
    return _k(f"event.{key}", lang, **_params(event_type, data, view, lang, names, spells))


def option_label(token: str, view: Mapping[str, Any], lang: str,
                 names: Sequence[str] | None = None, spells: str = "") -> str:  # fmt: skip
    """A button's label for an answer token of the open decision."""
    if token == "keiner":
        return _k("option.none", lang)
    if token == "fertig":
        return _k("option.done", lang)
    if token in ("ja", "nein"):
        return _k("option.yes" if token == "ja" else "option.no", lang)
    if token in ("h0", "h1"):
        return _k("option.hand", lang, number=int(token[1]) + 1)
    if token in ("h0h1", "h1h0"):
        return _k("option.hands", lang, first=int(token[1]) + 1, second=int(token[3]) + 1)
    if token.isdigit():
        return _k("option.pips", lang, pips=token)
    if token.startswith("m") and token[1:].isdigit():  # a matrix (0 is the start surface)
        return _k("option.matrix", lang, number=int(token[1:]))
    if token.startswith("p") and token[1:].isdigit():
        return seat_name(int(token[1:]), names)
    if token.startswith("d") and token[1:].isdigit():
        return _die_option(int(token[1:]), view, lang, names)
    return spell_name(token, view, spells)


def _die_option(index: int, view: Mapping[str, Any], lang: str,
                names: Sequence[str] | None, pips: Any = None,
                chooser: int | None = None,
                where: Mapping[str, Any] | None = None) -> str:  # fmt: skip
    """A die with its owner and place; a die of ``chooser`` (who chose it) without the
    owner's name ("rot 6 (Essenz)", not "rot 6 von Alice (Essenz)" after "Alice wählt").
    ``where``: its zone, matrix and glyph when it was chosen (else the view's)."""
    dice = view.get("dice") or []
    if not 0 <= index < len(dice):
        return f"d{index}"
    data = dice[index]
    zone = str((where or data).get("zone"))
    matrix = (where or data).get("matrix")
    if zone == "matrix":
        glyph = (where or data).get("glyph")
        place = _k("place.glyph" if glyph else "place.rune", lang, matrix=matrix)
    elif zone == "float":
        place = _k("place.float", lang, matrix=matrix)
    else:
        place = _k(f"place.{zone}", lang) if zone in ("hand", "bag", "essence") else zone
    owner = int(data.get("owner", 0))
    key = "option.where_own" if owner == chooser else "option.where"
    return _k(key, lang, die=die_text(view, index, lang, pips),
              player=seat_name(owner, names), place=place)  # fmt: skip


def action_label(text: str, view: Mapping[str, Any], lang: str,
                 names: Sequence[str] | None = None, spells: str = "") -> str:  # fmt: skip
    """A label for an action in notation (``lege rot 3 m0``, ``ende``, ``blut puls``,
    ``essenz rot``, ``schwebe rot 3``, ``draft rot``, ``auswahl 2-2-4-0-0``, ``wahl d12``)."""
    words = text.split()
    verb, args = (words[0], words[1:]) if words else ("", [])
    if verb == "lege" and len(args) >= 3:
        die = _k("die", lang, colour=colour_name(args[0], lang), pips=args[1])
        key = "option.lay2" if "h1" in args[3:] else "option.lay"
        return _k(key, lang, die=die, matrix=args[2].lstrip("m"))
    if verb == "ende":
        return _k("option.end", lang)
    if verb == "blut" and args:
        return _k("option.blood", lang, spell=spell_name(args[0], view, spells))
    if verb == "essenz" and args:
        return _k("option.essence", lang, colour=colour_name(args[0], lang))
    if verb == "schwebe" and len(args) >= 2:
        die = _k("die", lang, colour=colour_name(args[0], lang), pips=args[1])
        return _k("option.float", lang, die=die)
    if verb == "wuerfle" and args:
        return _k("option.roll", lang, colour=colour_name(args[0], lang))
    if verb == "draft" and args:
        return _k("option.draft", lang, colour=colour_name(args[0], lang))
    if verb == "auswahl" and args:
        return _k("option.auswahl", lang, counts=_counts(args[0], lang))
    if verb == "wahl" and args:
        return option_label(args[0], view, lang, names, spells)
    return text


def prompt(view: Mapping[str, Any], lang: str, names: Sequence[str] | None = None) -> str:
    """The open decision's question (for the seat that decides), or whose turn it is; in the
    Würfeldraft with the dice still in the middle."""
    decision = view.get("decision")
    if decision:
        params = dict(decision.get("params") or {})
        if "die" in params:
            params["die"] = die_text(view, params["die"], lang)
        return t(str(decision["prompt"]), lang, **params)
    phase = view.get("phase")
    if phase == "action" and view.get("stone") is not None:
        return t("felsenfeuer.ask.turn", lang)
    if phase == "draft":
        return f"{t('felsenfeuer.ask.draft', lang)} {middle_text(view, lang)}"
    if phase in ("auswahl", "essence", "roll"):
        return t(f"felsenfeuer.ask.{phase}", lang)
    return ""


def middle(view: Mapping[str, Any]) -> dict[str, int]:
    """The dice still in the middle in the Würfeldraft, per colour: the supply less every die
    of that colour taken (as the engine counts what may still be drafted)."""
    supply = list(view.get("supply") or [])
    left = {c: (int(supply[i]) if i < len(supply) else 0) for i, c in enumerate(COLOURS)}
    for die in view.get("dice") or []:
        if die["colour"] in left:
            left[die["colour"]] -= 1
    return {c: max(0, n) for c, n in left.items()}


def middle_text(view: Mapping[str, Any], lang: str) -> str:
    """The middle in words: "In der Mitte: 8 grün, 7 grau, … (38 Würfel)." (none left: unsaid)"""
    left = middle(view)
    dice = ", ".join(f"{n} {colour_name(c, lang)}" for c, n in left.items() if n)
    return _k("middle", lang, dice=dice or "–", count=sum(left.values()))


def spell_context(view: Mapping[str, Any], lang: str) -> str:
    """The innermost spell being resolved and its sentence ("Glutwelle: „Greife …“"), so a
    choice inside a spell says what it is for; "" outside a spell."""
    for entry in reversed(view.get("stack") or []):
        if entry.get("kind") not in ("spell", "blood"):
            continue
        sentence = entry.get(f"text_{lang}") or entry.get("text_de")
        name = str(entry.get("name", "?"))
        if not sentence:
            return name
        return f"{name}: „{sentence}“" if lang == "de" else f"{name}: “{sentence}”"
    return ""


def waiting(seat: int, lang: str, names: Sequence[str] | None = None) -> str:
    """What the others read while ``seat`` decides."""
    return _k("prompt.waiting", lang, player=seat_name(seat, names))
