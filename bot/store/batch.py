"""Point reads of many commands at once as one statement (PostgreSQL).

Every command reads the same few rows before its first answer (the user's language, the
channel's active campaign). When fifty commands arrive together, fifty round trips queue for
the pool's connections and the last one waits for all the others; ``Batched`` collects the keys
asked for while its statement waits for a connection and reads them all in one statement, so a
burst costs a few round trips. A single read waits for nothing more than before.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable, Sequence
from typing import Any, Generic, TypeVar

import asyncpg

from bot.store.pgpool import Pool

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

# one statement for the keys collected: returns what it found, by key (a key not in it: None)
Reader = Callable[[asyncpg.Connection, Sequence[K]], Awaitable[dict[K, V]]]


class Batched(Generic[K, V]):
    """``await batched.get(key)``: the value ``read`` finds for ``key`` (None if none), read
    together with every key asked for while the statement waited for a connection of
    ``pool`` (a function returning the open pool)."""

    def __init__(self, pool: Callable[[], Pool], read: Reader[K, V]) -> None:
        self._pool = pool
        self._read = read
        self._pending: dict[K, asyncio.Future[V | None]] = {}
        self._waiting = False  # a flush is waiting for a connection and will take new keys
        self._flushes: set[asyncio.Task[None]] = set()

    async def get(self, key: K) -> V | None:
        future = self._pending.get(key)
        if future is None:
            future = asyncio.get_running_loop().create_future()
            future.add_done_callback(_retrieve)  # a caller cancelled meanwhile never sees it
            self._pending[key] = future
            if not self._waiting:
                self._waiting = True
                task = asyncio.create_task(self._flush())
                self._flushes.add(task)
                task.add_done_callback(self._flushes.discard)
        # one caller's cancellation (its interaction timed out) leaves the others' read alone
        return await asyncio.shield(future)

    def _take(self) -> dict[K, asyncio.Future[V | None]]:
        taken, self._pending = self._pending, {}
        self._waiting = False
        return taken

    async def _flush(self) -> None:
        taken: dict[K, asyncio.Future[V | None]] = {}
        try:
            async with self._pool().acquire() as conn:
                taken = self._take()
                found = await self._read(conn, list(taken))
        except BaseException as error:  # no connection, a failed statement: every key is told
            taken = taken or self._take()
            for future in taken.values():
                if future.done():
                    continue
                if isinstance(error, Exception):
                    future.set_exception(error)
                else:
                    future.cancel()
            if not isinstance(error, Exception):
                raise
            return
        for key, future in taken.items():
            if not future.done():
                future.set_result(found.get(key))


def _retrieve(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()
