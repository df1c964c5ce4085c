"""Browser tests: every game played to its result screen by clicking, against the real app and Debian's Chromium.

The clicking policy is the simplest one a person could follow: confirm a selection if one is ready, else
click the first highlighted card, else the first enabled action button.
"""

from __future__ import annotations

import json
import re
import urllib.request
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import SCREENSHOTS, LiveServer
from tests.browser.ui import (
    READY,
    create_table,
    is_finished,
    play_to_end,
    screenshot,
    share_link,
    start_game,
    take_turn,
)

pytestmark = pytest.mark.browser

PERSON = "A person (invite a friend)"


@dataclass(frozen=True)
class Setup:
    """How a test sets up one game in the create form, and what its controls must look like."""

    title: str
    players: int | None
    options: dict[str, object]
    # Accessible names that must appear among the clicks (proving the game's own controls were used).
    control: str
    # Every card's accessible name in this game matches this.
    card_words: str
    facts: tuple[str, ...] = field(default=())
    # The computer players' bot (None: the game's default).
    computer: str | None = None


FRENCH = r"(spades|hearts|diamonds|clubs)"
FACES = "jack|queen|king|ace"
SETUPS = {
    "wizard": Setup("Wizard", 3, {"Rounds": "5"}, r"^Bid \d+$",
                    r"^(\d+ of (red|yellow|green|blue)|wizard \d|jester \d)$", ("Trump", "Round", "Dealer")),
    "kaiser": Setup("Kaiser", None, {"Target": "32"}, r"^(Pass|Bid \d+( no trump)?)$",
                    rf"^(three|five|seven|eight|nine|ten|{FACES}) of {FRENCH}$", ("Trump", "Contract", "Dealer"),
                    # Kaiser's default, the search, takes about 100 s of CPU for a game to 32: heuristics here.
                    "heuristic"),
    "crazy_eights": Setup("Crazy Eights", 3, {"Rounds": "1"}, r"^(Play .+|Draw a card|Pass)$",
                          rf"^(two|three|four|five|six|seven|eight|nine|ten|{FACES}) of {FRENCH}$",
                          ("Suit in force", "Stock")),
    "durak": Setup("Durak", 2, {}, r"^(Attack with the .+|Beat with the .+|Take the cards|Stop attacking.*)$",
                   rf"^(six|seven|eight|nine|ten|{FACES}) of {FRENCH}$", ("Trump", "Attacker", "Defender")),
    "mus": Setup("Mus", None, {"Target": "10"},
                 r"^(Mus|No hay mus|Paso|Envido \d+|Quiero|No quiero|Órdago|Discard)",
                 r"^(ace|two|three|four|five|six|seven|sota|caballo|rey) of (oros|copas|espadas|bastos)$",
                 ("Mano", "Phase")),
}


def api(server: LiveServer, path: str) -> object:
    """GET a JSON endpoint of the live server."""
    with urllib.request.urlopen(server.url + path, timeout=10) as response:
        return json.load(response)


def check_no_errors(page: Page) -> None:
    """No JavaScript error happened on the page."""
    assert page.errors == [], page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", list(SETUPS))
def test_play_whole_game_against_computer(page: Page, live_server: LiveServer, name: str) -> None:
    """Create a table from the lobby with computer opponents, start, click to the result screen."""
    setup = SETUPS[name]
    table_id = create_table(page, live_server.url, game=setup.title, name="Rick", players=setup.players,
                            options=setup.options, computer=setup.computer)
    expect(page.locator("#share-link")).to_have_value(re.compile(re.escape(f"/table/{table_id}") + "$"))
    start_game(page)
    for fact in setup.facts:
        expect(page.locator("#facts dt", has_text=fact).first).to_be_visible()

    def midgame(n: int) -> None:
        if n == 4:
            check_cards(page, setup.card_words)
            if name != "wizard":  # the Wizard picture is the six-player table of test_table
                screenshot(page, SCREENSHOTS / f"table-{name}.png")

    clicks = play_to_end(page, on_click=midgame)
    assert any(re.match(setup.control, c) for c in clicks), clicks[:20]
    check_result(page, live_server, table_id)
    if name == "wizard":
        screenshot(page, SCREENSHOTS / "result.png")
        page.get_by_role("button", name="Show the table").click()
        expect(page.locator("#result")).to_be_hidden()
        page.get_by_role("button", name="Show the result").click()
        expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    check_no_errors(page)


