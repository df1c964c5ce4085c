"""What a game tells a search bot besides ``sample_world``: where to stop a playout and what it is worth.

A game returns :class:`SearchHints` from ``Game.search_hints()``. The defaults play to the end of
the game with random moves and value the outcome (a win share above the fair share).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.core.types import Seat

Horizon = Callable[[Any, Any], bool]
"""``(root_world, state) -> bool``: stop the playout at ``state`` (the game being over always stops it)."""

Value = Callable[[Any, Seat], float]
"""``(state, seat) -> float``: what ``state`` is worth to ``seat``, roughly in -1 … 1."""

Candidates = Callable[[Any, Sequence[Any]], Sequence[Any]]
"""``(observation, legal_actions) -> actions``: the root actions worth searching (a non-empty subset)."""

Policy = Callable[[Any, Seat, Sequence[Any], random.Random], Any]
"""``(state, seat, legal_actions, rng) -> action``: the move a playout makes (cheap: it reads the state)."""

Playout = Callable[[Any, Any, random.Random], Any]
"""``(root_world, state, rng) -> end``: a game's own fast playout from ``state`` to the horizon; ``value``
reads what it returns (it replaces the step-by-step playout with ``policy``)."""

Sampler = Callable[[Any, random.Random], Any]
"""``(observation, rng) -> world``: the search's own world sampler, e.g. one that also reads the bidding
(``Game.sample_world`` stays the unbiased one: every consistent world can be drawn)."""


@dataclass(frozen=True)
class SearchHints:
    """Playout horizon, value and policy for a game; ``None`` fields mean the defaults."""

    horizon: Horizon | None = None
    value: Value | None = None
    policy: Policy | None = None
    candidates: Candidates | None = None
    playout: Playout | None = None
    sample: Sampler | None = None
