"""``cardtable serve``: the web lobby and tables (FastAPI on uvicorn)."""

from __future__ import annotations

from typing import Annotated

import typer

from cardtable.store import DATABASE_URL_ENV, DEFAULT_DATABASE_URL


def _fail(message: str) -> typer.Exit:
    """Print a one-line error; the exit (status 2) to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def serve(
    host: Annotated[str, typer.Option("--host", help="Interface to listen on (0.0.0.0: every interface).")]
    = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port.", min=1, max=65535)] = 8000,
    database_url: Annotated[str | None, typer.Option(
        "--database-url", envvar=DATABASE_URL_ENV,
        help=f"SQLAlchemy database URL (default {DEFAULT_DATABASE_URL}, in the working directory).")] = None,
    bot_delay: Annotated[float, typer.Option(
        "--bot-delay", min=0.0, help="Seconds a computer player waits before acting, so people can follow.")]
    = 0.6,
    takeover_after: Annotated[float, typer.Option(
        "--takeover-after", min=0.0,
        help="Seconds after a person disconnects before the computer plays for them.")] = 30.0,
) -> None:
    """Serve the lobby and tables on http://HOST:PORT; unfinished tables in the database resume."""
    import uvicorn
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from cardtable.server import create_app

    try:
        app = create_app(database_url, bot_delay=bot_delay, takeover_after=takeover_after)
    except ArgumentError:
        raise _fail(f"--database-url {database_url!r} is not a SQLAlchemy database URL") from None
    except ImportError as exc:
        raise _fail(f"the database driver is not installed ({exc.name}); for PostgreSQL: "
                    "pip install 'cardtable[postgres]'") from None
    except SQLAlchemyError as exc:
        raise _fail(f"cannot open the database: {getattr(exc, 'orig', None) or exc}") from None
    shown = make_url(app.state.manager.store.url).render_as_string(hide_password=True)
    typer.echo(f"cardtable: http://{host}:{port}/ (database {shown})")
    uvicorn.run(app, host=host, port=port, log_level="info", ws_max_size=1024 * 1024)
