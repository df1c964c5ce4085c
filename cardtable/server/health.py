"""``/healthz`` (the process answers) and ``/readyz`` (it can serve: database, schema, leases and, with several
processes on PostgreSQL, the channel to the others), for a host's probes (systemd, a load balancer, Kubernetes).

``/healthz`` never touches the database: a slow database must not get a live process restarted.
``/readyz`` answers 200 only when every check passes, else 503, with each check's verdict in the body.
"""

from __future__ import annotations

import asyncio
import functools
import time
from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from sqlalchemy import text
from sqlalchemy.engine import Engine

from cardtable.server.limits import excerpt
from cardtable.server.manager import TableManager

#: Seconds the database has to answer a readiness probe.
DATABASE_TIMEOUT = 5.0


def install(app: FastAPI, manager: TableManager) -> None:
    """Add ``GET /healthz`` and ``GET /readyz``."""

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        return {"status": "alive"}

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        checks = await readiness(manager, getattr(app.state, "notifier", None))
        ready = all(check["ok"] for check in checks.values())
        return JSONResponse({"status": "ready" if ready else "not ready", "checks": checks},
                            status_code=200 if ready else 503)


async def readiness(manager: TableManager, notifier: Any = None) -> dict[str, dict[str, Any]]:
    """Each check's verdict: the database answers, its schema is the newest, the leases are being renewed; with
    several processes on PostgreSQL (``notifier``), this one hears the others."""
    try:
        revision, newest = await asyncio.wait_for(asyncio.to_thread(_revisions, manager.store.engine),
                                                  DATABASE_TIMEOUT)
    except Exception as exc:  # unreachable, refused, timed out: not ready, and why
        reason = f"no answer within {DATABASE_TIMEOUT:g}s" if isinstance(exc, TimeoutError) else str(exc)
        database = {"ok": False, "detail": excerpt(reason.splitlines()[0] if reason else type(exc).__name__, 200)}
        schema = {"ok": False, "detail": "the database did not answer"}
    else:
        database = {"ok": True}
        schema = {"ok": revision == newest, "revision": revision, "newest": newest}
    age = time.monotonic() - manager.leases.renewed_at
    leases = {"ok": age <= manager.lease_ttl, "renewed_seconds_ago": round(age, 1), "ttl": manager.lease_ttl}
    checks: dict[str, dict[str, Any]] = {"database": database, "schema": schema, "leases": leases}
    if notifier is not None:
        heard: dict[str, Any] = {"ok": notifier.listening, "reconnections": notifier.reconnections}
        if not notifier.listening:
            heard["detail"] = notifier.failure
        checks["notifications"] = heard
    return checks


def _revisions(engine: Engine) -> tuple[str | None, str]:
    """The database's schema revision and the newest one (raises if the database is down)."""
    from cardtable.store.migrate import current

    with engine.connect() as connection:
        connection.execute(text("SELECT 1"))
    return current(engine), _newest()


@functools.cache
def _newest() -> str:
    """The newest revision of this install's migrations (read once)."""
    from cardtable.store.migrate import head

    return head()
