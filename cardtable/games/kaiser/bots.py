"""Kaiser's computer opponent: rate each suit as trump, bid the floor, chase the 5♥, duck the 3♠.

It sees only its observation and the legal actions. Card ids follow KAISER_32: ``id >> 3``
is the suit (♠ ♥ ♦ ♣), ``id & 7`` the rank (7 = ace).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtable.core.observation import Observation
from cardtable.games.kaiser import rules
from cardtable.games.kaiser.actions import NAME_TRUMPS, PASS, Bid, KaiserAction, NameTrump, Pass, Play
from cardtable.games.kaiser.observation import KaiserObservation

ACE, KING, QUEEN = 7, 6, 5
PARTNER_SHARE = 2.5
"""What an unseen partner adds on average: a quarter of the tricks and of the 5♥/3♠ swing."""
FIVE, THREE = rules.FIVE_OF_HEARTS, rules.THREE_OF_SPADES


# Rating a hand.


def _suit_ranks(hand: Sequence[int], suit: int) -> list[int]:
    return [c & 7 for c in hand if c >> 3 == suit]


def trump_rating(hand: Sequence[int], trump: int) -> float:
    """Points this hand should take with ``trump`` (0–3, or 4 for no trump): length, top cards, 5♥ and 3♠."""
    points = 0.0
    for suit in range(4):
        ranks = _suit_ranks(hand, suit)
        points += trump_suit_value(ranks) if suit == trump else side_suit_value(ranks, trump)
    if FIVE in hand:
        points += 3.0 if trump == 1 or len(_suit_ranks(hand, 1)) >= 3 else 2.0
    if THREE in hand:
        points -= 1.0 if trump == 0 and len(_suit_ranks(hand, 0)) >= 3 else 2.0
    return points


def trump_suit_value(ranks: list[int]) -> float:
    """Tricks from the trump suit: top cards, then length beyond three."""
    value = sum({ACE: 1.0, KING: 0.8, QUEEN: 0.5}.get(r, 0.25) for r in ranks)
    return value + 0.6 * max(0, len(ranks) - 3)


def side_suit_value(ranks: list[int], trump: int) -> float:
    """Tricks from a side suit: aces and guarded kings; a void helps if there are trumps to ruff with."""
    value = 0.0
    if ACE in ranks:
        value += 0.9
    if KING in ranks and len(ranks) >= 2:
        value += 0.5 if trump < 4 else 0.6
    if trump == 4 and len(ranks) >= 5 and ACE in ranks:
        value += 0.5 * (len(ranks) - 4)  # a long suit runs in no trump
    return value


def best_trump(hand: Sequence[int]) -> tuple[int, float]:
    """The best trump suit for this hand and its rating."""
    return max(((s, trump_rating(hand, s)) for s in range(4)), key=lambda sr: sr[1])


# Bidding.


def choose_call(obs: KaiserObservation, legal: Sequence[KaiserAction]) -> KaiserAction:
    """Pass if partner holds the bid or the hand is short of it; otherwise the lowest bid the hand can make."""
    bids = [a for a in legal if isinstance(a, Bid)]
    forced = PASS not in legal
    high = obs.high_bid
    if not forced and high is not None and obs.seat is not None and high.seat == (obs.seat + 2) % 4:
        return PASS
    _, suit_value = best_trump(obs.hand)
    nt_value = trump_rating(obs.hand, 4)
    for bid in bids:  # lowest first: bid the floor rather than reaching
        value = nt_value - 1.0 if bid.no_trump else suit_value
        if value + PARTNER_SHARE >= bid.points:
            return bid
    return bids[0] if forced else PASS


# Play.


def _power(card: int, led: int, trump: int) -> int:
    return rules.card_power(card, led, trump)


def choose_card(obs: KaiserObservation, legal: Sequence[Play]) -> Play:
    """Lead strength; chase the 5♥; duck a trick holding the 3♠; leave partner's winning trick alone."""
    trump = rules.NO_TRUMP if obs.contract is None or obs.contract.no_trump else rules.SUIT_WORDS.index(
        obs.contract.trump or "spades")
    cards = [a.card for a in legal]
    if not obs.trick:
        return Play(_lead(obs, cards, trump))
    return Play(_follow(obs, cards, trump))


def _lead(obs: KaiserObservation, cards: list[int], trump: int) -> int:
    """Bidders draw trumps from the top; otherwise cash an ace; otherwise go low in a long side suit."""
    seat = obs.seat if obs.seat is not None else 0
    trumps = [c for c in cards if c >> 3 == trump]
    bidding_side = obs.contract is not None and obs.contract.bidder & 1 == seat & 1
    if bidding_side and len(trumps) >= 2 and max(trumps) & 7 >= KING:
        return max(trumps)
    aces = [c for c in cards if c & 7 == ACE and c >> 3 != trump]
    if aces:
        return aces[0]
    side = [c for c in cards if c >> 3 != trump and c not in (FIVE, THREE)] or [
        c for c in cards if c not in (FIVE, THREE)] or cards
    longest = max(range(4), key=lambda s: sum(1 for c in side if c >> 3 == s))
    return min(c for c in side if c >> 3 == longest) if any(c >> 3 == longest for c in side) else min(side)


