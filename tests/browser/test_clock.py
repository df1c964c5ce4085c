"""The table page's state machine (static/js/clock.js), run in the browser on plain objects: which step is on
screen, when controls are offered, one move per click, how long interludes stay, presence from now; and the
hand's sorting and Wizard's special cards named in the page's language (static/js/cards.js)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import LiveServer

pytestmark = pytest.mark.browser

# Builds a page state and views in the page, runs `body` (which returns a value) with `clock` imported.
HARNESS = """async (body) => {
  const clock = await import("/static/js/clock.js");
  const view = (version, extra = {}) => ({ version, seat: 1, to_act: 1, status: "playing", events: [],
    legal_actions: [{ action: { type: "play", card: 3 } }], seats: [{ connected: true }, { connected: true }],
    computer_playing_for: [], ...extra });
  const other = (version, extra = {}) => view(version, { to_act: 0, legal_actions: [], ...extra });
  const fresh = (shown, latest = shown) => ({ view: shown, latest, queue: [], interlude: null, afterSteps: null,
    pendingVersion: null });
  return (new Function("clock", "view", "other", "fresh", body))(clock, view, other, fresh);
}"""


def run(page: Page, server: LiveServer, body: str) -> Any:
    """``body`` run in the harness on the lobby page (no JavaScript error); its result."""
    if page.url == "about:blank":
        page.goto(server.url + "/")
    out = page.evaluate(HARNESS, body)
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    return out


def test_controls_are_offered_only_at_the_newest_step_that_is_the_seats_decision(page: Page,
                                                                                 live_server: LiveServer) -> None:
    out = run(page, live_server, """
      const live = fresh(view(5));
      const behind = fresh(view(5), other(6)); behind.queue.push(other(6));
      const others = fresh(other(5));
      const summary = fresh(view(5)); summary.interlude = { kind: "summary" };
      const trick = fresh(view(5)); trick.interlude = { kind: "trick" };
      const held = fresh(view(5)); held.afterSteps = view(6);
      const guarded = fresh(view(5)); guarded.guarded = true;
      return [live, behind, others, summary, trick, held, guarded]
        .map((p) => [clock.phase(p), clock.mayAct(p), clock.controls(p)]);
    """)
    assert out == [
        ["live", True, "enabled"],
        ["catching", False, "disabled"],
        ["live", False, "none"],
        ["summary", False, "none"],
        ["trick", False, "disabled"],  # a held trick is seen whole before the seat leads the next one
        ["catching", False, "disabled"],
        ["live", False, "disabled"],  # a moment after a move: a second tap never plays the next decision
    ]


def test_one_move_per_click_until_the_server_answers(page: Page, live_server: LiveServer) -> None:
    out = run(page, live_server, """
      const p = fresh(view(7));
      const steps = [];
      steps.push(clock.take(p, 7));          // the first click sends
      steps.push(clock.take(p, 7));          // a second click while it is on its way: nothing
      steps.push(clock.controls(p));
      steps.push(clock.receive(p, view(7))); // the same version again (someone came back): not an answer
      steps.push(clock.take(p, 7));
      steps.push(clock.receive(p, other(8)));// the answer
      p.queue.push(p.latest);                // not on screen yet
      steps.push(clock.take(p, 7));          // a click on the old step's control: nothing
      p.view = p.queue.shift();
      steps.push(clock.take(p, 8));          // not this seat's decision
      const q = fresh(view(9));
      clock.take(q, 9);
      clock.refused(q);                      // the server said no: the seat chooses again
      steps.push(clock.take(q, 8));          // a control drawn for an older step
      steps.push(clock.take(q, 9));
      return steps;
    """)
    assert out == [True, False, "disabled", False, False, True, False, False, False, True]


def test_interludes_wait_for_continue_or_go_on_by_themselves(page: Page, live_server: LiveServer) -> None:
    out = run(page, live_server, """
      const opts = (watcher) => ({ paceMs: 600, watcher });
      const p = fresh(view(3));
      const trick = { kind: "trick" };
      const summary = { kind: "summary" };
      const keeping = [clock.interludeWait(p, trick, opts(false)), clock.interludeWait(p, summary, opts(false)),
        clock.interludeWait(p, summary, opts(true))];
      p.queue.push(other(4, { events: [{ event: { type: "card_played" } }] }));
      const oneMove = [clock.behind(p), clock.interludeWait(p, trick, opts(true))];
      p.queue.push(other(5, { events: [{ event: { type: "trick_won" } }] }));
      const late = [clock.behind(p), clock.interludeWait(p, trick, opts(false)),
        clock.interludeWait(p, summary, opts(true)), clock.interludeWait(p, summary, opts(false))];
      return { keeping, oneMove, late, slow: clock.watchSummaryMs(5000), quick: clock.watchSummaryMs(50) };
    """)
    assert out["keeping"] == [600, 30000, 3000]
    assert out["oneMove"] == [0, 600]
    # A trick or round already waiting: the held trick and a watcher's summary go by in a move gap; a
    # player's summary still waits for their Continue.
    assert out["late"] == [1, 200, 200, 30000]
    assert (out["slow"], out["quick"]) == (8000, 3000)


def test_a_view_that_restates_the_step_takes_its_place_and_the_controls_stay_offered(page: Page,
                                                                                       live_server: LiveServer) -> None:
    """Presence or a setting changed (same version, no events): the newest step held (on screen, under a held
    trick, behind a summary, or last in the queue) is replaced and nothing waits, so the seat's controls stay
    offered; a view with events or a newer version is a step of its own and waits its turn."""
    out = run(page, live_server, """
      const live = fresh(view(5));
      const now = view(5, { seats: [{ connected: false }, { connected: true }] });
      clock.receive(live, now);
      const onScreen = [clock.restate(live, now), live.view === now, live.queue.length, clock.controls(live)];
      const trick = fresh(view(5)); trick.interlude = { kind: "trick" };
      const later = view(5);
      clock.receive(trick, later);
      const onTrick = [clock.restate(trick, later), trick.view === later, trick.queue.length];
      const summary = fresh(view(5)); summary.interlude = { kind: "summary" }; summary.afterSteps = view(6);
      const next = view(6);
      const behindSummary = [clock.restate(summary, next), summary.afterSteps === next, summary.view.version];
      const queued = fresh(other(4)); queued.queue.push(other(5), view(6));
      const again = view(6);
      const inQueue = [clock.restate(queued, again), queued.queue.length, queued.queue[1] === again,
        queued.view.version];
      const p = fresh(view(5));
      const refused = [clock.restate(p, view(5, { events: [{ event: { type: "card_played" } }] })),
        clock.restate(p, other(6)), clock.restate(p, view(5, { seat: 0 })), p.queue.length];
      return { onScreen, onTrick, behindSummary, inQueue, refused };
    """)
    assert out["onScreen"] == [True, True, 0, "enabled"]
    assert out["onTrick"] == [True, True, 0]
    assert out["behindSummary"] == [True, True, 5]
    assert out["inQueue"] == [True, 2, True, 4]
    assert out["refused"] == [False, False, False, 0]


def test_presence_comes_from_now_and_the_game_from_the_step_on_screen(page: Page, live_server: LiveServer) -> None:
    out = run(page, live_server, """
      const shown = view(4, { computer_playing_for: [0], seats: [{ connected: false }, { connected: true }] });
      const now = other(9, { computer_playing_for: [], seats: [{ connected: true }, { connected: true }] });
      const p = fresh(shown, now);
      const drawn = clock.onScreen(p);
      const watcher = fresh(view(4, { seat: null }), other(9, { computer_playing_for: [] }));
      return [drawn.version, drawn.to_act, drawn.legal_actions.length, drawn.computer_playing_for,
        drawn.seats[0].connected, clock.onScreen(watcher).version];
    """)
    assert out == [4, 1, 1, [], True, 4]


SORT = """async ([order]) => {
  const { Catalogue, sortHand } = await import("/static/js/cards.js");
  const words = await import("/static/js/words.js");
  const games = await (await fetch("/api/games")).json();
  const wizard = games.find((g) => g.name === "wizard");
  const catalogue = new Catalogue(words.translateCards(wizard.cards));
  const byText = new Map(wizard.cards.map((c) => [c.text, c.id]));
  const hand = ["B3", "R12", "W1", "R2", "N1", "G3", "B1"].map((x) => byText.get(x));
  return sortHand(hand, catalogue, order).map((id) => catalogue.get(id).text);
}"""


def test_a_hand_sorts_by_suit_or_by_rank_with_wizards_and_jesters_last(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/")
    games = page.evaluate("async () => (await fetch('/api/games')).json()")
    texts = [c["text"] for c in next(g for g in games if g["name"] == "wizard")["cards"]]
    assert {"B3", "R12", "W1", "R2", "N1", "G3", "B1"} <= set(texts), texts[:5]
    assert page.evaluate(SORT, ["dealt"]) == ["B3", "R12", "W1", "R2", "N1", "G3", "B1"]
    by_suit = page.evaluate(SORT, ["suit"])
    by_rank = page.evaluate(SORT, ["rank"])
    suits = [t for t in texts if t[0] in "RYGB"]
    suit_order = list(dict.fromkeys(t[0] for t in suits))
    assert by_suit[:5] == ["R2", "R12", "G3", "B1", "B3"]
    assert by_rank[:5] == ["B1", "R2", "G3", "B3", "R12"]
    assert by_suit[:5] == sorted(by_suit[:5], key=lambda t: (suit_order.index(t[0]), int(t[1:])))
    assert by_rank[:5] == sorted(by_rank[:5], key=lambda t: (int(t[1:]), suit_order.index(t[0])))
    # Wizards, then jesters, as the deck lists them, after every suited card.
    assert by_suit[5:] == by_rank[5:] == ["W1", "N1"]
    assert page.errors == []  # type: ignore[attr-defined]


FACES = """async ([lang]) => {
  const i18n = await import("/static/js/i18n.js");
  const words = await import("/static/js/words.js");
  const { Catalogue, cardFace } = await import("/static/js/cards.js");
  await i18n.load(lang);
  const games = await (await fetch("/api/games")).json();
  const wizard = games.find((g) => g.name === "wizard");
  const catalogue = new Catalogue(words.translateCards(wizard.cards));
  return wizard.cards.filter((c) => !c.suit)
    .map((c) => cardFace(catalogue, c.id).querySelector(".special-name").textContent);
}"""


@pytest.mark.parametrize(("lang", "names"), [("en", {"wizard", "jester"}), ("es", {"mago", "bufón"}),
                                             ("ru", {"маг", "шут"})])
def test_wizards_and_jesters_are_named_on_the_card_in_the_pages_language(page: Page, live_server: LiveServer,
                                                                         lang: str, names: set[str]) -> None:
    page.goto(live_server.url + "/")
    printed = page.evaluate(FACES, [lang])
    assert len(printed) == 8 and set(printed) == names, printed
