"""One scripted-deal test per numbered rule of the Wizard issue, named after the rule it proves.

Card notation: R/Y/G/B + rank for red, yellow, green, blue; W1–W4 wizards; N1–N4 jesters.
"""

from __future__ import annotations

import pytest

from cardtable.cards import WIZARD_60
from cardtable.core import IllegalAction, InvalidOptions
from cardtable.games.wizard import rules
from cardtable.games.wizard.actions import Bid, ChooseTrump, Play
from cardtable.games.wizard.events import BidsRevealed, HiddenBidPlaced, OwnBid, TrumpTurned
from cardtable.games.wizard.testing import card_ids, stack_deck
from tests.wizard.script import GAME, act, start


def ids(text: str) -> list[int]:
    """Card ids from notation."""
    return card_ids(text)


# Rule 1: players and rounds.


def test_rule_1_three_to_six_players_and_sixty_over_players_rounds() -> None:
    """3 → 20, 4 → 15, 5 → 12, 6 → 10 rounds; round n deals n cards; 'rounds' shortens, never lengthens."""
    assert [rules.total_rounds(p) for p in (3, 4, 5, 6)] == [20, 15, 12, 10]
    assert (rules.MIN_PLAYERS, rules.MAX_PLAYERS) == (3, 6)
    for bad in (2, 7):
        with pytest.raises(InvalidOptions):
            GAME.options(players=bad)
    assert GAME.options(players=6, rounds=10).game_rounds() == 10
    assert GAME.options(players=5, rounds="5").game_rounds() == 5
    assert GAME.options(players=6, rounds=10).game_rounds() == GAME.options(players=6).game_rounds()
    state, _ = GAME.new(GAME.options(players=4, rounds=5), 3)
    sizes = []
    while GAME.to_act(state) is not None:
        if state.phase == "bidding" and state.round > len(sizes):
            sizes.append({h.bit_count() for h in state.hands})
        seat = GAME.to_act(state)
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert sizes == [{1}, {2}, {3}, {4}, {5}]
    assert len(state.sheet) == 5


# Rule 2: the deal.


def test_rule_2_deal_one_at_a_time_from_left_of_dealer_then_turn_trump() -> None:
    """Cards go one at a time starting left of the dealer; the next card is trump and out of play."""
    deck = list(range(60))
    state, _ = GAME.new_with_decks(GAME.options(players=3, first_dealer=1), 1, [deck, deck])
    # Round 1, dealer 1: seat 2 gets card 0, seat 0 card 1, seat 1 card 2; card 3 turned.
    assert [rules.cards_of(h) for h in state.hands] == [[1], [2], [0]]
    assert state.trump_card == 3 and state.trump == 0
    assert 3 not in GAME.observe(state, 0).hand
    assert GAME.hidden_cards(state, 0) == frozenset({0, 2} | set(range(4, 60)))
    state = act(state, "bid 0", "bid 0", "bid 0", "play R1", "play R2", "play R3")
    # Round 2, dealer 2: seat 0 gets 0 and 3, seat 1 gets 1 and 4, seat 2 gets 2 and 5; card 6 turned.
    assert [rules.cards_of(h) for h in state.hands] == [[0, 3], [1, 4], [2, 5]]
    assert state.trump_card == 6


def test_rule_2_last_round_deals_every_card_and_has_no_trump() -> None:
    """In the last round every card is dealt: no trump card, no trump."""
    hands = [" ".join(WIZARD_60.text(c) for c in range(s, 60, 6)) for s in range(6)]
    state = start(hands, dealer=2, round_no=10)
    assert state.round == state.rounds == 10
    assert state.trump_card is None and state.trump == -1
    obs = GAME.observe(state, 0)
    assert obs.trump_card is None and obs.trump_text == "no trump"
    assert sum(obs.hand_sizes) == 60


def test_rule_2_every_round_is_a_fresh_shuffle_from_the_seed() -> None:
    """Two rounds deal different hands, and the same seed deals the same game."""
    opts = GAME.options(players=4)
    a, _ = GAME.new(opts, 11)
    b, _ = GAME.new(opts, 11)
    assert a.hands == b.hands and a.trump_card == b.trump_card
    c, _ = GAME.new(opts, 12)
    assert (a.hands, a.trump_card) != (c.hands, c.trump_card)


# Rule 3: dealer and first player.


