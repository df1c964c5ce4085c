"""Schema migrations with Alembic: run at every `cardtable serve` start and by `cardtable db upgrade`."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlalchemy.engine import Connection, Engine

MIGRATIONS = Path(__file__).parent / "migrations"
#: The revision that matches databases made by ``create_all`` before migrations existed.
LEGACY_REVISION = "0001"


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic configuration on cardtable's migration scripts (no ini file needed)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def head() -> str:
    """The newest revision."""
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None
    return revision


def known_revision(revision: str) -> bool:
    """Whether ``revision`` names a migration (an id, a unique prefix of one, ``head`` or ``base``)."""
    from alembic.script.revision import RevisionError
    from alembic.util import CommandError

    try:
        ScriptDirectory.from_config(alembic_config()).get_revisions(revision)
    except (CommandError, RevisionError):
        return False
    return True


def current(engine: Engine) -> str | None:
    """The database's revision (``None``: never migrated)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> str | None:
    """Bring the database to ``revision``; a database made before migrations is stamped first. Returns it."""
    with engine.begin() as connection:
        config = alembic_config(connection)
        names = set(inspect(connection).get_table_names())
        if "tables" in names and "alembic_version" not in names:
            command.stamp(config, LEGACY_REVISION)
        command.upgrade(config, revision)
    return current(engine)
