"""Two real ``cardtable serve`` processes on one PostgreSQL end rated games at the same moments: every game is
counted once on the ladder, and no update is lost (issue 35, item 4, through whole servers)."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.engine import Engine
from websockets.sync.client import ClientConnection, connect

import cardtable
from cardtable.core import to_json
from cardtable.server.auth import COOKIE, CSRF_HEADER
from cardtable.store import Ladder, Store
from cardtable.store.ladder import Entrant, RatedPlayerRow, RatingRow, ResultRow
from cardtable.store.people import PersonRow
from tests.server.postgres import postgres_cluster
from tests.server.realserver import Served, serve

#: Rated tables of two computer players each process starts at once.
BOT_TABLES = 6
#: Rated duels between two people on each process, their last moves sent at the same moment.
DUELS = 4
VERSION = cardtable.__version__
#: A bound against a hang, not a speed figure.
TIMEOUT = 300.0
#: Run by each server first: the rating step between reading the players' ratings and writing the new ones
#: takes 50 ms longer, so that updates of the two processes sent at the same moment do overlap (without it the
#: window is well under a millisecond and a lost update would rarely show). Checked: with the ``FOR UPDATE``
#: of ``Ladder.rate`` taken out, the built-in players' ratings here differ from the serial ones.
SLOW_RATING = """
import time
import cardtable.store.ladder as ladder
_new_ratings = ladder.new_ratings
def _slow(*args, **kwargs):
    time.sleep(0.05)
    return _new_ratings(*args, **kwargs)
ladder.new_ratings = _slow
"""


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    """A throwaway PostgreSQL cluster for this module (started here, stopped after)."""
    with postgres_cluster() as url:
        yield url


class Browser:
    """One person's browser against one server: the session cookie and the CSRF token it sends."""

    def __init__(self, served: Served, cookie: str = "", csrf: str = "") -> None:
        self.served, self.cookie, self.csrf = served, cookie, csrf

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """One HTTP request with the cookie (and the CSRF token); the status and the JSON answer."""
        headers = {"content-type": "application/json"}
        if self.cookie:
            headers |= {"cookie": f"{COOKIE}={self.cookie}", CSRF_HEADER: self.csrf}
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.served.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                cookie = response.headers.get("set-cookie", "")
                if cookie.startswith(f"{COOKIE}="):
                    self.cookie = cookie.split(";", 1)[0].split("=", 1)[1]
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def on(self, served: Served) -> Browser:
        """The same session against another process (sessions live in the shared database)."""
        return Browser(served, self.cookie, self.csrf)


def test_two_servers_ending_rated_games_at_once_count_every_game_once(database: str, tmp_path: Path) -> None:
    """Alice and Bob (signed up on A and on B) play rated Durak duels on both processes and send the last move
    of every duel at the same moment, while two built-in players finish rated games on both: each finished
    table has one result per seat, each player's games and wins are its tables', and the ratings are exactly
    those of the same results rated one after the other in the order they were stored (an update computed
    from a rating that the other process had meanwhile changed would differ)."""
    try:
        tables = _play_on_two_servers(database, tmp_path)
    except BaseException as failure:  # the servers' own words help more than a timeout
        logs = {name: (tmp_path / f"{name}.log").read_text(errors="replace")[-3000:] for name in ("a", "b")}
        raise AssertionError(f"{failure!r}\n--- a.log ---\n{logs['a']}\n--- b.log ---\n{logs['b']}") from failure
    engine = create_engine(database)
    try:
        with engine.connect() as c:
            people = {name: person_id for person_id, name in c.execute(select(PersonRow.id, PersonRow.name))}
        results = _results(engine)
        assert sorted(results) == sorted(tables), "a finished rated table missing from the ladder, or a stray one"
        assert all(sorted(seat for seat, *_ in rows) == [0, 1] for rows in results.values())
        stored = _ratings(engine)
        expected_games = {f"builtin:random@{VERSION}": 2 * BOT_TABLES, f"builtin:heuristic@{VERSION}": 2 * BOT_TABLES,
                          f"person:{people['alice']}": 2 * DUELS, f"person:{people['bob']}": 2 * DUELS}
        assert {key: games for key, (games, *_) in stored.items()} == expected_games
        wins = {key: sum(won for rows in results.values() for _, k, _, _, won, _ in rows if k == key)
                for key in stored}
        assert {key: w for key, (_, w, *_) in stored.items()} == wins
        serial = _rated_one_after_another(results, tmp_path)
        assert sorted(serial) == sorted(stored)
        for key, (games, won, mu, sigma) in stored.items():
            assert (games, won) == serial[key][:2] and (mu, sigma) == pytest.approx(serial[key][2:], rel=1e-12), key
    finally:
        engine.dispose()


