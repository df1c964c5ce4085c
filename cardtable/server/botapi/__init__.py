"""The Bot API: programs play at this server's live tables over one WebSocket per bot account.

``install(app, manager, social, settings)`` adds the stream (``/api/bot/stream``, the token in the
``Authorization: Bearer`` header), the host's invitations (``POST /api/tables/{id}/invite``), the list of
connected bots (``GET /api/bots``) and, with ``open_bots``, making a bot account from the lobby
(``POST /api/bots``). The wire protocol and the rules: ``docs/bot-api.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Request, WebSocket
from fastapi.responses import Response
from pydantic import Field

from cardtable.arena.entries import parse_entry
from cardtable.arena.tournament import define
from cardtable.server.botapi.remote import RemoteSeats
from cardtable.server.botapi.sessions import BotHub, BotSession
from cardtable.server.botapi.settings import BotApiSettings
from cardtable.server.botapi.tournaments import LiveTournamentDirector, check_entry
from cardtable.server.limits import AddressBuckets, excerpt
from cardtable.server.live import TableError
from cardtable.server.manager import TableManager
from cardtable.server.schemas import Name, Token, _Body
from cardtable.server.social import Social
from cardtable.server.sockets import read_messages
from cardtable.store import hash_token
from cardtable.store.accounts import BotAccount, BotAccounts, Invitations, check_bot_name
from cardtable.store.models import utcnow

__all__ = ["BotApiSettings", "BotHub", "RemoteSeats", "install"]
log = logging.getLogger("cardtable.server")
#: A bot counts as connected in the lobby's list if a process saw it this recently.
SEEN_WITHIN = timedelta(seconds=15)


class InviteBody(_Body):
    """``POST /api/tables/{id}/invite``: the host's token, a computer seat and the bot's name."""

    token: Token
    seat: Annotated[int, Field(ge=0, lt=64)]
    bot: Name


class RemoveBotBody(_Body):
    """``POST /api/tables/{id}/remove_bot``: the host's token and the bot's seat."""

    token: Token
    seat: Annotated[int, Field(ge=0, lt=64)]


class LiveTournamentBody(_Body):
    """``POST /api/tournaments/live``: a tournament the server plays at its own tables (admin accounts only)."""

    game: Annotated[str, Field(min_length=1, max_length=40)]
    entries: Annotated[list[Annotated[str, Field(min_length=1, max_length=200)]], Field(min_length=2, max_length=32)]
    options: dict[str, Annotated[str | int | bool, Field()]] = Field(default_factory=dict, max_length=32)
    preset: Annotated[str, Field(max_length=40)] | None = None
    format: Annotated[str, Field(max_length=20)] = "round-robin"
    games: Annotated[int, Field(ge=1, le=10_000)] = 10
    seed: Annotated[int, Field(ge=0, lt=2**31)] = 1
    concurrency: Annotated[int, Field(ge=1, le=32)] = 2
    #: Its tables are rated: each game moves the ladder of every entry (bot accounts and built-in players).
    rated: bool = False


class NewBotBody(_Body):
    """``POST /api/bots``: the new bot account's name (with ``--open-bots``)."""

    name: Name


def install(app: FastAPI, manager: TableManager, social: Social, settings: BotApiSettings | None = None) -> BotHub:
    """Add the Bot API to ``app``; returns its hub of sessions."""
    settings = settings or BotApiSettings()
    remote = RemoteSeats(manager, social, settings)
    hub = BotHub(manager, social, remote, settings)
    director = LiveTournamentDirector(manager)
    director.seat_sessions = hub.seat_sessions
    app.state.bots = hub
    app.state.director = director
    app.include_router(_router(manager, hub, settings))
    app.include_router(_tournament_router(manager, hub, director))
    _websocket(app, hub)
    _background(app, hub, remote, director)
    return hub


def _background(app: FastAPI, hub: BotHub, remote: RemoteSeats, director: LiveTournamentDirector) -> None:
    outer = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(a: FastAPI) -> AsyncIterator[Any]:
        async with outer(a) as value:
            tasks = [asyncio.get_running_loop().create_task(hub.run()),
                     asyncio.get_running_loop().create_task(_resume_tournaments(director))]
            try:
                yield value
            finally:
                for task in [*tasks, *director.running.values()]:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task
                for session in list(hub.sessions.values()):
                    session.close(1012, "server restarting; reconnect")
                await remote.shutdown()

    app.router.lifespan_context = lifespan


