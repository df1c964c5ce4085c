"""The conformance suite: the checks every game passes, importable by a game written outside cardtable.

A game author runs it from their own tests::

    from cardtable.testing import check_game

    def test_my_game_conforms() -> None:
        check_game(MyGame(), cases=[{"players": 2}, {"players": 4, "preset": "long"}], seeds=range(1, 4))

:func:`check_game` raises :class:`ConformanceError` (an ``AssertionError``, so test runners
report it as a failure) naming the first broken promise. It checks, for every option set in
``cases`` and every seed, a whole random game, at every step:

- the metadata (``info``) is consistent: player range, options, presets, unique JSON types;
- only the seat to act has legal actions, they are deterministic, and ``is_legal`` (so
  ``why_illegal``) agrees with ``legal_actions`` on every action seen so far;
- ``apply`` never mutates its input; illegal actions (wrong seat, not legal now) raise
  ``IllegalAction`` and change nothing;
- actions, events, observations and the outcome round-trip through JSON, actions through text;
- no observation or event shows a seat a card from ``hidden_cards``; two moves that tell a
  seat the same thing leave it the same observation;
- the game ends within ``max_actions``, with a well-formed outcome, and then refuses actions;
- the record replays byte for byte, also through JSON;
- malformed JSON raises ``DecodeError``; the same seed deals the same game.

With ``junk_examples`` (the default), Hypothesis also throws arbitrary JSON-ish actions,
Python actions with junk fields, junk seats and junk text at positions of a random game:
each must succeed legally or raise ``DecodeError`` / ``IllegalAction`` with the state
unchanged, and ``observe`` must refuse (``ValueError``) a seat not at the table. Hypothesis is
imported only then (it is in the ``test`` extra); pass ``junk_examples=0`` to run without it.

The single checks (:func:`check_info`, :func:`check_playout`, :func:`check_junk_actions`, …)
are public too, for a test suite that wants one test per case. Nothing here imports pytest.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import Any

from cardtable.core import Codec, DecodeError, IllegalAction, InvalidOptions, Outcome, dumps, option_specs, to_json
from cardtable.core.checks import problem_of
from cardtable.core.record import GameRecord, new_record, replay

AnyGame = Any
Case = Mapping[str, Any]
DEFAULT_SEEDS = (1, 2, 3)


class ConformanceError(AssertionError):
    """A game broke one of the protocol's promises; the message says which, and where."""


def check_game(game: AnyGame, cases: Iterable[Case] | None = None, seeds: Iterable[int] = DEFAULT_SEEDS, *,
               junk_examples: int = 100) -> None:
    """Run every conformance check on ``game`` for each option set in ``cases`` (default: the defaults) and seed."""
    cases = list(cases) if cases is not None else [{}]
    check_info(game)
    for case in cases:
        for seed in seeds:
            check_playout(game, case, seed)
    check_malformed_json(game)
    check_same_seed_same_game(game, cases[0], list(seeds))
    if junk_examples:
        check_junk_actions(game, cases[0], examples=junk_examples)


def _require(condition: object, message: str) -> None:
    if not condition:
        raise ConformanceError(message)


def _refused(expected: type[BaseException] | tuple[type[BaseException], ...], call: Callable[[], object],
             what: str) -> BaseException:
    """Call ``call``; it must raise ``expected``. Any other outcome is a conformance failure."""
    try:
        call()
    except expected as exc:
        return exc
    except Exception as exc:
        raise ConformanceError(f"{what}: raised {type(exc).__name__}: {exc}") from exc
    raise ConformanceError(f"{what}: accepted")


def build_options(game: AnyGame, case: Case) -> Any:
    """Options for a case; a ``preset`` key selects a preset."""
    values = dict(case)
    preset = values.pop("preset", None)
    return game.options(values, preset=preset)


# Metadata.


