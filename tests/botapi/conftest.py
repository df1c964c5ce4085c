"""The Bot API tests use the server tests' database fixture (SQLite, or PostgreSQL when asked)."""

from tests.server.conftest import db_url

__all__ = ["db_url"]
