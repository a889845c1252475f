"""Importing this module registers every engine."""

from __future__ import annotations
