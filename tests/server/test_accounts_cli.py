"""``cardtable players reset-password`` and ``list``: an admin's tools for people's accounts (issue 35)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from cardtable.cli import app as cli
from cardtable.store import People, Store
from tests.server.test_accounts_api import FAST


def _database(tmp_path: Path) -> tuple[str, People]:
    url = f"sqlite:///{tmp_path / 'cardtable.db'}"
    store = Store(url)
    people = People(store.engine, hasher=FAST)
    people.sign_up("alice", "correct horse")
    return url, people


def test_reset_password_sets_the_new_one_and_ends_every_session(tmp_path: Path) -> None:
    """The password read from stdin works, the old one does not, and the open session is gone."""
    url, people = _database(tmp_path)
    alice = people.get("alice")
    assert alice is not None
    token, _ = people.open_session(alice.id)
    result = CliRunner().invoke(cli, ["players", "reset-password", "alice", "--database-url", url],
                                input="battery staple\n")
    assert result.exit_code == 0, result.output
    assert "reset" in result.output and "battery staple" not in result.output
    assert people.session(token) is None
    assert people.authenticate("alice", "battery staple") is not None
    assert people.authenticate("alice", "correct horse") is None


def test_reset_password_can_generate_one_shown_once(tmp_path: Path) -> None:
    """``--generate`` prints a new random password, which then logs in."""
    url, people = _database(tmp_path)
    result = CliRunner().invoke(cli, ["players", "reset-password", "alice", "--generate", "--database-url", url])
    assert result.exit_code == 0, result.output
    password = result.output.strip().rsplit(": ", 1)[1]
    assert len(password) >= 12 and people.authenticate("alice", password) is not None


def test_bad_input_is_one_error_line_and_changes_nothing(tmp_path: Path) -> None:
    """An unknown name and a too-short password: ``error:`` on one line, exit 2, the password unchanged."""
    url, people = _database(tmp_path)
    runner = CliRunner()
    for args, stdin, words in ((["nobody"], "battery staple\n", "no account named 'nobody'"),
                               (["alice"], "short\n", "at least 8 characters")):
        result = runner.invoke(cli, ["players", "reset-password", *args, "--database-url", url], input=stdin)
        assert result.exit_code == 2
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0]
    assert people.authenticate("alice", "correct horse") is not None
    missing = runner.invoke(cli, ["players", "list", "--database-url", f"sqlite:///{tmp_path / 'none.db'}"])
    assert missing.exit_code == 2 and missing.output.startswith("error: ")


def test_list_names_the_accounts(tmp_path: Path) -> None:
    """One line per account, no secret."""
    url, _ = _database(tmp_path)
    result = CliRunner().invoke(cli, ["players", "list", "--database-url", url])
    assert result.exit_code == 0 and result.output.startswith("alice\tmade ")
