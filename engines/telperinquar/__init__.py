"""Telperinquár – Battle of Fame: cards as data (heroes, level cards, support cards), decks
as the players' plain text lists with their validation, and the engine."""

from engines.telperinquar.engine import ENGINE, Telperinquar, TqState

__all__ = ["ENGINE", "Telperinquar", "TqState"]
