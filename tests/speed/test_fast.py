"""The hot-path helpers of ``cardtable.core.fast``: fast constructors build the very same events,
and trusted actions are exactly the checked, cached ones."""

from __future__ import annotations

import dataclasses
import pickle
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

import cardtable
from cardtable.core.codec import dumps
from cardtable.core.errors import IllegalAction
from cardtable.core.events import Event
from cardtable.core.fast import CACHED, TrustedActions, constructor
from cardtable.games.wizard.actions import Play


def _events_of_random_games(name: str, games: int = 3) -> list[Event]:
    game = cardtable.load_game(name)
    options = game.options({})
    rng = random.Random(5)
    out: list[Event] = []
    for seed in range(games):
        state, events = game.new(options, seed)
        out += events
        while (seat := game.to_act(state)) is not None:
            legal = game.legal_actions(state, seat)
            state, events = game.apply(state, seat, legal[rng.randrange(len(legal))])
            out += events
    return out


@pytest.mark.parametrize("name", sorted(cardtable.all_games()))
def test_a_fast_constructor_builds_an_equal_event_of_every_kind_a_game_emits(name: str) -> None:
    seen: dict[type[Any], Event] = {}
    for event in _events_of_random_games(name):
        seen.setdefault(type(event), event)
    for cls, event in seen.items():
        values = [getattr(event, f.name) for f in dataclasses.fields(event)]
        rebuilt = constructor(cls)(*values)
        assert type(rebuilt) is cls and rebuilt == event and hash(rebuilt) == hash(event)
        assert dumps(rebuilt) == dumps(event) and repr(rebuilt) == repr(event)
        assert pickle.loads(pickle.dumps(rebuilt)) == event


def test_a_fast_constructor_keeps_defaults_and_keywords() -> None:
    @dataclass(frozen=True, slots=True)
    class Sample:
        a: int
        b: str = "x"

    make = constructor(Sample)
    assert make(1) == Sample(1) and make(a=2, b="y") == Sample(2, "y")
    with pytest.raises(dataclasses.FrozenInstanceError):
        make(1).a = 3  # type: ignore[misc]


def test_a_fast_constructor_refuses_classes_it_cannot_build_faithfully() -> None:
    @dataclass(frozen=True, slots=True)
    class WithPostInit:
        a: int

        def __post_init__(self) -> None:
            pass

    @dataclass(frozen=True, slots=True)
    class WithFactory:
        a: tuple[int, ...] = field(default_factory=tuple)

    @dataclass(frozen=True)
    class NoSlots:
        a: int

    for cls in (WithPostInit, WithFactory, NoSlots):
        with pytest.raises(TypeError):
            constructor(cls)


@pytest.fixture()
def registry() -> Iterator[None]:
    """Put the process-wide registry of cached actions back as it was (the engines' own instances)."""
    saved = dict(CACHED)
    yield
    CACHED.clear()
    CACHED.update(saved)


@pytest.mark.usefixtures("registry")
def test_trusted_actions_are_the_registered_instances_only() -> None:
    trusted = TrustedActions()
    cached = Play(3)
    trusted.add(cached)
    assert trusted.holds(cached)
    assert not trusted.holds(Play(3))  # an equal action from outside is checked as usual


def test_an_action_whose_fields_do_not_fit_cannot_be_trusted() -> None:
    with pytest.raises(ValueError, match="cannot trust"):
        TrustedActions().add(Play(60))


@pytest.mark.parametrize("name", ["wizard", "crazy_eights", "durak", "mus", "kaiser"])
def test_a_trusted_shortcut_gives_the_same_answers_as_the_full_edge_check(name: str) -> None:
    game = cardtable.load_game(name)
    state, _ = game.new(game.options({}), 3)
    seat = game.to_act(state)
    for action in game.legal_actions(state, seat):
        assert game.why_illegal(state, seat, action) is None
        assert game.why_illegal(state, (seat + 1) % game.players(state), action) is not None
        assert game.why_illegal(state, True, action) is not None  # a bool is not a seat
        for outside in (-1, game.players(state), 10**5000):  # not a seat: refused, never formatted
            assert game.why_illegal(state, outside, action) is not None
            with pytest.raises(IllegalAction):
                game.apply(state, outside, action)
