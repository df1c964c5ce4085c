"""Durak bots: the 2020 program's scripted player, careful heuristics, and one that reads out the endgame."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from cardtable.core.bot import BotFactory
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


#: While the deck holds this many cards or more, a defender who could beat only with a trump takes instead.
SAVE_TRUMPS_DECK = 6
#: A playout of the endgame stops after this many actions (a cycle of takes; counted as no result).
ENDGAME_PLAYOUT_CAP = 400


class EndgameBot(CarefulBot):
    """Careful while the deck lasts (a trump is too dear to beat with early); reads out the endgame.

    Once the deck is empty and one opponent is left, every card is known: his hand is all the cards
    not seen elsewhere. Each legal action is then played out to the end of the game, both sides
    following the search bot's playout policy (lowest beating card or take; attack low), and the
    bot keeps the careful choice unless another action's playout ends better (won, then not lost).
    What search does differently from ``careful`` is mostly here: playing the endgame alone with
    search turned ``careful`` into a clear winner (see docs/bots.md), and this reading gets most of it.
    """

    name = "endgame"

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> DurakAction:
        """One of ``legal_actions``."""
        obs: Any = observation
        choice = self._early(obs, legal_actions)
        if len(legal_actions) == 1 or not self._known_endgame(obs):
            return choice
        from cardtable.games.durak import world

        state = world.sample_world(obs, random.Random(0))  # the deck is empty: the one consistent world
        values = {a: _read_out(state, obs.seat, a) for a in legal_actions}
        best = max(values.values())
        if values[choice] == best:
            return choice
        key = _key(_trump(obs))
        best_actions: list[DurakAction] = [a for a in legal_actions if values[a] == best]
        return min(best_actions, key=lambda a: (not isinstance(a, (Attack, Beat)), key[getattr(a, "card", 0)]))

    def _early(self, obs: Any, legal_actions: Sequence[Any]) -> DurakAction:
        """The careful choice, but take rather than spend a trump while the deck is long."""
        choice = super().act(obs, legal_actions)
        trump = _trump(obs)
        if isinstance(choice, Beat) and SUIT[choice.card] == trump and obs.deck_count >= SAVE_TRUMPS_DECK:
            return TAKE
        return choice

    @staticmethod
    def _known_endgame(obs: Any) -> bool:
        """Whether every card is known: the deck is empty and exactly one other seat holds cards."""
        if obs.deck_count or obs.seat is None:
            return False
        return sum(1 for s, n in enumerate(obs.hand_counts) if s != obs.seat and n) == 1


def _read_out(state: Any, seat: int, action: DurakAction) -> float:
    """The game value for ``seat`` after ``action`` and a playout of the search policy to the end."""
    from cardtable.games.durak import GAME, world

    state, _ = GAME.apply_unchecked(state, seat, action)
    for _ in range(ENDGAME_PLAYOUT_CAP):
        actor = GAME.to_act(state)
        if actor is None:
            break
        move = world.playout_policy(state, actor, GAME.legal_actions(state, actor), _NO_RNG)
        state, _ = GAME.apply_unchecked(state, actor, move)
    return world.game_value(state, seat)


_NO_RNG = random.Random(0)  # the playout policy draws no random numbers; it takes one by its signature

#: The game's own bots by name (``DurakGame.bots``).
BOTS: dict[str, BotFactory] = {"scripted": ScriptedBot, "heuristic": HeuristicBot, "careful": CarefulBot,
                               "endgame": EndgameBot, "lowest": LowestBot}
