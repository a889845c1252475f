"""Felsenfeuer, the dice duel of wizards (rules as played: ``data/felsenfeuer/RULES.md``).

Engine ``ENGINE`` (name ``"felsenfeuer"``, 2-6 seats). Config: ``rules`` adept|magister,
``mode`` ""|pentagramm (5 seats)|gilde (6 seats, teams 0,0,0,1,1,1), ``teams``, ``auswahl``
sealed|draft, ``supply`` (dice per colour; default 8 per base game, one per two players),
``start`` (a seat or "random"), ``phase_limit`` / ``quiet_limit`` (the end of a stalled duel),
``weltentor`` (floating runes may be laid while choosing essences; spheres are always in force).

**Actions** (``engines.felsenfeuer.actions``: one frozen dataclass per verb, notation in
words): ``auswahl 2-2-4-0-0`` (dice per colour grün, grau,
rot, schwarz, violett; sealed), ``draft rot``, ``essenz rot``, ``schwebe rot 3`` (Weltentor:
a floating rune over the start surface), ``lege rot 3 m0`` (``h1``: from
the second hand), ``ende`` (end the turn; without a glyph it is a pass), ``blut <spell>``
(blood magic, magister rules), ``wahl <token>`` (answer the open decision: a die ``d12``, a
seat ``p1``, a spell slug, ``keiner``, ``fertig``, ``ja``/``nein``, ``h0``/``h1``, pips).

**Decisions**: SEALED ``auswahl<seat>`` for every seat at once; TURN for the draft, the
essence choice and the stone holder's turn; CHOICE for everything asked inside the spell
phase (tie, cast offer, targets, essence loss, temple, hand), with its prompt key.

The view is documented in ``engines.felsenfeuer.view``; events carry ``type`` and data
(laid, turn_ended, spell_phase, triggered, cast, step, attacked, essence_lost, renewal,
eliminated, game_over, ...).
"""

from engines.core.contract import register
from engines.felsenfeuer.actions import (
    Action,
    Auswahl,
    Blut,
    Draft,
    Ende,
    Essenz,
    Lege,
    Schwebe,
    Verb,
    Wahl,
    Wuerfle,
)
from engines.felsenfeuer.engine import ENGINE, FelsenfeuerEngine

register(ENGINE)

__all__ = [
    "ENGINE",
    "Action",
    "Auswahl",
    "Blut",
    "Draft",
    "Ende",
    "Essenz",
    "FelsenfeuerEngine",
    "Lege",
    "Schwebe",
    "Verb",
    "Wahl",
    "Wuerfle",
]
