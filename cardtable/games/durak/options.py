"""Durak options: one field per rule where the 2020 text and the seed differ, and two presets."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from cardtable.core.errors import InvalidOptions


@dataclass(frozen=True, slots=True)
class DurakOptions:
    """The table's rules. The defaults are the ``default`` preset (the seed's rules)."""

    players: int = field(default=2, metadata={"help": "Number of players (2–4 with player_limit 4, 2–5 with 5)"})
    shuffle: Literal["random", "reference"] = field(default="random", metadata={
        "help": "How the number shuffles the deck (1000 moves of a card to the top): 'random' takes "
                "a card drawn by the pinned RNG seeded with the number, 'reference' the card at (number + 2i) mod 36"})
    deal: Literal["round", "blocks"] = field(default="round", metadata={
        "help": "'round': one card at a time round the table, six times; 'blocks': six cards in a row to each player"})
    first_attacker: Literal["lowest_trump", "first_player"] = field(default="lowest_trump", metadata={
        "help": "Who attacks first: the holder of the lowest trump (nobody: the first player) or the first player"})
    attack_cap: Literal["none", "defender_hand"] = field(default="none", metadata={
        "help": "'none': attack cards are unlimited (an empty-handed defender must take); 'defender_hand': "
                "no attack card once the defender has no cards left"})
    player_limit: Literal[4, 5] = field(default=5, metadata={
        "help": "Most players allowed: 4 in the 2020 text, 5 in the seed"})
    bout_limit: int = field(default=1000, metadata={
        "help": "Safety stop: after this many bouts the game ends as a draw (players who always take "
                "could otherwise pass cards round for ever)"})


#: ``reference``: the 2020 program whose published log is a known answer; ``default``: the seed's rules.
PRESETS: dict[str, dict[str, Any]] = {
    "reference": {"shuffle": "reference", "deal": "blocks", "first_attacker": "first_player", "player_limit": 4},
    "default": {"shuffle": "random", "deal": "round", "first_attacker": "lowest_trump", "player_limit": 5},
}


def check(options: DurakOptions) -> None:
    """Raise :class:`InvalidOptions` for a player count over the limit or a bout limit below 1."""
    if not 2 <= options.players <= options.player_limit:
        raise InvalidOptions(f"Durak is for 2–{options.player_limit} players here, not {options.players}")
    if options.bout_limit < 1:
        raise InvalidOptions(f"bout_limit must be at least 1, not {options.bout_limit}")
