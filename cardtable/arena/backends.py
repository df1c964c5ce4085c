"""Where tournament games run: in this process, in local worker processes, or as Ray tasks.

Every backend plays the same :class:`GameTask` objects with the same function, so results only differ in
the order they arrive; the tournament stores them by game number and computes standings in game order.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from cardtable.arena.play import GameResult, GameTask, failed, play_game

BACKENDS = ("local", "ray")
_PR_SET_PDEATHSIG = 1
#: CPUs of the Ray instance started when no ``--ray-address`` is given.
LOCAL_RAY_CPUS = 2


def run_tasks(tasks: Sequence[GameTask], *, workers: int = 1, backend: str = "local",
              ray_address: str | None = None, play: Callable[[GameTask], GameResult] = play_game
              ) -> Iterator[GameResult]:
    """Play every task; yield each result as soon as it is known (completion order).

    A game that kills the process playing it (a crash in native code, the kernel's OOM killer) becomes an
    ERROR result naming the cause, and the other games go on.
    """
    if backend == "ray":
        yield from _ray(tasks, ray_address, play)
    elif workers <= 1:
        for task in tasks:
            yield play(task)
    else:
        yield from _processes(tasks, workers, play)


def _processes(tasks: Sequence[GameTask], workers: int, play: Callable[[GameTask], GameResult]
               ) -> Iterator[GameResult]:
    """Local worker processes, started with ``spawn`` (no inherited threads, locks or connections).

    When a worker dies, the pool is broken and every unfinished game fails with it: those games are then
    played one at a time in a one-process pool, so the game that kills its worker is found and stored as
    an ERROR, and the pool is rebuilt for the rest.
    """
    context = multiprocessing.get_context("spawn")
    remaining = {task.index: task for task in tasks}
    while remaining:
        pool = _pool(workers, context)
        try:
            futures = {pool.submit(play, task): task for task in remaining.values()}
            for future in concurrent.futures.as_completed(futures):
                try:
                    result = future.result()
                except BrokenProcessPool:
                    break
                del remaining[futures[future].index]
                yield result
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        if remaining:
            yield from _one_at_a_time(remaining, context, play)


def _one_at_a_time(remaining: dict[int, GameTask], context: Any, play: Callable[[GameTask], GameResult]
                   ) -> Iterator[GameResult]:
    """Play the unfinished games one by one until one kills its worker (stored as an ERROR), or all are done."""
    pool = _pool(1, context)
    try:
        for index in sorted(remaining):
            task = remaining[index]
            try:
                result = pool.submit(play, task).result()
            except BrokenProcessPool as exc:
                result = failed(task, f"the worker process playing this game died ({exc})")
                del remaining[index]
                yield result
                return
            del remaining[index]
            yield result
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _pool(workers: int, context: Any) -> concurrent.futures.ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes that die with this one."""
    return concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=context,
                                                  initializer=die_with_parent, initargs=(os.getpid(),))


def die_with_parent(parent: int) -> None:
    """In a worker: be killed when the arena process dies (Linux ``PR_SET_PDEATHSIG``), or leave if it is gone.

    Without this a killed arena run would leave its workers waiting for work forever.
    """
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


def _ray(tasks: Sequence[GameTask], address: str | None, play: Callable[[GameTask], GameResult]
         ) -> Iterator[GameResult]:
    """Ray tasks on the cluster at ``address``, or on a local instance with :data:`LOCAL_RAY_CPUS` CPUs."""
    import ray

    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
        else:
            _start_local_ray(ray)
    try:
        remote = ray.remote(num_cpus=1, max_retries=0)(play)
        pending = {remote.remote(task): task for task in tasks}
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            task = pending.pop(done[0])
            try:
                result = ray.get(done[0])
            except ray.exceptions.RayError as exc:  # the worker died, or the task could not run
                result = failed(task, f"the Ray task playing this game failed: {str(exc).splitlines()[0]}")
            yield result
    finally:
        if started:
            ray.shutdown()


def _start_local_ray(ray: Any) -> None:
    """A local Ray instance whose workers import this very copy of cardtable (a checkout or a package).

    The workers inherit the environment of the processes ``ray.init`` starts, so ``PYTHONPATH`` is set
    for the duration of the call (cheaper than a per-job ``runtime_env``) and restored afterwards.
    """
    source = str(Path(__file__).resolve().parents[2])
    before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (source, before) if p)
    try:
        ray.init(num_cpus=LOCAL_RAY_CPUS, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.WARNING)
    finally:
        if before is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = before
