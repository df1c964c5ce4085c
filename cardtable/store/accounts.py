"""Bot accounts: a name and a secret token that lets a program play at the server's tables (the Bot API).

A token is shown once, when the account is made; only its SHA-256 digest is stored, so a stolen
database does not let anyone play as the bot. Tokens carry 256 random bits (``secrets``), start with
``ctb_`` so that they are recognised in a leaked file, and travel only in an ``Authorization: Bearer``
header. Revoking an account keeps its row (tournament results still name it) and refuses its token
from then on; a server ends the account's open sessions within a second (docs/bot-api.md).

Schema (``bot_accounts`` on the shared declarative ``Base``): ``id``, ``name`` (unique), ``role``
(``bot``: plays at tables; ``admin``: may also run tournaments on the server), ``token_hash``
(unique), ``origin`` (``admin``: made with ``cardtable bots add``; ``lobby``: made from the lobby of a
server run with ``--open-bots``), ``created_at``, ``revoked_at``.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import DateTime, Integer, String, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column, sessionmaker

from cardtable.store.models import Base, utcnow

#: What a token starts with: a bot account's secret.
TOKEN_PREFIX = "ctb_"
#: Random bytes in a token (256 bits; the issue asks for 192 or more).
TOKEN_BYTES = 32
ROLES = ("bot", "admin")
ORIGINS = ("admin", "lobby", "account")
#: A bot's name: 1–32 letters, digits, spaces, ``_ - .``; no control characters, no lone surrogates.
NAME_PATTERN = re.compile(r"[\w .\-]{1,32}")


class BotAccountRow(Base):
    """One bot account: its name, role, token digest and whether it is revoked."""

    __tablename__ = "bot_accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(32), unique=True)
    role: Mapped[str] = mapped_column(String(8), default="bot")
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    origin: Mapped[str] = mapped_column(String(8), default="admin")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    #: When a server process last saw the account connected (the lobby lists bots seen lately).
    seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    #: The person's account that owns the bot (``origin`` ``account``), as on lichess; ``None``: an admin's.
    owner_id: Mapped[int | None] = mapped_column(Integer, default=None, index=True)


@dataclass(frozen=True)
class BotAccount:
    """A bot account as the server and the command line see it (never its token)."""

    id: int
    name: str
    role: str
    origin: str
    created_at: datetime
    revoked_at: datetime | None = None

    @property
    def is_revoked(self) -> bool:
        """Whether the account's token is refused."""
        return self.revoked_at is not None

    @property
    def is_admin(self) -> bool:
        """Whether the account may run tournaments on the server."""
        return self.role == "admin"


def new_token() -> str:
    """A fresh secret token: the prefix and 256 random bits, URL-safe."""
    return TOKEN_PREFIX + secrets.token_urlsafe(TOKEN_BYTES)


def hash_bot_token(token: str) -> str:
    """The stored digest of a token (SHA-256, hex)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def check_bot_name(name: object) -> str:
    """``name`` trimmed, if it is a valid bot name; ``ValueError`` saying why not."""
    if not isinstance(name, str):
        raise ValueError(f"a bot name is text, not {type(name).__name__}")
    text = unicodedata.normalize("NFC", name.strip()) if _encodable(name) else None
    if text is None:
        raise ValueError("a bot name must be valid text (it holds a lone surrogate)")
    if not NAME_PATTERN.fullmatch(text):
        raise ValueError(f"a bot name has 1 to 32 letters, digits, spaces, '_', '-' or '.', not {text[:40]!r}")
    return text


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class BotAccounts:
    """Reads and writes bot accounts on an engine whose tables exist (``Store`` migrates the database)."""

    def __init__(self, engine: Engine) -> None:
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def add(self, name: str, *, role: str = "bot", origin: str = "admin",
            owner: int | None = None) -> tuple[BotAccount, str]:
        """Make an account (``owner``: the person's account it belongs to); returns it and its token (shown
        once). ``ValueError`` for a bad or taken name."""
        name = check_bot_name(name)
        if role not in ROLES:
            raise ValueError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
        if origin not in ORIGINS:
            raise ValueError(f"origin must be one of {', '.join(ORIGINS)}, not {origin!r}")
        token = new_token()
        row = BotAccountRow(name=name, role=role, token_hash=hash_bot_token(token), origin=origin,
                            created_at=utcnow(), owner_id=owner)
        try:
            with self._sessions.begin() as session:
                session.add(row)
                session.flush()
                account = _account(row)
        except IntegrityError:
            raise ValueError(f"there is already a bot named {name!r}") from None
        return account, token

    def get(self, name: str) -> BotAccount | None:
        """The account called ``name`` (revoked or not), or None."""
        with self._sessions() as session:
            row = session.scalar(select(BotAccountRow).where(BotAccountRow.name == name))
            return _account(row) if row is not None else None

    def all(self, *, revoked: bool = True) -> list[BotAccount]:
        """Every account by name (``revoked=False``: only those whose token works)."""
        query = select(BotAccountRow).order_by(BotAccountRow.name)
        if not revoked:
            query = query.where(BotAccountRow.revoked_at.is_(None))
        with self._sessions() as session:
            return [_account(row) for row in session.scalars(query)]

    def owned_by(self, person_id: int) -> list[BotAccount]:
        """The bot accounts a person's account owns, by name."""
        with self._sessions() as session:
            rows = session.scalars(select(BotAccountRow).where(BotAccountRow.owner_id == person_id)
                                   .order_by(BotAccountRow.name))
            return [_account(row) for row in rows]

    def revoke(self, name: str) -> BotAccount:
        """Refuse the token of ``name`` from now on; ``ValueError`` if there is no such account."""
        with self._sessions.begin() as session:
            row = session.scalar(select(BotAccountRow).where(BotAccountRow.name == name))
            if row is None:
                raise ValueError(f"there is no bot named {name!r}")
            if row.revoked_at is None:
                row.revoked_at = utcnow()
            return _account(row)

    def authenticate(self, token: str) -> BotAccount | None:
        """The live account whose token this is, or None (unknown, malformed or revoked)."""
        if not isinstance(token, str) or not token.startswith(TOKEN_PREFIX) or len(token) > 128:
            return None
        digest = hash_bot_token(token)
        with self._sessions() as session:
            row = session.scalar(select(BotAccountRow).where(BotAccountRow.token_hash == digest))
            if row is None or row.revoked_at is not None:
                return None
            return _account(row)

    def seen(self, ids: Iterable[int]) -> None:
        """These accounts are connected to this process now."""
        wanted = list(ids)
        if wanted:
            with self._sessions.begin() as session:
                session.execute(update(BotAccountRow).where(BotAccountRow.id.in_(wanted)).values(seen_at=utcnow()))

    def connected(self, since: datetime) -> list[BotAccount]:
        """Live accounts some server process saw connected since ``since``, by name."""
        with self._sessions() as session:
            rows = session.scalars(select(BotAccountRow).where(
                BotAccountRow.seen_at >= since, BotAccountRow.revoked_at.is_(None)).order_by(BotAccountRow.name))
            return [_account(row) for row in rows]

    def by_id(self, account_id: int) -> BotAccount | None:
        """The account with this id (revoked or not), or None."""
        with self._sessions() as session:
            row = session.get(BotAccountRow, account_id)
            return _account(row) if row is not None else None

    def revoked_among(self, ids: Iterable[int]) -> set[int]:
        """Which of the account ids ``ids`` are revoked (or gone)."""
        wanted = set(ids)
        if not wanted:
            return set()
        with self._sessions() as session:
            live = set(session.scalars(select(BotAccountRow.id).where(
                BotAccountRow.id.in_(wanted), BotAccountRow.revoked_at.is_(None))))
        return wanted - live


