"""The store writer: one thread that commits the server's writes in batches, off the event loop.

``await writer.write(work)`` hands ``work(connection)`` to the thread and returns its result once the
transaction holding it has committed (or raises what made it fail). Writes queued while a commit is under
way go into the next transaction together, so a busy server pays one commit (one fsync) for many moves. If a
batch fails, its writes are retried one transaction each, so one bad write never fails the others.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy.engine import Connection

from cardtable.store import Store

log = logging.getLogger("cardtable.server")
T = TypeVar("T")
#: The most writes committed together.
MAX_BATCH = 256


@dataclass
class _Job:
    work: Callable[[Connection], Any]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]


class StoreWriter:
    """A thread committing queued writes in batches; results go back to the awaiting coroutines."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self.commits = 0
        self.writes = 0
        #: Told ``(seconds, writes)`` after each commit, on the writer thread (the server's metrics).
        self.on_commit: Callable[[float, int], None] | None = None

    def start(self) -> None:
        """Start the thread (idempotent)."""
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="cardtable-writer", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Commit what is queued, then end the thread."""
        if self._thread is not None and self._thread.is_alive():
            self._queue.put(None)
            self._thread.join(timeout=30)
        self._thread = None

    async def write(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in a transaction of the writer thread; its result once committed."""
        self.start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.put(_Job(work, loop, future))
        return await future

    def _run(self) -> None:
        stopping = False
        while not stopping:
            first = self._queue.get()
            if first is None:
                return
            jobs = [first]
            while len(jobs) < MAX_BATCH:
                try:
                    job = self._queue.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    stopping = True
                    break
                jobs.append(job)
            self._commit(jobs)

    def _commit(self, jobs: list[_Job]) -> None:
        began = time.perf_counter()
        try:
            results = self.store.transaction(lambda c: [job.work(c) for job in jobs])
        except Exception as exc:
            if len(jobs) == 1:
                _settle(jobs[0], None, exc)
                return
            for job in jobs:  # one at a time, so that only the failing ones fail
                self._commit([job])
            return
        self.commits += 1
        self.writes += len(jobs)
        if self.on_commit is not None:
            self.on_commit(time.perf_counter() - began, len(jobs))
        for job, result in zip(jobs, results):
            _settle(job, result, None)


def _settle(job: _Job, result: Any, error: BaseException | None) -> None:
    """Hand a result or an error back to the event loop that waits for it."""
    def settle() -> None:
        if job.future.done():
            return
        if error is not None:
            job.future.set_exception(error)
        else:
            job.future.set_result(result)
    try:
        job.loop.call_soon_threadsafe(settle)
    except RuntimeError:  # the loop is closed: nobody is waiting any more
        log.debug("writer result dropped: the event loop is closed")
