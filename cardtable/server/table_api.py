"""The table's extra endpoints: settings, chat and reactions, taking over a seat, rematch, replays, rules.

``install(app, manager)`` adds them to the app in one call; they reach the manager only through its
public methods and the small ``on_change`` hook (the turn timer).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query
from fastapi.responses import FileResponse
from markdown_it import MarkdownIt
from pydantic import Field, StringConstraints

from cardtable.core import GameRecord
from cardtable.server.live import TableError
from cardtable.server.manager import TableManager
from cardtable.server.replacements import Replacements
from cardtable.server.replay import replay_frames
from cardtable.server.resignations import Resignations
from cardtable.server.schemas import Name, Token, _Body
from cardtable.server.social import Social
from cardtable.server.takeovers import Takeovers
from cardtable.server.timers import TurnTimers
from cardtable.server.views import seats_json
from cardtable.store import hash_token

STATIC_DIR = Path(__file__).parent / "static"
RULES_DIR = Path(__file__).parent / "rules"
LANGUAGES = ("en", "es", "ru")
log = logging.getLogger("cardtable.server")


class SettingsBody(_Body):
    """``POST /api/tables/{id}/settings``: the host's token and the settings to change."""

    token: Token
    pace_ms: int | None = None
    turn_seconds: float | None = None
    allow_takeover: bool | None = None


class ChatBody(_Body):
    """``POST /api/tables/{id}/chat``: a line of chat or a quick reaction."""

    token: Token
    text: Annotated[str, StringConstraints(max_length=1000)] | None = None
    reaction: Annotated[str, StringConstraints(max_length=40)] | None = None


class TakeBody(_Body):
    """``POST /api/tables/{id}/take``: take a computer (or free) seat under a name."""

    seat: Annotated[int, Field(ge=0, lt=64)]
    name: Name


class ReplaceVoteBody(_Body):
    """``POST /api/tables/{id}/replace_vote``: a seated person's token and the absent person's seat."""

    token: Token
    seat: Annotated[int, Field(ge=0, lt=64)]


class RematchBody(_Body):
    """``POST /api/tables/{id}/rematch``, ``…/reader`` and ``…/continue``: the caller's token."""

    token: Token


def install(app: FastAPI, manager: TableManager) -> Social:
    """Add the table's extra endpoints and the turn timer to ``app``; returns the social state."""
    social = Social(manager)
    takeovers = Takeovers(manager, social)
    timers = TurnTimers(manager, social)
    manager.on_change.append(social.on_change)
    manager.on_change.append(timers.on_change)
    manager.before_computer_move.append(social.wait_for_readers)
    manager.before_computer_move.append(takeovers.hand_over_due)
    manager.run_ahead_checks.append(takeovers.no_takeover_pending)
    manager.on_relay.append(social.on_relay)
    app.state.social = social
    app.include_router(_router(manager, social, takeovers, Replacements(manager, social)))
    _stop_timers_on_shutdown(app, timers)
    return social


def _stop_timers_on_shutdown(app: FastAPI, timers: TurnTimers) -> None:
    outer = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(a: FastAPI) -> AsyncIterator[Any]:
        async with outer(a) as value:
            try:
                yield value
            finally:
                await timers.shutdown()

    app.router.lifespan_context = lifespan


