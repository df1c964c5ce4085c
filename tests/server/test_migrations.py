"""Schema migrations: the newest revision matches the models; older databases are brought up to date."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from cardtable.cli import app as cli
from cardtable.server import create_app
from cardtable.store import RECORD_FORMAT, Base, Store
from cardtable.store.migrate import current, head, upgrade
from cardtable.store.tournaments import TournamentRow
from tests.server.conftest import play_alone, receive


def test_the_newest_revision_is_exactly_the_models(db_url: str) -> None:
    """After ``upgrade`` Alembic finds nothing to add, drop or change compared with ``Base.metadata``."""
    store = Store(db_url)
    with store.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []
    assert current(store.engine) == head()
    store.close()


def test_a_database_from_before_migrations_is_upgraded_and_its_tables_resume(tmp_path: Path) -> None:
    """A database made by the first schema without Alembic's stamp: stamped, upgraded, its game resumes."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    upgrade(engine, "0001")
    now = datetime.now(UTC)
    with engine.begin() as connection:
        connection.execute(text("DROP TABLE alembic_version"))
        connection.execute(text(
            "INSERT INTO tables (id, game, options, preset, seed, status, host_seat, host_token_hash, created_at, "
            "updated_at) VALUES ('old1', 'durak', '{\"players\": 2}', NULL, 5, 'playing', 0, :h, :now, :now)"),
            {"h": "h" * 64, "now": now.strftime("%Y-%m-%d %H:%M:%S.%f")})
        for seat in range(2):
            connection.execute(text(
                "INSERT INTO seats (table_id, \"index\", name, kind, bot, token_hash, taken) "
                "VALUES ('old1', :i, :name, 'bot', 'random', NULL, 1)"), {"i": seat, "name": f"Computer {seat + 1}"})
    engine.dispose()
    with TestClient(create_app(url, bot_delay=0)) as client:
        with client.websocket_connect("/ws/tables/old1") as ws:
            receive(ws)
            assert play_alone(ws)[-1]["status"] == "finished"
        assert client.get("/api/tables/old1/record").json()["actions"]
    stored = Store(url).load("old1")
    assert stored is not None and stored.format == RECORD_FORMAT and stored.version == len(stored.actions)


def test_the_db_upgrade_command(tmp_path: Path) -> None:
    """``cardtable db upgrade`` migrates; ``db current`` says where the database is; a bad URL is one line."""
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    runner = CliRunner()
    result = runner.invoke(cli, ["db", "upgrade", "--database-url", url])
    assert result.exit_code == 0 and f"revision {head()}" in result.output
    result = runner.invoke(cli, ["db", "current", "--database-url", url])
    assert result.exit_code == 0 and f"database at revision {head()}" in result.output
    result = runner.invoke(cli, ["db", "upgrade", "--database-url", "nonsense://"])
    assert result.exit_code == 2 and "Traceback" not in result.output


ARENA = ["arena", "crazy_eights", "--bot", "heuristic", "--bot", "random", "--games", "2", "-o", "rounds=1", "--json"]


@pytest.mark.parametrize("arena_first", [True, False])
def test_arena_and_serve_share_a_fresh_database_in_either_order(tmp_path: Path, arena_first: bool) -> None:
    """``cardtable arena --database-url`` and the server migrate the same database; each sees the other's data."""
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    runner = CliRunner()

    def arena() -> str:
        result = runner.invoke(cli, [*ARENA, "--database-url", url])
        assert result.exit_code == 0, result.output
        return str(json.loads(result.stdout)["tournament"])

    tournament = arena() if arena_first else None
    with TestClient(create_app(url, bot_delay=0)) as client:
        created = client.post("/api/tables", json={"game": "durak"})
        assert created.status_code == 201, created.text
        if tournament is not None:
            assert tournament in [t["id"] for t in client.get("/api/tournaments").json()]
    if tournament is None:
        tournament = arena()
        with TestClient(create_app(url, bot_delay=0)) as client:
            assert tournament in [t["id"] for t in client.get("/api/tournaments").json()]
            assert client.get("/api/tables").json()[0]["table_id"] == created.json()["table_id"]
    assert current(create_engine(url)) == head()


def test_tournament_tables_made_before_their_migration_are_kept(tmp_path: Path) -> None:
    """A database whose arena tables were made by ``create_all`` (before revision 0003) upgrades without loss."""
    url = f"sqlite:///{tmp_path / 'arena.db'}"
    engine = create_engine(url)
    upgrade(engine, "0002")
    Base.metadata.create_all(engine, tables=[TournamentRow.__table__])  # type: ignore[list-item]
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO tournaments (id, game, options, format, games, seed, status, created_at, updated_at) "
            "VALUES ('t1', 'durak', '{}', 'rotate', 1, 1, 'running', '2026-11-30 00:00:00', '2026-11-30 00:00:00')"))
    engine.dispose()
    store = Store(url)
    with store.engine.connect() as connection:
        assert connection.execute(text("SELECT id FROM tournaments")).scalars().all() == ["t1"]
    assert current(store.engine) == head()
    store.close()
