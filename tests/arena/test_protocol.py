"""The external-bot protocol: messages round-trip through the codec, templates, Mus validation, specs."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable.arena import protocol
from cardtable.arena.agents import make_agent, parse_spec
from cardtable.arena.external import ExternalBot
from cardtable.arena.sandbox import Limits
from cardtable.bots import RandomBot
from cardtable.core import replay
from cardtable.games.mus import actions as A
from cardtable.games.mus.validation import Validation, validate
from cardtable.runner import GameRunner, RunnerStatus, TimeLeft

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "bots" / "random_bot.py"
MUS = cardtable.load_game("mus")


def test_an_act_message_round_trips_through_the_codec() -> None:
    game = cardtable.load_game("wizard")
    state, _ = game.new(game.options(players=3), 5)
    seat = game.to_act(state)
    observation, legal = game.observe(state, seat), game.legal_actions(state, seat)
    line = protocol.encode(protocol.act(3, observation, legal, TimeLeft(0.5, 10.0)))
    message = json.loads(line)
    assert b"\n" not in line
    assert message["type"] == "act" and message["id"] == 3
    assert message["time_left"] == {"decision": 0.5, "game": 10.0}
    assert game.observation_codec.decode(message["observation"]) == observation
    assert [game.action_codec.decode(a) for a in message["legal"]] == legal
    assert "templates" not in message
    assert json.loads(protocol.encode_act(3, observation, legal, TimeLeft(0.5, 10.0))) == message


def test_hello_carries_the_version_game_options_and_seat() -> None:
    game = cardtable.load_game("durak")
    message = protocol.hello(game, game.options(players=3), 2, {"decision": 1.0})
    assert {k: message[k] for k in ("type", "protocol", "game", "seat", "players")} == {
        "type": "hello", "protocol": 1, "game": "durak", "seat": 2, "players": 3}
    assert game.options(message["options"]) == game.options(players=3)


def test_answers_by_index_or_by_action_and_their_errors() -> None:
    game = cardtable.load_game("crazy_eights")
    state, _ = game.new(game.options(players=2), 1)
    legal = game.legal_actions(state, game.to_act(state))
    assert protocol.parse_action(game, {"type": "action", "index": 0}, legal) == legal[0]
    from cardtable.core import to_json
    assert protocol.parse_action(game, {"type": "action", "action": to_json(legal[-1])}, legal) == legal[-1]
    for bad, words in [({"type": "action", "index": len(legal)}, "not in 0.."), ({"type": "ready"}, "expected"),
                       ({"type": "action"}, "needs"), ({"type": "action", "action": {"type": "nope"}}, "unknown type")]:
        with pytest.raises(protocol.ProtocolError, match=words):
            protocol.parse_action(game, bad, legal)
    with pytest.raises(protocol.ProtocolError, match="not JSON"):
        protocol.decode(b"garbage")
    with pytest.raises(protocol.ProtocolError, match="protocol 2"):
        protocol.parse_ready({"type": "ready", "name": "x", "protocol": 2})


def _betting_state() -> tuple[Any, int]:
    from tests.mus.helpers import play, table
    state, _ = play(table(), "cut")
    seat = MUS.to_act(state)
    assert seat is not None
    return state, seat


def test_mus_decisions_carry_seed_001s_action_templates() -> None:
    state, seat = _betting_state()
    templates = MUS.action_templates(state, seat)
    message = protocol.act(1, MUS.observe(state, seat), MUS.legal_actions(state, seat), TimeLeft(1.0, None),
                           templates)
    bet = next(t for t in message["templates"] if t["kind"] == "bet")
    assert bet["min"] == 2 and bet["max"] == MUS.bet_cap(state)
    assert [t["kind"] for t in message["templates"]] == [t.kind for t in templates]
    fast = protocol.encode_act(1, MUS.observe(state, seat), MUS.legal_actions(state, seat), TimeLeft(1.0, None),
                               templates)
    assert json.loads(fast) == message


def test_mus_validate_says_why_and_changes_nothing() -> None:
    state, seat = _betting_state()
    before = MUS.observe(state, None)
    assert validate(state, seat, A.Pass()) == Validation(True)
    refused = validate(state, seat, A.Bet(1))
    assert not refused and refused.reason is not None and "envites go from 2" in refused.reason
    assert "turn" in (validate(state, (seat + 1) % 4, A.Pass()).reason or "")
    assert MUS.observe(state, None) == before


def test_a_refused_mus_action_is_explained_with_validate() -> None:
    class BetsOne:
        name = "bets one"

        def __init__(self) -> None:
            self.reasons: list[str] = []

        def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
            return A.Bet(1)

        def refused(self, action: Any, reason: str) -> None:
            self.reasons.append(reason)

    agent = BetsOne()
    runner = GameRunner(MUS, MUS.options(), 3, [agent, RandomBot(1), RandomBot(2), RandomBot(3)])
    runner.run()
    assert runner.status is RunnerStatus.FINISHED
    subs = [s for s in runner.substitutions if s.seat == 0]
    assert subs and len(agent.reasons) == len(subs)
    for sub, reason in zip(subs[:5], agent.reasons):
        state, _ = replay(MUS, runner.record, upto=sub.index)
        assert validate(state, 0, A.Bet(1)).reason == reason
        assert sub.kind == "illegal" and reason in sub.detail


def test_the_example_bot_plays_mus_over_the_protocol() -> None:
    agent = ExternalBot([sys.executable, str(EXAMPLE)], limits=Limits(decision=2.0, handshake=5.0))
    with GameRunner(MUS, MUS.options(), 8, [agent, RandomBot(1), RandomBot(2), RandomBot(3)],
                    max_failures=0) as runner:
        runner.run()
    assert runner.status is RunnerStatus.FINISHED
    assert runner.failures_by_seat()[0] == {}
    assert agent.name == "random.py" and agent.sandbox is None


def test_specs_name_a_builtin_bot_or_a_program(monkeypatch: pytest.MonkeyPatch) -> None:
    game = cardtable.load_game("crazy_eights")
    assert parse_spec(game, "random").builtin == "random"
    monkeypatch.chdir(ROOT)
    spec = parse_spec(game, f"exec:{sys.executable} examples/bots/random_bot.py")
    assert spec.is_external and spec.command[-1] == str(EXAMPLE), "file arguments are made absolute"
    assert isinstance(make_agent(game, f"exec:{sys.executable} {EXAMPLE}", 1), ExternalBot)
    assert make_agent(game, "random", 1).name == "random"
    for bad, words in [("nobody", "no bot 'nobody'"), ("exec:", "names no program"),
                       ("exec:no-such-program-xyz", "not found on PATH"), ("exec:./missing.py", "no such file"),
                       ("exec:'unclosed", "cannot read")]:
        with pytest.raises(ValueError, match=words):
            parse_spec(game, bad)
