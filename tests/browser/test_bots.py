"""The Bot API on the pages, end to end: a real server, the real bridge (``cardtable bot-connect``) running the
example bots in Python and JavaScript, and a person in a Playwright page who creates the table, seats both bots
with "Seat a bot" and plays each of the five games to its result screen by clicking. Also: what the Seat a bot
panel says when it cannot seat anyone, the lobby's Make a bot (the token shown once) and its refusals, and a bot
seat that goes away, loses decisions and is forfeited, as the table shows it in English, Spanish and Russian."""

from __future__ import annotations

import json
import re
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from cardtable.server.botapi import BotApiSettings
from cardtable.store import BotAccounts, Store
from tests.botapi.helpers import bridge, token_file
from tests.browser.conftest import SCREENSHOTS, LiveServer, _free_port
from tests.browser.test_play import check_no_errors, check_result
from tests.browser.ui import create_table, is_finished, play_to_end, screenshot, start_game, take_turn, wait_ready

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PYTHON_BOT = f"{sys.executable} {ROOT / 'examples/bots/random_bot.py'}"
NODE_BOT = f"node {ROOT / 'examples/bots/random_bot.js'}"
PERSON = "A person (invite a friend)"
#: The chat notes a bot's seat gets when it loses a decision (the runner's kinds, as the server announces them).
LOST_NOTES = ("bot_timeout", "bot_malformed", "bot_illegal", "bot_crashed", "bot_protocol", "bot_exception",
              "bot_forfeited")


def api(server: LiveServer, path: str, body: Any = None) -> Any:
    """One request to the live server's JSON API."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.url + path, data=data, method="GET" if body is None else "POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def wait_for(what: Callable[[], Any], timeout: float = 30.0) -> Any:
    """``what()`` once it is true; fails after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = what()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"gave up waiting for {getattr(what, '__name__', what)}")


def connected(server: LiveServer, *names: str) -> bool:
    """Whether the server lists every one of ``names`` among its connected bots."""
    listed = {b["name"] for b in api(server, "/api/bots")["bots"]}
    return set(names) <= listed


@dataclass
class BotServer:
    """A server with the Bot API open (``--open-bots``) and two bridges connected: ``py`` and ``js``."""

    server: LiveServer
    folder: Path


@pytest.fixture(scope="module")
def bot_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BotServer]:
    """One server and the two bridges (the example bots in Python and in JavaScript) for the module's games."""
    folder = tmp_path_factory.mktemp("bots")
    server = LiveServer(folder / "bots.db", _free_port(), bots=BotApiSettings(open_bots=True))
    server.start()
    py, js = token_file(server.database_url, folder, "py"), token_file(server.database_url, folder, "js")
    try:
        with bridge(server.url, py, PYTHON_BOT, folder / "py.log"), bridge(server.url, js, NODE_BOT, folder / "js.log"):
            wait_for(lambda: connected(server, "py", "js"))
            yield BotServer(server, folder)
    finally:
        server.stop()


def bridge_logs(folder: Path) -> str:
    """What the bridges printed (for a failure's message)."""
    return "\n".join(f"--- {p.name} ---\n{p.read_text(errors='replace')[-2000:]}" for p in sorted(folder.glob("*.log")))


# Seating a bot the way a host does: the Seat a bot panel on the table page.

def open_seat_a_bot(page: Page) -> None:
    """Open the host's Seat a bot panel (it lists the connected bots as it opens)."""
    if not page.locator("#seat-bot-panel").is_visible():
        page.get_by_role("button", name="Seat a bot").click()
    expect(page.locator("#seat-bot-panel")).to_be_visible()


def seat_a_bot(page: Page, bot: str, seat: int) -> None:
    """Choose ``bot`` and the computer seat ``seat`` (from 0) in the panel, invite it, and wait for it to sit."""
    open_seat_a_bot(page)
    panel = page.locator("#seat-bot-panel")
    panel.get_by_role("radio", name=bot, exact=True).check()
    panel.get_by_label("Computer seat").select_option(value=str(seat))
    panel.get_by_role("button", name="Invite the bot").click()
    expect(panel.get_by_role("status")).to_have_text(
        f"Invitation sent to {bot} for seat {seat + 1}; it plays from its next turn once it accepts.")
    # The bridge accepts at once: the seat is the bot's, named as the bot, marked as a bot.
    expect(page.locator(f'#waiting li[data-seat="{seat}"]')).to_have_text(f"Seat {seat + 1} {bot} · bot")
    # The table's chat says so (shown with the board once the game starts).
    expect(page.locator("#chat-lines li[data-note=bot_seated]", has_text=f"{bot} now plays seat {seat + 1}.")) \
        .to_have_count(1)


