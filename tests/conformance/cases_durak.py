"""Durak option sets for the conformance suite: 2–4 players on the reference rules, 2–5 on the default
rules, the attack cap on, and a tiny bout limit so the safety stop (a draw) is exercised too."""

CASES = [
    {"players": 2, "preset": "reference"},
    {"players": 3, "preset": "reference"},
    {"players": 4, "preset": "reference"},
    {"players": 2, "preset": "default"},
    {"players": 3, "preset": "default"},
    {"players": 4, "preset": "default"},
    {"players": 5, "preset": "default"},
    {"players": 2, "preset": "reference", "attack_cap": "defender_hand"},
    {"players": 4, "preset": "default", "attack_cap": "defender_hand"},
    {"players": 3, "shuffle": "reference", "deal": "round", "first_attacker": "first_player", "bout_limit": 5},
]
