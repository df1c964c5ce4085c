"""Bot accounts: tokens made once and stored as digests, names checked, revocation, the command line."""

from __future__ import annotations

import base64
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtable.cli import app
from cardtable.store import BotAccounts, Store
from cardtable.store.accounts import TOKEN_PREFIX, BotAccountRow, hash_bot_token


@pytest.fixture()
def accounts(tmp_path: Path) -> BotAccounts:
    return BotAccounts(Store(f"sqlite:///{tmp_path / 'bots.db'}").engine)


def test_a_token_has_256_random_bits_and_only_its_digest_is_stored(accounts: BotAccounts) -> None:
    account, token = accounts.add("alpha")
    assert token.startswith(TOKEN_PREFIX)
    raw = base64.urlsafe_b64decode(token[len(TOKEN_PREFIX):] + "=")
    assert len(raw) * 8 >= 192
    from sqlalchemy.orm import Session

    with Session(accounts._sessions.kw["bind"]) as session:
        row = session.get(BotAccountRow, account.id)
        assert row is not None and row.token_hash == hash_bot_token(token) and token not in row.token_hash
    assert accounts.authenticate(token) == account
    other = accounts.add("beta")[1]
    assert other != token


@pytest.mark.parametrize("token", ["", "ctb_", "nope", "ctb_" + "A" * 43, "ctb_\ud800", "x" * 10_000])
def test_a_wrong_or_malformed_token_is_refused(accounts: BotAccounts, token: str) -> None:
    accounts.add("alpha")
    assert accounts.authenticate(token) is None


def test_a_revoked_token_is_refused_and_the_account_kept(accounts: BotAccounts) -> None:
    account, token = accounts.add("alpha")
    revoked = accounts.revoke("alpha")
    assert revoked.is_revoked and accounts.authenticate(token) is None
    assert accounts.revoked_among([account.id, 999]) == {account.id, 999}
    assert [a.name for a in accounts.all(revoked=False)] == []
    assert [a.name for a in accounts.all()] == ["alpha"]
    with pytest.raises(ValueError, match="already a bot named 'alpha'"):
        accounts.add("alpha")


@pytest.mark.parametrize("name, message", [
    ("", "1 to 32"), ("x" * 33, "1 to 32"), ("a\nb", "1 to 32"), ("\x00", "1 to 32"),
    ("lone \ud800", "lone surrogate"), (7, "text, not int"), (None, "text, not NoneType"),
])
def test_a_bad_name_is_refused_and_nothing_is_made(accounts: BotAccounts, name: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        accounts.add(name)  # type: ignore[arg-type]
    assert accounts.all() == []


def test_the_command_line_adds_lists_and_revokes(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    runner = CliRunner()
    assert runner.invoke(app, ["db", "upgrade", "--database-url", url]).exit_code == 0  # bots add makes none
    made = runner.invoke(app, ["bots", "add", "Robo 1", "--database-url", url])
    assert made.exit_code == 0, made.output
    token = made.output.strip().splitlines()[-1]
    assert token.startswith(TOKEN_PREFIX)
    again = runner.invoke(app, ["bots", "add", "Robo 1", "--database-url", url])
    assert again.exit_code == 2 and "already a bot named 'Robo 1'" in again.output
    file = tmp_path / "admin.token"
    admin = runner.invoke(app, ["bots", "add", "boss", "--admin", "--token-file", str(file), "--database-url", url])
    assert admin.exit_code == 0 and str(file) in admin.output and TOKEN_PREFIX not in admin.output
    assert stat.S_IMODE(file.stat().st_mode) == 0o600 and file.read_text().startswith(TOKEN_PREFIX)
    listed = runner.invoke(app, ["bots", "list", "--database-url", url])
    assert "Robo 1\tbot" in listed.output and "boss\tadmin" in listed.output and TOKEN_PREFIX not in listed.output
    assert runner.invoke(app, ["bots", "revoke", "Robo 1", "--database-url", url]).exit_code == 0
    gone = runner.invoke(app, ["bots", "revoke", "nobody", "--database-url", url])
    assert gone.exit_code == 2 and "no bot named 'nobody'" in gone.output
    accounts = BotAccounts(Store(url).engine)
    assert accounts.authenticate(token) is None
    assert accounts.authenticate(file.read_text().strip()) is not None
