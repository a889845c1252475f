"""Where heavy work runs (issue 18): the worker processes beside the bot, else the heavy lane,
one thread, so the event loop shares the interpreter with one busy thread at most."""

from __future__ import annotations

import asyncio
import threading
import time

from bot.workers import WORKER_NICENESS, render_async, run_heavy


def _pid_png() -> bytes:
    import os

    return str(os.getpid()).encode()


async def test_worker_processes_draw_beside_the_bot_and_threads_take_the_rest() -> None:
    """Issue 18: fifty boards drawn in threads took the interpreter from every other command;
    with render processes a renderer runs in another process (a renderer whose arguments
    cannot be sent there, here a local function, still runs, in a thread)."""
    import os

    from bot.workers import stop_worker_processes, use_worker_processes

    use_worker_processes(1)
    try:
        elsewhere = await render_async(_pid_png)
        assert elsewhere.isdigit() and int(elsewhere) != os.getpid()

        def local() -> bytes:
            return b"here"

        assert await render_async(local) == b"here"
    finally:
        stop_worker_processes()
    assert await render_async(_pid_png) == str(os.getpid()).encode()


def _where_png() -> bytes:
    import os
    import threading

    return f"{os.getpid()} {threading.current_thread().name}".encode()


async def test_heavy_work_goes_to_the_worker_processes_else_the_heavy_lane() -> None:
    import os

    from bot.workers import run_apart, stop_worker_processes, use_worker_processes

    pid, thread = (await run_apart(_where_png)).decode().split(" ", 1)
    assert int(pid) == os.getpid() and thread.startswith("heavy")  # the one-thread lane
    use_worker_processes(1)
    try:
        pid, _thread = (await run_apart(_where_png)).decode().split(" ", 1)
        assert int(pid) != os.getpid()
        # and it yields the processor to the event loop and the database: answers come first
        assert await run_apart(os.nice, 0) == min(19, os.nice(0) + WORKER_NICENESS)
    finally:
        stop_worker_processes()


async def test_the_heavy_lane_runs_one_job_at_a_time() -> None:
    """Fifty heavy commands wait their turn in the lane instead of taking the interpreter from
    the event loop in turns: never two lane jobs at once."""
    running, most = 0, 0
    guard = threading.Lock()

    def job() -> str:
        nonlocal running, most
        with guard:
            running += 1
            most = max(most, running)
        time.sleep(0.002)  # a job that lets others in, if there were others
        with guard:
            running -= 1
        return threading.current_thread().name

    names = await asyncio.gather(*(run_heavy(job) for _ in range(8)))
    assert most == 1 and len(set(names)) == 1


async def test_every_bot_thinks_the_same_in_a_worker_process() -> None:
    """A bot's move is worked out in a worker process (its state and chooser sent there): the
    same move as in this process, for every engine with a bot, at its weakest and its
    strongest level."""
    import random

    import engines.all  # noqa: F401  (registers every engine)
    from bot.workers import run_apart, stop_worker_processes, use_worker_processes
    from engines.core import BotPlayer, registry
    from engines.core import match as m

    bots = [e for e in registry().values() if isinstance(e, BotPlayer)]
    assert {e.name for e in bots} >= {"essence", "felsenfeuer", "telperinquar"}
    use_worker_processes(1)
    try:
        for engine in bots:
            state = m.start(engine, {}, 7, 2).state
            seat = next(d.seat for d in engine.decisions(state))
            for level in (engine.bot_levels[0], engine.bot_levels[-1]):
                here = engine.choose_action(state, seat, level, 0.2, random.Random(3))
                there = await run_apart(
                    engine.choose_action, state, seat, level, 0.2, random.Random(3)
                )
                assert there == here, (engine.name, level)
    finally:
        stop_worker_processes()


def test_every_engine_error_survives_the_way_back_from_a_worker_process() -> None:
    """A bad config or an illegal step found in a worker process is raised here as itself:
    the same class, message key and parameters (some take no arguments of their own)."""
    import pickle

    from bot.store.base import AlreadyExists, StaleRevision, StoreBusy
    from engines.core import BadInput, IllegalAction, StaleAction

    errors = [
        BadInput("tq.error.bad_config", option="cards"),
        IllegalAction("error.not_your_turn"),
        StaleAction(),
        StaleRevision(),
        StoreBusy(),
        AlreadyExists("game"),
    ]
    for error in errors:
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error) and vars(back) == vars(error) and str(back) == str(error)


def _die_elsewhere(bot_pid: int) -> str:
    import os

    if os.getpid() != bot_pid:
        os._exit(1)  # a worker killed (out of memory, a signal)
    return "lane"


async def test_a_worker_that_dies_is_replaced_and_its_work_done_in_the_lane() -> None:
    import os

    import bot.workers as workers

    workers.use_worker_processes(1)
    try:
        assert await workers.run_apart(_die_elsewhere, os.getpid()) == "lane"
        replacing = workers._REPLACING
        assert replacing is not None
        await replacing
        elsewhere = await workers.run_apart(_pid_png)
        assert int(elsewhere) != os.getpid()
    finally:
        workers.stop_worker_processes()
