"""``GET /metrics``: Prometheus text with the tables by status, sockets, bot sessions, actions, commits, commit
latency, errors by kind and the review queue, each moving with what it counts."""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from cardtable.server import create_app
from tests.review.test_api import GatedPool
from tests.server.conftest import create, play_alone, start

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(client: TestClient) -> Samples:
    """Every sample of ``/metrics`` by (name, labels)."""
    answer = client.get("/metrics")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain")
    return parse(answer.text)


def parse(text: str) -> Samples:
    """Every sample of a Prometheus text by (name, labels)."""
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def test_metrics_start_at_zero_with_every_family(client: TestClient) -> None:
    samples = scrape(client)
    assert samples[("cardtable_tables", (("status", "playing"),))] == 0
    assert samples[("cardtable_sockets", ())] == 0 and samples[("cardtable_bot_sessions", ())] == 0
    assert samples[("cardtable_actions_total", ())] == 0
    assert ("cardtable_commit_seconds_count", ()) in samples


def test_a_game_moves_the_action_and_commit_counters(client: TestClient) -> None:
    before = scrape(client)
    created = create(client, "durak", ["human", "bot"])
    start(client, created["table_id"], created["token"])
    with client.websocket_connect(f"/ws/tables/{created['table_id']}?token={created['token']}") as ws:
        play_alone(ws)
    after = scrape(client)
    record = client.get(f"/api/tables/{created['table_id']}/record").json()
    assert after[("cardtable_actions_total", ())] - before[("cardtable_actions_total", ())] == len(record["actions"])
    commits = after[("cardtable_commits_total", ())] - before[("cardtable_commits_total", ())]
    assert commits >= 1
    assert after[("cardtable_commit_seconds_count", ())] - before[("cardtable_commit_seconds_count", ())] == commits
    assert after[("cardtable_commit_writes_total", ())] - before[("cardtable_commit_writes_total", ())] >= commits


def test_refusals_are_counted_by_kind(client: TestClient) -> None:
    client.get("/api/tables/nosuchtable")
    client.post("/api/tables", json={"game": 7})
    samples = scrape(client)
    kinds = {dict(labels)["kind"]: value for (name, labels), value in samples.items()
             if name == "cardtable_errors_total"}
    assert kinds.get("invalid_request") == 1
    assert sum(kinds.values()) == 2, kinds


def test_open_sockets_are_counted(client: TestClient) -> None:
    table = create(client, "crazy_eights", ["human", "bot"])
    with client.websocket_connect(f"/ws/tables/{table['table_id']}?token={table['token']}") as socket:
        socket.receive_json()
        assert scrape(client)[("cardtable_sockets", ())] == 1
        assert scrape(client)[("cardtable_tables", (("status", "waiting"),))] == 1


# The review queue.


def _review_app(db_url: str, pool: concurrent.futures.Executor, *, queue: int) -> Any:
    """An app whose reviews run in the test's pool with ``queue`` places."""
    app = create_app(db_url, bot_delay=0)
    app.state.reviews.queue = queue
    app.state.reviews.make_executor = lambda: pool
    return app


def _finished(client: TestClient, seed: int) -> str:
    created = create(client, "durak", ["human", "bot"], bot="heuristic", seed=seed)
    start(client, created["table_id"], created["token"])
    with client.websocket_connect(f"/ws/tables/{created['table_id']}?token={created['token']}") as ws:
        assert play_alone(ws)[-1]["status"] == "finished"
    return str(created["table_id"])


def _scrape_until(client: TestClient, ready: Callable[[Samples], bool]) -> Samples:
    """Scrape until ``ready`` holds (a hang guard of 120 s, not a timed assertion)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        samples = scrape(client)
        if ready(samples):
            return samples
        time.sleep(0.05)
    raise AssertionError("the review queue never reached the state waited for")


def _reviews(samples: Samples, outcome: str) -> float:
    return samples[("cardtable_reviews_total", (("outcome", outcome),))]


def _busy(samples: Samples, reason: str) -> float:
    return samples[("cardtable_reviews_busy_total", (("reason", reason),))]


def test_the_review_queue_starts_empty_with_its_size_and_workers(client: TestClient) -> None:
    samples = scrape(client)
    assert samples[("cardtable_reviews_in_progress", ())] == 0
    assert samples[("cardtable_reviews_queue_size", ())] == 4 and samples[("cardtable_reviews_workers", ())] == 1
    assert samples[("cardtable_reviews_decisions_pending", ())] == 0
    assert [_reviews(samples, outcome) for outcome in ("done", "failed", "cancelled")] == [0, 0, 0]
    assert _busy(samples, "queue_full") == 0 and _busy(samples, "same_game") == 0


def test_a_review_held_in_the_queue_then_done_and_the_busy_refusals_are_counted(db_url: str) -> None:
    pool = GatedPool()
    try:
        with TestClient(_review_app(db_url, pool, queue=1)) as client:
            first, second = _finished(client, seed=7), _finished(client, seed=8)
            running = client.post(f"/api/tables/{first}/review?seat=0&budget=4").json()
            held = scrape(client)
            assert held[("cardtable_reviews_in_progress", ())] == 1
            assert held[("cardtable_reviews_decisions_pending", ())] == running["total"] > 0
            assert client.post(f"/api/tables/{first}/review?seat=1&budget=4").status_code == 503
            assert client.post(f"/api/tables/{second}/review?seat=0&budget=4").status_code == 503
            refused = scrape(client)
            assert _busy(refused, "same_game") == 1 and _busy(refused, "queue_full") == 1
            assert refused[("cardtable_reviews_in_progress", ())] == 1 and _reviews(refused, "done") == 0
            pool.gate.set()
            done = _scrape_until(client, lambda samples: _reviews(samples, "done") == 1)
            assert done[("cardtable_reviews_in_progress", ())] == 0
            assert done[("cardtable_reviews_decisions_pending", ())] == 0 and _reviews(done, "failed") == 0
            assert client.get(f"/api/tables/{first}/review?seat=0&budget=4").status_code == 200
    finally:
        pool.gate.set()
        pool.shutdown(wait=True)


class FailingPool(concurrent.futures.ThreadPoolExecutor):
    """A pool whose every task raises (a worker that died mid-review)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        def broken() -> Any:
            raise RuntimeError("the worker died")
        return super().submit(broken)


def test_a_failed_review_and_one_cut_short_by_shutdown_are_counted_by_outcome(db_url: str) -> None:
    failing = FailingPool(1)
    try:
        with TestClient(_review_app(db_url, failing, queue=4)) as client:
            table_id = _finished(client, seed=7)
            assert client.post(f"/api/tables/{table_id}/review?seat=0&budget=4").status_code == 202
            failed = _scrape_until(client, lambda samples: _reviews(samples, "failed") == 1)
            assert _reviews(failed, "done") == 0 and failed[("cardtable_reviews_in_progress", ())] == 0
    finally:
        failing.shutdown(wait=True)
    stuck = GatedPool()
    try:
        app = _review_app(db_url, stuck, queue=4)
        with TestClient(app) as client:
            assert client.post(f"/api/tables/{table_id}/review?seat=0&budget=4").status_code == 202
        stopped = parse(generate_latest(app.state.metrics.registry).decode())  # the server has shut down
        assert _reviews(stopped, "cancelled") == 1 and _reviews(stopped, "done") == 0
        assert stopped[("cardtable_reviews_in_progress", ())] == 0
    finally:
        stuck.gate.set()
        stuck.shutdown(wait=True)