def check_info(game: AnyGame) -> None:
    """Metadata: name, player range, options with defaults, presets that parse, unique action/event types."""
    info = game.info
    _require(1 <= info.min_players <= info.max_players, f"{info.name}: bad player range")
    _require("players" in {s.name for s in option_specs(info.options_type)}, f"{info.name}: no players option")
    for preset in info.presets:
        game.options(preset=preset, players=info.min_players)
    _refused(InvalidOptions, lambda: game.options(players=info.max_players + 1), "too many players")
    _refused(InvalidOptions, lambda: game.options(no_such_option=1), "an unknown option")
    _require(len({cls.TYPE for cls in info.action_types}) == len(info.action_types), "two action types share a TYPE")
    _require(len({cls.TYPE for cls in info.event_types}) == len(info.event_types), "two event types share a TYPE")


# A whole random game, every invariant at every step.


def check_playout(game: AnyGame, case: Case, seed: int) -> None:
    """A random game to the end, checking every invariant at every step, then its replay."""
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
        _require(len(record.actions) < bound, f"{game.info.name} exceeded its declared bound of {bound} actions")
        seat, action = check_step(game, state, rng, seen_actions)
        before = pickle.dumps(state)
        new_state, events = game.apply(state, seat, action)
        _require(pickle.dumps(state) == before, f"apply mutated its input state on {action!r}")
        check_events(game, events)
        check_event_leaks(game, state, new_state, seat, events)
        all_events.extend(events)
        record = record.with_action(seat, action)
        state = new_state
    check_end(game, options, state, seen_actions)
    check_replay(game, record, all_events)


def check_step(game: AnyGame, state: Any, rng: random.Random, seen: list[Any]) -> tuple[int, Any]:
    """Invariants of one position; returns the seat to act and a random legal action."""
    players = game.players(state)
    seat = game.to_act(state)
    _require(seat in range(players), f"to_act is {seat!r}, not a seat")
    legal = game.legal_actions(state, seat)
    _require(legal, "the seat to act has no legal action")
    _require(legal == game.legal_actions(state, seat), "legal actions are not deterministic")
    for other in range(players):
        if other != seat:
            _require(game.legal_actions(state, other) == [], f"seat {other} has actions out of turn")
    for action in legal:
        check_action_codecs(game, action)
        if action not in seen:
            seen.append(action)
    for action in seen:
        _require(game.is_legal(state, seat, action) == (action in legal),
                 f"why_illegal and legal_actions disagree on {action!r}")
    check_observations(game, state)
    check_illegal(game, state, seat, legal, seen)
    check_observations_follow_what_was_seen(game, state, seat, legal, rng)
    return seat, legal[rng.randrange(len(legal))]


def check_action_codecs(game: AnyGame, action: Any) -> None:
    """Actions round-trip through JSON and through their text form."""
    _require(game.action_codec.decode(to_json(action)) == action, f"{action!r} does not round-trip through JSON")
    _require(game.action_codec.loads(dumps(action)) == action, f"{action!r} does not round-trip through JSON text")
    _require(game.parse_action(action.text()) == action, f"text form {action.text()!r} does not parse back")
    words = game.describe_action(action)
    _require(isinstance(words, str) and words, f"{action!r} has no description in words")


def check_observations(game: AnyGame, state: Any) -> None:
    """Every seat's and the spectator's observation round-trips and shows no hidden card."""
    for observer in [*range(game.players(state)), None]:
        obs = game.observe(state, observer)
        _require(isinstance(obs, game.info.observation_type), f"observe returned a {type(obs).__name__}")
        _require(game.observation_codec.decode(to_json(obs)) == obs, "an observation does not round-trip")
        leaked = obs.cards_shown() & game.hidden_cards(state, observer)
        _require(not leaked, f"observation for {observer} shows hidden cards {sorted(leaked)}")


