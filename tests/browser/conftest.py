"""Fixtures for the browser tests: the real app on a free port (temp SQLite) and Debian's Chromium via Playwright."""

from __future__ import annotations

import os
import socket
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect, sync_playwright

from cardtable.server import create_app
from cardtable.server.botapi import BotApiSettings

CHROMIUM = os.environ.get("CARDTABLE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
]
# Screenshots are taken on every run (so taking them is tested) but written into docs/ only
# when CARDTABLE_SCREENSHOTS=docs, so that an ordinary `make test` leaves the work tree clean.
SCREENSHOTS = (
    Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    if os.environ.get("CARDTABLE_SCREENSHOTS") == "docs"
    else Path(tempfile.gettempdir()) / "cardtable-screenshots"
)

# Playwright's assertions wait 5 s by default, which a busy machine can miss (a bot's move, then the page's
# render); they pass as soon as the page is right, so a longer wait costs nothing when it is.
expect.set_options(timeout=30_000)


def _free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """uvicorn serving the real app in a background thread."""

    def __init__(self, database: Path, port: int, *, takeover_after: float = 30.0,
                 games: Mapping[str, Any] | None = None, bots: BotApiSettings | None = None) -> None:
        self.database_url = f"sqlite:///{database}"
        app = create_app(self.database_url, bot_delay=0.02, takeover_after=takeover_after, games=games, bots=bots)
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.url = f"http://127.0.0.1:{port}"
        self.thread = threading.Thread(target=self.server.run, name="cardtable-live-server", daemon=True)

    def start(self) -> None:
        """Start serving and wait until the socket accepts requests."""
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the cardtable server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        """Ask uvicorn to exit and wait for the thread."""
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The real app on a free port with a fresh SQLite file; computer players act after 20 ms."""
    server = LiveServer(tmp_path_factory.mktemp("db") / "cardtable.db", _free_port())
    server.start()
    yield server
    server.stop()


@pytest.fixture()
def quick_takeover_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A second app whose computer takes over a disconnected person's seat after half a second."""
    server = LiveServer(tmp_path / "takeover.db", _free_port(), takeover_after=0.5)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def playwright_instance() -> Iterator[Playwright]:
    """One Playwright driver for the session."""
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright_instance: Playwright) -> Iterator[Browser]:
    """Headless Debian Chromium; a clear failure (never a skip) if it is not installed."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is missing at {CHROMIUM}: `apt-get install -y chromium` (make test installs it)")
    browser = playwright_instance.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture()
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh browser profile (its own localStorage) at desktop size."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    ctx.set_default_timeout(15_000)
    yield ctx
    ctx.close()


@pytest.fixture()
def page(context: BrowserContext) -> Page:
    """A page in a fresh profile that fails the test on any JavaScript error."""
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    p.errors = errors  # type: ignore[attr-defined]
    return p