def _follow(obs: KaiserObservation, cards: list[int], trump: int) -> int:
    """Second, third or fourth to play."""
    seat = obs.seat if obs.seat is not None else 0
    trick = [(p.seat, p.card) for p in obs.trick]
    led = trick[0][1] >> 3
    winner = rules.trick_winner(trick, trump)
    best = max(_power(c, led, trump) for _, c in trick)
    on_table = {c for _, c in trick}
    last = len(trick) == 3
    winners = [c for c in cards if _power(c, led, trump) > best]
    losers = [c for c in cards if _power(c, led, trump) <= best]
    if winner == (seat + 2) % 4:
        return _feed_partner(cards, losers, last)
    if THREE in on_table and FIVE not in on_table and losers:
        return _cheapest(losers, trump)  # duck: let the opponents keep the 3♠
    if winners:
        return _win(winners, led, trump, last)
    return _discard(cards, trump)


def _feed_partner(cards: list[int], losers: list[int], last: bool) -> int:
    """Partner is winning: give him the 5♥ when it is safe, otherwise play low and do not overtake."""
    if last and FIVE in losers:
        return FIVE
    pool = [c for c in losers if c != THREE] or losers or cards
    return _cheapest(pool, 4)


def _win(winners: list[int], led: int, trump: int, last: bool) -> int:
    """Take the trick as cheaply as possible; the 5♥ itself if it wins for sure."""
    if FIVE in winners and last:
        return FIVE
    pool = [c for c in winners if c not in (FIVE, THREE)] or winners
    return min(pool, key=lambda c: _power(c, led, trump))


def _discard(cards: list[int], trump: int) -> int:
    """Cannot win: dump the 3♠ on the opponents, never give them the 5♥, else the cheapest card."""
    if THREE in cards:
        return THREE
    pool = [c for c in cards if c != FIVE] or cards
    return _cheapest(pool, trump)


def _cheapest(cards: list[int], trump: int) -> int:
    """The least useful card: non-trumps before trumps, low before high, the 5♥ last."""
    return min(cards, key=lambda c: (c == FIVE, c >> 3 == trump, c & 7))


class HeuristicBot:
    """The heuristic computer opponent."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation, legal_actions: Sequence[KaiserAction]) -> KaiserAction:
        """Bid, name trump or play from what this seat may know."""
        assert isinstance(observation, KaiserObservation)
        first = legal_actions[0]
        if isinstance(first, (Bid, Pass)):
            return choose_call(observation, legal_actions)
        if isinstance(first, NameTrump):
            return NAME_TRUMPS[best_trump(observation.hand)[0]]
        return choose_card(observation, [a for a in legal_actions if isinstance(a, Play)])


# A simple baseline.


def count_points(hand: Sequence[int]) -> float:
    """A plain count of a hand's worth: aces 1, kings ½, the 5♥ 2, the 3♠ −1, a card beyond four in a suit 1."""
    ranks = [c & 7 for c in hand]
    longest = max(sum(1 for c in hand if c >> 3 == suit) for suit in range(4))
    return (ranks.count(ACE) + 0.5 * ranks.count(KING) + 2.0 * (FIVE in hand) - (THREE in hand)
            + max(0, longest - 4))


def longest_suit(hand: Sequence[int]) -> int:
    """The suit with the most cards (more high ranks break a tie, then the lower suit)."""
    return max(range(4), key=lambda s: (sum(1 for c in hand if c >> 3 == s),
                                        sum(c & 7 for c in hand if c >> 3 == s), -s))


class LowestBot:
    """A baseline: bids the lowest suit bid when a plain count says the side can make it, names its
    longest suit, and always plays its lowest legal card.

    "Lowest" is the rank (``id & 7``), a non-trump before a trump of the same rank; so it throws the
    5♥ and the 3♠ like any low card. It reads nothing of the bidding or the play.
    """

    name = "lowest"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: Observation, legal_actions: Sequence[KaiserAction]) -> KaiserAction:
        """One of ``legal_actions``."""
        assert isinstance(observation, KaiserObservation)
        first = legal_actions[0]
        if isinstance(first, (Bid, Pass)):
            bids = [a for a in legal_actions if isinstance(a, Bid) and not a.no_trump]
            if not bids:
                bids = [a for a in legal_actions if isinstance(a, Bid)]
            lowest = min(bids, key=lambda b: b.points) if bids else None
            forced = PASS not in legal_actions
            if lowest is not None and (forced or count_points(observation.hand) + PARTNER_SHARE >= lowest.points):
                return lowest
            return PASS if not forced else first
        if isinstance(first, NameTrump):
            return NAME_TRUMPS[longest_suit(observation.hand)]
        contract = observation.contract
        trump = rules.NO_TRUMP if contract is None or contract.no_trump else rules.SUIT_WORDS.index(
            contract.trump or "spades")
        plays = [a for a in legal_actions if isinstance(a, Play)]
        return min(plays, key=lambda a: (a.card & 7, a.card >> 3 == trump, a.card)) if plays else first
