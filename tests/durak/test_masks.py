"""The lean Durak state: hands as position masks in hand order, the tables behind them, and the
old field names read (and, where the leak tests write them, written) through the masks."""

from __future__ import annotations

import pickle
import random

import pytest

from cardtable.cards import mask_of
from cardtable.games.durak.actions import ATTACKS, BEATS
from cardtable.games.durak.masks import FULL, LANE, NON_TRUMPS, RANK_CARDS, lane, trump_tables
from cardtable.games.durak.rules import BEATERS, DECK_SIZE, RANK, SUIT, sort_hand
from cardtable.games.durak.state import DurakSetup, position_state
from tests.durak.positions import GAME, cards, play, position


@pytest.mark.parametrize("trump", range(4))
def test_position_masks_read_out_in_hand_order_for_every_trump(trump: int) -> None:
    tables = trump_tables(trump)
    assert list(tables.order) == list(sort_hand(range(DECK_SIZE), trump))
    assert all(SUIT[tables.order[p]] == trump for p in range(27, 36))
    assert sum(tables.bit[c] for c in range(DECK_SIZE) if SUIT[c] != trump) == NON_TRUMPS
    rng = random.Random(trump)
    for _ in range(300):
        hand = rng.sample(range(DECK_SIZE), rng.randrange(0, 20))
        mask = tables.mask(hand)
        assert tables.cards_of(mask) == sort_hand(hand, trump)
        assert tables.card_ids(mask) == mask_of(hand)
        for chunk in range(4):  # the action table is the card table, card by card
            bits = mask >> 9 * chunk & 511
            cards_here = tables.cards[chunk << 9 | bits]
            assert tables.attacks[chunk << 9 | bits] == tuple(ATTACKS[c] for c in cards_here)
    for p, card in enumerate(tables.order):  # by a bit's length: position + 1
        assert tables.attack_at[(1 << p).bit_length()] == ATTACKS[card]
        assert tables.beat_at[(1 << p).bit_length()] == BEATS[card]


@pytest.mark.parametrize("trump", range(4))
def test_beaters_and_rank_masks_are_the_rules_tables_in_positions(trump: int) -> None:
    tables = trump_tables(trump)
    for card in range(DECK_SIZE):
        assert tables.card_ids(tables.beaters[card]) == BEATERS[trump][card]
        assert tables.cards_of(RANK_CARDS[card]) == sort_hand([c for c in range(DECK_SIZE) if RANK[c] == RANK[card]],
                                                             trump)


def test_packed_hands_give_each_seat_its_own_lane() -> None:
    state, _ = GAME.new(GAME.options(players=5), 3)
    tables = state.setup.tables
    for seat, hand in enumerate(state.hands):
        assert lane(state.held, seat) == tables.mask(hand) and len(hand) == 6
    assert state.held >> LANE * 5 == 0 and state.held & FULL == tables.mask(state.hands[0])


def test_a_take_and_a_stop_are_counted_per_seat_and_the_taken_cards_are_known() -> None:
    state = position(["6♣ 9♥ 6♥", "7♣ K♠", "A♥ 8♠"], trump="Q♦", deck="6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ A♠")
    state, _ = play(state, "attack 6♣", "beat 7♣", "stop")  # seat 1 defended
    assert state.defences == (0, 1, 0) and state.takes == (0, 0, 0) and state.known_cards == ((), (), ())
    state, _ = play(state, GAME.legal_actions(state, 1)[0].text(), "take")
    assert state.defences == (0, 1, 1) and state.takes == (0, 0, 1)
    obs = GAME.observe(state, 0)
    assert obs.known_cards[2] and set(obs.known_cards[2]) <= set(state.hands[2])
    assert GAME.seat_stats(state)[2]["takes"] == 1.0


def test_setup_and_state_pickle_small_and_equal() -> None:
    state, _ = GAME.new(GAME.options(players=3), 9)
    state, _ = play(state, GAME.legal_actions(state, GAME.to_act(state) or 0)[0].text())
    data = pickle.dumps(state)
    back = pickle.loads(data)
    assert len(data) < 400  # the tables are rebuilt on load, not stored
    assert back.setup == state.setup and back.setup is not state.setup and hash(back.setup) == hash(state.setup)
    assert [GAME.observe(back, s) for s in range(3)] == [GAME.observe(state, s) for s in range(3)]
    assert DurakSetup(3, False, 10, 0, (1, 2)) != DurakSetup(3, False, 10, 0, (2, 1))


def test_cards_left_out_of_a_position_are_absent_not_discarded() -> None:
    state = position(["6♣", "7♣"], trump="Q♦", gone="A♠")
    assert GAME.observe(state, 0).discarded == cards("A♠")
    assert state.gone == frozenset(cards("A♠"))
    world = position_state(2, cards("Q♦")[0], [cards("6♣"), cards("7♣")], cards("8♣ Q♦"), attacker=0, defender=1)
    assert GAME.observe(world, 0).discarded == () and GAME.observe(world, 0).deck_count == 2


def test_the_old_field_names_write_through_the_masks() -> None:
    """The leak tests (tests/rl) rename cards in ``hands``, ``deck`` and ``trump_card`` of a copy."""
    state, _ = GAME.new(GAME.options(players=3), 4)
    other = state.copy()
    hands = [list(h) for h in state.hands]
    hands[1][0], hands[2][0] = hands[2][0], hands[1][0]
    other.hands = hands
    assert other.hands == tuple(sort_hand(h, state.trump) for h in hands) and state.hands != other.hands
    other.deck = state.deck[::-1][1:] + state.deck[-1:]
    assert other.deck == state.deck[::-1][1:] + state.deck[-1:] and other.hands == tuple(
        sort_hand(h, state.trump) for h in hands)
    spade = next(c for c in range(DECK_SIZE) if SUIT[c] != state.trump)
    other.trump_card = spade  # another suit: the hands are re-sorted for it
    assert other.trump == SUIT[spade] and other.hands == tuple(sort_hand(h, SUIT[spade]) for h in hands)
    assert state.trump_card != spade and state.hands != other.hands  # the original is untouched
