"""Effects as data: a small, game-neutral kit for rules text written as steps.

A game declares its *language* (:class:`Language`): the verbs with their parameters
(:class:`Verb`, :class:`Param`), the keys its selectors and conditions may use. The loader
(:func:`load_toml`) reads a TOML file of items (spells, cards), validates every step against
the language and names the item and the line of each mistake. The interpreter model is the
game's, but the pause for a decision is shared: a step asks through a :class:`Answers` cursor;
when the answer is not yet known it raises :class:`NeedDecision`, the game stores the open
decision in its state (frame stack, step index, answers so far) and re-runs the step from its
start once the answer arrived. Steps are therefore deterministic functions of the state and
the answers, and a paused game is plain data (JSON round trip, identical replay).
"""

from engines.effects.decision import Answers, NeedDecision
from engines.effects.loader import Item, LoadError, Mistake, load_toml
from engines.effects.spec import Language, Param, Verb

__all__ = [
    "Answers",
    "Item",
    "Language",
    "LoadError",
    "Mistake",
    "NeedDecision",
    "Param",
    "Verb",
    "load_toml",
]
