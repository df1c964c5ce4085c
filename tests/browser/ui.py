"""Driving the lobby and table pages the way a person does: by labels, buttons and clicks."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from playwright.sync_api import Page, expect

# The page is idle and it is this browser's turn, a summary waits for Continue, or the game is over.
READY = """() => {
  const root = document.getElementById('table');
  const result = document.getElementById('result');
  const summary = document.getElementById('summary');
  if (!root) return false;
  if (summary && !summary.hidden) return true;
  if (root.dataset.status === 'finished' && result && !result.hidden) return true;
  return root.dataset.myTurn === 'true' && root.dataset.pending === 'false';
}"""


def create_table(page: Page, base_url: str, *, game: str, name: str, players: int | None = None,
                 options: Mapping[str, object] | None = None, seats: Sequence[str] = (),
                 preset: str | None = None, seed: int | None = 7, pause: float | None = 0.05,
                 timer: float | None = None, allow_takeover: bool = False, computer: str | None = None) -> str:
    """Fill the lobby's create form and submit it; returns the new table's id.

    ``seed`` fills the advanced "Deal seed" field, so that a test plays the same game every run
    (the computer players are seeded from it too); ``None`` leaves the deal random.

    ``options`` maps an option's visible label to a value (bool: tick, str: choose or type);
    ``seats`` gives the visible choice for seats 2, 3, ... (e.g. "A person (invite a friend)").
    ``pause`` is the table's pause on a finished trick in seconds (short in tests; ``None``: the default
    1.5 s); ``timer`` the time for each move; ``allow_takeover`` lets people take computer seats mid-game.
    ``computer`` names the bot of every seat ``seats`` leaves to a computer (``None``: the game's default).
    """
    page.goto(base_url + "/")
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Game", exact=True).select_option(label=game)
    if players is not None:
        page.get_by_label("Number of players").select_option(str(players))
    if preset is not None:
        page.get_by_label("Preset").select_option(label=preset)
    for label, value in (options or {}).items():
        set_option(page, label, value)
    if computer is not None:
        for select in page.locator("[data-seat-choice]").all():
            select.select_option(value=f"bot:{computer}")
    for i, choice in enumerate(seats):
        page.get_by_label(f"Seat {i + 2}", exact=True).select_option(label=choice)
    if seed is not None:
        page.locator("#create-advanced summary").click()
        page.get_by_label("Deal seed").fill(str(seed))
    if pause is not None or timer is not None or allow_takeover:
        page.locator("#create-table-settings summary").click()
        if pause is not None:
            page.get_by_label("Pause on a finished trick (seconds)").fill(str(pause))
        if timer is not None:
            page.get_by_label("Time for each move (seconds)").fill(str(timer))
        page.get_by_label("Friends may take over a computer seat during the game").set_checked(allow_takeover)
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r".*/table/[^/]+$"))
    return page.url.rsplit("/", 1)[1]


def share_link(page: Page) -> str:
    """The table's invitation link, once the page has written it (it is empty for a moment after loading)."""
    field = page.locator("#share-link")
    expect(field).to_have_value(re.compile(r"/table/[^/]+$"))
    return field.input_value()


def set_option(page: Page, label: str, value: object) -> None:
    """Set one rule toggle on the create form by its label (opening "More rules" if it is folded there)."""
    field = page.get_by_label(label, exact=True)
    if not field.is_visible() and page.locator("#more-rules").count():
        page.locator("#more-rules summary").click()
    if isinstance(value, bool):
        field.set_checked(value)
    elif field.evaluate("el => el.tagName") == "SELECT":
        field.select_option(label=str(value))
    else:
        field.fill(str(value))


def start_game(page: Page) -> None:
    """Press the host's "Start game" and wait for the board."""
    page.get_by_role("button", name="Start game").click()
    expect(page.locator("#board")).to_be_visible()


def wait_ready(page: Page, timeout: float = 30_000) -> None:
    """Wait until it is this page's turn (and no action is on its way) or the result screen shows."""
    page.wait_for_function(READY, timeout=timeout)


def is_finished(page: Page) -> bool:
    """Whether the result screen is showing."""
    return page.locator("#result").is_visible()


def take_turn(page: Page) -> str:
    """One click of the simple policy; returns what was clicked (its accessible name).

    Confirm a chosen selection or a card's choice first, else the first legal card not yet selected,
    else the first enabled action button.
    """
    for selector in ("#summary-continue", "#actions button[data-kind=submit]:enabled",
                     "#actions button[data-kind=choice]:enabled",
                     "#hand button.card.legal:enabled:not(.selected)", "#actions button[data-kind=button]:enabled"):
        target = page.locator(selector)
        if target.count():
            first = target.first
            name = first.get_attribute("aria-label") or first.inner_text()
            first.click()
            return name
    return ""


def play_to_end(page: Page, *, max_clicks: int = 1500, on_click: object = None) -> list[str]:
    """Click the simple policy until the result screen shows; returns every click's accessible name."""
    clicks: list[str] = []
    while len(clicks) < max_clicks:
        wait_ready(page)
        if is_finished(page):
            return clicks
        clicked = take_turn(page)
        if not clicked:
            page.wait_for_timeout(50)
            continue
        clicks.append(clicked)
        if callable(on_click):
            on_click(len(clicks))
    raise AssertionError(f"no result after {max_clicks} clicks; last: {clicks[-5:]}")


def play_rated_durak(page: Page, *, seed: int = 7) -> str:
    """From the lobby, signed in: a rated Durak game against the computer on a seeded deal, played to the
    end by the simple policy; returns the table's id."""
    page.get_by_label("Game", exact=True).select_option(label="Durak")
    page.get_by_label("Rated game").check()
    page.locator("#create-advanced summary").click()
    page.get_by_label("Deal seed").fill(str(seed))
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r".*/table/[^/]+$"))
    table_id = page.url.rsplit("/", 1)[1]
    start_game(page)
    play_to_end(page)
    return table_id


def screenshot(page: Page, path: Path, *, full_page: bool = False) -> None:
    """Save a PNG (under docs/screenshots/ when CARDTABLE_SCREENSHOTS=docs) and check it was written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(400)  # cards flying in (0.3 s) have landed
    if not full_page:
        page.evaluate("window.scrollTo(0, 0)")  # the picture shows the page as it opens, top bar included
    page.screenshot(path=str(path), full_page=full_page)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"


def in_every_language(args: str, body: str, *, start: str = "{}", imports: str = "") -> str:
    """An in-page function of ``[args]`` that writes, with the page's own words, ``out[lang]`` for English,
    Spanish and Russian.

    For each language it loads the page's catalogue (``i18n``), sets ``out[lang]`` to ``start`` and runs
    ``body`` for each game ``g`` named in the first argument, with ``cards`` (the game's cards in that
    language) and ``catalogue`` defined; ``body`` sets ``out[lang][g.name]``. ``imports``: more lines of
    ``await import(...)``.
    """
    first = args.split(",")[0].strip()
    return f"""async ([{args}]) => {{
  const i18n = await import("/static/js/i18n.js");
  const words = await import("/static/js/words.js");
  const {{ Catalogue }} = await import("/static/js/cards.js");
  {imports}
  const games = await (await fetch("/api/games")).json();
  const out = {{}};
  for (const lang of ["en", "es", "ru"]) {{
    await i18n.load(lang);
    out[lang] = {start};
    for (const g of games.filter((g) => {first}[g.name])) {{
      const cards = words.translateCards(g.cards);
      const catalogue = new Catalogue(cards);
      {body}
    }}
  }}
  return out;
}}"""
