"""People's accounts: a name, an argon2 password hash and the sessions of their browsers (issue 35).

Accounts are optional: guests play as before. A password is stored only as an argon2id hash (``argon2-cffi``:
memory-hard, salted). A session is a random cookie token of which only the SHA-256 digest is stored, with its
CSRF token; a logout ends that session, a password change (or an admin's reset) ends every session of the
account. Logging in does the same work whatever went wrong (an unknown name is checked against a dummy hash,
a locked account's password is still verified), so the answer and its time do not tell which.

Schema (on the shared declarative ``Base``): ``people`` (``id``, ``name`` unique, ``name_key`` unique: the
look-alike key of the name, ``password_hash``, ``created_at``, ``failed_logins``, ``locked_until``) and
``people_sessions`` (``token_hash`` primary key, ``person_id``, ``csrf``, ``created_at``, ``seen_at``).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import DateTime, Integer, String, delete, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column, sessionmaker

from cardtable.store.models import Base, SeatRow, utcnow

NAME_MIN, NAME_MAX = 3, 24
PASSWORD_MIN, PASSWORD_MAX = 8, 256
#: Failed logins in a row after which an account is locked for ``LOCK_FOR`` (the answer stays the same).
MAX_FAILURES = 10
LOCK_FOR = timedelta(minutes=15)
#: A session unused this long is over.
SESSION_IDLE = timedelta(days=30)
#: What a deleted account's games show in its place.
DELETED_NAME = "deleted player"
#: A person's name: letters and digits of one script, with ``_ - .`` inside; no spaces, no symbols.
NAME_PATTERN = re.compile(r"[^\W_](?:[\w.\-]*[^\W_])?")
#: Letters that look alike across scripts (and digits that pass for letters), folded to one Latin letter.
_CONFUSABLE = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "і": "l", "ї": "l", "ј": "j", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    "ɡ": "g", "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "l", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "0": "o", "1": "l", "i": "l", "|": "l", "3": "e", "5": "s",
})


class PersonRow(Base):
    """One person's account."""

    __tablename__ = "people"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX), unique=True)
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    failed_logins: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    locked_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)


class SessionRow(Base):
    """One signed-in browser: the digest of its cookie token and its CSRF token."""

    __tablename__ = "people_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    person_id: Mapped[int] = mapped_column(Integer, index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


@dataclass(frozen=True)
class Person:
    """A person's account as the server sees it (never its password hash)."""

    id: int
    name: str
    created_at: datetime


@dataclass(frozen=True)
class Session:
    """A live session: whose it is and the CSRF token its state-changing requests must carry."""

    person: Person
    csrf: str


class NameTaken(ValueError):
    """The name (or a look-alike of it) belongs to another account."""


