"""Golden JSON: the exact bytes the codec writes for a few whole games, diffed on every change.

Each game of ``test_golden.GOLDEN_GAMES`` is played by a seeded random policy; every event, every
list of legal actions, the observation of one viewer (in turn) every few steps, every final
observation and the outcome are written with ``dumps``, one per line, to
``tests/golden/<game>/json.txt``. A codec change must leave these files byte for byte identical;
regenerate them (``CARDTABLE_UPDATE_GOLDEN=1``) only for an intended change and review the diff.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

import cardtable
from cardtable.core import dumps
from tests.golden.test_golden import GOLDEN_GAMES, SEED

HERE = Path(__file__).parent
EVERY = 7


def json_lines(name: str) -> str:
    """The golden JSON text of ``name``'s game."""
    game = cardtable.load_game(name)
    options = game.options(GOLDEN_GAMES[name])
    viewers = [*range(options.players), None]
    rng = random.Random(SEED)
    state, events = game.new(options, SEED)
    lines = [dumps(e) for e in events]
    step = 0
    while (seat := game.to_act(state)) is not None:
        legal = game.legal_actions(state, seat)
        if step % EVERY == 0:
            lines.append(dumps(game.observe(state, viewers[step // EVERY % len(viewers)])))
        lines.append(dumps(legal))
        state, events = game.apply(state, seat, legal[rng.randrange(len(legal))])
        lines += [dumps(e) for e in events]
        step += 1
    lines += [dumps(game.observe(state, viewer)) for viewer in viewers]
    lines.append(dumps(game.outcome(state)))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", list(GOLDEN_GAMES))
def test_golden_json_is_byte_identical(name: str) -> None:
    text = json_lines(name)
    path = HERE / name / "json.txt"
    if os.environ.get("CARDTABLE_UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing {path}; generate with CARDTABLE_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), f"{name}: the JSON the codec writes changed"
