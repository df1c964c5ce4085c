"""Where tournament games run: in this process, in local worker processes, or as Ray tasks.

Every backend plays the same :class:`GameTask` objects with the same function, so results only differ in
the order they arrive; the tournament stores them by game number and computes standings in game order.
"""

from __future__ import annotations

import concurrent.futures
import logging
import multiprocessing
import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from cardtable.arena.play import GameResult, GameTask, play_game

BACKENDS = ("local", "ray")
#: CPUs of the Ray instance started when no ``--ray-address`` is given.
LOCAL_RAY_CPUS = 2


def run_tasks(tasks: Sequence[GameTask], *, workers: int = 1, backend: str = "local",
              ray_address: str | None = None) -> Iterator[GameResult]:
    """Play every task; yield each result as soon as it is known (completion order)."""
    if backend == "ray":
        yield from _ray(tasks, ray_address)
    elif workers <= 1:
        for task in tasks:
            yield play_game(task)
    else:
        yield from _processes(tasks, workers)


def _processes(tasks: Sequence[GameTask], workers: int) -> Iterator[GameResult]:
    """Local worker processes, started with ``spawn`` (no inherited threads or locks)."""
    context = multiprocessing.get_context("spawn")
    pool = concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=context)
    try:
        futures = [pool.submit(play_game, task) for task in tasks]
        for future in concurrent.futures.as_completed(futures):
            yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _ray(tasks: Sequence[GameTask], address: str | None) -> Iterator[GameResult]:
    """Ray tasks on the cluster at ``address``, or on a local instance with :data:`LOCAL_RAY_CPUS` CPUs."""
    import ray

    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
        else:
            # Local workers import this very copy of cardtable (a checkout or an installed package).
            source = str(Path(__file__).resolve().parents[2])
            path = os.pathsep.join(p for p in (source, os.environ.get("PYTHONPATH", "")) if p)
            ray.init(num_cpus=LOCAL_RAY_CPUS, include_dashboard=False, log_to_driver=False,
                     logging_level=logging.WARNING, runtime_env={"env_vars": {"PYTHONPATH": path}})
    try:
        remote = ray.remote(num_cpus=1, max_retries=0)(play_game)
        pending = [remote.remote(task) for task in tasks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        if started:
            ray.shutdown()
