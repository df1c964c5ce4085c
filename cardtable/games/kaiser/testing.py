"""A testing aid: build a Kaiser state from explicit hands, and play scripted actions on it.

Example (seat 3 deals, so seat 0 bids first)::

    state = deal_hands(["A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 3♠", "A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 5♥",
                        "A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦", "A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣"])
    state, events = play_script(state, "bid 6", "pass", "pass", "pass", "trump ♠", "play A♠")

``contract=(bidder, points, "hearts")`` (or ``"nt"``) skips the bidding: the other three
passed, trump is named and the bidder is to lead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardtable.cards import KAISER_32, CardId
from cardtable.core.events import Event
from cardtable.core.rng import rng_state
from cardtable.games.kaiser import rules
from cardtable.games.kaiser.game import FIRST_DEALER, KaiserGame, set_deal
from cardtable.games.kaiser.options import KaiserOptions
from cardtable.games.kaiser.state import PLAY, KaiserState

GAME = KaiserGame()


def deal_hands(hands: Sequence[str | Sequence[CardId]], *, dealer: int = FIRST_DEALER,
               options: KaiserOptions | None = None, totals: tuple[int, int] = (0, 0), hand_no: int = 1,
               seed: int = 0, contract: tuple[int, int, str] | None = None) -> KaiserState:
    """A state at the start of a hand whose four hands are exactly ``hands`` (card text or ids).

    Raises ``ValueError`` unless the four hands hold all 32 cards, 8 each. Later hands are
    shuffled from ``seed``; ``totals`` and ``hand_no`` set the score and hand number so far.
    """
    masks = [rules.mask_of(_ids(h)) for h in hands]
    if len(masks) != 4 or any(m.bit_count() != 8 for m in masks) or _union(masks) != rules.FULL_DECK:
        raise ValueError("deal_hands needs four hands of 8 distinct cards holding the whole Kaiser deck")
    state = KaiserState.__new__(KaiserState)
    state.options = options or KaiserOptions()
    state.rng = rng_state(seed)
    state.totals, state.sheet, state.result, state.hand_no = totals, (), None, hand_no
    set_deal(state, dealer, masks)
    if contract is not None:
        _skip_bidding(state, *contract)
    return state


def play_script(state: KaiserState, *texts: str) -> tuple[KaiserState, list[Event]]:
    """Apply actions written as text (``"bid 7nt"``, ``"pass"``, ``"trump ♥"``, ``"play 5♥"``) by whoever is to act.

    Raises ``IllegalAction`` at the first illegal one; returns the final state and every event.
    """
    events: list[Event] = []
    for text in texts:
        seat = GAME.to_act(state)
        if seat is None:
            raise ValueError(f"the game is over before {text!r}")
        state, new = GAME.apply(state, seat, GAME.parse_action(text))
        events.extend(new)
    return state, events


def _ids(hand: str | Sequence[CardId]) -> list[CardId]:
    """Card ids from text ("A♠ 5♥" or "AS,5H") or from ids."""
    return KAISER_32.parse_many(hand) if isinstance(hand, str) else list(hand)


def _union(masks: Sequence[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def _skip_bidding(state: KaiserState, bidder: int, points: int, trump: str) -> None:
    """The bidder bid ``points``, everybody else passed, trump is named and the bidder leads."""
    no_trump = trump == "nt"
    calls: list[Any] = []
    for i in range(1, 5):
        seat = (state.dealer + i) % 4
        calls.append((seat, points, no_trump) if seat == bidder else (seat, 0, False))
    state.bids = tuple(calls)
    state.high, state.high_bidder = rules.bid_value(points, no_trump), bidder
    state.trump = rules.NO_TRUMP if no_trump else rules.SUIT_WORDS.index(trump)
    state.phase, state.leader, state.turn = PLAY, bidder, bidder