@dataclass(frozen=True)
class Setup:
    """One game at a table with a person (seat 1), the two bots and computer players elsewhere."""

    title: str
    players: int | None  # None: the form's default (four for Mus and Kaiser)
    options: dict[str, object]
    bots: tuple[int, int]  # the seats (from 0) of py and js
    computer: str | None = None


SETUPS = {
    # The smallest games the lobby offers (create_table deals with seed 7).
    "wizard": Setup("Wizard", 3, {"Rounds": "5"}, (1, 2)),
    "crazy_eights": Setup("Crazy Eights", 3, {"Rounds": "1"}, (1, 2)),
    "durak": Setup("Durak", 3, {}, (1, 2)),
    # A game of Mus to 10 may end in its first hand on an órdago, so each bot sits where it must speak then: the
    # first hand's mano (seat 3 with seed 7) and the seat after it, one bot in each pair (the person's partner
    # and an opponent): whatever the mano says, the next seat answers or speaks.
    "mus": Setup("Mus", None, {"Target": "10"}, (2, 3)),
    # Kaiser: the two bots are partners, against the person and a computer; everyone bids in every hand. Its
    # default computer player (search) is slow: the person's partner is the heuristic.
    "kaiser": Setup("Kaiser", None, {"Target": "32"}, (1, 3), "heuristic"),
}


@pytest.mark.parametrize("name", list(SETUPS))
def test_a_person_plays_a_whole_game_with_two_bots_over_the_bridge(page: Page, bot_server: BotServer,
                                                                    name: str) -> None:
    """The host seats the Python and the JavaScript bot with Seat a bot, starts, and plays to the result; both
    bots moved (the record), none lost a decision (the record's notes, the seats, the chat), no page error."""
    setup, server = SETUPS[name], bot_server.server
    table_id = create_table(page, server.url, game=setup.title, name="Rick", players=setup.players,
                            options=setup.options, computer=setup.computer)
    seat_a_bot(page, "py", setup.bots[0])
    if name == "wizard":
        screenshot(page, SCREENSHOTS / "seat-a-bot.png")
    seat_a_bot(page, "js", setup.bots[1])
    page.get_by_role("button", name="Close").first.click()
    expect(page.locator("#seat-bot-panel")).to_be_hidden()
    start_game(page)
    for bot, seat in zip(("py", "js"), setup.bots, strict=True):
        plate = page.locator(f'.seat[data-seat="{seat}"]')
        expect(plate.locator(".seat-name")).to_have_text(f"{bot} bot")
        expect(plate).to_have_attribute("aria-label", re.compile(rf"^{bot} · bot(, to play)?$"))
        expect(page.locator("#chat-lines li[data-note=bot_seated]", has_text=f"{bot} now plays seat {seat + 1}.")) \
            .to_be_visible()

    def midgame(n: int) -> None:
        if n == 3 and name == "crazy_eights":
            screenshot(page, SCREENSHOTS / "table-bots.png")

    try:
        clicks = play_to_end(page, on_click=midgame)
    except AssertionError as failure:
        raise AssertionError(f"{failure}\n{bridge_logs(bot_server.folder)}") from failure
    assert clicks, "the person never played"
    check_result(page, server, table_id)
    record = api(server, f"/api/tables/{table_id}/record")
    movers = {entry["seat"] for entry in record["actions"]}
    summary = api(server, f"/api/tables/{table_id}")
    notes = [line["note"] for line in api(server, f"/api/tables/{table_id}/social")["chat"] if line["kind"] == "note"]
    for bot, seat in zip(("py", "js"), setup.bots, strict=True):
        assert seat in movers, f"{bot} never moved"
        note = f"seat {seat}: {bot} (a program over the Bot API; lost decisions: none)"
        assert note in record["notes"], record["notes"]
        held = summary["seats"][seat]
        assert (held["kind"], held["name"], held["away"], held["forfeited"], held["failures"]) == \
            ("remote", bot, False, False, {}), held
    assert notes.count("bot_seated") == 2 and not set(notes) & set(LOST_NOTES), notes
    check_no_errors(page)