def _account(row: BotAccountRow) -> BotAccount:
    revoked = _aware(row.revoked_at) if row.revoked_at is not None else None
    return BotAccount(row.id, row.name, row.role, row.origin, _aware(row.created_at), revoked)


def _aware(moment: datetime) -> datetime:
    """SQLite gives back naive times; every time here is UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


class InvitationRow(Base):
    """A host's invitation of a bot account into a computer seat of a table (the Bot API)."""

    __tablename__ = "bot_invitations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    account_id: Mapped[int] = mapped_column(Integer, index=True)
    #: ``pending``, ``accepted``, ``declined`` or ``lapsed`` (the seat or the table went meanwhile).
    status: Mapped[str] = mapped_column(String(16), default="pending")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


@dataclass(frozen=True)
class Invitation:
    """An invitation as the Bot API shows it."""

    id: int
    table_id: str
    seat: int
    account_id: int
    status: str


class Invitations:
    """Reads and writes invitations on an engine whose tables exist."""

    def __init__(self, engine: Engine) -> None:
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def add(self, table_id: str, seat: int, account_id: int) -> Invitation:
        """A pending invitation (an earlier pending one for the same seat lapses)."""
        with self._sessions.begin() as session:
            for old in session.scalars(select(InvitationRow).where(
                    InvitationRow.table_id == table_id, InvitationRow.seat == seat,
                    InvitationRow.status == "pending")):
                old.status = "lapsed"
            row = InvitationRow(table_id=table_id, seat=seat, account_id=account_id, status="pending",
                                created_at=utcnow())
            session.add(row)
            session.flush()
            return _invitation(row)

    def get(self, invitation_id: int) -> Invitation | None:
        """The invitation with this id, or None."""
        with self._sessions() as session:
            row = session.get(InvitationRow, invitation_id)
            return _invitation(row) if row is not None else None

    def pending(self, account_ids: Iterable[int], after: int = 0) -> list[Invitation]:
        """Pending invitations of these accounts with an id above ``after``, oldest first."""
        wanted = list(account_ids)
        if not wanted:
            return []
        with self._sessions() as session:
            rows = session.scalars(select(InvitationRow).where(
                InvitationRow.account_id.in_(wanted), InvitationRow.status == "pending",
                InvitationRow.id > after).order_by(InvitationRow.id))
            return [_invitation(row) for row in rows]

    def settle(self, invitation_id: int, status: str) -> bool:
        """Move a pending invitation to ``status``; False if it was not pending."""
        with self._sessions.begin() as session:
            row = session.get(InvitationRow, invitation_id, with_for_update=True)
            if row is None or row.status != "pending":
                return False
            row.status = status
            return True


    def set_status(self, invitation_id: int, status: str) -> None:
        """Set an invitation's status whatever it was (an accepted seat that could not be taken lapses)."""
        with self._sessions.begin() as session:
            row = session.get(InvitationRow, invitation_id)
            if row is not None:
                row.status = status


def _invitation(row: InvitationRow) -> Invitation:
    return Invitation(row.id, row.table_id, row.seat, row.account_id, row.status)
