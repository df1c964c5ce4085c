"""Stored reviews: the migration from the schema before, claims shared between processes, stale claims."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import create_engine, inspect

from cardtable.store.migrate import current, head, upgrade
from cardtable.store.reviews import STALE_SECONDS, ReviewStore


def _store(tmp_path: Path) -> ReviewStore:
    engine = create_engine(f"sqlite:///{tmp_path / 'r.db'}")
    upgrade(engine)
    return ReviewStore(engine)


def test_a_database_of_the_previous_schema_is_upgraded_with_the_reviews_table(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'old.db'}")
    upgrade(engine, "0009")
    assert "reviews" not in inspect(engine).get_table_names()
    upgrade(engine)
    assert current(engine) == head() and "reviews" in inspect(engine).get_table_names()
    store = ReviewStore(engine)
    assert store.claim("t1", 0, 24, "p1").state == "mine"


def test_one_process_computes_a_review_and_the_others_share_it(tmp_path: Path) -> None:
    store = _store(tmp_path)
    assert store.get("t1", 0, 24) is None
    assert store.claim("t1", 0, 24, "p1").state == "mine"
    assert store.claim("t1", 0, 24, "p2").state == "elsewhere"
    assert store.get("t1", 0, 24) is None  # a claim is not a review
    store.save("t1", 0, 24, "p1", {"decisions": []})
    assert store.get("t1", 0, 24) == {"decisions": []}
    found = store.claim("t1", 0, 24, "p2")
    assert found.state == "done" and found.body == {"decisions": []}
    assert store.claim("t1", 1, 24, "p2").state == "mine"  # another seat is another review


def test_a_failed_review_stores_nothing_and_a_stale_claim_is_taken_over(tmp_path: Path) -> None:
    store = _store(tmp_path)
    store.claim("t1", 0, 24, "p1")
    store.release("t1", 0, 24, "p1")
    assert store.get("t1", 0, 24) is None and store.claim("t1", 0, 24, "p2").state == "mine"
    later = datetime.now(UTC) + timedelta(seconds=STALE_SECONDS + 1)
    assert store.claim("t1", 0, 24, "p3").state == "elsewhere"
    assert store.claim("t1", 0, 24, "p3", now=later).state == "mine"


def test_a_review_stored_by_an_older_method_is_worked_out_again(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'r.db'}")
    upgrade(engine)
    old, new = ReviewStore(engine), ReviewStore(engine, method=2)
    old.claim("t1", 0, 24, "p1")
    old.save("t1", 0, 24, "p1", {"method": 1, "decisions": []})
    assert old.get("t1", 0, 24) == {"method": 1, "decisions": []}  # a store that asks for no method takes any
    assert new.get("t1", 0, 24) is None
    assert new.claim("t1", 0, 24, "p2").state == "mine"  # the old body is replaced, not served
    assert new.claim("t1", 0, 24, "p3").state == "elsewhere" and new.get("t1", 0, 24) is None
    new.save("t1", 0, 24, "p2", {"method": 2, "decisions": []})
    found = new.claim("t1", 0, 24, "p3")
    assert found.state == "done" and found.body == {"method": 2, "decisions": []}