# What the Seat a bot panel says when it cannot seat anyone; who sees it.

def test_seat_a_bot_says_why_when_no_bot_is_connected(page: Page, live_server: LiveServer) -> None:
    """On a server where no bot is connected the host reads so, and how a bot connects; nothing to invite."""
    create_table(page, live_server.url, game="Crazy Eights", name="Rick", players=3)
    open_seat_a_bot(page)
    panel = page.locator("#seat-bot-panel")
    expect(panel).to_contain_text("No bot is connected to this server now, so there is none to seat.")
    expect(panel.locator("code")).to_have_text(
        f'cardtable bot-connect {live_server.url} --token-file FILE "python3 my_bot.py"')
    expect(panel.get_by_role("button", name="Invite the bot")).to_have_count(0)
    panel.get_by_role("button", name="Close").click()
    expect(panel).to_be_hidden()
    check_no_errors(page)


def test_seat_a_bot_says_why_when_no_seat_is_the_computers(page: Page, bot_server: BotServer,
                                                            browser: Browser) -> None:
    """A table of people only: the host sees the connected bots but no seat to give them; a guest sees no panel."""
    table_id = create_table(page, bot_server.server.url, game="Crazy Eights", name="Rick", players=2, seats=[PERSON])
    open_seat_a_bot(page)
    panel = page.locator("#seat-bot-panel")
    expect(panel).to_contain_text(
        "There is no computer seat at this table: a bot can only take a seat the computer plays.")
    expect(panel.get_by_role("radio", name="py", exact=True)).to_be_visible()
    expect(panel.get_by_role("radio", name="js", exact=True)).to_be_visible()
    expect(panel.get_by_role("group", name="2 bots connected")).to_be_visible()
    expect(panel.get_by_role("button", name="Invite the bot")).to_have_count(0)
    guest_context = browser.new_context()
    try:
        guest = guest_context.new_page()
        guest.goto(f"{bot_server.server.url}/table/{table_id}")
        expect(guest.get_by_role("heading", name="Seats")).to_be_visible()
        expect(guest.get_by_role("button", name="Seat a bot")).to_be_hidden()
    finally:
        guest_context.close()
    check_no_errors(page)


def test_the_host_removes_a_bot_from_its_seat(page: Page, bot_server: BotServer) -> None:
    """A bot's seat is its own; the host frees it with Remove the bot: the computer has it again, the table is
    told."""
    create_table(page, bot_server.server.url, game="Crazy Eights", name="Rick", players=3)
    seat_a_bot(page, "py", 1)
    panel = page.locator("#seat-bot-panel")
    expect(panel.get_by_role("group", name="Seats held by bots")).to_contain_text("py")
    panel.get_by_role("button", name="Remove the bot").click()
    expect(panel.get_by_role("status")).to_have_text("py no longer holds seat 2; the computer plays it.")
    expect(page.locator('#waiting li[data-seat="1"]')).not_to_contain_text("py")
    expect(panel.get_by_role("button", name="Remove the bot")).to_have_count(0)
    expect(page.locator("#chat-lines li[data-note=bot_removed]")).to_have_count(1)
    check_no_errors(page)


# The lobby: Make a bot with --open-bots (the token shown once), the admin's line without.

