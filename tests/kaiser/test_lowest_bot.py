"""The ``lowest`` baseline: a plain count for the bidding, the longest suit as trump, the lowest card."""

from __future__ import annotations

import cardtable
from cardtable.cards import KAISER_32
from cardtable.games.kaiser.actions import PASS, Bid, NameTrump, Play
from cardtable.games.kaiser.options import KaiserOptions
from cardtable.games.kaiser.players.baselines import LowestBot, count_points, longest_suit
from cardtable.games.kaiser.players.heuristic import HeuristicBot
from cardtable.games.kaiser.state import KaiserState
from cardtable.games.kaiser.testing import GAME, deal_hands, play_script
from tests.kaiser.deals import ONE_SUIT_EACH
from tests.kaiser.test_bot import MIXED


def ids(text: str) -> list[int]:
    """Card ids from text."""
    return KAISER_32.parse_many(text)


def lowest_move(state: KaiserState) -> object:
    """What the baseline does for the seat to act."""
    seat = GAME.to_act(state)
    assert seat is not None
    return LowestBot(0).act(GAME.observe(state, seat), GAME.legal_actions(state, seat))


def test_count_points_counts_aces_kings_the_five_the_three_and_length() -> None:
    """Aces 1, kings ½, the 5♥ 2, the 3♠ −1, one per card beyond four in the longest suit."""
    assert count_points(ids("A♠ K♠ Q♠ 9♠ 8♥ 9♦ 8♣ 9♣")) == 1.5
    assert count_points(ids("A♠ K♠ Q♠ J♠ 10♠ 9♠ 5♥ 3♠")) == 1 + 0.5 + 2 - 1 + 3  # seven spades
    assert longest_suit(ids("A♠ K♠ 8♥ 9♥ 10♥ 9♦ 8♣ 9♣")) == 1
    assert longest_suit(ids("A♠ K♠ 8♥ 9♥ 9♦ 10♦ 8♣ 9♣")) == 0  # two each: the higher ranks


def test_bids_the_lowest_suit_bid_with_a_strong_count_and_passes_a_weak_one() -> None:
    """Seat 0 with a whole suit and the 3♠ counts 1 + ½ − 1 + 4 = 4.5 ≥ 6 − 2.5: it bids 6; a weak hand passes."""
    assert lowest_move(deal_hands(ONE_SUIT_EACH)) == Bid(6)
    assert lowest_move(deal_hands(ONE_SUIT_EACH, options=KaiserOptions(floor=8))) == PASS  # type: ignore[arg-type]
    assert lowest_move(deal_hands(MIXED)) == PASS


def test_the_forced_dealer_bids_the_lowest_suit_bid_and_names_the_longest_suit() -> None:
    """Three passes force the dealer to bid; the winning bidder names its longest suit."""
    state, _ = play_script(deal_hands(MIXED), "pass", "pass", "pass")
    assert PASS not in GAME.legal_actions(state, 3)
    assert lowest_move(state) == Bid(6)
    state, _ = play_script(state, "bid 6")
    assert lowest_move(state) == NameTrump("spades")  # seat 3: three hearts (Q J 10), three higher spades (K Q 10)


def test_plays_its_lowest_legal_card() -> None:
    """Leading, it plays its lowest rank; following, the lowest card that follows suit."""
    state, _ = play_script(deal_hands(MIXED), "pass", "pass", "pass", "bid 6", "trump hearts")
    seat = GAME.to_act(state)
    assert seat is not None
    move = lowest_move(state)
    assert isinstance(move, Play)
    legal = [a.card for a in GAME.legal_actions(state, seat) if isinstance(a, Play)]
    assert move.card & 7 == min(c & 7 for c in legal)
    state, _ = GAME.apply(state, seat, move)
    follower = GAME.to_act(state)
    assert follower is not None
    follow = lowest_move(state)
    assert isinstance(follow, Play)
    legal = [a.card for a in GAME.legal_actions(state, follower) if isinstance(a, Play)]
    assert follow.card in legal and follow.card & 7 == min(c & 7 for c in legal)


def test_listed_after_the_heuristic_and_plays_whole_games_legally() -> None:
    """The game lists it after ``heuristic``; 20 games to 32 against the heuristic end, every move legal.

    The heuristic pair wins most of them: the baseline is weaker than the bot it is a baseline for.
    """
    assert list(cardtable.load_game("kaiser").bots())[:2] == ["heuristic", "lowest"]
    wins = 0
    for i in range(20):
        side = i % 2
        bots = [HeuristicBot(i) if s % 2 == side else LowestBot(i) for s in range(4)]
        state, _ = GAME.new(KaiserOptions(target=32), i)
        while (seat := GAME.to_act(state)) is not None:
            legal = GAME.legal_actions(state, seat)
            action = bots[seat].act(GAME.observe(state, seat), legal)
            assert action in legal
            state, _ = GAME.apply(state, seat, action)
        outcome = GAME.outcome(state)
        assert outcome is not None
        wins += side in outcome.winners and len(outcome.winners) == 2
    assert wins >= 12
