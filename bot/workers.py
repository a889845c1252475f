"""Where CPU-heavy work runs, so that the event loop, which answers every command of every
channel, stays free (issue 18: light commands quick while fifty heavy ones run).

- **Worker processes** (``SPIELLEITER_RENDER_PROCESSES``, two by default; none in tests):
  pictures, rolls of hundreds of dice, a bot thinking about its move. Work there takes no time
  from this interpreter. What is sent must pickle: renderers take plain views, engines are
  pure functions of their state.
- **The heavy lane**: one thread for heavy work that stays in this process (an upload's
  checks, a web replay), and for everything above when there are no worker processes. One
  thread, so the event loop shares the interpreter with one busy thread at most: fifty heavy
  commands wait their turn there instead of taking the interpreter in turns with it.

The caller acknowledges the interaction first (Discord wants an answer within 3 s).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import ParamSpec, TypeVar

log = logging.getLogger("spielleiter.workers")
P = ParamSpec("P")
T = TypeVar("T")

# imported once by the worker processes' parent (forkserver), so each worker starts warm
WORKER_MODULES = (
    "bot.render.armageddon",
    "bot.render.combat",
    "bot.render.dice",
    "bot.render.essence",
    "bot.render.felsenfeuer",
    "bot.render.sheet",
    "bot.render.telperinquar",
    "engines.all",
    "engines.dice",
)
WORKER_NICENESS = 10  # below the bot's process: answers first, pictures and bots after
HEAVY_LANE_THREADS = 1
_LANE = ThreadPoolExecutor(max_workers=HEAVY_LANE_THREADS, thread_name_prefix="heavy")
_PROCESSES: ProcessPoolExecutor | None = None
_WORKERS = 0  # how many worker processes were asked for
_REPLACING: asyncio.Task[None] | None = None


async def run_apart(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``fn(*args, **kwargs)`` in the worker processes when there are some, else in the heavy
    lane. Work whose arguments cannot be sent to another process (a local function, an open
    handle), or a broken pool, falls back to the lane; ``fn``'s own errors are raised."""
    pool = _PROCESSES
    if pool is not None:
        try:
            call = functools.partial(fn, *args, **kwargs)
            return await asyncio.get_running_loop().run_in_executor(pool, call)
        except BrokenProcessPool as error:  # a worker died (killed, out of memory): new ones
            log.warning("running %s in the lane: %r", getattr(fn, "__name__", fn), error)
            _replace_broken_pool(pool)
        except (pickle.PicklingError, AttributeError, TypeError) as error:
            # a renderer's or engine's own AttributeError or TypeError shows again from there
            log.warning("running %s in the lane: %r", getattr(fn, "__name__", fn), error)
    return await run_heavy(fn, *args, **kwargs)


def _replace_broken_pool(broken: ProcessPoolExecutor) -> None:
    """Start as many fresh worker processes as the ``broken`` pool had, in the background
    (the lane takes the work meanwhile); once per broken pool, never a healthy one."""
    global _REPLACING
    if _PROCESSES is not broken or _REPLACING is not None:
        return
    stop_worker_processes()
    _REPLACING = asyncio.get_running_loop().create_task(_replace(_WORKERS))


async def _replace(count: int) -> None:
    global _REPLACING
    try:
        await asyncio.to_thread(use_worker_processes, count)
    except (OSError, BrokenProcessPool) as error:
        log.error("no new worker processes, working in the lane: %r", error)
    finally:
        _REPLACING = None


async def render_async(fn: Callable[P, bytes], *args: P.args, **kwargs: P.kwargs) -> bytes:
    """A renderer's PNG bytes, drawn in the worker processes when there are some, else in a
    thread of its own (light pictures in tests need no lane)."""
    if _PROCESSES is not None:
        return await run_apart(fn, *args, **kwargs)
    return await asyncio.to_thread(fn, *args, **kwargs)


async def run_heavy(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``fn(*args, **kwargs)`` in the heavy lane (this process, one thread)."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_LANE, functools.partial(fn, *args, **kwargs))


def use_worker_processes(count: int) -> None:
    """Run ``run_apart`` and ``render_async`` in ``count`` worker processes from now on (0: in
    this process, as in tests). The workers are started here and warmed (fonts loaded), so
    the first board after start-up is not slow."""
    global _PROCESSES, _WORKERS
    stop_worker_processes()
    _WORKERS = count
    if count <= 0:
        return
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(WORKER_MODULES))
    _PROCESSES = ProcessPoolExecutor(
        max_workers=count, mp_context=context, initializer=_start_worker, initargs=(os.getpid(),)
    )
    for started in [_PROCESSES.submit(_warm) for _ in range(count)]:
        started.result()


def stop_worker_processes() -> None:
    global _PROCESSES
    if _PROCESSES is not None:
        _PROCESSES.shutdown(wait=False, cancel_futures=True)
        _PROCESSES = None


def _start_worker(bot_pid: int) -> None:
    """In a worker process: yield the processor to the bot's event loop and its database
    (heavy work is what may wait: its command was acknowledged first), and end with the bot.
    A bot killed outright (SIGKILL, a crash) cannot stop its workers, and they are not its
    children (a forkserver started them)."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            try:
                os.kill(bot_pid, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:  # the pid was taken by another user's process
                os._exit(0)

    threading.Thread(target=watch, name="follow-bot", daemon=True).start()


def _warm() -> bool:
    """In a worker process: load the fonts once."""
    from bot.render.base import font

    return bool(font(16, "regular") and font(16, "bold"))
