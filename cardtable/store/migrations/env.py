"""Alembic environment: runs on the connection cardtable hands over (``config.attributes["connection"]``)."""

from __future__ import annotations

from alembic import context

from cardtable.store.models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - cardtable always passes its connection
    raise RuntimeError("run migrations through `cardtable db upgrade` (cardtable.store.migrate.upgrade)")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
