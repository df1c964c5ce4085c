"""The accounts' and the ladder's storage: the migration from the schema before them, and two processes rating
at once on PostgreSQL without losing an update (issue 35)."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, func, select, text

from cardtable.store import BotAccounts, Ladder, People, Store
from cardtable.store.ladder import Entrant, RatedPlayerRow, RatingRow, ResultRow, builtin_key, person_key
from cardtable.store.migrate import current, head, upgrade
from tests.server.postgres import postgres_cluster
from tests.server.test_accounts_api import FAST

#: Rated tables each process ends.
TABLES = 25


def test_a_database_of_the_schema_before_accounts_is_brought_along(tmp_path: Path) -> None:
    """At revision 0008 with a table, a seat and a bot account: upgraded, everything kept (the seat a guest's,
    the bot an admin's), and accounts and ratings work."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    upgrade(engine, "0008")
    with engine.begin() as c:
        c.execute(text("INSERT INTO tables (id, game, options, seed, status, host_token_hash, created_at, "
                       "updated_at, version, format) VALUES ('t1', 'durak', '{}', 1, 'finished', :h, "
                       "'2026-01-01 00:00:00', '2026-01-01 00:00:00', 0, 1)"), {"h": "h" * 64})
        c.execute(text("INSERT INTO seats (table_id, \"index\", name, kind, taken) VALUES ('t1', 0, 'Rick', "
                       "'human', 1)"))
        c.execute(text("INSERT INTO bot_accounts (name, role, token_hash, origin, created_at) VALUES "
                       "('oldbot', 'bot', :h, 'admin', '2026-01-01 00:00:00')"), {"h": "b" * 64})
    engine.dispose()
    store = Store(url)
    assert current(store.engine) == head()
    table = store.load("t1")
    assert table is not None and table.seats[0].name == "Rick" and table.seats[0].person is None
    bot = BotAccounts(store.engine).get("oldbot")
    assert bot is not None and bot.origin == "admin"
    people = People(store.engine, hasher=FAST)
    assert people.sign_up("rick", "pickle rick!").name == "rick"
    with store.engine.begin() as c:
        Ladder(store.engine).rate(c, "durak", "t1", [Entrant(0, person_key(1), "person", "rick", 0, 1, True),
                                                     Entrant(1, builtin_key("b@1"), "builtin", "b@1", 1, 2, False)])
    assert Ladder(store.engine).leaderboard("durak")[0]["name"] == "rick"
    store.close()


def _entrants(worker: int, n: int) -> list[Entrant]:
    """Table ``n`` of ``worker``: the shared person and built-in player meet one of the worker's own."""
    return [Entrant(0, person_key(1), "person", "shared", 0, 1 + (n + worker) % 3, False),
            Entrant(1, builtin_key("bot@1"), "builtin", "bot@1", 1, 1 + (n + worker + 1) % 3, False),
            Entrant(2, person_key(100 + worker), "person", f"own{worker}", 2, 1 + (n + worker + 2) % 3, False)]


def _rate_many(url: str, worker: int, barrier: Any) -> None:
    """One process: rate ``TABLES`` tables, starting with the other process."""
    store = Store(url, migrate=False)
    ladder = Ladder(store.engine)
    barrier.wait()
    for n in range(TABLES):
        with store.engine.begin() as c:
            ladder.rate(c, "wizard", f"w{worker}-{n}", _entrants(worker, n))
    store.close()


def test_two_processes_rating_at_once_on_postgresql_never_lose_an_update(tmp_path: Path) -> None:
    """Two processes each end ``TABLES`` rated tables sharing two players, at the same moments: every game is
    counted, and the ratings are exactly those of the same tables rated one after the other in the order they
    were stored (an update made from a rating another process had changed meanwhile would differ)."""
    with postgres_cluster() as url:
        Store(url).close()  # migrated once
        context = multiprocessing.get_context("spawn")
        barrier = context.Barrier(2)
        workers = [context.Process(target=_rate_many, args=(url, w, barrier)) for w in (1, 2)]
        for process in workers:
            process.start()
        for process in workers:
            process.join(300)
        assert [p.exitcode for p in workers] == [0, 0]
        store = Store(url, migrate=False)
        ladder = Ladder(store.engine)
        for key in (person_key(1), builtin_key("bot@1")):
            player = ladder.player(key)
            assert player is not None and player.ratings[0].games == 2 * TABLES
            with store.engine.connect() as c:
                last_mu = c.scalar(select(ResultRow.mu).where(ResultRow.player_id == player.id)
                                   .order_by(ResultRow.id.desc()).limit(1))
            assert last_mu is not None and round(last_mu) == player.ratings[0].rating
        for worker in (1, 2):
            own = ladder.player(person_key(100 + worker))
            assert own is not None and own.ratings[0].games == TABLES
        with store.engine.connect() as c:
            assert c.scalar(select(func.count()).select_from(ResultRow)) == 3 * 2 * TABLES
            order = [t for t, _ in c.execute(select(ResultRow.table_id, func.min(ResultRow.id))
                                             .group_by(ResultRow.table_id).order_by(func.min(ResultRow.id)))]
        serial = Store(f"sqlite:///{tmp_path / 'serial.db'}")
        replayed = Ladder(serial.engine)
        for table_id in order:
            worker, n = (int(part) for part in table_id[1:].split("-"))
            with serial.engine.begin() as c:
                replayed.rate(c, "wizard", table_id, _entrants(worker, n))
        for key in (person_key(1), builtin_key("bot@1"), person_key(101), person_key(102)):
            assert _same(replayed.player(key), ladder.player(key)), key
        store.close()
        serial.close()


def _same(a: Any, b: Any) -> bool:
    """The same ratings (ids may differ between the two databases)."""
    return a is not None and b is not None and a.ratings == b.ratings


def test_leaderboard_pages_are_slices_of_the_whole_board_by_kind_without_deleted_players(tmp_path: Path) -> None:
    """Nine players rated in Wizard tables: every page (``limit``, ``offset``) is the matching slice of the whole
    board, best ``mu - 2 sigma`` first; ``kind`` keeps one kind; a deleted person leaves every board; ``profile``
    reads what ``find``, ``history`` and ``recent`` read one by one."""
    store = Store(f"sqlite:///{tmp_path / 'board.db'}")
    ladder = Ladder(store.engine)
    players = [(person_key(i), "person", f"p{i}") for i in range(1, 7)] + \
              [(builtin_key(f"b{i}@1"), "builtin", f"b{i}@1") for i in range(3)]
    for n in range(12):
        seated = [players[(n * 2 + k) % len(players)] for k in range(4)]
        with store.engine.begin() as c:
            ladder.rate(c, "wizard", f"t{n}", [Entrant(s, key, kind, name, s, 1 + (s + n) % 4, (s + n) % 4 == 0)
                                               for s, (key, kind, name) in enumerate(seated)])
    whole = ladder.leaderboard("wizard", limit=200)
    assert sorted(p["name"] for p in whole) == sorted(name for *_, name in players)
    with store.engine.connect() as c:
        scores = {name: score for name, score in c.execute(
            select(RatedPlayerRow.name, RatingRow.score).join(RatingRow, RatingRow.player_id == RatedPlayerRow.id))}
    assert [p["name"] for p in whole] == sorted(scores, key=lambda name: -scores[name])
    assert [p["rank"] for p in whole] == list(range(1, 10))
    for offset in range(0, 10):
        for limit in (1, 2, 4):
            assert ladder.leaderboard("wizard", limit=limit, offset=offset) == whole[offset:offset + limit]
    assert [p["name"] for p in ladder.leaderboard("wizard", "builtin")] == \
           [p["name"] for p in whole if p["kind"] == "builtin"]
    assert [p["name"] for p in ladder.leaderboard("wizard", "person", limit=2, offset=1)] == \
           [p["name"] for p in whole if p["kind"] == "person"][1:3]
    assert ladder.leaderboard("durak") == []
    found = ladder.profile("p3")
    assert found is not None and found.player == ladder.find("p3")
    assert found.history == {"wizard": ladder.history(found.player.id, "wizard")}
    assert found.recent == ladder.recent(found.player.id) and len(found.recent) == found.player.ratings[0].games
    ladder.forget_person(None, 3)
    assert "p3" not in [p["name"] for p in ladder.leaderboard("wizard", limit=200)]
    assert "p3" not in [p["name"] for p in ladder.leaderboard("wizard", "person", limit=200)]
    assert ladder.profile("p3") is None and ladder.profile("nobody") is None
    store.close()
