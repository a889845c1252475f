"""An independent Telperinquár opponent for measuring the bots: a one-ply greedy player.

Written only from the public engine contract (``legal_actions``, ``apply``, ``view_for``,
``state_to_json``/``state_from_json``) and kept out of the bot's own code
(engines/telperinquar/ai.py never imports it). For each legal action it applies the action to
a copy of the game whose dice are reseeded from its own random generator (so it does not
see the real next rolls), and values what its own view then shows: its hero's LP minus the
enemies' LP, the life of its Wesen minus theirs, its cards in play minus theirs, its level
minus theirs. It takes the action with the best value; ties go to ending the phase last.
It never swaps places or takes equipment back (free, repeatable actions a one-ply player
would loop on).
"""

from __future__ import annotations

import random
from typing import Any

from engines.core import Rng


def _value(view: dict[str, Any], seat: int) -> float:
    mine = 0.0
    theirs = 0.0
    players = view["players"]
    for p in players:
        life = min(int(p["life"]), int(p["max_life"]))
        row = [c for c in p.get("row", []) if not c.get("hidden")]
        wesen = sum(6 - min(6, int(c.get("dmg", 0) or 0)) - 3 * bool(c.get("wounded")) for c in row)
        in_play = len(p.get("row", [])) + len(p.get("equip", [])) + len(p.get("field", []))
        level = max(int(v) for v in p["levels"].values())
        score = 3.0 * life + wesen + 2.0 * in_play + 6.0 * level
        if int(p["life"]) <= 0:
            score -= 1000.0
        if p["team"] == players[seat]["team"]:
            mine += score
        else:
            theirs += score
    return mine - theirs


def choose(engine: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """The greedy player's action for ``seat``."""
    actions = list(engine.legal_actions(state, seat))
    data = engine.state_to_json(state)
    best: tuple[float, Any] | None = None
    for action in actions:
        if action.words[0] in ("swap", "fly", "take", "move") and len(actions) > 1:
            continue  # free and repeatable: a one-ply player would loop on them
        copy = dict(data)
        copy["rng"] = Rng(rng.randrange(1 << 30)).to_json()  # its own dice, not the game's
        try:
            after, _ = engine.apply(engine.state_from_json(copy), action, seat)
        except Exception:  # an action the copy refuses is no option
            continue
        value = _value(engine.view_for(after, seat), seat)
        if action.words[0] in ("next", "end", "go", "pass"):
            value -= 0.01  # ending only when nothing else is better
        value += rng.random() * 0.001
        if best is None or value > best[0]:
            best = (value, action)
    return best[1] if best is not None else actions[0]
