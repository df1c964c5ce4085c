"""Resigning from the table page (issue 33, item 4): at Kaiser a person resigns for their pair (after a
confirmation) and the result screen says the other pair won and why, in the page's words; a two-player
Durak offers "Resign"; a three-player Wizard offers none (leaving is how one gives up there)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import LiveServer
from tests.browser.ui import create_table, start_game, wait_ready

pytestmark = pytest.mark.browser


def test_a_pair_resigns_at_kaiser_and_the_result_says_so(page: Page, live_server: LiveServer) -> None:
    create_table(page, live_server.url, game="Kaiser", name="Rick", options={"Target": "32"}, computer="heuristic")
    start_game(page)
    wait_ready(page)
    dialogs: list[str] = []

    def answer(dialog: object) -> None:
        dialogs.append(dialog.message)  # type: ignore[attr-defined]
        dialog.accept()  # type: ignore[attr-defined]

    page.on("dialog", answer)
    page.get_by_role("button", name="Resign for our pair").click()
    result = page.locator("#result")
    expect(result.get_by_role("heading", name="Game over")).to_be_visible()
    expect(result.locator(".winners")).to_contain_text("Computer 2")
    expect(result.locator(".winners")).to_contain_text("Computer 4")
    expect(result.locator(".reason")).to_have_text("Rick and Computer 3 (heuristic) resigned")
    assert dialogs == ["Resign this game for your pair? It ends now and the other pair wins."]
    expect(page.get_by_role("button", name="Resign for our pair")).to_be_hidden()
    # The replay ends on the same result, naming the resignation; the step before it is the table as left.
    page.locator("#result a.button[href*='replay']").click()
    expect(page.locator("#replay-controls")).to_be_visible()
    page.locator("#replay-end").click()
    expect(result.locator(".reason")).to_have_text("Rick and Computer 3 (heuristic) resigned")
    page.keyboard.press("ArrowLeft")  # the result covers the controls, as at the end of any game's replay
    expect(result).to_be_hidden()
    expect(page.locator("#replay-forward")).to_be_enabled()
    assert page.errors == []  # type: ignore[attr-defined]


def test_resign_is_offered_only_where_a_side_can_resign(page: Page, live_server: LiveServer) -> None:
    create_table(page, live_server.url, game="Durak", name="Rick", players=2)
    start_game(page)
    expect(page.get_by_role("button", name="Resign", exact=True)).to_be_visible()
    create_table(page, live_server.url, game="Wizard", name="Rick", players=3, options={"Rounds": "5"})
    start_game(page)
    expect(page.get_by_role("button", name="Leave table")).to_be_visible()
    expect(page.locator("#resign")).to_be_hidden()
    assert page.errors == []  # type: ignore[attr-defined]
