"""Actions and their notation: words separated by spaces, the verb first
(``step k3 c4``, ``claim w2``, ``gm remove k7 -- vom Pfeil getroffen``). A game master's note
follows `` -- `` and is logged with the action but is no part of what the action is. German
verbs are read too (``schritt k3 c4``, ``beanspruchen w2``, ``sl entfernen k7``, ``ende``);
the action is kept in the English words.

Each verb is a frozen dataclass whose fields are the notation's words in order (figure ids,
fields, edges ``c4/no``, parties as written); a field with the default ``""`` is an optional
last word. ``verb`` (and a game master's ``what``) is the StrEnum word; ``args`` gives the
words after the verb, as ``action_path`` clicks them together.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from engines.core.errors import BadInput


class Verb(StrEnum):
    # set-up (game master)
    PLACE = "place"
    COLOUR = "colour"
    ALLY = "ally"
    START = "start"
    # game master's overrule during play
    GM = "gm"
    # movement phase: Bewegung (and the Aktion of climbing a ladder)
    STEP = "step"
    UP = "up"
    DOWN = "down"
    MOUNT = "mount"
    DISMOUNT = "dismount"
    LEAD = "lead"
    RELEASE = "release"
    CLIMB = "climb"
    FACE = "face"
    SWAP = "swap"
    END = "end"
    # action phase: Erklärung, Kontrolle, Handlung, Aktion
    CLAIM = "claim"
    GIVE = "give"
    LEND = "lend"
    GATE = "gate"
    PITCH = "pitch"
    ATTACK = "attack"
    RAM = "ram"
    CAST = "cast"
    SIEGE = "siege"
    PERMIT = "permit"
    DONE = "done"
    # answers
    AGREE = "agree"
    REFUSE = "refuse"
    REMOVE = "remove"


class GmVerb(StrEnum):
    REMOVE = "remove"
    OWNER = "owner"
    GATE = "gate"
    BREACH = "breach"
    BLOCK = "block"
    DESTROY = "destroy"
    # correcting the position: take back the last movement action, put a figure elsewhere,
    # add one, bring a fallen one back; a note to the last overrule (needs `` -- note``)
    UNDO = "undo"
    MOVE = "move"
    ADD = "add"
    RESTORE = "restore"
    NOTE = "note"


@dataclass(frozen=True, slots=True)
class Action:
    """An action; its fields (in the subclasses) are the words after the verb."""

    verb: ClassVar[Verb]
    note: str = field(default="", compare=False, kw_only=True)  # the game master's logged note

    @property
    def args(self) -> tuple[str, ...]:
        """The notation's words after the verb (an optional last word only when given)."""
        return tuple(word for name in _words(type(self)) if (word := getattr(self, name)))


@dataclass(frozen=True, slots=True)
class GmAction(Action):
    """The game master's overrule: ``gm WHAT ...``."""

    verb: ClassVar[Verb] = Verb.GM
    what: ClassVar[GmVerb]

    @property
    def args(self) -> tuple[str, ...]:
        return (self.what.value, *(getattr(self, name) for name in _words(type(self))))


# ---------------------------------------------------------------- set-up


@dataclass(frozen=True, slots=True)
class Place(Action):
    verb: ClassVar[Verb] = Verb.PLACE
    party: str
    kind: str
    field: str


@dataclass(frozen=True, slots=True)
class Colour(Action):
    verb: ClassVar[Verb] = Verb.COLOUR
    party: str
    colour: str


@dataclass(frozen=True, slots=True)
class Ally(Action):
    verb: ClassVar[Verb] = Verb.ALLY
    party: str
    other: str


@dataclass(frozen=True, slots=True)
class Start(Action):
    verb: ClassVar[Verb] = Verb.START


# ---------------------------------------------------------------- movement


@dataclass(frozen=True, slots=True)
class Step(Action):
    verb: ClassVar[Verb] = Verb.STEP
    figure: str
    to: str


@dataclass(frozen=True, slots=True)
class Up(Action):
    verb: ClassVar[Verb] = Verb.UP
    figure: str


@dataclass(frozen=True, slots=True)
class Down(Action):
    verb: ClassVar[Verb] = Verb.DOWN
    figure: str


@dataclass(frozen=True, slots=True)
class Mount(Action):
    verb: ClassVar[Verb] = Verb.MOUNT
    figure: str
    carrier: str
    slot: str = ""  # named when the carrier has several places


@dataclass(frozen=True, slots=True)
class Dismount(Action):
    verb: ClassVar[Verb] = Verb.DISMOUNT
    figure: str
    to: str = ""  # the neighbouring field, when the carrier fills its own


