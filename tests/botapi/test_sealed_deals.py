"""Sealed deals: while a live tournament (or any server table) is played nothing public gives a seed its cards
follow from; once it is over, the published salt matches the commitment and re-derives every game's deal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import cardtable
from cardtable.arena.entries import Entry
from cardtable.arena.sealed import VerifyError, commitment, verify
from cardtable.arena.tournament import define, run_tournament
from cardtable.cli import app
from cardtable.store import BotAccounts, Store
from cardtable.store.tournaments import TournamentStore
from tests.botapi.helpers import account, bot_app, play, stream, table, until, wait_finished
from tests.server.conftest import receive
from tests.server.realserver import serve

#: A seed no timestamp or count in an answer is likely to contain by chance.
SEED = 918273645
BODY = {"game": "crazy_eights", "entries": ["mine=remote:robo", "heuristic"], "options": {"rounds": 1},
        "games": 2, "seed": SEED, "concurrency": 1}


def _post(client: Any, token: str, body: dict[str, Any]) -> Any:
    return client.post("/api/tournaments/live", json=body, headers={"Authorization": f"Bearer {token}"})



def test_a_live_tournament_publishes_only_a_commitment_while_played_and_the_seed_and_salt_verify_after(
        db_url: str, tmp_path: Path) -> None:
    admin = account(db_url, "boss", role="admin")
    robo = account(db_url, "robo")
    with bot_app(db_url, decision=60) as client, stream(client, robo) as ws:
        made = _post(client, admin, BODY)
        assert made.status_code == 201, made.text
        tournament, promised = made.json()["tournament"], made.json()["commitment"]
        assert len(promised) == 64
        act = until(ws, "act")  # robo must decide: the tournament is being played
        at = act["table"]
        answers = [client.get(f"/api/tournaments/{tournament}").json(), client.get("/api/tournaments").json(),
                   client.get(f"/api/tournaments/{tournament}/tables").json(), client.get(f"/api/tables/{at}").json(),
                   client.get("/api/tables").json(), client.get("/api/finished").json()]
        assert client.get(f"/api/tables/{at}/record").status_code == 409
        with client.websocket_connect(f"/ws/tables/{at}") as spectator:
            answers.append(receive(spectator))
        during = answers[0]
        assert during["status"] == "running" and during["seed"] is None
        assert during["sealed"] == {"commitment": promised} and during["results"]["seed"] is None
        assert all("seed" not in row for row in during["stored"])
        ws.send_json({"type": "action", "table": at, "id": act["id"], "index": 0})
        play(ws, seed=1)
        play(ws, seed=2)
        state = wait_finished(client, tournament)
        records = {i: client.get(f"/api/tournaments/{tournament}/games/{i}/record").json() for i in range(2)}
    sealed = state["sealed"]
    assert sealed["seed"] == SEED and state["seed"] == SEED and sealed["commitment"] == promised
    assert commitment(SEED, sealed["salt"]) == promised
    secrets = [str(SEED), sealed["salt"], *(str(row["seed"]) for row in state["stored"])]
    published = json.dumps(answers)
    for secret in secrets:
        assert secret not in published, secret
    lines = verify(state, records)
    assert len(lines) == 4 and "2 records" in lines[-1]
    with pytest.raises(VerifyError, match="not sha256"):
        verify({**state, "sealed": {**sealed, "salt": "0" * 64}}, records)
    with pytest.raises(VerifyError, match="dealt from seed"):
        verify(state, {**records, 1: {**records[1], "seed": records[1]["seed"] ^ 1}})
    with pytest.raises(VerifyError, match="stored seed"):
        verify({**state, "stored": [{**state["stored"][0], "seed": 5}]}, None)
    # The command: from the server's database (records replayed), and from the published JSON alone.
    checked = CliRunner().invoke(app, ["arena", "verify", tournament[:12], "--database-url", db_url])
    assert checked.exit_code == 0, checked.output
    assert "2 records" in checked.stdout and checked.stdout.strip().endswith("verified")
    saved = tmp_path / "published.json"
    saved.write_text(json.dumps(state))
    assert CliRunner().invoke(app, ["arena", "verify", str(saved)]).exit_code == 0
    saved.write_text(json.dumps({**state, "sealed": {**sealed, "salt": "1" * 64}}))
    refused = CliRunner().invoke(app, ["arena", "verify", str(saved)])
    assert refused.exit_code == 2 and refused.stderr.startswith("error: tournament")
    assert len(refused.stderr.strip().splitlines()) == 1 and "Traceback" not in refused.output


def test_a_running_tournament_cannot_be_verified_and_an_offline_arena_publishes_its_seed(db_url: str) -> None:
    entries = [Entry("a", "random"), Entry("b", "heuristic")]
    offline = define(cardtable.load_game("crazy_eights"), entries, values={"rounds": 1}, games=2, seed=SEED)
    run_tournament(offline, TournamentStore(Store(db_url).engine))
    with bot_app(db_url) as client:
        answer = client.get(f"/api/tournaments/{offline.id}").json()
        assert answer["seed"] == SEED and answer["sealed"] is None
        assert [row["seed"] for row in answer["stored"]] == [p.seed for p in offline.schedule()]
        with pytest.raises(VerifyError, match="no sealed deals"):
            verify(answer)
        with pytest.raises(VerifyError, match="once every game is over"):
            verify({**answer, "status": "running", "sealed": {"commitment": "ab" * 32}})


@pytest.mark.parametrize(("args", "message"), [
    (["arena", "verify"], "arena verify needs a tournament"),
    (["arena", "verify", "nosuchtournament"], "no tournament in the database"),
    (["arena", "verify", "http://127.0.0.1:9/tournaments/nothex"], "no tournament id"),
    (["arena", "crazy_eights", "extra", "--bot", "random", "--bot", "heuristic"], "unexpected argument 'extra'"),
    (["arena", "crazy_eights"], "give the entries with --bot"),
])
def test_arena_verify_bad_input_is_one_line(db_url: str, args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, [*args, "--database-url", db_url])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_duplicate_live_tournament_is_refused(db_url: str) -> None:
    admin = account(db_url, "boss", role="admin")
    account(db_url, "robo")
    with bot_app(db_url) as client:
        response = _post(client, admin, {**BODY, "format": "duplicate"})
        assert response.status_code == 400 and "round-robin" in response.json()["detail"]


def test_a_server_table_gives_no_seed_while_it_is_played(db_url: str) -> None:
    with bot_app(db_url) as client:
        created = table(client, "crazy_eights", 2, seed=SEED, options={"rounds": 1})
        table_id = created["table_id"]
        # The host stays connected, so the game waits for them: it is being played while we look.
        with client.websocket_connect(f"/ws/tables/{table_id}?token={created['token']}") as seat, \
                client.websocket_connect(f"/ws/tables/{table_id}") as spectator:
            started = client.post(f"/api/tables/{table_id}/start", json={"token": created["token"]})
            assert started.status_code == 200
            answers = [started.json(), client.get(f"/api/tables/{table_id}").json(),
                       client.get("/api/tables").json(), client.get(f"/api/tables/{table_id}/social").json()]
            assert answers[1]["status"] == "playing"
            assert client.get(f"/api/tables/{table_id}/record").status_code == 409
            assert client.get(f"/api/tables/{table_id}/replay").status_code == 409
            answers += [receive(seat), receive(seat), receive(spectator), receive(spectator)]
    assert str(SEED) not in json.dumps(answers)


def test_arena_on_a_server_says_the_commitment_and_verify_checks_it_from_the_servers_address(
        tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'served.db'}"
    token = tmp_path / "boss.token"
    token.write_text(BotAccounts(Store(database).engine).add("Boss", role="admin")[1])
    with serve(database, tmp_path / "server.log") as server:
        played = CliRunner().invoke(app, ["arena", "crazy_eights", "--server", server.url, "--token-file", str(token),
                                          "--bot", "a=random", "--bot", "b=heuristic", "--games", "2",
                                          "-o", "rounds=1", "--seed", str(SEED), "--json"])
        assert played.exit_code == 0, played.output
        results = json.loads(played.stdout)
        assert "deals sealed: commitment" in played.stderr
        url = f"{server.url}/tournaments/{results['tournament']}"
        checked = CliRunner().invoke(app, ["arena", "verify", url])
        assert checked.exit_code == 0, checked.output
        assert "2 records" in checked.stdout and checked.stdout.strip().endswith("verified")
        unknown = CliRunner().invoke(app, ["arena", "verify", f"{server.url}/tournaments/{'f' * 64}"])
        assert unknown.exit_code == 2 and "HTTP 404" in unknown.stderr
