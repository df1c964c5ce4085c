"""``cardtable bots add|list|revoke``: the bot accounts of a server's database (their tokens, for the Bot API);
``cardtable players reset-password|list``: people's accounts (an admin's password reset)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, TextIO

import typer

from cardtable.store import DATABASE_URL_ENV, DEFAULT_DATABASE_URL

bots = typer.Typer(help="Bot accounts of a server's database: a token lets a program play at its tables.",
                   no_args_is_help=True)

DatabaseUrl = Annotated[str | None, typer.Option(
    "--database-url", envvar=DATABASE_URL_ENV,
    help=f"The server's SQLAlchemy database URL (default {DEFAULT_DATABASE_URL}).")]


def _accounts(database_url: str | None):  # type: ignore[no-untyped-def]
    """The store and its bot accounts; a one-line exit if there is no such database (none is made)."""
    from cardtable.cli.serve import _open, require_database
    from cardtable.store import BotAccounts, Store

    require_database(database_url)
    store = _open(lambda: Store(database_url), database_url)
    return store, BotAccounts(store.engine)


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


@bots.command("add")
def bots_add(
    name: Annotated[str, typer.Argument(help="The bot's name as tables and standings show it.")],
    database_url: DatabaseUrl = None,
    admin: Annotated[bool, typer.Option("--admin", help="May also run tournaments on the server.")] = False,
    token_file: Annotated[Path | None, typer.Option(
        "--token-file", help="Write the token to this new file (mode 600) instead of printing it.")] = None,
) -> None:
    """Make a bot account and show its token once (only a digest of it is stored)."""
    out = _token_file(token_file) if token_file is not None else None
    try:
        store, accounts = _accounts(database_url)
        try:
            account, token = accounts.add(name, role="admin" if admin else "bot")
        except ValueError as exc:
            raise _fail(str(exc)) from None
        finally:
            store.close()
    except BaseException:
        if out is not None:  # nothing half-done: the new token file goes with the account that was not made
            out.close()
            assert token_file is not None
            token_file.unlink(missing_ok=True)
        raise
    if out is None:
        typer.echo(f"bot {account.name!r} ({account.role}); its token, shown this once:")
        typer.echo(token)
        return
    with out:
        out.write(token + "\n")
    typer.echo(f"bot {account.name!r} ({account.role}); its token is in {token_file}")


def _token_file(path: Path) -> TextIO:
    """The new token file, opened (mode 600) before the account is made; a one-line exit if it cannot be."""
    if path.exists():
        raise _fail(f"{path} exists; the token goes to a new file")
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise _fail(f"cannot write {path}: {exc.strerror}; no account was made") from None
    return os.fdopen(descriptor, "w", encoding="utf-8")


@bots.command("list")
def bots_list(database_url: DatabaseUrl = None) -> None:
    """List the bot accounts: name, role, origin, when made, whether revoked."""
    store, accounts = _accounts(database_url)
    try:
        rows = accounts.all()
    finally:
        store.close()
    if not rows:
        typer.echo("no bot accounts")
    for a in rows:
        state = f"revoked {a.revoked_at:%Y-%m-%d %H:%M}" if a.revoked_at else "active"
        typer.echo(f"{a.name}\t{a.role}\t{a.origin}\tmade {a.created_at:%Y-%m-%d %H:%M}\t{state}")


@bots.command("revoke")
def bots_revoke(name: Annotated[str, typer.Argument(help="The bot's name.")], database_url: DatabaseUrl = None) -> None:
    """Refuse the bot's token from now on; a running server ends its sessions and its seats go to the computer."""
    store, accounts = _accounts(database_url)
    try:
        account = accounts.revoke(name)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    finally:
        store.close()
    typer.echo(f"bot {account.name!r} revoked")


players = typer.Typer(help="People's accounts of a server's database (an admin's tools; people sign up in the "
                           "lobby).", no_args_is_help=True)


@players.command("reset-password")
def players_reset_password(
    name: Annotated[str, typer.Argument(help="The account's name, exactly as shown.")],
    database_url: DatabaseUrl = None,
    generate: Annotated[bool, typer.Option(
        "--generate", help="Make a random password and print it once, instead of reading one from stdin.")] = False,
) -> None:
    """Set a person's password (read from stdin, or ``--generate``d): every session of the account ends and
    its login lock goes. Tell the person the new password; they can change it on their account page."""
    import secrets

    from cardtable.store import People

    if generate:
        password = secrets.token_urlsafe(12)
    else:
        if sys.stdin.isatty():
            password = typer.prompt("new password", hide_input=True, confirmation_prompt=True)
        else:
            password = sys.stdin.readline().rstrip("\r\n")
    store, _ = _accounts(database_url)
    try:
        person = People(store.engine).reset_password(name, password)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    finally:
        store.close()
    typer.echo(f"the password of {person.name!r} is reset; every session of the account has ended")
    if generate:
        typer.echo(f"new password (shown this once): {password}")


@players.command("list")
def players_list(database_url: DatabaseUrl = None) -> None:
    """List the people's accounts: name and when made (never a password or a session)."""
    from sqlalchemy import select

    from cardtable.store.people import PersonRow

    store, _ = _accounts(database_url)
    try:
        with store.engine.connect() as c:
            rows = list(c.execute(select(PersonRow.name, PersonRow.created_at).order_by(PersonRow.name)))
    finally:
        store.close()
    if not rows:
        typer.echo("no accounts")
    for account_name, created in rows:
        typer.echo(f"{account_name}\tmade {created:%Y-%m-%d %H:%M}")
