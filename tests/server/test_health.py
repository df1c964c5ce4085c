"""``/healthz`` says the process answers; ``/readyz`` says it can serve, and which check fails when it cannot."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient
from sqlalchemy import text

from cardtable.server import create_app
from cardtable.store.migrate import head


def test_healthz_answers_alive(client: TestClient) -> None:
    answer = client.get("/healthz")
    assert answer.status_code == 200 and answer.json() == {"status": "alive"}


def test_readyz_is_ready_on_a_migrated_database_with_fresh_leases(client: TestClient) -> None:
    answer = client.get("/readyz")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["status"] == "ready"
    assert body["checks"]["schema"] == {"ok": True, "revision": head(), "newest": head()}
    assert body["checks"]["database"] == {"ok": True} and body["checks"]["leases"]["ok"] is True


def test_readyz_is_503_naming_a_schema_behind_the_code(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        engine = client.app.state.manager.store.engine  # type: ignore[attr-defined]
        with engine.begin() as connection:
            connection.execute(text("UPDATE alembic_version SET version_num = '0001'"))
        answer = client.get("/readyz")
        assert answer.status_code == 503
        assert answer.json()["checks"]["schema"] == {"ok": False, "revision": "0001", "newest": head()}
        assert client.get("/healthz").status_code == 200  # alive all the same: not a reason to restart


def test_readyz_is_503_when_the_database_does_not_answer(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        store = client.app.state.manager.store  # type: ignore[attr-defined]
        real = store.engine
        from sqlalchemy import create_engine

        store.engine = create_engine("sqlite:////nonexistent-dir/x.db")
        try:
            answer = client.get("/readyz")
        finally:
            store.engine.dispose()
            store.engine = real
        checks = answer.json()["checks"]
        assert answer.status_code == 503 and checks["database"]["ok"] is False and checks["schema"]["ok"] is False
        assert "unable to open database file" in checks["database"]["detail"]
        assert client.get("/readyz").status_code == 200


def test_readyz_is_503_when_leases_were_not_renewed_for_their_lifetime(client: TestClient) -> None:
    manager = client.app.state.manager  # type: ignore[attr-defined]
    manager.leases.renewed_at = time.monotonic() - manager.lease_ttl - 1
    answer = client.get("/readyz")
    assert answer.status_code == 503
    leases = answer.json()["checks"]["leases"]
    assert leases["ok"] is False and leases["renewed_seconds_ago"] > manager.lease_ttl
