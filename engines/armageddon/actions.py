"""Actions and their notation: words separated by spaces, the verb first
(``step k3 c4``, ``claim w2``, ``gm remove k7 -- vom Pfeil getroffen``). A game master's note
follows `` -- `` and is logged with the action but is no part of what the action is. German
verbs are read too (``schritt k3 c4``, ``beanspruchen w2``, ``sl entfernen k7``, ``ende``);
the action is kept in the English words."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engines.core.errors import BadInput

# verb -> (fewest, most) arguments
ARITY: dict[str, tuple[int, int]] = {
    # set-up (game master)
    "place": (3, 3),
    "colour": (2, 2),
    "ally": (2, 2),
    "start": (0, 0),
    # game master's overrule during play
    "gm": (1, 4),
    # movement phase: Bewegung (and the Aktion of climbing a ladder)
    "step": (2, 2),
    "up": (1, 1),
    "down": (1, 1),
    "mount": (2, 3),
    "dismount": (1, 2),
    "lead": (2, 2),
    "release": (1, 1),
    "climb": (2, 2),
    "face": (2, 2),
    "swap": (2, 2),
    "end": (0, 0),
    # action phase: Erklärung, Kontrolle, Handlung, Aktion
    "claim": (1, 1),
    "give": (2, 2),
    "lend": (2, 2),
    "gate": (1, 1),
    "pitch": (2, 2),
    "attack": (2, 2),
    "ram": (2, 2),
    "cast": (3, 4),
    "siege": (1, 1),
    "permit": (2, 2),
    "done": (0, 0),
    # answers
    "agree": (0, 0),
    "refuse": (0, 0),
    "remove": (1, 1),
}
MOVE_VERBS = (
    "step",
    "up",
    "down",
    "mount",
    "dismount",
    "lead",
    "release",
    "climb",
    "face",
    "swap",
    "end",
)
ACT_VERBS = (
    "claim",
    "give",
    "lend",
    "gate",
    "pitch",
    "attack",
    "ram",
    "cast",
    "siege",
    "permit",
    "done",
)
GM_VERBS = {
    "remove": 1,
    "owner": 2,
    "gate": 1,
    "breach": 1,
    "block": 1,
    "destroy": 1,
    # correcting the position: take back the last movement action, put a figure elsewhere,
    # add one, bring a fallen one back; a note to the last overrule (needs `` -- note``)
    "undo": 0,
    "move": 2,
    "add": 3,
    "restore": 1,
    "note": 0,
}
# German notation beside the English words (what a German table says): verb -> verb
GERMAN: dict[str, str] = {
    "setzen": "place",
    "platzieren": "place",
    "farbe": "colour",
    "buendnis": "ally",
    "verbuenden": "ally",
    "beginnen": "start",
    "sl": "gm",
    "spielleitung": "gm",
    "schritt": "step",
    "hoch": "up",
    "hinauf": "up",
    "runter": "down",
    "hinab": "down",
    "aufsitzen": "mount",
    "aufsteigen": "mount",
    "absitzen": "dismount",
    "absteigen": "dismount",
    "fuehren": "lead",
    "loslassen": "release",
    "erklimmen": "climb",
    "drehen": "face",
    "tauschen": "swap",
    "ende": "end",
    "beanspruchen": "claim",
    "schenken": "give",
    "verschenken": "give",
    "leihen": "lend",
    "verleihen": "lend",
    "tor": "gate",
    "pech": "pitch",
    "angreifen": "attack",
    "angriff": "attack",
    "rammen": "ram",
    "zaubern": "cast",
    "belagern": "siege",
    "erlauben": "permit",
    "fertig": "done",
    "zustimmen": "agree",
    "ablehnen": "refuse",
    "entfernen": "remove",
}
GERMAN_GM: dict[str, str] = {
    "entfernen": "remove",
    "besitzer": "owner",
    "eigentuemer": "owner",
    "tor": "gate",
    "einreissen": "breach",
    "bresche": "breach",
    "sperren": "block",
    "zerstoeren": "destroy",
    "zurueck": "undo",
    "zuruecknehmen": "undo",
    "versetzen": "move",
    "stellen": "move",
    "hinzufuegen": "add",
    "zurueckholen": "restore",
    "notiz": "note",
}
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})
_WORD = re.compile(r"^[a-z0-9_/+]{1,24}$")


@dataclass(frozen=True, slots=True)
class Action:
    verb: str
    args: tuple[str, ...] = ()
    note: str = field(default="", compare=False)  # the game master's logged note


def parse_action(text: str) -> Action:
    """Raises BadInput (``armageddon.error.bad_notation``) for unreadable text."""
    body, _sep, note = text.partition(" -- ")
    words = body.lower().split()  # `siege Rabenburg` as the map writes it
    if words:  # German verbs (``schritt k3 c4``, ``sl zurueck``) read as the English ones
        words[0] = GERMAN.get(words[0].lower().translate(_UMLAUTS), words[0])
    if words[:1] == ["gm"] and len(words) > 1:
        words[1] = GERMAN_GM.get(words[1].lower().translate(_UMLAUTS), words[1])
    if not words or words[0] not in ARITY or not all(_WORD.match(w) for w in words):
        raise BadInput("armageddon.error.bad_notation", text=text[:60])
    verb, args = words[0], tuple(words[1:])
    low, high = ARITY[verb]
    if not low <= len(args) <= high:
        raise BadInput("armageddon.error.bad_notation", text=text[:60])
    if verb == "gm" and (args[0] not in GM_VERBS or len(args) != 1 + GM_VERBS[args[0]]):
        raise BadInput("armageddon.error.bad_notation", text=text[:60])
    clean = " ".join(note.split())[:200]
    if (clean and verb != "gm") or (args[:1] == ("note",) and not clean):
        raise BadInput("armageddon.error.bad_notation", text=text[:60])
    return Action(verb, args, clean)


def action_text(action: Action) -> str:
    text = " ".join((action.verb, *action.args))
    return f"{text} -- {action.note}" if action.note else text


def action_path(action: Action) -> tuple[str, ...]:
    return (action.verb, *action.args)
