"""``cardtable bot-check`` and ``selfplay`` with external programs: clear lines, honest exit statuses."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtable.cli import app

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = f"{sys.executable} {ROOT / 'examples' / 'bots' / 'random_bot.py'}"
BOTS = Path(__file__).parent / "bots"
cli = CliRunner()


def bot(script: str) -> str:
    return f"{sys.executable} -S {BOTS / script}"


def test_bot_check_passes_the_example_bot() -> None:
    result = cli.invoke(app, ["bot-check", EXAMPLE, "durak", "--games", "2", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith("no protocol errors")
    assert "random.py: Durak, 2 game(s)" in result.output


def test_bot_check_reports_each_error_on_one_line_and_exits_1() -> None:
    result = cli.invoke(app, ["bot-check", bot("garbage.py"), "durak", "--games", "1"])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines[0].startswith("game 1, seat 0, action 0: malformed: not JSON")
    assert "problems" in lines[-1] and "Traceback" not in result.output


def test_bot_check_names_a_protocol_version_mismatch() -> None:
    result = cli.invoke(app, ["bot-check", bot("version.py"), "durak"])
    assert result.exit_code == 1
    assert "protocol: the bot speaks protocol 2; this host speaks protocol 1" in result.output
    assert "could not go on" in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["bot-check", "no-such-program-xyz", "durak"], "not found on PATH"),
    (["bot-check", EXAMPLE, "no_such_game"], "no game named"),
    (["bot-check", EXAMPLE, "durak", "-o", "nonsense=1"], "unknown option"),
    (["bot-check", EXAMPLE, "durak", "--games", "0"], "at least 1"),
    (["bot-check", EXAMPLE, "durak", "--decision-time", "0"], "must be positive"),
    (["selfplay", "durak", "--bot", "exec:no-such-program-xyz", "--bot", "random"], "not found on PATH"),
    (["selfplay", "durak", "--decision-time", "-1"], "must be positive"),
])
def test_bad_arguments_exit_2_with_one_line(args: list[str], message: str) -> None:
    result = cli.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in result.output and len(result.output.strip().splitlines()) == 1


def test_selfplay_shows_an_external_bots_lost_decisions_by_kind() -> None:
    spec = f"exec:{bot('garbage.py')}"
    args = ["selfplay", "durak", "--bot", spec, "--bot", "random", "--games", "2", "--max-failures", "1"]
    result = cli.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    row = json.loads(result.stdout)["bots"][spec]
    assert row["failures"]["malformed"] == 4 and row["forfeits"] == 2 and row["wins"] == 0
    text = cli.invoke(app, args)
    assert f"{spec}: decisions lost: malformed 4, forfeited" in " ".join(text.output.split())
    assert "random: decisions lost: none" in text.output


def test_play_against_a_program_in_the_terminal(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = cli.invoke(app, ["play", "durak", "--players", "2", "--seed", "5", "--bot", f"exec:{EXAMPLE}",
                              "--record", str(record)], input="1\n" * 400)
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output and "Note:" not in result.output
    actions = json.loads(record.read_text())["actions"]
    assert any(a["seat"] == 1 for a in actions), "the program played its seat"
