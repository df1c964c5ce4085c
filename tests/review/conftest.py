"""Fixtures of the review tests: the server tests' database."""

from tests.server.conftest import db_url

__all__ = ["db_url"]
