"""The page's buttons and refused moves in the page's language (issue 24): English, Spanish and Russian.

First the words: every legal action of every built-in game (from seeded playouts) named by the page's own
actions.js in each language, and every reason the Mus engine gives for refusing a move said by words.js.
Then live tables: a move the server refuses on an English (and a Spanish) Mus page is reported wholly in the
page's language, and nothing changes.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Mapping
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from cardtable import load_game
from cardtable.core import to_json
from cardtable.core.errors import IllegalAction
from cardtable.games.mus import actions as mus_actions
from cardtable.games.wizard.actions import Play as WizardPlay
from tests.browser.conftest import LiveServer
from tests.browser.test_log_language import ENGLISH, NAMES, PLAYOUTS, RAW, SPANISH, _policy
from tests.browser.test_table import evaluate_on_lobby, new_page, no_page_errors, open_as_host
from tests.browser.ui import in_every_language, take_turn, wait_ready

pytestmark = pytest.mark.browser

#: Mus's terms, which every language keeps as the rules use them (docs/rules/mus.md): the calls and the
#: señas' names. Nothing else in a Russian button may be written in Latin letters.
MUS_TERMS = ("quiero y no pierdo", "no quiero", "quiero", "no hay mus", "mus", "paso", "envido", "órdago",
             "dos reyes", "dos ases", "medias de reyes", "medias de ases", "medias", "pares", "duples",
             "treinta y una", "treinta", "veintinueve", "juego", "ciego", "cortar el mus", "envidar más")
TERMS = re.compile(r"\b(" + "|".join(sorted(MUS_TERMS, key=len, reverse=True)) + r")\b", re.IGNORECASE)
#: Spanish words of the buttons' sentences (besides the log's) that an English page never shows.
SPANISH_BUTTON = re.compile(r"\b(subo|más|seña|descartar|jugar|apostar|pasar|robar|matar|atacar|recoger|triunfo)\b",
                            re.IGNORECASE)
#: English words of the buttons that a Spanish page never shows.
ENGLISH_BUTTON = re.compile(r"\b(bid|play|pass|draw|attack|beat|stop|take|name|raise|more|signal|discard|trump|"
                            r"cards?)\b", re.IGNORECASE)

RENDER_ACTIONS = in_every_language("actions, decisions", """
      const how = { card: (c) => catalogue.words(c) };
      out[lang][g.name] = {
        labels: actions[g.name].map((a) => actionText(a, g.name, how)),
        decisions: decisions[g.name].map((d) => d.map((a) => actionText(a, g.name, how))),
      };""", imports='const { actionText } = await import("/static/js/actions.js");')

RENDER_REFUSALS = in_every_language("details, names", """
      const how = { game: g.name, card: (text) => catalogue.wordsOfText(text) };
      out[lang][g.name] = details[g.name].map((detail) =>
        words.errorText({ code: "illegal", params: { detail }, message: detail }, (s) => names[s] ?? null, how));
      """, start='{ plain: i18n.t("error.illegal_plain") }')


def _actions(game_name: str) -> tuple[list[dict[str, Any]], list[list[dict[str, Any]]]]:
    """Every legal action the seeded playouts offer (and one of each action type without fields, and each
    seña), and the first 150 decisions with more than one choice, as the server sends them."""
    game = load_game(game_name)
    found: dict[str, dict[str, Any]] = {}
    decisions: list[list[dict[str, Any]]] = []
    for values in PLAYOUTS[game_name]:
        for seed in range(3):
            rng = random.Random(seed)
            state, _ = game.new(game.options(values), seed)
            while (seat := game.to_act(state)) is not None:
                legal = game.legal_actions(state, seat)
                shown = [dict(to_json(a)) for a in legal]
                for data in shown:
                    found.setdefault(json.dumps(data, sort_keys=True), data)
                if len(shown) > 1 and len(decisions) < 150:
                    decisions.append(shown)
                state, _ = game.apply(state, seat, _policy(rng, legal, seed % 2 == 0))
    for cls in game.info.action_types:
        if not dataclasses.fields(cls):
            found.setdefault(json.dumps({"type": cls.TYPE}), {"type": cls.TYPE})
    if game_name == "mus":
        for name in mus_actions.SIGNALS:
            found.setdefault(json.dumps({"signal": name, "type": "signal"}), {"type": "signal", "signal": name})
    types = {a["type"] for a in found.values()}
    missing = {cls.TYPE for cls in game.info.action_types} - types
    assert not missing, f"{game_name}: the playouts never offered {sorted(missing)}"
    return list(found.values()), decisions


#: The actions of every game (as JSON), and the page's names for them: lang -> game -> labels, decisions.
Named = tuple[Mapping[str, list[dict[str, Any]]], Mapping[str, Any]]


@pytest.fixture(scope="module")
def named(browser: Browser, live_server: LiveServer) -> Named:
    """The actions of every game and what the page calls them, in every language."""
    played = {name: _actions(name) for name in PLAYOUTS}
    actions = {name: found for name, (found, _) in played.items()}
    decisions = {name: shown for name, (_, shown) in played.items()}
    return actions, evaluate_on_lobby(browser, live_server, RENDER_ACTIONS, [actions, decisions])


def test_every_action_is_named_by_the_page_in_every_language(named: Named) -> None:
    """Each action gets the catalogue's name, every placeholder filled; an English name has no Spanish
    sentence word, a Spanish one no English word, and a Russian one no Latin letter but Mus's terms."""
    actions, out = named
    checked = 0
    for lang, games in out.items():
        for game, result in games.items():
            for action, label in zip(actions[game], result["labels"], strict=True):
                assert label is not None, f"{lang} {game}: no name for {action}"
                where = f"{lang} {game} {action}: {label!r}"
                assert not RAW.search(label), where
                words = TERMS.sub("", label)
                if lang == "en":
                    assert not SPANISH.search(words) and not SPANISH_BUTTON.search(words), where
                else:
                    assert not ENGLISH.search(words) and not ENGLISH_BUTTON.search(words), where
                if lang == "ru":
                    assert not re.search(r"[A-Za-z]", words), where
                checked += 1
    assert checked > 2500


