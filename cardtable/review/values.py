"""What a decision is worth in each game: the unit, where a playout stops, the value and the marks.

A review scores each option of a decision by playing sampled worlds out to a horizon and reading a
value there, in the game's own points (docs/review.md states each):

- Wizard: the seat's points in the current round (20 + 10 a trick for an exact bid, -10 a trick off).
- Kaiser: the seat's side's change of score in the current hand minus the other side's.
- Mus: the tantos the seat's pair gains in the current hand minus the other pair's; a game won (lost)
  in the hand counts as the tantos the winner still needed.
- Durak: the game's result for the seat: +1 leaving first, -1 the fool, 0 otherwise.
- Crazy Eights: the others' mean penalty points in the current round minus the seat's own.

Playouts use each game's fast playout policy (the one its search bot uses), the strongest policy
cheap enough to run thousands of times per decision: the learned nets take about 0.3 ms a decision,
hundreds of times a playout step. A decision is marked a "mistake" or a "blunder" when its loss is at
least the game's threshold and at least twice its standard error (``ReviewSpec.mark``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.core.game import Game
from cardtable.core.search import Horizon, Policy
from cardtable.core.types import Seat

AnyGame = Game[Any, Any, Any, Any]

Playout = Callable[[Any, Any, random.Random], Any]
"""``(root_world, state, rng) -> end``: play from ``state`` to the horizon."""

Value = Callable[[Any, Any, Seat], float]
"""``(root_world, end, seat) -> points``: what the playout's end is worth to ``seat``, in the game's unit."""

Scores = Callable[[Any], list[float]]
"""``(spectator_observation) -> scores``: the public score line the chart draws (per seat or per side)."""


@dataclass(frozen=True)
class ReviewSpec:
    """How one game's decisions are valued: unit, playout, value, public scores and mark thresholds."""

    game: str
    unit: str
    horizon: str
    playout: Playout
    value: Value
    scores: Scores
    score_labels: str  # "seat" or "side": what the chart's score lines are
    mistake: float
    blunder: float

    def mark(self, loss: float, error: float) -> str | None:
        """``"blunder"``, ``"mistake"`` or None: a loss above the threshold and clearly above the noise."""
        if loss < 2.0 * error:
            return None
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        return None


def stepwise(game: AnyGame, horizon: Horizon | None, policy: Policy) -> Playout:
    """A playout that steps the engine with ``policy`` until ``horizon`` (or the game's end)."""
    to_act, legal_actions, apply = game.to_act, game.legal_actions, game.apply_unchecked

    def playout(world: Any, state: Any, rng: random.Random) -> Any:
        while True:
            actor = to_act(state)
            if actor is None or (horizon is not None and horizon(world, state)):
                return state
            state, _ = apply(state, actor, policy(state, actor, legal_actions(state, actor), rng))

    return playout


def bot_policy(game: AnyGame, bot: Any) -> Policy:
    """A playout policy from a bot that reads observations (slower: one observation a step)."""
    observe = game.observe

    def policy(state: Any, seat: Seat, legal: Sequence[Any], rng: random.Random) -> Any:
        return bot.act(observe(state, seat), legal)

    return policy


# The games.


def _wizard(game: AnyGame) -> ReviewSpec:
    from cardtable.games.wizard import world

    def value(root: Any, end: Any, seat: Seat) -> float:
        return float(end.sheet[-1].points[seat])

    return ReviewSpec("wizard", "points of the round", "the end of the round",
                      stepwise(game, world.round_over, world.playout_policy), value,
                      lambda obs: [float(t) for t in obs.totals], "seat", mistake=8.0, blunder=20.0)


def _kaiser(game: AnyGame) -> ReviewSpec:
    from cardtable.games.kaiser import world

    def value(root: Any, end: Any, seat: Seat) -> float:
        side = seat & 1
        return float(end.change[side] - end.change[1 - side])

    return ReviewSpec("kaiser", "points of the hand (our side's minus theirs)", "the end of the hand",
                      world.fast_playout, value, lambda obs: [float(t) for t in obs.totals], "side",
                      mistake=2.0, blunder=5.0)


def _mus(game: AnyGame) -> ReviewSpec:
    from cardtable.games.mus import world

    def value(root: Any, end: Any, seat: Seat) -> float:
        pair = seat & 1
        mine, theirs = root.tanteo[pair], root.tanteo[1 - pair]
        target = root.options.scoring.target
        if end.game_no != root.game_no or end.winner is not None:
            won = end.games[pair] > root.games[pair] or end.winner == pair
            return float(target - mine) if won else -float(target - theirs)
        return float((end.tanteo[pair] - mine) - (end.tanteo[1 - pair] - theirs))

    return ReviewSpec("mus", "tantos of the hand (our pair's minus theirs)", "the end of the hand",
                      stepwise(game, world.hand_over, world.playout_policy), value,
                      lambda obs: [float(t) for t in obs.tanteo], "side", mistake=2.0, blunder=5.0)


def _durak(game: AnyGame) -> ReviewSpec:
    from cardtable.games.durak import world

    def value(root: Any, end: Any, seat: Seat) -> float:
        return world.game_value(end, seat)

    return ReviewSpec("durak", "game result (+1 out first, -1 the fool)", "the end of the game",
                      stepwise(game, None, world.playout_policy), value,
                      lambda obs: [float(-n) for n in obs.hand_counts], "seat", mistake=0.1, blunder=0.25)


def _crazy_eights(game: AnyGame) -> ReviewSpec:
    from cardtable.games.crazy_eights.players.heuristic import HeuristicBot

    def over(world: Any, state: Any) -> bool:
        return len(state.sheet) > len(world.sheet)

    def value(root: Any, end: Any, seat: Seat) -> float:
        if len(end.sheet) == len(root.sheet):  # the game ended without scoring the round (cannot happen)
            return 0.0
        penalties = end.sheet[len(root.sheet)].penalties
        return float((sum(penalties) - penalties[seat]) / (len(penalties) - 1) - penalties[seat])

    return ReviewSpec("crazy_eights", "penalty points of the round (the others' mean minus ours)",
                      "the end of the round",
                      stepwise(game, over, bot_policy(game, HeuristicBot())), value,
                      lambda obs: [float(-t) for t in obs.totals], "seat", mistake=5.0, blunder=15.0)


_SPECS: dict[str, Callable[[AnyGame], ReviewSpec]] = {
    "wizard": _wizard, "kaiser": _kaiser, "mus": _mus, "durak": _durak, "crazy_eights": _crazy_eights,
}


def spec_for(game: AnyGame) -> ReviewSpec:
    """The review spec of ``game``; ``ValueError`` for a game without one (a plugin's)."""
    make = _SPECS.get(game.info.name)
    if make is None or not game.can_sample_worlds():
        raise ValueError(f"{game.info.title} has no game review (reviews cover {', '.join(sorted(_SPECS))})")
    return make(game)


def reviewable_games() -> tuple[str, ...]:
    """The names of the games a review covers."""
    return tuple(sorted(_SPECS))
