"""The review page in a real browser (issue 34): a finished game's review opens from the result screen, shows
its progress, the chart and each decision; the keyboard steps through them; English, Spanish and Russian with
every control named and no console error; a game in play is refused."""

from __future__ import annotations

import re

from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import SCREENSHOTS, LiveServer
from tests.browser.test_accounts import named_controls, watched
from tests.browser.ui import create_table, play_to_end, screenshot, start_game


def _open_review(page: Page, server: LiveServer) -> str:
    """A short Mus game played to its result, then its review opened from the result screen; the table id."""
    table_id = create_table(page, server.url, game="Mus", name="Rick", options={"Target": "10"})
    start_game(page)
    play_to_end(page)
    page.get_by_role("link", name="Review").click()
    page.wait_for_url(re.compile(r".*/review\.html\?table=" + re.escape(table_id) + "&seat=0$"))
    expect(page.locator("#review")).to_have_attribute("data-state", "done", timeout=120_000)
    return table_id


def test_a_finished_games_review_opens_with_its_chart_and_steps_by_keyboard(
        live_server: LiveServer, context: BrowserContext) -> None:
    page, problems = watched(context)
    _open_review(page, live_server)
    decisions = page.locator("#decision-list li")
    n = decisions.count()
    assert n >= 2
    expect(page.locator("#review-svg")).to_be_visible()
    expect(page.locator("#review-svg rect.bar")).to_have_count(n)
    expect(page.locator("#review-headline")).to_contain_text(f"{n} decisions reviewed")
    position = page.locator("#review-position")
    expect(position).to_have_text(re.compile(rf"^Decision 1 of {n} \(step \d+\)$"))
    expect(page.locator("#decision-facts .card").first).to_be_visible()  # the seat's hand then
    assert page.locator("#decision-options tbody tr").count() >= 2
    expect(page.locator("#decision-options tr.chosen")).to_have_count(1)
    open_cells = page.locator("#decision-options td.open-value")  # the open-cards value beside each estimate
    expect(open_cells).to_have_count(page.locator("#decision-options tbody tr").count())
    expect(open_cells.first).to_have_text(re.compile(r"^-?\d+(\.\d+)?$"))
    page.keyboard.press("ArrowRight")
    expect(position).to_have_text(re.compile(rf"^Decision 2 of {n} "))
    page.keyboard.press("End")
    expect(position).to_have_text(re.compile(rf"^Decision {n} of {n} "))
    expect(page.get_by_role("button", name="Next →")).to_be_disabled()
    page.keyboard.press("ArrowLeft")
    expect(position).to_have_text(re.compile(rf"^Decision {n - 1} of {n} "))
    page.keyboard.press("End")
    page.get_by_role("button", name="First").click()
    expect(position).to_have_text(re.compile(rf"^Decision 1 of {n} "))
    decisions.nth(n - 1).get_by_role("button").click()
    expect(position).to_have_text(re.compile(rf"^Decision {n} of {n} "))
    expect(decisions.nth(n - 1).get_by_role("button")).to_have_attribute("aria-current", "true")
    named_controls(page)
    screenshot(page, SCREENSHOTS / "review.png", full_page=True)
    # Stored: opening it again shows it at once, with no progress to wait for.
    page.reload()
    expect(page.locator("#review")).to_have_attribute("data-state", "done")
    expect(page.locator("#decision-list li")).to_have_count(n)
    assert problems == [], problems


def test_the_review_page_in_spanish_and_russian(live_server: LiveServer, context: BrowserContext) -> None:
    page, problems = watched(context)
    _open_review(page, live_server)
    languages = (("es", "Análisis de la partida", "Siguiente →"), ("ru", "Разбор партии", "Следующее →"))
    for lang, title, forward in languages:
        page.evaluate(f"localStorage.setItem('cardtable.lang', '{lang}')")
        page.reload()
        expect(page.locator("#review")).to_have_attribute("data-state", "done")
        expect(page.locator("#review-title")).to_contain_text(title)
        expect(page.get_by_role("button", name=forward)).to_be_visible()
        page.keyboard.press("ArrowRight")
        expect(page.locator("#review-position")).to_contain_text("2")
        named_controls(page)
    assert problems == [], problems


def test_a_review_of_a_game_in_play_is_refused(live_server: LiveServer, context: BrowserContext) -> None:
    page, problems = watched(context)
    table_id = create_table(page, live_server.url, game="Durak", name="Rick")
    start_game(page)
    page.goto(f"{live_server.url}/review.html?table={table_id}&seat=0")
    expect(page.locator("#review")).to_have_attribute("data-state", "error")
    expect(page.locator("#progress-text")).to_have_text("A review is available once the game is finished.")
    expect(page.locator("#decision-list li")).to_have_count(0)
    # The browser logs the refused request (HTTP 409) itself; nothing else went wrong.
    assert [p for p in problems if "409" not in p] == [], problems
