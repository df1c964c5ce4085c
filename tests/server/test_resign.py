"""Resigning (issue 33, item 4): in a game of two sides the resigning side loses at once, the outcome is
stored (a restarted server shows it) and nobody is to act; the replay ends on that result and the record's
notes name the resignation; in a game of more sides resigning is leaving (the computer plays the seat to the
end); every refusal is a 4xx that changes nothing."""

from __future__ import annotations

from fastapi.testclient import TestClient

from cardtable.server import create_app
from tests.server.conftest import create, human_table, start


def summary(client: TestClient, table_id: str) -> dict[str, object]:
    return dict(client.get(f"/api/tables/{table_id}").json())


def test_a_pair_resigns_at_kaiser_and_the_other_pair_wins_even_after_a_restart(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        table_id, tokens = human_table(client, "kaiser", 4)
        early = client.post(f"/api/tables/{table_id}/resign", json={"token": tokens[1]})
        assert early.status_code == 409 and early.json()["code"] == "table_status"
        start(client, table_id, tokens[0])
        version = summary(client, table_id)["version"]
        stranger = client.post(f"/api/tables/{table_id}/resign", json={"token": "not-a-seat-token"})
        assert stranger.status_code == 403 and stranger.json()["code"] == "no_token_seat"
        assert summary(client, table_id)["status"] == "playing"
        answer = client.post(f"/api/tables/{table_id}/resign", json={"token": tokens[1]})
        assert answer.status_code == 200, answer.text
        outcome = answer.json()["outcome"]
        assert answer.json()["ended"] is True
        assert outcome["winners"] == [0, 2] and outcome["reason"] == "seats 1 and 3 resigned"
        after = summary(client, table_id)
        assert (after["status"], after["to_act"], after["version"]) == ("finished", None, version)
        assert after["outcome"] == outcome
        again = client.post(f"/api/tables/{table_id}/resign", json={"token": tokens[0]})
        assert again.status_code == 409 and again.json()["code"] == "table_status"
        with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws:
            view = ws.receive_json()
            assert (view["status"], view["outcome"], view["legal_actions"]) == ("finished", outcome, [])
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        restarted = summary(client, table_id)
        assert (restarted["status"], restarted["outcome"], restarted["to_act"]) == ("finished", outcome, None)


def test_a_resigned_games_replay_ends_on_its_result_and_its_record_names_the_resignation(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        table_id, tokens = human_table(client, "kaiser", 4)
        start(client, table_id, tokens[0])
        outcome = client.post(f"/api/tables/{table_id}/resign", json={"token": tokens[3]}).json()["outcome"]
        replay = client.get(f"/api/tables/{table_id}/replay", params={"token": tokens[0]}).json()
        record = client.get(f"/api/tables/{table_id}/record").json()
    *played, result = replay["frames"]
    assert len(played) == len(record["actions"]) + 1  # the deal, then each action; then the result
    assert all(frame["view"]["outcome"] is None for frame in played)
    assert result["actor"] is None and result["events"] == [] and result["step"] == played[-1]["step"] + 1
    view = result["view"]
    assert (view["status"], view["outcome"], view["to_act"], view["seat"]) == ("finished", outcome, None, 0)
    assert view["observation"] == played[-1]["view"]["observation"]  # the table as it was left
    assert "ended before the rules' end: seats 1 and 3 resigned; winners: seats 0, 2" in record["notes"]
    with TestClient(create_app(db_url, bot_delay=0)) as client:  # the same after a restart
        assert client.get(f"/api/tables/{table_id}/replay", params={"token": tokens[0]}).json() == replay
        assert client.get(f"/api/tables/{table_id}/record").json()["notes"] == record["notes"]


def test_resigning_two_player_durak_ends_it_and_three_player_wizard_hands_the_seat_to_the_computer(
        client: TestClient) -> None:
    duel = create(client, "durak", ["human", "bot"])
    start(client, duel["table_id"], duel["token"])
    answer = client.post(f"/api/tables/{duel['table_id']}/resign", json={"token": duel["token"]}).json()
    assert answer["outcome"]["winners"] == [1] and answer["outcome"]["reason"] == "seat 0 resigned"
    assert summary(client, duel["table_id"])["status"] == "finished"
    three = create(client, "wizard", ["human", "bot", "bot"])
    start(client, three["table_id"], three["token"])
    answer = client.post(f"/api/tables/{three['table_id']}/resign", json={"token": three["token"]}).json()
    assert answer["ended"] is False and answer["outcome"] is None
    seats = summary(client, three["table_id"])["seats"]
    assert isinstance(seats, list) and seats[0]["kind"] == "bot"
    assert summary(client, three["table_id"])["status"] in ("playing", "finished")
