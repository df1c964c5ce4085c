"""Who sits where in each game of a tournament, and which deal each game plays.

A game's seats are grouped into *units*: a partnership (``game.teams(options)``,
Mus and Kaiser) or a single seat (every other game). Entries take whole units.

- With at least as many entries as units, every combination of ``units`` entries
  (in the order the entries were given) is one *block*; with fewer entries, the one
  block fills unit ``u`` with entry ``u mod entries``.
- A block is played as its ``units`` cyclic rotations: rotation ``r`` puts the
  block's entry ``(u + r) mod units`` in unit ``u``, so every entry of the block
  holds every unit's seats once.

Round-robin plays the rotations of every block in turn, each game with a fresh
deal (game ``g`` is rotation ``g`` of the flat list, modulo its length). Duplicate
plays each deal once per rotation of a block: deal ``g // units``, so the same
cards go round every entry of the block and the luck of the deal cancels out.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from cardtable.core.types import Seat

FORMATS = ("round-robin", "duplicate")
Units = tuple[tuple[Seat, ...], ...]


@dataclass(frozen=True, slots=True)
class PlannedGame:
    """One game of the schedule: its number, its deal, the deal's seed and the entry name in each seat."""

    index: int
    deal: int
    seed: int
    seating: tuple[str, ...]


def derive_seed(seed: int, *parts: object) -> int:
    """A seed in ``[0, 2**31)`` derived from ``seed`` and ``parts``; stable across Python versions and machines."""
    text = ":".join(str(p) for p in ("cardtable-arena", seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:4], "big") >> 1


def blocks(entries: Sequence[str], units: Units) -> list[list[tuple[str, ...]]]:
    """Every block of the schedule as its list of seatings (one entry name per seat), one per rotation."""
    count = len(units)
    if len(entries) >= count:
        groups = [list(c) for c in itertools.combinations(entries, count)]
    else:
        groups = [[entries[u % len(entries)] for u in range(count)]]
    return [[_seating(group, units, r) for r in range(count)] for group in groups]


def _seating(group: Sequence[str], units: Units, rotation: int) -> tuple[str, ...]:
    players = sum(len(u) for u in units)
    seats: list[str] = [""] * players
    for u, unit in enumerate(units):
        for seat in unit:
            seats[seat] = group[(u + rotation) % len(units)]
    return tuple(seats)


def games_per_deal(fmt: str, units: Units) -> int:
    """How many games share a deal: the number of units in duplicate, else 1."""
    return len(units) if fmt == "duplicate" else 1


def deal_seed(seed: int, deal: int, salt: str | None = None) -> int:
    """The seed of deal ``deal``: from the tournament seed alone (the arena, reproducible by anyone), or from the
    seed and a secret salt (a live tournament's sealed deals, ``cardtable.arena.sealed``)."""
    return derive_seed(seed, "deal", deal) if salt is None else derive_seed(seed, "sealed", salt, "deal", deal)


def plan(fmt: str, entries: Sequence[str], units: Units, games: int, seed: int,
         salt: str | None = None) -> list[PlannedGame]:
    """The whole schedule of a tournament; ``ValueError`` if ``games`` does not fit the format.

    ``salt``: the deals follow from the seed and this secret (a live tournament's), not from the seed alone."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
    if games < 1:
        raise ValueError("--games must be at least 1")
    all_blocks = blocks(entries, units)
    if fmt == "round-robin":
        flat = [seating for block in all_blocks for seating in block]
        return [PlannedGame(g, g, deal_seed(seed, g, salt), flat[g % len(flat)]) for g in range(games)]
    size = len(units)
    if games % size:
        raise ValueError(f"duplicate plays each deal {size} times (once per rotation): "
                         f"--games must be a multiple of {size}, not {games}")
    out = []
    for g in range(games):
        deal = g // size
        block = all_blocks[deal % len(all_blocks)]
        out.append(PlannedGame(g, deal, deal_seed(seed, deal, salt), block[g % size]))
    return out
