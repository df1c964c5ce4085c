"""The Wizard ``heuristic`` bot: count expected tricks to bid, then chase or duck to land the bid exactly.

Bidding: a wizard counts about one trick, a jester none, every other card a fraction by rank and by
whether it is trump, fitted by self-play for each player count and round size (``calibrate.py``,
``bid_model.py``, ``bid_table.py``); the bid is the allowed number nearest that count. Play: a one-step lookahead picks
the card with the best chance of an exact bid: winning tricks as cheaply as possible while short of
the bid, ducking (and shedding dangerous cards) once it is made. The dealer who must name trump names
the suit that gives the largest count.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtable.cards import CardId
from cardtable.core.observation import Observation
from cardtable.games.wizard import bid_table, rules
from cardtable.games.wizard.actions import Bid, ChooseTrump, Play, WizardAction
from cardtable.games.wizard.bid_model import CATEGORIES, PRESSURE, category
from cardtable.games.wizard.observation import WizardObservation

# Tuning knobs (measured by self-play; see docs/rules/wizard.md for the figures).
DUCKING_OVERTAKE = 0.1
VOID_CHANCE = 0.1
BID_SHADE = 0.15


def _unseen_mask(obs: WizardObservation) -> int:
    """Cards neither in the bot's hand, nor played this round, nor turned for trump."""
    seen = rules.mask_of(obs.hand) | rules.mask_of(obs.played_cards) | rules.mask_of(p.card for p in obs.trick)
    if obs.trump_card is not None:
        seen |= 1 << obs.trump_card
    return rules.ALL_MASK & ~seen


def _higher_in_suit(card: CardId, suit: int) -> int:
    """The mask of cards of ``suit`` ranked above ``card`` (all of them if ``card`` is of another suit)."""
    mask = rules.SUIT_MASK[suit]
    if rules.SUIT_OF[card] == suit:
        mask &= ~((1 << (card + 1)) - 1)
    return mask


def cost(card: CardId, trump: int | None) -> int:
    """How much a card is worth keeping: wizards most, then trumps, then by rank; jesters nothing."""
    if rules.is_wizard(card):
        return 100
    if rules.is_jester(card):
        return 0
    return rules.RANK_OF[card] + (40 if rules.SUIT_OF[card] == trump else 0)


# Bidding.


def features(hand: Sequence[CardId], trump: int | None) -> list[int]:
    """How many cards of each category a hand holds."""
    counts = [0] * CATEGORIES
    for card in hand:
        counts[category(card, trump)] += 1
    return counts


def bid_pressure(obs: WizardObservation) -> float:
    """How far the bids heard so far exceed an even share of the tricks (0 while bids are hidden)."""
    heard = [b for seat, b in enumerate(obs.bids) if b is not None and seat != obs.seat]
    if obs.bids_hidden or not heard:
        return 0.0
    return sum(heard) - len(heard) * obs.round / obs.players


def expected_tricks(hand: Sequence[CardId], trump: int | None, players: int) -> float:
    """The sum of the fitted values of the hand's cards (see ``calibrate.py``)."""
    n = len(hand)
    return sum(bid_table.value(players, n, category(card, trump)) for card in hand)


# Playing.


def _wins_now(trick: Sequence[CardId], card: CardId, trump: int | None) -> bool:
    """Whether ``card`` would be winning the trick if played now."""
    return rules.trick_winner([*trick, card], trump) == len(trick)


def _survival(obs: WizardObservation, card: CardId, trump: int | None, unseen: int) -> float:
    """The chance a card that wins now still wins after the seats still to play."""
    p = obs.players
    me = obs.seat if obs.seat is not None else 0
    later = [(me + k) % p for k in range(1, p - len(obs.trick))]
    if not later or rules.is_wizard(card):
        return 1.0
    pool = max(1, unseen.bit_count())
    # Later players who still need tricks overtake readily; those who have made their bid rarely do.
    share = 0.0
    for seat in later:
        bid = obs.bids[seat]
        keen = bid is None or obs.tricks[seat] < bid
        share += obs.hand_sizes[seat] / pool * (1.0 if keen else DUCKING_OVERTAKE)
    share = min(share, 1.0)
    lead = rules.lead_state([*(pc.card for pc in obs.trick), card])
    strong = unseen & rules.WIZARD_MASK
    suit = rules.SUIT_OF[card]
    ruffers = 0
    if trump is not None and suit == trump:
        strong |= unseen & _higher_in_suit(card, trump)
    elif trump is not None:
        # Any trump beats a side card, but only from a player void in the suit led.
        ruffers = (unseen & rules.SUIT_MASK[trump]).bit_count()
    if 0 <= lead < 4 and suit == lead:
        strong |= unseen & _higher_in_suit(card, lead)
    return float((1 - share) ** strong.bit_count() * (1 - share * VOID_CHANCE) ** ruffers)


