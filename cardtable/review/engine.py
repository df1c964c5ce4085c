"""The review of a finished game: every decision of a seat, each option's value from what the seat knew.

For each decision (a seat to act with more than one option) the review takes the seat's observation,
and only it: ``budget`` worlds are sampled consistently with it (``Game.sample_world``, as the search
bots do); in each, every option is applied and the world played out to the game's horizon with the same
playout randomness for every option (common random numbers), and the end valued in the game's points
(:mod:`cardtable.review.values`). An option's value is its mean; the chosen option's loss is cross-fitted:
the option best on one half of the worlds against the chosen one on the other half, both ways, averaged
over random splits, with a bootstrap standard error (so noise alone does not make a good move look costly;
``_cross_fitted_loss``). All randomness
comes from ``seed`` and the decision's step, so a seeded review is reproducible exactly.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from cardtable.core.codec import to_json
from cardtable.core.errors import IllegalAction
from cardtable.core.observation import Observation
from cardtable.core.record import GameRecord
from cardtable.core.types import Seat
from cardtable.review.values import AnyGame, ReviewSpec, spec_for

#: The valuation method's number, in every review's JSON: 2 since the losses are cross-fitted. A stored review
#: of an older method is worked out again when asked for (``cardtable.store.reviews``).
METHOD = 2

#: Worlds sampled per decision: the default, and the range a caller may ask for.
DEFAULT_BUDGET = 24
MIN_BUDGET, MAX_BUDGET = 2, 2000

Progress = Callable[[int, int], None]
"""``(decisions_done, decisions_total)``: called after each reviewed decision."""


class ReviewError(ValueError):
    """A review that cannot be made: a record that does not replay, a seat off the table, a bad budget."""


@dataclass(frozen=True)
class OptionValue:
    """One option of a decision: the action, its mean value and that mean's standard error.

    ``open_value`` is the "open cards" value: the option played out from the true position, every hand
    (and the stock) known. It is shown beside the estimate, labelled, and takes no part in it.
    """

    action: Any
    value: float
    error: float
    open_value: float | None = None

    def to_json(self, game: AnyGame) -> dict[str, Any]:
        """JSON: the action (JSON and words), value, error and the open-cards value."""
        return {"action": to_json(self.action), "text": game.describe_action(self.action),
                "value": _round(self.value), "error": _round(self.error),
                "open_value": None if self.open_value is None else _round(self.open_value)}


@dataclass(frozen=True)
class DecisionReview:
    """One decision: where in the record, the options (best first), the chosen one and its loss."""

    step: int
    seat: Seat
    observation: Observation
    chosen: Any
    options: tuple[OptionValue, ...]
    loss: float
    error: float
    mark: str | None
    worlds: int
    best_value: float = field(default=0.0)

    def to_json(self, game: AnyGame) -> dict[str, Any]:
        """JSON for the page, the CLI and the API: the seat's view then, options, loss, error and mark."""
        return {"step": self.step, "seat": self.seat, "observation": to_json(self.observation),
                "chosen": to_json(self.chosen), "chosen_text": game.describe_action(self.chosen),
                "options": [o.to_json(game) for o in self.options], "loss": _round(self.loss),
                "error": _round(self.error), "mark": self.mark, "worlds": self.worlds}


@dataclass(frozen=True)
class GameReview:
    """A seat's review of a whole game, with the public score line for the chart."""

    game: str
    seat: Seat
    budget: int
    seed: int
    unit: str
    horizon: str
    thresholds: tuple[float, float]
    decisions: tuple[DecisionReview, ...]
    scores: tuple[tuple[int, tuple[float, ...]], ...]
    score_labels: str
    forced: int

    @property
    def mean_loss(self) -> float:
        """The mean loss per reviewed decision (0 with none)."""
        return sum(d.loss for d in self.decisions) / len(self.decisions) if self.decisions else 0.0

    def count(self, mark: str) -> int:
        """How many decisions carry ``mark``."""
        return sum(d.mark == mark for d in self.decisions)

    def to_json(self, game: AnyGame) -> dict[str, Any]:
        """The whole review as JSON (``cardtable review --json``, the REST API, the page)."""
        spec = spec_for(game)
        return assemble_json(game, spec, self.seat, self.budget, self.seed, [d.to_json(game) for d in self.decisions],
                             self.scores, self.forced)


