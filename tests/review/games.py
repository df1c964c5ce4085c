"""Helpers for review tests: seeded games played by named bots, kept as records."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cardtable
from cardtable.bots import make_bot
from cardtable.core.record import GameRecord, new_record
from cardtable.review.values import AnyGame


def play_record(game: AnyGame, bots: Sequence[str], seed: int, **options: Any) -> GameRecord:
    """A finished game of ``game`` with one bot per seat (seeded), as its record."""
    opts = game.options(players=len(bots), **options)
    record = new_record(game, opts, seed)
    state, _ = game.new(opts, seed)
    players = [make_bot(game, name, seed * 10 + i) for i, name in enumerate(bots)]
    while (seat := game.to_act(state)) is not None:
        action = players[seat].act(game.observe(state, seat), game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
        record = record.with_action(seat, action)
    return record


def load(name: str) -> AnyGame:
    """A registered game."""
    return cardtable.load_game(name)
