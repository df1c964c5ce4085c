"""Golden transcripts: a few whole games, as each seat saw them, diffed on every change.

A transcript is the text of every event a seat may see, then the outcome. They live in
``tests/golden/<game>/seat<N>.txt``; after an intended rules or text change, regenerate
them with ``CARDTABLE_UPDATE_GOLDEN=1 pytest tests/golden`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable.bots import bot_names, make_bot
from cardtable.runner import GameRunner

HERE = Path(__file__).parent
GOLDEN_GAMES: dict[str, dict[str, Any]] = {
    "durak": {"players": 3},
    "wizard": {"players": 4, "rounds": 5},
    "mus": {"players": 4},
    "kaiser": {"players": 4, "target": 32},
    "crazy_eights": {"players": 3, "rounds": 1},
}
SEED = 2026


def transcript(name: str) -> list[str]:
    """Play the golden game of ``name`` with the game's own best bot and return each seat's text."""
    game = cardtable.load_game(name)
    options = game.options(GOLDEN_GAMES[name])
    bot = next((b for b in bot_names(game) if b != "random"), "random")
    agents = [make_bot(game, bot, SEED + seat) for seat in range(options.players)]
    runner = GameRunner(game, options, SEED, agents)
    outcome = runner.run()
    assert outcome is not None, runner.error
    views = []
    for seat in range(options.players):
        lines = [e.text() for e in runner.events if e.is_visible_to(seat)]
        lines.append(f"outcome: scores {list(outcome.scores)}, winners {list(outcome.winners)}, {outcome.reason}")
        views.append("\n".join(lines) + "\n")
    return views


@pytest.mark.parametrize("name", list(GOLDEN_GAMES))
def test_golden_transcript_per_seat(name: str) -> None:
    assert name in cardtable.games(), f"{name} is not registered"
    views = transcript(name)
    folder = HERE / name
    if os.environ.get("CARDTABLE_UPDATE_GOLDEN") == "1":
        folder.mkdir(exist_ok=True)
        for seat, text in enumerate(views):
            (folder / f"seat{seat}.txt").write_text(text, encoding="utf-8")
    for seat, text in enumerate(views):
        path = folder / f"seat{seat}.txt"
        assert path.exists(), f"missing {path}; generate with CARDTABLE_UPDATE_GOLDEN=1"
        assert text == path.read_text(encoding="utf-8"), f"{name} seat {seat} transcript changed"


def test_every_registered_game_has_a_golden_game() -> None:
    assert set(cardtable.games()) == set(GOLDEN_GAMES)
