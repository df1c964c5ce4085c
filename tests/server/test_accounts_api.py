"""People's accounts over HTTP: sign up, log in and out, change the password, delete; the security rules (issue 35).

Every rule of the issue's "Bad input and security" has a test here: the same answer (and the same work) for a
wrong password, an unknown name and a locked account; login limits per name and per address; names checked
(length, invisible characters, look-alikes); passwords of 8 characters or more and not the name; a stolen
session cookie ends with a logout or a password change; a request without the CSRF token changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from cardtable.server import create_app
from cardtable.server.auth import COOKIE, CSRF_HEADER, LoginLimits
from cardtable.store import People, Store
from cardtable.store.people import MAX_FAILURES, check_name, name_key

#: Cheap argon2 parameters: the tests check behaviour, not the cost (the server keeps argon2-cffi's defaults).
FAST = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


class CountingHasher(PasswordHasher):
    """A hasher that counts verifications (the work a login does, whatever went wrong)."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=1024, parallelism=1)
        self.verified = 0

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        """Count, then verify."""
        self.verified += 1
        return super().verify(hash, password)


def fast(client: TestClient) -> TestClient:
    """The client with cheap password hashing on its app."""
    client.app.state.accounts.people.hasher = FAST  # type: ignore[attr-defined]
    return client


@pytest.fixture
def site(db_url: str) -> Iterator[TestClient]:
    """The app over HTTPS (its session cookie is ``Secure``), with cheap password hashing."""
    with TestClient(create_app(db_url, bot_delay=0), base_url="https://testserver") as client:
        yield fast(client)


