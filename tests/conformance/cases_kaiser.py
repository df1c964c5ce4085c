"""Kaiser option sets for the conformance suite: every floor, both no-trump settings, every target.

Targets 52 and 62 appear once each (their random games run longer); the rest play to 32.
"""

CASES = [
    {"players": 4},
    {"players": 4, "floor": 5, "target": 62},
    {"players": 4, "floor": 6, "target": 32, "no_trump": False},
    {"players": 4, "floor": 7, "target": 32},
    {"players": 4, "floor": 8, "target": 32},
]
