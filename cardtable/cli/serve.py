"""``cardtable serve``: the web lobby and tables (FastAPI on uvicorn); ``cardtable db``: the database schema."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from cardtable.cli.common import renamed
from cardtable.store import DATABASE_URL_ENV, DEFAULT_DATABASE_URL


def _fail(message: str) -> typer.Exit:
    """Print a one-line error; the exit (status 2) to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def serve(
    ctx: typer.Context,
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
    lease_ttl: Annotated[float, typer.Option(
        "--lease-ttl", min=1.0,
        help="Seconds a table's lease lasts unrenewed: another process takes over a dead owner's tables after it.")]
    = 15.0,
    waiting_idle: Annotated[float, typer.Option(
        "--waiting-idle", min=1.0, help="Seconds an untouched waiting table with nobody connected lives.")] = 3600.0,
    tables_per_minute: Annotated[float, typer.Option(
        "--tables-per-minute", min=0.1, help="New tables one address may create per minute.")] = 30.0,
    proxy_headers: Annotated[bool, typer.Option(
        "--proxy-headers/--no-proxy-headers",
        help="Trust X-Forwarded-For from 127.0.0.1 (behind nginx or Caddy: the client's address for limits).")]
    = True,
    sqlite_sync: Annotated[str, typer.Option(
        "--sqlite-sync", help="SQLite: FULL (a stored move survives a power cut) or NORMAL (survives a crash of "
        "the server, much faster per move).")] = "FULL",
    limit: Annotated[list[str] | None, typer.Option(
        "--limit", help="Any limit of cardtable.server.limits.Limits as NAME=NUMBER (see docs/hosting.md).")] = None,
    log_level: Annotated[str, typer.Option(
        "--log-level", metavar="LEVEL", help="critical, error, warning, info, debug or trace.")] = "info",
    log_format: Annotated[str, typer.Option(
        "--log-format", metavar="FORMAT", help="text, or json: one JSON object a line (time, level, logger, "
        "message).")] = "text",
    open_bots: Annotated[bool, typer.Option(
        "--open-bots/--no-open-bots", help="Let anyone make a bot account from the lobby (the Bot API).")] = False,
    bot_decision_time: Annotated[float, typer.Option(
        "--bot-decision-time", metavar="SECONDS", min=0.05,
        help="Seconds a bot over the Bot API has per decision.")] = 5.0,
    bot_game_time: Annotated[float, typer.Option(
        "--bot-game-time", min=1.0, help="Seconds of thinking a bot's seat has per game.")] = 600.0,
    bot_max_failures: Annotated[int, typer.Option(
        "--bot-max-failures", min=0, help="Lost decisions a bot's seat may have per game before it forfeits.")] = 10,
    config: Annotated[Path | None, typer.Option(
        "--config", envvar="CARDTABLE_CONFIG", metavar="FILE",
        help="A TOML file of these settings (names with _: bot_delay = 0.6); the environment's CARDTABLE_NAME "
             "and the command line win over it.")] = None,
    bot_decision: Annotated[float | None, typer.Option("--bot-decision", hidden=True)] = None,
) -> None:
    """Serve the lobby and tables on http://HOST:PORT; the database is migrated and unfinished tables resume.

    Every option may also come from the environment (CARDTABLE_PORT, CARDTABLE_BOT_DELAY, ...) or a TOML
    file (--config); the command line wins, then the environment, then the file (docs/hosting.md).
    """
    import uvicorn

    old = renamed("--bot-decision", "--bot-decision-time", bot_decision,
                  bot_decision_time if _from_command_line(ctx, "bot_decision_time") else None)
    settings = _settings(ctx, config, {} if old is None else {"bot_decision_time": old})
    _check_served_database(settings.database_url)
    limits = _limits(settings.limit, waiting_idle=settings.waiting_idle,
                     tables_per_minute=settings.tables_per_minute)
    bots = _bot_settings(open_bots=settings.open_bots, decision=settings.bot_decision_time,
                         game_time=settings.bot_game_time, max_failures=settings.bot_max_failures)
    database_url = settings.database_url
    app = _open(lambda: _create_app(database_url, bot_delay=settings.bot_delay,
                                    takeover_after=settings.takeover_after, limits=limits,
                                    lease_ttl=settings.lease_ttl, sqlite_sync=settings.sqlite_sync, bots=bots),
                database_url)
    from sqlalchemy.engine import make_url

    from cardtable.server.settings import log_config

    shown = make_url(app.state.manager.store.url).render_as_string(hide_password=True)
    typer.echo(f"cardtable: http://{settings.host}:{settings.port}/ (database {shown})")
    from cardtable.server.runtime import tune_garbage_collector

    tune_garbage_collector()
    logging = log_config(settings.log_format)
    server = uvicorn.Config(app, host=settings.host, port=settings.port, log_level=settings.log_level,
                            ws_max_size=1024 * 1024, ws_per_message_deflate=False,
                            proxy_headers=settings.proxy_headers, timeout_graceful_shutdown=10,
                            log_config=logging if logging is not None else uvicorn.config.LOGGING_CONFIG)
    _graceful_server()(server).run()


