"""Deterministic random numbers kept inside a game state: a seed plus a counter.

Each draw hashes (seed, counter), so a state can be serialized at any point and the next
draw is the same after a reload. Values are immutable; a draw returns the advanced Rng.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rng:
    seed: int
    counter: int = 0

    def _stream(self) -> random.Random:
        digest = hashlib.blake2b(f"{self.seed}:{self.counter}".encode(), digest_size=8).digest()
        return random.Random(int.from_bytes(digest, "big"))

    def randint(self, low: int, high: int) -> tuple[int, Rng]:
        """One integer in ``[low, high]`` and the advanced generator."""
        return self._stream().randint(low, high), Rng(self.seed, self.counter + 1)

    def dice(self, count: int, sides: int) -> tuple[list[int], Rng]:
        """``count`` dice with ``sides`` faces (one counter step for the whole throw)."""
        stream = self._stream()
        return [stream.randint(1, sides) for _ in range(count)], Rng(self.seed, self.counter + 1)

    def shuffle(self, items: list[str]) -> tuple[list[str], Rng]:
        """A shuffled copy of ``items``."""
        copy = list(items)
        self._stream().shuffle(copy)
        return copy, Rng(self.seed, self.counter + 1)

    def fork(self) -> random.Random:
        """A ``random.Random`` for one bounded computation (e.g. an AI search); advance after."""
        return self._stream()

    def advanced(self) -> Rng:
        return Rng(self.seed, self.counter + 1)

    def to_json(self) -> list[int]:
        return [self.seed, self.counter]

    @staticmethod
    def from_json(data: list[int]) -> Rng:
        return Rng(int(data[0]), int(data[1]))
