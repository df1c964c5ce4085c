"""Tournaments: stored game by game, resumable after a kill, the same results on every backend."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable.arena.entries import Entry
from cardtable.arena.play import GameResult
from cardtable.arena.tournament import Tournament, define, run_tournament
from cardtable.core import GameRecord, replay
from cardtable.store import Store
from cardtable.store.tournaments import TournamentStore

ROOT = Path(__file__).resolve().parents[2]
ENTRIES = [Entry("heuristic", "heuristic"), Entry("random", "random"), Entry("r2", "random")]


def store_at(path: Path) -> TournamentStore:
    """A tournament store on a fresh SQLite file."""
    return TournamentStore(Store(f"sqlite:///{path}").engine)


def small(games: int = 6, **kwargs: Any) -> Tournament:
    """A quick Wizard tournament between three entries."""
    game = cardtable.load_game("wizard")
    return define(game, ENTRIES, values={"rounds": 5}, games=games, seed=11, **kwargs)


def test_every_game_is_stored_with_a_record_that_replays(tmp_path: Path) -> None:
    store = store_at(tmp_path / "t.db")
    tournament = small()
    results = run_tournament(tournament, store)
    assert results["played"] == 6 and results["errors"] == []
    assert sum(row["games"] for row in results["standings"].values()) == 18
    game = cardtable.load_game("wizard")
    for stored in store.games(tournament.id):
        state, _ = replay(game, GameRecord.from_json(stored["record"], game))
        assert list(game.outcome(state).scores) == stored["scores"]  # type: ignore[union-attr]
    saved = store.get(tournament.id)
    assert saved is not None and saved.status == "finished" and saved.results == results
    assert saved.entries == [(e.name, e.spec) for e in ENTRIES]


def test_running_again_plays_nothing_and_gives_the_same_results(tmp_path: Path) -> None:
    store = store_at(tmp_path / "t.db")
    first = run_tournament(small(), store)
    played: list[GameResult] = []
    second = run_tournament(small(), store, on_game=played.append)
    assert played == [] and second == first
    other = run_tournament(small(games=3), store)  # other arguments: another tournament
    assert other["tournament"] != first["tournament"] and other["played"] == 3


def test_local_workers_give_the_same_results_as_one(tmp_path: Path) -> None:
    one = run_tournament(small(), store_at(tmp_path / "one.db"), workers=1)
    two = run_tournament(small(), store_at(tmp_path / "two.db"), workers=2)
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)


def _patient_ray_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """Give Ray's node start four times its wait (120 s) for the raylet to register with the GCS.

    Ray 2.x waits a fixed 30 s there (``ray/_private/node.py``: ``raylet_start_wait_time_s = 30``, no setting
    or environment variable), and a machine under heavy load took longer. That module alone is given a clock
    running at a quarter of real speed, so its waits last four times as long and nothing else is touched.
    """
    import ray._private.node as node

    real = node.time
    slow = {name: getattr(real, name) for name in dir(real) if not name.startswith("_")}
    slow["monotonic"] = lambda: real.monotonic() / 4
    monkeypatch.setattr(node, "time", types.SimpleNamespace(**slow))


def test_ray_gives_the_same_results_as_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import ray

    _patient_ray_start(monkeypatch)

    local = run_tournament(small(games=4), store_at(tmp_path / "local.db"))
    remote = run_tournament(small(games=4), store_at(tmp_path / "ray.db"), backend="ray")
    assert not ray.is_initialized()  # the local instance it started is shut down
    assert json.dumps(local, sort_keys=True) == json.dumps(remote, sort_keys=True)


def test_a_game_that_cannot_be_played_is_stored_as_an_error_and_the_tournament_goes_on(tmp_path: Path) -> None:
    store = store_at(tmp_path / "t.db")
    good = small(games=3)
    broken = Tournament(good.game, good.options, (*ENTRIES[:2], Entry("ghost", "no-such-bot")), good.format, 3,
                        good.seed, units=good.units)  # past the checks the command line makes
    results = run_tournament(broken, store)
    assert results["played"] == 0 and [e["game"] for e in results["errors"]] == [0, 1, 2]
    assert all("ghost" in e["error"] for e in results["errors"])
    stored = store.games(broken.id)
    assert [g["status"] for g in stored] == ["error"] * 3 and all(g["record"]["game"] == "wizard" for g in stored)


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a process that has not exited (zombies count as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _count(db: Path) -> int:
    """Games stored so far (0 before the arena has made its database)."""
    if not db.exists():
        return 0
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return int(connection.execute("select count(*) from tournament_games").fetchone()[0])
    except sqlite3.Error:
        return 0
    finally:
        connection.close()


def test_a_killed_run_resumes_and_ends_with_the_results_of_an_uninterrupted_one(tmp_path: Path) -> None:
    games = 30  # enough that a busy machine cannot finish the run between the poll that sees two and the kill
    args = ["arena", "wizard", "--bot", "heuristic", "--bot", "h2=heuristic", "--bot", "random",
            "-o", "rounds=5", "--games", str(games), "--seed", "5", "--json"]
    command = [sys.executable, "-c", "from cardtable.cli import main; main()", *args]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    db = tmp_path / "killed.db"
    # The killed run plays on two worker processes; they must not outlive it.
    process = subprocess.Popen([*command, "--workers", "2", "--database-url", f"sqlite:///{db}"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while _count(db) < 2 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    workers = _children(process.pid)
    process.send_signal(signal.SIGKILL)
    process.wait()
    stored_at_kill = _count(db)
    assert 2 <= stored_at_kill < games, "the run was not killed part-way"
    assert workers, "the run had worker processes"
    deadline = time.monotonic() + 60
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    survivors = [pid for pid in workers if _alive(pid)]
    for pid in survivors:  # leave nothing running, even when failing
        os.kill(pid, signal.SIGKILL)
    assert not survivors, "worker processes outlived the killed run"
    resumed = subprocess.run([*command, "--database-url", f"sqlite:///{db}"], env=env, capture_output=True,
                             text=True, timeout=600, check=True)
    entries = [Entry("heuristic", "heuristic"), Entry("h2", "heuristic"), Entry("random", "random")]
    uninterrupted = define(cardtable.load_game("wizard"), entries, values={"rounds": "5"}, games=games, seed=5)
    whole = run_tournament(uninterrupted, store_at(tmp_path / "whole.db"))
    assert json.loads(resumed.stdout) == whole
    assert json.loads(resumed.stdout)["played"] == games and _count(db) == games


def test_a_game_that_kills_its_worker_process_is_an_error_and_the_others_are_played() -> None:
    from cardtable.arena.backends import run_tasks
    from cardtable.arena.play import play_game
    from tests.arena.dying import DIES_ON, play_or_die

    tournament = small(games=6)
    tasks = [tournament.task(p) for p in tournament.schedule()]
    results = sorted(run_tasks(tasks, workers=2, play=play_or_die), key=lambda r: r.index)
    assert [r.index for r in results] == list(range(6))
    dead = results[DIES_ON]
    assert dead.status == "error" and "worker process" in (dead.error or "")
    for task, result in zip(tasks, results):
        if task.index != DIES_ON:
            assert result.to_json() == play_game(task).to_json()
