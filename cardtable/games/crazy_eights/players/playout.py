"""A Crazy Eights round played out on bitmasks, every seat by the ``heuristic`` bot's rules: the search's inner loop.

The engine's step builds events and copies a state per action; a playout needs neither. ``play_round``
plays the rest of a round on plain ints (hands as bitmasks, the stock as a list whose last card is
drawn next) with the engine's rules exactly: draw until playable (or one card), the stock rebuilt
from the discards under the top card, a round blocked after a pass by every seat, the engine's
safety limit. Each seat plays as ``HeuristicBot`` does (``tests/crazy_eights/test_playout.py`` checks
both against the engine). Only a rebuilt stock's order differs from the engine's (it comes from the
playout's own ``random.Random``), which a sampled world does not know anyway. The compiled
``_fast.play_round`` (``compiled.FAST``) is this loop in C, drawing the same numbers.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from cardtable.core.types import CardId, Seat
from cardtable.games.crazy_eights.game import MATCH, ROUND_ACTION_LIMIT
from cardtable.games.crazy_eights.players.compiled import FAST
from cardtable.games.crazy_eights.players.heuristic import ENDGAME_CARDS
from cardtable.games.crazy_eights.rules import (
    BIT,
    EIGHTS,
    PENALTY,
    SUIT_MASK,
    SUIT_OF,
    cards_of,
)

_NOT_EIGHTS: Final = ~EIGHTS
_SUIT_PLAIN: Final = tuple(SUIT_MASK[s] & _NOT_EIGHTS for s in range(4))
#: PENALTY13[bits]: the penalty points of the cards of one suit given as 13 rank bits (2 … A).
PENALTY13: Final = tuple(sum(PENALTY[r] for r in range(13) if bits >> r & 1) for bits in range(1 << 13))


def hand_penalty(hand: int) -> int:
    """Penalty points of a hand bitmask, four table look-ups."""
    return (PENALTY13[hand & 0x1FFF] + PENALTY13[hand >> 13 & 0x1FFF] + PENALTY13[hand >> 26 & 0x1FFF]
            + PENALTY13[hand >> 39])


@dataclass(slots=True)
class Table:
    """A round in progress as plain data: the playout mutates it in place (copy it first).

    With ``random_draws`` a draw takes a card from the stock at random (the stock's order is then
    meaningless, which saves shuffling it); without, the last card, as the engine does.
    """

    hands: list[int]
    stock: list[CardId]  # the last card is drawn next
    discards: int
    top: CardId
    suit: int
    turn: Seat
    drawn: int = 0
    passes: int = 0
    actions: int = 0
    draw_until: bool = True
    random_draws: bool = False

    def copy(self) -> Table:
        """An independent copy (the lists copied)."""
        return Table(list(self.hands), list(self.stock), self.discards, self.top, self.suit, self.turn,
                     self.drawn, self.passes, self.actions, self.draw_until, self.random_draws)


def heuristic_plain(hand: int, plain: int) -> CardId:
    """The heuristic's plain card: the costliest; among equals the suit held most of; then the lowest id."""
    best, best_key = -1, (-1, -1, 0)
    while plain:
        low = plain & -plain
        card = low.bit_length() - 1
        plain ^= low
        key = (PENALTY[card], (hand & _SUIT_PLAIN[SUIT_OF[card]]).bit_count(), -card)
        if key > best_key:
            best, best_key = card, key
    return best


def heuristic_suit(hand: int) -> int:
    """The suit the heuristic names with an eight: most cards held (eights aside), then points, then suit order."""
    best, best_key = 0, (-1, -1, 0)
    for s in range(4):
        cards = hand & _SUIT_PLAIN[s]
        key = (cards.bit_count(), PENALTY13[cards >> 13 * s & 0x1FFF], -s)
        if key > best_key:
            best, best_key = s, key
    return best