def test_the_lobby_makes_a_bot_and_shows_its_token_once(page: Page, bot_server: BotServer) -> None:
    """A name, then the token with the warning and the command; the token works; refusals in the page's language."""
    server = bot_server.server
    page.goto(server.url + "/")
    bots = page.locator("#bots")
    expect(bots.locator("#bots-connected")).to_have_text(re.compile(r"^Bots connected now: (js, py|py, js)$"))
    bots.get_by_label("Bot name").fill("Robo 1")
    bots.get_by_role("button", name="Make a bot").click()
    expect(bots.get_by_role("heading", name="Robo 1 is made")).to_be_visible()
    expect(bots.get_by_role("alert")).to_contain_text("Save this token now: it is shown only this once.")
    token = bots.get_by_label("Token of Robo 1").input_value()
    made = BotAccounts(Store(server.database_url).engine).authenticate(token)
    assert made is not None and made.name == "Robo 1" and made.origin == "lobby"
    expect(bots.locator("#bot-command")).to_have_text(
        f'cardtable bot-connect {server.url} --token-file Robo_1.token "python3 my_bot.py"')
    shot = SCREENSHOTS / "make-a-bot.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    bots.screenshot(path=str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bots.get_by_role("button", name="I have saved it").click()
    expect(bots.get_by_label("Token of Robo 1")).to_have_count(0)
    assert token not in page.content()
    # The same name again: the server's refusal, in English here and in Spanish and Russian below.
    bots.get_by_label("Bot name").fill("Robo 1")
    bots.get_by_role("button", name="Make a bot").click()
    expect(page.locator("#notice")).to_have_text(
        "No bot made: There is already a bot named “Robo 1”: choose another name.")
    for lang, refused, bad in (
            ("es", "No se creó el bot: Ya hay un bot llamado «Robo 1»: elige otro nombre.",
             "El nombre de un bot tiene de 1 a 32 letras, cifras, espacios, «_», «-» o «.», no «a/b»."),
            ("ru", "Бот не создан: Бот с именем «Robo 1» уже есть: выберите другое имя.",
             "Имя бота — от 1 до 32 букв, цифр, пробелов, «_», «-» или «.», а не «a/b».")):
        page.evaluate("lang => localStorage.setItem('cardtable.lang', lang)", lang)
        page.reload()
        name = page.locator("#bot-name")
        name.fill("a/b")  # refused by the page before it is sent
        page.locator("#make-bot").click()
        expect(page.locator("#notice")).to_have_text(bad)
        name.fill("Robo 1")
        page.locator("#make-bot").click()
        expect(page.locator("#notice")).to_have_text(refused)
    assert sorted(a.name for a in BotAccounts(Store(server.database_url).engine).all()) == ["Robo 1", "js", "py"]
    check_no_errors(page)


def test_without_open_bots_the_lobby_says_the_admin_makes_bot_accounts(page: Page, live_server: LiveServer) -> None:
    """No form: a line saying the server's admin makes bot accounts, with the commands."""
    page.goto(live_server.url + "/")
    bots = page.locator("#bots")
    expect(bots).to_contain_text("On this server the admin makes bot accounts, on the server's machine:")
    expect(bots.locator("code").first).to_have_text("cardtable bots add NAME --token-file NAME.token")
    expect(bots.locator("#bots-connected")).to_have_text("No bot is connected now.")
    expect(bots.get_by_role("button", name="Make a bot")).to_have_count(0)
    check_no_errors(page)


# A bot seat in trouble: away, its lost decisions and the forfeit, as the table shows them in three languages.

SLEEPER = """import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "sleeper", "protocol": 1}), flush=True)
"""


def play_until(page: Page, done: Callable[[], bool], max_clicks: int = 400) -> None:
    """The person plays (the simple clicking policy) until ``done()``; fails if the game ends first."""
    for _ in range(max_clicks):
        if done():
            return
        assert not is_finished(page), "the game ended first"
        try:
            wait_ready(page, timeout=2_000)
        except Exception:  # not this page's turn yet: look again
            continue
        take_turn(page)
    raise AssertionError("gave up playing")


FORFEITED_EN = "forfeited — the computer plays it to the end · 2 lost decisions"
#: The tag of the turns the computer played while the bot was away (how many depends on when it came back).
AWAY_EN = r"turns? played while away"


def _tags(fixed: str, away: str) -> re.Pattern[str]:
    """The seat's tags: ``fixed``, then the away turns' tag if the computer played any."""
    return re.compile(rf"^{re.escape(fixed)}( · \d+ {away})?$")


