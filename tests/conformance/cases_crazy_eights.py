"""Crazy Eights option sets for the conformance suite: 2–6 players, every hand size, both drawing rules, 1/3/5 rounds.

Most cases play one round to keep the suite quick; the 3- and 5-round cases prove the
dealer rotation and redeal. (6 players × 9 cards does not fit the deck and is rejected.)
"""

CASES = [
    {"players": 2},
    {"players": 2, "hand_size": 5, "draw_until_playable": False, "rounds": 5},
    {"players": 3, "hand_size": 9, "draw_until_playable": False},
    {"players": 3, "hand_size": 7, "rounds": 1},
    {"players": 4, "rounds": 1},
    {"players": 4, "hand_size": 5, "draw_until_playable": False, "rounds": 1},
    {"players": 5, "hand_size": 9, "rounds": 1},
    {"players": 5, "hand_size": "auto", "draw_until_playable": False, "rounds": 1},
    {"players": 6, "hand_size": 7, "draw_until_playable": False, "rounds": 1},
    {"players": 6, "rounds": 1},
]