def assemble_json(game: AnyGame, spec: ReviewSpec, seat: Seat, budget: int, seed: int,
                  decisions: list[dict[str, Any]], scores: Sequence[tuple[int, Sequence[float]]],
                  forced: int) -> dict[str, Any]:
    """A review's JSON from its decisions' JSON (made here, or in chunks by workers: ``review_chunk``)."""
    losses = [d["loss"] for d in decisions]
    return {"game": game.info.name, "title": game.info.title, "seat": seat, "budget": budget, "seed": seed,
            "method": METHOD, "unit": spec.unit, "horizon": spec.horizon,
            "thresholds": {"mistake": spec.mistake, "blunder": spec.blunder},
            "mean_loss": _round(sum(losses) / len(losses)) if losses else 0.0, "total_loss": _round(sum(losses)),
            "mistakes": sum(d["mark"] == "mistake" for d in decisions),
            "blunders": sum(d["mark"] == "blunder" for d in decisions), "forced": forced,
            "score_labels": spec.score_labels,
            "scores": [{"step": step, "scores": list(values)} for step, values in scores],
            "decisions": decisions}


def _round(x: float) -> float:
    return round(x, 4)


def check_budget(budget: int) -> int:
    """``budget`` if it is a whole number of worlds in range; ``ReviewError`` otherwise."""
    if type(budget) is not int or not MIN_BUDGET <= budget <= MAX_BUDGET:
        raise ReviewError(f"a review budget is {MIN_BUDGET}–{MAX_BUDGET} sampled worlds a decision, not {budget!r}")
    return budget


# One decision.


