"""The conformance suite every registered game runs, unchanged.

For each game, ``tests/conformance/cases_<name>.py`` lists option sets
(``CASES``); each is played to the end by random agents with several seeds,
checking the protocol's invariants at every step (see ``check_step``).
"""

from __future__ import annotations

import importlib
import os
import pickle
import random
from typing import Any

import pytest

import cardtable
from cardtable.core import Codec, DecodeError, IllegalAction, InvalidOptions, Outcome, dumps, option_specs, to_json
from cardtable.core.record import GameRecord, new_record, replay

# Three seeds per case in `make test`; CARDTABLE_CONFORMANCE_SEEDS=50 runs a deeper sweep.
SEEDS = tuple(range(1, 1 + int(os.environ.get("CARDTABLE_CONFORMANCE_SEEDS", "3"))))
GAMES = cardtable.games()


def cases_of(name: str) -> list[dict[str, Any]]:
    """The option sets a game declares for conformance (missing file: a failing case)."""
    try:
        module = importlib.import_module(f"tests.conformance.cases_{name}")
    except ModuleNotFoundError:
        return [{"__missing__": True}]
    return list(module.CASES)


PARAMS = [
    pytest.param(name, case, seed, id=f"{name}-{i}-{'-'.join(f'{k}={v}' for k, v in case.items())}-s{seed}")
    for name in GAMES
    for i, case in enumerate(cases_of(name))
    for seed in SEEDS
]


def build_options(game: Any, case: dict[str, Any]) -> Any:
    """Options for a case; a ``preset`` key selects a preset."""
    assert "__missing__" not in case, f"{game.info.name} has no tests/conformance/cases_{game.info.name}.py"
    values = dict(case)
    preset = values.pop("preset", None)
    return game.options(values, preset=preset)


@pytest.mark.parametrize("name", list(GAMES))
def test_info_is_consistent(name: str) -> None:
    """Metadata: name, player range, options with defaults, presets that parse, action/event types."""
    game = GAMES[name]
    info = game.info
    assert info.name == name
    assert 1 <= info.min_players <= info.max_players
    specs = {s.name: s for s in option_specs(info.options_type)}
    assert "players" in specs
    for preset in info.presets:
        game.options(preset=preset, players=info.min_players)
    with pytest.raises(InvalidOptions):
        game.options(players=info.max_players + 1)
    with pytest.raises(InvalidOptions):
        game.options(no_such_option=1)
    assert len({cls.TYPE for cls in info.action_types}) == len(info.action_types)
    assert len({cls.TYPE for cls in info.event_types}) == len(info.event_types)


@pytest.mark.parametrize(("name", "case", "seed"), PARAMS)
def test_random_playout_keeps_every_invariant(name: str, case: dict[str, Any], seed: int) -> None:
    """A random game to the end, checking every invariant at every step, then its replay."""
    game = GAMES[name]
    options = build_options(game, case)
    rng = random.Random(seed)
    state, events = game.new(options, seed)
    record = new_record(game, options, seed)
    all_events = list(events)
    check_events(game, events)
    check_event_leaks(game, None, state, None, events)
    seen_actions: list[Any] = []
    bound = game.max_actions(options)
    while game.to_act(state) is not None:
        assert len(record.actions) < bound, f"{name} exceeded its declared bound of {bound} actions"
        seat, action = check_step(game, state, rng, seen_actions)
        before = pickle.dumps(state)
        new_state, events = game.apply(state, seat, action)
        assert pickle.dumps(state) == before, f"apply mutated its input state on {action!r}"
        check_events(game, events)
        check_event_leaks(game, state, new_state, seat, events)
        all_events.extend(events)
        record = record.with_action(seat, action)
        state = new_state
    check_end(game, options, state, seen_actions)
    check_replay(game, record, all_events)


def check_step(game: Any, state: Any, rng: random.Random, seen: list[Any]) -> tuple[int, Any]:
    """Invariants of one position; returns the random legal action chosen."""
    players = game.players(state)
    seat = game.to_act(state)
    assert seat in range(players)
    legal = game.legal_actions(state, seat)
    assert legal, "the seat to act has no legal action"
    assert legal == game.legal_actions(state, seat), "legal actions are not deterministic"
    for other in range(players):
        if other != seat:
            assert game.legal_actions(state, other) == [], f"seat {other} has actions out of turn"
    for action in legal:
        check_action_codecs(game, action)
        if action not in seen:
            seen.append(action)
    for action in seen:
        assert game.is_legal(state, seat, action) == (action in legal), (
            f"why_illegal and legal_actions disagree on {action!r}")
    check_observations(game, state)
    check_illegal(game, state, seat, legal, seen)
    check_observations_follow_what_was_seen(game, state, seat, legal, rng)
    return seat, legal[rng.randrange(len(legal))]


def check_action_codecs(game: Any, action: Any) -> None:
    """Actions round-trip through JSON and through their text form."""
    assert game.action_codec.decode(to_json(action)) == action
    assert game.action_codec.loads(dumps(action)) == action
    assert game.parse_action(action.text()) == action, f"text form {action.text()!r} does not parse back"
    assert isinstance(game.describe_action(action), str) and game.describe_action(action)