def _router(manager: TableManager, hub: BotHub, settings: BotApiSettings) -> APIRouter:
    router = APIRouter()
    accounts = BotAccounts(manager.store.engine)
    invitations = Invitations(manager.store.engine)
    makers = AddressBuckets(settings.accounts_per_minute / 60.0, max(1.0, settings.accounts_per_minute))

    @router.get("/api/bots")
    async def connected_bots() -> dict[str, Any]:
        seen = await manager.read(accounts.connected, utcnow() - SEEN_WITHIN)
        return {"open_bots": settings.open_bots, "bots": [{"name": a.name} for a in seen if a.role in ("bot", "admin")]}

    @router.post("/api/bots", status_code=201)
    async def make_bot(body: NewBotBody, request: Request) -> dict[str, Any]:
        if not settings.open_bots:
            raise TableError(403, "this server makes bot accounts only on its command line (cardtable bots add)",
                             code="bots_closed", params={})
        address = request.client.host if request.client is not None else ""
        if not makers.take(address):
            raise TableError(429, "too many bot accounts made from your address: wait a minute", code="bots_rate",
                             params={})
        try:
            name = check_bot_name(body.name)
            account, token = await asyncio.to_thread(accounts.add, name, origin="lobby")
        except ValueError as exc:
            taken = "already" in str(exc)
            raise TableError(409 if taken else 400, str(exc), code="bot_name_taken" if taken else "bot_name_bad",
                             params={"name": excerpt(body.name, 40)}) from None
        except Exception as exc:  # the store is down: nothing was made
            raise TableError(503, f"the bot account could not be stored: {excerpt(exc, 120)}", code="store_down",
                             params={}) from None
        return {"name": account.name, "token": token}

    @router.post("/api/tables/{table_id}/invite", status_code=201)
    async def invite(table_id: str, body: InviteBody) -> dict[str, Any]:
        table = await manager.find(table_id)
        if not secrets.compare_digest(hash_token(body.token), table.stored.host_token_hash):
            raise TableError(403, "only the host can invite a bot", code="host_only", params={})
        seat = manager.seat_at(table, body.seat)
        if seat.kind == "remote":
            raise TableError(409, f"seat {body.seat} is held by the bot {seat.name}, connected or away; remove the "
                                  "bot first", code="seat_is_bot", params={"seat": body.seat, "name": seat.name})
        if seat.kind != "bot":
            raise TableError(409, f"seat {body.seat} is not a computer seat", code="seat_taken",
                             params={"seat": body.seat})
        if table.status not in ("waiting", "playing", "paused"):
            raise TableError(409, f"table {table.id} is {table.status}", code="table_status",
                             params={"status": table.status})
        account = await manager.read(accounts.get, body.bot)
        if account is None or account.is_revoked:
            raise TableError(404, f"there is no bot named {excerpt(body.bot, 40)!r}", code="no_bot",
                             params={"bot": excerpt(body.bot, 40)})
        made = await manager.read(invitations.add, table.id, body.seat, account.id)
        # (the bot's seat is its own from its acceptance: nobody but the host, by remove_bot, takes it)
        described = await hub._invitation(made)
        hub.push_invitation(made, described)
        return {"invitation": made.id, "table_id": table.id, "seat": body.seat, "bot": account.name,
                "connected": account.id in hub.sessions or await _seen(manager, accounts, account)}

    @router.post("/api/tables/{table_id}/remove_bot")
    async def remove_bot(table_id: str, body: RemoveBotBody) -> dict[str, Any]:
        table = await manager.find(table_id)
        if not secrets.compare_digest(hash_token(body.token), table.stored.host_token_hash):
            raise TableError(403, "only the host can remove a bot", code="host_only", params={})
        seat = manager.seat_at(table, body.seat)
        if seat.kind != "remote":
            raise TableError(409, f"seat {body.seat} is not held by a bot", code="not_a_bot_seat",
                             params={"seat": body.seat})
        name = seat.name
        await manager.operate(table, {"op": "bot_release", "seat": body.seat, "reason": "removed by the host",
                                      "by_host": True})
        return {"table_id": table.id, "seat": body.seat, "removed": name}

    return router


async def _resume_tournaments(director: LiveTournamentDirector, every: float = 5.0) -> None:
    """Resume live tournaments at the start, and look again now and then (one whose director died elsewhere)."""
    while True:
        try:
            await director.resume()
        except Exception:
            log.exception("resuming live tournaments failed; trying again")
        await asyncio.sleep(every)