def check_cards(page: Page, pattern: str) -> None:
    """Every card face on the page has an accessible name in the game's words."""
    labels = page.locator("#board .card:not(.back)").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert labels, "no card on the table"
    for label in labels:
        assert re.match(pattern, label), label


def check_result(page: Page, server: LiveServer, table_id: str) -> None:
    """The result screen names the winners the server reports, and every seat's score."""
    summary = api(server, f"/api/tables/{table_id}")
    assert isinstance(summary, dict) and summary["status"] == "finished"
    result = page.locator("#result")
    expect(result.get_by_role("heading", name="Game over")).to_be_visible()
    # A computer player is named by number and its kind in words ("Computer 2 (quick search)").
    names = [re.sub(r" \(\w+\)$", "", summary["seats"][s]["name"]) for s in summary["outcome"]["winners"]]
    headline = result.locator(".winners").inner_text()
    for winner in names:
        assert winner in headline, (winner, headline)
    expect(result.get_by_role("link", name="Back to the lobby")).to_be_visible()


def test_lobby_and_create_form(page: Page, live_server: LiveServer) -> None:
    """The lobby lists every game; the create form shows each game's toggles, presets and seat choices."""
    page.goto(live_server.url + "/")
    games = api(live_server, "/api/games")
    assert isinstance(games, list)
    for g in games:
        expect(page.locator(".game-card h3", has_text=g["title"])).to_be_visible()
    page.get_by_label("Game", exact=True).select_option(label="Wizard")
    expect(page.get_by_label("Bids may not equal tricks")).not_to_be_checked()
    page.get_by_label("Preset").select_option(label="House rules")
    expect(page.get_by_label("Bids may not equal tricks")).to_be_checked()
    expect(page.get_by_label("Wizard trump")).to_have_value(json.dumps("no_trump"))
    page.get_by_label("Number of players").select_option("5")
    expect(page.get_by_label("Seat 5", exact=True)).to_be_visible()
    page.get_by_label("Game", exact=True).select_option(label="Durak")
    expect(page.get_by_label("Seat 3", exact=True)).to_have_count(0)
    page.get_by_label("Game", exact=True).select_option(label="Wizard")
    screenshot(page, SCREENSHOTS / "create-form.png", full_page=True)
    page.get_by_role("button", name="Create table").click()
    expect(page.locator("#notice")).to_contain_text("name")
    check_no_errors(page)


def wait_either(pages: list[Page], timeout_ms: int = 30_000) -> Page | None:
    """The first page that may act now; None once every page shows its result."""
    deadline = pages[0].evaluate("Date.now()") + timeout_ms
    while pages[0].evaluate("Date.now()") < deadline:
        if all(is_finished(p) for p in pages):
            return None
        for p in pages:
            if not is_finished(p) and p.evaluate(READY):
                return p
        pages[0].wait_for_timeout(30)
    raise AssertionError("neither player could act")


def test_two_people_and_a_reload(browser: Browser, live_server: LiveServer) -> None:
    """Two people in two browsers play Durak; the guest reloads mid-game and keeps the seat."""
    host_ctx = browser.new_context(viewport={"width": 1100, "height": 800})
    guest_ctx = browser.new_context(viewport={"width": 375, "height": 780})
    try:
        host, guest = host_ctx.new_page(), guest_ctx.new_page()
        errors: list[str] = []
        for p in (host, guest):
            p.on("pageerror", lambda exc: errors.append(str(exc)))
        table_id = create_table(host, live_server.url, game="Durak", name="Rick", players=2, seats=[PERSON])
        share = share_link(host)
        guest.goto(share)
        guest.get_by_label("Your name").fill("Summer")
        guest.get_by_role("button", name="Join seat 2").click()
        expect(host.locator(".waiting-seat", has_text="Summer")).to_be_visible()
        expect(guest.get_by_role("button", name="Start game")).to_have_count(0)
        start_game(host)
        expect(guest.locator("#board")).to_be_visible()
        clicks, reloaded = 0, False
        while (p := wait_either([host, guest])) is not None:
            take_turn(p)
            clicks += 1
            if clicks == 8 and not reloaded:
                reloaded = True
                guest.reload()
                expect(guest.locator("#table")).to_have_attribute("data-seat", "1")
                expect(guest.locator("#table-status")).to_contain_text("You are Summer")
                expect(guest.locator("#hand .card").first).to_be_visible()
            assert clicks < 800, "the game did not end"
        assert reloaded
        summary = api(live_server, f"/api/tables/{table_id}")
        assert isinstance(summary, dict) and summary["status"] == "finished"
        assert [s["name"] for s in summary["seats"]] == ["Rick", "Summer"]
        for p in (host, guest):
            expect(p.get_by_role("heading", name="Game over")).to_be_visible()
        assert errors == []
    finally:
        host_ctx.close()
        guest_ctx.close()