def sign_up(client: TestClient, name: str = "alice", password: str = "correct horse") -> dict[str, Any]:
    """Sign up (201); the answer with the CSRF token."""
    response = client.post("/api/account/signup", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    return dict(response.json())


def csrf(client: TestClient) -> dict[str, str]:
    """The header carrying the current session's CSRF token."""
    return {CSRF_HEADER: client.get("/api/account").json()["csrf"]}


def test_sign_up_sets_a_secure_http_only_same_site_cookie_and_the_account_shows_who_is_signed_in(
        site: TestClient) -> None:
    """The cookie's flags; ``GET /api/account`` names the person and gives the CSRF token."""
    response = site.post("/api/account/signup", json={"name": "alice", "password": "correct horse"})
    assert response.status_code == 201
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "Secure" in cookie
    assert "samesite=lax" in cookie.lower()
    account = site.get("/api/account").json()
    assert account["person"]["name"] == "alice" and account["csrf"] == response.json()["csrf"]
    assert account["ratings"] == [] and account["bots"] == []


def test_a_guest_is_nobody_and_plays_as_before(site: TestClient) -> None:
    """No cookie: ``person`` is null, and a guest's table is made with the typed name."""
    assert site.get("/api/account").json() == {"person": None}
    made = site.post("/api/tables", json={"game": "durak", "name": "Rick"})
    assert made.status_code == 201
    assert site.get(f"/api/tables/{made.json()['table_id']}").json()["seats"][0]["name"] == "Rick"


def test_login_rotates_the_session_and_logout_ends_the_stolen_cookie(site: TestClient) -> None:
    """A login gives a new cookie (the old session ends); after a logout the old cookie is nobody."""
    sign_up(site)
    first = site.cookies.get(COOKIE)
    logged = site.post("/api/account/login", json={"name": "alice", "password": "correct horse"})
    assert logged.status_code == 200
    second = site.cookies.get(COOKIE)
    assert first and second and first != second
    site.cookies.set(COOKIE, first, domain="testserver.local")
    thief = TestClient(site.app, base_url="https://testserver", cookies={COOKIE: first})
    assert thief.get("/api/account").json() == {"person": None}  # rotated at login: the old cookie is dead
    thief = TestClient(site.app, base_url="https://testserver", cookies={COOKIE: second})
    assert thief.get("/api/account").json()["person"]["name"] == "alice"
    site.cookies.clear()
    site.cookies.set(COOKIE, second)
    assert site.post("/api/account/logout", headers=csrf(site)).status_code == 200
    assert thief.get("/api/account").json() == {"person": None}


def test_a_password_change_ends_every_other_session(site: TestClient) -> None:
    """A stolen cookie stops working when the owner changes the password; the owner keeps a new session."""
    sign_up(site)
    stolen = site.cookies.get(COOKIE)
    thief = TestClient(site.app, base_url="https://testserver", cookies={COOKIE: str(stolen)})
    assert thief.get("/api/account").json()["person"]["name"] == "alice"
    changed = site.post("/api/account/password", json={"old": "correct horse", "new": "battery staple"},
                        headers=csrf(site))
    assert changed.status_code == 200
    assert thief.get("/api/account").json() == {"person": None}
    assert site.get("/api/account").json()["person"]["name"] == "alice"
    assert site.post("/api/account/login", json={"name": "alice", "password": "battery staple"}).status_code == 200
    assert site.post("/api/account/login", json={"name": "alice", "password": "correct horse"}).status_code == 401


def test_without_the_csrf_token_nothing_changes(site: TestClient) -> None:
    """Logout, password change, deletion, a new bot and a table made as the person: 403 without the token, and
    nothing changed; a wrong token is the same."""
    sign_up(site)
    for headers in ({}, {CSRF_HEADER: "not-the-token"}):
        assert site.post("/api/account/logout", headers=headers).status_code == 403
        assert site.post("/api/account/password", json={"old": "correct horse", "new": "battery staple"},
                         headers=headers).status_code == 403
        assert site.post("/api/account/delete", json={"password": "correct horse"},
                         headers=headers).status_code == 403
        assert site.post("/api/account/bots", json={"name": "alicebot"}, headers=headers).status_code == 403
        refused = site.post("/api/tables", json={"game": "durak", "rated": True}, headers=headers)
        assert refused.status_code == 403 and refused.json()["code"] == "csrf"
    account = site.get("/api/account").json()
    assert account["person"]["name"] == "alice" and account["bots"] == []
    assert site.get("/api/tables").json() == []
    assert site.post("/api/account/login", json={"name": "alice", "password": "correct horse"}).status_code == 200


def test_wrong_password_unknown_name_and_locked_account_get_the_same_answer_after_the_same_work(
        db_url: str) -> None:
    """One hash verification and one answer (401, the same body) in all three cases; a locked account refuses
    even its right password until the lock ends."""
    hasher = CountingHasher()
    limits = LoginLimits(per_name_burst=100, per_address_burst=100)
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        client.app.state.accounts.people.hasher = hasher  # type: ignore[attr-defined]
        client.app.state.accounts.use_limits(limits)  # type: ignore[attr-defined]
        sign_up(client)
        answers = []
        for name, password in (("alice", "wrong password"), ("nobody", "correct horse")):
            before = hasher.verified
            response = client.post("/api/account/login", json={"name": name, "password": password})
            assert hasher.verified - before == 1
            answers.append((response.status_code, response.json()))
        for _ in range(MAX_FAILURES - 1):
            client.post("/api/account/login", json={"name": "alice", "password": "wrong again"})
        before = hasher.verified
        locked = client.post("/api/account/login", json={"name": "alice", "password": "correct horse"})
        assert hasher.verified - before == 1
        answers.append((locked.status_code, locked.json()))
    assert answers[0] == answers[1] == answers[2]
    assert answers[0] == (401, {"detail": "wrong name or password", "code": "login_refused", "params": {}})


def test_the_lock_ends_after_its_time(tmp_path: Any) -> None:
    """After ``MAX_FAILURES`` failures the right password is refused; a quarter of an hour later it works."""
    now = [datetime(2026, 1, 1, tzinfo=UTC)]
    store = Store(f"sqlite:///{tmp_path / 'people.db'}")
    people = People(store.engine, hasher=FAST, clock=lambda: now[0])
    people.sign_up("alice", "correct horse")
    for _ in range(MAX_FAILURES):
        assert people.authenticate("alice", "wrong") is None
    assert people.authenticate("alice", "correct horse") is None
    now[0] += timedelta(minutes=16)
    person = people.authenticate("alice", "correct horse")
    assert person is not None and person.name == "alice"
    store.close()


def test_logins_are_rate_limited_per_name_and_per_address(db_url: str) -> None:
    """A name tried past its burst is refused (429) even with the right password; so is an address (its sign-up
    and six attempts: the seventh is refused, whatever the name)."""
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        fast(client)
        # No refill (a rate of 0 a minute): the bursts alone decide, whatever the clock does.
        client.app.state.accounts.use_limits(LoginLimits(0.0, 3, 0.0, 6))  # type: ignore[attr-defined]
        sign_up(client)
        codes = [client.post("/api/account/login", json={"name": "alice", "password": "wrong password"}).status_code
                 for _ in range(3)]
        assert codes == [401, 401, 401]
        limited = client.post("/api/account/login", json={"name": "alice", "password": "correct horse"})
        assert limited.status_code == 429 and limited.json()["code"] == "login_rate"
        assert client.post("/api/account/login", json={"name": "bob", "password": "whatever1"}).status_code == 401
        assert client.post("/api/account/login", json={"name": "carol", "password": "whatever1"}).status_code == 429


@pytest.mark.parametrize(("name", "reason"), [
    ("al", "3 to 24 characters"), ("a" * 25, "3 to 24 characters"), ("ali\u200bce", "invisible"),
    ("ali\u0007ce", "control"), ("ali ce", "letters and digits"), ("_alice", "letters and digits"),
    ("alice!", "letters and digits"), ("аlice", "one alphabet"), ("Deleted-Player", "reserved"),
])
def test_bad_names_are_refused_with_the_reason(site: TestClient, name: str, reason: str) -> None:
    """Length, control and invisible characters, symbols, mixed alphabets: 400 naming the rule; no account."""
    response = site.post("/api/account/signup", json={"name": name, "password": "correct horse"})
    assert response.status_code == 400 and reason in response.json()["detail"]
    assert site.get("/api/account").json() == {"person": None}


def test_look_alikes_of_an_existing_name_are_refused(site: TestClient) -> None:
    """``Alice``, ``al1ce``, ``a.lice`` look like ``alice``, Cyrillic ``соре`` like ``cope``: 409, no second
    account."""
    sign_up(site)
    site.cookies.clear()
    sign_up(site, "cope")
    site.cookies.clear()
    for name in ("Alice", "al1ce", "a.lice", "ALlCE", "соре", "C0PE"):
        response = site.post("/api/account/signup", json={"name": name, "password": "correct horse"})
        assert response.status_code == 409, name
        assert response.json()["code"] == "name_taken"
    assert name_key("rnorty") == name_key("morty")
    assert check_name("  Борис ") == "Борис"
    sign_up(site, "bob")
    site.cookies.clear()


@pytest.mark.parametrize(("password", "reason"), [
    ("short7!", "at least 8"), ("alice", "at least 8"), ("alicealice", None), ("x" * 257, "at most 256"),
])
def test_passwords_of_8_characters_or_more_that_are_not_the_name(site: TestClient, password: str,
                                                                 reason: str | None) -> None:
    """Too short, too long: refused with the reason; a password that is the name is refused too."""
    name = "alicealice" if reason is None else "alice"
    response = site.post("/api/account/signup", json={"name": name, "password": password})
    assert response.status_code == 400
    assert (reason or "may not be the name") in response.json()["detail"]


def test_deleting_an_account_keeps_its_games_under_deleted_player(site: TestClient) -> None:
    """The account goes (its name can be taken again); its table's seat shows ``deleted player``; a wrong
    password deletes nothing."""
    sign_up(site)
    made = site.post("/api/tables", json={"game": "durak"}, headers=csrf(site)).json()
    table = site.get(f"/api/tables/{made['table_id']}").json()
    assert table["seats"][0]["name"] == "alice"
    wrong = site.post("/api/account/delete", json={"password": "not it at all"}, headers=csrf(site))
    assert wrong.status_code == 400 and site.get("/api/account").json()["person"]["name"] == "alice"
    assert site.post("/api/account/delete", json={"password": "correct horse"}, headers=csrf(site)).status_code == 200
    assert site.get("/api/account").json() == {"person": None}
    assert site.post("/api/account/login", json={"name": "alice", "password": "correct horse"}).status_code == 401
    stored = Store(str(site.app.state.manager.store.url)).load(made["table_id"])  # type: ignore[attr-defined]
    assert stored is not None and stored.seats[0].name == "deleted player" and stored.seats[0].person is None
    sign_up(site)


def test_a_person_owns_bot_accounts(site: TestClient) -> None:
    """A signed-in person makes a bot account (its token shown once); the account lists it; the token works."""
    sign_up(site)
    made = site.post("/api/account/bots", json={"name": "alicebot"}, headers=csrf(site))
    assert made.status_code == 201 and made.json()["token"].startswith("ctb_")
    assert site.get("/api/account").json()["bots"] == [{"name": "alicebot", "revoked": False}]
    bots = site.app.state.accounts.bots  # type: ignore[attr-defined]
    assert bots.authenticate(made.json()["token"]).name == "alicebot"
    assert site.post("/api/account/bots", json={"name": "alicebot"}, headers=csrf(site)).status_code == 400


def test_a_guest_who_signs_up_claims_the_games_played_in_that_browser(client: TestClient) -> None:
    """A finished guest game's seat token, sent by the new account, puts the game under the account's name."""
    from tests.server.conftest import create, play_alone, start

    fast(client)
    created = create(client, "durak", ["human", "bot"], name="guest")
    start(client, created["table_id"], created["token"])
    with client.websocket_connect(f"/ws/tables/{created['table_id']}?token={created['token']}") as ws:
        play_alone(ws)
    sign_up(client, "carol")
    claimed = client.post("/api/account/claim", json={"tokens": [created["token"], "unknown"]}, headers=csrf(client))
    assert claimed.json() == {"claimed": 1}
    again = client.post("/api/account/claim", json={"tokens": [created["token"]]}, headers=csrf(client))
    assert again.json() == {"claimed": 0}
    stored = client.app.state.manager.store.load(created["table_id"])  # type: ignore[attr-defined]
    assert stored.seats[0].name == "carol" and stored.seats[0].person is not None