def heuristic_choice(hand: int, playable: int, endgame: bool) -> tuple[CardId, int]:
    """The heuristic's card and the suit then in force, given the hand and its playable cards (not 0)."""
    plain = playable & _NOT_EIGHTS
    if plain and not (playable & EIGHTS and endgame):
        card = heuristic_plain(hand, plain)
        return card, SUIT_OF[card]
    eights = playable & EIGHTS
    return (eights & -eights).bit_length() - 1, heuristic_suit(hand)


def heuristic_move(hands: list[int], seat: Seat, playable: int) -> tuple[CardId, int]:
    """The heuristic's card and the suit then in force, for a seat with ``playable`` cards (not 0)."""
    return heuristic_choice(hands[seat], playable, _endgame(hands, seat))


def _endgame(hands: list[int], seat: Seat) -> bool:
    """Whether another seat is down to ``ENDGAME_CARDS`` cards or fewer."""
    return any(h.bit_count() <= ENDGAME_CARDS for s, h in enumerate(hands) if s != seat)


def apply_play(t: Table, card: CardId, suit: int) -> bool:
    """The seat to act plays ``card`` naming ``suit``; True if that ended the round (it went out)."""
    seat = t.turn
    hand = t.hands[seat] ^ BIT[card]
    t.hands[seat] = hand
    t.discards |= BIT[t.top]
    t.top, t.suit = card, suit
    t.drawn = t.passes = 0
    t.actions += 1
    if not hand:
        return True
    t.turn = (seat + 1) % len(t.hands)
    return False


def play_round(t: Table, rng: random.Random) -> Seat | None:
    """Play the round out, every seat by the heuristic; the seat that went out (None: blocked or limit).

    The loop keeps the table in locals and inlines ``heuristic_move`` and ``apply_play`` (the
    search's whole cost is here); ``t`` holds the position reached when it returns. Where the
    compiled ``_fast`` is built it plays the round instead, with the same result and ``rng`` left
    in the same state.
    """
    fast = FAST.get()
    if fast is not None:
        went_out: Seat | None = fast.play_round(t, rng)
        return went_out
    hands, n = t.hands, len(t.hands)
    stock, discards, top, suit, seat = t.stock, t.discards, t.top, t.suit, t.turn
    drawn, passes, actions, draw_until, random_draws = t.drawn, t.passes, t.actions, t.draw_until, t.random_draws
    random_draw = rng.random
    went_out = None
    while actions < ROUND_ACTION_LIMIT:
        hand = hands[seat]
        playable = hand & MATCH[top * 4 + suit]
        actions += 1
        if playable:
            plain = playable & _NOT_EIGHTS
            if plain and not (playable & EIGHTS and _endgame(hands, seat)):
                if plain & (plain - 1):
                    card = heuristic_plain(hand, plain)
                else:
                    card = plain.bit_length() - 1
                named = SUIT_OF[card]
            else:
                eights = playable & EIGHTS
                card = (eights & -eights).bit_length() - 1
                named = heuristic_suit(hand)
            hand ^= BIT[card]
            hands[seat] = hand
            discards |= BIT[top]
            top, suit = card, named
            drawn = passes = 0
            if not hand:
                went_out = seat
                break
            seat = (seat + 1) % n
            continue
        if (stock or discards) and (draw_until or not drawn):
            if not stock:
                stock = cards_of(discards)
                discards = 0
                if not random_draws:
                    rng.shuffle(stock)
            if random_draws:
                i = int(random_draw() * len(stock))
                card = stock[i]
                stock[i] = stock[-1]
                stock.pop()
            else:
                card = stock.pop()
            hands[seat] = hand | BIT[card]
            drawn += 1
            passes = 0
            continue
        passes += 1
        drawn = 0
        if passes >= n:
            break
        seat = (seat + 1) % n
    t.stock, t.discards, t.top, t.suit, t.turn = stock, discards, top, suit, seat
    t.drawn, t.passes, t.actions = drawn, passes, actions
    return went_out


def penalties(hands: list[int]) -> list[int]:
    """Each seat's penalty points for the cards it holds."""
    return [hand_penalty(h) for h in hands]