def _play_on_two_servers(database: str, tmp_path: Path) -> list[str]:
    """Start both servers, play every table to its end, the duels' last moves at once on both processes;
    the finished tables' ids."""
    # The default lease (15 s): this test is not about takeovers, and on a loaded machine a short lease can
    # lapse while its renewal waits for the rating writes.
    args = ("--bot-delay", "0")
    with serve(database, tmp_path / "a.log", *args, prelude=SLOW_RATING) as a, \
            serve(database, tmp_path / "b.log", *args, prelude=SLOW_RATING) as b:
        alice, bob = _sign_up(a, "alice"), _sign_up(b, "bob")
        people = [(alice, bob.on(a)), (alice.on(b), bob)]  # on A, on B
        bots = [[_create(host, [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "heuristic"}], n)
                 for n in range(BOT_TABLES)] for host, _ in people]
        duels = [(host, guest, _create(host, [{"kind": "human"}, {"kind": "human"}], seed), seed)
                 for host, guest in people for seed in range(DUELS)]
        barrier = threading.Barrier(len(duels) + len(bots))
        failures: list[BaseException] = []

        def run(work: Any, *args: Any) -> None:
            try:
                work(*args)
            except BaseException as failure:  # re-raised by the main thread below
                barrier.abort()
                failures.append(failure)

        threads = [threading.Thread(target=run, args=(_start_all, host, created, barrier))
                   for (host, _), created in zip(people, bots, strict=True)]
        threads += [threading.Thread(target=run, args=(_duel, *duel, barrier)) for duel in duels]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(TIMEOUT)
        assert not failures, failures
        assert not any(thread.is_alive() for thread in threads), "a player thread hangs"
        every = [c["table_id"] for created in bots for c in created] + [c["table_id"] for *_, c, _ in duels]
        deadline = time.monotonic() + TIMEOUT
        for table_id in every:
            while a.request("GET", f"/api/tables/{table_id}")[1]["status"] != "finished":
                assert time.monotonic() < deadline, f"table {table_id} never finished"
                time.sleep(0.1)
        assert "Traceback" not in a.text_log() + b.text_log()
        assert "could not be updated" not in a.text_log() + b.text_log()
        return every


def _sign_up(served: Served, name: str) -> Browser:
    """A new account, signed in on ``served``."""
    browser = Browser(served)
    status, signed = browser.request("POST", "/api/account/signup", {"name": name, "password": "correct horse"})
    assert status == 201, signed
    browser.csrf = signed["csrf"]
    return browser


def _create(browser: Browser, seats: list[dict[str, str]], seed: int) -> dict[str, Any]:
    """A rated Durak table made by the signed-in browser (201)."""
    status, created = browser.request("POST", "/api/tables", {"game": "durak", "seats": seats, "seed": seed,
                                                               "rated": True})
    assert status == 201, created
    return dict(created)


def _start_all(browser: Browser, tables: list[dict[str, Any]], barrier: threading.Barrier) -> None:
    """When the duels' last moves go, start every table: the computer players play them out."""
    barrier.wait(TIMEOUT)
    for created in tables:
        status, started = browser.request("POST", f"/api/tables/{created['table_id']}/start",
                                          {"token": created["token"]})
        assert status == 200, started


def _first_legal_game(seed: int) -> list[Any]:
    """The actions of the Durak deal ``seed`` when both seats always play their first legal action."""
    game = cardtable.load_game("durak")
    state, _ = game.new(game.options(players=2), seed)
    actions = []
    while (seat := game.to_act(state)) is not None:
        actions.append(game.legal_actions(state, seat)[0])
        state, _ = game.apply(state, seat, actions[-1])
    return actions


