"""Mus option sets for the conformance suite: short games for most toggles, one at the full 40."""

CASES = [
    {"players": 4, "scoring.target": 10},
    {"players": 4, "scoring.target": 12, "signals.enabled": True, "signals.interception_p": 0.5},
    {"players": 4, "scoring.target": 10, "modalidad": "4R", "betting.raise_rule": "double"},
    {"players": 4, "scoring.target": 10, "scoring.negada_ends_game": False, "scoring.deje_en_el_acto": False,
     "scoring.ordago_cancels_earlier_bets": False},
    {"players": 4, "scoring.target": 8, "match.games_to_win": 2, "mus.max_rounds": 2},
    {"players": 4, "preset": "senas", "scoring.target": 15},
    {"players": 4},
]
