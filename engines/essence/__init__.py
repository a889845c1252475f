"""Essence of the Arcane (rules: ``data/essence/RULES.md``)."""

from engines.core.contract import register
from engines.essence.engine import ENGINE, EssenceEngine

register(ENGINE)

__all__ = ["ENGINE", "EssenceEngine"]