def test_a_bot_away_then_losing_decisions_then_forfeited_as_the_table_shows_it(page: Page, tmp_path: Path) -> None:
    """The bot's program is not connected when the game starts: away, the computer plays for it. It comes back
    and answers nothing: each lost decision is told, counted on its seat, and past the limit it is forfeited."""
    server = LiveServer(tmp_path / "slow.db", _free_port(), takeover_after=0,
                        bots=BotApiSettings(decision=2.0, max_failures=1))
    server.start()
    program = tmp_path / "sleeper.py"
    program.write_text(SLEEPER)
    token = token_file(server.database_url, tmp_path, "slow")
    command, log = f"{sys.executable} {program}", tmp_path / "slow.log"
    try:
        create_table(page, server.url, game="Crazy Eights", name="Rick", players=2, options={"Rounds": "3"})
        with bridge(server.url, token, command, log, "--decision", "0.3"):
            wait_for(lambda: connected(server, "slow"))
            seat_a_bot(page, "slow", 1)
        waiting = page.locator('#waiting li[data-seat="1"]')
        expect(waiting).to_have_text("Seat 2 slow · bot · not connected")
        start_game(page)
        plate = page.locator('.seat[data-seat="1"]')
        expect(plate.locator(".tags")).to_have_text("away — the computer plays for it")
        expect(page.locator("#takeover")).to_have_text("slow is away: the computer plays for it until it is back.")
        page.get_by_role("button", name="Close").first.click()
        chat = page.locator("#chat-lines")
        with bridge(server.url, token, command, log, "--decision", "0.3"):
            # Back: the computer no longer covers for it; then each decision it lets pass is lost.
            expect(page.locator("#takeover")).to_be_hidden()
            play_until(page, lambda: "forfeited" in " ".join(plate.locator(".tags").all_text_contents()))
            expect(plate.locator(".tags")).to_have_text(_tags(FORFEITED_EN, AWAY_EN))
            expect(chat.locator("li[data-note=bot_timeout]")).to_have_count(2)
            expect(chat.locator("li[data-note=bot_timeout]").first).to_have_text(
                "slow timed out; the computer played for it.")
            expect(chat.locator("li[data-note=bot_forfeited]")).to_have_text(
                "slow forfeited: the computer plays its seat to the end of the game.")
            screenshot(page, SCREENSHOTS / "table-bot-forfeited.png")
        # Gone again once forfeited: the computer plays the seat anyway, so no "until it is back" line.
        expect(plate.locator(".tags")).to_have_text(_tags(FORFEITED_EN, AWAY_EN))
        expect(page.locator("#takeover")).to_be_hidden()
        for lang, tags, away, timed_out, forfeited, seated in (
                ("es", "retirado — el ordenador lo juega hasta el final · 2 decisiones perdidas",
                 r"turnos? jugados? en su ausencia",
                 "slow no respondió a tiempo; el ordenador jugó por él.",
                 "slow queda retirado: el ordenador juega su asiento hasta el final de la partida.",
                 "slow juega ahora el asiento 2."),
                ("ru", "выбыл — компьютер доиграет за него · 2 хода потеряно",
                 r"ход\w* сыгран\w* за него в отсутствие",
                 "Бот slow не ответил вовремя; за него сходил компьютер.",
                 "Бот slow выбыл: компьютер доиграет за него до конца партии.",
                 "Бот slow теперь играет на месте 2.")):
            page.evaluate("lang => localStorage.setItem('cardtable.lang', lang)", lang)
            page.reload()
            expect(plate.locator(".tags")).to_have_text(_tags(tags, away))
            expect(plate.locator(".bot-badge")).to_have_text({"es": "bot", "ru": "бот"}[lang])
            expect(chat.locator("li[data-note=bot_timeout]").first).to_have_text(timed_out)
            expect(chat.locator("li[data-note=bot_forfeited]")).to_have_text(forfeited)
            expect(chat.locator("li[data-note=bot_seated]")).to_have_text(seated)
        summary = api(server, f"/api/tables/{page.url.rsplit('/', 1)[1]}")
        failures = summary["seats"][1]["failures"]
        assert {k: n for k, n in failures.items() if k != "away"} == {"timeout": 2}  # away turns: counted apart
        assert summary["seats"][1]["forfeited"] is True
        check_no_errors(page)
    except BaseException as failure:
        raise AssertionError(f"{failure!r}\n{log.read_text(errors='replace')[-3000:] if log.exists() else ''}") \
            from failure
    finally:
        server.stop()
