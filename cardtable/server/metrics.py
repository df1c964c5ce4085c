"""Prometheus metrics at ``GET /metrics`` (prometheus-client), one registry per app.

Tables by status, sockets and bot sessions (gauges); actions stored, commits, writes per commit and commit
seconds (counters and a histogram); errors by kind. The list with each metric's meaning is in
docs/hosting.md (*Metrics*).

Gauges are read when scraped, so they cost nothing between scrapes; counters are bumped by small hooks
(the store writer's ``on_commit``, the manager's ``on_change``, the app's refusal handler).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi import FastAPI
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
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
