"""Prometheus metrics at ``GET /metrics`` (prometheus-client), one registry per app.

Tables by status, sockets and bot sessions (gauges); actions stored, commits, writes per commit and commit
seconds (counters and a histogram); errors by kind; the review queue (its places in use, its size, the pool's
workers, the decisions left to score; reviews ended by outcome and busy refusals by reason).
The list with each metric's meaning is in docs/hosting.md (*Metrics*).

Gauges are read when scraped, so they cost nothing between scrapes; counters are bumped by small hooks
(the store writer's ``on_commit``, the manager's ``on_change``, the app's refusal handler).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi import FastAPI
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from cardtable.server.live import LiveTable
from cardtable.server.manager import TableManager
from cardtable.server.statuses import CLOSED, ERROR

#: Commit times worth telling apart: an fsync on a fast disk (~1 ms) up to a stalled database.
COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Metrics:
    """This app's registry, its counters and the hooks that bump them."""

    def __init__(self, manager: TableManager, app: FastAPI) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.actions = Counter("cardtable_actions", "Actions stored.", registry=self.registry)
        self.commits = Counter("cardtable_commits", "Transactions committed by the store writer.",
                               registry=self.registry)
        self.commit_writes = Counter("cardtable_commit_writes", "Writes held by those transactions.",
                                     registry=self.registry)
        self.commit_seconds = Histogram("cardtable_commit_seconds", "Seconds each store commit took.",
                                        buckets=COMMIT_BUCKETS, registry=self.registry)
        self.errors = Counter("cardtable_errors", "Requests refused and tables stopped in error, by kind.",
                              ["kind"], registry=self.registry)
        self.registry.register(_Gauges(manager, app))
        self.registry.register(_ReviewQueue(app))
        self._versions: dict[str, int] = {}

    def on_commit(self, seconds: float, writes: int) -> None:
        """The store writer committed ``writes`` writes in ``seconds`` (called from its thread)."""
        self.commits.inc()
        self.commit_writes.inc(writes)
        self.commit_seconds.observe(seconds)

    def on_change(self, table: LiveTable) -> None:
        """A table changed: count the actions stored since its last change, and its stop if in error."""
        seen = self._versions.get(table.id)
        if seen is not None and table.version > seen:
            self.actions.inc(table.version - seen)
        if table.status in CLOSED:
            if seen is not None and table.status == ERROR:
                self.errors.labels("table_error").inc()  # once: the table is forgotten here now
            self._versions.pop(table.id, None)
        else:
            self._versions[table.id] = table.version

    def refused(self, kind: str) -> None:
        """A request was refused (``kind``: its code, or ``http_<status>``)."""
        self.errors.labels(kind).inc()


class _Gauges(Collector):
    """Tables by status, sockets and bot sessions, read from memory at each scrape."""

    def __init__(self, manager: TableManager, app: FastAPI) -> None:
        self.manager = manager
        self.app = app

    def collect(self) -> Iterator[Any]:
        """The gauges as they are now."""
        tables = GaugeMetricFamily("cardtable_tables", "Tables in this process's memory by status.",
                                   labels=["status"])
        counts: dict[str, int] = {}
        sockets = 0
        for table in list(self.manager.tables.values()):
            counts[table.status] = counts.get(table.status, 0) + 1
            sockets += len(table.connections)
        for status in ("waiting", "playing", "paused", "error"):
            counts.setdefault(status, 0)
        for status, count in sorted(counts.items()):
            tables.add_metric([status], count)
        yield tables
        yield GaugeMetricFamily("cardtable_sockets", "Open table WebSockets.", value=sockets)
        hub = getattr(self.app.state, "bots", None)
        sessions = len(getattr(hub, "sessions", {}) or {})
        yield GaugeMetricFamily("cardtable_bot_sessions", "Bots connected over the Bot API.", value=sessions)


class _ReviewQueue(Collector):
    """The review queue (``app.state.reviews``), read at each scrape: its counts live in ``Reviews``."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app

    def collect(self) -> Iterator[Any]:
        """The queue's gauges and counters as they are now (nothing when the app has no reviews)."""
        reviews = getattr(self.app.state, "reviews", None)
        if reviews is None:
            return
        jobs = list(reviews.jobs.values())
        yield GaugeMetricFamily("cardtable_reviews_in_progress",
                                "Reviews being computed by this process (each holds a place in the queue).",
                                value=len(jobs))
        yield GaugeMetricFamily("cardtable_reviews_queue_size",
                                "Places in the review queue: reviews computed at once before 503 busy.",
                                value=reviews.queue)
        yield GaugeMetricFamily("cardtable_reviews_workers", "Worker processes of the review pool.",
                                value=reviews.workers)
        yield GaugeMetricFamily("cardtable_reviews_decisions_pending",
                                "Decisions the reviews in progress have still to score.",
                                value=sum(job.total - job.done for job in jobs))
        yield _counter("cardtable_reviews", "Reviews ended in this process by outcome.", "outcome",
                       reviews.outcomes, ("done", "failed", "cancelled"))
        yield _counter("cardtable_reviews_busy", "Reviews refused 503 busy, by reason.", "reason",
                       reviews.busy, ("queue_full", "same_game"))


def _counter(name: str, documentation: str, label: str, counts: dict[str, int],
             known: tuple[str, ...]) -> CounterMetricFamily:
    """A counter family with a sample for each known label value (0 until counted) and any other counted."""
    family = CounterMetricFamily(name, documentation, labels=[label])
    for value in sorted(set(known) | set(counts)):
        family.add_metric([value], counts.get(value, 0))
    return family


def install(app: FastAPI, manager: TableManager) -> Metrics:
    """Add ``GET /metrics`` and the hooks that feed it; the metrics object (also ``app.state.metrics``)."""
    metrics = Metrics(manager, app)
    app.state.metrics = metrics
    manager.writer.on_commit = metrics.on_commit
    manager.on_change.append(metrics.on_change)

    @app.get("/metrics", include_in_schema=False)
    async def scrape() -> Response:
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    return metrics
