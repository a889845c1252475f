"""Telperinquár – Battle of Fame: cards as data (heroes, level cards, support cards), decks
as the players' plain text lists with their validation, the engine, and the booster draft."""

from engines.telperinquar.draft import DRAFT_ENGINE, TqDraft
from engines.telperinquar.engine import ENGINE, Telperinquar, TqState

__all__ = ["DRAFT_ENGINE", "ENGINE", "Telperinquar", "TqDraft", "TqState"]
