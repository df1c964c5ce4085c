"""Every visible text in the page's language (issue 33, item 2): the lobby with each game's create form
unfolded, and a whole game of each of the five games (waiting room, board at every decision, round and hand
summaries, the result, the replay); the rules panel of each game's table, the account page signed out and in,
a profile (a person's and a built-in player's), the leaderboard of each kind, a game's review, the list of
tournaments and a tournament's page; rendered in English, Spanish and Russian, read as a person reads them
(visible text, option texts, accessible names, titles and placeholders), with no word of another language
but the game terms every language keeps (the Mus calls, the names of its cards, a player's name, a
tournament entry's name), commands and paths (<code>) and keys as the keyboard prints them (<kbd>)."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from cardtable import load_game
from cardtable.arena.entries import Entry
from cardtable.arena.tournament import define, run_tournament
from cardtable.store import Store
from cardtable.store.tournaments import TournamentStore
from tests.browser.conftest import LiveServer, _free_port
from tests.browser.test_buttons_language import MUS_TERMS
from tests.browser.ui import is_finished, play_rated_durak, take_turn, wait_ready

pytestmark = pytest.mark.browser

STATIC = Path(__file__).resolve().parents[2] / "cardtable" / "server" / "static"

#: What each language's page reads: every visible text node, the texts of <option>s, and the accessible
#: names, titles and placeholders of visible elements.
READ = """() => {
  const out = [];
  const seen = (el) => !!el && el.checkVisibility ? el.checkVisibility() : true;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const parent = node.parentElement;
    // Commands to type (a bot's connect line) and keys as printed on the keyboard are no language; the
    // language switch names each language in its own (marked with its lang).
    if (!text || !parent || parent.closest('script, style, code, kbd, option[lang]')) continue;
    if (parent.closest('option') ? seen(parent.closest('select')) : seen(parent)) out.push(text);
  }
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [aria-description]')) {
    if (!seen(el)) continue;
    for (const name of ['aria-label', 'title', 'placeholder', 'aria-description']) {
      const value = el.getAttribute(name);
      if (value) out.push(value);
    }
  }
  out.push(document.title);
  return out;
}"""

#: The names people sit under at the server's tables, open and finished (the lobby lists them); not the
#: computer players' names, which the page words itself ("Компьютер 2 (поиск)").
NAMES = """async () => {
  const lists = await Promise.all(['/api/tables', '/api/finished'].map(async (u) => (await fetch(u)).json()));
  const person = (seat) => (typeof seat === 'string'
    ? (/^Computer \\d/.test(seat) || / \\(now .* bot\\)$/.test(seat) ? '' : seat)
    : (seat.kind === 'human' ? seat.name || '' : ''));
  return lists.flatMap((list) => (Array.isArray(list) ? list : list.tables || []))
    .flatMap((table) => (table.seats || []).map(person));
}"""

NAME = "Rick"
#: Words every page may show: the player's name, the site's name, the language switch's own names.
COMMON = {"rick", "cardtable", "english", "español", "русский"}
#: Mus's terms (docs/rules/mus.md), kept as the rules write them in every language, and its Spanish cards.
GAME_TERMS = {w for term in MUS_TERMS for w in term.split()} | {
    "grande", "chica", "punto", "envite", "envites", "amarracos", "reenvido", "tanteo", "tantos", "mano", "postre",
    "lance", "lances", "ordago", "órdago", "sota", "caballo", "rey", "reyes", "as", "ases", "oros", "copas",
    "espadas", "bastos", "de", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "mus", "pares", "juego",
    "duples", "medias", "Federación", "Española", "envido", "quiero", "paso", "hay", "no", "y",
    "8R8A", "4R", "señas", "a", "falta", "negada", "en", "par", "deje", "estamos", "dentro", "tanto", "piedra",
    "piedras", "amarraco", "FEM", "IV", "VI", "VII",  # the federation's rule book and its article numbers
}
ALLOWED_LATIN = {w.lower() for w in COMMON | GAME_TERMS} | {"wizard"}  # Wizard's name in Russian is its own
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LATIN_WORD = re.compile(r"[A-Za-zÀ-ÿ]{2,}")
#: English words a Spanish page never shows.
ENGLISH = re.compile(r"\b(the|of|your|you|and|with|play|plays|played|cards?|round|trick|tricks|seat|seats|wins|bid|"
                     r"bids|waiting|continue|players?|score|hand|turn|random|reference|table|game)\b", re.IGNORECASE)
#: Spanish words an English page never shows (Mus's terms aside, which no word here is).
SPANISH = re.compile(r"\b(el|los|las|con|una|por|para|del|que|gana|ronda|jugar|cartas?|turno|asiento|bazas?|"
                     r"mesa|partida|jugador(es)?|azar)\b", re.IGNORECASE)

#: Short games of each kind, and how the page is told to play them: (game, options).
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("wizard", {"players": 3, "rounds": 5}),
    ("mus", {"scoring.target": 10}),
    ("kaiser", {"target": 32}),
    ("durak", {"players": 2}),
    ("crazy_eights", {"players": 3, "rounds": 1}),
]


def foreign(lang: str, text: str) -> list[str]:
    """The words of ``text`` that belong to another language than ``lang`` (game terms allowed)."""
    if lang == "ru":
        return [w for w in LATIN_WORD.findall(text) if w.lower() not in ALLOWED_LATIN]
    if CYRILLIC.search(text):
        return [text]
    pattern = ENGLISH if lang == "es" else SPANISH
    return [m.group(0) for m in pattern.finditer(text)]


def post(server: LiveServer, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST JSON to the live server; the decoded answer."""
    request = urllib.request.Request(server.url + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return dict(json.load(response))


class Reader:
    """Collects what a page shows, with where it was seen."""

    def __init__(self, page: Page, lang: str) -> None:
        self.page = page
        self.lang = lang
        self.found: dict[str, str] = {}
        self.read_count = 0
        #: Further names that are no language (a tournament's entries).
        self.extra_names: set[str] = set()

    def read(self, where: str) -> None:
        """Read the page now; remember each foreign word with the first place it was seen (people's names,
        as typed at the server's tables, are no language)."""
        self.read_count += 1
        names = {w.lower() for name in self.page.evaluate(NAMES) for w in LATIN_WORD.findall(name)} | self.extra_names
        for text in self.page.evaluate(READ):
            for word in foreign(self.lang, text):
                if word.lower() not in names:
                    self.found.setdefault(word, f"{where}: {text[:160]}")


def open_in(page: Page, server: LiveServer, lang: str, token: tuple[str, str] | None = None) -> None:
    """Set the page's language (and a seat token) in this profile."""
    page.goto(server.url + "/")
    page.evaluate("""([lang, token]) => {
      localStorage.setItem('cardtable.lang', lang);
      if (token) localStorage.setItem(`cardtable.token.${token[0]}`, token[1]);
    }""", [lang, list(token) if token else None])


def read_lobby(reader: Reader, server: LiveServer) -> None:
    """The lobby, with each game's create form and every fold of it open."""
    page = reader.page
    page.goto(server.url + "/")
    expect(page.locator("#create-game option")).to_have_count(5)
    games = page.locator("#create-game").evaluate("s => [...s.options].map((o) => o.value)")
    assert len(games) == 5, games
    for game in games:
        page.locator("#create-game").select_option(game)
        page.evaluate("() => document.querySelectorAll('#create-form details').forEach((d) => { d.open = true; })")
        reader.read(f"lobby, {game}")


def play_and_read(reader: Reader, server: LiveServer, game: str, options: dict[str, Any]) -> None:
    """Create a table of ``game`` with computer players, read its waiting room, play it to the end reading the
    board at every decision and every summary, read the result and the replay."""
    page = reader.page
    made = post(server, "/api/tables", {"game": game, "name": NAME, "options": options, "seed": 7})
    table_id, token = made["table_id"], made["token"]
    post(server, f"/api/tables/{table_id}/settings", {"token": token, "pace_ms": 50})
    open_in(page, server, reader.lang, (table_id, token))
    page.goto(f"{server.url}/table/{table_id}")
    expect(page.locator("#waiting")).to_be_visible()
    reader.read(f"{game} waiting room")
    page.locator("#start").click()
    expect(page.locator("#board")).to_be_visible()
    for _ in range(1500):
        wait_ready(page)
        if is_finished(page):
            break
        reader.read(f"{game} board" if page.locator("#summary").is_hidden() else f"{game} summary")
        take_turn(page)
    else:
        raise AssertionError(f"{game} did not finish")
    reader.read(f"{game} result")
    page.locator("#result a.button[href*='replay']").click()
    expect(page.locator("#replay-controls")).to_be_visible()
    reader.read(f"{game} replay")
    page.locator("#replay-end").click()
    reader.read(f"{game} replay end")
    assert page.errors == [], page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_every_page_and_dialog_speaks_the_pages_language(browser: Browser, live_server: LiveServer, lang: str) -> None:
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    ctx.set_default_timeout(30_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    reader = Reader(page, lang)
    try:
        open_in(page, live_server, lang)
        read_lobby(reader, live_server)
        for game, options in GAMES:
            play_and_read(reader, live_server, game, options)
    finally:
        ctx.close()
    assert reader.read_count > 50
    assert reader.found == {}, json.dumps(reader.found, ensure_ascii=False, indent=1)


def test_the_scan_finds_words_of_another_language() -> None:
    """The scan's own check: what it must find, and what it must let pass."""
    assert foreign("ru", "Раунд 2 из 5 (Round 2)") == ["Round"]
    assert foreign("ru", "Вы объявили envido 2; Rick играет сота de oros") == []
    assert foreign("es", "Ronda 2: your turn") == ["your", "turn"]
    assert foreign("es", "Ронда") == ["Ронда"]
    assert foreign("en", "Bid for the tricks; la ronda gana") == ["ronda", "gana"]
    assert foreign("en", "Envido 2: Rick has dos reyes") == []


def test_the_english_game_descriptions_are_the_games_own() -> None:
    """The catalogue's English description of each game is the game's own (so the two cannot drift apart), and
    Spanish and Russian have theirs."""
    catalogues = {lang: json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8")) for lang in ("en", "es", "ru")
                  }
    for name, _ in GAMES:
        game = load_game(name)
        key = f"game.{game.info.name}.description"
        assert catalogues["en"][key] == game.info.description, key
        assert catalogues["es"][key] != game.info.description and catalogues["ru"][key] != game.info.description, key


#: Tournament entries' names (chosen by whoever ran the tournament, like a person's name) are no language.
ENTRIES = """async () => (await (await fetch('/api/tournaments')).json())
  .flatMap((t) => t.entries.map((e) => e.name))"""


@pytest.fixture(scope="module")
def other_pages(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, Any]]:
    """A server of its own holding what the other pages show: an account (Rick) with a rated Durak game played
    to its result and reviewed, and a finished arena tournament; the server and Rick's signed-in cookies."""
    server = LiveServer(tmp_path_factory.mktemp("pages") / "pages.db", _free_port())
    server.start()
    store = Store(server.database_url)
    tournament = define(load_game("crazy_eights"), [Entry("heuristic", "heuristic"), Entry("random", "random")],
                        values={"rounds": 1}, games=2, seed=2)
    run_tournament(tournament, TournamentStore(store.engine))
    store.close()
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    ctx.set_default_timeout(30_000)
    try:
        page = ctx.new_page()
        page.goto(server.url + "/account")
        page.locator("#signup-name").fill(NAME)
        page.locator("#signup-password").fill("correct horse")
        page.locator("#signup-button").click()
        page.wait_for_url(server.url + "/")
        table_id = play_rated_durak(page)
        page.goto(f"{server.url}/review.html?table={table_id}&seat=0")
        expect(page.locator("#review")).to_have_attribute("data-state", "done", timeout=120_000)
        cookies = ctx.cookies()
    finally:
        ctx.close()
    yield server, (table_id, cookies)
    server.stop()


def read_other_pages(reader: Reader, server: LiveServer, table_id: str, cookies: Any) -> None:
    """The account page signed out and in, the profile, the leaderboard of each kind, the review, the list of
    tournaments and a tournament's page, and the rules panel of each game's table."""
    page = reader.page
    page.goto(server.url + "/account")
    expect(page.locator("#signup-form")).to_be_visible()
    reader.read("account, signed out")
    page.goto(server.url + "/tournaments")
    expect(page.locator("#main a[href^='/tournaments/']").first).to_be_visible()
    reader.read("tournaments")
    page.locator("#main a[href^='/tournaments/']").first.click()
    page.wait_for_url(re.compile(r".*/tournaments/[0-9a-f]{64}$"))
    expect(page.locator("#main table").first).to_be_visible()
    reader.read("a tournament")
    page.context.add_cookies(cookies)
    page.goto(server.url + "/account")
    expect(page.locator("#profile-link")).to_have_text(NAME)
    reader.read("account, signed in")
    page.goto(f"{server.url}/players/{NAME}")
    expect(page.locator("table.ratings tr[data-game=durak]")).to_be_visible()
    reader.read("profile")
    page.goto(server.url + "/leaderboard/durak")
    expect(page.locator("table.leaderboard tbody tr")).to_have_count(2)
    reader.read("leaderboard")
    for kind in ("person", "bot", "builtin"):
        page.goto(f"{server.url}/leaderboard/durak?kind={kind}")
        expect(page.locator("#title")).not_to_be_empty()
        reader.read(f"leaderboard of kind {kind}")
    page.locator("table.leaderboard tbody a").first.click()  # the built-in player's profile
    expect(page.locator("table.ratings tr[data-game=durak]")).to_be_visible()
    reader.read("a built-in player's profile")
    page.goto(f"{server.url}/review.html?table={table_id}&seat=0")
    expect(page.locator("#review")).to_have_attribute("data-state", "done")
    reader.read("review")
    for game, options in GAMES:
        made = post(server, "/api/tables", {"game": game, "name": NAME, "options": options, "seed": 7})
        page.evaluate("([id, token]) => localStorage.setItem(`cardtable.token.${id}`, token)",
                      [made["table_id"], made["token"]])
        page.goto(f"{server.url}/table/{made['table_id']}")
        expect(page.locator("#waiting")).to_be_visible()
        page.locator("#rules-button").click()
        expect(page.locator("#rules-panel .rules-text")).to_be_visible()
        reader.read(f"{game} rules panel")


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_the_account_review_tournament_pages_and_rules_speak_the_pages_language(
        browser: Browser, other_pages: tuple[LiveServer, Any], lang: str) -> None:
    server, (table_id, cookies) = other_pages
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    ctx.set_default_timeout(30_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    reader = Reader(page, lang)
    try:
        open_in(page, server, lang)
        reader.extra_names = {w.lower() for name in page.evaluate(ENTRIES) for w in LATIN_WORD.findall(name)}
        read_other_pages(reader, server, table_id, cookies)
    finally:
        ctx.close()
    assert errors == []
    assert reader.read_count == 16
    assert reader.found == {}, json.dumps(reader.found, ensure_ascii=False, indent=1)