def check_observations(game: Any, state: Any) -> None:
    """Every seat's and the spectator's observation round-trips and shows no hidden card."""
    for observer in [*range(game.players(state)), None]:
        obs = game.observe(state, observer)
        assert isinstance(obs, game.info.observation_type)
        assert game.observation_codec.decode(to_json(obs)) == obs
        leaked = obs.cards_shown() & game.hidden_cards(state, observer)
        assert not leaked, f"observation for {observer} shows hidden cards {sorted(leaked)}"


def check_observations_follow_what_was_seen(game: Any, state: Any, seat: int, legal: list[Any],
                                            rng: random.Random, most: int = 6) -> None:
    """Two moves that tell another seat the same thing leave that seat the same observation.

    What a seat is told: the events it may see, and its own legal actions afterwards (a last
    bidder barred from one bid learns the sum of the bids from that alone). Catches information
    that reaches a seat by another road: a hidden bid showing through a derived field, say.
    The mover itself is exempt (it knows its move).
    """
    sample = legal if len(legal) <= most else rng.sample(legal, most)
    outcomes = [game.apply_unchecked(state, seat, action) for action in sample]
    for viewer in [*range(game.players(state)), None]:
        if viewer == seat:
            continue
        seen_as: dict[str, Any] = {}
        for action, (after, events) in zip(sample, outcomes):
            told = dumps([e for e in events if e.is_visible_to(viewer)])
            if viewer is not None:
                told += dumps(game.legal_actions(after, viewer))
            observed = dumps(game.observe(after, viewer))
            first = seen_as.setdefault(told, (action, observed))
            assert first[1] == observed, (
                f"seat {viewer} is told the same after {first[0].text()!r} and {action.text()!r} "
                f"but observes different things")


def check_illegal(game: Any, state: Any, seat: int, legal: list[Any], seen: list[Any]) -> None:
    """Illegal actions (wrong seat, or not legal now) raise IllegalAction and change nothing."""
    before = pickle.dumps(state)
    wrong_seat = (seat + 1) % game.players(state)
    if wrong_seat != seat:
        with pytest.raises(IllegalAction):
            game.apply(state, wrong_seat, legal[0])
    for action in seen:
        if action not in legal:
            with pytest.raises(IllegalAction):
                game.apply(state, seat, action)
            break
    assert pickle.dumps(state) == before, "a refused action changed the state"


def check_events(game: Any, events: list[Any]) -> None:
    """Events round-trip through JSON and have a text form."""
    for event in events:
        assert isinstance(event, game.info.event_types)
        assert game.event_codec.decode(to_json(event)) == event
        assert isinstance(event.text(), str) and event.text()
        audience = event.audience()
        assert audience is None or isinstance(audience, frozenset)


def check_event_leaks(game: Any, before: Any, after: Any, actor: int | None, events: list[Any]) -> None:
    """No event shows its audience a card hidden from them both before and after it happened.

    Exempt: cards the acting seat knew before acting (its own play reveals them), and events the
    rules make public on purpose (``REVEALS``: a showdown, Durak's hand-over).
    """
    viewers = [*range(game.players(after)), None]
    hidden_after = {v: game.hidden_cards(after, v) for v in viewers}
    hidden_before = hidden_after if before is None else {v: game.hidden_cards(before, v) for v in viewers}
    for event in events:
        shown = event.cards_shown()
        if event.REVEALS or not shown:
            continue
        if actor is not None:
            shown &= hidden_before[actor]
        for viewer in viewers:
            if event.is_visible_to(viewer):
                leaked = shown & hidden_before[viewer] & hidden_after[viewer]
                assert not leaked, f"{event.text()!r} shows {viewer} hidden cards {sorted(leaked)}"


def check_end(game: Any, options: Any, state: Any, seen: list[Any]) -> None:
    """A finished game has an outcome, nobody to act, no legal actions, and refuses actions."""
    outcome = game.outcome(state)
    assert outcome is not None and game.is_over(state)
    players = game.players(state)
    assert players == options.players
    assert len(outcome.scores) == players
    assert outcome.winners == tuple(sorted(set(outcome.winners)))
    assert all(w in range(players) for w in outcome.winners)
    assert outcome.reason
    assert Codec([Outcome]).decode(to_json(outcome)) == outcome
    assert all(game.legal_actions(state, s) == [] for s in range(players))
    with pytest.raises(IllegalAction):
        game.apply(state, 0, seen[0])
    check_observations(game, state)


def check_replay(game: Any, record: GameRecord, events: list[Any]) -> None:
    """The record, through JSON, replays to the same events byte for byte."""
    decoded = GameRecord.from_json(to_json_record(record), game)
    assert decoded == record
    state, replayed = replay(game, decoded)
    assert [dumps(e) for e in replayed] == [dumps(e) for e in events]
    assert game.outcome(state) is not None


def to_json_record(record: GameRecord) -> dict[str, Any]:
    """The record through a JSON text round trip."""
    import json

    return dict(json.loads(json.dumps(record.to_json())))


@pytest.mark.parametrize("name", list(GAMES))
def test_malformed_actions_raise_decode_error(name: str) -> None:
    """Malformed action JSON gives DecodeError (a ValueError) with a message, never another exception."""
    game = GAMES[name]
    for bad in ["", "[]", "{}", '{"type": 3}', '{"type": "no-such-action"}', "not json", '{"type": null}']:
        with pytest.raises(DecodeError):
            game.action_codec.loads(bad)
    for cls in game.info.action_types:
        with pytest.raises(DecodeError):
            game.action_codec.decode({"type": cls.TYPE, "unexpected_field": 1})
