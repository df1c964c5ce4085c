"""Layouts that fit (issue 33, item 3): every game at its largest table on a 1366x768 laptop and a 390x844
phone, at the first decision and at the first summary: no horizontal scroll, the hand and the seat's controls
on the first screen, no name broken mid-word, a dialog's buttons reachable without scrolling; and the lobby on
a phone with the open tables and "Create a table" first."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browser.conftest import SCREENSHOTS, LiveServer
from tests.browser.ui import is_finished, screenshot, take_turn, wait_ready

pytestmark = pytest.mark.browser

LAPTOP: ViewportSize = {"width": 1366, "height": 768}
PHONE: ViewportSize = {"width": 390, "height": 844}
#: Each game at its largest table; names as long as people's are.
LARGEST: dict[str, dict[str, Any]] = {
    "wizard": {"players": 6},
    "mus": {},
    "kaiser": {},
    "durak": {"players": 5},
    "crazy_eights": {"players": 6},
}
HOST = "Alexandra"

# What does not fit at the page's scroll top: a horizontal scroll, the hand's first and last cards and the first
# enabled control outside the first screen, a word split over two lines in a name (seat plates, the score
# sheet, the cards' captions, the tables of the summary and the result), a dialog's button out of view.
MEASURE = """() => {
  window.scrollTo(0, 0);
  const out = { problems: [] };
  const html = document.documentElement;
  if (html.scrollWidth > html.clientWidth + 1) {
    out.problems.push(`horizontal scroll: ${html.scrollWidth} > ${html.clientWidth}`);
  }
  const onScreen = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight + 1 && r.left >= -1 && r.right <= innerWidth + 1;
  };
  const summary = document.getElementById('summary');
  const dialog = !summary.hidden ? summary : null;
  if (dialog) {
    for (const b of dialog.querySelectorAll('.result-buttons button')) {
      if (!onScreen(b)) out.problems.push(`dialog button out of view: ${b.textContent}`);
    }
  } else {
    const cards = [...document.querySelectorAll('#hand .card')];
    if (!cards.length) out.problems.push('no hand');
    for (const c of [cards[0], cards[cards.length - 1]].filter(Boolean)) {
      if (!onScreen(c)) out.problems.push(`hand card out of the first screen: ${c.getAttribute('aria-label')}`);
    }
    const control = document.querySelector('#hand button.card.legal:enabled, #actions button[data-kind]:enabled');
    if (control && !onScreen(control)) {
      out.problems.push(`control out of view: ${control.textContent || control.getAttribute("aria-label")}`);
    }
  }
  const names = ['.seat-name', '.score-sheet th', '.played figcaption', '.summary-table td', '.summary-table th',
    '.result-scores td', '.shown-hand h3'].join(', ');
  for (const el of document.querySelectorAll(names)) {
    if (!el.checkVisibility()) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.textContent.matchAll(/[^\\s\\/·,()&]+/gu)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) out.problems.push(`"${m[0]}" broken in ${el.className || el.tagName}: ${el.textContent}`);
      }
    }
  }
  return out;
}"""


def post(server: LiveServer, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST JSON to the live server; the decoded answer."""
    request = urllib.request.Request(server.url + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return dict(json.load(response))


def open_table(page: Page, server: LiveServer, game: str, options: dict[str, Any]) -> None:
    """A table of ``game`` with computer players, opened on its host's page and started."""
    made = post(server, "/api/tables", {"game": game, "name": HOST, "options": options, "seed": 11})
    table_id, token = made["table_id"], made["token"]
    post(server, f"/api/tables/{table_id}/settings", {"token": token, "pace_ms": 50})
    page.goto(server.url + "/")
    page.evaluate("([id, token]) => localStorage.setItem(`cardtable.token.${id}`, token)", [table_id, token])
    page.goto(f"{server.url}/table/{table_id}")
    post(server, f"/api/tables/{table_id}/start", {"token": token})
    expect(page.locator("#board")).to_be_visible()


def problems(page: Page) -> list[str]:
    """What does not fit on the page now."""
    return list(page.evaluate(MEASURE)["problems"])


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
@pytest.mark.parametrize("game", list(LARGEST))
def test_every_game_at_its_largest_table_fits(browser: Browser, live_server: LiveServer, game: str,
                                              viewport: ViewportSize) -> None:
    ctx = browser.new_context(viewport=viewport)
    ctx.set_default_timeout(30_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        open_table(page, live_server, game, LARGEST[game])
        found: dict[str, list[str]] = {}
        decisions = summaries = 0
        for _ in range(400):
            wait_ready(page)
            if is_finished(page):
                break
            summary = page.locator("#summary").is_visible()
            if summary or decisions < 3:
                where = "summary" if summary else f"decision {decisions}"
                if where == "summary" and summaries == 0 and viewport == PHONE:
                    screenshot(page, SCREENSHOTS / f"phone-{game}-summary.png")
                if decisions == 2 and not summary:
                    screenshot(page, SCREENSHOTS / f"{'phone' if viewport == PHONE else 'laptop'}-{game}.png")
                for problem in problems(page):
                    found.setdefault(problem, []).append(where)
            summaries += summary
            decisions += not summary
            if summaries and decisions >= 3:
                break
            take_turn(page)
        assert decisions >= 3, decisions
        assert found == {}, json.dumps(found, ensure_ascii=False, indent=1)
        assert errors == [], errors
    finally:
        ctx.close()


def test_the_lobby_on_a_phone_puts_create_and_open_tables_first(browser: Browser, live_server: LiveServer) -> None:
    """On a phone "Create a table" comes first, on the first screen, then the open tables (however many the
    server has: other tests' tables are open on this one); finished games and the bots after them."""
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    try:
        page.goto(live_server.url + "/")
        expect(page.locator("#create-game option")).to_have_count(5)
        ids = ["tables-title", "create-title", "create-button", "finished-title", "bots-title", "games-title"]
        tops = page.evaluate("""(ids) => Object.fromEntries(
            ids.map((id) => [id, document.getElementById(id).getBoundingClientRect().top + scrollY]))""", ids)
        assert tops["create-title"] < tops["create-button"] < tops["tables-title"] < tops["finished-title"], tops
        assert tops["finished-title"] < tops["bots-title"] < tops["games-title"], tops
        assert tops["create-title"] < PHONE["height"], tops
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        screenshot(page, SCREENSHOTS / "phone-lobby.png")
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_the_table_top_bar_is_one_line_on_a_laptop_in_every_language(browser: Browser, live_server: LiveServer,
                                                                     lang: str) -> None:
    """The host's top bar (title, status, invite, Seat a bot, Rules, language, Sound, Notify me, Pause, Resign for
    our pair, Leave) keeps to one line at 1366 px, in English, Spanish and Russian (Kaiser: every button)."""
    ctx = browser.new_context(viewport=LAPTOP)
    page = ctx.new_page()
    try:
        page.goto(live_server.url + "/")
        page.evaluate("(lang) => localStorage.setItem('cardtable.lang', lang)", lang)
        open_table(page, live_server, "kaiser", {})
        expect(page.locator("#pause-resume")).to_be_visible()
        expect(page.locator("#resign")).to_be_visible()
        rows = page.evaluate("""() => [...document.querySelectorAll('.topbar > *')].filter((el) => el.checkVisibility())
            .map((el) => Math.round(el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2))""")
        assert len(rows) >= 8, rows
        assert max(rows) - min(rows) <= 12, rows  # centred on one line
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        screenshot(page, SCREENSHOTS / f"laptop-top-bar-{lang}.png")
    finally:
        ctx.close()
