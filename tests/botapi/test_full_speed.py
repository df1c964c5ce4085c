"""A table whose seats are all programs plays at full speed while no person watches, at the human pace
(``--bot-delay``) while one does: live tournaments are not slowed to a person's pace for nobody."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from cardtable.server import create_app
from cardtable.server.botapi import BotApiSettings
from tests.botapi.helpers import account
from tests.server.conftest import receive

#: A pace no game of dozens of moves could finish at within the polling bound below.
SLOW = 30.0


def test_a_live_tournament_nobody_watches_plays_at_full_speed(db_url: str) -> None:
    admin = account(db_url, "boss", role="admin")
    body = {"game": "crazy_eights", "entries": ["a=random", "b=heuristic"], "options": {"rounds": 1}, "games": 2,
            "seed": 3, "concurrency": 2}
    with TestClient(create_app(db_url, bot_delay=SLOW, bots=BotApiSettings())) as client:
        made = client.post("/api/tournaments/live", json=body, headers={"Authorization": f"Bearer {admin}"})
        assert made.status_code == 201, made.text
        # Room for a busy machine (at full speed: a second or two), yet short of the 30 s pace: a game of over
        # ten moves (asserted below) at that pace takes over five minutes, and two are played side by side.
        deadline = time.monotonic() + 240
        while (state := client.get(f"/api/tournaments/{made.json()['tournament']}").json())["status"] != "finished":
            assert time.monotonic() < deadline, f"{state['stored_games']} of 2 games stored"
            time.sleep(0.1)
        moves = sum(len(client.get(f"/api/tournaments/{state['id']}/games/{i}/record").json()["actions"])
                    for i in range(2))
    assert moves > 2 * 10


def test_a_person_at_or_watching_the_table_brings_back_the_human_pace(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=SLOW)) as client:
        app: Any = client.app
        manager = app.state.manager
        bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
        programs = client.post("/api/tables", json={"game": "crazy_eights", "seats": bots}).json()["table_id"]
        people = client.post("/api/tables", json={"game": "crazy_eights", "options": {"players": 2}}).json()["table_id"]
        programs_table, people_table = manager.registry.tables[programs], manager.registry.tables[people]
        assert manager.driver.pace(programs_table) == 0.0
        assert manager.driver.pace(people_table) == SLOW  # a person's seat: their pace, watched or not
        with client.websocket_connect(f"/ws/tables/{programs}") as spectator:
            receive(spectator)
            assert manager.driver.pace(programs_table) == SLOW
        deadline = time.monotonic() + 120  # a hang guard
        while programs_table.connections:  # the server hears the socket close
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert manager.driver.pace(programs_table) == 0.0
