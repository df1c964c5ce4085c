"""Property tests (hypothesis) over every game: determinism and replay from any seed and any play."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardtable
from cardtable import testing
from tests.conformance.test_conformance import cases_of

GAMES = cardtable.games()


@pytest.mark.parametrize("name", list(GAMES))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_same_seed_and_actions_give_the_same_game(name: str, seed: int) -> None:
    """Dealing is a function of the seed; replaying the actions reproduces every event byte for byte."""
    testing.check_same_seed_same_game(GAMES[name], cases_of(name)[0], [seed])
