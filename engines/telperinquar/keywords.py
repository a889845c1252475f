"""The keywords of Wesen (a card's ``abilities``) in one registry, each with the rule points
it changes. Every hook of :class:`Keyword` answers as for a Wesen without the keyword; a
keyword overrides the ones it changes. The rules ask the keywords of a card at these points
and nowhere test a keyword's name.

Adding a keyword: a subclass here with its German name and hooks, listed in
:data:`KEYWORDS` (the card loader accepts its name in ``abilities``), the card data that
carries it, and its test (``tests/unit/test_telperinquar_keywords.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable


class Keyword:
    """A keyword's rule points, with the defaults of a Wesen without it."""

    name = ""
    flies = False  # reached in melee only by flyers; flies over others; no Rundumschlag hit
    may_carry = False  # may carry free equipment (glossary "Ausrüstbar")
    may_hide = False  # may be laid face down, turned up by its own attack
    sweeps = False  # a melee attack also hits the others in its Drohbereich
    free_attacks = 0  # attacks after a paid one this turn, without payment

    def targetable(self, attack: str, attacker_flies: bool) -> bool:
        """Whether an attack (``melee`` or ``ranged``) may aim at it."""
        return True

    def turned_up_by(self, attack: str) -> bool:
        """Whether, hidden, it may be turned up to take an attack on its hero."""
        return True

    def intercepts(self, attack: str) -> bool:
        """Whether, open, it may take an attack meant for its own hero."""
        return False

    def damage_taken(self, taken: int, roll: Callable[[int], int]) -> int:
        """The damage it takes of ``taken`` (after armour); ``roll`` throws a die."""
        return taken

    def counter(self, strike: tuple[int, str] | None) -> tuple[int, str] | None:
        """Its counter-attack (bonus, damage kind) as the rules found it, or None."""
        return strike


class Fliegen(Keyword):
    name = "fliegen"
    flies = True

    def targetable(self, attack: str, attacker_flies: bool) -> bool:
        return attack != "melee" or attacker_flies

    def intercepts(self, attack: str) -> bool:
        return attack == "melee"  # it flies into the blow meant for its hero


class Nebelgestalt(Keyword):
    name = "nebelgestalt"

    def targetable(self, attack: str, attacker_flies: bool) -> bool:
        return attack == "melee"

    def turned_up_by(self, attack: str) -> bool:
        return attack == "melee"


class Verstecken(Keyword):
    name = "verstecken"
    may_hide = True


class Beidhaendigkeit(Keyword):
    name = "beidhaendigkeit"
    free_attacks = 1


class Rundumschlag(Keyword):
    name = "rundumschlag"
    sweeps = True


class Schattenhaftigkeit(Keyword):
    name = "schattenhaftigkeit"

    def damage_taken(self, taken: int, roll: Callable[[int], int]) -> int:
        return 0 if taken and roll(10) <= 2 else taken  # a 1 or 2 on a W10: it passes through


class Ausruestbar(Keyword):
    name = "ausruestbar"
    may_carry = True


KEYWORDS: dict[str, Keyword] = {
    k.name: k
    for k in (
        Beidhaendigkeit(),
        Fliegen(),
        Verstecken(),
        Nebelgestalt(),
        Rundumschlag(),
        Schattenhaftigkeit(),
        Ausruestbar(),
    )
}


def keywords(names: Iterable[str]) -> tuple[Keyword, ...]:
    """The keywords named in a card's ``abilities`` (the loader refuses unknown names)."""
    return tuple(KEYWORDS[n] for n in names if n in KEYWORDS)
