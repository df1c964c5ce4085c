"""Help says what a value is in plain words, and selfplay's table is rounded, with intervals, never cut."""

from __future__ import annotations

import re
from collections.abc import Iterator

import typer
from typer.testing import CliRunner

from cardtable.cli import app

runner = CliRunner()
TYPER_LABEL = re.compile(r"<(str|int|float|bool|path|list\[[^>]*\]|int range|float range)>")


def command_paths() -> Iterator[list[str]]:
    """Every command and subcommand of ``cardtable`` as the words that name it."""
    root = typer.main.get_command(app)

    def walk(command: object, path: list[str]) -> Iterator[list[str]]:
        yield path
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            if not getattr(sub, "hidden", False):
                yield from walk(sub, [*path, name])

    yield from walk(root, [])


def test_every_help_page_names_values_plainly() -> None:
    paths = list(command_paths())
    assert ["selfplay"] in paths and ["bots", "add"] in paths and ["serve"] in paths
    for path in paths:
        result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "200"})
        assert result.exit_code == 0, (path, result.output)
        assert not TYPER_LABEL.search(result.output), (path, TYPER_LABEL.findall(result.output))
    selfplay = runner.invoke(app, ["selfplay", "--help"], env={"COLUMNS": "200"}).output
    assert re.search(r"--games\s+INTEGER", selfplay) and re.search(r"--decision-time\s+SECONDS", selfplay)
    assert re.search(r"--json\s+Print one JSON object", selfplay)  # a flag takes no value


def test_selfplay_rounds_its_figures_gives_intervals_and_does_not_cut_the_table() -> None:
    result = runner.invoke(app, ["selfplay", "durak", "--bots", "heuristic,random", "--games", "49"])
    assert result.exit_code == 0, result.output
    rows = {line.split("│")[1].strip(): [cell.strip() for cell in line.split("│")[2:-1]]
            for line in result.stdout.splitlines() if line.startswith("│")}
    assert set(rows) == {"heuristic", "random"}  # each row whole on one line: nothing folded or cut
    assert "…" not in result.stdout
    for cells in rows.values():
        seats, games, wins, share, score = cells[:5]
        assert (seats, games) == ("1", "49")
        assert re.fullmatch(r"\d+(\.5)?", wins)  # 44.5 or 4, never 4.0
        assert re.fullmatch(r"0\.\d{3} \[0\.\d{3}, [01]\.\d{3}\]", share)
        assert re.fullmatch(r"-?\d+\.\d{1,2} \[-?\d+\.\d{1,2}, -?\d+\.\d{1,2}\]", score)
    assert float(rows["heuristic"][2]) + float(rows["random"][2]) == 49


def test_selfplay_rounds_large_means() -> None:
    result = runner.invoke(app, ["selfplay", "kaiser", "--games", "3", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert not re.search(r"\d\.\d{4,}", result.stdout)  # no -581.333333


# One name per idea: the old spellings still work, hidden, and say they are deprecated.

OLD_SPELLINGS = [
    (["selfplay", "durak", "--bots", "random,heuristic", "--games", "2", "--json"], "--bots", "--bot"),
    (["selfplay", "durak", "--timeout", "5", "--games", "2", "--json"], "--timeout", "--decision-time"),
    (["selfplay", "durak", "--game-timeout", "60", "--games", "2", "--json"], "--game-timeout", "--game-time"),
    (["durak", "--rules", "reference", "--seed", "60493", "Rick", "Morty"], "--rules", "--preset"),
    (["play", "durak", "--bots", "random", "--seed", "3"], "--bots", "--bot"),
]


def test_old_spellings_work_with_a_deprecation_line() -> None:
    for args, old, new in OLD_SPELLINGS:
        result = runner.invoke(app, args, input="q\n")
        assert result.exit_code == 0, (args, result.output)
        assert f"warning: {old} is deprecated and goes in the next release; use {new}" in result.stderr, args
        assert "deprecated" not in result.stdout
        command = args[0]
        shown = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"}).output
        assert re.search(rf"{re.escape(old)}\b(?!-)", shown) is None, (command, old)  # hidden
        assert new in shown


def test_the_new_names_say_nothing_and_give_the_same_result() -> None:
    new = runner.invoke(app, ["selfplay", "durak", "--bot", "random", "--bot", "heuristic", "--games", "4",
                              "--decision-time", "5", "--json"])
    old = runner.invoke(app, ["selfplay", "durak", "--bots", "random,heuristic", "--games", "4", "--timeout", "5",
                              "--json"])
    assert new.exit_code == old.exit_code == 0 and new.stderr == ""
    assert new.stdout == old.stdout


def test_an_option_given_under_both_names_is_refused() -> None:
    result = runner.invoke(app, ["selfplay", "durak", "--bots", "random", "--bot", "random"])
    assert result.exit_code == 2 and "--bots is the old name of --bot: give --bot only" in result.stderr


def test_replay_asks_for_a_game_number() -> None:
    result = runner.invoke(app, ["replay", "--tournament", "x"])
    assert result.exit_code == 2 and "--game-number N" in result.stderr


def test_the_cli_page_lists_each_idea_once() -> None:
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    for name in ("--bot", "--preset", "--decision-time", "--game-time", "--max-failures", "--game-number",
                 "--bot-decision-time", "--bot-game-time", "--bot-max-failures"):
        assert f"`{name}" in page, name
    for _args, old, _new in OLD_SPELLINGS:
        assert f"`{old}`" in page, old