def check_observations_follow_what_was_seen(game: AnyGame, state: Any, seat: int, legal: list[Any],
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
            _require(first[1] == observed,
                     f"seat {viewer} is told the same after {first[0].text()!r} and {action.text()!r} "
                     f"but observes different things")


def check_illegal(game: AnyGame, state: Any, seat: int, legal: list[Any], seen: list[Any]) -> None:
    """Illegal actions (wrong seat, or not legal now) raise IllegalAction and change nothing."""
    before = pickle.dumps(state)
    wrong_seat = (seat + 1) % game.players(state)
    if wrong_seat != seat:
        _refused(IllegalAction, lambda: game.apply(state, wrong_seat, legal[0]), "an action out of turn")
    for action in seen:
        if action not in legal:
            _refused(IllegalAction, partial(game.apply, state, seat, action), f"{action!r}, not legal now")
            break
    _require(pickle.dumps(state) == before, "a refused action changed the state")


def check_events(game: AnyGame, events: list[Any]) -> None:
    """Events round-trip through JSON and have a text form."""
    for event in events:
        _require(isinstance(event, game.info.event_types), f"{event!r} is not among the game's event types")
        _require(game.event_codec.decode(to_json(event)) == event, f"{event!r} does not round-trip through JSON")
        _require(isinstance(event.text(), str) and event.text(), f"{event!r} has no text")
        audience = event.audience()
        _require(audience is None or isinstance(audience, frozenset), f"{event!r}: audience is not a frozenset")


def check_event_leaks(game: AnyGame, before: Any, after: Any, actor: int | None, events: list[Any]) -> None:
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
                _require(not leaked, f"{event.text()!r} shows {viewer} hidden cards {sorted(leaked)}")


def check_end(game: AnyGame, options: Any, state: Any, seen: list[Any]) -> None:
    """A finished game has an outcome, nobody to act, no legal actions, and refuses actions."""
    outcome = game.outcome(state)
    _require(outcome is not None and game.is_over(state), "a game with nobody to act has no outcome")
    players = game.players(state)
    _require(players == options.players, "players(state) differs from the options")
    _require(len(outcome.scores) == players, "the outcome does not score every seat")
    _require(outcome.winners == tuple(sorted(set(outcome.winners))), "winners are not sorted and distinct")
    _require(all(w in range(players) for w in outcome.winners), "a winner is not a seat")
    _require(outcome.reason, "the outcome gives no reason")
    _require(Codec([Outcome]).decode(to_json(outcome)) == outcome, "the outcome does not round-trip")
    _require(all(game.legal_actions(state, s) == [] for s in range(players)), "legal actions after the end")
    if seen:
        _refused(IllegalAction, lambda: game.apply(state, 0, seen[0]), "an action after the end")
    check_observations(game, state)


def check_replay(game: AnyGame, record: GameRecord, events: list[Any]) -> None:
    """The record, through JSON text, replays to the same events byte for byte."""
    decoded = GameRecord.from_json(json.loads(json.dumps(record.to_json())), game)
    _require(decoded == record, "the record does not round-trip through JSON")
    state, replayed = replay(game, decoded)
    _require([dumps(e) for e in replayed] == [dumps(e) for e in events], "the replay's events differ")
    _require(game.outcome(state) is not None, "the replay does not finish the game")


def check_malformed_json(game: AnyGame) -> None:
    """Malformed action JSON gives DecodeError (a ValueError) with a message, never another exception."""
    for bad in ["", "[]", "{}", '{"type": 3}', '{"type": "no-such-action"}', "not json", '{"type": null}']:
        _refused(DecodeError, partial(game.action_codec.loads, bad), f"action JSON {bad!r}")
    for cls in game.info.action_types:
        _refused(DecodeError, partial(game.action_codec.decode, {"type": cls.TYPE, "unexpected_field": 1}),
                 f"a {cls.TYPE} with an unexpected field")


def random_game(game: AnyGame, options: Any, seed: int, rng: random.Random) -> tuple[Any, list[Any], GameRecord]:
    """A game played by random legal moves: its final state, every event and its record."""
    state, events = game.new(options, seed)
    record = new_record(game, options, seed)
    while (seat := game.to_act(state)) is not None:
        legal = game.legal_actions(state, seat)
        action = legal[rng.randrange(len(legal))]
        state, more = game.apply(state, seat, action)
        events += more
        record = record.with_action(seat, action)
    return state, events, record


def check_same_seed_same_game(game: AnyGame, case: Case, seeds: Sequence[int]) -> None:
    """Dealing is a function of the seed; replaying the actions reproduces every event byte for byte."""
    options = build_options(game, case)
    for seed in seeds:
        _, first = game.new(options, seed)
        _, again = game.new(options, seed)
        _require([dumps(e) for e in first] == [dumps(e) for e in again], f"seed {seed} deals two different games")
        state, events, record = random_game(game, options, seed, random.Random(seed + 1))
        replayed_state, replayed = replay(game, record)
        _require([dumps(e) for e in replayed] == [dumps(e) for e in events], f"seed {seed}: the replay differs")
        _require(game.outcome(replayed_state) == game.outcome(state), f"seed {seed}: the replay ends differently")


# Bad input at the edge (Hypothesis).


def positions(game: AnyGame, options: Any, seed: int = 5, every: int = 7, most: int = 400) -> list[Any]:
    """States of a random game: the first, every ``every`` moves, and the last (at most ``most`` moves)."""
    state, _ = game.new(options, seed)
    rng = random.Random(seed)
    out = [state]
    moves = 0
    while (seat := game.to_act(state)) is not None and moves < most:
        legal = game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, legal[rng.randrange(len(legal))])
        moves += 1
        if moves % every == 0:
            out.append(state)
    return [*out, state]


