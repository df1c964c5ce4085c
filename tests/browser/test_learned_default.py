"""The lobby's Mus seats default to the learned pair on the rules its net was trained for, to reader elsewhere."""

from __future__ import annotations

import json
import urllib.request

from playwright.sync_api import Page, expect

from tests.browser.conftest import LiveServer
from tests.browser.ui import create_table


def _bots(base_url: str, table_id: str) -> list[str | None]:
    with urllib.request.urlopen(f"{base_url}/api/tables/{table_id}") as response:
        seats = json.load(response)["seats"]
    return [s["bot"] for s in seats if s["kind"] == "bot"]


def test_the_default_seat_is_the_learned_pair_on_the_trained_rules_and_reader_on_others(
        page: Page, live_server: LiveServer) -> None:
    base = live_server.url
    page.goto(base + "/")
    page.get_by_label("Game", exact=True).select_option(label="Mus")
    seat = page.get_by_label("Seat 2", exact=True)
    expect(seat.locator("option:checked")).to_have_text(
        "Computer: learned where its net was trained for these rules, else reader (default)")
    trained = create_table(page, base, game="Mus", name="Ana", seed=None)
    assert _bots(base, trained) == ["learned"] * 3
    shorter = create_table(page, base, game="Mus", name="Ana", seed=None, options={"Target": "10"})
    assert _bots(base, shorter) == ["reader"] * 3
