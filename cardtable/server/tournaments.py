"""Tournament pages and API: the stored arena tournaments, their standings, ratings and games.

``GET /api/tournaments`` lists them; ``GET /api/tournaments/{id}`` gives one with its standings (the stored
results once finished, else computed from the games stored so far), its ratings after each game and its
games; ``GET /api/tournaments/{id}/games/{n}/record`` gives a stored game's record (every stored game is
over, so its record hides nothing anyone still plays for) and ``…/replay?seat=N`` its frames for the
browser replay page (``/replay.html``), as a spectator or from a seat. ``/tournaments`` and
``/tournaments/{id}`` are the pages.

A live tournament's deals are sealed (``cardtable.arena.sealed``): while it is played its answers give
``"seed": null`` and ``"sealed": {"commitment"}``; once finished, ``"sealed": {"commitment", "seed", "salt"}``
and each stored game's seed, for ``cardtable arena verify``. An offline arena's tournament gives its seed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse

from cardtable.arena.play import GameResult
from cardtable.arena.standings import rate
from cardtable.arena.tournament import summary
from cardtable.core import GameRecord
from cardtable.server.replay import replay_frames
from cardtable.store.live_tournaments import LiveTournament, LiveTournaments
from cardtable.store.tournaments import StoredTournament, TournamentStore

router = APIRouter()
PAGE = Path(__file__).parent / "static" / "tournament.html"
_ID = re.compile(r"^[0-9a-f]{64}$")
LIST_FIELDS = ("index", "deal", "seating", "status", "scores", "winners", "reason", "error", "failures",
               "forfeited")


def tournament_store(request: Request) -> TournamentStore:
    """The app's tournament store, on the database of its table store (made once per app)."""
    store: TournamentStore | None = getattr(request.app.state, "tournaments", None)
    if store is None:
        store = TournamentStore(request.app.state.manager.store.engine)
        request.app.state.tournaments = store
    return store


def live_store(request: Request) -> LiveTournaments:
    """The app's live tournaments' store (made once per app)."""
    store: LiveTournaments | None = getattr(request.app.state, "live_tournaments", None)
    if store is None:
        store = LiveTournaments(request.app.state.manager.store.engine)
        request.app.state.live_tournaments = store
    return store


def sealed_json(t: StoredTournament, live: LiveTournament | None) -> dict[str, Any] | None:
    """What a live tournament publishes of its sealed deals: the commitment, and the seed and salt once finished;
    ``None`` for an offline arena's tournament (or a live one asked for before deals were sealed)."""
    if live is None or live.commitment is None:
        return None
    if t.status != "finished":
        return {"commitment": live.commitment}
    return {"commitment": live.commitment, "seed": t.seed, "salt": live.salt}


def _is_sealed(sealed: dict[str, Any] | None) -> bool:
    """Whether the deals are still sealed (a live tournament being played)."""
    return sealed is not None and "salt" not in sealed


def _find(store: TournamentStore, tournament_id: str) -> StoredTournament:
    found = store.get(tournament_id) if _ID.match(tournament_id) else None
    if found is None:
        raise HTTPException(404, f"no tournament {tournament_id[:80]!r}")
    return found


def _brief(t: StoredTournament, sealed: dict[str, Any] | None) -> dict[str, Any]:
    return {"id": t.id, "game": t.game, "format": t.format, "games": t.games, "stored_games": t.stored_games,
            "seed": None if _is_sealed(sealed) else t.seed, "sealed": sealed, "status": t.status,
            "entries": [{"name": n, "spec": s} for n, s in t.entries],
            "created_at": t.created_at.isoformat(), "updated_at": t.updated_at.isoformat()}


@router.get("/api/tournaments")
def list_tournaments(request: Request) -> list[dict[str, Any]]:
    """Every stored tournament, newest first."""
    live = live_store(request).all()
    return [_brief(t, sealed_json(t, live.get(t.id))) for t in tournament_store(request).all()]


@router.get("/api/tournaments/{tournament_id}")
def get_tournament(request: Request, tournament_id: str) -> dict[str, Any]:
    """One tournament: its standings, ratings over games and its games (without records)."""
    store = tournament_store(request)
    return published(store, live_store(request), _find(store, tournament_id))


def published(store: TournamentStore, live: LiveTournaments, t: StoredTournament) -> dict[str, Any]:
    """What ``GET /api/tournaments/{id}`` answers for a stored tournament."""
    sealed = sealed_json(t, live.get(t.id))
    rows = store.games(t.id, with_records=False)
    results = [GameResult.from_json(row) for row in rows]
    standings = t.results if t.results is not None else summary(
        t.id, t.game, t.options, t.format, t.games, t.seed, t.entries, results)
    fields = LIST_FIELDS if _is_sealed(sealed) else (*LIST_FIELDS, "seed")
    if _is_sealed(sealed):
        standings = {**standings, "seed": None}
    _, history = rate(t.entries, results)
    return {**_brief(t, sealed), "options": t.options, "timeout": t.timeout, "game_timeout": t.game_timeout,
            "max_failures": t.max_failures, "results": standings, "rating_history": history,
            "stored": [{k: row[k] for k in fields} for row in rows]}


@router.get("/api/tournaments/{tournament_id}/games/{index}/record")
def game_record(request: Request, tournament_id: str, index: int) -> dict[str, Any]:
    """A stored game's record (``GameRecord.to_json()``), ready for ``cardtable replay``."""
    store = tournament_store(request)
    t = _find(store, tournament_id)
    stored = store.game(t.id, index)
    if stored is None:
        raise HTTPException(404, f"tournament {t.id[:12]} has no stored game {index}")
    record: dict[str, Any] = dict(stored["record"])
    return record


@router.get("/api/tournaments/{tournament_id}/games/{index}/replay")
def game_replay(request: Request, tournament_id: str, index: int, seat: int | None = None) -> dict[str, Any]:
    """A stored game step by step for ``/replay.html``: as a spectator, or as ``seat`` saw it."""
    store = tournament_store(request)
    stored = store.game(_find(store, tournament_id).id, index)
    if stored is None:
        raise HTTPException(404, f"tournament {tournament_id[:12]} has no stored game {index}")
    game = request.app.state.manager.game(str(stored["record"]["game"]))
    record = GameRecord.from_json(stored["record"], game)
    players = int(game.options(record.options).players)
    if seat is not None and not 0 <= seat < players:
        raise HTTPException(422, f"seat must be 0–{players - 1} or absent (a spectator), not {seat}")
    return {"game": game.info.name, "title": game.info.title, "seat": seat,
            "seats": [{"seat": s, "name": name} for s, name in enumerate(_seat_names(stored, players))],
            "frames": replay_frames(game, record, seat)}


def _seat_names(stored: dict[str, Any], players: int) -> list[str]:
    """Seat labels for a stored game: the entries' names in their seats, else numbers from 1."""
    names = stored.get("seating")
    if isinstance(names, list) and len(names) == players:
        return [str(n) for n in names]
    return [f"Seat {s + 1}" for s in range(players)]


@router.get("/tournaments", include_in_schema=False)
def tournaments_page() -> FileResponse:
    """The list of tournaments."""
    return FileResponse(PAGE, media_type="text/html")


@router.get("/tournaments/{tournament_id}", include_in_schema=False)
def tournament_page(tournament_id: str) -> FileResponse:
    """One tournament's page (its script reads the id from the address)."""
    return FileResponse(PAGE, media_type="text/html")
