"""Armageddon – das strategische Fantasy-Spiel: the referee for chapter 0 (Spielmechanismen).

Engine ``ENGINE`` (name ``"armageddon"``): seat 0 is the game master, seats 1..n the parties
of the scenario (``data/armageddon/scenarios/*.txt``; the format, the readings of missing
chapters and the action notation are in ``data/armageddon/RULES.md``). Config:
``{"scenario": "scharmuetzel"}`` or ``{"scenario_text": "...", "file": "name"}``, optional
``rounds`` and ``teams``. ``python -m engines.armageddon moves|selfplay`` for the command line.
"""

from engines.armageddon.engine import ENGINE, ArmageddonEngine
from engines.core.contract import register

register(ENGINE)

__all__ = ["ENGINE", "ArmageddonEngine"]
