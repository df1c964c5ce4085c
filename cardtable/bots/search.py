"""The ``search`` bot: single-observer information-set MCTS over sampled worlds, for every game.

Each simulation draws one world consistent with what the seat knows (``Game.sample_world``),
walks one shared tree of action sequences (UCB1 with availability counts: a node's actions are
those legal in the current world), adds one node, plays the rest out with the game's playout
policy up to its horizon (``Game.search_hints()``), and credits every node on the path with the
value for the seat that chose it. The move is the most visited root action. Cowling, Powley and
Whitehouse, "Information Set Monte Carlo Tree Search" (2012), SO-ISMCTS.

Options: ``sims`` (simulations per decision, the budget; deterministic given the seed), ``ms``
(a time cap in milliseconds, 0 for none: the search stops early and returns its best move so far)
and ``c`` (the UCB exploration constant).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.core.bot import check_budget, parse_bot_options
from cardtable.core.game import Game
from cardtable.core.observation import Observation
from cardtable.core.types import Seat


@dataclass(frozen=True)
class SearchOptions:
    """The search budget and exploration."""

    sims: int = 200
    ms: float = 0.0
    c: float = 0.7
    flat: int = 0

    def __post_init__(self) -> None:
        check_budget(self.sims, self.ms)
        if self.c < 0:
            raise ValueError(f"search option c must be 0 or positive, not {self.c}")
        if self.flat not in (0, 1):
            raise ValueError(f"search option flat must be 0 or 1, not {self.flat}")


def parse_search_options(values: Mapping[str, Any]) -> SearchOptions:
    """Options from ``key=value`` data (strings are converted); ``ValueError`` in one line if wrong."""
    return parse_bot_options(SearchOptions, values)


class _Node:
    """Statistics of one action sequence from the root: who chose its last action, visits, value sum."""

    __slots__ = ("seat", "children", "visits", "avail", "total", "only")

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.only: set[Any] | None = None
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0


class SearchBot:
    """SO-ISMCTS with determinization; a budget in simulations, optionally capped in milliseconds."""

    name = "search"
    accepts_options = True

    def __init__(self, game: Game[Any, Any, Any, Any], seed: int = 0, **options: Any) -> None:
        if not game.can_sample_worlds():
            raise ValueError(f"{game.info.title} cannot sample worlds, so it has no search bot")
        self.game = game
        self.options = parse_search_options(options)
        self.rng = random.Random(seed)
        hints = game.search_hints()
        self.horizon = hints.horizon
        self.value = hints.value or self._outcome_value
        self.policy = hints.policy or _random_policy
        self.candidates = hints.candidates
        self.fast_playout = hints.playout
        self.sample_world = hints.sample or game.sample_world
        self.simulations_done = 0

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> Any:
        """The most visited root action after the budget (the only legal action at once)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        seat = observation.observer
        if seat is None:
            raise ValueError("the search bot plays a seat; a spectator's observation has none")
        root = _Node(seat)
        allowed = list(legal_actions)
        if self.candidates is not None:
            allowed = list(self.candidates(observation, legal_actions)) or list(legal_actions)
            if len(allowed) == 1:
                return allowed[0]
            root.only = set(allowed)
        if self.options.flat:
            return self._flat(observation, seat, allowed)
        deadline = time.perf_counter() + self.options.ms / 1000 if self.options.ms else math.inf
        done = 0
        while done < self.options.sims:
            self._simulate(root, observation, seat)
            done += 1
            if time.perf_counter() >= deadline:
                break
        self.simulations_done = done
        legal = set(legal_actions)
        best = max((n.visits, n.total / n.visits if n.visits else 0.0, -i, a)
                   for i, (a, n) in enumerate(root.children.items()) if a in legal)
        return best[3] if best[0] > 0 else legal_actions[0]

    # Flat Monte Carlo with common random numbers (PIMC).

    def _flat(self, observation: Observation, seat: Seat, actions: list[Any]) -> Any:
        """Each sampled world scores every action with the same playout randomness; the best mean wins."""
        game = self.game
        totals = [0.0] * len(actions)
        deadline = time.perf_counter() + self.options.ms / 1000 if self.options.ms else math.inf
        worlds = max(1, self.options.sims // len(actions))
        done = 0
        while done < worlds:
            world = self.sample_world(observation, self.rng)
            seed = self.rng.randrange(2**62)
            for i, action in enumerate(actions):
                state, _ = game.apply_unchecked(world, seat, action)
                saved, self.rng = self.rng, random.Random(seed)
                try:
                    totals[i] += self.value(self._playout(world, state), seat)
                finally:
                    self.rng = saved
            done += 1
            if time.perf_counter() >= deadline:
                break
        self.simulations_done = done * len(actions)
        return actions[max(range(len(actions)), key=lambda i: (totals[i], -i))]

    # One simulation.

    def _simulate(self, root: _Node, observation: Observation, seat: Seat) -> None:
        """Sample a world, select and expand in the tree, play out, back up."""
        game, rng = self.game, self.rng
        world = self.sample_world(observation, rng)
        state, node, path = world, root, [root]
        expanded = False
        while not expanded and not self._stop(world, state):
            actor: Seat = game.to_act(state)  # type: ignore[assignment]  # not None: _stop checked it
            legal = game.legal_actions(state, actor)
            if node.only is not None:
                legal = [a for a in legal if a in node.only]
            untried = [a for a in legal if a not in node.children]
            for a in legal:
                child = node.children.get(a)
                if child is not None:
                    child.avail += 1
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = node.children[action] = _Node(actor)
                expanded = True
            else:
                action = self._select(node, legal)
                child = node.children[action]
            state, _ = game.apply_unchecked(state, actor, action)
            node = child
            path.append(node)
        state = self._playout(world, state)
        values: dict[Seat, float] = {}
        for n in path[1:]:
            if n.seat not in values:
                values[n.seat] = self.value(state, n.seat)
            n.visits += 1
            n.total += values[n.seat]

    def _select(self, node: _Node, legal: Sequence[Any]) -> Any:
        """UCB1 over the children legal in this world, counting availability rather than parent visits."""
        c = self.options.c
        best, best_score = legal[0], -math.inf
        for a in legal:
            child = node.children[a]
            score = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
            if score > best_score:
                best, best_score = a, score
        return best

    def _playout(self, world: Any, state: Any) -> Any:
        """Play from ``state`` to the horizon (or the game's end): the game's own playout, else the policy."""
        if self.fast_playout is not None:
            return self.fast_playout(world, state, self.rng)
        game, rng, policy = self.game, self.rng, self.policy
        while not self._stop(world, state):
            actor: Seat = game.to_act(state)  # type: ignore[assignment]  # not None: _stop checked it
            action = policy(state, actor, game.legal_actions(state, actor), rng)
            state, _ = game.apply_unchecked(state, actor, action)
        return state

    def _stop(self, world: Any, state: Any) -> bool:
        """Whether a simulation ends at ``state``."""
        if self.game.to_act(state) is None:
            return True
        return self.horizon is not None and self.horizon(world, state)

    def _outcome_value(self, state: Any, seat: Seat) -> float:
        """1 for a winner of a finished game, 0 otherwise (the default value)."""
        outcome = self.game.outcome(state)
        return 1.0 if outcome is not None and seat in outcome.winners else 0.0


def _random_policy(state: Any, seat: Seat, legal: Sequence[Any], rng: random.Random) -> Any:
    """A uniformly random legal action."""
    return legal[rng.randrange(len(legal))]
