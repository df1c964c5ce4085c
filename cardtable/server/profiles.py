"""Profiles and leaderboards: ``/players/NAME`` and ``/leaderboard/GAME``, and the same as JSON under ``/api/``.

A profile shows a player's rating in each game with its history, games played and won, and the last rated
games with links to their replays; a leaderboard shows the best rated players of one game (people, bot
accounts and built-in players, or one kind), ordered by ``rating - uncertainty`` (``store/ladder.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query
from fastapi.responses import FileResponse

from cardtable.server.live import TableError
from cardtable.server.manager import TableManager
from cardtable.store import Ladder, People
from cardtable.store.ladder import KINDS, Player, Profile

STATIC_DIR = Path(__file__).parent / "static"


def profile_json(ladder: Ladder, people: People, name: str, kind: str | None = None) -> dict[str, Any] | None:
    """A player's profile; None if nobody (no account, no rated player) has that name."""
    found = ladder.profile(name, kind)
    if found is None:
        person = people.get(name) if kind in (None, "person") else None
        if person is None:
            return None
        found = Profile(Player(0, "", "person", person.name), {}, [])
    return {
        "name": found.player.name, "kind": found.player.kind,
        "ratings": [r.to_json() for r in found.player.ratings],
        "history": found.history,
        "recent": found.recent,
    }


def install(app: FastAPI, manager: TableManager) -> None:
    """Add the profile and leaderboard pages and their JSON to ``app``."""
    ladder = Ladder(manager.store.engine)
    people = People(manager.store.engine)
    router = APIRouter()

    @router.get("/api/players/{name}")
    async def profile(name: str, kind: Annotated[str | None, Query(max_length=10)] = None) -> dict[str, Any]:
        if len(name) > 100:
            raise TableError(404, "no player with so long a name", code="no_player", params={})
        _check_kind(kind)
        found = await manager.read(profile_json, ladder, people, name, kind)
        if found is None:
            raise TableError(404, f"no player named {name[:40]!r}", code="no_player", params={})
        return found

    @router.get("/api/leaderboard/{game}")
    async def leaderboard(game: str, kind: Annotated[str | None, Query(max_length=10)] = None,
                          limit: Annotated[int, Query(ge=1, le=200)] = 50,
                          offset: Annotated[int, Query(ge=0, le=10**6)] = 0) -> dict[str, Any]:
        title = manager.game(game).info.title  # 400 for an unknown game
        _check_kind(kind)
        players = await manager.read(ladder.leaderboard, game, kind, limit, offset)
        return {"game": game, "title": title, "kind": kind, "offset": offset, "players": players}

    async def ladder_page() -> FileResponse:
        """One page draws a profile and a leaderboard; it reads which from its address."""
        return FileResponse(STATIC_DIR / "ladder.html", media_type="text/html")

    router.add_api_route("/players/{name}", ladder_page, methods=["GET"], include_in_schema=False)
    router.add_api_route("/leaderboard/{game}", ladder_page, methods=["GET"], include_in_schema=False)

    @router.get("/account", include_in_schema=False)
    async def account_page() -> FileResponse:
        return FileResponse(STATIC_DIR / "account.html", media_type="text/html")

    app.include_router(router)


def _check_kind(kind: str | None) -> None:
    if kind is not None and kind not in KINDS:
        raise TableError(400, f"kind is one of {', '.join(KINDS)}, not {kind[:20]!r}")
