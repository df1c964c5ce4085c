"""Helpers for the Bot API tests: an app with bot accounts, a bot's stream, seating it by invitation."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from cardtable.server import create_app
from cardtable.server.botapi import BotApiSettings
from cardtable.store import BotAccounts, Store
from tests.server.conftest import receive

ROOT = Path(__file__).resolve().parents[2]


def bot_app(db_url: str, **settings: Any) -> TestClient:
    """An app whose computer players act at once and whose absent people are covered at once."""
    return TestClient(create_app(db_url, bot_delay=0, takeover_after=0, bots=BotApiSettings(**settings)))


def account(db_url: str, name: str, **kwargs: Any) -> str:
    """Make a bot account; its token."""
    return BotAccounts(Store(db_url).engine).add(name, **kwargs)[1]


def until(ws: WebSocketTestSession, kind: str, seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Messages up to the first of ``kind`` (kept in ``seen``); that one."""
    while True:
        message = receive(ws)
        if seen is not None:
            seen.append(message)
        if message["type"] == kind:
            return message


@contextmanager
def stream(client: TestClient, token: str) -> Iterator[WebSocketTestSession]:
    """A bot's stream, its ``welcome`` read."""
    with client.websocket_connect("/api/bot/stream", headers={"Authorization": f"Bearer {token}"}) as ws:
        welcome = receive(ws)
        assert welcome["type"] == "welcome", welcome
        yield ws


def table(client: TestClient, game: str, players: int, *, options: dict[str, Any] | None = None,
          seed: int = 7, bot: str = "random") -> dict[str, Any]:
    """A waiting table: a person (the host) in seat 0, computer players elsewhere."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": bot}] * (players - 1)
    response = client.post("/api/tables", json={"game": game, "options": {"players": players, **(options or {})},
                                                "seats": seats, "name": "Host", "seed": seed})
    assert response.status_code == 201, response.text
    return dict(response.json())


def seat_bot(client: TestClient, ws: WebSocketTestSession, created: dict[str, Any], seat: int, bot: str) -> dict:
    """The host invites ``bot`` into ``seat``; the bot accepts; its ``hello``."""
    response = client.post(f"/api/tables/{created['table_id']}/invite",
                           json={"token": created["token"], "seat": seat, "bot": bot})
    assert response.status_code == 201, response.text
    invited = until(ws, "invited")
    assert invited["invitation"]["table"] == created["table_id"] and invited["invitation"]["seat"] == seat
    ws.send_json({"type": "accept", "invitation": invited["invitation"]["id"]})
    hello = until(ws, "hello")
    assert hello["table"] == created["table_id"] and hello["seat"] == seat
    ws.send_json({"type": "ready", "table": hello["table"], "name": bot, "protocol": 1})
    return hello


def start(client: TestClient, created: dict[str, Any]) -> None:
    """The host deals."""
    response = client.post(f"/api/tables/{created['table_id']}/start", json={"token": created["token"]})
    assert response.status_code == 200, response.text


def play(ws: WebSocketTestSession, *, seed: int = 0, answer: Any = None) -> list[dict[str, Any]]:
    """Answer every ``act`` with a random legal index (or ``answer(act)``) until ``end``; every message."""
    rng = random.Random(seed)
    seen: list[dict[str, Any]] = []
    while True:
        try:
            message = receive(ws)
        except TimeoutError:  # say what the bot had heard: the failure is in what came before the silence
            heard = [{k: v for k, v in m.items() if k not in ("observation", "legal", "templates")} for m in seen]
            raise AssertionError(f"the bot heard nothing more after {len(seen)} message(s); the last: "
                                 f"{heard[-6:]}") from None
        seen.append(message)
        if message["type"] == "end":
            return seen
        if message["type"] == "act":
            reply = answer(message) if answer is not None else {"index": rng.randrange(len(message["legal"]))}
            if reply is not None:
                ws.send_json({"type": "action", "table": message["table"], "id": message["id"], **reply})


def token_file(database: str, folder: Path, name: str) -> Path:
    """A bot account made by the server's admin (``cardtable bots add``) and the file holding its token."""
    path = folder / f"{name}.token"
    path.write_text(BotAccounts(Store(database).engine).add(name)[1])
    return path


@contextmanager
def bridge(url: str, token: Path, command: str, log: Path, *extra: str) -> Iterator[subprocess.Popen[bytes]]:
    """``cardtable bot-connect URL`` as a subprocess (its output in ``log``), stopped (SIGTERM) on the way out."""
    code = "from cardtable.cli import main; main()"
    with log.open("ab") as out:
        process = subprocess.Popen([sys.executable, "-c", code, "bot-connect", url, command, "--token-file",
                                    str(token), *extra], stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def wait_finished(client: Any, tournament: str, timeout: float = 120) -> dict[str, Any]:
    """The live tournament's public answer once it is finished; ``AssertionError`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = client.get(f"/api/tournaments/{tournament}").json()
        if state["status"] == "finished":
            return dict(state)
        time.sleep(0.1)
    raise AssertionError(f"tournament {tournament[:12]} did not finish")
