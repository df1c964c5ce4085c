"""The command line: selfplay's results, replay, and clean errors for bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cardtable
from cardtable.bots import RandomBot
from cardtable.cli import app
from cardtable.runner import GameRunner

runner = CliRunner()


def test_selfplay_json_aggregates_one_bot_over_its_seats() -> None:
    result = runner.invoke(app, ["selfplay", "durak", "--bot", "random", "--players", "3", "--games", "30",
                                 "--seed", "4", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {k: data[k] for k in ("game", "players", "games", "seed")} == {
        "game": "durak", "players": 3, "games": 30, "seed": 4}
    row = data["bots"]["random"]
    assert row["seats"] == 3 and row["games"] == 30
    assert row["wins"] <= 30
    assert data["errors"] == []


def test_selfplay_comma_list_rotates_seats_and_shares_results() -> None:
    result = runner.invoke(app, ["selfplay", "durak", "--bot", "scripted", "--bot", "random", "--games", "40",
                                 "--json"])
    assert result.exit_code == 0, result.output
    bots = json.loads(result.stdout)["bots"]
    assert set(bots) == {"scripted", "random"}
    assert bots["scripted"]["games"] == bots["random"]["games"] == 40
    assert bots["scripted"]["wins"] + bots["random"]["wins"] <= 40


def test_selfplay_is_reproducible_from_its_seed() -> None:
    args = ["selfplay", "durak", "--bot", "random", "--players", "4", "--games", "10", "--seed", "9", "--json"]
    assert runner.invoke(app, args).stdout == runner.invoke(app, args).stdout


@pytest.mark.parametrize(("args", "message"), [
    (["selfplay", "no_such_game"], "no game named"),
    (["selfplay", "durak", "--bot", "nobody"], "no bot 'nobody'"),
    (["selfplay", "durak", "--bot", "random", "--bot", "random", "--players", "3"], "--players 3"),
    (["selfplay", "durak", "--players", "9"], "players"),
    (["selfplay", "durak", "-o", "no_such_option=1"], "unknown option"),
    (["selfplay", "durak", "-o", "nonsense"], "KEY=VALUE"),
    (["selfplay", "durak", "--games", "0"], "at least 1"),
])
def test_bad_input_exits_2_with_a_one_line_message(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_replay_prints_the_events_of_a_record(tmp_path: Path) -> None:
    game = cardtable.load_game("durak")
    run = GameRunner(game, game.options(players=2), 5, [RandomBot(1), RandomBot(2)])
    run.run()
    path = tmp_path / "record.json"
    path.write_text(json.dumps(run.record.to_json()), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:-1] == [e.text() for e in run.events]
    assert lines[-1].startswith("Outcome:")


def test_replay_of_a_broken_file_is_a_clean_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"game": "durak", "options": {}, "seed": 1, "actions": [{"seat": 0, "action": {"type": "x"}}]}')
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "unknown type" in result.output
    result = runner.invoke(app, ["replay", str(tmp_path / "missing.json")])
    assert result.exit_code == 2 and "cannot read" in result.output


def test_the_installed_script_runs() -> None:
    script = Path(sys.executable).parent / "cardtable"
    out = subprocess.run([str(script), "games"], capture_output=True, text=True, timeout=60, check=True)
    for name in cardtable.games():
        assert name in out.stdout


@pytest.mark.parametrize(("url", "message"), [
    ("nonsense", "not a SQLAlchemy database URL"),
    ("sqlite:////nonexistent-dir/cardtable.db", "cannot open the database"),
])
def test_serve_with_a_bad_database_url_exits_2_with_a_message(url: str, message: str) -> None:
    result = runner.invoke(app, ["serve", "--database-url", url])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_play_in_the_terminal_to_the_end_and_replay_the_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    answers = "nonsense\n0\n" + "1\n" * 400
    result = runner.invoke(app, ["play", "durak", "--players", "2", "--seed", "5", "--record", str(path)],
                           input=answers)
    assert result.exit_code == 0, result.output
    assert "'nonsense' is not one of your legal moves" in result.output
    assert "'0' is not one of your legal moves" in result.output
    assert "Game over:" in result.output
    game = cardtable.load_game("durak")
    from cardtable.core.record import GameRecord, replay

    record = GameRecord.from_json(json.loads(path.read_text(encoding="utf-8")), game)
    state, _ = replay(game, record)
    assert game.outcome(state) is not None


def test_play_accepts_action_text_and_stops_on_q_keeping_the_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "wizard", "-o", "rounds=5", "--seed", "3", "--record", str(path)],
                           input="bid 0\nq\n")
    assert result.exit_code == 0, result.output
    assert "Stopped." in result.output
    actions = json.loads(path.read_text(encoding="utf-8"))["actions"]
    assert {"seat": 0, "action": {"type": "bid", "tricks": 0}} in actions


def test_play_shows_only_what_the_seat_may_see() -> None:
    result = runner.invoke(app, ["play", "durak", "--players", "2", "--seed", "5"], input="q\n")
    assert result.exit_code == 0, result.output
    assert "Seat 0 holds" in result.output or "Seat 0 is dealt" in result.output
    assert "Seat 1 holds" not in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["play", "durak", "--seat", "5"], "--seat"),
    (["play", "durak", "-o", "nope=1"], "unknown option"),
    (["play", "durak", "--bot", "nobody"], "no bot"),
])
def test_play_refuses_bad_setup_with_a_message(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and message in result.output
