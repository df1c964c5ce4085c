"""What BGA and Trickster players expect (issue 33, item 4): "Your turn" in the tab's title, and the hand
sorted by suit or by rank, the choice remembered across a reload."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import SCREENSHOTS, LiveServer
from tests.browser.ui import create_table, screenshot, start_game, take_turn, wait_ready

pytestmark = pytest.mark.browser


def catalogue(server: LiveServer, game: str) -> dict[int, dict[str, Any]]:
    """The game's cards by id, in deck order."""
    with urllib.request.urlopen(server.url + "/api/games", timeout=10) as response:
        games = json.load(response)
    return {c["id"]: c for c in next(g for g in games if g["name"] == game)["cards"]}


def hand_ids(page: Page) -> list[int]:
    return [int(x) for x in page.locator("#hand .card").evaluate_all("els => els.map((e) => e.dataset.card)")]


# Every title the tab shows, in order (a MutationObserver callback after each change): the test reads what the
# page showed, however briefly, and never races it.
TITLES = """() => {
  window.titles = [];
  const note = () => {
    if (window.titles[window.titles.length - 1] !== document.title) window.titles.push(document.title);
  };
  document.addEventListener('DOMContentLoaded', () => {
    note();
    new MutationObserver(note).observe(document.head, { subtree: true, childList: true, characterData: true });
  });
}"""

TURN = "Your turn · Wizard — cardtable"
OWN = "Wizard — cardtable"


def test_the_tab_title_says_your_turn_only_while_it_is(page: Page, live_server: LiveServer) -> None:
    page.add_init_script(f"({TITLES})();")
    create_table(page, live_server.url, game="Wizard", name="Rick", players=3, options={"Rounds": "5"}, pause=1.0)
    start_game(page)
    wait_ready(page)
    expect(page).to_have_title(TURN)
    mark = page.evaluate("window.titles.length")
    take_turn(page)
    # Once the action is on its way (and while the others play) the title is the table's own, then the turn
    # comes back.
    page.wait_for_function("([m, own, turn]) => { const seen = window.titles.slice(m); const i = seen.indexOf(own);"
                           " return i >= 0 && seen.indexOf(turn, i) > i; }", arg=[mark, OWN, TURN])
    seen = page.evaluate("window.titles")[mark - 1:]
    assert seen[:3] == [TURN, OWN, TURN], seen
    assert all(title in (TURN, OWN) for title in seen), seen
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_hand_sorts_by_suit_or_by_rank_and_the_choice_is_remembered(page: Page, live_server: LiveServer) -> None:
    cards = catalogue(live_server, "crazy_eights")
    suits = list(dict.fromkeys(c["suit"] for c in cards.values()))
    ranks = list(dict.fromkeys(c["rank"] for c in cards.values()))
    by_suit = lambda i: (suits.index(cards[i]["suit"]), ranks.index(cards[i]["rank"]))  # noqa: E731
    by_rank = lambda i: (ranks.index(cards[i]["rank"]), suits.index(cards[i]["suit"]))  # noqa: E731
    create_table(page, live_server.url, game="Crazy Eights", name="Rick", players=2, pause=0.05)
    start_game(page)
    wait_ready(page)
    dealt = hand_ids(page)
    assert len(dealt) >= 5
    order = page.get_by_label("Order")
    expect(order).to_have_value("dealt")
    order.select_option(label="By suit")
    assert hand_ids(page) == sorted(dealt, key=by_suit)
    order.select_option(label="By rank")
    assert hand_ids(page) == sorted(dealt, key=by_rank)
    screenshot(page, SCREENSHOTS / "hand-sorted.png")
    page.reload()
    expect(page.get_by_label("Order")).to_have_value("rank")
    wait_ready(page)
    now = hand_ids(page)
    assert now == sorted(now, key=by_rank)
    # The sorted hand still plays: a click on a legal card sends that card.
    take_turn(page)
    assert page.errors == []  # type: ignore[attr-defined]


# The browser's notifications, recorded: permission granted when asked, each notification kept; the tab
# counts as hidden (as when the person looks at another tab).
NOTIFICATIONS = """(() => {
  window.shown = [];
  class Recorded {
    constructor(title, options) { window.shown.push({ title, body: options && options.body }); }
    static requestPermission() { Recorded.permission = 'granted'; return Promise.resolve('granted'); }
  }
  Recorded.permission = 'default';
  window.Notification = Recorded;
  Object.defineProperty(document, 'hidden', { get: () => true });
})();"""


def test_notify_me_is_opt_in_and_tells_of_the_turn_while_the_tab_is_hidden(page: Page, live_server: LiveServer) -> None:
    page.add_init_script(NOTIFICATIONS)
    create_table(page, live_server.url, game="Wizard", name="Rick", players=3, options={"Rounds": "5"}, pause=0.05)
    start_game(page)
    wait_ready(page)
    assert page.evaluate("window.shown") == []  # off by default: nothing shown
    box = page.get_by_label("Notify me")
    expect(box).not_to_be_checked()
    box.check()
    take_turn(page)
    wait_ready(page)
    expect(page).to_have_title(re.compile(r"^Your turn · "))
    shown = page.evaluate("window.shown")
    assert shown and shown[-1] == {"title": "Wizard — cardtable", "body": "Your turn"}, shown
    page.reload()
    expect(page.get_by_label("Notify me")).to_be_checked()  # remembered in this browser
    assert page.errors == []  # type: ignore[attr-defined]
