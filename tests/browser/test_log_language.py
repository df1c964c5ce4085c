"""The page speaks one language (issue 24): every log line and card name in English, Spanish and Russian.

First the words themselves: real events of every built-in game (from seeded playouts) written by the page's
own words.js in each language, and every card of every deck named. Then two tables: a Mus game with English
chosen, whose log, hand summary and result hold no Spanish sentence (the rules' terms such as envite, órdago
or tantos stay), and a Wizard game in Russian, whose log holds no word of English.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from cardtable import load_game
from cardtable.core import to_json
from tests.browser.conftest import SCREENSHOTS, LiveServer
from tests.browser.test_table import evaluate_on_lobby, new_page, no_page_errors, play_until, start_as_host
from tests.browser.ui import create_table, in_every_language, is_finished, play_to_end, screenshot, start_game

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
#: Rules for each game's playouts: enough of them that every kind of event happens.
PLAYOUTS: dict[str, list[dict[str, Any]]] = {
    "wizard": [{}, {"hidden_bids": True, "wizard_trump": "no_trump"}],
    "mus": [{}, {"signals.enabled": True}],
    "durak": [{}],
    "kaiser": [{}],
    "crazy_eights": [{}, {"players": 2}, {"players": 2, "draw_until_playable": False}],
}
#: Spanish sentence words (the engine's Mus lines) that an English page never shows; the rules' terms
#: (envite, órdago, quiero, tantos, amarracos, mano, no hay mus) may appear.
SPANISH = re.compile(r"\b(gana|ganan|reparte|recibe|asiento|pareja|cuatro|descarta|descartar|juega|roba|ronda|"
                     r"triunfo|hablan|tiene|nadie|cambia|por)\b| de (oros|copas|espadas|bastos)", re.IGNORECASE)
#: English sentence words (the other engines' lines) that a Spanish or Russian page never shows.
ENGLISH = re.compile(r"\b(seat|seats|plays|played|deals|dealt|takes|trick|bids|draws|wins|win|round|the|of|is)\b",
                     re.IGNORECASE)
#: What an unfilled or missing catalogue entry looks like.
RAW = re.compile(r"[{}]|undefined|NaN|null|\[object|\b(event|mus|suit|card|kaiser|wizard|durak|ce)\.\w")

RENDER = in_every_language("events, names", """
      const how = { name: (s) => names[s], card: (c) => catalogue.words(c) };
      out[lang][g.name] = {
        cards: cards.map((c) => c.words),
        lines: events[g.name].map((e) => words.eventText({ event: e }, g.name, how)),
      };""")


def _policy(rng: random.Random, legal: Sequence[Any], calm: bool) -> Any:
    """Random, or (``calm``) a player who gives mus, discards all it may and never goes órdago, so that a
    Mus game runs through many mus rounds (the deck reshuffled) and many lances."""
    if calm:
        kinds = {a.TYPE for a in legal}
        if "mus" in kinds:
            return next(a for a in legal if a.TYPE == "mus")
        discards = [a for a in legal if a.TYPE == "discard"]
        if discards:
            return max(discards, key=lambda a: len(a.cards))  # type: ignore[attr-defined]
        legal = [a for a in legal if a.TYPE != "ordago"] or list(legal)
    return rng.choice(list(legal))


def _events(game_name: str) -> list[dict[str, Any]]:
    """Seeded playouts of a game: one event of each kind and shape (its words and flags), as the server sends it."""
    game = load_game(game_name)
    found: dict[str, dict[str, Any]] = {}
    for values in PLAYOUTS[game_name]:
        for seed in range(3):
            rng = random.Random(seed)
            state, events = game.new(game.options(values), seed)
            shown = list(events)
            while (seat := game.to_act(state)) is not None:
                state, events = game.apply(state, seat, _policy(rng, game.legal_actions(state, seat), seed % 2 == 0))
                shown += events
            for event in shown:
                data = dict(to_json(event))
                shape = repr(sorted((k, v) for k, v in data.items() if v is None or isinstance(v, (bool, str))))
                found.setdefault(shape, data)
    kinds = {e["type"] for e in found.values()}
    assert kinds == {c.TYPE for c in game.info.event_types}, f"{game_name}: the playouts never showed some events"
    return list(found.values())


@pytest.fixture(scope="module")
def rendered(browser: Browser, live_server: LiveServer) -> tuple[dict[str, list[dict[str, Any]]], dict[str, Any]]:
    """The events of every game and what the page writes for them, in every language."""
    events = {name: _events(name) for name in PLAYOUTS}
    return events, evaluate_on_lobby(browser, live_server, RENDER, [events, NAMES])


def test_every_event_has_its_own_line_in_every_language(rendered: tuple[Mapping[str, Any], Mapping[str, Any]]) -> None:
    """Each event gets the page's line (never the engine's text), every placeholder filled, no key shown; an
    English line holds no Spanish sentence word, a Spanish or Russian one no English word, and a Russian
    line of a French or Wizard deck game no Latin letter at all but the players' names."""
    events, out = rendered
    names = re.compile(r"\b(" + "|".join(NAMES) + r")\b")
    checked = 0
    for lang, games in out.items():
        for game, result in games.items():
            for event, line in zip(events[game], result["lines"], strict=True):
                assert line is not None, f"{lang} {game}: no line for {event}"
                where = f"{lang} {game} {event['type']}: {line!r}"
                assert not RAW.search(line), where
                if lang == "en":
                    assert not SPANISH.search(line), where
                else:
                    assert not ENGLISH.search(line), where
                if lang == "ru" and game != "mus":
                    assert not re.search(r"[A-Za-z]", names.sub("", line)), where
                checked += 1
    assert checked > 300


