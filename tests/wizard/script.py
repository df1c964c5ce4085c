"""Test helpers: start a Wizard game at a scripted deal and apply actions by text."""

from __future__ import annotations

import random
from typing import Any

import cardtable
from cardtable.games.wizard.actions import Play
from cardtable.games.wizard.game import WizardGame
from cardtable.games.wizard.testing import stack_deck

GAME: WizardGame = cardtable.load_game("wizard")  # type: ignore[assignment]


def start(hands: list[str], *, dealer: int = 0, trump: str | None = None, round_no: int = 1,
          **options: Any) -> Any:
    """A game whose round ``round_no`` deals exactly ``hands`` with ``dealer`` dealing.

    Earlier rounds are dealt from an unshuffled deck and played out with the first legal action.
    """
    opts = GAME.options(players=len(hands), first_dealer=(dealer - round_no + 1) % len(hands), **options)
    decks = [list(range(60))] * (round_no - 1) + [stack_deck(hands, dealer, trump)]
    state, _ = GAME.new_with_decks(opts, 7, decks)
    while state.round < round_no:
        seat = GAME.to_act(state)
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert state.dealer == dealer and [h.bit_count() for h in state.hands] == [round_no] * len(hands)
    return state


def act(state: Any, *texts: str) -> Any:
    """Apply actions by text, each by the seat to act."""
    for text in texts:
        state, _ = GAME.apply(state, GAME.to_act(state), GAME.parse_action(text))
    return state


def decisions(seed: int, count: int, *, plays_only: bool = False, **options: Any) -> list[tuple[Any, int]]:
    """Positions (state, seat) with two or more legal actions (``plays_only``: card plays only) from a game of
    random moves."""
    rng = random.Random(seed)
    state, _ = GAME.new(GAME.options(**options), seed)
    out = []
    while (seat := GAME.to_act(state)) is not None and len(out) < count:
        legal = GAME.legal_actions(state, seat)
        if len(legal) > 1 and (not plays_only or isinstance(legal[0], Play)):
            out.append((state, seat))
        state, _ = GAME.apply(state, seat, legal[rng.randrange(len(legal))])
    return out
