"""Scripted deals, one test per numbered rule of the Kaiser issue (docs/rules/kaiser.md)."""

from __future__ import annotations

import random

import pytest

from cardtable.cards import KAISER_32
from cardtable.core import IllegalAction, InvalidOptions
from cardtable.games.kaiser import rules
from cardtable.games.kaiser.actions import PASS, Bid, NameTrump, Play
from cardtable.games.kaiser.events import CardsDealt, ContractWon, GameEnded, HandScored, HandStarted
from cardtable.games.kaiser.options import KaiserOptions
from cardtable.games.kaiser.rules import HAND_CAP, game_verdict
from cardtable.games.kaiser.testing import GAME, deal_hands, play_script
from tests.kaiser.deals import (
    DEFENDERS_MINUS_TWO,
    DEFENDERS_MINUS_TWO_TRICKS,
    ONE_SUIT_EACH,
    SPLIT_SEVEN_THREE,
    SPLIT_SEVEN_THREE_TRICKS,
    play_lowest,
    play_tricks,
)


def card(text: str) -> int:
    """A Kaiser card id from its text."""
    return KAISER_32.parse(text)


def scored(events: list[object]) -> HandScored:
    """The hand's HandScored event."""
    return next(e for e in events if isinstance(e, HandScored))


def test_rule_01_four_players_in_two_partnerships() -> None:
    """Four seats only; seats 0 and 2 against 1 and 3, and a partner's trick counts for the side."""
    assert GAME.info.has_teams and GAME.info.min_players == GAME.info.max_players == 4
    assert GAME.teams(KaiserOptions()) == ((0, 2), (1, 3))
    for players in (3, 5):
        with pytest.raises(InvalidOptions):
            GAME.options(players=players)
    state = deal_hands(DEFENDERS_MINUS_TWO, dealer=0, contract=(1, 6, "hearts"))
    state, _ = play_tricks(state, DEFENDERS_MINUS_TWO_TRICKS[:1])
    assert GAME.observe(state, 3).points_taken == (0, 6)  # seat 1 took it for seats 1 and 3


def test_rule_02_thirty_two_cards_and_low_cards_rank_lowest() -> None:
    """8–A in every suit plus 7♣ 7♦ 5♥ 3♠, each the lowest of its suit; ranks run down from the ace."""
    assert len(KAISER_32) == 32
    texts = {KAISER_32.text(c) for c in range(32)}
    assert {"7♣", "7♦", "5♥", "3♠"} <= texts and not {"7♠", "7♥"} & texts
    state = deal_hands(SPLIT_SEVEN_THREE, contract=(0, 6, "nt"))
    state, _ = play_tricks(state, ["J♠ 8♥ 3♠ 9♦"])
    assert GAME.observe(state, 0).last_trick_winner == 0  # the jack beats the three
    for low, high in (("3♠", "8♠"), ("5♥", "8♥"), ("7♦", "8♦"), ("7♣", "8♣"), ("K♣", "A♣"), ("9♥", "10♥")):
        trick = [(0, card(low)), (1, card(high))]
        assert rules.trick_winner(trick, rules.NO_TRUMP) == 1


def test_rule_03_all_cards_dealt_and_the_deal_moves_left() -> None:
    """Every card is dealt, 8 to a seat, privately; the next hand is dealt by the next seat."""
    state, events = GAME.new(KaiserOptions(), seed=11)
    dealt = [e for e in events if isinstance(e, CardsDealt)]
    assert sorted(c for e in dealt for c in e.cards) == list(range(32))
    assert all(len(e.cards) == 8 and e.audience() == frozenset({e.seat}) for e in dealt)
    state = deal_hands(ONE_SUIT_EACH, dealer=3, contract=(0, 6, "spades"))
    state, events = play_lowest(state, 32)
    started = [e for e in events if isinstance(e, HandStarted)]
    assert started == [HandStarted(2, 0)]
    assert state.dealer == 0 and GAME.to_act(state) == 1
    assert all(h.bit_count() == 8 for h in state.hands)


def test_rule_04_one_round_of_bidding_from_the_floor_to_ten() -> None:
    """Left of the dealer opens; each bid beats the last (no trump over a suit); the dealer is forced."""
    state = deal_hands(ONE_SUIT_EACH, dealer=1)
    assert GAME.to_act(state) == 2
    assert GAME.legal_actions(state, 2)[:3] == [PASS, Bid(6), Bid(6, True)]
    assert GAME.legal_actions(state, 2)[-1] == Bid(10, True)
    state, _ = play_script(state, "bid 7")
    assert Bid(7) not in GAME.legal_actions(state, 3) and Bid(7, True) in GAME.legal_actions(state, 3)
    state, _ = play_script(state, "bid 7nt")
    assert GAME.legal_actions(state, 0)[1] == Bid(8)
    state, _ = play_script(state, "pass")
    with pytest.raises(IllegalAction, match="must beat"):
        GAME.apply(state, 1, Bid(7, True))  # the dealer may not take it at an equal bid
    state, events = play_script(state, "pass")
    assert ContractWon(3, 7, True) in events and GAME.to_act(state) == 3 and state.phase != 0


def test_rule_04_dealer_must_bid_after_three_passes_and_toggles() -> None:
    """Three passes force the dealer to bid at least the floor; the floor and no trump are toggles."""
    for floor in (5, 6, 7, 8):
        state = deal_hands(ONE_SUIT_EACH, options=KaiserOptions(floor=floor, no_trump=False))
        state, _ = play_script(state, "pass", "pass", "pass")
        legal = GAME.legal_actions(state, 3)
        assert PASS not in legal and legal[0] == Bid(floor)
        assert not any(isinstance(a, Bid) and a.no_trump for a in legal)
        with pytest.raises(IllegalAction, match="dealer must bid"):
            GAME.apply(state, 3, PASS)
        with pytest.raises(IllegalAction, match=f"from {floor} to 10"):
            GAME.apply(state, 3, Bid(floor - 1))
    state = deal_hands(ONE_SUIT_EACH)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, Bid(11))
    state, _ = play_script(state, "bid 10nt")
    assert GAME.legal_actions(state, 1) == [PASS]


def test_rule_05_winning_bidder_names_trump_and_leads() -> None:
    """A suit bidder names trump, then leads; a no-trump bidder leads at once."""
    state = deal_hands(ONE_SUIT_EACH)
    state, _ = play_script(state, "pass", "bid 6", "pass", "pass")
    assert GAME.to_act(state) == 1
    assert GAME.legal_actions(state, 1) == [NameTrump(s) for s in ("spades", "hearts", "diamonds", "clubs")]
    with pytest.raises(IllegalAction):
        GAME.apply(state, 1, Play(card("A♥")))
    state, _ = play_script(state, "trump ♥")
    assert GAME.observe(state, 0).trump == "hearts" and GAME.to_act(state) == 1
    assert GAME.legal_actions(state, 1)[0] == Play(card("5♥"))
    state = deal_hands(ONE_SUIT_EACH)
    state, _ = play_script(state, "bid 6nt", "pass", "pass", "pass")
    assert GAME.to_act(state) == 0 and all(isinstance(a, Play) for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, NameTrump("spades"))


def test_rule_06_follow_suit_trump_wins_and_the_winner_leads() -> None:
    """Follow if you can, anything if not; trump beats all, else the highest of the led suit."""
    state = deal_hands(SPLIT_SEVEN_THREE, contract=(0, 6, "spades"))
    state, _ = play_script(state, "play A♠", "play 8♥")
    assert {a.card for a in GAME.legal_actions(state, 2)} == {card("3♠"), card("8♠"), card("9♠")}
    with pytest.raises(IllegalAction, match="must follow spades"):
        GAME.apply(state, 2, Play(card("A♥")))
    state = deal_hands(SPLIT_SEVEN_THREE, contract=(0, 6, "spades"))
    state, _ = play_tricks(state, SPLIT_SEVEN_THREE_TRICKS[:6])
    assert GAME.observe(state, 0).last_trick_winner == 1 and GAME.to_act(state) == 1  # the A♥ off-suit lost
    state = deal_hands(ONE_SUIT_EACH, contract=(0, 6, "clubs"))  # seat 0 holds no clubs at all
    assert len(GAME.legal_actions(state, 1)) == 0
    state, _ = play_script(state, "play A♠", "play A♥", "play A♦", "play 7♣")
    assert GAME.observe(state, 0).last_trick_winner == 3 and GAME.to_act(state) == 3


