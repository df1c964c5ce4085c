"""Alembic migrations of the cardtable database; ``upgrade(engine)`` brings a database to the newest revision."""
