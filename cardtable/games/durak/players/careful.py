"""The Durak heuristic ``careful``: keeps trumps, sheds low cards in pairs, presses a defender short of cards."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from cardtable.core.observation import Observation
from cardtable.games.durak.actions import STOP, TAKE, Attack, Beat, DurakAction
from cardtable.games.durak.observation import trump_of
from cardtable.games.durak.rules import RANK, SORT_KEY, SUIT


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
        trump = trump_of(obs)
        key = SORT_KEY[trump]
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