def test_the_choices_of_a_decision_have_different_names(named: Named) -> None:
    """Within one decision no two actions share a name (a screen reader tells them apart by it)."""
    for lang, games in named[1].items():
        for game, result in games.items():
            assert result["decisions"], game
            for labels in result["decisions"]:
                assert len(set(labels)) == len(labels), f"{lang} {game}: {labels}"


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Mus", "No hay mus", "Paso", "Envido 2", "Raise 2 more", "Quiero", "No quiero", "Órdago",
            "Quiero y no pierdo", "Signal: envidar más", "Signal: cortar el mus"]),
    ("es", ["Mus", "No hay mus", "Paso", "Envido 2", "Subo 2 más", "Quiero", "No quiero", "Órdago",
            "Seña: envidar más", "Seña: treinta y una"]),
    ("ru", ["No hay mus (без обмена)", "Envido 2", "Повышаю на 2", "Quiero (принимаю)",
            "Знак: dos reyes (два короля)"]),
])
def test_the_mus_buttons_keep_the_terms_in_the_pages_sentences(named: Named,
                                                               lang: str, expected: list[str]) -> None:
    """Mus's calls stay as the rules say them ("Paso", "Quiero"); the sentence around them is the page's
    ("Raise 2 more", "Subo 2 más"); a seña has its name with its accents."""
    labels = set(named[1][lang]["mus"]["labels"])
    assert [label for label in expected if label not in labels] == []
    discards = [label for label in labels if label.startswith(("Discard: ", "Descartar: ", "Сбросить: "))]
    assert discards and all(" of " in d for d in discards) == (lang == "en"), discards[:3]


def _mus_refusals() -> list[str]:
    """The server's line for every kind of refused Mus move that seeded games meet: for the seat to act and
    the next seat, each kind of action (cards held and not, amounts too low and too high, every seña),
    and a move after the end (``manager`` sends ``str(IllegalAction)``)."""
    game = load_game("mus")
    a = mus_actions
    found: dict[str, str] = {}

    def note(state: Any, seat: int, action: Any) -> None:
        reason = game.why_illegal(state, seat, action)
        if reason is not None:
            found.setdefault(re.sub(r"\d+", "N", reason), str(IllegalAction(action, reason)))

    for values in ({}, {"signals.enabled": True}, {"signals.enabled": True, "scoring.target": 10}):
        for seed in range(4):
            rng = random.Random(seed)
            state, _ = game.new(game.options(values), seed)
            while (seat := game.to_act(state)) is not None:
                for s in (seat, (seat + 1) % 4):
                    held = state.hands[s]
                    other = next(c for c in range(40) if c not in held)
                    for action in (a.Mus(), a.CutMus(), a.Discard((other,)), a.Discard(()), a.Pass(), a.Bet(1),
                                   a.Raise(1), a.Raise(999), a.Accept(), a.AcceptNoLose(), a.Reject(), a.Ordago(),
                                   *(a.Signal(name) for name in a.SIGNALS)):
                        note(state, s, action)
                state, _ = game.apply(state, seat, _policy(rng, game.legal_actions(state, seat), seed % 2 == 0))
            note(state, 0, a.Pass())
    return list(found.values())


