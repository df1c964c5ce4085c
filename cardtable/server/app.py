"""The FastAPI app: pages, the REST lobby API and one WebSocket per table.

Endpoints stay thin: parse, call the table manager (which calls the engine), answer. The manager marks
connections whose view changed; a writer task per WebSocket sends each its latest view and small messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardtable.server.auth import install as install_accounts
from cardtable.server.botapi import BotApiSettings
from cardtable.server.botapi import install as install_bot_api
from cardtable.server.health import install as install_health
from cardtable.server.limits import Limits, excerpt
from cardtable.server.live import CLOSE_POLICY, AnyGame, Connection, TableError
from cardtable.server.logs import install_redaction
from cardtable.server.manager import TableManager
from cardtable.server.messages import error_json, error_message
from cardtable.server.metrics import install as install_metrics
from cardtable.server.profiles import install as install_profiles
from cardtable.server.ratings import install as install_ratings
from cardtable.server.reviews import install as install_reviews
from cardtable.server.schemas import CreateTable, JoinTable, TokenBody
from cardtable.server.sockets import read_messages
from cardtable.server.table_api import install as install_table_extras
from cardtable.server.tournaments import router as tournaments_router
from cardtable.server.views import encode, game_entry, summary, view_message
from cardtable.store import Store

STATIC_DIR = Path(__file__).parent / "static"
log = logging.getLogger("cardtable.server")


def create_app(database_url: str | None = None, *, bot_delay: float = 0.6, takeover_after: float = 30.0,
               games: Mapping[str, AnyGame] | None = None, limits: Limits | None = None,
               lease_ttl: float = 15.0, sqlite_sync: str = "FULL", bots: BotApiSettings | None = None) -> FastAPI:
    """The web app on ``database_url`` (default: ``$CARDTABLE_DATABASE_URL`` or ``sqlite:///cardtable.db``).

    The database is migrated to the newest schema, then unfinished tables are rebuilt; their computer
    players resume when the app starts. ``games`` replaces the registered games (for tests); ``bots`` sets
    the Bot API's clock and limits (``docs/bot-api.md``).
    """
    manager = TableManager(Store(database_url, sqlite_sync=sqlite_sync), bot_delay=bot_delay,
                           takeover_after=takeover_after, games=games, limits=limits, lease_ttl=lease_ttl)
    manager.load_open_tables()

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        _quiet_bad_frames()
        install_redaction()  # no token in a log line, whatever address a client used
        manager.resume()
        notifier = await _start_notifier(manager)
        _app.state.notifier = notifier
        try:
            yield
        finally:
            await _app.state.reviews.close()
            await manager.shutdown()
            if notifier is not None:
                await notifier.stop()
            manager.store.close()

    app = FastAPI(title="cardtable", lifespan=lifespan)
    app.state.manager = manager
    _errors(app)
    _pages(app)
    _api(app, manager)
    _websocket(app, manager)
    install_health(app, manager)  # /healthz, /readyz
    install_metrics(app, manager)  # /metrics
    app.include_router(tournaments_router)
    social = install_table_extras(app, manager)
    install_bot_api(app, manager, social, bots)
    install_accounts(app, manager)  # /api/account/…: people's accounts
    install_ratings(manager)  # rated tables move the ladder when they end
    install_profiles(app, manager)  # /players/NAME, /leaderboard/GAME and their JSON
    install_reviews(app, manager)  # /api/tables/{id}/review and /review.html: finished games' reviews
    return app


class _OneLineForBadFrames(logging.Filter):
    """uvicorn logs a traceback when a client sends invalid UTF-8 (it closes the socket with 1007 anyway):
    a stranger's bad frame is worth one line, not a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Strip the traceback of uvicorn's invalid UTF-8 record; pass everything else unchanged."""
        if record.exc_info and "Invalid UTF-8" in str(record.msg):
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def _quiet_bad_frames() -> None:
    """Install the filter once on uvicorn's error logger."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _OneLineForBadFrames) for f in logger.filters):
        logger.addFilter(_OneLineForBadFrames())


def _errors(app: FastAPI) -> None:
    """Every refusal is a 4xx with a one-line ``detail``."""

    @app.exception_handler(TableError)
    async def table_error(request: Request, exc: TableError) -> JSONResponse:
        _count_refusal(request, exc.code or f"http_{exc.status}")
        return JSONResponse(error_json(exc), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid_body(request: Request, exc: RequestValidationError) -> JSONResponse:
        _count_refusal(request, "invalid_request")
        return JSONResponse({"detail": _one_line(exc.errors())}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        _count_refusal(request, f"http_{exc.status_code}")
        return JSONResponse({"detail": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers)


def _count_refusal(request: Request, kind: str) -> None:
    """Count a refused request in the app's metrics (``cardtable_errors_total{kind}``)."""
    metrics = getattr(request.app.state, "metrics", None)
    if metrics is not None:
        metrics.refused(kind)


def _one_line(errors: Any) -> str:
    """The first validation error as ``where: what``."""
    if not errors:
        return "invalid request"
    first = errors[0]
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body") or "body"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{excerpt(where, 60)}: {excerpt(first.get('msg', 'invalid'), 200)}{more}"


def _pages(app: FastAPI) -> None:
    """The lobby, the table page and the static files (HTML, CSS, JavaScript modules)."""
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return _page("index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return _page("table.html")


def _page(name: str) -> FileResponse:
    path = STATIC_DIR / name
    if not path.is_file():
        raise TableError(404, f"page {name} is missing from {STATIC_DIR}")
    return FileResponse(path, media_type="text/html")


def _api(app: FastAPI, manager: TableManager) -> None:
    """The lobby API; see docs/server-protocol.md."""

    @app.get("/api/games")
    async def list_games() -> list[dict[str, Any]]:
        return _catalogue(manager)

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        person = await request.app.state.accounts.writer(request)  # a signed-in host sits under their name
        if body.rated and person is None:
            raise TableError(403, "sign in to create a rated table", code="rated_sign_in", params={})
        host = (person.id, person.name) if person is not None else None
        table, seat, token = await manager.create(body, _address(request), host)
        return {"table_id": table.id, "seat": seat, "token": token}

    @app.get("/api/tables")
    async def list_tables(limit: int | None = Query(None, ge=1, le=1000),
                          offset: int = Query(0, ge=0, le=10**6)) -> Response:
        # Encoded by msgspec, not by FastAPI's reflective encoder: the page is polled by every lobby.
        return Response(encode(await manager.lobby(limit, offset)), media_type="application/json")

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> dict[str, Any]:
        return summary(await manager.find(table_id))

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinTable, request: Request) -> dict[str, Any]:
        person = await request.app.state.accounts.writer(request)
        name, account = (person.name, person.id) if person is not None else (body.name, None)
        token = await manager.join(await manager.find(table_id), body.seat, name, account)
        return {"table_id": table_id, "seat": body.seat, "token": token}

    @app.post("/api/tables/{table_id}/leave")
    async def leave(table_id: str, body: TokenBody) -> dict[str, Any]:
        table = await manager.find(table_id)
        await manager.leave(table, body.token)
        return summary(table)

    @app.post("/api/tables/{table_id}/start")
    async def start(table_id: str, body: TokenBody) -> dict[str, Any]:
        table = await manager.find(table_id)
        await manager.start(table, body.token)
        return summary(table)

    @app.post("/api/tables/{table_id}/pause")
    async def pause(table_id: str, body: TokenBody) -> dict[str, Any]:
        table = await manager.find(table_id)
        await manager.pause(table, body.token)
        return summary(table)

    @app.post("/api/tables/{table_id}/resume")
    async def resume(table_id: str, body: TokenBody) -> dict[str, Any]:
        table = await manager.find(table_id)
        await manager.resume_table(table, body.token)
        return summary(table)

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> dict[str, Any]:
        return manager.record(await manager.find(table_id))


def _address(request: Request | WebSocket) -> str:
    """The client's address (the proxy's when behind one: uvicorn's --proxy-headers sets it)."""
    return request.client.host if request.client is not None else ""


async def _start_notifier(manager: TableManager) -> Any:
    """With PostgreSQL: announce table versions to the other processes and forward what they own."""
    if not manager.store.url.startswith("postgresql"):
        return None
    from cardtable.server.notify import Notifier

    notifier = Notifier(manager)
    await notifier.start()
    return notifier


def _catalogue(manager: TableManager) -> list[dict[str, Any]]:
    """Every game's entry; a game whose metadata cannot be read is left out (and logged), not a 500."""
    entries = []
    for name, game in manager.games.items():
        try:
            entries.append(game_entry(game))
        except Exception:
            log.exception("game %s cannot describe itself; left out of the catalogue", name)
    return entries


def _websocket(app: FastAPI, manager: TableManager) -> None:
    """``/ws/tables/{id}?token=…``: views out, actions and pings in."""

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str, token: str | None = None,
                           since: int | None = None, patches: int = 0) -> None:
        await websocket.accept()
        try:
            table = await manager.find(table_id)
            connection = manager.connect(table, token, _address(websocket), since, patches=patches == 1)
        except TableError as exc:
            await websocket.send_text(encode(error_message(exc.message, exc.code, exc.params)))
            await websocket.close(code=4404 if exc.status == 404 else CLOSE_POLICY, reason=exc.message[:120])
            return
        writer = asyncio.create_task(_write(websocket, connection))
        try:
            await read_messages(websocket, lambda text: manager.handle(connection.table, connection, text), writer)
        finally:
            manager.disconnect(connection.table, connection)
            if not writer.done():
                writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer


async def _write(websocket: WebSocket, connection: Connection) -> None:
    """Send queued small messages and, when the table changed, the latest view; then close if asked."""
    while True:
        await connection.wake.wait()
        connection.wake.clear()
        while connection.messages:
            await websocket.send_text(encode(connection.messages.popleft()))
        if connection.dirty:
            connection.dirty = False
            await websocket.send_text(view_message(connection.table, connection))
            if connection.view_interval and connection.closing is None:
                await asyncio.sleep(connection.view_interval)  # changes meanwhile go into the next view
        if connection.closing is not None:
            code, reason = connection.closing
            with contextlib.suppress(Exception):
                await websocket.close(code=code, reason=reason)
            return
