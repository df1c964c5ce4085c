"""Wizard's search reads the others' plays: a deal that explains them weighs more."""

from __future__ import annotations

import random

from cardtable.games.wizard.actions import Play
from cardtable.games.wizard.players import inference, playout
from cardtable.games.wizard.players.heuristic import HeuristicBot
from cardtable.games.wizard.world import sample_hands
from tests.wizard.script import GAME


def _policy_game_positions(seed: int, players: int) -> list[tuple[object, int]]:
    """Positions of a game where every seat bids as the heuristic and plays the playout policy's card."""
    heuristic = HeuristicBot(seed)
    state, _ = GAME.new(GAME.options(players=players, rounds=5), seed)
    out = []
    while (seat := GAME.to_act(state)) is not None:
        obs, legal = GAME.observe(state, seat), GAME.legal_actions(state, seat)
        if isinstance(legal[0], Play):
            out.append((state, seat))
            action: object = Play(playout.policy_card(obs))
        else:
            action = heuristic.act(obs, legal)
        state, _ = GAME.apply(state, seat, action)  # type: ignore[arg-type]
    return out


def test_the_true_deal_explains_every_play_of_a_policy_player() -> None:
    # Seats that play the policy: the true hands reproduce each of their plays; sampled hands miss some.
    rng = random.Random(1)
    read = sampled_misses = 0
    for players, seed in ((3, 1), (4, 2), (6, 3)):
        for state, seat in _policy_game_positions(seed, players):
            obs = GAME.observe(state, seat)
            plays = inference.play_history(obs)
            assert all(p.seat != seat for p in plays)
            mine = obs.round - len(obs.hand)  # the cards this seat played this round
            assert len(plays) == len(obs.played_cards) + len(obs.trick) - mine
            assert inference.misses(plays, list(state.hands), state.trump) == 0
            sampled_misses += inference.misses(plays, sample_hands(obs, rng)[0], state.trump)
            read += len(plays)
    assert read > 100 and sampled_misses > 0


def test_nothing_is_read_before_a_card_is_played() -> None:
    state, _ = GAME.new(GAME.options(players=4, rounds=5, hidden_bids=True), 2)
    while GAME.observe(state, 0).phase != "playing":
        seat = GAME.to_act(state)
        assert seat is not None
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    seat = GAME.to_act(state)
    assert seat is not None
    assert inference.play_history(GAME.observe(state, seat)) == []
    assert inference.play_likelihood([], [0] * 4, 0, 1.0) == 1.0


def test_cards_that_play_alike_are_not_a_miss() -> None:
    red5, red6, red8 = 4, 5, 7
    assert inference.alike(52, 54, 0) and inference.alike(56, 59, 0)
    assert not inference.alike(52, 56, 0) and not inference.alike(red5, 52, 0)
    assert inference.alike(red5, red6, 0)
    assert not inference.alike(red5, red8, 1 << red6 | 1 << 6)
    assert inference.alike(red5, red8, 0)