def test_rule_3_dealer_moves_left_and_left_of_dealer_bids_and_leads() -> None:
    """The deal moves one seat left each round; left of the dealer bids first and leads the first trick."""
    state = start(["R1", "R2", "R3", "R4"], dealer=3, trump="Y5")
    assert GAME.to_act(state) == 0 and state.phase == "bidding"
    state = act(state, "bid 0", "bid 0", "bid 0", "bid 1")
    assert state.phase == "playing" and GAME.to_act(state) == 0
    state = act(state, "play R1", "play R2", "play R3", "play R4")
    assert state.round == 2 and state.dealer == 0 and GAME.to_act(state) == 1
    dealers = {GAME.new(GAME.options(players=5), seed)[0].dealer for seed in range(40)}
    assert dealers == set(range(5)), "the first dealer is drawn from the seed"


# Rule 4: trump.


def test_rule_4_number_card_makes_its_suit_trump() -> None:
    """A number card turned up makes its suit trump."""
    state = start(["R1", "R2", "R3"], trump="G9")
    assert state.trump == 2 and GAME.observe(state, None).trump_text == "green"


def test_rule_4_jester_turned_means_no_trump() -> None:
    """A jester turned up: no trump."""
    state = start(["R1", "R2", "R3"], trump="N3")
    assert state.trump == -1 and state.phase == "bidding"
    assert GAME.observe(state, 1).trump_text == "no trump"


def test_rule_4_wizard_turned_dealer_chooses_before_bidding() -> None:
    """wizard_trump=dealer_chooses: the dealer, having seen his hand, names trump before anyone bids."""
    state, events = GAME.new_with_decks(GAME.options(players=3, first_dealer=2), 1,
                                        [stack_deck(["R1", "R2", "R3"], 2, "W2")])
    assert any(isinstance(e, TrumpTurned) and e.dealer_chooses for e in events)
    assert state.phase == "choosing_trump" and GAME.to_act(state) == 2
    obs = GAME.observe(state, 0)
    assert obs.trump_suit is None and obs.trump_text == "to be named by the dealer"
    assert GAME.legal_actions(state, 2) == [ChooseTrump(s) for s in ("red", "yellow", "green", "blue")]  # type: ignore[arg-type]
    with pytest.raises(IllegalAction):
        GAME.apply(state, 2, Bid(0))
    state = act(state, "trump blue")
    assert state.trump == 3 and state.phase == "bidding" and GAME.to_act(state) == 0
    assert GAME.observe(state, 1).trump_text == "blue"


def test_rule_4_wizard_turned_no_trump_option() -> None:
    """wizard_trump=no_trump: a wizard turned up means the round has no trump; bidding starts at once."""
    state = start(["R1", "R2", "R3"], dealer=2, trump="W2", wizard_trump="no_trump")
    assert state.trump == -1 and state.phase == "bidding" and GAME.to_act(state) == 0


# Rule 5: bidding.


def test_rule_5_bids_in_turn_dealer_last_zero_to_n() -> None:
    """Bids go round from left of the dealer, the dealer last; any bid 0…n by default, even summing to n."""
    state = start(["R1 R2", "R3 R4", "R5 R6"], dealer=1, trump="Y1", round_no=2)
    assert GAME.to_act(state) == 2
    assert GAME.legal_actions(state, 2) == [Bid(0), Bid(1), Bid(2)]
    with pytest.raises(IllegalAction, match="0 to 2"):
        GAME.apply(state, 2, Bid(3))
    state = act(state, "bid 1", "bid 1")
    assert GAME.to_act(state) == 1 and GAME.legal_actions(state, 1) == [Bid(0), Bid(1), Bid(2)]


def test_rule_5_bids_may_not_equal_tricks_forbids_one_last_bid() -> None:
    """With the sum rule the dealer may not bid the value that makes the bids add up to n."""
    hands = ["R1 R2 R3 R4 R5", "Y1 Y2 Y3 Y4 Y5", "G1 G2 G3 G4 G5", "B1 B2 B3 B4 B5"]
    state = start(hands, dealer=3, trump="R9", round_no=5, bids_may_not_equal_tricks=True)
    state = act(state, "bid 1", "bid 2", "bid 0")
    assert GAME.to_act(state) == 3
    assert [a.tricks for a in GAME.legal_actions(state, 3)] == [0, 1, 3, 4, 5]
    assert GAME.observe(state, 3).forbidden_bid == 2
    with pytest.raises(IllegalAction, match="may not add up"):
        GAME.apply(state, 3, Bid(2))


def test_rule_5_sum_rule_off_when_the_others_already_overbid() -> None:
    """If the others already bid more than n, no last bid makes the sum n: nothing is forbidden."""
    state = start(["R1", "R2", "R3"], dealer=2, trump="Y1", bids_may_not_equal_tricks=True)
    state = act(state, "bid 1", "bid 1")
    assert [a.tricks for a in GAME.legal_actions(state, 2)] == [0, 1]


# Rule 6: hidden bids.


