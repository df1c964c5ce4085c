"""Storage of tables, seats, game records and leases (SQLAlchemy 2 + Alembic; SQLite by default)."""

# The arena's and the Bot API's tables are on the same ``Base``: imported here so that ``Base.metadata``
# always has them.
from cardtable.store.accounts import BotAccount, BotAccounts
from cardtable.store.db import (
    DATABASE_URL_ENV,
    DEFAULT_DATABASE_URL,
    LISTED_STATUSES,
    OPEN_STATUSES,
    LeaseLost,
    StaleVersion,
    Store,
    StoredSeat,
    StoredTable,
    hash_token,
    resolve_database_url,
)
from cardtable.store.ladder import Ladder
from cardtable.store.live_tournaments import LiveTournaments
from cardtable.store.models import RECORD_FORMAT, ActionRow, Base, LeaseRow, SeatRow, TableRow
from cardtable.store.people import People
from cardtable.store.reviews import ReviewStore
from cardtable.store.tournaments import TournamentStore

__all__ = [
    "DATABASE_URL_ENV", "DEFAULT_DATABASE_URL", "LISTED_STATUSES", "OPEN_STATUSES", "RECORD_FORMAT", "ActionRow",
    "BotAccount", "BotAccounts", "Ladder", "LiveTournaments", "People", "ReviewStore",
    "Base", "LeaseLost", "LeaseRow", "SeatRow", "StaleVersion", "Store", "StoredSeat",
    "StoredTable", "TableRow", "TournamentStore", "hash_token", "resolve_database_url",
]
