"""A vote to replace an absent person by the computer for good (issue 33, item 4): the people at the table
see who is away and may vote; a majority of those present hands the seat to the computer, the table is told,
and the person who comes back watches. Votes that make no sense are refused with a clear message and change
nothing."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import LiveServer
from tests.browser.ui import create_table, share_link, start_game

pytestmark = pytest.mark.browser

PERSON = "A person (invite a friend)"


def vote(server: LiveServer, table_id: str, token: str, seat: int) -> tuple[int, dict[str, Any]]:
    """POST a vote; the status and the decoded answer (a refusal's too)."""
    request = urllib.request.Request(f"{server.url}/api/tables/{table_id}/replace_vote",
                                     data=json.dumps({"token": token, "seat": seat}).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(json.load(response))
    except urllib.error.HTTPError as refused:
        return refused.code, dict(json.load(refused))


def summary(server: LiveServer, table_id: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}/api/tables/{table_id}", timeout=10) as response:
        return dict(json.load(response))


def test_the_table_votes_to_let_the_computer_play_for_an_absent_person(browser: Browser,
                                                                        quick_takeover_server: LiveServer) -> None:
    server = quick_takeover_server
    host_ctx, guest_ctx = browser.new_context(), browser.new_context()
    try:
        host, guest = host_ctx.new_page(), guest_ctx.new_page()
        errors: list[str] = []
        host.on("pageerror", lambda exc: errors.append(str(exc)))
        table_id = create_table(host, server.url, game="Durak", name="Rick", players=3, seats=[PERSON])
        token = host.evaluate("(id) => localStorage.getItem(`cardtable.token.${id}`)", table_id)
        guest.goto(share_link(host))
        guest.get_by_label("Your name").fill("Summer")
        guest.get_by_role("button", name="Join seat 2").click()
        expect(guest.locator("#table")).to_have_attribute("data-seat", "1")
        start_game(host)
        # While Summer is here, nobody may vote her out; nor may anyone vote for themselves or without a seat.
        status, answer = vote(server, table_id, token, 1)
        assert (status, answer["code"]) == (409, "vote_not_away"), answer
        status, answer = vote(server, table_id, token, 0)
        assert (status, answer["code"]) == (400, "vote_own_seat"), answer
        status, answer = vote(server, table_id, "not-a-token", 1)
        assert (status, answer["code"]) == (403, "no_token_seat"), answer
        status, answer = vote(server, table_id, token, 9)
        assert status == 400, answer
        assert summary(server, table_id)["seats"][1]["kind"] == "human"
        link = guest.url
        guest.close()
        expect(host.locator("#takeover")).to_have_text("The computer is playing for Summer.")
        button = host.get_by_role("button", name="Let the computer play for Summer for good")
        # Rick is the only person present: his vote is the majority.
        button.click()
        expect(host.locator("#notice")).to_have_text("The computer plays for Summer for good.")
        expect(host.locator("#chat-lines")).to_contain_text("The table voted: the computer plays for Summer for good.")
        expect(host.locator("#takeover")).to_be_hidden()
        expect(button).to_be_hidden()
        seat = summary(server, table_id)["seats"][1]
        assert seat["kind"] == "bot" and seat["name"].startswith("Summer (now "), seat
        expect(host.locator('.seat[data-seat="1"] .tags')).to_contain_text("computer")
        # Summer comes back: her token holds no seat any more; she watches.
        back = guest_ctx.new_page()
        back.goto(link)
        expect(back.locator("#board")).to_be_visible()
        expect(back.locator("#table")).to_have_attribute("data-seat", "")
        status, answer = vote(server, table_id, token, 1)
        assert (status, answer["code"]) == (409, "vote_not_away"), answer
        assert errors == [], errors
    finally:
        host_ctx.close()
        guest_ctx.close()