@dataclass(frozen=True, slots=True)
class Lead(Action):
    verb: ClassVar[Verb] = Verb.LEAD
    figure: str
    animal: str


@dataclass(frozen=True, slots=True)
class Release(Action):
    verb: ClassVar[Verb] = Verb.RELEASE
    figure: str  # the animal let go


@dataclass(frozen=True, slots=True)
class Climb(Action):
    verb: ClassVar[Verb] = Verb.CLIMB
    figure: str
    ladder: str


@dataclass(frozen=True, slots=True)
class Face(Action):
    verb: ClassVar[Verb] = Verb.FACE
    figure: str
    direction: str


@dataclass(frozen=True, slots=True)
class Swap(Action):
    verb: ClassVar[Verb] = Verb.SWAP
    figure: str
    partner: str  # a figure, or two joined by ``+``


@dataclass(frozen=True, slots=True)
class End(Action):
    verb: ClassVar[Verb] = Verb.END


# ---------------------------------------------------------------- action phase


@dataclass(frozen=True, slots=True)
class Claim(Action):
    verb: ClassVar[Verb] = Verb.CLAIM
    target: str  # a figure, or a Handelszentrum's field


@dataclass(frozen=True, slots=True)
class Give(Action):
    verb: ClassVar[Verb] = Verb.GIVE
    figure: str
    party: str


@dataclass(frozen=True, slots=True)
class Lend(Action):
    verb: ClassVar[Verb] = Verb.LEND
    figure: str
    party: str


@dataclass(frozen=True, slots=True)
class Gate(Action):
    verb: ClassVar[Verb] = Verb.GATE
    edge: str


@dataclass(frozen=True, slots=True)
class Pitch(Action):
    verb: ClassVar[Verb] = Verb.PITCH
    tower: str
    field: str


@dataclass(frozen=True, slots=True)
class Attack(Action):
    verb: ClassVar[Verb] = Verb.ATTACK
    figure: str
    target: str


@dataclass(frozen=True, slots=True)
class Ram(Action):
    verb: ClassVar[Verb] = Verb.RAM
    ship: str
    target: str


@dataclass(frozen=True, slots=True)
class Cast(Action):
    verb: ClassVar[Verb] = Verb.CAST
    wizard: str
    spell: str
    place: str  # a field, ``c4/2`` a tower floor, or an edge for ``tor_bewegen``
    to: str = ""  # where ``versetzen`` sets the figures


@dataclass(frozen=True, slots=True)
class Siege(Action):
    verb: ClassVar[Verb] = Verb.SIEGE
    stellung: str


@dataclass(frozen=True, slots=True)
class Permit(Action):
    verb: ClassVar[Verb] = Verb.PERMIT
    tower: str
    party: str


@dataclass(frozen=True, slots=True)
class Done(Action):
    verb: ClassVar[Verb] = Verb.DONE


# ---------------------------------------------------------------- answers


@dataclass(frozen=True, slots=True)
class Agree(Action):
    verb: ClassVar[Verb] = Verb.AGREE


@dataclass(frozen=True, slots=True)
class Refuse(Action):
    verb: ClassVar[Verb] = Verb.REFUSE


@dataclass(frozen=True, slots=True)
class Remove(Action):
    verb: ClassVar[Verb] = Verb.REMOVE
    figure: str


# ---------------------------------------------------------------- the game master


@dataclass(frozen=True, slots=True)
class GmRemove(GmAction):
    what: ClassVar[GmVerb] = GmVerb.REMOVE
    figure: str


@dataclass(frozen=True, slots=True)
class GmOwner(GmAction):
    what: ClassVar[GmVerb] = GmVerb.OWNER
    figure: str
    party: str


@dataclass(frozen=True, slots=True)
class GmGate(GmAction):
    what: ClassVar[GmVerb] = GmVerb.GATE
    edge: str


@dataclass(frozen=True, slots=True)
class GmBreach(GmAction):
    what: ClassVar[GmVerb] = GmVerb.BREACH
    edge: str


@dataclass(frozen=True, slots=True)
class GmBlock(GmAction):
    what: ClassVar[GmVerb] = GmVerb.BLOCK
    edge: str


@dataclass(frozen=True, slots=True)
class GmDestroy(GmAction):
    what: ClassVar[GmVerb] = GmVerb.DESTROY
    tower: str


@dataclass(frozen=True, slots=True)
class GmUndo(GmAction):
    what: ClassVar[GmVerb] = GmVerb.UNDO


