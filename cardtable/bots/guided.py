"""Net-guided search, ``learned_search``: the learned net proposes a move, the game's search may overrule it.

The net (``cardtable.bots.learned``) ranks the legal moves from the seat's encoding; its favourite is
the **default**. The game's own search then scores the candidates on the same sampled deals, played
out by its compiled playouts where they are compiled (common random numbers: every candidate meets
the same luck), and another move replaces the default only when its paired gain over the default is
at least ``z`` standard errors. So the net is the search's prior in the simplest sense: it decides
whatever the playouts cannot tell apart, and the playouts correct its clear mistakes.

Per game:

- **Crazy Eights**: the particle search (``crazy_eights.players.search``: deals read exactly, 1,000
  playouts culled in batches), with the net's move in place of the heuristic's as the default.
- **Wizard**: the PIMC search (``wizard.players.search``: 256 weighted deals, bid-aware playouts),
  with the net's bids, its trump choice and its card as the default (the search bids as the heuristic).
- **Kaiser**: flat Monte Carlo over ``kaiser.world``'s deals and its compiled hand playouts (the
  ``search`` bot's hints), ``sims`` playouts shared by the candidates, the net's move the default.
- **Durak**: the net while the deck lasts; once the deck is empty and one opponent is left, every
  card is known and the ending is solved exactly (``durak.players.solver``: alpha-beta over the
  game's own moves, up to 3,000 positions; past that each action is read out to the game's end by
  ``durak.players.endgame``); the net's move stands unless another ends better.

Options: ``z`` (standard errors a move must gain over the net's; 0 lets the best mean win),
``sims`` (Kaiser: playouts per decision; the other games keep their search's options, passed
through: ``sims``, ``ms``, ...), ``weights`` (another weights file, as for ``learned``).
Choices are the same for the same seed and observations.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from cardtable.bots.learned import LearnedBot
from cardtable.core.game import Game
from cardtable.core.observation import Observation

#: Standard errors a move must gain over the net's move (paired on the same deals) to replace it.
DEFAULT_Z = 1.0


def paired_choice(rows: Sequence[Sequence[float]], base: int, z: float) -> int:
    """The column of best mean in ``rows`` (one row per deal), unless its paired gain over ``base`` is under
    ``z`` standard errors: then ``base``. Ties go to the lower column."""
    n = len(rows)
    if n == 0:
        return base
    k = len(rows[0])
    means = [math.fsum(row[i] for row in rows) / n for i in range(k)]
    best = max(range(k), key=lambda i: (means[i], -i))
    if best == base:
        return base
    gain = means[best] - means[base]
    if n < 2:
        return best if gain > 0 and z == 0 else base
    var = math.fsum((row[best] - row[base] - gain) ** 2 for row in rows) / (n - 1)
    return best if gain > z * math.sqrt(var / n) else base


def _z(options: dict[str, Any]) -> float:
    raw = options.pop("z", DEFAULT_Z)
    try:
        z = float(raw)
    except (TypeError, ValueError):
        raise ValueError(f"learned_search option z must be a number, not {raw!r}") from None
    if not 0 <= z <= 10 or isinstance(raw, bool):
        raise ValueError(f"learned_search option z must be 0 to 10, not {raw!r}")
    return z


# Durak: the net, then the known ending read out.


class DurakGuidedBot:
    """The net while the deck lasts; the ending read out once every card is known."""

    name = "learned_search"
    accepts_options = True

    def __init__(self, game: Game[Any, Any, Any, Any], seed: int = 0, *, weights: str | None = None,
                 budget: int | None = None) -> None:
        from cardtable.games.durak.players.solver import BUDGET

        self.net = LearnedBot(game, seed, weights=weights)
        self.budget = BUDGET if budget is None else budget
        self.solved = 0

    def check_options(self, options: Any) -> None:
        """``WeightsError`` unless the net plays ``options``."""
        self.net.check_options(options)

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> Any:
        """The net's move, unless the solved (or, past the budget, read-out) ending of another is better."""
        from cardtable.games.durak import world
        from cardtable.games.durak.players.endgame import EndgameBot, read_out
        from cardtable.games.durak.players.solver import solve

        order = self.net.ranking(observation, legal_actions)
        if len(legal_actions) == 1 or not EndgameBot.known_endgame(observation):
            return legal_actions[order[0]]
        obs: Any = observation
        state = world.sample_world(obs, random.Random(0))  # the deck is empty: the one consistent world
        ranked = [legal_actions[i] for i in order]
        values = solve(state, obs.seat, ranked, self.budget)
        self.solved += values is not None
        if values is None:
            values = [read_out(state, obs.seat, a) for a in ranked]
        best = max(range(len(ranked)), key=lambda j: (values[j], -j))
        return ranked[best]


