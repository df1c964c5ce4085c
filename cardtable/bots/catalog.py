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


#: Simulations per decision of the named search budgets, per game (others: ``SearchOptions`` defaults).
SEARCH_SIMS: dict[str, dict[str, int]] = {}

_GENERIC = {
    "random": BotInfo("Random: any legal move (beginner)", 9, 0.0),
}

BOT_INFO: dict[str, dict[str, BotInfo]] = {}

#: The computer player used when none is named.
DEFAULT_BOT: dict[str, str] = {}


def bot_info(game: str, bot: str) -> BotInfo | None:
    """The metadata of ``bot`` in ``game`` (None if it has none)."""
    return BOT_INFO.get(game, {}).get(bot) or _GENERIC.get(bot)
