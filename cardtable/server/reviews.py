"""Reviews of finished games over REST, computed in a bounded pool of worker processes off the event loop.

``GET /api/tables/{id}/review?seat=N&budget=B`` answers the stored review (200, ``status: done``) or the
progress of its computation (202, ``status: running``, ``done`` of ``total`` decisions); ``POST`` the same
URL starts it when needed and answers the same way. Refusals: 409 while the game is played (a review is
made of a finished game only), 400 for a seat off the table or a budget out of range, 404 for an unknown
table, 503 "busy, try again" when the pool's queue is full or another seat of the same game is under
review (one review per game at a time). A finished table's record is open to everyone (``…/record``),
so its reviews are too: a review shows nothing the record does not.

The reviews are stored (``cardtable.store.reviews``): a claim row makes one process compute a review
while the others wait for its body, so on several processes each review is computed once.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import secrets
import socket
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Query
from fastapi.responses import FileResponse, JSONResponse

from cardtable.review import (
    DEFAULT_BUDGET,
    METHOD,
    MIN_BUDGET,
    ReviewError,
    assemble_json,
    plan_review,
    review_chunk,
    spec_for,
)
from cardtable.server.live import LiveTable, TableError
from cardtable.server.manager import TableManager
from cardtable.store.reviews import ReviewStore

log = logging.getLogger("cardtable.server")
STATIC_DIR = os.path.join(os.path.dirname(__file__), "static")

#: The largest budget the web asks for (the command line goes further).
WEB_MAX_BUDGET = 200
#: Decisions a worker scores per task: the progress a page sees, and how long one task holds a worker.
CHUNK = 6


@dataclass
class Job:
    """A review being computed here: which seat and budget, how far along."""

    seat: int
    budget: int
    total: int
    done: int = 0
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def status(self) -> dict[str, Any]:
        """The progress as JSON."""
        return {"status": "running", "seat": self.seat, "budget": self.budget, "done": self.done,
                "total": self.total}


Executor = Callable[[], concurrent.futures.Executor]


def _process_pool(workers: int) -> Executor:
    """A pool of ``workers`` processes started fresh (spawn: nothing of the server's threads or loop is copied)."""
    return lambda: concurrent.futures.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))


