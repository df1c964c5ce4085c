"""``cardtable review RECORD``: the review as a table or JSON; every bad input one ``error:`` line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtable.cli import app
from cardtable.core.record import GameRecord
from cardtable.review import review_record
from tests.review.games import load, play_record
from tests.test_cli_mistakes import one_error_line

runner = CliRunner()
GAME = load("crazy_eights")


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return play_record(GAME, ["heuristic", "random", "heuristic"], 7, rounds=1)


def _write(tmp_path: Path, data: object, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_json_review_is_the_engines_review_of_that_seat(tmp_path: Path, record: GameRecord) -> None:
    path = _write(tmp_path, record.to_json())
    result = runner.invoke(app, ["review", str(path), "--seat", "1", "--budget", "4", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    expected = review_record(GAME, record, 1, budget=4, seed=3).to_json(GAME)
    assert json.loads(result.stdout) == expected
    assert expected["decisions"] and expected["seat"] == 1


def test_the_table_names_each_decision_and_the_summary(tmp_path: Path, record: GameRecord) -> None:
    path = _write(tmp_path, record.to_json())
    result = runner.invoke(app, ["review", str(path), "--seat", "1", "--budget", "4"])
    assert result.exit_code == 0, result.output
    review = review_record(GAME, record, 1, budget=4)
    assert f"{len(review.decisions)} decisions reviewed" in result.stdout
    assert f"Mean loss {review.mean_loss:.3f}" in result.stdout


@pytest.mark.parametrize(("change", "needles"), [
    (lambda d: {**d, "game": "chess"}, ("chess",)),
    (lambda d: {**d, "seed": d["seed"] + 1}, ("does not replay",)),
    (lambda d: {**d, "actions": d["actions"][:5]}, ("has not ended",)),
    (lambda d: {**d, "actions": [{"seat": 0, "action": {"type": "nonsense"}}]}, ("record action 0",)),
    (lambda d: "not a record", ("not a game record",)),
])
def test_a_record_that_does_not_replay_is_one_error_line(tmp_path: Path, record: GameRecord, change: object,
                                                         needles: tuple[str, ...]) -> None:
    path = _write(tmp_path, change(record.to_json()))  # type: ignore[operator]
    one_error_line(runner.invoke(app, ["review", str(path), "--budget", "2"]), *needles)


def test_a_truncated_file_a_seat_off_the_table_and_a_bad_budget_are_one_error_line(
        tmp_path: Path, record: GameRecord) -> None:
    text = json.dumps(record.to_json())
    truncated = tmp_path / "cut.json"
    truncated.write_text(text[: len(text) // 2], encoding="utf-8")
    one_error_line(runner.invoke(app, ["review", str(truncated)]), "cannot read")
    path = _write(tmp_path, record.to_json())
    one_error_line(runner.invoke(app, ["review", str(path), "--seat", "3"]), "seat 3 is not at this table")
    one_error_line(runner.invoke(app, ["review", str(path), "--seat", "-1"]), "seat -1 is not at this table")
    one_error_line(runner.invoke(app, ["review", str(path), "--budget", "0"]), "--budget 0")
    one_error_line(runner.invoke(app, ["review", str(tmp_path / "missing.json")]), "cannot read")
