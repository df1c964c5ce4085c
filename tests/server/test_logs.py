"""No token in a log line: a real server's whole log, after every route was called with tokens in its address
(people's seat tokens where they belong, bot and admin tokens by mistake), holds none of the tokens issued."""

from __future__ import annotations

import contextlib
import json
import logging
import urllib.error
import urllib.request
from pathlib import Path

from websockets.exceptions import InvalidStatus, WebSocketException
from websockets.sync.client import connect

from cardtable.server.logs import RedactSecrets, redact
from cardtable.store import BotAccounts, Store
from tests.server.realserver import Served, serve, stop


def _get(server: Served, path: str) -> int:
    try:
        with urllib.request.urlopen(server.url + path, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def _socket(server: Served, path: str) -> None:
    """Open a WebSocket at ``path``, read one message if the server sends one, and close it."""
    with contextlib.suppress(InvalidStatus, WebSocketException, TimeoutError, OSError), \
            connect(f"{server.ws}{path}", open_timeout=30) as ws:
        ws.recv(timeout=10)


def test_a_full_server_log_holds_none_of_the_tokens_issued(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'logs.db'}"
    accounts = BotAccounts(Store(database).engine)
    bot = accounts.add("Robo")[1]
    admin = accounts.add("Boss", role="admin")[1]
    with serve(database, tmp_path / "server.log", "--log-level", "info", "--bot-delay", "0") as server:
        status, created = server.request("POST", "/api/tables", {
            "game": "crazy_eights", "options": {"players": 3, "rounds": 1},
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}], "name": "Host"})
        assert status == 201, created
        table, host = created["table_id"], created["token"]
        status, joined = server.request("POST", f"/api/tables/{table}/join", {"seat": 1, "name": "Guest"})
        assert status == 200, joined
        guest = joined["token"]
        tokens = [bot, admin, host, guest]
        _socket(server, f"/ws/tables/{table}?token={host}")  # where a seat token belongs
        _socket(server, f"/ws/tables/{table}?since=0&token={guest}&patches=1")
        for secret in tokens:  # by mistake, on every kind of route
            _socket(server, f"/api/bot/stream?token={secret}")
            _socket(server, f"/ws/tables/{table}?token={secret}")
            for path in ("/api/tournaments", f"/api/tables/{table}", f"/api/tables/{table}/replay", "/api/tables",
                         f"/table/{table}", "/nowhere", "/api/bots"):
                assert _get(server, f"{path}?token={secret}") in (200, 401, 403, 404, 409)
            assert _get(server, f"/api/tables?access_token={secret}&limit=5") == 200
        started = server.request("POST", f"/api/tables/{table}/start", {"token": host})
        assert started[0] == 200, started
        stop(server)  # the whole log, to its last line
        log = server.text_log()
    assert '"GET /api/tables?[hidden]' in log and '"WebSocket /ws/tables/' in log, log[-3000:]
    for secret in tokens:
        assert secret not in log, f"a token is in the log: {secret[:6]}…"


def test_redaction_hides_queries_secret_parameters_and_bot_tokens() -> None:
    assert redact('1.2.3.4 - "GET /ws/tables/ab?since=0&token=xyz HTTP/1.1" 200') == \
        '1.2.3.4 - "GET /ws/tables/ab?[hidden] HTTP/1.1" 200'
    assert redact("refused token=abc&x=1 and ctb_" + "A" * 43) == "refused token=[hidden]&x=1 and ctb_[hidden]"
    assert redact("seat 2 of table x took over") == "seat 2 of table x took over"
    record = logging.LogRecord("uvicorn.access", logging.INFO, "", 0, '%s - "%s %s HTTP/%s" %d',
                               ("1.2.3.4:5", "GET", "/api/x?token=secret", "1.1", 200), None)
    assert RedactSecrets().filter(record) and record.getMessage() == '1.2.3.4:5 - "GET /api/x?[hidden] HTTP/1.1" 200'
    assert json.dumps(record.args).count("secret") == 0
