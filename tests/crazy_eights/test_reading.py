"""Reading the other hands by the heuristic's rules (the search's fallback): what it rules out, the deals it makes."""

from __future__ import annotations

import random

import pytest

import cardtable
from cardtable.bots import make_bot
from cardtable.games.crazy_eights.players.reading import ModelTracker, play_reveals
from cardtable.games.crazy_eights.players.search import deal_table
from cardtable.games.crazy_eights.rules import BIT, EIGHTS, SUIT_MASK
from cardtable.games.crazy_eights.testing import cards

GAME = cardtable.load_game("crazy_eights")


def test_sampled_deals_keep_the_counts_and_what_a_seat_lacks() -> None:
    state, _ = GAME.new(GAME.options(players=4), 9)
    obs = GAME.observe(state, state.turn)
    lacks = {(state.turn + 1) % 4: SUIT_MASK[1] | EIGHTS}
    rng = random.Random(1)
    for _ in range(50):
        table = deal_table(obs, rng, lacks)
        assert [h.bit_count() for h in table.hands] == list(obs.hand_counts)
        assert len(table.stock) == obs.stock_count
        for seat, mask in lacks.items():
            assert not table.hands[seat] & mask
        everything = sum(table.hands) + sum(BIT[c] for c in table.stock) + table.discards + BIT[table.top]
        assert everything == (1 << 52) - 1  # each card exactly once


def test_a_constraint_that_cannot_be_met_is_dropped() -> None:
    state, _ = GAME.new(GAME.options(players=4), 9)
    obs = GAME.observe(state, state.turn)
    table = deal_table(obs, random.Random(1), {(state.turn + 1) % 4: (1 << 52) - 1})
    assert [h.bit_count() for h in table.hands] == list(obs.hand_counts)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_what_the_reader_rules_out_is_never_in_a_heuristic_players_hand(players: int) -> None:
    checked = ruled_out = 0
    for seed in range(6):
        options = GAME.options(players=players, rounds=1, draw_until_playable=seed % 3 != 2)
        state, _ = GAME.new(options, seed)
        bots = [make_bot(GAME, "random" if s == 0 else "heuristic", seed) for s in range(players)]
        tracker = ModelTracker()
        while (seat := GAME.to_act(state)) is not None:
            obs, legal = GAME.observe(state, seat), GAME.legal_actions(state, seat)
            if seat == 0:
                tracker.before_turn(obs)
                for other, lacks in tracker.forbidden(obs).items():
                    assert not state.hands[other] & lacks
                    checked += 1
                    ruled_out += lacks.bit_count()
            action = bots[seat].act(obs, legal)
            if seat == 0:
                tracker.after_action(obs, action)
            state, _ = GAME.apply(state, seat, action)
    assert checked > 20 and ruled_out > 5 * checked


def test_a_low_card_played_says_the_costlier_ones_are_not_held() -> None:
    two, king, ace = cards("2♥ K♥ A♥")
    reveals = play_reveals(two, 1, cards("5♥")[0], endgame=False)
    assert reveals & BIT[king] and not reveals & BIT[ace] and not reveals & EIGHTS
    assert play_reveals(king, 1, cards("5♥")[0], endgame=True) & EIGHTS  # it would have unloaded an eight
