"""Kaiser's search bot: worlds fitted to the bidding, legal and reproducible moves, its value and candidates."""

from __future__ import annotations

import random
import statistics

import cardtable
from cardtable.bots import make_bot
from cardtable.games.kaiser import world
from cardtable.games.kaiser.actions import PASS, Bid
from cardtable.games.kaiser.playout import HandEnd, rate_hand
from cardtable.games.kaiser.testing import GAME, deal_hands, play_script
from tests.bots.worlds import random_positions
from tests.kaiser.test_bot import MIXED


def _bid_state() -> object:
    """Seat 0 passed, seat 1 bid 8 in a suit, seat 2 passed: seat 3 (the dealer) to call."""
    state, _ = play_script(deal_hands(MIXED), "pass", "bid 8", "pass")
    return state


def test_the_bidding_bounds_read_passes_and_bids_as_the_heuristic_rule() -> None:
    obs = GAME.observe(_bid_state(), 3)  # type: ignore[arg-type]
    bounds = {b[0]: b[2:] for b in world.bid_bounds(obs)}
    assert set(bounds) == {0, 1, 2}
    assert bounds[0][0] == 6 - 2.5 and bounds[0][2] == -world.INF  # passed below the floor
    assert bounds[1][2] == 8 - 2.5  # bid 8: rates at least 5.5 in its suit
    assert bounds[1][0] == 6 - 2.5 and bounds[1][1] == 6 - 2.5 + 1  # and skipped 6, 6 nt, 7, 7 nt
    assert bounds[2][:2] == (9 - 2.5, 8 - 2.5 + 1)  # passed over 8: below 9 in a suit and 8 no trump


def test_fitted_worlds_agree_with_the_observation_and_rate_the_bidder_higher() -> None:
    obs = GAME.observe(_bid_state(), 3)  # type: ignore[arg-type]
    rng = random.Random(4)
    fitted = [world.sample_fitting_world(obs, rng) for _ in range(60)]
    plain = [GAME.sample_world(obs, rng) for _ in range(60)]
    for w in fitted:
        assert GAME.observe(w, 3) == obs
    assert statistics.fmean(rate_hand(w.hands[1])[1] for w in fitted) > \
        statistics.fmean(rate_hand(w.hands[1])[1] for w in plain) + 0.5


def test_fitted_worlds_agree_with_observations_met_in_play() -> None:
    rng = random.Random(6)
    checked = 0
    for state, seat in random_positions("kaiser", games=2, every=5, seed=3, target=32):
        obs = GAME.observe(state, seat)
        w = world.sample_fitting_world(obs, rng)
        assert GAME.observe(w, seat) == obs
        assert GAME.legal_actions(w, seat) == GAME.legal_actions(state, seat)
        checked += 1
    assert checked > 20


def test_the_search_is_reproducible_and_legal() -> None:
    game = cardtable.load_game("kaiser")
    first, second = make_bot(game, "search:sims=30", 9), make_bot(game, "search:sims=30", 9)
    for state, seat in random_positions("kaiser", games=1, every=7, seed=5)[:8]:
        obs, legal = game.observe(state, seat), game.legal_actions(state, seat)
        move = first.act(obs, legal)
        assert move in legal and move == second.act(obs, legal)


def test_the_value_prefers_winning_the_game_to_any_hand_swing() -> None:
    assert world.hand_value(HandEnd((10, 0), -1), 0) == 0.5
    assert world.hand_value(HandEnd((10, 0), -1), 1) == -0.5
    assert world.hand_value(HandEnd((-20, 2), 1), 3) > world.hand_value(HandEnd((20, 0), -1), 3)
    assert world.hand_value(HandEnd((0, 12), 0), 2) == world.WIN_VALUE
    assert world.hand_value(HandEnd((0, 0), 2), 2) == 0.0


def test_the_bidding_candidates_are_a_pass_and_the_lowest_bids() -> None:
    state, _ = play_script(deal_hands(MIXED), "pass", "bid 7")
    obs = GAME.observe(state, 2)
    legal = GAME.legal_actions(state, 2)
    assert list(world.candidate_calls(obs, legal)) == [PASS, Bid(7, True), Bid(8), Bid(8, True), Bid(9)]
    play = GAME.legal_actions(deal_hands(MIXED, contract=(0, 6, "nt")), 0)
    assert world.candidate_calls(obs, play) == play
