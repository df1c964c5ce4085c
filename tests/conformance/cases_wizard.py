"""Wizard option sets for the conformance suite: 3–6 players, every toggle combination, both presets.

Most cases stop after 5 rounds to stay fast; a few play the whole game (the last round has no trump).
"""

from itertools import product

CASES = [
    {"players": players, "rounds": 5, "wizard_trump": trump, "bids_may_not_equal_tricks": sum_rule,
     "hidden_bids": hidden}
    for players, trump, sum_rule, hidden in product((3, 4, 5, 6), ("dealer_chooses", "no_trump"),
                                                     (False, True), (False, True))
    if (players + (trump == "no_trump") + sum_rule + hidden) % 2 == 0 or players == 4
] + [
    {"players": 3, "preset": "official", "rounds": 10},
    {"players": 5, "preset": "house", "rounds": 5, "hidden_bids": True},
    {"players": 4, "preset": "official"},
    {"players": 6, "preset": "house", "first_dealer": 5},
]
