"""The search's fast playout follows the engine's rules: its moves are legal and its scores are the engine's."""

from __future__ import annotations

import random

import pytest

from cardtable.core.errors import IllegalAction
from cardtable.games.kaiser import playout
from cardtable.games.kaiser.actions import KaiserAction
from cardtable.games.kaiser.rating import best_trump, trump_rating
from cardtable.games.kaiser.state import BIDDING, OVER, PLAY, TRUMP, KaiserState
from cardtable.games.kaiser.testing import GAME, deal_hands, play_script
from tests.bots.worlds import random_positions
from tests.kaiser.deals import ONE_SUIT_EACH


def _engine_end(state: KaiserState, moves: list[tuple[int, KaiserAction]]) -> KaiserState:
    """Apply the playout's moves through the engine, checked: an illegal move raises ``IllegalAction``."""
    for seat, action in moves:
        assert GAME.to_act(state) == seat
        state, _ = GAME.apply(state, seat, action)
    return state


def _check(state: KaiserState, rng: random.Random) -> playout.HandEnd:
    """The playout from ``state`` and the engine fed its moves end the hand alike."""
    moves: list[tuple[int, KaiserAction]] = []
    end = playout.play_hand(state, rng, lambda seat, action: moves.append((seat, action)))
    final = _engine_end(state, moves)
    assert len(final.sheet) == len(state.sheet) + 1, "the playout's moves end exactly one hand"
    assert end.change == final.sheet[-1].change
    if final.phase == OVER:
        assert final.result is not None
        winners = final.result.winners
        assert end.winner == (2 if len(winners) == 4 else winners[0] & 1)
    else:
        assert end.winner == -1
    return end


def test_the_playout_plays_legal_moves_and_scores_as_the_engine_on_random_positions() -> None:
    rng = random.Random(3)
    phases = {BIDDING: 0, TRUMP: 0, PLAY: 0}
    ended = 0
    for state, _ in random_positions("kaiser", games=4, every=1, seed=11, target=32):
        phases[state.phase] += 1
        ended += _check(state, rng).winner >= 0
    assert phases[BIDDING] >= 10 and phases[TRUMP] >= 1 and phases[PLAY] >= 100, phases
    assert ended > 0


def test_the_playout_ends_the_game_as_the_engine_does_near_the_target() -> None:
    rng = random.Random(5)
    for totals in ((50, 0), (0, 50), (48, 49), (-45, 10), (51, 51)):
        state = deal_hands(ONE_SUIT_EACH, totals=totals)
        _check(state, rng)
        state = deal_hands(ONE_SUIT_EACH, totals=totals, contract=(1, 7, "nt"))
        _check(state, rng)
        state, _ = play_script(deal_hands(ONE_SUIT_EACH, totals=totals), "pass", "bid 8", "pass", "pass")
        assert state.phase == TRUMP
        _check(state, rng)


def test_the_playouts_moves_are_refused_by_the_engine_if_tampered_with() -> None:
    """The replay check itself can fail: a card the seat does not hold is refused."""
    state = deal_hands(ONE_SUIT_EACH, contract=(0, 6, "spades"))
    moves: list[tuple[int, KaiserAction]] = []
    playout.play_hand(state, random.Random(1), lambda seat, action: moves.append((seat, action)))
    seat, _ = moves[0]
    with pytest.raises(IllegalAction):
        _engine_end(state, [(seat, moves[1][1])])  # the next seat's heart, not in this spade hand


def test_the_table_ratings_are_the_heuristic_bots_ratings() -> None:
    rng = random.Random(8)
    for _ in range(300):
        cards = rng.sample(range(32), 8)
        suit, value, nt = playout.rate_hand(sum(1 << c for c in cards))
        assert (suit, value) == (best_trump(cards)[0], pytest.approx(best_trump(cards)[1]))
        assert nt == pytest.approx(trump_rating(cards, 4))