def _from_command_line(ctx: typer.Context, name: str) -> bool:
    """Whether the option ``name`` was given on the command line (not its default, not an environment variable)."""
    return getattr(ctx.get_parameter_source(name), "name", None) == "COMMANDLINE"


def _settings(ctx: typer.Context, config: Path | None, renamed_given: dict[str, Any]) -> Any:
    """The command line's options over the environment's CARDTABLE_* over the TOML file; a bad one is one line."""
    from cardtable.server.settings import ServeSettings, SettingsError, load_settings

    given = {name: value for name, value in ctx.params.items()
             if name in ServeSettings.model_fields and _from_command_line(ctx, name)}
    given.update(renamed_given)
    try:
        return load_settings(given, config)
    except SettingsError as exc:
        raise _fail(str(exc)) from None


def is_memory_database(url: str) -> bool:
    """Whether ``url`` is an in-memory SQLite database (each connection would see its own, empty one)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except ArgumentError:
        return False  # reported as a bad URL where the database is opened
    if not parsed.drivername.startswith("sqlite"):
        return False
    database = parsed.database or ""
    return database in ("", ":memory:") or database.startswith("file::memory:") or "mode=memory" in str(url)


def _check_served_database(database_url: str | None) -> None:
    """Refuse an in-memory SQLite database: the server's threads and connections need one shared file."""
    from cardtable.store import resolve_database_url

    if is_memory_database(resolve_database_url(database_url)):
        raise _fail("--database-url: an in-memory SQLite database cannot be served (every connection would get "
                    "its own empty one); give a file, e.g. sqlite:///cardtable.db")


def require_database(database_url: str | None) -> None:
    """A one-line exit if the SQLite file of ``database_url`` does not exist (opening it would make an empty
    one: a bot token made there is refused by the real server). Other databases are checked when opened."""
    from pathlib import Path

    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from cardtable.store import resolve_database_url

    url = resolve_database_url(database_url)
    try:
        parsed = make_url(url)
    except ArgumentError:
        return  # reported as a bad URL where the database is opened
    if not parsed.drivername.startswith("sqlite") or is_memory_database(url):
        return
    path = Path(parsed.database or "")
    if not path.exists():
        raise _fail(f"no database at {path.absolute()}: run this where the server's database is, give "
                    "--database-url (or CARDTABLE_DATABASE_URL), or create one with `cardtable db upgrade`")


