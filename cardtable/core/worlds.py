"""Dealing hidden cards for determinization: random deals that respect what a seat has seen.

``deal_hidden`` splits the cards a seat cannot see among the places it cannot see into (other
hands, the stock), each with a size and a mask of cards it cannot hold (a void shown by not
following suit, a card known elsewhere). It first draws uniform deals and rejects those that break
a constraint (exactly uniform over the consistent deals); if that keeps failing it builds a deal
card by card, most constrained first (every consistent deal can still come out, not uniformly). When
tight constraints defeat those random tries too (a late Wizard round with no stock, each hand void in
most suits), ``_complete`` deals card by card keeping the rest completable (Hall's condition), so a
deal is always found when one exists; ``NoConsistentWorld`` means there is none.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtable.core.types import CardId

Place = tuple[int, int]
"""``(size, forbidden)``: how many cards a place holds and the bitmask of cards it may not hold."""


class NoConsistentWorld(ValueError):
    """No deal of the hidden cards satisfies the constraints (the observation contradicts itself)."""


def deal_hidden(cards: Sequence[CardId], places: Sequence[Place], rng: random.Random,
                *, tries: int = 100) -> list[list[CardId]]:
    """The hidden ``cards`` split among ``places`` (sizes must add up), each avoiding its forbidden cards."""
    if sum(size for size, _ in places) != len(cards):
        raise NoConsistentWorld(f"{len(cards)} hidden cards do not fill places of sizes "
                                f"{[size for size, _ in places]}")
    if not any(forbidden for _, forbidden in places):
        tries = 1
    pool = list(cards)
    for _ in range(tries):
        rng.shuffle(pool)
        deal, start = [], 0
        for size, forbidden in places:
            part = pool[start:start + size]
            start += size
            if any(forbidden >> c & 1 for c in part):
                break
            deal.append(part)
        else:
            return deal
    for _ in range(tries):
        built = _build(pool, places, rng)
        if built is not None:
            return built
    completed = _complete(pool, places, rng)
    if completed is None:
        raise NoConsistentWorld("no deal of the hidden cards respects what this seat has seen")
    return completed


def _build(cards: list[CardId], places: Sequence[Place], rng: random.Random) -> list[list[CardId]] | None:
    """One deal built card by card, most constrained card first, places weighted by their room."""
    allowed = {c: [i for i, (_, forbidden) in enumerate(places) if not forbidden >> c & 1] for c in cards}
    order = sorted(cards, key=lambda c: (len(allowed[c]), rng.random()))
    room = [size for size, _ in places]
    deal: list[list[CardId]] = [[] for _ in places]
    for c in order:
        options = [i for i in allowed[c] if room[i]]
        if not options:
            return None
        i = rng.choices(options, weights=[room[j] for j in options])[0]
        deal[i].append(c)
        room[i] -= 1
    return deal


def _complete(cards: list[CardId], places: Sequence[Place], rng: random.Random) -> list[list[CardId]] | None:
    """A deal made card by card in ``cards``' order, each card given to a place (weighted by its room) from
    which the remaining cards can still be dealt; None when no consistent deal exists at all."""
    allowed = [sum(1 << i for i, (_, forbidden) in enumerate(places) if not forbidden >> c & 1) for c in cards]
    room = [size for size, _ in places]
    if not _completable(allowed, room):
        return None
    deal: list[list[CardId]] = [[] for _ in places]
    for n, c in enumerate(cards):
        rest = allowed[n + 1:]
        options = []
        for i in range(len(places)):
            if allowed[n] >> i & 1 and room[i]:
                room[i] -= 1
                if _completable(rest, room):
                    options.append(i)
                room[i] += 1
        i = rng.choices(options, weights=[room[j] for j in options])[0]
        deal[i].append(c)
        room[i] -= 1
    return deal


def _completable(allowed: Sequence[int], room: Sequence[int]) -> bool:
    """Whether cards (each a bitmask of the places allowed to take it) fit the rooms: Hall's condition, every
    set of places has room for the cards that may go nowhere else."""
    counts: dict[int, int] = {}
    for mask in allowed:
        counts[mask] = counts.get(mask, 0) + 1
    for subset in range(1 << len(room)):
        need = sum(n for mask, n in counts.items() if mask & ~subset == 0)
        if need > sum(r for i, r in enumerate(room) if subset >> i & 1):
            return False
    return True