def _tournament_router(manager: TableManager, hub: BotHub, director: LiveTournamentDirector) -> APIRouter:
    router = APIRouter()

    @router.post("/api/tournaments/live", status_code=201)
    async def live_tournament(body: LiveTournamentBody, request: Request) -> dict[str, Any]:
        account = await _bearer(hub, request.headers.get("authorization", ""))
        if account is None or not account.is_admin:
            raise TableError(401 if account is None else 403,
                             "a live tournament needs an admin bot account's token in Authorization: Bearer")
        game = manager.game(body.game)
        try:
            entries = [parse_entry(text) for text in body.entries]
            for entry in entries:
                await asyncio.to_thread(check_entry, manager, game, entry, director.accounts)
            tournament = define(game, entries, values=dict(body.options), preset=body.preset, fmt=body.format,
                                games=body.games, seed=body.seed)
        except ValueError as exc:  # InvalidOptions too
            raise TableError(400, excerpt(str(exc).splitlines()[0], 300)) from None
        if tournament.format == "duplicate":
            raise TableError(400, "a live tournament deals every game afresh (round-robin): in duplicate the same "
                                  "cards are played at several tables, and watching one would show them at another")
        live = await director.submit(tournament, body.concurrency, rated=body.rated)
        log.info("admin %s started live tournament %s", account.name, tournament.id[:12])
        return {"tournament": tournament.id, "games": tournament.games, "commitment": live.commitment}

    @router.get("/api/tournaments/{tournament_id}/tables")
    async def live_tables(tournament_id: str) -> dict[str, Any]:
        tables = await manager.read(director.live.tables, tournament_id)
        return {"tournament": tournament_id, "tables": [{"game": i, "table_id": t} for i, t in sorted(tables.items())]}

    return router


async def _bearer(hub: BotHub, header: str) -> BotAccount | None:
    """The live account of an ``Authorization: Bearer`` header, or None."""
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    try:
        return await asyncio.to_thread(hub.accounts.authenticate, token.strip())
    except Exception:
        return None


async def _seen(manager: TableManager, accounts: BotAccounts, account: BotAccount) -> bool:
    seen = await manager.read(accounts.connected, utcnow() - SEEN_WITHIN)
    return any(a.id == account.id for a in seen)


def _websocket(app: FastAPI, hub: BotHub) -> None:
    """``/api/bot/stream``: the token in the ``Authorization: Bearer`` header, never in the URL."""

    @app.websocket("/api/bot/stream")
    async def bot_stream(websocket: WebSocket) -> None:
        account = await _bearer(hub, websocket.headers.get("authorization", ""))
        if account is None:
            await _deny(websocket)
            return
        await websocket.accept()
        address = websocket.client.host if websocket.client is not None else ""
        try:
            session = await hub.open(account, address)
        except Exception:  # the store failed while finding its seats: say so; the bot connects again
            log.exception("bot %s could not be connected", account.name)
            with contextlib.suppress(Exception):
                await websocket.close(code=1011, reason="the server could not load your seats; try again")
            return
        writer = asyncio.create_task(_write(websocket, hub, session))
        try:
            await read_messages(websocket, lambda text: hub.handle(session, text), writer)
        finally:
            hub.close(session)
            if not writer.done():
                writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer


async def _deny(websocket: WebSocket) -> None:
    """Refuse the upgrade with 401 (or, where the server cannot send a response, close before accepting: 403)."""
    try:
        await websocket.send_denial_response(Response(
            '{"detail":"unknown or revoked bot token: send Authorization: Bearer <token>"}', status_code=401,
            media_type="application/json"))
    except Exception:
        with contextlib.suppress(Exception):
            await websocket.close(code=4001, reason="unknown or revoked bot token")


async def _write(websocket: WebSocket, hub: BotHub, session: BotSession) -> None:
    """Send what is queued and what the tables' changes bring; then close if asked."""
    import json

    while True:
        await session.wake.wait()
        session.wake.clear()
        hub.review(session)
        while session.outbox:
            message = session.outbox.popleft()
            await websocket.send_text(json.dumps(message, ensure_ascii=False, separators=(",", ":")))
        if session.closing is not None:
            code, reason = session.closing
            with contextlib.suppress(Exception):
                await websocket.close(code=code, reason=reason)
            return
