"""People's accounts over HTTP: sign up, log in and out, change the password, delete, own bots (issue 35).

A session is an HttpOnly, SameSite=Lax cookie (``Secure`` when the request came over HTTPS, as behind a TLS
proxy with ``--proxy-headers``), a new one at every login and sign-up. Every state-changing request that the
cookie authenticates must also carry the session's CSRF token in the ``X-CSRF-Token`` header (the page reads
it from ``GET /api/account``); without it nothing changes (403). Logins are rate-limited per name and per
address (in each process's memory), and every failed login gets the same answer after the same work.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Request, Response
from pydantic import Field, StringConstraints

from cardtable.server.limits import AddressBuckets
from cardtable.server.live import TableError
from cardtable.server.manager import TableManager
from cardtable.server.schemas import _Body
from cardtable.store import BotAccounts, Ladder, hash_token
from cardtable.store.ladder import person_key
from cardtable.store.people import NameTaken, People, Person, Session, name_key

COOKIE = "cardtable_session"
CSRF_HEADER = "X-CSRF-Token"
#: The one answer to a failed login, whatever failed.
LOGIN_REFUSED = "wrong name or password"
Text = Annotated[str, StringConstraints(max_length=300)]


@dataclass(frozen=True)
class LoginLimits:
    """Logins a name and an address may try per minute (sustained, and in a burst)."""

    per_name_minute: float = 5.0
    per_name_burst: float = 10.0
    per_address_minute: float = 30.0
    per_address_burst: float = 30.0


class Credentials(_Body):
    """``POST /api/account/signup`` and ``…/login``: a name and a password."""

    name: Annotated[str, StringConstraints(max_length=100)]
    password: Text


class NewPassword(_Body):
    """``POST /api/account/password``: the current password and the new one."""

    old: Text
    new: Text


class Confirm(_Body):
    """``POST /api/account/delete``: the password, once more."""

    password: Text


class NewBot(_Body):
    """``POST /api/account/bots``: a bot account's name."""

    name: Annotated[str, StringConstraints(max_length=100)]


class Claim(_Body):
    """``POST /api/account/claim``: the seat tokens this browser kept as a guest."""

    tokens: Annotated[list[Annotated[str, StringConstraints(min_length=1, max_length=200)]], Field(max_length=500)]


class Accounts:
    """The accounts of one server: its people, their sessions and login limits."""

    def __init__(self, manager: TableManager, limits: LoginLimits | None = None) -> None:
        self.manager = manager
        self.people = People(manager.store.engine)
        self.bots = BotAccounts(manager.store.engine)
        self.ladder = Ladder(manager.store.engine)
        self.use_limits(limits or LoginLimits())

    def use_limits(self, limits: LoginLimits) -> None:
        """Count logins against ``limits`` from now on (the counts so far are forgotten)."""
        self.limits = limits
        self.by_name = AddressBuckets(limits.per_name_minute / 60, limits.per_name_burst)
        self.by_address = AddressBuckets(limits.per_address_minute / 60, limits.per_address_burst)

    async def session(self, request: Request) -> Session | None:
        """The request's signed-in session (its cookie), or None; a read, no CSRF token needed."""
        token = request.cookies.get(COOKIE)
        if not token:
            return None
        return await asyncio.to_thread(self.people.session, token)

    async def writer(self, request: Request) -> Person | None:
        """The person a state-changing request acts as: None without a live session; 403 when the session's
        CSRF token is missing or wrong (nothing changes)."""
        session = await self.session(request)
        if session is None:
            return None
        sent = request.headers.get(CSRF_HEADER, "")
        if not sent or not secrets.compare_digest(sent.encode("utf-8", "replace"), session.csrf.encode("ascii")):
            raise TableError(403, "this request needs the session's CSRF token (X-CSRF-Token header); nothing "
                                  "changed", code="csrf", params={})
        return session.person

    async def required(self, request: Request) -> Person:
        """As ``writer``, but 401 when nobody is signed in."""
        person = await self.writer(request)
        if person is None:
            raise TableError(401, "sign in first", code="sign_in", params={})
        return person

    def start_session(self, request: Request, response: Response, person: Person) -> dict[str, Any]:
        """A new session for ``person`` in a fresh cookie (the request's old session ends); the page's JSON."""
        old = request.cookies.get(COOKIE)
        if old:
            self.people.close_session(old)
        token, csrf = self.people.open_session(person.id)
        response.set_cookie(COOKIE, token, max_age=30 * 24 * 3600, httponly=True, samesite="lax",
                            secure=request.url.scheme == "https", path="/")
        return {"name": person.name, "csrf": csrf}

    def account_json(self, session: Session | None) -> dict[str, Any]:
        """``GET /api/account``: who is signed in (``person`` null for a guest), the CSRF token, ratings, bots."""
        if session is None:
            return {"person": None}
        person = session.person
        player = self.ladder.player(person_key(person.id))
        return {"person": {"name": person.name, "created": person.created_at.isoformat()},
                "csrf": session.csrf, "ratings": [r.to_json() for r in player.ratings] if player else [],
                "bots": [{"name": b.name, "revoked": b.is_revoked} for b in self.bots.owned_by(person.id)]}

    def check_login_rate(self, name: str, address: str) -> None:
        """429 when this name or this address tried too many logins lately."""
        if not self.by_address.take(address) or not self.by_name.take(name_key(name.strip()[:100]) or "-"):
            raise TableError(429, "too many login attempts; wait a minute and try again", code="login_rate",
                             params={})