def review_position(game: AnyGame, state: Any, seat: Seat, chosen: Any, *, budget: int = DEFAULT_BUDGET,
                    seed: int = 0, step: int = 0, spec: ReviewSpec | None = None) -> DecisionReview:
    """The review of ``seat`` choosing ``chosen`` in ``state``, computed from the seat's observation alone."""
    spec = spec or spec_for(game)
    observation = game.observe(state, seat)
    legal = game.legal_actions(state, seat)
    review = review_decision(game, spec, observation, legal, chosen, budget=budget, rng=_rng(seed, step), step=step)
    rng = _rng(seed, -1 - step)
    playouts = max(1, budget // OPEN_SHARE)
    seeds = [rng.randrange(2**62) for _ in range(playouts)]
    options = [replace(o, open_value=_open_value(game, spec, state, seat, o.action, seeds)) for o in review.options]
    return replace(review, options=tuple(options))


#: The open-cards value plays ``budget // OPEN_SHARE`` playouts an option from the true position (at least one).
OPEN_SHARE = 8


def _open_value(game: AnyGame, spec: ReviewSpec, state: Any, seat: Seat, action: Any, seeds: list[int]) -> float:
    """The option's mean value played out from the true position (every hand known), the same seeds for all."""
    after, _ = game.apply_unchecked(state, seat, action)
    return sum(spec.value(state, spec.playout(state, after, random.Random(s)), seat) for s in seeds) / len(seeds)


def review_decision(game: AnyGame, spec: ReviewSpec, observation: Observation, legal: Sequence[Any], chosen: Any,
                    *, budget: int, rng: random.Random, step: int = 0) -> DecisionReview:
    """Score each option over ``budget`` sampled worlds (common random numbers); the chosen one's loss."""
    seat = observation.observer
    if seat is None:
        raise ReviewError("a review is of a seat's decisions; a spectator's observation has none")
    options = _options(game, observation, legal, chosen)
    hints = game.search_hints()
    sample = hints.sample or game.sample_world
    apply, playout, value = game.apply_unchecked, spec.playout, spec.value
    per_world: list[list[float]] = []
    for _ in range(budget):
        world = sample(observation, rng)
        playout_seed = rng.randrange(2**62)
        row = []
        for action in options:
            after, _ = apply(world, seat, action)
            row.append(value(world, playout(world, after, random.Random(playout_seed)), seat))
        per_world.append(row)
    return _summarise(spec, observation, options, chosen, per_world, step, rng.randrange(2**63))


def _options(game: AnyGame, observation: Observation, legal: Sequence[Any], chosen: Any) -> list[Any]:
    """The options worth scoring: the game's search candidates (all legal ones by default) and the chosen one."""
    candidates = game.search_hints().candidates
    options = list(candidates(observation, legal)) if candidates is not None else list(legal)
    options = [a for a in options if a in legal] or list(legal)
    if chosen not in options:
        options.append(chosen)
    return options


def _summarise(spec: ReviewSpec, observation: Observation, options: list[Any], chosen: Any,
               per_world: list[list[float]], step: int, seed: int) -> DecisionReview:
    """Means, errors, the best option, the chosen one's loss (cross-fitted; ``seed`` for its splits) and mark."""
    n = len(per_world)
    columns = list(zip(*per_world))
    means = [sum(c) / n for c in columns]
    mine = options.index(chosen)
    best = _best(means, options, chosen)
    loss, error = _cross_fitted_loss(per_world, mine, seed)
    values = [OptionValue(a, means[i], _std_error(list(columns[i]))) for i, a in enumerate(options)]
    ordered = tuple(sorted(values, key=lambda o: (-o.value, o.action != chosen)))
    seat: Seat = observation.observer  # type: ignore[assignment]  # checked by the caller
    return DecisionReview(step, seat, observation, chosen, ordered, loss, error, spec.mark(loss, error), n,
                          means[best])


def _best(means: Sequence[float], options: Sequence[Any], chosen: Any) -> int:
    """The index of the option with the highest mean (the chosen one on a tie, else the first)."""
    return max(range(len(options)), key=lambda i: (means[i], options[i] == chosen, -i))


#: Random half-splits of the worlds averaged in a loss, and bootstrap resamples of the worlds for its error.
SPLITS, RESAMPLES = 8, 100


def _cross_fitted_loss(per_world: Sequence[Sequence[float]], mine: int, seed: int) -> tuple[float, float]:
    """The chosen option's loss and its standard error, each half of the worlds judging the other's best.

    "The best mean minus the chosen one's" over the same worlds overstates every loss: the best of several
    noisy means is high by chance, so even the best move shows a loss the size of the noise, and a good
    player's moves look as costly as a poor one's. Here the worlds are split in two halves; the option best
    on one half is compared with the chosen one on the other half, both ways, and the result is averaged
    over ``SPLITS`` random splits (one split alone varies a lot with which option a half happens to prefer).
    A move best on every half loses exactly 0; the estimate may fall below 0 when the chosen move did better
    on fresh worlds than the one the other half preferred (no loss seen). The error is the spread of the
    same estimate over ``RESAMPLES`` bootstrap resamples of the worlds, so it counts the uncertainty of which
    option is best as well as the noise of the values. ``seed`` fixes the splits and the resamples.
    """
    values = np.asarray(per_world, dtype=np.float64)
    n = values.shape[0]
    rng = np.random.default_rng(seed)
    splits = np.argsort(rng.random((SPLITS, n)), axis=1)
    loss = float(_split_losses(values[None], splits, mine)[0])
    resampled = values[rng.integers(0, n, size=(RESAMPLES, n))]
    return loss, float(np.std(_split_losses(resampled, splits, mine), ddof=1))


def _split_losses(values: npt.NDArray[np.float64], splits: npt.NDArray[np.intp], mine: int) -> npt.NDArray[np.float64]:
    """The cross-fitted loss of each sample in ``values`` (samples x worlds x options), averaged over splits."""
    half = values.shape[1] // 2
    total = np.zeros(values.shape[0])
    for order in splits:
        first = values[:, order[:half]].mean(axis=1)
        second = values[:, order[half:]].mean(axis=1)
        for picker, judge in ((first, second), (second, first)):
            best = np.where(picker[:, mine] >= picker.max(axis=1), mine, picker.argmax(axis=1))
            total += np.take_along_axis(judge, best[:, None], axis=1)[:, 0] - judge[:, mine]
    return total / (2 * len(splits))


def _std_error(xs: Sequence[float]) -> float:
    """The standard error of the mean of ``xs`` (0 for fewer than two)."""
    n = len(xs)
    if n < 2:
        return 0.0
    mean = sum(xs) / n
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)


def _rng(seed: int, step: int) -> random.Random:
    """The decision's own stream: the review's seed and the step, so any decision can be redone alone."""
    return random.Random(seed * 1_000_003 + step)


# A whole game.


