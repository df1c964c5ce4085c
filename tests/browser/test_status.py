"""A paused or stopped table says so: the host's Pause/Resume, the banner everyone sees, the lobby's status."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

import cardtable
from tests.browser.conftest import LiveServer, _free_port
from tests.browser.test_table import new_page, no_page_errors
from tests.browser.ui import create_table, start_game, take_turn

STATUS_OR_TURN = """() => {
  const root = document.getElementById('table');
  return root.dataset.status === 'error' || (root.dataset.myTurn === 'true' && root.dataset.pending === 'false');
}"""


class _BrokenRules:
    """Durak whose rules engine fails on every action (a bug, as far as the server can tell)."""

    def __init__(self, game: Any) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def apply(self, *_args: Any) -> Any:
        raise RuntimeError("the rules engine has a bug")


@pytest.fixture()
def broken_server(tmp_path: Path) -> Iterator[LiveServer]:
    """An app whose only game is a Durak that fails on the first action."""
    games = {"durak": _BrokenRules(cardtable.load_game("durak"))}
    server = LiveServer(tmp_path / "broken.db", _free_port(), games=games)
    server.start()
    yield server
    server.stop()


def test_the_host_pauses_and_resumes_and_everyone_sees_it(browser: Browser, live_server: LiveServer) -> None:
    """Pause: a banner for the host and a spectator, "paused" in the lobby; Resume: play goes on."""
    host_ctx, host = new_page(browser)
    guest_ctx, guest = new_page(browser)
    try:
        table_id = create_table(host, live_server.url, game="Durak", name="Rick")
        start_game(host)
        host.get_by_role("button", name="Pause").click()
        expect(host.locator("#table")).to_have_attribute("data-status", "paused")
        expect(host.locator("#table-state")).to_contain_text("You have paused the game")
        guest.goto(f"{live_server.url}/table/{table_id}")
        expect(guest.locator("#table-state")).to_contain_text("The host has paused the game.")
        expect(guest.get_by_role("button", name="Pause")).to_be_hidden()
        expect(guest.get_by_role("button", name="Resume")).to_be_hidden()
        guest.goto(f"{live_server.url}/")
        expect(guest.locator(f'[data-table="{table_id}"] .table-status')).to_have_text("paused")
        host.get_by_role("button", name="Resume").click()
        expect(host.locator("#table")).to_have_attribute("data-status", "playing")
        expect(host.locator("#table-state")).to_be_hidden()
        expect(host.get_by_role("button", name="Pause")).to_be_visible()
        no_page_errors(host)
        no_page_errors(guest)
    finally:
        host_ctx.close()
        guest_ctx.close()


def test_a_table_stopped_on_an_error_shows_the_reason_at_the_table_and_in_the_lobby(
        browser: Browser, broken_server: LiveServer) -> None:
    """The engine fails on the first action: the table and the lobby say it stopped, and why."""
    ctx, page = new_page(browser)
    try:
        table_id = create_table(page, broken_server.url, game="Durak", name="Rick")
        start_game(page)
        page.wait_for_function(STATUS_OR_TURN)
        if page.locator("#table").get_attribute("data-status") != "error":
            take_turn(page)  # the person moves first: that move meets the broken engine
        expect(page.locator("#table")).to_have_attribute("data-status", "error")
        banner = page.locator("#table-state")
        expect(banner).to_contain_text("The table stopped:")
        expect(banner).to_contain_text("the rules engine has a bug")
        expect(page.get_by_role("button", name="Pause")).to_be_hidden()
        page.goto(f"{broken_server.url}/")
        item = page.locator(f'[data-table="{table_id}"]')
        expect(item.locator(".table-status")).to_have_text("stopped on an error")
        expect(item.locator(".table-error")).to_contain_text("the rules engine has a bug")
        no_page_errors(page)
    finally:
        ctx.close()