FRENCH_RANKS = "two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace"


@pytest.mark.parametrize(("lang", "game", "pattern"), [
    ("en", "mus", r"(ace|two|three|four|five|six|seven|sota|caballo|rey) of (oros|copas|espadas|bastos)"),
    ("es", "mus", r"(as|dos|tres|cuatro|cinco|seis|siete|sota|caballo|rey) de (oros|copas|espadas|bastos)"),
    ("ru", "mus", r"(туз|двойка|тройка|четвёрка|пятёрка|шестёрка|семёрка|валет|конь|король) "
                  r"(монет|кубков|мечей|дубинок)"),
    ("en", "kaiser", rf"({FRENCH_RANKS}) of (spades|hearts|diamonds|clubs)"),
    ("es", "durak", r"(seis|siete|ocho|nueve|diez|jota|reina|rey|as) de (picas|corazones|diamantes|tréboles)"),
    ("ru", "crazy_eights", r"(двойка|тройка|четвёрка|пятёрка|шестёрка|семёрка|восьмёрка|девятка|десятка|валет|дама"
                           r"|король|туз) (пик|червей|бубен|треф)"),
    ("en", "wizard", r"\d+ of (red|yellow|green|blue)|wizard \d|jester \d"),
    ("es", "wizard", r"\d+ (rojo|amarillo|verde|azul)|mago \d|bufón \d"),
    ("ru", "wizard", r"(красная|жёлтая|зелёная|синяя) \d+|маг \d|шут \d"),
])
def test_every_card_is_named_in_the_pages_language(rendered: tuple[Mapping[str, Any], Mapping[str, Any]],
                                                   lang: str, game: str, pattern: str) -> None:
    """Every card of the deck, in the page's words: the Spanish deck in English is "four of oros"."""
    cards = rendered[1][lang][game]["cards"]
    assert len(cards) >= 32
    assert [c for c in cards if not re.fullmatch(pattern, c)] == []
    assert len(set(cards)) == len(cards) or game == "wizard"  # two decks' worth of names, each card its own


def _text(page: Page, selector: str) -> str:
    box = page.locator(selector)
    return box.inner_text() if box.count() else ""


def test_a_mus_game_in_english_has_no_spanish_sentences(page: Page, live_server: LiveServer) -> None:
    """Mus with English chosen: the log, the hand's count and the result are English around the rules'
    terms; the cards are "… of oros"; no log line is the engine's."""
    create_table(page, live_server.url, game="Mus", name="Rick", options={"Target": "10"})
    start_game(page)
    summary = page.locator("#summary")
    play_until(page, lambda: summary.is_visible() or is_finished(page))
    log = _text(page, "#log")
    assert re.search(r"\b(mus|envido|paso|quiero|no hay mus)\b", log), log[:500]  # the terms stay
    assert "is dealt" in log and re.search(r" of (oros|copas|espadas|bastos)", log), log[:500]
    for text in (log, _text(page, "#summary"), _text(page, "#board")):
        assert not SPANISH.search(text), SPANISH.search(text)
    labels = page.locator("#board .card:not(.back)").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert labels and all(re.fullmatch(r"\w+ of (oros|copas|espadas|bastos)", label) for label in labels), labels
    assert page.locator("#board [lang]").count() == 0  # nothing on the table is marked as another language
    if summary.is_visible():
        summary.get_by_role("button", name="Continue").click()
        expect(summary).to_be_hidden()
    screenshot(page, SCREENSHOTS / "table-mus-en.png")
    play_to_end(page)
    for text in (_text(page, "#log"), _text(page, "#result")):
        assert not SPANISH.search(text), SPANISH.search(text)
    expect(page.locator("#result .reason")).to_contain_text(re.compile(r"Pair [AB] reached 10"))
    assert page.locator("#log li.engine-text").count() == 0
    no_page_errors(page)


def test_a_wizard_game_in_russian_has_no_english_words(browser: Browser, live_server: LiveServer) -> None:
    """Wizard with Russian chosen, played to its end: no Latin letter in the log but the host's name."""
    ctx, page = new_page(browser, locale="ru-RU")
    try:
        start_as_host(page, live_server, "wizard", {"rounds": 5}, 3, lang="ru", start="Начать игру")
        play_to_end(page)
        lines = page.locator("#log li").all_inner_texts()
        assert len(lines) > 20
        assert [line for line in lines if re.search(r"[A-Za-z]", line.replace("Rick", ""))] == []
        assert page.locator("#log li.engine-text").count() == 0
        assert not re.search(r"[A-Za-z]", _text(page, "#result").replace("Rick", ""))
        no_page_errors(page)
    finally:
        ctx.close()