def _duel(host: Browser, guest: Browser, created: dict[str, Any], seed: int, barrier: threading.Barrier) -> None:
    """The guest joins; both play their first legal action until one move is left; at the barrier (every
    duel of both processes there) the last move goes, and both seats see the game finished."""
    table_id = created["table_id"]
    status, joined = guest.request("POST", f"/api/tables/{table_id}/join", {"seat": 1, "name": "ignored"})
    assert status == 200, joined
    tokens = [created["token"], joined["token"]]
    last = to_json(_first_legal_game(seed)[-1])
    with connect(f"{host.served.ws}/ws/tables/{table_id}?token={tokens[0]}") as ws0, \
            connect(f"{guest.served.ws}/ws/tables/{table_id}?token={tokens[1]}") as ws1:
        sockets = {0: ws0, 1: ws1}
        status, started = host.request("POST", f"/api/tables/{table_id}/start", {"token": tokens[0]})
        assert status == 200, started
        views = {seat: _view(ws, lambda v: v["status"] == "playing") for seat, ws in sockets.items()}
        for _ in range(len(_first_legal_game(seed)) - 1):
            views = _move(sockets, views)
        actor = views[0]["to_act"]
        assert views[0]["status"] == "playing" and views[actor]["legal_actions"][0]["action"] == last
        barrier.wait(TIMEOUT)
        views = _move(sockets, views)
        assert views[0]["status"] == views[1]["status"] == "finished"


def _view(ws: ClientConnection, until: Any) -> dict[str, Any]:
    """The first view on a socket that satisfies ``until`` (errors fail the test)."""
    while True:
        message = json.loads(ws.recv(timeout=60))
        assert message["type"] != "error", message
        if message["type"] == "view" and until(message):
            return dict(message)


def _move(sockets: dict[int, ClientConnection], views: dict[int, dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """The seat to act plays its first legal action; both seats' next views."""
    version, actor = views[0]["version"], views[0]["to_act"]
    choice = views[actor]["legal_actions"][0]["action"]
    sockets[actor].send(json.dumps({"type": "action", "version": version, "action": choice}))
    return {seat: _view(ws, lambda v: v["version"] > version) for seat, ws in sockets.items()}


#: One stored result: seat, player key, kind, name, won, place (abandoned seats do not occur here).
Result = tuple[int, str, str, str, bool, int]


def _results(engine: Engine) -> dict[str, list[Result]]:
    """Each rated table's results, tables in the order their results were stored."""
    out: dict[str, list[Result]] = {}
    with engine.connect() as c:
        for table_id, seat, key, kind, name, won, place, abandoned in c.execute(
                select(ResultRow.table_id, ResultRow.seat, RatedPlayerRow.key, RatedPlayerRow.kind,
                       RatedPlayerRow.name, ResultRow.won, ResultRow.place, ResultRow.abandoned)
                .join(RatedPlayerRow, RatedPlayerRow.id == ResultRow.player_id).order_by(ResultRow.id)):
            assert not abandoned
            out.setdefault(table_id, []).append((seat, key, kind, name, bool(won), place))
    return out


def _ratings(engine: Engine) -> dict[str, tuple[int, int, float, float]]:
    """Every player's Durak games, wins, mu and sigma as stored."""
    with engine.connect() as c:
        return {key: (games, wins, mu, sigma) for key, games, wins, mu, sigma in c.execute(
            select(RatedPlayerRow.key, RatingRow.games, RatingRow.wins, RatingRow.mu, RatingRow.sigma)
            .join(RatedPlayerRow, RatedPlayerRow.id == RatingRow.player_id).where(RatingRow.game == "durak"))}


def _rated_one_after_another(results: dict[str, list[Result]], tmp_path: Path
                             ) -> dict[str, tuple[int, int, float, float]]:
    """The ratings of the same results rated one table after the other, in the order they were stored.

    Each Durak seat is a team of its own. A table's results are stored after its players' ratings were locked,
    so two tables sharing a player were stored in the order they were rated."""
    store = Store(f"sqlite:///{tmp_path / 'serial.db'}")
    try:
        ladder = Ladder(store.engine)
        for table_id, rows in results.items():
            with store.engine.begin() as c:
                ladder.rate(c, "durak", table_id, [Entrant(seat, key, kind, name, seat, place, won)
                                                   for seat, key, kind, name, won, place in rows])
        return _ratings(store.engine)
    finally:
        store.close()
