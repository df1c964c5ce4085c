"""Kaiser's ``heuristic`` bot: rate each suit as trump, bid the floor, chase the 5♥, duck the 3♠.

It sees only its observation and the legal actions. Card ids follow KAISER_32: ``id >> 3``
is the suit (♠ ♥ ♦ ♣), ``id & 7`` the rank (7 = ace). The ratings are ``kaiser.rating``'s.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtable.core.observation import Observation
from cardtable.games.kaiser import rules
from cardtable.games.kaiser.actions import NAME_TRUMPS, PASS, Bid, KaiserAction, NameTrump, Pass, Play
from cardtable.games.kaiser.observation import KaiserObservation
from cardtable.games.kaiser.rating import ACE, FIVE, KING, PARTNER_SHARE, THREE, best_trump, trump_rating

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