def check_name(name: object) -> str:
    """``name`` trimmed and normalised (NFC) if it may be an account's name; ``ValueError`` saying why not."""
    if not isinstance(name, str):
        raise ValueError(f"a name is text, not {type(name).__name__}")
    text = unicodedata.normalize("NFC", name.strip())
    bad = next((c for c in text if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")), None)
    if bad is not None:
        raise ValueError(f"a name may not hold control or invisible characters (U+{ord(bad):04X})")
    if not NAME_MIN <= len(text) <= NAME_MAX:
        raise ValueError(f"a name has {NAME_MIN} to {NAME_MAX} characters, not {len(text)}")
    if not NAME_PATTERN.fullmatch(text):
        raise ValueError("a name holds letters and digits, with '_', '-' or '.' only between them")
    scripts = {_script(c) for c in text if c.isalpha()}
    if len(scripts) > 1:
        raise ValueError(f"a name uses one alphabet, not several ({', '.join(sorted(scripts)).lower()})")
    if name_key(text) == name_key(DELETED_NAME):
        raise ValueError("that name is reserved")
    return text


def name_key(name: str) -> str:
    """The look-alike key of a name: two names with one key are refused as confusable (``Bob``, ``B0b``,
    ``bob_``, Cyrillic ``Вов``...)."""
    folded = unicodedata.normalize("NFKD", name).casefold()
    plain = "".join(c for c in folded if not unicodedata.combining(c)).translate(_CONFUSABLE)
    plain = re.sub(r"[\s_.\-]", "", plain).replace("rn", "m").replace("vv", "w")
    return hashlib.sha256(plain.encode("utf-8")).hexdigest() if len(plain) > 64 else plain


def check_password(password: object, name: str) -> str:
    """``password`` if it may be the password of ``name``; ``ValueError`` saying why not."""
    if not isinstance(password, str):
        raise ValueError(f"a password is text, not {type(password).__name__}")
    if len(password) < PASSWORD_MIN:
        raise ValueError(f"a password has at least {PASSWORD_MIN} characters")
    if len(password) > PASSWORD_MAX:
        raise ValueError(f"a password has at most {PASSWORD_MAX} characters")
    if password.strip().casefold() in (name.casefold(), name_key(name)):
        raise ValueError("a password may not be the name")
    return password


def _script(char: str) -> str:
    """The script of a letter, from its Unicode name (``LATIN``, ``CYRILLIC``, ``GREEK``, ...)."""
    try:
        return unicodedata.name(char).split()[0]
    except ValueError:
        return "UNKNOWN"


def session_digest(token: str) -> str:
    """The stored digest of a session token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class People:
    """Reads and writes people's accounts and sessions on an engine whose tables exist."""

    def __init__(self, engine: Engine, *, hasher: PasswordHasher | None = None,
                 clock: Callable[[], datetime] = utcnow) -> None:
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self.hasher = hasher or PasswordHasher()
        self.clock = clock
        self._dummy: str | None = None

    # Accounts.

    def sign_up(self, name: str, password: str) -> Person:
        """A new account; ``ValueError`` for a bad name or password, ``NameTaken`` for a taken or look-alike name."""
        name = check_name(name)
        check_password(password, name)
        row = PersonRow(name=name, name_key=name_key(name), password_hash=self.hasher.hash(password),
                        created_at=self.clock(), failed_logins=0)
        try:
            with self._sessions.begin() as session:
                session.add(row)
                session.flush()
                return _person(row)
        except IntegrityError:
            raise NameTaken(f"the name {name!r} (or one that looks like it) is taken") from None

    def get(self, name: str) -> Person | None:
        """The account called exactly ``name``, or None."""
        with self._sessions() as session:
            row = session.scalar(select(PersonRow).where(PersonRow.name == name))
            return _person(row) if row is not None else None

    def by_id(self, person_id: int) -> Person | None:
        """The account with this id, or None."""
        with self._sessions() as session:
            row = session.get(PersonRow, person_id)
            return _person(row) if row is not None else None

    def authenticate(self, name: str, password: str) -> Person | None:
        """The account if ``password`` is its password and it is not locked; None otherwise, after the same work
        (one hash verification) whether the name is unknown, the password wrong or the account locked."""
        now = self.clock()
        name = unicodedata.normalize("NFC", name.strip()) if isinstance(name, str) else ""
        with self._sessions.begin() as session:
            row = session.scalar(select(PersonRow).where(PersonRow.name == name).with_for_update())
            if row is None:
                self._verify(self._dummy_hash(), password)
                return None
            matches = self._verify(row.password_hash, password)
            locked = row.locked_until is not None and _aware(row.locked_until) > now
            if matches and not locked:
                row.failed_logins, row.locked_until = 0, None
                if self.hasher.check_needs_rehash(row.password_hash):
                    row.password_hash = self.hasher.hash(password)
                return _person(row)
            if not locked:
                row.failed_logins = (row.failed_logins or 0) + 1
                if row.failed_logins >= MAX_FAILURES:
                    row.failed_logins, row.locked_until = 0, now + LOCK_FOR
            return None

    def change_password(self, person_id: int, old: str, new: str) -> None:
        """Set a new password if ``old`` is the current one; every session of the account ends. ``ValueError``."""
        with self._sessions.begin() as session:
            row = session.get(PersonRow, person_id, with_for_update=True)
            if row is None:
                raise ValueError("there is no such account")
            if not self._verify(row.password_hash, old):
                raise ValueError("the current password is wrong")
            row.password_hash = self.hasher.hash(check_password(new, row.name))
            session.execute(delete(SessionRow).where(SessionRow.person_id == person_id))

    def reset_password(self, name: str, new: str) -> Person:
        """An admin sets the password of ``name`` (no old one needed): every session ends, the lock goes."""
        with self._sessions.begin() as session:
            row = session.scalar(select(PersonRow).where(PersonRow.name == name).with_for_update())
            if row is None:
                raise ValueError(f"there is no account named {name!r}")
            row.password_hash = self.hasher.hash(check_password(new, row.name))
            row.failed_logins, row.locked_until = 0, None
            session.execute(delete(SessionRow).where(SessionRow.person_id == row.id))
            return _person(row)

    def delete(self, person_id: int) -> None:
        """Remove the account and its sessions; its seats stay, named ``deleted player`` (the ladder's row is
        renamed by ``Ladder.forget_person``)."""
        with self._sessions.begin() as session:
            session.execute(delete(SessionRow).where(SessionRow.person_id == person_id))
            session.execute(update(SeatRow).where(SeatRow.person_id == person_id)
                            .values(name=DELETED_NAME, person_id=None))
            session.execute(delete(PersonRow).where(PersonRow.id == person_id))

    # Sessions.

    def open_session(self, person_id: int) -> tuple[str, str]:
        """A new session: its cookie token (shown once, only a digest is stored) and its CSRF token."""
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        now = self.clock()
        with self._sessions.begin() as session:
            session.add(SessionRow(token_hash=session_digest(token), person_id=person_id, csrf=csrf,
                                   created_at=now, seen_at=now))
        return token, csrf

    def session(self, token: str) -> Session | None:
        """The live session of a cookie token, or None (unknown, ended, idle too long or its account gone)."""
        if not isinstance(token, str) or not 20 <= len(token) <= 100:
            return None
        now = self.clock()
        with self._sessions.begin() as session:
            row = session.get(SessionRow, session_digest(token))
            if row is None:
                return None
            person = session.get(PersonRow, row.person_id)
            if person is None or _aware(row.seen_at) < now - SESSION_IDLE:
                session.delete(row)
                return None
            if _aware(row.seen_at) < now - timedelta(minutes=5):
                row.seen_at = now  # written at most every few minutes, not on every request
            return Session(_person(person), row.csrf)

    def close_session(self, token: str) -> None:
        """End one session (a logout)."""
        with self._sessions.begin() as session:
            session.execute(delete(SessionRow).where(SessionRow.token_hash == session_digest(token)))

    def sessions_of(self, person_id: int) -> int:
        """How many sessions the account has open."""
        with self._sessions() as session:
            return len(list(session.scalars(select(SessionRow.token_hash).where(SessionRow.person_id == person_id))))

    # Passwords.

    def _verify(self, password_hash: str, password: str) -> bool:
        try:
            return bool(self.hasher.verify(password_hash, password))
        except (VerificationError, InvalidHashError):
            return False

    def _dummy_hash(self) -> str:
        if self._dummy is None:
            self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
        return self._dummy


def _person(row: PersonRow) -> Person:
    return Person(row.id, row.name, _aware(row.created_at))


def _aware(moment: datetime) -> datetime:
    """SQLite gives back naive times; every time here is UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment
