"""Wizard's baselines: ``lowest`` (its wizards bid, the lowest card played) and ``chase_duck``."""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.cards import CardId
from cardtable.core.observation import Observation
from cardtable.games.wizard import rules
from cardtable.games.wizard.actions import Bid, ChooseTrump, Play, WizardAction
from cardtable.games.wizard.observation import WizardObservation
from cardtable.games.wizard.players.heuristic import cost


def _strength_now(obs: WizardObservation, card: CardId) -> int:
    """The card's strength in the trick as it stands (higher wins; ties go to the earlier card)."""
    trick = [pc.card for pc in obs.trick]
    return rules.strengths(obs.trump_suit, rules.lead_state([*trick, card]))[card]


class LowestBot:
    """A baseline: bids the wizards it holds, always plays its lowest legal card."""

    name = "lowest"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: Observation, legal_actions: Sequence[WizardAction]) -> WizardAction:
        """One of ``legal_actions``."""
        assert isinstance(observation, WizardObservation)
        first = legal_actions[0]
        if isinstance(first, Bid):
            wizards = sum(rules.is_wizard(c) for c in observation.hand)
            return min(legal_actions, key=lambda b: (abs(b.tricks - wizards), b.tricks)
                       if isinstance(b, Bid) else (99, 0))
        if isinstance(first, Play):
            trump = observation.trump_suit
            return min(legal_actions, key=lambda a: cost(a.card, trump) if isinstance(a, Play) else 999)
        return first


class ChaseDuckBot:
    """A baseline: bids wizards and high trumps; plays its strongest card while short of the bid, else its weakest."""

    name = "chase_duck"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: Observation, legal_actions: Sequence[WizardAction]) -> WizardAction:
        """One of ``legal_actions``."""
        obs = observation
        assert isinstance(obs, WizardObservation)
        first = legal_actions[0]
        trump = obs.trump_suit
        if isinstance(first, Bid):
            strong = sum(rules.is_wizard(c) or (trump is not None and rules.SUIT_OF[c] == trump
                                                and rules.RANK_OF[c] >= 10) for c in obs.hand)
            return min(legal_actions, key=lambda b: (abs(b.tricks - strong), b.tricks)
                       if isinstance(b, Bid) else (99, 0))
        if isinstance(first, Play):
            seat = obs.seat if obs.seat is not None else 0
            chasing = (obs.bids[seat] or 0) > obs.tricks[seat]
            cards = [a for a in legal_actions if isinstance(a, Play)]
            pick = max if chasing else min
            return pick(cards, key=lambda a: (_strength_now(obs, a.card), cost(a.card, trump)))
        return ChooseTrump(rules.SUITS[max(range(4), key=lambda s: sum(rules.SUIT_OF[c] == s for c in obs.hand))])  # type: ignore[arg-type]
