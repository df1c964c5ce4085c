"""``cardtable arena`` and ``replay --tournament``: JSON results, the report, and one-line errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtable.cli import app

runner = CliRunner()
BOTS = ["--bot", "heuristic", "--bot", "random", "--bot", "other=random"]


def test_json_has_standings_intervals_failures_ratings_and_head_to_head(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'a.db'}"
    result = runner.invoke(app, ["arena", "crazy_eights", *BOTS, "--games", "6", "-o", "rounds=1",
                                 "--database-url", db, "--json", "--report", str(tmp_path / "report")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data["standings"]) == {"heuristic", "random", "other"}
    row = data["standings"]["heuristic"]
    assert row["games"] == 6 and 0 <= row["win_share_ci"][0] <= row["win_share"] <= row["win_share_ci"][1] <= 1
    assert set(row["rating"]) == {"mu", "sigma", "ordinal"} and row["failures"] == {}
    assert data["head_to_head"]["heuristic"]["random"]["games"] == 6
    page = (tmp_path / "report" / "index.html").read_text(encoding="utf-8")
    assert "Head-to-head" in page and "other" in page
    assert (tmp_path / "report" / "ratings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not list((tmp_path / "report").glob(".*.tmp"))  # no temporary file left behind

    replayed = runner.invoke(app, ["replay", "--tournament", data["tournament"][:10], "--game-number", "2",
                                   "--database-url", db])
    assert replayed.exit_code == 0, replayed.output
    assert "Outcome:" in replayed.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["arena", "crazy_eights", "--bot", "nosuchbot", "--bot", "random"], "no bot 'nosuchbot'"),
    (["arena", "crazy_eights", "--bot", "random"], "at least two"),
    (["arena", "crazy_eights", "--bot", "random", "--bot", "exec:python3 bot.py"], "NAME=exec:COMMAND"),
    (["arena", "crazy_eights", "--bot", "random", "--bot", "bad name=random"], "a name is 1–40"),
    (["arena", "crazy_eights", "--bot", "random", "--bot", "random"], "two entries are called 'random'"),
    (["arena", "crazy_eights", *BOTS, "-o", "rounds=lots"], "rounds"),
    (["arena", "crazy_eights", *BOTS, "-o", "rounds"], "KEY=VALUE"),
    (["arena", "nosuchgame", *BOTS], "nosuchgame"),
    (["arena", "crazy_eights", *BOTS, "--format", "swiss"], "unknown format"),
    (["arena", "crazy_eights", *BOTS, "--format", "duplicate", "--games", "4"], "multiple of 3"),
    (["arena", "crazy_eights", *BOTS, "--backend", "mpi"], "--backend"),
    (["arena", "crazy_eights", *BOTS, "--workers", "0"], "--workers must be at least 1"),
    (["arena", "crazy_eights", *BOTS, "--ray-address", "auto"], "needs --backend ray"),
    (["arena", "crazy_eights", *BOTS, "--report", __file__], "not a directory"),
    (["arena", "crazy_eights", *BOTS, "--decision-time", "0"], "--decision-time must be a positive"),
    (["arena", "crazy_eights", *BOTS, "--max-failures", "-1"], "--max-failures must be at least 0"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path: Path, args: list[str], message: str) -> None:
    db = tmp_path / "never.db"
    result = runner.invoke(app, [*args, "--database-url", f"sqlite:///{db}"])
    assert result.exit_code == 2, result.output
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output
    assert not db.exists()


@pytest.mark.parametrize("url", ["not a url", "sqlite:////no/such/directory/x.db", "nosuchdriver://x/y"])
def test_a_database_that_cannot_be_opened_is_one_line(url: str) -> None:
    result = runner.invoke(app, ["arena", "crazy_eights", *BOTS, "--games", "1", "--database-url", url])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error:") and len(result.stderr.strip().splitlines()) == 1


def test_replay_of_a_missing_tournament_or_game_is_one_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'a.db'}"
    assert runner.invoke(app, ["db", "upgrade", "--database-url", db]).exit_code == 0  # replay makes none
    result = runner.invoke(app, ["replay", "--tournament", "abc", "--game-number", "0", "--database-url", db])
    assert result.exit_code == 2 and "no tournament 'abc'" in result.stderr
    result = runner.invoke(app, ["replay"])
    assert result.exit_code == 2 and "--tournament" in result.stderr
