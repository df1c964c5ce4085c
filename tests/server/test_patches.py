"""Patches: a client applying each patch to its last view has exactly the full view at every step, in every
game, and patches carry nothing the full view would not (their content comes from ``observe`` only)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.core import new_record
from cardtable.server.live import Connection, LiveTable
from cardtable.server.views import apply_patch, make_patch, view_message
from cardtable.store import StoredSeat, StoredTable
from tests.server.conftest import GAMES, create, receive, short_options, start


def _table(game_name: str, seed: int) -> LiveTable:
    game = cardtable.load_game(game_name)
    options = game.options(short_options(game_name))
    players = int(options.players)
    stored = StoredTable("fuzz", game_name, {}, seed, "playing", "h",
                         seats=[StoredSeat(i, "human", f"P{i}", None, None, True) for i in range(players)])
    table = LiveTable(stored, game, options)
    table.state, events = game.new(options, seed)
    table.events, table.marks = list(events), [len(events)]
    table.record = new_record(game, options, seed)
    return table


@pytest.mark.parametrize("game_name", GAMES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), skips=st.lists(st.booleans(), min_size=8, max_size=8))
def test_patched_views_equal_full_views_at_every_step(game_name: str, seed: int, skips: list[bool]) -> None:
    """Random games; every seat and a spectator follow by patches (some skip changes, as a slow reader does);
    a twin connection gets full views: after each message, the patched view equals the full one."""
    table = _table(game_name, seed)
    game, rng = table.game, random.Random(seed)
    audiences: list[int | None] = [*range(len(table.stored.seats)), None]
    patched = {a: Connection(a, table, patches=True) for a in audiences}
    full = {a: Connection(a, table) for a in audiences}
    table.connections = set(patched.values()) | set(full.values())
    seen: dict[int | None, dict[str, Any]] = {}
    patches = 0
    step = 0
    while True:
        for index, audience in enumerate(audiences):
            if step and skips[(step + index) % len(skips)] and table.status == "playing":
                continue  # this reader is slow: it gets one message for several changes
            message = json.loads(view_message(table, patched[audience]))
            expected = json.loads(view_message(table, full[audience]))
            if message["type"] == "patch":
                patches += 1
                assert message["base"] == seen[audience]["version"]
                message = apply_patch(seen[audience], message)
            assert message == expected
            seen[audience] = message
        if table.status != "playing":
            break
        seat = game.to_act(table.state)
        action = rng.choice(game.legal_actions(table.state, seat))
        table.state, events = game.apply(table.state, seat, action)
        table.events.extend(events)
        table.marks.append(len(table.events))
        assert table.record is not None
        table.record = table.record.with_action(seat, action)
        if game.outcome(table.state) is not None:
            table.stored.status = "finished"
        elif rng.random() < 0.05:
            table.covering ^= {seat}  # the computer takes over or gives back a seat: legal actions change
        table.touch()
        step += 1
    assert patches > 0


def test_a_patch_is_refused_on_another_version() -> None:
    """A patch applies only to the view it was made from (the client then asks for a full view)."""
    old = {"type": "view", "version": 3, "observation": {"a": 1}, "events": []}
    new = {"type": "view", "version": 4, "observation": {"a": 2, "b": 1}, "events": [{"event": 1}]}
    patch = make_patch(old, new)
    assert patch["observation_set"] == {"a": 2, "b": 1} and patch["events"] == [{"event": 1}]
    assert apply_patch(old, patch) == new
    with pytest.raises(ValueError, match="version 3"):
        apply_patch({**old, "version": 2}, patch)


def test_the_socket_sends_patches_and_a_full_view_on_request(client: TestClient) -> None:
    """With ``?patches=1``: the first message is a view, later ones are patches that apply; ``{"type": "view"}``
    brings a full view again; without the parameter, every message is a view."""
    created = create(client, "durak", ["human", "bot"])
    table_id, token = created["table_id"], created["token"]
    with client.websocket_connect(f"/ws/tables/{table_id}?token={token}&patches=1") as ws, \
            client.websocket_connect(f"/ws/tables/{table_id}") as plain:
        view = receive(ws)
        assert view["type"] == "view"
        receive(plain)
        start(client, table_id, token)
        kinds = set()
        while view["to_act"] != 0 or view["status"] != "playing":
            message = receive(ws)
            kinds.add(message["type"])
            view = apply_patch(view, message) if message["type"] == "patch" else message
        assert "patch" in kinds
        assert receive(plain)["type"] == "view"
        ws.send_json({"type": "view"})
        again = receive(ws)
        assert again["type"] == "view"
        assert {k: v for k, v in again.items() if k != "events"} == {k: v for k, v in view.items() if k != "events"}