def test_rule_6_hidden_bids_revealed_when_the_last_bid_is_placed() -> None:
    """Each seat sees only its own bid and who has bid, until the last bid reveals them all."""
    state = start(["R1 R2", "R3 R4", "R5 R6"], dealer=2, trump="Y1", round_no=2, hidden_bids=True)
    state, events = GAME.apply(state, 0, Bid(2))
    assert [type(e) for e in events] == [HiddenBidPlaced, OwnBid]
    assert events[1].audience() == frozenset({0}) and events[0].audience() is None
    state = act(state, "bid 1")
    seen_by_1 = GAME.observe(state, 1)
    assert seen_by_1.bids == (None, 1, None) and seen_by_1.has_bid == (True, True, False)
    assert seen_by_1.bids_hidden
    assert GAME.observe(state, None).bids == (None, None, None)
    state, events = GAME.apply(state, 2, Bid(0))
    assert isinstance(events[-1], BidsRevealed) and events[-1].bids == (2, 1, 0)
    assert GAME.observe(state, 1).bids == (2, 1, 0) and not GAME.observe(state, 1).bids_hidden


def test_rule_6_hidden_bids_with_sum_rule_last_bidder_can_deduce_the_sum() -> None:
    """Documented consequence: with both toggles the forbidden value tells the dealer the others' sum."""
    state = start(["R1 R2", "R3 R4", "R5 R6"], dealer=2, trump="Y1", round_no=2, hidden_bids=True,
                  bids_may_not_equal_tricks=True)
    state = act(state, "bid 1", "bid 0")
    obs = GAME.observe(state, 2)
    assert obs.bids == (None, None, None)
    assert obs.round - obs.forbidden_bid == 1  # the others' sum, deduced


def test_rule_6_hidden_bids_forbidden_value_shown_to_the_dealer_only() -> None:
    """The forbidden last bid gives the sum away, so while bids are hidden no one but the dealer sees it."""
    state = start(["R1 R2", "R3 R4", "R5 R6"], dealer=2, trump="Y1", round_no=2, hidden_bids=True,
                  bids_may_not_equal_tricks=True)
    state = act(state, "bid 1", "bid 0")
    assert GAME.observe(state, 2).forbidden_bid == 1
    # Seat 0 knows its own bid 1; the value would tell it seat 1 bid 0.
    assert GAME.observe(state, 0).forbidden_bid is None
    assert GAME.observe(state, 1).forbidden_bid is None
    assert GAME.observe(state, None).forbidden_bid is None


def test_rule_6_open_bids_forbidden_value_shown_to_everyone() -> None:
    """With open bids the sum is public anyway, so every seat sees the forbidden last bid."""
    state = start(["R1 R2", "R3 R4", "R5 R6"], dealer=2, trump="Y1", round_no=2,
                  bids_may_not_equal_tricks=True)
    state = act(state, "bid 1", "bid 0")
    assert [GAME.observe(state, seat).forbidden_bid for seat in (0, 1, 2, None)] == [1, 1, 1, 1]


# Rule 7: the lead suit.


def test_rule_7_lead_suit_skips_jesters_and_wizard_first_means_none() -> None:
    """Jesters are skipped; a number card sets the suit; a wizard first means no suit for the trick."""
    assert rules.lead_suit(ids("N1 N2")) is None
    assert rules.lead_suit(ids("N1 Y7 R13")) == 1
    assert rules.lead_suit(ids("N1 W1 Y7")) is None
    assert rules.lead_suit(ids("W1 Y7")) is None
    assert rules.lead_suit(ids("G3 W1")) == 2
    assert rules.lead_suit([]) is None


def test_rule_7_jester_led_trick_takes_its_suit_from_the_next_number_card() -> None:
    """After a jester lead, the first number card sets the suit the others must follow."""
    state = start(["N1 B2", "Y5 B9", "R3 Y9"], dealer=2, trump="G1", round_no=2)
    state = act(state, "bid 0", "bid 0", "bid 0", "play N1", "play Y5")
    assert GAME.legal_actions(state, 2) == [Play(WIZARD_60.parse("Y9"))]
    assert GAME.observe(state, 2).lead_suit == 1


def test_rule_7_wizard_led_trick_has_no_suit_to_follow() -> None:
    """After a wizard lead everyone may play anything."""
    state = start(["W1 B2", "Y5 B9", "R3 Y9"], dealer=2, trump="G1", round_no=2)
    state = act(state, "bid 0", "bid 0", "bid 0", "play W1", "play Y5")
    assert [a.card for a in GAME.legal_actions(state, 2)] == ids("R3 Y9")


# Rule 8: legal cards.


