"""Fixtures for the server tests: an app on a temporary SQLite file, table helpers, a game driver."""

from __future__ import annotations

import json
import os
import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

import cardtable
from cardtable.server import create_app
from cardtable.server.views import apply_patch

#: Option values that keep a whole game short, by game; options a game does not have are left out.
SHORT_OPTIONS: dict[str, Any] = {"rounds": 1, "target": 32, "scoring.target": 15}
GAMES = sorted(cardtable.games())


def short_options(game_name: str) -> dict[str, Any]:
    """Options of ``game_name`` that make a quick game (the smallest choice of rounds or target)."""
    specs = {s.name: s for s in cardtable.load_game(game_name).info.option_specs}
    out: dict[str, Any] = {}
    for name, value in SHORT_OPTIONS.items():
        spec = specs.get(name)
        if spec is None:
            continue
        if spec.choices is not None:
            numbers = [c for c in spec.choices if isinstance(c, int) and not isinstance(c, bool)]
            if numbers:
                out[name] = min(numbers)
        else:
            out[name] = value
    return out


#: Set to a PostgreSQL server's admin URL (``postgresql+psycopg://postgres:pw@localhost/postgres``) to run
#: the server tests against PostgreSQL instead of SQLite: each test gets a database of its own.
POSTGRES_ENV = "CARDTABLE_TEST_POSTGRES_URL"


@pytest.fixture
def db_url(tmp_path: Path) -> Iterator[str]:
    """A fresh database: a SQLite file, or a new PostgreSQL database when CARDTABLE_TEST_POSTGRES_URL is set."""
    admin = os.environ.get(POSTGRES_ENV)
    if not admin:
        yield f"sqlite:///{tmp_path / 'cardtable.db'}"
        return
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"cardtable_test_{uuid.uuid4().hex[:12]}"
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(admin).set(database=name).render_as_string(hide_password=False)
    finally:
        with engine.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        engine.dispose()


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """A running app (lifespan started) whose computer players act at once."""
    with TestClient(create_app(db_url, bot_delay=0)) as test_client:
        yield test_client


def create(client: TestClient, game: str, kinds: list[str], *, name: str = "Host", seed: int = 7,
           bot: str | None = None, **extra: Any) -> dict[str, Any]:
    """Create a table with seats of these kinds ("human" / "bot", the bot ``bot`` or the game's default);
    the 201 response."""
    seats = [{"kind": k} if k != "bot" or bot is None else {"kind": k, "bot": bot} for k in kinds]
    body = {"game": game, "options": short_options(game), "seats": seats,
            "name": name, "seed": seed, **extra}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def human_table(client: TestClient, game: str, players: int, *, seed: int = 7) -> tuple[str, list[str]]:
    """A waiting table whose seats are all people; returns its id and every seat's token."""
    created = create(client, game, ["human"] * players, seed=seed)
    tokens = [created["token"]]
    for seat in range(1, players):
        joined = client.post(f"/api/tables/{created['table_id']}/join", json={"seat": seat, "name": f"P{seat}"})
        assert joined.status_code == 200, joined.text
        tokens.append(joined.json()["token"])
    return created["table_id"], tokens


def start(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    """Start a table as its host."""
    response = client.post(f"/api/tables/{table_id}/start", json={"token": token})
    assert response.status_code == 200, response.text
    return dict(response.json())


RECEIVE_TIMEOUT = 30.0


def receive(ws: WebSocketTestSession, timeout: float = RECEIVE_TIMEOUT) -> dict[str, Any]:
    """The next message on a socket, as JSON; fails after ``timeout`` seconds instead of hanging the suite."""
    stream = getattr(ws, "_send_rx", None)
    if stream is None:  # another Starlette: no timeout, but the same message
        message = ws.receive_json()
    else:
        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await stream.receive()

        raw = ws.portal.call(get)
        if raw["type"] == "websocket.close":
            raise WebSocketDisconnect(raw.get("code", 1000), raw.get("reason", ""))
        message = json.loads(raw["text"])
    assert isinstance(message, dict), message
    return message


class Follower:
    """What a client that applies patches holds: each patch is applied to the last view (``?patches=1``)."""

    def __init__(self) -> None:
        self.view: dict[str, Any] | None = None
        self.patches = 0

    def follow(self, message: dict[str, Any]) -> dict[str, Any]:
        """The message as the client sees it: a patch becomes the view it makes; other messages unchanged."""
        if message["type"] == "patch":
            assert self.view is not None, "a patch before any view"
            message = apply_patch(self.view, message)
            self.patches += 1
        if message["type"] == "view":
            self.view = message
        return message


def play_alone(ws: WebSocketTestSession, *, seed: int = 0, follower: Follower | None = None) -> list[dict[str, Any]]:
    """Play this socket's seat (random legal actions) until the game ends; every message received (patches
    applied by ``follower``, for a socket opened with ``?patches=1``)."""
    rng = random.Random(seed)
    messages: list[dict[str, Any]] = []
    acted_on = -1
    follower = follower or Follower()
    while True:
        message = follower.follow(receive(ws))
        messages.append(message)
        if message["type"] != "view":
            continue
        if message["status"] == "finished":
            return messages
        if message["legal_actions"] and message["version"] != acted_on:
            acted_on = message["version"]
            choice = rng.choice(message["legal_actions"])
            ws.send_json({"type": "action", "version": message["version"], "action": choice["action"]})
