"""Importing this module registers every engine."""

from __future__ import annotations

import engines.essence
import engines.felsenfeuer  # noqa: F401
