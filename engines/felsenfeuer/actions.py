"""Felsenfeuer's actions and their notation: words separated by spaces, the verb first.

``auswahl 2-2-4-0-0`` (dice per colour grün, grau, rot, schwarz, violett; sealed), ``draft
rot``, ``essenz rot``, ``schwebe rot 3`` (Weltentor: a floating rune over the start surface),
``wuerfle rot`` (Teil 3: a hand rune rolled onto the start surface), ``lege rot 3 m0`` (``h1``:
from the second hand), ``ende`` (end the turn; without a glyph it is a pass), ``blut <spell>``
(blood magic, magister rules), ``wahl <token>`` (answer the open decision: a die ``d12``, a
seat ``p1``, a spell slug, ``keiner``, ``fertig``, ``ja``/``nein``, ``h0``/``h1``, pips).

One frozen dataclass per verb; its fields are what the words say (pips and matrices as
numbers), ``verb`` the :class:`Verb` as a class attribute and ``args`` the words after the
verb (what ``action_path`` clicks together). The engine dispatches on the class.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.errors import BadInput
from engines.felsenfeuer.model import COLOURS, Word


class Verb(Word):
    AUSWAHL = "auswahl"
    DRAFT = "draft"
    ESSENZ = "essenz"
    SCHWEBE = "schwebe"
    WUERFLE = "wuerfle"
    LEGE = "lege"
    ENDE = "ende"
    BLUT = "blut"
    WAHL = "wahl"


@dataclass(frozen=True, slots=True)
class Action:
    """An action; its fields (in the subclasses) are what the words after the verb say."""

    verb: ClassVar[Verb]

    @property
    def args(self) -> tuple[str, ...]:
        return ()


@dataclass(frozen=True, slots=True)
class Auswahl(Action):
    """The sealed Auswahl: dice per colour in the order of ``COLOURS``."""

    verb: ClassVar[Verb] = Verb.AUSWAHL
    counts: tuple[int, ...]

    @property
    def args(self) -> tuple[str, ...]:
        return (self.code,)

    @property
    def code(self) -> str:
        return "-".join(str(n) for n in self.counts)

    @staticmethod
    def of(code: str) -> Auswahl:
        """The Auswahl written ``2-2-4-0-0``."""
        return Auswahl(tuple(int(n) for n in code.split("-")))


@dataclass(frozen=True, slots=True)
class Draft(Action):
    verb: ClassVar[Verb] = Verb.DRAFT
    colour: str

    @property
    def args(self) -> tuple[str, ...]:
        return (self.colour,)


@dataclass(frozen=True, slots=True)
class Essenz(Action):
    verb: ClassVar[Verb] = Verb.ESSENZ
    colour: str

    @property
    def args(self) -> tuple[str, ...]:
        return (self.colour,)


@dataclass(frozen=True, slots=True)
class Schwebe(Action):
    verb: ClassVar[Verb] = Verb.SCHWEBE
    colour: str
    pips: int

    @property
    def args(self) -> tuple[str, ...]:
        return (self.colour, str(self.pips))


@dataclass(frozen=True, slots=True)
class Wuerfle(Action):
    verb: ClassVar[Verb] = Verb.WUERFLE
    colour: str

    @property
    def args(self) -> tuple[str, ...]:
        return (self.colour,)


@dataclass(frozen=True, slots=True)
class Lege(Action):
    """A glyph of ``colour`` with ``pips`` onto ``matrix``, from hand ``hand`` (0 or 1)."""

    verb: ClassVar[Verb] = Verb.LEGE
    colour: str
    pips: int
    matrix: int
    hand: int = 0

    @property
    def args(self) -> tuple[str, ...]:
        words = (self.colour, str(self.pips), f"m{self.matrix}")
        return (*words, "h1") if self.hand else words


@dataclass(frozen=True, slots=True)
class Ende(Action):
    verb: ClassVar[Verb] = Verb.ENDE


@dataclass(frozen=True, slots=True)
class Blut(Action):
    verb: ClassVar[Verb] = Verb.BLUT
    spell: str

    @property
    def args(self) -> tuple[str, ...]:
        return (self.spell,)


@dataclass(frozen=True, slots=True)
class Wahl(Action):
    """The answer ``token`` to the open decision."""

    verb: ClassVar[Verb] = Verb.WAHL
    token: str

    @property
    def args(self) -> tuple[str, ...]:
        return (self.token,)


def action_text(action: Action) -> str:
    return " ".join((action.verb, *action.args))


def _number(word: str, text: str, prefix: str = "") -> int:
    digits = word[len(prefix) :] if word.startswith(prefix) else ""
    if not digits.isdecimal() or not digits.isascii():
        raise BadInput("felsenfeuer.error.bad_notation", text=text)
    return int(digits)


def parse(text: str) -> Action:
    """The action written as ``text``. Raises BadInput when it cannot be read (an unknown verb,
    the wrong number of words, a number that is none); whether it is legal is the engine's
    question."""
    words = text.split()
    verb, args = (words[0], words[1:]) if words else ("", [])
    count = len(args)
    if verb == "ende" and count == 0:
        return Ende()
    if verb in ("draft", "essenz", "wuerfle", "blut", "wahl", "auswahl") and count == 1:
        word = args[0]
        if verb == "auswahl":
            parts = word.split("-")
            if len(parts) != len(COLOURS):
                raise BadInput("felsenfeuer.error.bad_notation", text=text)
            return Auswahl(tuple(_number(p, text) for p in parts))
        single = {"draft": Draft, "essenz": Essenz, "wuerfle": Wuerfle, "blut": Blut}
        return single[verb](word) if verb in single else Wahl(word)
    if verb == "schwebe" and count == 2:
        return Schwebe(args[0], _number(args[1], text))
    if verb == "lege" and count in (3, 4):
        if count == 4 and args[3] != "h1":
            raise BadInput("felsenfeuer.error.bad_notation", text=text)
        return Lege(args[0], _number(args[1], text), _number(args[2], text, "m"), count - 3)
    raise BadInput("felsenfeuer.error.bad_notation", text=text)


__all__ = [
    "Action",
    "Auswahl",
    "Blut",
    "Draft",
    "Ende",
    "Essenz",
    "Lege",
    "Schwebe",
    "Verb",
    "Wahl",
    "Wuerfle",
    "action_text",
    "parse",
]
