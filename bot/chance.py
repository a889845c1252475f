"""Where the bot's randomness comes from: the operating system's in real play, a seeded stream
for a reproducible session (``SPIELLEITER_SEED``, ``spielleiter play --seed N``): the same
script with the same seed gives the same dice, game seeds and so the same bot choices."""

from __future__ import annotations

import random
import secrets

from engines.core import Rng


class Chance:
    def __init__(self, seed: int | None = None) -> None:
        self._stream = None if seed is None else random.Random(seed)

    @property
    def seeded(self) -> bool:
        return self._stream is not None

    def bits(self, count: int) -> int:
        """``count`` random bits (a seed for a game, a dice roll's Rng): from ``secrets`` (the
        operating system's secure source) in play, from the seeded stream in a reproducible
        session."""
        return secrets.randbits(count) if self._stream is None else self._stream.getrandbits(count)

    def rng(self) -> Rng:
        """A fresh dice generator (one per roll)."""
        return Rng(self.bits(63))