def _limits(pairs: list[str], **given: float) -> Any:
    """The server's limits: the options given, then ``--limit NAME=NUMBER`` pairs; a bad pair is one line."""
    import dataclasses

    from cardtable.server.limits import Limits

    fields = {f.name: f for f in dataclasses.fields(Limits)}
    values: dict[str, Any] = dict(given)
    for pair in pairs:
        name, _, number = pair.partition("=")
        name = name.strip().replace("-", "_")
        if name not in fields:
            raise _fail(f"--limit {pair!r}: no limit {name!r} (known: {', '.join(fields)})")
        try:
            values[name] = int(number) if fields[name].type in ("int", int) else float(number)
        except ValueError:
            raise _fail(f"--limit {pair!r}: {number!r} is not a number") from None
        if values[name] <= 0:
            raise _fail(f"--limit {pair!r}: must be positive")
    return Limits(**values)


def _bot_settings(**values: Any) -> Any:
    """The Bot API's settings; a bad value is one line."""
    from cardtable.server.botapi import BotApiSettings

    try:
        return BotApiSettings(**values)
    except ValueError as exc:
        raise _fail(str(exc)) from None


def _create_app(database_url: str | None, **settings: Any) -> Any:
    from cardtable.server import create_app

    return create_app(database_url, **settings)


def _open(make: Any, database_url: str | None) -> Any:
    """``make()``, with database problems turned into one-line errors."""
    from alembic.util import CommandError
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    try:
        return make()
    except ValueError as exc:
        raise _fail(str(exc)) from None
    except ArgumentError:
        raise _fail(f"--database-url {database_url!r} is not a SQLAlchemy database URL") from None
    except ImportError as exc:
        raise _fail(f"the database driver is not installed ({exc.name}); for PostgreSQL: "
                    "pip install 'cardtable[postgres]'") from None
    except SQLAlchemyError as exc:
        raise _fail(f"cannot open the database: {_first_line(getattr(exc, 'orig', None) or exc)}") from None
    except CommandError as exc:
        raise _fail(f"migration failed: {_first_line(exc)}") from None


def _first_line(exc: object) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]


def _graceful_server() -> Any:
    """The uvicorn server class that shuts down gracefully (imported late: uvicorn is slow to import)."""
    import uvicorn

    class Server(uvicorn.Server):
        """uvicorn, but on SIGTERM/SIGINT every table socket is first closed with 1012 and a reason the page
        understands (it reconnects by itself) and every pending write is committed."""

        async def shutdown(self, sockets: Any = None) -> None:
            app = self.config.app
            manager = getattr(getattr(app, "state", None), "manager", None)
            if manager is not None:
                await manager.close_connections()
            await super().shutdown(sockets)

    return Server


db = typer.Typer(help="The database: schema migrations.", no_args_is_help=True)


@db.command("upgrade")
def db_upgrade(
    database_url: Annotated[str | None, typer.Option(
        "--database-url", envvar=DATABASE_URL_ENV,
        help=f"SQLAlchemy database URL (default {DEFAULT_DATABASE_URL}).")] = None,
    revision: Annotated[str, typer.Option("--revision", help="Target revision (default: the newest).")] = "head",
) -> None:
    """Migrate the database to the newest schema (``cardtable serve`` does this at every start too)."""
    from cardtable.store import Store
    from cardtable.store.migrate import known_revision, upgrade

    if not known_revision(revision):
        raise _fail(f"--revision {revision!r}: no such revision (the newest is `head`; see docs/hosting.md)")
    store = _open(lambda: Store(database_url, migrate=False), database_url)
    try:
        reached = _open(lambda: upgrade(store.engine, revision), database_url)
    finally:
        store.close()
    typer.echo(f"database at revision {reached}")


@db.command("current")
def db_current(
    database_url: Annotated[str | None, typer.Option(
        "--database-url", envvar=DATABASE_URL_ENV,
        help=f"SQLAlchemy database URL (default {DEFAULT_DATABASE_URL}).")] = None,
) -> None:
    """Print the database's schema revision and the newest one."""
    from cardtable.store import Store
    from cardtable.store.migrate import current, head

    require_database(database_url)
    store = _open(lambda: Store(database_url, migrate=False), database_url)
    try:
        typer.echo(f"database at revision {_open(lambda: current(store.engine), database_url)}; newest {head()}")
    finally:
        store.close()