def check_bad_action(game: AnyGame, state: Any, seat: Any, action: Any) -> None:
    """``apply`` succeeds on a legal action, else raises ``IllegalAction`` and leaves the state alone."""
    before = pickle.dumps(state)
    legal = game.legal_actions(state, seat) if type(seat) is int else []
    legal_now = game.is_legal(state, seat, action)
    _require((game.why_illegal(state, seat, action) is None) == legal_now, "is_legal and why_illegal disagree")
    try:
        game.apply(state, seat, action)
    except IllegalAction as exc:
        _require(not legal_now, f"apply refused {action!r}, which is_legal accepts: {exc}")
        _require(len(str(exc)) < 400, "an error message echoes too much of the input")
    except Exception as exc:
        raise ConformanceError(f"apply({seat!r}, {action!r}) raised {type(exc).__name__}: {exc}") from exc
    else:
        _require(legal_now, f"apply accepted {action!r}, which is_legal refuses")
    _require(pickle.dumps(state) == before, "a refused action changed the state")
    if type(seat) is int and seat == game.to_act(state):
        # ``Bid(True) == Bid(1)`` for dataclasses, so the list's answer counts only for exact field types.
        exact = dataclasses.is_dataclass(action) and not isinstance(action, type) and problem_of(action) is None
        listed = exact and action in legal
        _require(legal_now == listed, f"why_illegal disagrees with legal_actions on {action!r}")


def check_bad_observer(game: AnyGame, state: Any, seat: Any) -> None:
    """``observe`` serves a seat at the table or a spectator (``None``) and refuses anything else."""
    if seat is None or (type(seat) is int and 0 <= seat < game.players(state)):
        _require(game.observe(state, seat).observer == seat, "observe served another seat")
        return
    exc = _refused(ValueError, lambda: game.observe(state, seat), f"observe({seat!r})")
    _require("not a seat at this table" in str(exc), f"observe({seat!r}) says {exc}, not that it is no seat")