def test_lobby_lists_open_table_with_join_buttons(browser: Browser, live_server: LiveServer) -> None:
    """A waiting table appears in another browser's lobby with a join button per free seat."""
    host_ctx = browser.new_context()
    other_ctx = browser.new_context(viewport={"width": 375, "height": 800})
    try:
        host, other = host_ctx.new_page(), other_ctx.new_page()
        table_id = create_table(host, live_server.url, game="Crazy Eights", name="Morty", players=3,
                                seats=[PERSON, PERSON])
        other.goto(live_server.url + "/")
        item = other.locator(f'[data-table="{table_id}"]')
        expect(item.get_by_role("button", name="Join seat 2")).to_be_visible()
        expect(item.get_by_role("button", name="Join seat 3")).to_be_visible()
        screenshot(other, SCREENSHOTS / "lobby-phone.png", full_page=True)
        other.set_viewport_size({"width": 1280, "height": 860})
        screenshot(other, SCREENSHOTS / "lobby.png")
        other.get_by_label("Your name").fill("Beth")
        item.get_by_role("button", name="Join seat 3").click()
        other.wait_for_url(re.compile(f".*/table/{table_id}$"))
        expect(other.locator("#table")).to_have_attribute("data-seat", "2")
        expect(host.locator(".waiting-seat", has_text="Beth")).to_be_visible()
    finally:
        host_ctx.close()
        other_ctx.close()


def test_computer_covers_for_a_person_who_left(browser: Browser, quick_takeover_server: LiveServer) -> None:
    """When the guest's page closes the host is told the computer plays for them; it stops when they return."""
    host_ctx, guest_ctx = browser.new_context(), browser.new_context()
    try:
        host, guest = host_ctx.new_page(), guest_ctx.new_page()
        create_table(host, quick_takeover_server.url, game="Durak", name="Rick", players=2, seats=[PERSON])
        guest.goto(share_link(host))
        guest.get_by_label("Your name").fill("Summer")
        guest.get_by_role("button", name="Join seat 2").click()
        expect(guest.locator("#table")).to_have_attribute("data-seat", "1")
        start_game(host)
        link = guest.url
        guest.close()
        expect(host.locator("#takeover")).to_have_text("The computer is playing for Summer.")
        back = guest_ctx.new_page()
        back.goto(link)
        expect(back.locator("#table")).to_have_attribute("data-seat", "1")
        expect(host.locator("#takeover")).to_be_hidden()
    finally:
        host_ctx.close()
        guest_ctx.close()


@pytest.mark.parametrize("name", ["durak", "crazy_eights"])
def test_generic_view_plays_a_whole_game(page: Page, live_server: LiveServer, name: str) -> None:
    """The generic view alone (no game-specific module) still plays a whole game to the result screen."""
    setup = SETUPS[name]
    table_id = create_table(page, live_server.url, game=setup.title, name="Morty", players=2, options=setup.options)
    start_game(page)
    page.goto(f"{live_server.url}/table/{table_id}?view=generic")
    expect(page.locator("#hand .card").first).to_be_visible()
    check_cards(page, setup.card_words)
    play_to_end(page)
    check_result(page, live_server, table_id)
    check_no_errors(page)