@dataclass(frozen=True, slots=True)
class GmMove(GmAction):
    what: ClassVar[GmVerb] = GmVerb.MOVE
    figure: str
    place: str  # a field, ``c4/2`` a tower floor


@dataclass(frozen=True, slots=True)
class GmAdd(GmAction):
    what: ClassVar[GmVerb] = GmVerb.ADD
    party: str
    kind: str
    place: str


@dataclass(frozen=True, slots=True)
class GmRestore(GmAction):
    what: ClassVar[GmVerb] = GmVerb.RESTORE
    figure: str


@dataclass(frozen=True, slots=True)
class GmNote(GmAction):
    """A note to the last overrule (the note itself follows `` -- ``)."""

    what: ClassVar[GmVerb] = GmVerb.NOTE


MoveAction = Step | Up | Down | Mount | Dismount | Lead | Release | Climb | Face | Swap | End
ActAction = Claim | Give | Lend | Gate | Pitch | Attack | Ram | Cast | Siege | Permit | Done
SetupAction = Place | Colour | Ally | Start
CorrectAction = GmUndo | GmMove | GmAdd | GmRestore | GmNote


_ACTIONS: tuple[type[Action], ...] = (
    Place, Colour, Ally, Start, Step, Up, Down, Mount, Dismount, Lead, Release, Climb, Face,
    Swap, End, Claim, Give, Lend, Gate, Pitch, Attack, Ram, Cast, Siege, Permit, Done, Agree,
    Refuse, Remove,
)  # fmt: skip
_GM_ACTIONS: tuple[type[GmAction], ...] = (
    GmRemove, GmOwner, GmGate, GmBreach, GmBlock, GmDestroy, GmUndo, GmMove, GmAdd, GmRestore,
    GmNote,
)  # fmt: skip
BY_VERB: dict[str, type[Action]] = {cls.verb: cls for cls in _ACTIONS}
BY_GM_VERB: dict[str, type[GmAction]] = {cls.what: cls for cls in _GM_ACTIONS}


def _words(cls: type[Action]) -> tuple[str, ...]:
    return _WORD_FIELDS[cls]


def _fields(cls: type[Action]) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls) if f.name != "note")


def _arity(cls: type[Action]) -> tuple[int, int]:
    """(fewest, most) words after the verb: an optional word has the default ``""``."""
    fs = [f for f in dataclasses.fields(cls) if f.name != "note"]
    return sum(1 for f in fs if f.default is dataclasses.MISSING), len(fs)


_WORD_FIELDS: dict[type[Action], tuple[str, ...]] = {
    cls: _fields(cls) for cls in (*_ACTIONS, *_GM_ACTIONS)
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


def parse_action(text: str) -> Action:
    """Raises BadInput (``armageddon.error.bad_notation``) for unreadable text."""
    body, _sep, note = text.partition(" -- ")
    words = body.lower().split()  # `siege Rabenburg` as the map writes it
    if words:  # German verbs (``schritt k3 c4``, ``sl zurueck``) read as the English ones
        words[0] = GERMAN.get(words[0].lower().translate(_UMLAUTS), words[0])
    if words[:1] == ["gm"] and len(words) > 1:
        words[1] = GERMAN_GM.get(words[1].lower().translate(_UMLAUTS), words[1])
    known = words and (words[0] in BY_VERB or words[0] == Verb.GM)
    if not known or not all(_WORD.match(w) for w in words):
        raise BadInput("armageddon.error.bad_notation", text=text[:60])
    verb, args = words[0], words[1:]
    cls: type[Action]
    if verb == Verb.GM:
        if not args or args[0] not in BY_GM_VERB:
            raise BadInput("armageddon.error.bad_notation", text=text[:60])
        cls, args = BY_GM_VERB[args[0]], args[1:]
    else:
        cls = BY_VERB[verb]
    low, high = _arity(cls)
    if not low <= len(args) <= high:
        raise BadInput("armageddon.error.bad_notation", text=text[:60])
    clean = " ".join(note.split())[:200]
    if (clean and verb != Verb.GM) or (cls is GmNote and not clean):
        raise BadInput("armageddon.error.bad_notation", text=text[:60])
    return cls(*args, note=clean)


def with_note(action: Action, note: str) -> Action:
    """The same action with the game master's note."""
    return dataclasses.replace(action, note=note)


def action_text(action: Action) -> str:
    text = " ".join((action.verb.value, *action.args))
    return f"{text} -- {action.note}" if action.note else text


def action_path(action: Action) -> tuple[str, ...]:
    return (action.verb.value, *action.args)