class Reviews:
    """The reviews of one server process: its jobs, its pool, the shared store."""

    def __init__(self, manager: TableManager, *, workers: int = 1, queue: int = 4,
                 executor: Executor | None = None) -> None:
        self.manager = manager
        self.store = ReviewStore(manager.store.engine, METHOD)
        self.queue = queue
        self.workers = workers
        self.jobs: dict[str, Job] = {}
        #: Reviews ended here by outcome (``done``, ``failed``, ``cancelled``) and 503s by reason (for /metrics).
        self.outcomes: Counter[str] = Counter()
        self.busy: Counter[str] = Counter()
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"[:64]
        self.make_executor = executor or _process_pool(workers)
        self._executor: concurrent.futures.Executor | None = None

    async def status(self, table_id: str, seat: int, budget: int, *, start: bool) -> tuple[int, dict[str, Any]]:
        """``(http_status, json)``: the stored review, the progress of its computation, or (``start``) begun."""
        table = await self.manager.find(table_id)
        plan_args = await asyncio.to_thread(self._check, table, seat, budget)
        job = self.jobs.get(table.id)
        if job is not None:
            if (job.seat, job.budget) == (seat, budget):
                return 202, job.status()
            self.busy["same_game"] += 1
            raise TableError(503, f"seat {job.seat} of this game is being reviewed; try again when it is done")
        stored = await asyncio.to_thread(self.store.get, table.id, seat, budget)
        if stored is not None:
            return 200, {"status": "done", "review": stored}
        if not start:
            if await asyncio.to_thread(self.store.is_claimed, table.id, seat, budget):
                return 202, {"status": "running", "seat": seat, "budget": budget, "done": 0, "total": None}
            return 404, {"status": "none", "detail": "this review has not been asked for yet (POST starts it)"}
        if len(self.jobs) >= self.queue:
            self.busy["queue_full"] += 1
            raise TableError(503, "reviews are busy: try again in a minute")
        claim = await asyncio.to_thread(self.store.claim, table.id, seat, budget, self.owner)
        if claim.state == "done":
            return 200, {"status": "done", "review": claim.body}
        if claim.state == "elsewhere":
            return 202, {"status": "running", "seat": seat, "budget": budget, "done": 0, "total": None}
        return 202, self._start(table, seat, budget, plan_args).status()

    def _check(self, table: LiveTable, seat: int, budget: int) -> Any:
        """Refuse a game in play, a game without reviews, a seat off the table, a budget out of range."""
        if table.status != "finished" or table.record is None:
            raise TableError(409, "a review is made once the game is finished, never during play")
        if not MIN_BUDGET <= budget <= WEB_MAX_BUDGET:
            raise TableError(400, f"a review budget is {MIN_BUDGET}–{WEB_MAX_BUDGET} sampled worlds a decision, "
                                  f"not {budget}")
        try:
            spec_for(table.game)
            return plan_review(table.game, table.record, seat, budget)
        except ReviewError as exc:
            raise TableError(400, str(exc)) from None
        except ValueError as exc:  # a game without reviews
            raise TableError(400, str(exc)) from None

    def _start(self, table: LiveTable, seat: int, budget: int, plan: Any) -> Job:
        """Begin computing in the pool, chunk by chunk; the job reports its progress."""
        job = Job(seat, budget, len(plan.steps))
        self.jobs[table.id] = job
        job.task = asyncio.create_task(self._run(table, job, plan))
        return job

    async def _run(self, table: LiveTable, job: Job, plan: Any) -> None:
        """Score every chunk in the pool, assemble, store; on failure release the claim and store nothing."""
        game, record = table.game, table.record
        assert record is not None  # checked: a finished table has its record
        loop = asyncio.get_running_loop()
        outcome = "cancelled"  # unless it ends otherwise: the server is shutting down
        try:
            if self._executor is None:
                self._executor = self.make_executor()
            decisions: list[dict[str, Any]] = []
            steps = list(plan.steps)
            for i in range(0, len(steps), CHUNK):
                part = await loop.run_in_executor(self._executor, review_chunk, game.info.name, record.to_json(),
                                                  job.seat, steps[i:i + CHUNK], job.budget, 0)
                decisions.extend(part)
                job.done = len(decisions)
            body = assemble_json(game, spec_for(game), job.seat, job.budget, 0, decisions, plan.scores, plan.forced)
            body["table_id"] = table.id
            await asyncio.to_thread(self.store.save, table.id, job.seat, job.budget, self.owner, body)
            outcome = "done"
        except Exception:
            outcome = "failed"
            log.exception("the review of table %s seat %d failed; nothing stored", table.id, job.seat)
            await asyncio.to_thread(self.store.release, table.id, job.seat, job.budget, self.owner)
        finally:
            self.jobs.pop(table.id, None)
            self.outcomes[outcome] += 1

    async def close(self) -> None:
        """Stop the jobs and the pool (the server is shutting down); their claims are released."""
        for table_id, job in list(self.jobs.items()):
            if job.task is not None:
                job.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await job.task
            await asyncio.to_thread(self.store.release, table_id, job.seat, job.budget, self.owner)
        self.jobs.clear()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


def install(app: FastAPI, manager: TableManager, *, workers: int = 1, queue: int = 4,
            executor: Executor | None = None) -> Reviews:
    """Add the review API and page; the ``Reviews`` (``app.state.reviews``) to close at shutdown."""
    reviews = Reviews(manager, workers=workers, queue=queue, executor=executor)
    app.state.reviews = reviews

    @app.get("/api/tables/{table_id}/review")
    async def get_review(table_id: str, seat: int = Query(0, ge=0, lt=64),
                         budget: int = Query(DEFAULT_BUDGET)) -> JSONResponse:
        status, body = await reviews.status(table_id, seat, budget, start=False)
        return JSONResponse(body, status_code=status)

    @app.post("/api/tables/{table_id}/review")
    async def start_review(table_id: str, seat: int = Query(0, ge=0, lt=64),
                           budget: int = Query(DEFAULT_BUDGET)) -> JSONResponse:
        status, body = await reviews.status(table_id, seat, budget, start=True)
        return JSONResponse(body, status_code=status)

    @app.get("/review.html", include_in_schema=False)
    async def review_page() -> FileResponse:
        return FileResponse(os.path.join(STATIC_DIR, "review.html"), media_type="text/html")

    return reviews
