"""The overhead measurement the benchmarks call: it runs the same decisions three ways and reports each."""

from __future__ import annotations

import cardtable
from cardtable.arena.overhead import decisions, measure


def test_decisions_are_what_seats_meet() -> None:
    game = cardtable.load_game("durak")
    sample = decisions(game, 30, 2)
    assert len(sample) == 30
    assert all(legal and observation.seat is not None for observation, legal in sample)


def test_measure_reports_wall_and_cpu_per_decision_for_each_way() -> None:
    result = measure("durak", count=30, rounds=1)
    for key in ("wall_us", "cpu_us"):
        assert set(result[key]) == {"in_process", "worker_process", "external"}
        assert all(value > 0 for value in result[key].values())
    difference = result["wall_us"]["external"] - result["wall_us"]["in_process"]
    assert abs(result["external_overhead_wall_us"] - difference) <= 0.2
    assert result["start_ms"] > 0
