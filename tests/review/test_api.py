"""The review API: refused during play, computed in the pool off the event loop, stored and shared, busy when full."""

from __future__ import annotations

import concurrent.futures
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import cardtable
from cardtable.core.record import GameRecord
from cardtable.review import review_record
from cardtable.server import create_app
from cardtable.server.reviews import Reviews
from tests.server.conftest import create, play_alone, start

GAME = cardtable.load_game("durak")


class GatedPool(concurrent.futures.ThreadPoolExecutor):
    """A one-thread pool whose tasks wait until ``gate`` is set (a review held in progress, no clock involved)."""

    def __init__(self) -> None:
        super().__init__(1)
        self.gate = threading.Event()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        def gated() -> Any:
            assert self.gate.wait(120), "the test never opened the gate"
            return fn(*args, **kwargs)
        return super().submit(gated)


def _app(db_url: str, pool: concurrent.futures.Executor | None = None, queue: int = 4) -> Any:
    app = create_app(db_url, bot_delay=0)
    reviews: Reviews = app.state.reviews
    reviews.queue = queue
    if pool is not None:  # the test's pool in place of the process pool
        reviews.make_executor = lambda: pool
    return app


def _finished_table(client: TestClient, seed: int = 7) -> str:
    created = create(client, "durak", ["human", "bot"], bot="heuristic", seed=seed)
    start(client, created["table_id"], created["token"])
    with client.websocket_connect(f"/ws/tables/{created['table_id']}?token={created['token']}") as ws:
        assert play_alone(ws)[-1]["status"] == "finished"
    return str(created["table_id"])


def _wait_done(client: TestClient, url: str) -> dict[str, Any]:
    """Poll until the review is stored (a hang guard of 120 s, not a timed assertion)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        response = client.get(url)
        if response.status_code == 200:
            return dict(response.json())
        assert response.status_code == 202, response.text
        time.sleep(0.05)
    raise AssertionError("the review never finished")


@pytest.fixture
def pool() -> Iterator[GatedPool]:
    gated = GatedPool()
    yield gated
    gated.gate.set()
    gated.shutdown(wait=True)


def test_a_review_during_play_is_refused_and_nothing_is_stored(db_url: str, pool: GatedPool) -> None:
    with TestClient(_app(db_url, pool)) as client:
        created = create(client, "durak", ["human", "bot"], bot="heuristic")
        start(client, created["table_id"], created["token"])
        url = f"/api/tables/{created['table_id']}/review?seat=0&budget=4"
        refused = client.post(url)
        assert refused.status_code == 409 and "finished" in refused.json()["detail"]
        assert client.get(url).status_code == 409
        assert not client.app.state.reviews.jobs  # type: ignore[attr-defined]


def test_a_finished_games_review_is_computed_stored_and_shared_with_another_process(db_url: str,
                                                                                     pool: GatedPool) -> None:
    with TestClient(_app(db_url, pool)) as client:
        table_id = _finished_table(client)
        url = f"/api/tables/{table_id}/review?seat=0&budget=4"
        assert client.get(url).status_code == 404  # not asked for yet
        running = client.post(url)
        assert running.status_code == 202 and running.json()["status"] == "running"
        assert running.json()["done"] == 0 and running.json()["total"] > 0
        assert client.post(url).status_code == 202  # asking again joins the same job
        pool.gate.set()
        done = _wait_done(client, url)
        record = GameRecord.from_json(client.get(f"/api/tables/{table_id}/record").json(), GAME)
    expected = review_record(GAME, record, 0, budget=4, seed=0).to_json(GAME)
    assert done["status"] == "done" and done["review"] == {**expected, "table_id": table_id}
    with TestClient(_app(db_url, pool)) as other:  # another process on the same database
        again = other.post(url)
        assert again.status_code == 200 and again.json()["review"] == done["review"]
        assert not other.app.state.reviews.jobs  # type: ignore[attr-defined]  # nothing recomputed


def test_a_full_queue_and_a_second_seat_of_the_same_game_are_busy_try_again(db_url: str, pool: GatedPool) -> None:
    with TestClient(_app(db_url, pool, queue=1)) as client:
        first, second = _finished_table(client, seed=7), _finished_table(client, seed=8)
        assert client.post(f"/api/tables/{first}/review?seat=0&budget=4").status_code == 202
        busy = client.post(f"/api/tables/{first}/review?seat=1&budget=4")
        assert busy.status_code == 503 and "try again" in busy.json()["detail"]
        full = client.post(f"/api/tables/{second}/review?seat=0&budget=4")
        assert full.status_code == 503 and "busy" in full.json()["detail"]
        assert client.get(f"/api/tables/{second}/review?seat=0&budget=4").status_code == 404  # nothing started
        assert client.get("/api/games").status_code == 200  # the server answers meanwhile
        pool.gate.set()
        _wait_done(client, f"/api/tables/{first}/review?seat=0&budget=4")
        assert client.post(f"/api/tables/{second}/review?seat=0&budget=4").status_code == 202


@pytest.mark.parametrize(("query", "status", "needle"), [
    ("seat=2&budget=4", 400, "seat 2 is not at this table"),
    ("seat=0&budget=1", 400, "budget"),
    ("seat=0&budget=100000", 400, "budget"),
    ("seat=-1", 422, "seat"),
    ("seat=x", 422, "seat"),
])
def test_a_seat_off_the_table_or_a_budget_out_of_range_is_a_4xx_with_a_message(
        db_url: str, pool: GatedPool, query: str, status: int, needle: str) -> None:
    with TestClient(_app(db_url, pool)) as client:
        table_id = _finished_table(client)
        refused = client.post(f"/api/tables/{table_id}/review?{query}")
        assert refused.status_code == status and needle in refused.json()["detail"]
        assert not client.app.state.reviews.jobs  # type: ignore[attr-defined]
        assert client.post("/api/tables/nosuchtable/review").status_code == 404


def test_the_process_pool_computes_a_review(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        table_id = _finished_table(client)
        url = f"/api/tables/{table_id}/review?seat=1&budget=2"
        assert client.post(url).status_code == 202
        done = _wait_done(client, url)
        assert done["review"]["seat"] == 1 and done["review"]["decisions"]


def test_a_review_cut_short_by_shutdown_stores_nothing_and_another_process_takes_it_up(db_url: str) -> None:
    stuck = GatedPool()
    try:
        with TestClient(_app(db_url, stuck)) as client:
            table_id = _finished_table(client)
            url = f"/api/tables/{table_id}/review?seat=0&budget=4"
            assert client.post(url).status_code == 202  # held at the gate until the server stops
    finally:
        stuck.gate.set()
        stuck.shutdown(wait=True)
    later = GatedPool()
    try:
        with TestClient(_app(db_url, later)) as other:
            assert other.get(url).status_code == 404  # nothing stored, no claim left behind
            assert other.post(url).status_code == 202  # so this process computes it
            later.gate.set()
            assert _wait_done(other, url)["review"]["seat"] == 0
    finally:
        later.gate.set()
        later.shutdown(wait=True)