def test_rule_07_five_of_hearts_and_three_of_spades() -> None:
    """A trick is 1, +5 with the 5♥, −3 with the 3♠; a hand is always worth 10."""
    state = deal_hands(ONE_SUIT_EACH, contract=(0, 6, "spades"))
    state, events = play_tricks(state, ["3♠ 5♥ 7♦ 7♣"])
    assert GAME.observe(state, 0).points_taken == (3, 0)
    assert rules.trick_points([card("5♥"), 1, 2, 3]) == 6 and rules.trick_points([0, 9, 10, 11]) == -2
    rng = random.Random(7)
    for seed in range(10):
        state, _ = GAME.new(KaiserOptions(target=32), seed)
        while GAME.to_act(state) is not None:
            seat = GAME.to_act(state)
            assert seat is not None
            state, events = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
            for e in events:
                if isinstance(e, HandScored):
                    assert sum(e.taken) == rules.HAND_POINTS == 10


def test_rule_08_scoring_made_down_no_trump_and_defenders() -> None:
    """Made: what was taken; down: minus the bid; both doubled in no trump; defenders keep theirs."""
    cases = [((6, "spades"), (7, 3)), ((8, "spades"), (-8, 3)), ((6, "nt"), (14, 3)), ((8, "nt"), (-16, 3))]
    for (points, trump), change in cases:
        state = deal_hands(SPLIT_SEVEN_THREE, contract=(0, points, trump), totals=(10, 20))
        state, events = play_tricks(state, SPLIT_SEVEN_THREE_TRICKS)
        line = scored(events)
        assert line.taken == (7, 3) and line.change == change
        assert line.totals == (10 + change[0], 20 + change[1]) and line.made == (points <= 7)
    state = deal_hands(DEFENDERS_MINUS_TWO, dealer=0, contract=(1, 6, "hearts"))
    state, events = play_tricks(state, DEFENDERS_MINUS_TWO_TRICKS)
    assert scored(events).change == (-2, 12)  # defenders keep even a negative take
    assert GAME.observe(state, None).score_sheet[0].change == (-2, 12)


def test_rule_09_target_minus_target_and_both_crossing() -> None:
    """Reaching the target wins, exactly included; minus the target loses; both across: the bidders win."""
    def finish(totals: tuple[int, int], target: int = 52) -> GameEnded:
        state = deal_hands(SPLIT_SEVEN_THREE, contract=(0, 6, "spades"), totals=totals,
                           options=KaiserOptions(target=target))  # type: ignore[arg-type]
        state, events = play_tricks(state, SPLIT_SEVEN_THREE_TRICKS)
        outcome = GAME.outcome(state)
        assert outcome is not None and GAME.to_act(state) is None
        assert outcome.scores == tuple(float(t) for t in state.totals) * 2
        return next(e for e in events if isinstance(e, GameEnded))

    assert finish((45, 0)).winners == (0, 2)  # 52 exactly
    assert finish((45, 49)).winners == (0, 2)  # both reach 52: the bidders win
    assert finish((40, 49)).winners == (1, 3)  # defenders may win by reaching it alone
    assert finish((0, 29), target=32).winners == (1, 3)
    state = deal_hands(DEFENDERS_MINUS_TWO, dealer=0, contract=(1, 6, "hearts"), totals=(-50, 0))
    state, events = play_tricks(state, DEFENDERS_MINUS_TWO_TRICKS)
    ended = next(e for e in events if isinstance(e, GameEnded))
    assert ended.winners == (1, 3) and "fell to -52" in ended.reason
    state = deal_hands(SPLIT_SEVEN_THREE, contract=(0, 6, "spades"), totals=(30, 30))
    state, _ = play_tricks(state, SPLIT_SEVEN_THREE_TRICKS)
    assert GAME.outcome(state) is None and state.hand_no == 2  # 37 to 33: play on


def test_rule_09_hand_cap_ends_a_game_that_never_finishes() -> None:
    """After HAND_CAP hands the higher total wins; level totals share the win."""
    state = deal_hands(SPLIT_SEVEN_THREE, contract=(0, 6, "spades"), hand_no=HAND_CAP)
    state, _ = play_tricks(state, SPLIT_SEVEN_THREE_TRICKS)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0, 2) and "limit" in outcome.reason
    assert game_verdict((5, 5), 0, 52, HAND_CAP) == ((0, 1, 2, 3), f"the {HAND_CAP}-hand limit with the scores level")
    assert game_verdict((5, 5), 0, 52, HAND_CAP - 1) is None
    assert GAME.max_actions(KaiserOptions()) >= HAND_CAP * 37
