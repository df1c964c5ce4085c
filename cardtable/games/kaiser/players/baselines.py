"""Kaiser's ``lowest`` baseline: a plain count to bid, its longest suit as trump, always the lowest card."""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.core.observation import Observation
from cardtable.games.kaiser import rules
from cardtable.games.kaiser.actions import NAME_TRUMPS, PASS, Bid, KaiserAction, NameTrump, Pass, Play
from cardtable.games.kaiser.observation import KaiserObservation
from cardtable.games.kaiser.rating import ACE, FIVE, KING, PARTNER_SHARE, THREE


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