def _wizard_refusal() -> str:
    """A refused Wizard move whose reason the page's catalogue does not know (the engine's own English)."""
    game = load_game("wizard")
    state, _ = game.new(game.options({}), 3)
    seat = game.to_act(state)
    assert seat is not None
    action = WizardPlay(0)  # a card played while the bids are being made
    reason = game.why_illegal(state, seat, action)
    assert reason is not None and "turn" not in reason, reason
    return str(IllegalAction(action, reason))


def test_every_refused_mus_move_is_explained_in_the_pages_language(browser: Browser, live_server: LiveServer) -> None:
    """Every reason the Mus engine gives (FEM articles cited) is said in the page's language, seats and
    cards named; a reason the catalogue does not know (Wizard's) is shown on an English page only, and a
    Spanish or Russian page says just that the move is not allowed."""
    mus = _mus_refusals()
    assert len(mus) > 40  # the kinds of refusal the engine explains, señas included
    wizard = _wizard_refusal()
    out = evaluate_on_lobby(browser, live_server, RENDER_REFUSALS, [{"mus": mus, "wizard": [wizard]}, NAMES])
    heads = {"en": "That move is not allowed now: ", "es": "Esa jugada no vale ahora: ",
             "ru": "Так ходить сейчас нельзя: "}
    for lang, result in out.items():
        for detail, line in zip(mus, result["mus"], strict=True):
            where = f"{lang}: {detail!r} → {line!r}"
            assert line.startswith(heads[lang]) and len(line) > len(heads[lang]) + 5, where
            assert not RAW.search(line) and "illegal action" not in line and "seat " not in line, where
            if lang == "en":
                assert not SPANISH.search(TERMS.sub("", line)), where
            else:
                assert not ENGLISH.search(line), where
            if "turn" in detail:
                assert re.search(r"\b(Bob|Cid|Dee|Ann)\b", line), where
            if "do not hold" in detail:  # a card in the deck's notation ("2o"), said in words
                assert re.search(r" (of|de) (oros|copas|espadas|bastos)| (монет|кубков|мечей|дубинок)", line), where
        wizard_line = result["wizard"][0]
        if lang == "en":
            assert wizard_line == f"{heads['en']}{wizard.split(': ', 1)[1]}.", wizard_line
        else:
            assert wizard_line == result["plain"], wizard_line


def _forge_first_move(page: Page, action: dict[str, Any]) -> None:
    """Replace the page's first move on its table's socket by ``action`` (the rest goes through unchanged)."""
    forged = {"done": False}

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            if not forged["done"] and isinstance(message, str):
                data = json.loads(message)
                if data.get("type") == "action":
                    forged["done"] = True
                    message = json.dumps({**data, "action": action})
            server.send(message)

        ws.on_message(from_page)

    page.route_web_socket(re.compile(r"/ws/tables/"), route)


@pytest.mark.parametrize(("locale", "start", "head", "foreign"), [
    ("en-US", "Start game", "That move is not allowed now: ", SPANISH),
    ("es-ES", "Empezar la partida", "Esa jugada no vale ahora: ", ENGLISH),
])
def test_a_refused_move_at_a_mus_table_is_said_in_the_pages_language(browser: Browser, live_server: LiveServer,
                                                                     locale: str, start: str, head: str,
                                                                     foreign: re.Pattern[str]) -> None:
    """The server refuses a move the rules do not allow (the page's first move, replaced on its way by
    "quiero y no pierdo"): the notice says why in the page's language, and the table does not change."""
    ctx, page = new_page(browser, locale=locale)
    try:
        _forge_first_move(page, {"type": "accept_no_lose"})
        open_as_host(page, live_server, "mus", {"scoring.target": 10}, 4)
        page.get_by_role("button", name=start).click()
        wait_ready(page)
        table = page.locator("#table")
        version = table.get_attribute("data-version")
        take_turn(page)
        notice = page.locator("#notice")
        expect(notice).to_contain_text(head)
        text = notice.inner_text()
        assert not foreign.search(TERMS.sub("", text)) and "illegal action" not in text, text
        wait_ready(page)  # still this seat's move, nothing pending
        assert table.get_attribute("data-version") == version
        take_turn(page)  # the same choice again, not forged this time: the game goes on
        page.wait_for_function("v => document.getElementById('table').dataset.version !== v", arg=version)
        no_page_errors(page)
    finally:
        ctx.close()
