"""``GET /metrics``: Prometheus text with the tables by status, sockets, bot sessions, actions, commits, commit
latency and errors by kind, each moving with what it counts."""

from __future__ import annotations

from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from tests.server.conftest import create, play_alone, start


def scrape(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics`` by (name, labels)."""
    answer = client.get("/metrics")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain")
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(answer.text) for sample in family.samples}


def test_metrics_start_at_zero_with_every_family(client: TestClient) -> None:
    samples = scrape(client)
    assert samples[("cardtable_tables", (("status", "playing"),))] == 0
    assert samples[("cardtable_sockets", ())] == 0 and samples[("cardtable_bot_sessions", ())] == 0
    assert samples[("cardtable_actions_total", ())] == 0
    assert ("cardtable_commit_seconds_count", ()) in samples


def test_a_game_moves_the_action_and_commit_counters(client: TestClient) -> None:
    before = scrape(client)
    created = create(client, "durak", ["human", "bot"])
    start(client, created["table_id"], created["token"])
    with client.websocket_connect(f"/ws/tables/{created['table_id']}?token={created['token']}") as ws:
        play_alone(ws)
    after = scrape(client)
    record = client.get(f"/api/tables/{created['table_id']}/record").json()
    assert after[("cardtable_actions_total", ())] - before[("cardtable_actions_total", ())] == len(record["actions"])
    commits = after[("cardtable_commits_total", ())] - before[("cardtable_commits_total", ())]
    assert commits >= 1
    assert after[("cardtable_commit_seconds_count", ())] - before[("cardtable_commit_seconds_count", ())] == commits
    assert after[("cardtable_commit_writes_total", ())] - before[("cardtable_commit_writes_total", ())] >= commits


def test_refusals_are_counted_by_kind(client: TestClient) -> None:
    client.get("/api/tables/nosuchtable")
    client.post("/api/tables", json={"game": 7})
    samples = scrape(client)
    kinds = {dict(labels)["kind"]: value for (name, labels), value in samples.items()
             if name == "cardtable_errors_total"}
    assert kinds.get("invalid_request") == 1
    assert sum(kinds.values()) == 2, kinds


def test_open_sockets_are_counted(client: TestClient) -> None:
    table = create(client, "crazy_eights", ["human", "bot"])
    with client.websocket_connect(f"/ws/tables/{table['table_id']}?token={table['token']}") as socket:
        socket.receive_json()
        assert scrape(client)[("cardtable_sockets", ())] == 1
        assert scrape(client)[("cardtable_tables", (("status", "waiting"),))] == 1