def review_record(game: AnyGame, record: GameRecord, seat: Seat, *, budget: int = DEFAULT_BUDGET, seed: int = 0,
                  progress: Progress | None = None) -> GameReview:
    """The review of every decision ``seat`` made in a finished game's record."""
    spec = spec_for(game)
    plan = plan_review(game, record, seat, budget)
    states = replay_states(game, record)
    decisions = []
    for done, i in enumerate(plan.steps, start=1):
        decisions.append(review_position(game, states[i], seat, record.actions[i][1], budget=budget, seed=seed,
                                         step=i, spec=spec))
        if progress is not None:
            progress(done, len(plan.steps))
    return GameReview(game.info.name, seat, budget, seed, spec.unit, spec.horizon, (spec.mistake, spec.blunder),
                      tuple(decisions), plan.scores, spec.score_labels, plan.forced)


def replay_states(game: AnyGame, record: GameRecord) -> list[Any]:
    """Every state of the record (before each action, then the last); ``ReviewError`` if it does not replay."""
    try:
        state, _ = game.new(game.options(record.options), record.seed)
    except ValueError as exc:
        raise ReviewError(f"the record's options do not fit {game.info.title}: {exc}") from None
    states = [state]
    for i, (actor, action) in enumerate(record.actions):
        try:
            state, _ = game.apply(state, actor, action)
        except IllegalAction as exc:
            raise ReviewError(f"the record does not replay: action {i} ({action.text()}) by seat {actor}: "
                              f"{exc.reason}") from None
        states.append(state)
    return states


def _score_line(game: AnyGame, spec: ReviewSpec, states: list[Any]) -> tuple[tuple[int, tuple[float, ...]], ...]:
    """The public scores at the start and after each step that changed them (a round or hand scored)."""
    line: list[tuple[int, tuple[float, ...]]] = []
    for step, state in enumerate(states):
        scores = tuple(spec.scores(game.observe(state, None)))
        if not line or line[-1][1] != scores:
            line.append((step, scores))
    return tuple(line)


def count_decisions(game: AnyGame, record: GameRecord, seat: Seat) -> int:
    """How many decisions of ``seat`` a review of ``record`` scores (the progress total)."""
    states = replay_states(game, record)
    return sum(1 for i, (actor, _) in enumerate(record.actions)
               if actor == seat and len(game.legal_actions(states[i], seat)) > 1)


# In parts, for a pool of workers (the server): plan in the caller, score chunks of steps in the workers.


@dataclass(frozen=True)
class ReviewPlan:
    """What a review of ``seat`` will score: the unforced steps, the forced count and the public score line."""

    steps: tuple[int, ...]
    forced: int
    scores: tuple[tuple[int, tuple[float, ...]], ...]


def plan_review(game: AnyGame, record: GameRecord, seat: Seat, budget: int) -> ReviewPlan:
    """Check the record, seat and budget as :func:`review_record` does; the steps to score."""
    spec = spec_for(game)
    check_budget(budget)
    states = replay_states(game, record)
    players = game.players(states[0])
    if type(seat) is not int or not 0 <= seat < players:
        raise ReviewError(f"seat {seat!r} is not at this table (seats 0–{players - 1})")
    if game.outcome(states[-1]) is None:
        raise ReviewError("this game has not ended: a review is made of a finished game only")
    mine = [i for i, (actor, _) in enumerate(record.actions) if actor == seat]
    todo = tuple(i for i in mine if len(game.legal_actions(states[i], seat)) > 1)
    return ReviewPlan(todo, len(mine) - len(todo), _score_line(game, spec, states))


def review_chunk(game_name: str, record_json: dict[str, Any], seat: Seat, steps: Sequence[int], budget: int,
                 seed: int) -> list[dict[str, Any]]:
    """The JSON of the decisions at ``steps`` (a worker's task: plain data in, plain data out)."""
    from cardtable.core.registry import load_game

    game = load_game(game_name)
    record = GameRecord.from_json(record_json, game)
    spec = spec_for(game)
    state, _ = game.new(game.options(record.options), record.seed)
    wanted, out = set(steps), []
    for i, (actor, action) in enumerate(record.actions):
        if i in wanted:
            out.append(review_position(game, state, seat, action, budget=budget, seed=seed, step=i,
                                       spec=spec).to_json(game))
        if i >= max(steps, default=-1):
            break
        state, _ = game.apply(state, actor, action)
    return out
