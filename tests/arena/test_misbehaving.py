"""Misbehaving external bots in a real arena run: it completes, each failure counted under its kind."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cardtable
from cardtable.arena.entries import Entry
from cardtable.arena.tournament import define, run_tournament
from cardtable.cli import app
from cardtable.core import GameRecord, replay
from cardtable.store import Store
from cardtable.store.tournaments import TournamentStore

BOTS = Path(__file__).parent / "bots"
KINDS = {"garbage": {"malformed"}, "wrong_card": {"illegal"}, "exit": {"crashed"}, "hang": {"timeout"},
         "version": {"protocol"}}
#: The rest of the sandbox's list, in a second tournament (a Crazy Eights table seats six). A bot that
#: allocates without bound is killed by its memory limit, or runs out of time first (2 s a decision).
MORE_KINDS = {"spin": {"timeout"}, "allocate": {"crashed", "timeout"}, "forkbomb": {"timeout"},
              "silent": {"timeout"}}


def program(script: str) -> str:
    """The spec of a test bot."""
    return f"exec:{sys.executable} -S {BOTS / script}.py"


@pytest.mark.parametrize("kinds", [KINDS, MORE_KINDS], ids=["protocol-faults", "resource-faults"])
def test_a_tournament_of_misbehaving_bots_finishes_and_counts_each_failure(tmp_path: Path,
                                                                          kinds: dict[str, set[str]]) -> None:
    game = cardtable.load_game("crazy_eights")
    entries = [Entry("random", "random"), *(Entry(name, program(name)) for name in kinds)]
    # define() skips the command line's handshake check, so the wrong-version bot gets to play too. Two seconds
    # a decision: a busy machine can delay a garbage or wrong-card answer past 0.3 s (a timeout, not its fault).
    tournament = define(game, entries, values={"rounds": 1, "players": len(entries)}, games=1, seed=4,
                        timeout=2.0, max_failures=1)
    store = TournamentStore(Store(f"sqlite:///{tmp_path / 'bad.db'}").engine)
    results = run_tournament(tournament, store)
    assert results["played"] == 1 and results["errors"] == []
    table = results["standings"]
    assert table["random"]["failures"] == {}
    for name, expected in kinds.items():
        failures = table[name]["failures"]
        assert sum(failures.get(kind, 0) for kind in expected) >= 1, (name, failures)
        assert set(failures) <= expected | {"forfeited"}, (name, failures)
        assert table[name]["forfeits"] == 1 and table[name]["wins"] == 0
    [stored] = store.games(tournament.id)
    state, _ = replay(game, GameRecord.from_json(stored["record"], game))
    assert game.outcome(state) is not None  # the stored record replays to the end


def test_wrong_protocol_or_unstartable_programs_are_refused_before_anything_is_written(tmp_path: Path) -> None:
    runner = CliRunner()
    db = tmp_path / "never.db"
    for spec, message in ((program("version"), "protocol"), ("exec:/no/such/program", "cannot start")):
        result = runner.invoke(app, ["arena", "crazy_eights", "--bot", "random", "--bot", f"x={spec}",
                                     "--database-url", f"sqlite:///{db}"])
        assert result.exit_code == 2, result.output
        assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not db.exists()
