"""The schedule: every entry holds every seat equally often; duplicate deals repeat across rotations."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import cardtable
from cardtable.arena.entries import Entry
from cardtable.arena.schedule import blocks, derive_seed, plan
from cardtable.arena.tournament import define, run_tournament
from cardtable.core import GameRecord, dumps, replay
from cardtable.store import Store
from cardtable.store.tournaments import TournamentStore

SEATS3 = ((0,), (1,), (2,))
PAIRS = ((0, 2), (1, 3))


def test_three_entries_three_seats_rotate_through_every_seat() -> None:
    games = plan("round-robin", ["a", "b", "c"], SEATS3, 6, seed=1)
    held = Counter((seat, name) for g in games for seat, name in enumerate(g.seating))
    assert set(held.values()) == {2} and len(held) == 9
    assert len({g.seed for g in games}) == 6  # round-robin: a fresh deal every game


def test_more_entries_than_seats_play_every_combination_in_every_rotation() -> None:
    schedule = blocks(["a", "b", "c", "d"], SEATS3)
    assert len(schedule) == 4 and all(len(block) == 3 for block in schedule)
    games = plan("round-robin", ["a", "b", "c", "d"], SEATS3, 12, seed=1)
    assert Counter(name for g in games for name in g.seating) == {"a": 9, "b": 9, "c": 9, "d": 9}
    assert len({frozenset(g.seating) for g in games}) == 4
    held = Counter((seat, name) for g in games for seat, name in enumerate(g.seating))
    assert set(held.values()) == {3}


def test_partnerships_take_whole_pairs_and_swap_them() -> None:
    games = plan("round-robin", ["a", "b"], PAIRS, 4, seed=1)
    assert [g.seating for g in games] == [("a", "b", "a", "b"), ("b", "a", "b", "a")] * 2


def test_duplicate_replays_each_deal_once_per_rotation() -> None:
    games = plan("duplicate", ["a", "b", "c"], SEATS3, 9, seed=5)
    assert [g.deal for g in games] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    for deal in range(3):
        block = [g for g in games if g.deal == deal]
        assert len({g.seed for g in block}) == 1
        assert {g.seating[0] for g in block} == {"a", "b", "c"}  # each entry gets seat 0's cards once
    assert len({g.seed for g in games}) == 3


def test_duplicate_needs_whole_blocks_and_formats_are_checked() -> None:
    with pytest.raises(ValueError, match="multiple of 3"):
        plan("duplicate", ["a", "b", "c"], SEATS3, 4, seed=1)
    with pytest.raises(ValueError, match="unknown format"):
        plan("swiss", ["a", "b"], SEATS3, 4, seed=1)


def test_derived_seeds_are_stable_and_distinct() -> None:
    assert derive_seed(1, "deal", 0) == derive_seed(1, "deal", 0)
    seeds = {derive_seed(1, "deal", d) for d in range(1000)}
    assert len(seeds) == 1000 and all(0 <= s < 2**31 for s in seeds)
    assert derive_seed(2, "deal", 0) != derive_seed(1, "deal", 0)


def _dealt(tmp_path: Path, game_name: str, entries: list[Entry], values: dict[str, object], games: int
           ) -> list[tuple[tuple[str, ...], int, list[bytes]]]:
    """Play a duplicate tournament; per stored game its seating, deal and each seat's view right after the deal."""
    game = cardtable.load_game(game_name)
    tournament = define(game, entries, values=values, fmt="duplicate", games=games, seed=3)
    store = TournamentStore(Store(f"sqlite:///{tmp_path / 'dup.db'}").engine)
    run_tournament(tournament, store)
    out = []
    for stored in store.games(tournament.id):
        assert stored["status"] == "finished", stored["error"]
        state, _ = replay(game, GameRecord.from_json(stored["record"], game), upto=0)
        views = [dumps(game.observe(state, s)) for s in range(len(stored["seating"]))]
        out.append((tuple(stored["seating"]), stored["deal"], views))
    return out


def test_duplicate_deals_are_the_same_deals_across_rotations(tmp_path: Path) -> None:
    entries = [Entry("heuristic", "heuristic"), Entry("random", "random"), Entry("r3", "random")]
    games = _dealt(tmp_path, "crazy_eights", entries, {"rounds": 1}, 6)
    for deal in (0, 1):
        block = [g for g in games if g[1] == deal]
        assert len(block) == 3
        assert block[0][2] == block[1][2] == block[2][2]  # every seat is dealt the same cards each time
        assert len({seating[0] for seating, _, _ in block}) == 3  # held by a different entry each time
    assert games[0][2] != games[3][2]  # and the next deal is another deal


def test_duplicate_swaps_the_pairs_of_a_partnership_game(tmp_path: Path) -> None:
    entries = [Entry("simple", "simple"), Entry("random", "random")]
    games = _dealt(tmp_path, "mus", entries, {"scoring.target": 15}, 4)
    first, second = games[0], games[1]
    assert first[1] == second[1] == 0 and first[2] == second[2]
    assert first[0] == ("simple", "random", "simple", "random")
    assert second[0] == ("random", "simple", "random", "simple")
