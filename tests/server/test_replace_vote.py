"""Votes to let the computer play for an absent person for good (issue 33, item 4) are short-lived: they hold
while that person stays away in this server process, and a restart forgets them (docs/playing.md says why).
After a restart the people present vote again, and the count starts from their new votes only."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from fastapi.testclient import TestClient

from cardtable.server import create_app
from tests.server.conftest import human_table, start
from tests.server.test_takeover import _until


def _covered(seat: int) -> Any:
    """Whether a message is a view in which the computer plays for ``seat``."""
    return lambda m: m["type"] == "view" and seat in m.get("computer_playing_for", [])


def _vote(client: TestClient, table_id: str, token: str, seat: int) -> dict[str, Any]:
    response = client.post(f"/api/tables/{table_id}/replace_vote", json={"token": token, "seat": seat})
    assert response.status_code == 200, response.text
    return dict(response.json())


def _present_while_seat_3_is_away(client: TestClient, stack: ExitStack, table_id: str, tokens: list[str]) -> None:
    """Seats 0 to 2 connect; returns once the computer plays for seat 3 (never connected)."""
    sockets = [stack.enter_context(client.websocket_connect(f"/ws/tables/{table_id}?token={t}")) for t in tokens[:3]]
    _until(sockets[0], _covered(3))


def test_a_restart_forgets_the_votes_and_the_people_present_vote_again(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0, takeover_after=0.2)) as client, ExitStack() as stack:
        table_id, tokens = human_table(client, "wizard", 4)
        start(client, table_id, tokens[0])
        _present_while_seat_3_is_away(client, stack, table_id, tokens)
        assert _vote(client, table_id, tokens[0], 3) == {
            "table_id": table_id, "seat": 3, "votes": 1, "needed": 2, "replaced": False}
    with TestClient(create_app(db_url, bot_delay=0, takeover_after=0.2)) as client, ExitStack() as stack:
        _present_while_seat_3_is_away(client, stack, table_id, tokens)
        # Seat 0's vote from before the restart is gone: seat 1's is the only one, short of a majority.
        assert _vote(client, table_id, tokens[1], 3)["votes"] == 1
        seats = client.get(f"/api/tables/{table_id}").json()["seats"]
        assert seats[3]["kind"] == "human"
        assert _vote(client, table_id, tokens[0], 3) == {
            "table_id": table_id, "seat": 3, "votes": 2, "needed": 2, "replaced": True}
        assert client.get(f"/api/tables/{table_id}").json()["seats"][3]["kind"] == "bot"
