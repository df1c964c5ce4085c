"""Testing aid: build scripted decks so a test can deal exact hands (see ``WizardGame.new_with_decks``)."""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.cards import WIZARD_60, CardId
from cardtable.core.types import Seat

CardSpec = CardId | str


def card_ids(cards: Sequence[CardSpec] | str) -> list[CardId]:
    """Card ids from ids or notation ("Y7", "W1", "N2"); a string is split on spaces and commas."""
    if isinstance(cards, str):
        return WIZARD_60.parse_many(cards)
    return [c if isinstance(c, int) else WIZARD_60.parse(c) for c in cards]


def stack_deck(hands: Sequence[Sequence[CardSpec] | str], dealer: Seat,
               trump_card: CardSpec | None = None) -> list[CardId]:
    """A 60-card deck order (top first) that deals ``hands[seat]`` to each seat and then turns ``trump_card``.

    Dealing goes one card at a time from the seat left of the dealer, so the order interleaves the hands.
    Cards not named follow in ascending id order (the undealt stack). With ``trump_card=None`` the
    next undealt card is turned, unless every card is dealt.
    """
    ids = [card_ids(h) for h in hands]
    players, n = len(ids), len(ids[0])
    if any(len(h) != n for h in ids):
        raise ValueError("every hand must have the same number of cards")
    order = [ids[(dealer + 1 + i) % players][i // players] for i in range(n * players)]
    if trump_card is not None:
        order += card_ids([trump_card])
    order += [c for c in range(len(WIZARD_60)) if c not in set(order)]
    if len(set(order)) != len(WIZARD_60):
        raise ValueError("a card is dealt twice")
    return order
