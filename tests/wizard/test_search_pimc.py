"""Wizard's ``search`` bot (PIMC): its round simulator agrees with the engine, options, determinism, time cap."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from cardtable.bots import make_bot
from cardtable.games.wizard import rules
from cardtable.games.wizard.actions import Bid, Play
from cardtable.games.wizard.players import playout
from cardtable.games.wizard.players.search import PimcBot, bid_likelihood, choose, distinct_cards
from cardtable.games.wizard.world import sample_hands, shown_voids
from tests.wizard.script import GAME, decisions


def _policy_card(state: Any, seat: int, cover: int = 0) -> int:
    """The playout policy's card for ``seat`` in a real engine state (it sees the true hands; ``cover``: its
    sure-winner rule)."""
    live = 0
    for hand in state.hands:
        live |= hand
    hand = state.hands[seat]
    trump = state.trump
    return playout._choose(hand, live & ~hand, state.lead, list(state.trick), state.bids[seat] - state.tricks[seat],
                           trump, rules.SUIT_MASK[trump] if trump >= 0 else 0, rules.STRENGTH[trump + 1],
                           len(state.trick) == state.options.players - 1, cover)


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3), (6, 4)])
def test_the_round_simulator_plays_like_the_engine(players: int, seed: int) -> None:
    # Mid-round positions of real games: the simulator, given the true hands, must reach the same
    # points as the engine when every seat plays the policy's card (which the engine must accept).
    checked = 0
    for state, seat in decisions(seed, 60, players=players, rounds=5):
        if GAME.legal_actions(state, seat)[0].__class__ is not Play:
            continue
        obs = GAME.observe(state, seat)
        table = playout.Table.from_observation(obs)
        card = _policy_card(state, seat)
        expected = playout.play_round_from_card(table, list(state.hands), seat, card)
        rounds_before = len(obs.score_sheet)
        s = state
        while len(GAME.observe(s, 0).score_sheet) == rounds_before:
            actor = GAME.to_act(s)
            s, _ = GAME.apply(s, actor, Play(_policy_card(s, actor)))  # IllegalAction if the policy broke a rule
        assert list(GAME.observe(s, 0).score_sheet[-1].points) == expected
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize(("players", "seed", "cover"), [(3, 8, 1), (4, 9, 2), (5, 10, 2), (6, 11, 3)])
def test_the_round_simulator_plays_the_sure_winner_rule_like_the_engine(players: int, seed: int, cover: int) -> None:
    checked = 0
    for state, seat in decisions(seed, 80, players=players, rounds=5):
        if GAME.legal_actions(state, seat)[0].__class__ is not Play:
            continue
        table = playout.Table.from_observation(GAME.observe(state, seat))
        table.cover = cover
        card = _policy_card(state, seat, cover=cover)
        expected = playout.play_round_from_card(table, list(state.hands), seat, card)
        rounds_before = len(GAME.observe(state, 0).score_sheet)
        s = state
        while len(GAME.observe(s, 0).score_sheet) == rounds_before:
            actor = GAME.to_act(s)
            s, _ = GAME.apply(s, actor, Play(_policy_card(s, actor, cover=cover)))
        assert list(GAME.observe(s, 0).score_sheet[-1].points) == expected
        checked += 1
    assert checked >= 5


def test_a_seat_whose_wizard_covers_its_bid_ducks_with_its_other_cards() -> None:
    # Trump suit 0; suit 1 led. The seat needs one more trick and holds a wizard, a 10 and a 3 of suit 1.
    wizard, ten, three, five = 52, 13 + 9, 13 + 2, 13 + 4
    hand = rules.mask_of([wizard, ten, three])
    strength = rules.STRENGTH[0 + 1]

    def choose_card(trick: list[int], cover: int) -> int:
        others = rules.ALL_MASK & ~hand & ~rules.mask_of(trick)
        return playout._choose(hand, others, rules.lead_state(trick), trick, 1, 0, rules.SUIT_MASK[0], strength,
                               False, cover)

    assert choose_card([five], 0) == ten  # the old policy wins now with the 10 (and later with the wizard)
    assert choose_card([five], 1) == three  # the wizard will take the trick it needs: lose this one
    assert choose_card([53], 1) == ten  # another wizard holds this trick: shed the 10, keep the wizard


def test_the_search_is_wizards_search_bot_and_plays_legal_moves() -> None:
    for options in ({"players": 4}, {"players": 3, "hidden_bids": True, "bids_may_not_equal_tricks": True},
                    {"players": 6, "wizard_trump": "no_trump"}):
        bot = make_bot(GAME, "search:sims=6", 3)
        assert isinstance(bot, PimcBot)
        for state, seat in decisions(5, 25, rounds=5, **options):
            legal = GAME.legal_actions(state, seat)
            assert bot.act(GAME.observe(state, seat), legal) in legal


def test_short_games_with_search_in_every_seat_are_legal_to_the_end() -> None:
    opts = GAME.options(players=4, rounds=5, bids_may_not_equal_tricks=True)
    bots = [make_bot(GAME, "search:sims=3", s) for s in range(4)]
    state, _ = GAME.new(opts, 9)
    while (seat := GAME.to_act(state)) is not None:
        state, _ = GAME.apply(state, seat, bots[seat].act(GAME.observe(state, seat), GAME.legal_actions(state, seat)))
    assert GAME.outcome(state) is not None


def test_the_same_seed_gives_the_same_moves() -> None:
    first, second = make_bot(GAME, "search:sims=10", 7), make_bot(GAME, "search:sims=10", 7)
    moves = 0
    for state, seat in decisions(3, 12, rounds=5):
        obs, legal = GAME.observe(state, seat), GAME.legal_actions(state, seat)
        assert first.act(obs, legal) == second.act(obs, legal)
        moves += 1
    assert moves == 12


def test_a_time_cap_returns_the_best_move_so_far() -> None:
    bot = make_bot(GAME, "search:sims=1000000:ms=30", 1)
    assert isinstance(bot, PimcBot)
    state, seat = next((s, seat) for s, seat in decisions(4, 40, rounds=10)
                       if len(distinct_cards(GAME.observe(s, seat), [a.card for a in GAME.legal_actions(s, seat)
                                                                     if isinstance(a, Play)])) > 1)
    legal = GAME.legal_actions(state, seat)
    assert bot.act(GAME.observe(state, seat), legal) in legal
    assert 1 <= bot.simulations_done < 1000000  # the cap, not the count, ended it (no wall-clock bound)


@pytest.mark.parametrize(("spec", "message"), [
    ("search:sims=-3", "sims must be at least 1"),
    ("search:ms=-1", "ms must be 0"),
    ("search:fit=-1", "fit must be 0 or positive"),
    ("search:end=-1", "end must be 0 or positive"),
    ("search:z=-1", "z must be 0 or positive"),
    ("search:cover=4", "cover must be 0, 1, 2 or 3"),
    ("search:depth=3", "no option 'depth'"),
    ("search:simbid=1", "no option 'simbid'"),  # an option measured and removed
    ("search:sims=many", "must be a whole number"),
])
def test_bad_options_give_one_clear_line(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as info:
        make_bot(GAME, spec)
    assert "\n" not in str(info.value)


def test_cards_that_play_alike_are_searched_once() -> None:
    # Touching ranks of a suit (nothing unseen between them) are one candidate, as are jesters
    # and wizards; a gap someone else may hold keeps cards apart.
    state, _ = GAME.new(GAME.options(players=3, rounds=5), 1)
    red5, red6, red7, red8 = 4, 5, 6, 7
    cards = [red5, red6, red8, 52, 53, 56, 57]
    obs = replace(GAME.observe(state, 0), hand=tuple(cards), played_cards=(), trick=(), trump_card=None)
    assert distinct_cards(obs, cards) == [red5, red8, 52, 56]
    assert distinct_cards(replace(obs, played_cards=(red7,)), cards) == [red5, 52, 56]


def test_sampled_hands_keep_sizes_and_voids() -> None:
    rng = random.Random(2)
    checked = 0
    for state, seat in decisions(6, 80, players=4, rounds=10):
        obs = GAME.observe(state, seat)
        voids = shown_voids(obs)
        hands, _ = sample_hands(obs, rng)
        assert [h.bit_count() for h in hands] == list(obs.hand_sizes)
        assert hands[seat] == rules.mask_of(obs.hand)
        assert all(not hands[s] & voids[s] for s in range(4))
        checked += any(voids)
    assert checked > 3


def test_deals_that_contradict_the_bids_weigh_less() -> None:
    # Seat 1 bid 0: a deal giving it all four wizards explains that bid worse than one giving it none.
    state, _ = GAME.new(GAME.options(players=3, rounds=5, first_dealer=2), 4)
    while GAME.to_act(state) != 1:
        state, _ = GAME.apply(state, GAME.to_act(state), Bid(0))
    state, _ = GAME.apply(state, 1, Bid(0))
    seat = GAME.to_act(state)
    assert seat is not None and seat != 1
    obs = GAME.observe(state, seat)
    table = playout.Table.from_observation(obs)
    hands = list(state.hands)
    unseen = rules.ALL_MASK & ~hands[seat]
    plain = [c for c in rules.cards_of(unseen) if c < 52 and (obs.trump_card is None or c != obs.trump_card)]
    wizards = [c for c in range(52, 56) if c != obs.trump_card]
    strong, weak = list(hands), list(hands)
    strong[1] = rules.mask_of(wizards)
    weak[1] = rules.mask_of(plain[:1])
    assert bid_likelihood(obs, table, strong, 1.0) < bid_likelihood(obs, table, weak, 1.0)


def test_the_policy_move_stands_unless_another_beats_it_clearly() -> None:
    moves, weights = [10, 20], [1.0] * 4
    noisy = [[0.0, 30.0], [0.0, -25.0], [0.0, 20.0], [0.0, -15.0]]  # mean gain 2.5, spread far larger
    clear = [[0.0, 10.0], [5.0, 14.0], [-3.0, 8.0], [2.0, 11.0]]  # the same gain of about 10 on every deal
    assert choose(noisy, weights, moves, 10, 1.0) == 10
    assert choose(clear, weights, moves, 10, 2.0) == 20
    assert choose(noisy, weights, moves, 10, 0.0) == 20  # z = 0: the best mean outright
