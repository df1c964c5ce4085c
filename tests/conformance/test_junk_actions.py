"""Bad input at the edge, for every game (``cardtable.testing.check_junk_actions``).

Hypothesis generates actions with the right type names and junk fields (floats, bools, huge ints,
lone surrogates, nested lists), junk seats, and junk text, at positions taken from a random game.
Each one either succeeds (and then it was legal) or raises ``DecodeError`` / ``IllegalAction``
with the state unchanged; never any other exception. ``observe`` refuses seats not at the table.
"""

from __future__ import annotations

import pytest

import cardtable
from cardtable import testing

GAMES = cardtable.games()


@pytest.mark.parametrize("name", list(GAMES))
def test_junk_actions_seats_and_text_are_refused_or_legal(name: str) -> None:
    testing.check_junk_actions(GAMES[name], examples=120)
