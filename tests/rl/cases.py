"""Small option sets per game for the learning-agent tests, and card relabelling for the leak tests."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cardtable.cards import cards_of, mask_of

#: Option sets kept small so that whole games stay fast.
CASES: dict[str, list[dict[str, Any]]] = {
    "crazy_eights": [{"players": 2, "rounds": 1}, {"players": 4, "rounds": 1, "draw_until_playable": False}],
    "durak": [{"players": 2}, {"players": 4, "attack_cap": "defender_hand"}],
    "kaiser": [{"target": 32}, {"target": 32, "floor": 8, "no_trump": False}],
    "mus": [{"scoring.target": 10}, {"scoring.target": 10, "betting.raise_rule": "double", "signals.enabled": True,
                                     "modalidad": "4R"}],
    "wizard": [{"players": 3, "rounds": 5}, {"players": 5, "rounds": 5, "hidden_bids": True,
                                             "bids_may_not_equal_tricks": True}],
}

Relabel = Callable[[int], int]


def _mask(value: int, f: Relabel) -> int:
    return mask_of(f(c) for c in cards_of(value))


def _cards(value: tuple[int, ...], f: Relabel) -> tuple[int, ...]:
    return tuple(f(c) for c in value)


def _card(value: int | None, f: Relabel) -> int | None:
    return None if value is None else f(value)


def _pairs(value: tuple[tuple[int, int], ...], f: Relabel) -> tuple[tuple[int, int], ...]:
    return tuple((seat, f(card)) for seat, card in value)


#: Per game, the state fields that hold card ids and how to rename the cards in each.
FIELDS: dict[str, dict[str, Callable[[Any, Relabel], Any]]] = {
    "crazy_eights": {"hands": lambda v, f: tuple(_mask(h, f) for h in v), "stock": _cards,
                     "discards": _mask, "top": _card, "last_drawn": _card},
    "wizard": {"hands": lambda v, f: tuple(_mask(h, f) for h in v), "stack_mask": _mask, "trump_card": _card,
               "trick": _cards, "last_trick": _cards, "played": _cards},
    "durak": {"hands": lambda v, f: tuple(_cards(h, f) for h in v), "deck": _cards, "trump_card": _card,
              "bout": _cards},
    "kaiser": {"hands": lambda v, f: tuple(_mask(h, f) for h in v), "trick": _pairs, "last_trick": _pairs},
    "mus": {"hands": lambda v, f: tuple(_cards(h, f) for h in v), "deck": _cards, "discards": _cards,
            "pending": lambda v, f: tuple(None if h is None else _cards(h, f) for h in v)},
}


def redeal(game: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """A copy of ``state`` with the cards hidden from ``seat`` shuffled among the places they lie in.

    The seat cannot tell the two apart: they differ only in cards it may not know.
    """
    hidden = sorted(game.hidden_cards(state, seat))
    shuffled = list(hidden)
    rng.shuffle(shuffled)
    mapping = dict(zip(hidden, shuffled))

    def rename(card: int) -> int:
        return mapping.get(card, card)

    other = state.copy()
    for name, convert in FIELDS[game.info.name].items():
        setattr(other, name, convert(getattr(state, name), rename))
    return other
