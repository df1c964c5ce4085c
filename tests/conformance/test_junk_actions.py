"""Bad input at the edge, for every game: arbitrary JSON-ish actions, junk fields, junk seats, junk text.

Hypothesis generates actions with the right type names and junk fields (floats, bools, huge ints,
lone surrogates, nested lists), junk seats, and junk text, at positions taken from random games.
Each one either succeeds (and then it was legal) or raises ``DecodeError`` / ``IllegalAction``
with the state unchanged; never any other exception.
"""

from __future__ import annotations

import dataclasses
import pickle
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.core import DecodeError, IllegalAction

GAMES = cardtable.games()

JUNK_SCALARS = st.one_of(
    st.integers(min_value=-70, max_value=70),
    st.integers(),
    st.sampled_from([2**63, -(2**63) - 1, 10**35, -(10**35), True, False, None, 6.0, 0.0, -1.0, 1e300]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["\ud800", "a\udfffb", "red", "spades", "hearts", "dos_reyes", "", "0"]),
)
JUNK = st.recursive(JUNK_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=5), inner, max_size=3)), max_leaves=12)
SEATS = st.one_of(st.integers(min_value=-3, max_value=8), st.sampled_from([True, False, None, 1.0, "0", 2**64]))


@cache
def positions(name: str) -> tuple[Any, ...]:
    """A few states of a random game of ``name`` (the first, then every few moves, the last)."""
    game = GAMES[name]
    state, _ = game.new(game.options(), 5)
    rng = random.Random(5)
    out = [state]
    moves = 0
    while (seat := game.to_act(state)) is not None and moves < 400:
        legal = game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, legal[rng.randrange(len(legal))])
        moves += 1
        if moves % 7 == 0:
            out.append(state)
    return (*out, state)


def fields_of(cls: type[Any]) -> list[str]:
    return [f.name for f in dataclasses.fields(cls)]


@st.composite
def json_actions(draw: st.DrawFn, name: str) -> Any:
    """A JSON object with a known (usually) type name and junk, or real, field names and values."""
    classes = GAMES[name].info.action_types
    cls = draw(st.sampled_from(classes))
    data: dict[str, Any] = {"type": draw(st.one_of(st.just(cls.TYPE), st.just(cls.TYPE), JUNK_SCALARS))}
    names = fields_of(cls)
    for field in names:
        if draw(st.integers(0, 5)):
            data[field] = draw(JUNK)
    if draw(st.integers(0, 4)) == 0:
        data[draw(st.text(max_size=6))] = draw(JUNK)
    return draw(st.one_of(st.just(data), st.just(data), JUNK))


@st.composite
def python_actions(draw: st.DrawFn, name: str) -> Any:
    """An action object built through the Python API with junk field values (dataclasses do not check)."""
    cls = draw(st.sampled_from(GAMES[name].info.action_types))
    return cls(**{field: draw(JUNK) for field in fields_of(cls)})


def try_apply(game: Any, state: Any, seat: Any, action: Any) -> None:
    """``apply`` succeeds on a legal action, else raises ``IllegalAction`` and leaves the state alone."""
    before = pickle.dumps(state)
    legal = game.legal_actions(state, seat) if type(seat) is int else []
    legal_now = game.is_legal(state, seat, action)
    assert (game.why_illegal(state, seat, action) is None) == legal_now
    try:
        game.apply(state, seat, action)
    except IllegalAction as exc:
        assert not legal_now
        assert len(str(exc)) < 400, "an error message echoes too much of the input"
    else:
        assert legal_now
    assert pickle.dumps(state) == before, "a refused action changed the state"
    if type(seat) is int and seat == game.to_act(state):
        assert legal_now == (action in legal), "why_illegal disagrees with legal_actions"


SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("name", list(GAMES))
@SETTINGS
@given(data=st.data())
def test_json_actions_decode_and_apply_or_are_refused(name: str, data: st.DataObject) -> None:
    game = GAMES[name]
    state = data.draw(st.sampled_from(positions(name)))
    raw = data.draw(json_actions(name))
    try:
        action = game.action_codec.decode(raw)
    except DecodeError as exc:
        assert len(str(exc)) < 400, "an error message echoes too much of the input"
        return
    seat = game.to_act(state) if data.draw(st.booleans()) else data.draw(SEATS)
    try_apply(game, state, seat, action)


@pytest.mark.parametrize("name", list(GAMES))
@SETTINGS
@given(data=st.data())
def test_python_actions_with_junk_fields_are_refused_or_legal(name: str, data: st.DataObject) -> None:
    game = GAMES[name]
    state = data.draw(st.sampled_from(positions(name)))
    action = data.draw(python_actions(name))
    seat = game.to_act(state) if data.draw(st.booleans()) else data.draw(SEATS)
    try_apply(game, state, seat, action)


@pytest.mark.parametrize("name", list(GAMES))
@SETTINGS
@given(data=st.data())
def test_junk_text_parses_or_raises_decode_error(name: str, data: st.DataObject) -> None:
    game = GAMES[name]
    text = data.draw(st.one_of(st.text(max_size=20), JUNK_SCALARS, st.sampled_from(
        ["play -1", "bid 9999999999999999999999999999999999", "bid " + "9" * 5000, "discard " + "Ro " * 2000])))
    try:
        action = game.parse_action(text)
    except DecodeError as exc:
        assert len(str(exc)) < 400
        return
    state = positions(name)[0]
    try_apply(game, state, game.to_act(state), action)


@pytest.mark.parametrize("name", list(GAMES))
@SETTINGS
@given(seat=st.one_of(SEATS, JUNK))
def test_observe_refuses_a_seat_not_at_the_table(name: str, seat: Any) -> None:
    game = GAMES[name]
    state = positions(name)[1]
    at_table = seat is None or (type(seat) is int and 0 <= seat < game.players(state))
    if at_table:
        assert game.observe(state, seat).observer == seat
    else:
        with pytest.raises(ValueError, match="not a seat at this table"):
            game.observe(state, seat)
