"""Importing this module registers every engine."""

from __future__ import annotations

import engines.armageddon
import engines.essence  # noqa: F401
