"""A built-in bot, the learned player among them, runs as a protocol-1 program wherever a program can sit."""

from __future__ import annotations

import sys
from pathlib import Path

from typer.testing import CliRunner

from cardtable.cli import app

from .helpers import write_random_net

cli = CliRunner()


def test_the_learned_player_plays_whole_games_as_a_program(tmp_path: Path) -> None:
    weights = write_random_net(tmp_path / "w.npz", "durak", {"players": 2})
    program = f"exec:{sys.executable} -m cardtable.bots.program learned:weights={weights}"
    result = cli.invoke(app, ["selfplay", "durak", "--bot", program, "--bot", "heuristic", "--games", "2"])
    assert result.exit_code == 0, result.output
    assert "decisions lost: none" in result.output.split("heuristic:")[0]


def test_a_program_whose_net_does_not_fit_the_table_is_refused_before_any_game(tmp_path: Path) -> None:
    weights = write_random_net(tmp_path / "w.npz", "durak", {"players": 2})
    program = f"exec:{sys.executable} -m cardtable.bots.program learned:weights={weights}"
    result = cli.invoke(app, ["selfplay", "durak", "--bot", program, "--bot", "heuristic", "--bot", "heuristic",
                              "--games", "2"])
    assert result.exit_code == 2, result.output
    assert "trained for durak" in result.stderr and "players=3" in result.stderr