def install(app: FastAPI, manager: TableManager, limits: LoginLimits | None = None) -> Accounts:
    """Add the account endpoints to ``app``; returns the accounts (also ``app.state.accounts``)."""
    accounts = Accounts(manager, limits)
    app.state.accounts = accounts
    app.include_router(_router(accounts))
    return accounts


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else ""


def _router(accounts: Accounts) -> APIRouter:
    router = APIRouter()
    people = accounts.people

    @router.get("/api/account")
    async def account(request: Request) -> dict[str, Any]:
        session = await accounts.session(request)
        return await asyncio.to_thread(accounts.account_json, session)

    @router.post("/api/account/signup", status_code=201)
    async def signup(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        if not accounts.by_address.take(_address(request)):
            raise TableError(429, "too many attempts from your address; wait a minute", code="login_rate",
                             params={})
        await accounts.writer(request)  # a signed-in page must send its CSRF token to sign up anew
        try:
            person = await asyncio.to_thread(people.sign_up, body.name, body.password)
        except NameTaken as exc:
            raise TableError(409, str(exc), code="name_taken", params={}) from None
        except ValueError as exc:
            raise TableError(400, str(exc)) from None
        return await asyncio.to_thread(accounts.start_session, request, response, person)

    @router.post("/api/account/login")
    async def login(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        accounts.check_login_rate(body.name, _address(request))
        person = await asyncio.to_thread(people.authenticate, body.name.strip(), body.password)
        if person is None:
            raise TableError(401, LOGIN_REFUSED, code="login_refused", params={})
        return await asyncio.to_thread(accounts.start_session, request, response, person)

    @router.post("/api/account/logout")
    async def logout(request: Request, response: Response) -> dict[str, Any]:
        await accounts.required(request)
        await asyncio.to_thread(people.close_session, request.cookies.get(COOKIE, ""))
        response.delete_cookie(COOKIE, path="/")
        return {"person": None}

    @router.post("/api/account/password")
    async def password(body: NewPassword, request: Request, response: Response) -> dict[str, Any]:
        person = await accounts.required(request)
        try:
            await asyncio.to_thread(people.change_password, person.id, body.old, body.new)
        except ValueError as exc:
            raise TableError(400, str(exc)) from None
        return await asyncio.to_thread(accounts.start_session, request, response, person)

    @router.post("/api/account/delete")
    async def delete(body: Confirm, request: Request, response: Response) -> dict[str, Any]:
        person = await accounts.required(request)

        def remove() -> None:
            if people.authenticate(person.name, body.password) is None:
                raise TableError(400, "the password is wrong; nothing was deleted")
            for bot in accounts.bots.owned_by(person.id):
                accounts.bots.revoke(bot.name)
            accounts.ladder.forget_person(None, person.id)
            people.delete(person.id)
        await asyncio.to_thread(remove)
        response.delete_cookie(COOKIE, path="/")
        return {"person": None}

    @router.post("/api/account/bots", status_code=201)
    async def new_bot(body: NewBot, request: Request) -> dict[str, Any]:
        person = await accounts.required(request)
        try:
            bot, token = await asyncio.to_thread(accounts.bots.add, body.name, origin="account", owner=person.id)
        except ValueError as exc:
            raise TableError(400, str(exc)) from None
        return {"name": bot.name, "token": token, "owner": person.name}

    @router.post("/api/account/claim")
    async def claim(body: Claim, request: Request) -> dict[str, Any]:
        person = await accounts.required(request)
        hashes = [hash_token(t) for t in body.tokens]
        claimed = await asyncio.to_thread(claim_seats, accounts, person, hashes)
        return {"claimed": claimed}

    return router


def claim_seats(accounts: Accounts, person: Person, hashes: list[str]) -> int:
    """Give the guest seats of finished games held by these token digests to ``person`` (they stay unrated);
    how many."""
    from sqlalchemy import select, update

    from cardtable.store.models import SeatRow, TableRow

    if not hashes:
        return 0
    finished = select(TableRow.id).where(TableRow.status == "finished")
    with accounts.manager.store.engine.begin() as c:
        done = c.execute(update(SeatRow).where(SeatRow.token_hash.in_(hashes), SeatRow.person_id.is_(None),
                                               SeatRow.kind == "human", SeatRow.table_id.in_(finished))
                         .values(person_id=person.id, name=person.name))
        return int(done.rowcount or 0)
