"""Durak bots: the 2020 program's scripted player and a slightly more careful heuristic one."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from cardtable.core.observation import Observation
from cardtable.games.durak.actions import ATTACKS, BEATS, STOP, TAKE, Attack, Beat, DurakAction
from cardtable.games.durak.rules import RANK, SORT_KEY, SUIT, SUIT_WORDS


def _trump(observation: Any) -> int:
    """The trump suit index of a Durak observation."""
    return SUIT_WORDS.index(observation.trump_suit)


class ScriptedBot:
    """Plays exactly as the 2020 program: the first suitable card of the sorted hand.

    Lead: the first card of the hand (the lowest non-trump, or the lowest trump if only trumps).
    Continue: the first card of a rank in the bout, except the highest trump while holding more
    than one card; none: stop. Defend: the first card that beats (lowest higher of the suit, then
    the lowest trump on a non-trump); none: take.
    """

    name = "scripted"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> DurakAction:
        """Choose from ``legal_actions`` by the order of the observed hand."""
        obs: Any = observation
        legal = set(legal_actions)
        hand: tuple[int, ...] = obs.hand
        if TAKE in legal:
            return next((BEATS[c] for c in hand if BEATS[c] in legal), TAKE)
        skip = self._kept_trump(hand, _trump(obs)) if obs.bout else None
        return next((ATTACKS[c] for c in hand if c != skip and ATTACKS[c] in legal), STOP)

    @staticmethod
    def _kept_trump(hand: tuple[int, ...], trump: int) -> int | None:
        """The highest trump in hand, which may not continue a bout while more than one card is held."""
        if len(hand) > 1 and SUIT[hand[-1]] == trump:
            return hand[-1]
        return None


class HeuristicBot(ScriptedBot):
    """The scripted player, but it keeps trumps while the deck still has cards: no trump to continue."""

    name = "heuristic"

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> DurakAction:
        """As scripted, except continuing with a trump only once the deck is empty."""
        obs: Any = observation
        choice = super().act(observation, legal_actions)
        if obs.bout and obs.deck_count and isinstance(choice, Attack) and SUIT[choice.card] == _trump(obs):
            return STOP if STOP in legal_actions else choice
        return choice


def _key(trump: int) -> tuple[int, ...]:
    """Card order by value: non-trumps by rank, then trumps by rank."""
    return SORT_KEY[trump]


class LowestBot:
    """A baseline: the lowest legal card (beating, attacking or continuing); take when nothing beats.

    It stops a bout only when it has no card to add.
    """

    name = "lowest"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> DurakAction:
        """The lowest card among the legal actions, else Take or Stop."""
        key = _key(_trump(observation))
        cards = [a for a in legal_actions if isinstance(a, (Attack, Beat))]
        if cards:
            return min(cards, key=lambda a: key[a.card])
        return TAKE if TAKE in legal_actions else STOP


class CarefulBot:
    """Keeps trumps, sheds low cards in pairs, presses a defender short of cards.

    A take is dear in this Durak (the taker also gets the attacker's other cards of the bout's
    ranks), so it defends whenever it can, with the cheapest beating card, a non-trump first.
    Attacking, it leads the lowest non-trump, preferring a rank it holds twice or more (a take then
    hands the other copies over); it continues with non-trumps, keeping the last trump back while
    the deck lasts, and with anything once the deck is empty or the defender is nearly out.
    """

    name = "careful"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> DurakAction:
        """One of ``legal_actions``."""
        obs: Any = observation
        trump = _trump(obs)
        key = _key(trump)
        if TAKE in legal_actions:
            beats = [a for a in legal_actions if isinstance(a, Beat)]
            plain_beats = [a for a in beats if SUIT[a.card] != trump]
            return min(plain_beats or beats, key=lambda a: key[a.card]) if beats else TAKE
        attacks = [a for a in legal_actions if isinstance(a, Attack)]
        if not obs.bout:
            plain = [a for a in attacks if SUIT[a.card] != trump]
            counts = Counter(RANK[c] for c in obs.hand if SUIT[c] != trump)
            return min(plain or attacks, key=lambda a: (RANK[a.card] - 2 * (counts[RANK[a.card]] >= 2), key[a.card]))
        return min(attacks, key=lambda a: key[a.card]) if attacks else STOP
