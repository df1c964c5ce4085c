"""The conformance suite (``cardtable.testing``) on every registered game, one test per case and seed.

For each game, ``tests/conformance/cases_<name>.py`` lists option sets (``CASES``); each is
played to the end by random agents with several seeds, checking the protocol's invariants at
every step (see ``cardtable.testing.check_playout``).
"""

from __future__ import annotations

import importlib
import os
from typing import Any

import pytest

import cardtable
from cardtable import testing

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
    return testing.build_options(game, case)


@pytest.mark.parametrize("name", list(GAMES))
def test_info_is_consistent(name: str) -> None:
    """Metadata: name, player range, options with defaults, presets that parse, action/event types."""
    assert GAMES[name].info.name == name
    testing.check_info(GAMES[name])


@pytest.mark.parametrize(("name", "case", "seed"), PARAMS)
def test_random_playout_keeps_every_invariant(name: str, case: dict[str, Any], seed: int) -> None:
    """A random game to the end, checking every invariant at every step, then its replay."""
    build_options(GAMES[name], case)
    testing.check_playout(GAMES[name], case, seed)


@pytest.mark.parametrize("name", list(GAMES))
def test_malformed_actions_raise_decode_error(name: str) -> None:
    """Malformed action JSON gives DecodeError (a ValueError) with a message, never another exception."""
    testing.check_malformed_json(GAMES[name])
