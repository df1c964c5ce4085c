"""Accounts in the browser (issue 35): sign up, play a rated game, see the rating on the profile and the
leaderboard, log out and in; the account, profile and leaderboard pages in English, Spanish and Russian with
every control named and no console error."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import LiveServer, _free_port
from tests.browser.ui import play_rated_durak

#: Every control (input, select, button, link) has an accessible name: a label, aria-label or its own text.
UNNAMED = """() => [...document.querySelectorAll('input, select, button, a, textarea')]
  .filter((el) => el.offsetParent !== null)
  .filter((el) => {
    const labelled = el.id && document.querySelector(`label[for="${el.id}"]`);
    return !(labelled || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')
             || (el.textContent || '').trim() || el.getAttribute('title'));
  })
  .map((el) => el.outerHTML.slice(0, 120))"""


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[LiveServer]:
    """An app of its own (a fresh ladder)."""
    live = LiveServer(tmp_path / "accounts.db", _free_port())
    live.start()
    yield live
    live.stop()


def watched(context: BrowserContext) -> tuple[Page, list[str]]:
    """A page whose console errors and uncaught exceptions are collected."""
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    return page, problems


def named_controls(page: Page) -> None:
    """Fail naming the controls without an accessible name."""
    assert page.evaluate(UNNAMED) == []


def test_sign_up_play_rated_see_the_rating_log_out_and_in(server: LiveServer, context: BrowserContext) -> None:
    """The whole path of a new player, in English."""
    page, problems = watched(context)
    base = server.url
    page.goto(base + "/")
    page.get_by_role("link", name="Sign in").click()
    expect(page.get_by_role("heading", name="Create an account")).to_be_visible()
    named_controls(page)
    page.locator("#signup-name").fill("alice")
    page.locator("#signup-password").fill("correct horse")
    page.get_by_role("button", name="Create an account").click()
    page.wait_for_url(base + "/")
    expect(page.locator("#me-link")).to_have_text("alice")
    named_controls(page)
    # A rated Durak game against the computer.
    table_id = play_rated_durak(page)
    # The profile and the leaderboard show the new rating.
    page.goto(base + "/players/alice")
    row = page.locator("table.ratings tr[data-game=durak]")
    expect(row).to_be_visible()
    rating = row.locator("td.rating").inner_text()
    found = re.fullmatch(r"(\d+) ± (\d+) \(provisional\)", rating)
    assert found and int(found.group(2)) < 1000  # one game made the rating surer than a newcomer's 1500 ± 1000
    expect(row.locator("td").nth(1)).to_have_text("1")
    expect(page.locator("table.recent")).to_contain_text("Durak")
    assert page.locator(f"a[href*='{table_id}']").count() == 2  # its replay and its review
    expect(page.get_by_role("link", name="Review")).to_have_attribute("href", f"/review.html?table={table_id}&seat=0")
    expect(page.get_by_role("img")).to_have_attribute("aria-label", re.compile(r"Durak: .* 1 rated games"))
    page.get_by_role("link", name="Durak").click()
    page.wait_for_url(base + "/leaderboard/durak")
    board_row = page.locator("table.leaderboard tr[data-player=alice]")
    expect(board_row.locator("td.rating")).to_have_text(rating)
    assert page.locator("table.leaderboard tbody tr").count() == 2  # alice and the built-in player
    page.get_by_label("Kind").select_option(label="Person")
    page.wait_for_url(base + "/leaderboard/durak?kind=person")
    expect(page.locator("table.leaderboard tbody tr")).to_have_count(1)
    named_controls(page)
    # Out and in again.
    page.goto(base + "/account")
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    page.goto(base + "/")
    expect(page.locator("#sign-in-link")).to_be_visible()
    expect(page.get_by_label("Rated game")).to_be_disabled()
    page.locator("#sign-in-link").click()
    page.locator("#login-name").fill("alice")
    page.locator("#login-password").fill("correct horse")
    page.locator("#login-button").click()
    page.wait_for_url(base + "/")
    expect(page.locator("#my-ratings")).to_contain_text(f"Durak {rating.split(' ')[0]}")
    assert problems == []


@pytest.mark.parametrize(("lang", "sign_up", "leaderboard"), [
    ("en", "Create an account", "Leaderboard: Wizard"),
    ("es", "Crear una cuenta", "Clasificación: Wizard"),
    ("ru", "Создать учётную запись", "Таблица лидеров: Wizard"),
])
def test_the_account_pages_speak_the_chosen_language(server: LiveServer, context: BrowserContext, lang: str,
                                                     sign_up: str, leaderboard: str) -> None:
    """Sign up, the lobby's account bar, the profile and the leaderboard in each language; controls named."""
    page, problems = watched(context)
    base = server.url
    page.goto(base + "/account")
    page.evaluate(f"localStorage.setItem('cardtable.lang', '{lang}')")
    page.reload()
    expect(page.get_by_role("heading", name=sign_up)).to_be_visible()
    named_controls(page)
    page.locator("#signup-name").fill(f"player{lang}")
    page.locator("#signup-password").fill("correct horse")
    page.locator("#signup-button").click()
    page.wait_for_url(base + "/")
    expect(page.locator("#me-link")).to_have_text(f"player{lang}")
    named_controls(page)
    page.goto(base + f"/players/player{lang}")
    expect(page.locator("#title")).to_have_text(f"player{lang}")
    named_controls(page)
    page.goto(base + "/leaderboard/wizard")
    expect(page.locator("#title")).to_have_text(leaderboard)
    named_controls(page)
    page.goto(base + "/account")
    expect(page.locator("#profile-link")).to_have_text(f"player{lang}")
    named_controls(page)
    assert problems == []
