"""Importing this module registers every engine."""

from __future__ import annotations

import engines.armageddon
import engines.essence
import engines.felsenfeuer
import engines.telperinquar
import engines.w6.engine  # noqa: F401  (registers the engines)