# Kaiser: flat Monte Carlo on the search's deals and playouts.


class FlatGuidedBot:
    """The net's move unless flat Monte Carlo over the game's search hints beats it clearly."""

    name = "learned_search"
    accepts_options = True

    def __init__(self, game: Game[Any, Any, Any, Any], seed: int = 0, *, weights: str | None = None,
                 sims: int = 400, z: float = DEFAULT_Z) -> None:
        if not 1 <= sims <= 1_000_000:
            raise ValueError(f"learned_search option sims must be 1 to 1000000, not {sims}")
        self.game = game
        self.net = LearnedBot(game, seed, weights=weights)
        self.rng = random.Random(seed)
        self.sims, self.z = sims, z
        hints = game.search_hints()
        if hints.playout is None or hints.value is None:
            raise ValueError(f"{game.info.name} has no compiled playout for a guided search")
        self.playout: Callable[[Any, Any, random.Random], Any] = hints.playout
        self.value: Callable[[Any, Any], float] = hints.value
        self.candidates = hints.candidates
        self.sample = hints.sample or game.sample_world
        self.simulations_done = 0

    def check_options(self, options: Any) -> None:
        """``WeightsError`` unless the net plays ``options``."""
        self.net.check_options(options)

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> Any:
        """The net's favourite candidate, or the one the playouts prefer by ``z`` paired standard errors."""
        moves = list(legal_actions)
        if self.candidates is not None:
            moves = list(self.candidates(observation, legal_actions)) or moves
        if len(moves) == 1:
            return moves[0]
        order = self.net.ranking(observation, moves)
        moves = [moves[i] for i in order]  # the net's favourite first: column 0 is the default
        seat = observation.observer
        if seat is None:
            raise ValueError("learned_search plays a seat; a spectator's observation has none")
        game, rng = self.game, self.rng
        rows = []
        for _ in range(max(2, self.sims // len(moves))):
            world = self.sample(observation, rng)
            seed = rng.randrange(2**62)
            row = []
            for move in moves:
                state, _ = game.apply_unchecked(world, seat, move)
                row.append(self.value(self.playout(world, state, random.Random(seed)), seat))
            rows.append(row)
        self.simulations_done = len(rows) * len(moves)
        return moves[paired_choice(rows, 0, self.z)]


def guided_bot(game: Game[Any, Any, Any, Any], seed: int = 0, **options: Any) -> Any:
    """The ``learned_search`` bot of ``game`` (see the module's docstring); ``ValueError`` for a bad option."""
    options = dict(options)
    weights = options.pop("weights", None)
    name = game.info.name
    if name == "durak":
        if options:
            raise ValueError(f"learned_search has no option {sorted(options)[0]!r} in durak (known: weights)")
        return DurakGuidedBot(game, seed, weights=weights)
    z = _z(options)
    if name == "kaiser":
        unknown = set(options) - {"sims"}
        if unknown:
            raise ValueError(f"learned_search has no option {sorted(unknown)[0]!r} in kaiser (known: sims, z, weights)")
        raw = options.get("sims", 400)
        if isinstance(raw, bool) or not str(raw).isdigit():
            raise ValueError(f"learned_search option sims must be a whole number, not {raw!r}")
        return FlatGuidedBot(game, seed, weights=weights, sims=int(raw), z=z)
    if name == "crazy_eights":
        from cardtable.games.crazy_eights.players.guided import NetGuidedSearch

        return NetGuidedSearch(LearnedBot(game, seed, weights=weights), z, seed, **options)
    if name == "wizard":
        from cardtable.games.wizard.players.guided import NetGuidedPimc

        return NetGuidedPimc(LearnedBot(game, seed, weights=weights), z, seed, **options)
    raise ValueError(f"no learned_search for {name}")


guided_bot.accepts_options = True  # type: ignore[attr-defined]

#: The games with a ``learned_search`` bot.
GUIDED_GAMES = ("crazy_eights", "durak", "kaiser", "wizard")
