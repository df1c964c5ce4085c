"""Bot metadata as data: a label, a strength rank and a typical decision time per game and bot name.

The lobby shows the labels; the default computer player of a game is ``DEFAULT_BOT[game]``, the
strongest that decides within about a second on a shared 2-core machine (``benchmarks/strength.py``
measures both strength and decision times; the figures are in ``docs/bots.md``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BotInfo:
    """What the lobby says about a bot: its label, rank (1 strongest) and typical decision time."""

    label: str
    strength: int
    typical_ms: float


#: Options of the named search budgets, per game (others: ``SearchOptions`` defaults). Crazy Eights
#: has its own search (``crazy_eights.players.search``), which takes no part in these; so do Mus
#: (``mus.players.search``) and Wizard (``wizard.players.search``; 256 sampled deals, ``search_quick`` 8).
SEARCH_OPTIONS: dict[str, dict[str, dict[str, int]]] = {
    "durak": {"search": {"sims": 150}, "search_quick": {"sims": 40}},
    "kaiser": {"search": {"sims": 500}, "search_quick": {"sims": 40}},
}

_GENERIC = {
    "random": BotInfo("Random: any legal move (beginner)", 9, 0.0),
    # Learned players (cardtable.bots.learned): a net per game and option set, where one ships; the decision
    # time is ``benchmarks/learned.py``'s median (building the encoding from the observation, the forward pass).
    "learned": BotInfo("Learned: a network trained on the batch core's games (fast)", 3, 0.3),
}

# Typical decision times: the median over all of a bot's decisions (forced ones included) printed by
# ``benchmarks/strength.py --game G --lineup BOT heuristic ...`` on the shared 2-core machine, with the
# compiled playouts built (2026-12-02); docs/bots.md has the 99th percentiles.
_SEARCH = BotInfo("Search: plays out sampled deals (strongest, thinks up to about a second)", 1, 24.0)
_QUICK = BotInfo("Quick search: fewer sampled deals (strong, fast)", 2, 7.6)

BOT_INFO: dict[str, dict[str, BotInfo]] = {
    "wizard": {
        "learned_search": BotInfo("Learned + search: the net's bids; its cards overruled by 256 sampled deals "
                                  "where clearly worse (strongest, under a second)", 1, 1.9),
        "search": BotInfo("Search: plays out 256 sampled deals per card (strongest, well under a second)", 1, 0.6),
        "search_quick": BotInfo("Quick search: 8 sampled deals per card (like the heuristic, fast)", 3, 2.0),
        "heuristic": BotInfo("Heuristic: counts expected tricks, chases or ducks (fast)", 3, 0.05),
        "chase_duck": BotInfo("Chase or duck: strongest card while short, weakest once made (baseline)", 4, 0.01),
        "lowest": BotInfo("Lowest: always the lowest card (baseline)", 5, 0.01),
    },
    "mus": {
        "reader": BotInfo("Reader: reads declarations and envites, weighs the score (strongest, fast)", 1, 1.0),
        "search": BotInfo("Search: envites by sampled showdowns (about as strong as simple)", 4, 30.0),
        "careful": BotInfo("Careful: hand strength per lance and the score (fast)", 3, 0.01),
        "counting": BotInfo("Counting: counts reyes, ases, pares and juego (baseline, fast)", 2, 0.01),
        "simple": BotInfo("Simple: thresholds on hand strength (fast)", 4, 0.01),
    },
    "durak": {
        "learned_search": BotInfo("Learned + search: the net while the deck lasts, then the ending solved exactly "
                                  "(strongest, well under a second)", 1, 0.14),
        "search": _SEARCH, "search_quick": _QUICK,
        "endgame": BotInfo("Endgame: reads out the ending once the deck is empty (strong, fast)", 2, 0.05),
        "careful": BotInfo("Careful: defends when it can, sheds pairs (fast)", 3, 0.01),
        "heuristic": BotInfo("Heuristic: the 2020 program keeping its trumps (fast)", 3, 0.01),
        "scripted": BotInfo("Scripted: the 2020 program's player (fast)", 4, 0.01),
        "lowest": BotInfo("Lowest: always the lowest card (baseline)", 4, 0.01),
    },
    "kaiser": {
        "learned_search": BotInfo("Learned + search: the net's moves, overruled by 400 sampled deals' playouts "
                                  "where clearly worse (strongest, under a second)", 1, 16.0),
        "search": BotInfo("Search: plays out 500 sampled deals per move (strongest, well under a second)", 1, 20.0),
        "search_quick": BotInfo("Quick search: 40 sampled deals per move (fast; about even with the heuristic)",
                                3, 1.1),
        "heuristic": BotInfo("Heuristic: rates trumps, chases the 5♥ (fast)", 3, 0.05),
        "lowest": BotInfo("Lowest: counts aces and kings to bid, always the lowest card (baseline)", 4, 0.01),
    },
    "crazy_eights": {
        "learned_search": BotInfo("Learned + search: the net's moves, overruled by 1000 sampled deals where "
                                  "clearly worse (strong, under a second)", 2, 0.08),
        "search": BotInfo("Search: reads the hands exactly, plays out 1000 sampled deals per choice "
                          "(wins about a third of four-player games against heuristics; under a second)", 1, 0.06),
        "search_quick": BotInfo("Quick search: reads the hands exactly, 250 sampled deals per choice "
                                "(fast; about as strong as far as measured)", 2, 0.09),
        "heuristic": BotInfo("Heuristic: costliest card first, saves eights (fast)", 3, 0.01),
        "first": BotInfo("First: the first playable card (baseline)", 5, 0.0),
    },
}

#: The computer player used when none is named: the strongest that decides within about a second.
DEFAULT_BOT: dict[str, str] = {
    "wizard": "search",
    "mus": "reader",
    "durak": "endgame",
    "kaiser": "search",
    "crazy_eights": "search",
}

#: The default at a table whose options a shipped net was trained for, where that learned player beats
#: ``DEFAULT_BOT`` head to head (docs/learning.md): Mus's learned pair won 0.575 [0.551, 0.599] of 1600
#: games against the ``reader`` pair; Kaiser's ``learned_search`` pair 0.592 [0.502, 0.675] of 120 against
#: the ``search`` pair; Durak's ``learned_search`` 0.583 [0.548, 0.616] of 800 against ``endgame``; four-player
#: Wizard's ``learned_search`` 0.335 [0.313, 0.357] of 1800 against three ``search`` bots (a fair share 0.25).
#: Other tables keep ``DEFAULT_BOT``.
DEFAULT_WHERE_TRAINED: dict[str, str] = {
    "mus": "learned",
    "kaiser": "learned_search",
    "durak": "learned_search",
    "wizard": "learned_search",
}


def bot_info(game: str, bot: str) -> BotInfo | None:
    """The metadata of ``bot`` in ``game`` (None if it has none)."""
    return BOT_INFO.get(game, {}).get(bot) or _GENERIC.get(bot)
