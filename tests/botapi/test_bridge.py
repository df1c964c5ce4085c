"""The real bridge (``cardtable bot-connect``) with the example bots on a real server: whole games, a server
restart mid-game (the bridge reconnects, the bot keeps its seat), a token revoked mid-game, two processes."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from cardtable.store import BotAccounts, Store
from tests.botapi.helpers import bridge, token_file
from tests.server.postgres import postgres_cluster
from tests.server.realserver import ROOT, Served, serve, stop

PYTHON_BOT = f"{sys.executable} {ROOT / 'examples/bots/random_bot.py'}"
NODE_BOT = f"node {ROOT / 'examples/bots/random_bot.js'}"


def wait_for(what: Any, timeout: float = 60.0, every: float = 0.1) -> Any:
    """``what()`` once it is true; fails after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = what()
        if found:
            return found
        time.sleep(every)
    raise AssertionError(f"gave up waiting for {getattr(what, '__name__', what)}")


def new_table(server: Served, game: str, players: int, options: dict[str, Any]) -> dict[str, Any]:
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
    status, created = server.request("POST", "/api/tables", {"game": game, "options": {"players": players, **options},
                                                             "seats": seats, "name": "Host", "seed": 11})
    assert status == 201, created
    return dict(created)


def seat(server: Served, created: dict[str, Any], index: int, bot: str) -> None:
    """Invite a connected bot; wait until it holds the seat (the bridge accepts)."""
    wait_for(lambda: any(b["name"] == bot for b in server.request("GET", "/api/bots")[1]["bots"]))
    status, answer = server.request("POST", f"/api/tables/{created['table_id']}/invite",
                                    {"token": created["token"], "seat": index, "bot": bot})
    assert status == 201, answer
    wait_for(lambda: summary(server, created)["seats"][index]["kind"] == "remote")


def summary(server: Served, created: dict[str, Any]) -> dict[str, Any]:
    return dict(server.request("GET", f"/api/tables/{created['table_id']}")[1])


def _diagnose(tmp_path: Path, failure: BaseException) -> AssertionError:
    logs = {p.name: p.read_text(errors="replace")[-2500:] for p in sorted(tmp_path.glob("*.log"))}
    text = "\n".join(f"--- {name} ---\n{body}" for name, body in logs.items())
    return AssertionError(f"{failure!r}\n{text}")


def test_a_restart_mid_game_and_a_revoked_token(tmp_path: Path) -> None:
    """The bridge reconnects after the server restarts mid-game and plays on in its seat; then its token is
    revoked mid-game: the bridge stops with that reason, the seat goes to the computer, the game ends."""
    database = f"sqlite:///{tmp_path / 'live.db'}"
    py = token_file(database, tmp_path, "py")
    args = ("--bot-delay", "0.1", "--takeover-after", "0")
    log = tmp_path / "bridge.log"
    try:
        with ExitStack() as stack:
            first = stack.enter_context(serve(database, tmp_path / "a.log", *args))
            connected = stack.enter_context(bridge(first.url, py, PYTHON_BOT, log))
            created = new_table(first, "crazy_eights", 3, {"rounds": 3})
            seat(first, created, 1, "py")
            assert first.request("POST", f"/api/tables/{created['table_id']}/start",
                                 {"token": created["token"]})[0] == 200
            wait_for(lambda: summary(first, created)["version"] >= 6)
            # The API says what is true: the bot's program is connected while it plays its seat.
            playing = summary(first, created)["seats"][1]
            assert playing["connected"] is True and not playing["away"], playing
            stop(first)  # SIGTERM mid-game: every accepted move is stored, the sockets closed
            # A new process on the same port and database resumes the table; the bridge reconnects to it.
            second = stack.enter_context(serve(database, tmp_path / "b.log", *args, port=first.port))
            before = summary(second, created)["version"]
            assert summary(second, created)["status"] == "playing"
            wait_for(lambda: log.read_text().count("connected to") >= 2)
            wait_for(lambda: summary(second, created)["version"] > before + 6)
            assert summary(second, created)["seats"][1]["kind"] == "remote"
            back = wait_for(lambda: (s := summary(second, created)["seats"][1])["connected"] and s)
            assert not back["away"], back
            BotAccounts(Store(database).engine).revoke("py")
            assert connected.wait(30) == 2
            end = wait_for(lambda: (s := summary(second, created))["status"] == "finished" and s, timeout=120)
            assert end["seats"][1]["kind"] == "bot"
        text = log.read_text()
        assert "the bot's token was revoked" in text
        # Seats as the table page numbers them (the protocol's seat 1 is the page's seat 2); the seat back after
        # the restart is said.
        table = created["table_id"]
        assert f"accepting the invitation to table {table} (seat 2, crazy_eights)" in text
        assert f"table {table}: playing seat 2 (crazy_eights)" in text
        assert f"table {table}: seat 2 is the bot's again" in text
        assert "ctb_" not in text and "ctb_" not in (tmp_path / "a.log").read_text() + (tmp_path / "b.log").read_text()
    except BaseException as failure:
        raise _diagnose(tmp_path, failure) from failure


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    with postgres_cluster() as url:
        yield url


def test_a_bot_connected_to_one_process_plays_at_a_table_another_drives(postgres: str, tmp_path: Path) -> None:
    """Process A creates and drives the table; the bridge is connected to process B only."""
    js = token_file(postgres, tmp_path, "js")
    args = ("--bot-delay", "0.05", "--takeover-after", "0", "--lease-ttl", "5")
    try:
        with serve(postgres, tmp_path / "a.log", *args) as a, serve(postgres, tmp_path / "b.log", *args) as b, \
                bridge(b.url, js, NODE_BOT, tmp_path / "bridge.log"):
            created = new_table(a, "durak", 3, {})
            seat(a, created, 2, "js")
            assert a.request("POST", f"/api/tables/{created['table_id']}/start", {"token": created["token"]})[0] == 200
            end = wait_for(lambda: (s := summary(a, created))["status"] == "finished" and s, timeout=120)
            status, record = a.request("GET", f"/api/tables/{created['table_id']}/record")
            assert status == 200
        moves = [entry["seat"] for entry in record["actions"]]
        assert 2 in moves, "the bot never played"
        assert end["seats"][2]["kind"] == "remote"
        assert "lost decisions: none" in " ".join(record["notes"]), record["notes"]
        assert "a.log" and "forwarded" not in (tmp_path / "bridge.log").read_text()
    except BaseException as failure:
        raise _diagnose(tmp_path, failure) from failure