# One-step lookahead: the chance of landing the bid exactly after each candidate card.


def _future_value(card: CardId, trump: int | None, unseen: int, players: int, size: int) -> float:
    """The chance a card still in hand takes a trick later: its fitted value, or 1 once nothing unseen beats it."""
    if rules.is_wizard(card):
        return 1.0
    if rules.is_jester(card):
        return 0.0
    suit = rules.SUIT_OF[card]
    beaters = unseen & (rules.WIZARD_MASK | _higher_in_suit(card, suit))
    if suit == trump and not beaters:
        return 1.0
    return bid_table.value(players, size, category(card, trump))


def _poisson_binomial(chances: Sequence[float]) -> list[float]:
    """The distribution of the number of successes of independent events with these chances."""
    dist = [1.0]
    for p in chances:
        nxt = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return dist


def _exact_chances(obs: WizardObservation, legal: list[CardId], trump: int | None,
                   unseen: int) -> list[tuple[float, CardId]]:
    """For each legal card: the estimated chance of taking exactly the bid if it is played now."""
    seat = obs.seat if obs.seat is not None else 0
    need = (obs.bids[seat] or 0) - obs.tricks[seat]
    trick = [pc.card for pc in obs.trick]
    hand = list(obs.hand)
    values = [_future_value(c, trump, unseen, obs.players, len(hand)) for c in hand]
    out = []
    for card in legal:
        now = 0.0
        if _wins_now(trick, card, trump) and not (rules.is_jester(card) and not trick):
            now = _survival(obs, card, trump, unseen)
        rest = _poisson_binomial([v for c, v in zip(hand, values) if c != card])
        hit = (now * rest[need - 1] if 1 <= need <= len(rest) else 0.0)
        hit += (1 - now) * rest[need] if 0 <= need < len(rest) else 0.0
        out.append((hit, card))
    return out


def _lookahead(obs: WizardObservation, legal: list[CardId], trump: int | None, unseen: int) -> CardId:
    """The card with the best chance of an exact bid; ties keep the cheaper card when chasing."""
    scored = _exact_chances(obs, legal, trump, unseen)
    best = max(hit for hit, _ in scored)
    tied = [card for hit, card in scored if hit >= best - 1e-9]
    return min(tied, key=lambda c: cost(c, trump))


class HeuristicBot:
    """Bids its expected tricks, then chases or ducks to make the bid exactly."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation, legal_actions: Sequence[WizardAction]) -> WizardAction:
        """One of ``legal_actions``."""
        assert isinstance(observation, WizardObservation)
        first = legal_actions[0]
        if isinstance(first, Play):
            return self._play(observation, [a.card for a in legal_actions if isinstance(a, Play)])
        if isinstance(first, Bid):
            return self._bid(observation, [a for a in legal_actions if isinstance(a, Bid)])
        return self._choose_trump(observation)

    @staticmethod
    def estimate(obs: WizardObservation) -> float:
        """The expected tricks of the hand, nudged by the bids heard and shaded a little."""
        estimate = expected_tricks(obs.hand, obs.trump_suit, obs.players)
        estimate += bid_table.value(obs.players, obs.round, PRESSURE) * bid_pressure(obs)
        return estimate - BID_SHADE * obs.round / 10

    def _bid(self, obs: WizardObservation, bids: list[Bid]) -> Bid:
        """The allowed bid nearest the expected number of tricks."""
        estimate = self.estimate(obs)
        return min(bids, key=lambda b: (abs(b.tricks - estimate), b.tricks))

    def _choose_trump(self, obs: WizardObservation) -> ChooseTrump:
        """The suit that makes the hand's expected tricks largest."""
        best = max(range(4), key=lambda s: (expected_tricks(obs.hand, s, obs.players), -s))
        return ChooseTrump(rules.SUITS[best])  # type: ignore[arg-type]

    def _play(self, obs: WizardObservation, legal: list[CardId]) -> Play:
        """The card most likely to land the bid exactly: chasing while short of it, ducking once made."""
        return Play(_lookahead(obs, legal, obs.trump_suit, _unseen_mask(obs)))