def check_junk_actions(game: AnyGame, case: Case | None = None, *, examples: int = 100) -> None:
    """Hypothesis: junk JSON, junk Python actions, junk seats and junk text are refused cleanly, or legal."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    states = positions(game, build_options(game, case or {}))
    classes = game.info.action_types
    scalars = st.one_of(
        st.integers(min_value=-70, max_value=70), st.integers(),
        st.sampled_from([2**63, -(2**63) - 1, 10**35, -(10**35), True, False, None, 6.0, 0.0, -1.0, 1e300]),
        st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
        st.sampled_from(["\ud800", "a\udfffb", "red", "spades", "hearts", "dos_reyes", "", "0"]),
    )
    junk = st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=5), inner, max_size=3)), max_leaves=12)
    seats = st.one_of(st.integers(min_value=-3, max_value=8), st.sampled_from([True, False, None, 1.0, "0", 2**64]))

    @st.composite
    def json_actions(draw: Any) -> Any:
        cls = draw(st.sampled_from(classes))
        data: dict[str, Any] = {"type": draw(st.one_of(st.just(cls.TYPE), st.just(cls.TYPE), scalars))}
        for name in _field_names(cls):
            if draw(st.integers(0, 5)):
                data[name] = draw(junk)
        if draw(st.integers(0, 4)) == 0:
            data[draw(st.text(max_size=6))] = draw(junk)
        return draw(st.one_of(st.just(data), st.just(data), junk))

    @st.composite
    def python_actions(draw: Any) -> Any:
        cls = draw(st.sampled_from(classes))
        return cls(**{name: draw(junk) for name in _field_names(cls)})

    texts = st.one_of(st.text(max_size=20), scalars, st.sampled_from(
        ["play -1", "bid 9999999999999999999999999999999999", "bid " + "9" * 5000, "discard " + "Ro " * 2000]))
    config = settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), database=None,
                      report_multiple_bugs=False)

    def seat_for(state: Any, draw: Any) -> Any:
        return game.to_act(state) if draw(st.booleans()) else draw(seats)

    @config
    @given(data=st.data())
    def json_junk(data: Any) -> None:
        state = data.draw(st.sampled_from(states))
        raw = data.draw(json_actions())
        try:
            action = game.action_codec.decode(raw)
        except DecodeError as exc:
            _require(len(str(exc)) < 400, "a decode error echoes too much of the input")
            return
        except Exception as exc:
            raise ConformanceError(f"decoding {raw!r} raised {type(exc).__name__}: {exc}") from exc
        check_bad_action(game, state, seat_for(state, data.draw), action)

    @config
    @given(data=st.data())
    def python_junk(data: Any) -> None:
        state = data.draw(st.sampled_from(states))
        check_bad_action(game, state, seat_for(state, data.draw), data.draw(python_actions()))

    @config
    @given(text=texts)
    def text_junk(text: Any) -> None:
        try:
            action = game.parse_action(text)
        except DecodeError as exc:
            _require(len(str(exc)) < 400, "a parse error echoes too much of the input")
            return
        except Exception as exc:
            raise ConformanceError(f"parsing {text!r} raised {type(exc).__name__}: {exc}") from exc
        check_bad_action(game, states[0], game.to_act(states[0]), action)

    @config
    @given(seat=st.one_of(seats, junk))
    def observer_junk(seat: Any) -> None:
        check_bad_observer(game, states[min(1, len(states) - 1)], seat)

    for check in (json_junk, python_junk, text_junk, observer_junk):
        check()


def _field_names(cls: type[Any]) -> list[str]:
    import dataclasses

    return [f.name for f in dataclasses.fields(cls)]


__all__ = [
    "ConformanceError", "build_options", "check_action_codecs", "check_bad_action", "check_bad_observer",
    "check_end", "check_event_leaks", "check_events", "check_game", "check_illegal", "check_info",
    "check_junk_actions", "check_malformed_json", "check_observations", "check_observations_follow_what_was_seen",
    "check_playout", "check_replay", "check_same_seed_same_game", "check_step", "positions", "random_game",
]
