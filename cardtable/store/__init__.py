"""Storage of tables, seats and game records (SQLAlchemy 2; SQLite by default)."""

from cardtable.store.db import (
    DATABASE_URL_ENV,
    DEFAULT_DATABASE_URL,
    Store,
    StoredSeat,
    StoredTable,
    hash_token,
    resolve_database_url,
)
from cardtable.store.models import ActionRow, Base, SeatRow, TableRow

__all__ = [
    "DATABASE_URL_ENV", "DEFAULT_DATABASE_URL", "ActionRow", "Base", "SeatRow", "Store", "StoredSeat",
    "StoredTable", "TableRow", "hash_token", "resolve_database_url",
]