def test_rule_8_must_follow_suit_but_wizards_and_jesters_always_allowed() -> None:
    """Holding the lead suit: that suit, wizards or jesters; void: anything."""
    hand = ids("R2 R9 Y4 W3 N2")
    assert rules.legal_cards(hand, ids("R5")) == ids("R2 R9 W3 N2")
    assert rules.legal_cards(hand, ids("G5")) == sorted(hand)
    assert rules.legal_cards(hand, []) == sorted(hand)
    state = start(["R5 G1", "R2 Y4", "W3 R9"], dealer=2, trump="B1", round_no=2)
    state = act(state, "bid 0", "bid 0", "bid 0", "play R5")
    with pytest.raises(IllegalAction, match="follow red"):
        GAME.apply(state, 1, Play(WIZARD_60.parse("Y4")))
    with pytest.raises(IllegalAction, match="not in your hand"):
        GAME.apply(state, 1, Play(WIZARD_60.parse("G1")))
    assert [a.card for a in GAME.legal_actions(state, 1)] == ids("R2")


# Rule 9: who takes the trick.


def test_rule_9_trick_winner_first_wizard_then_trump_then_lead_suit() -> None:
    """First wizard; else highest trump; else highest of the lead suit; all jesters: the first jester."""
    assert rules.trick_winner(ids("R5 W2 W1 Y13"), 1) == 1
    assert rules.trick_winner(ids("R5 Y2 R13 Y9"), 1) == 3
    assert rules.trick_winner(ids("R5 G12 R13 R9"), 1) == 2
    assert rules.trick_winner(ids("R5 G12 R13 R9"), None) == 2
    assert rules.trick_winner(ids("N3 R5 G13"), None) == 1
    assert rules.trick_winner(ids("N3 N1 N4"), 0) == 0
    assert rules.trick_winner(ids("N3 N1 W4 N2"), 0) == 2
    assert rules.trick_winner(ids("W3 R13 Y13"), 0) == 0


def test_rule_9_all_jester_trick_goes_to_the_first_jester_who_then_leads() -> None:
    """A trick of only jesters goes to the first jester; the winner leads the next trick."""
    state = start(["R1 N1", "R2 N2", "R3 N3"], dealer=0, trump="B1", round_no=2)
    state = act(state, "bid 0", "bid 0", "bid 0", "play N2", "play N3", "play N1")
    assert state.tricks == (0, 1, 0) and GAME.to_act(state) == 1
    obs = GAME.observe(state, 0)
    assert obs.last_trick_winner == 1 and [p.seat for p in obs.last_trick] == [1, 2, 0]


def test_rule_9_winner_leads_next_trick() -> None:
    """The trump winner of trick one leads trick two."""
    state = start(["R9 R1", "G2 Y1", "R3 G4"], dealer=2, trump="Y8", round_no=2)
    state = act(state, "bid 0", "bid 0", "bid 0", "play R9", "play Y1", "play R3")
    assert state.tricks == (0, 1, 0) and GAME.to_act(state) == 1


# Rule 10: scoring.


def test_rule_10_round_score() -> None:
    """Exact: 20 + 10 per trick; missed: −10 per trick off."""
    assert [rules.round_score(b, t) for b, t in [(0, 0), (3, 3), (2, 0), (1, 4), (0, 2)]] == [20, 50, -20, -30, -20]
    state = start(["W1", "R2", "R3"], dealer=2, trump="Y8")
    state = act(state, "bid 1", "bid 1", "bid 0", "play W1", "play R2", "play R3")
    row = GAME.observe(state, 0).score_sheet[0]
    assert row.bids == (1, 1, 0) and row.tricks == (1, 0, 0) and row.points == (30, -10, 20)
    assert state.totals == (30, -10, 20)


# Rule 11: the end.


def test_rule_11_game_ends_after_last_round_and_ties_share_the_win() -> None:
    """After the last round the game is over; every seat with the highest total wins (here two tie)."""
    top = ["W1", "W2", "W3", "W4", "R13"]
    decks = [stack_deck([[f"Y{k}" for k in range(1, n + 1)], [f"G{k}" for k in range(1, n + 1)], top[:n]],
                        dealer=(n - 1) % 3, trump_card="R12") for n in range(1, 6)]
    state, _ = GAME.new_with_decks(GAME.options(players=3, rounds=5, first_dealer=0), 1, decks)
    while GAME.to_act(state) is not None:
        assert GAME.outcome(state) is None
        seat = GAME.to_act(state)
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])  # bid 0, lowest card
    assert len(state.sheet) == 5 and [row.tricks[2] for row in state.sheet] == [1, 2, 3, 4, 5]
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.scores == (100.0, 100.0, -150.0)
    assert outcome.winners == (0, 1) and outcome.win_share(1) == 0.5
    assert GAME.legal_actions(state, 0) == [] and GAME.observe(state, 0).phase == "finished"
    with pytest.raises(IllegalAction, match="over"):
        GAME.apply(state, 0, Bid(0))