def _router(manager: TableManager, social: Social, takeovers: Takeovers, replacements: Replacements) -> APIRouter:
    router = APIRouter()
    resignations = Resignations(manager)

    @router.post("/api/tables/{table_id}/resign")
    async def resign(table_id: str, body: RematchBody) -> dict[str, Any]:
        return await resignations.resign(await manager.find(table_id), body.token)

    @router.post("/api/tables/{table_id}/replace_vote")
    async def replace_vote(table_id: str, body: ReplaceVoteBody) -> dict[str, Any]:
        return await replacements.vote(await manager.find(table_id), body.token, body.seat)

    @router.get("/api/tables/{table_id}/social")
    async def social_state(table_id: str) -> dict[str, Any]:
        return social.state(await manager.find(table_id))

    @router.post("/api/tables/{table_id}/settings")
    async def settings(table_id: str, body: SettingsBody) -> dict[str, Any]:
        # Only the fields sent change; ``"turn_seconds": null`` switches the timer off.
        changes = body.model_dump(exclude_unset=True, exclude={"token"})
        await social.configure(await manager.find(table_id), body.token, changes)
        return social.state(await manager.find(table_id))

    @router.post("/api/tables/{table_id}/chat")
    async def chat(table_id: str, body: ChatBody) -> dict[str, Any]:
        table = await manager.find(table_id)
        if (body.text is None) == (body.reaction is None):
            raise TableError(400, 'send either "text" or "reaction"')
        if body.text is not None:
            return social.say(table, body.token, body.text)
        return social.react(table, body.token, str(body.reaction))

    @router.post("/api/tables/{table_id}/reader")
    async def reader(table_id: str, body: RematchBody) -> dict[str, Any]:
        social.reads_summaries(await manager.find(table_id), body.token)
        return {"table_id": table_id}

    @router.post("/api/tables/{table_id}/continue")
    async def continue_(table_id: str, body: RematchBody) -> dict[str, Any]:
        social.read(await manager.find(table_id), body.token)
        return {"table_id": table_id}

    @router.post("/api/tables/{table_id}/take")
    async def take(table_id: str, body: TakeBody) -> dict[str, Any]:
        table = await manager.find(table_id)
        if (table.stored.settings or {}).get("rated"):  # each seat's rating goes to whoever sat there from the deal
            raise TableError(409, "seats of a rated table are not taken over", code="rated_takeover", params={})
        token, pending = await takeovers.take_seat(table, body.seat, body.name)
        return {"table_id": table_id, "seat": body.seat, "token": token, "pending": pending}

    @router.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, body: RematchBody) -> dict[str, Any]:
        new, token = await social.rematch(await manager.find(table_id), body.token)
        return {"table_id": new.id, "token": token}

    @router.get("/api/finished")
    async def finished() -> list[dict[str, Any]]:
        return await manager.read(_finished, manager)

    @router.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str, token: str | None = None) -> dict[str, Any]:
        table = await manager.find(table_id)
        if table.status != "finished" or table.record is None:
            raise TableError(409, "a replay is available once the game is finished", code="replay_not_finished",
                             params={})
        seat = None if not token else table.seat_of_token(hash_token(token))
        if token and seat is None:
            raise TableError(403, "this token held no seat at this table", code="no_token_seat", params={})
        record: GameRecord = table.record
        frames = replay_frames(table.game, record, seat, ended=table.stored.outcome)  # a resignation's result too
        return {"game": table.game.info.name, "title": table.game.info.title, "table_id": table.id,
                "seat": seat, "seats": seats_json(table), "frames": frames}

    @router.get("/api/games/{name}/rules")
    async def rules(name: str, lang: Annotated[str, Query(max_length=8)] = "en") -> dict[str, Any]:
        manager.game(name)  # 400 for an unknown game
        return rules_html(name, lang)

    @router.get("/replay.html", include_in_schema=False)
    async def replay_page() -> FileResponse:
        return FileResponse(STATIC_DIR / "replay.html", media_type="text/html")

    @router.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC_DIR / "favicon.svg", media_type="image/svg+xml")

    return router


def rules_html(game: str, lang: str) -> dict[str, Any]:
    """The players' rules of a game as HTML, in ``lang`` when written in it, else in English."""
    chosen = lang if lang in LANGUAGES and (RULES_DIR / f"{game}.{lang}.md").is_file() else "en"
    path = RULES_DIR / f"{game}.{chosen}.md"
    if not path.is_file():
        raise TableError(404, f"no rules text for {game}")
    # Our own text, rendered without raw HTML: nothing in it can inject markup.
    html = MarkdownIt("commonmark", {"html": False}).enable("table").render(path.read_text("utf-8"))
    return {"game": game, "lang": chosen, "html": html}


def _finished(manager: TableManager, limit: int = 20) -> list[dict[str, Any]]:
    """The most recently finished tables: id, game, title, when, seat names (for the lobby's replays)."""
    out = []
    for stored in manager.store.recent_finished(limit):
        game = manager.games.get(stored.game)
        out.append({"table_id": stored.id, "game": stored.game, "title": game.info.title if game else stored.game,
                    "updated": stored.updated_at.isoformat(), "seats": [s.name for s in stored.seats]})
    return out
