"""The review engine: it reads only what the seat knew, ranks plain best moves first and is reproducible."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtable.cards import WIZARD_60
from cardtable.core.codec import to_json
from cardtable.core.record import GameRecord
from cardtable.games.durak.actions import TAKE, Beat
from cardtable.games.wizard.actions import Bid, Play
from cardtable.review import ReviewError, review_decision, review_position, review_record, spec_for
from cardtable.review.engine import _cross_fitted_loss, replay_states
from tests.durak.positions import GAME as DURAK
from tests.durak.positions import cards, play, position
from tests.review.games import load, play_record
from tests.wizard.script import GAME as WIZARD
from tests.wizard.script import start

SMALL = {"crazy_eights": {"rounds": 1}, "wizard": {"rounds": 5}}
SEATS = {"crazy_eights": 3, "durak": 2, "kaiser": 4, "mus": 4, "wizard": 4}
HEURISTIC = {"crazy_eights": "heuristic", "durak": "heuristic", "kaiser": "heuristic", "mus": "simple",
             "wizard": "heuristic"}


def _record(name: str, seed: int = 3) -> GameRecord:
    game = load(name)
    return play_record(game, [HEURISTIC[name]] * SEATS[name], seed, **SMALL.get(name, {}))


# Honesty: the review of a decision depends on the seat's observation only.


def _estimate(decision: dict[str, Any]) -> dict[str, Any]:
    """A decision's JSON without the open-cards values (labelled apart: they read the true hands by design)."""
    return {**decision, "options": [{k: v for k, v in o.items() if k != "open_value"} for o in decision["options"]]}


@pytest.mark.parametrize("name", sorted(SEATS))
def test_a_decision_review_is_unchanged_when_the_hidden_cards_are_dealt_otherwise(name: str) -> None:
    game = load(name)
    record = _record(name)
    states = replay_states(game, record)
    checked = moved = 0
    for step, (seat, action) in enumerate(record.actions):
        state = states[step]
        if seat != 0 or len(game.legal_actions(state, seat)) < 2:
            continue
        observation = game.observe(state, seat)
        other = game.sample_world(observation, random.Random(step))
        assert game.observe(other, seat) == observation  # another world the seat could be in
        others = [s for s in range(game.players(state)) if s != seat]
        moved += any(game.observe(other, s) != game.observe(state, s) for s in others)
        here = review_position(game, state, seat, action, budget=4, seed=11, step=step)
        there = review_position(game, other, seat, action, budget=4, seed=11, step=step)
        assert _estimate(here.to_json(game)) == _estimate(there.to_json(game))
        checked += 1
        if checked == 6:
            break
    assert checked >= 3 and moved >= 1  # the worlds differed in what the other seats hold


# Constructed positions where one option is plainly best.


def test_the_trick_only_the_wizard_can_take_ranks_the_wizard_first() -> None:
    # Green is trump; seat 0 bid 2 with the wizard and the green 12; seat 1 leads the green 13.
    state = start(["W1 G12", "G13 R3", "R7 B9"], dealer=0, trump="G1", round_no=2)
    state, _ = WIZARD.apply(state, 1, Bid(1))
    state, _ = WIZARD.apply(state, 2, Bid(0))
    state, _ = WIZARD.apply(state, 0, Bid(2))
    state, _ = WIZARD.apply(state, 1, Play(WIZARD_60.parse("G13")))
    state, _ = WIZARD.apply(state, 2, Play(WIZARD_60.parse("R7")))
    green_12 = Play(WIZARD_60.parse("G12"))
    review = review_position(WIZARD, state, 0, green_12, budget=16, seed=1)
    assert review.options[0].action == Play(WIZARD_60.parse("W1"))
    assert review.loss > 30 and review.mark == "blunder"


def test_the_durak_defence_that_saves_the_game_ranks_first() -> None:
    # The deck is empty: beating with the last card leaves the attacker the fool; taking makes the defender it.
    hands = ["6♥ 7♠", "K♥"]
    held = set(cards(" ".join(hands)))
    gone = " ".join(DURAK.info.deck.text(c) for c in range(36) if c not in held)  # type: ignore[union-attr]
    state, _ = play(position(hands, trump="Q♠", attacker=0, gone=gone), "attack 6♥")
    review = review_position(DURAK, state, 1, TAKE, budget=16, seed=1)
    assert review.options[0].action == Beat(cards("K♥")[0])
    assert review.options[0].value == 1.0 and review.loss == 2.0 and review.mark == "blunder"


def test_a_chosen_best_move_loses_nothing_and_is_not_marked() -> None:
    hands = ["6♥ 7♠", "K♥"]
    held = set(cards(" ".join(hands)))
    gone = " ".join(DURAK.info.deck.text(c) for c in range(36) if c not in held)  # type: ignore[union-attr]
    state, _ = play(position(hands, trump="Q♠", attacker=0, gone=gone), "attack 6♥")
    review = review_position(DURAK, state, 1, Beat(cards("K♥")[0]), budget=8, seed=1)
    assert review.loss == 0.0 and review.mark is None and review.options[0].action == review.chosen


def _noisy_decisions(gap: float, decisions: int = 300, worlds: int = 24) -> list[tuple[float, float, float]]:
    """(cross-fitted loss, its error, "best mean minus the chosen one's") of decisions whose four options
    differ only by noise, except that the chosen one (option 0) is worse by ``gap``."""
    rng = random.Random(3)
    out = []
    for _ in range(decisions):
        per_world = [[rng.gauss(-gap if i == 0 else 0.0, 10.0) for i in range(4)] for _ in range(worlds)]
        means = [sum(row[i] for row in per_world) / worlds for i in range(4)]
        loss, error = _cross_fitted_loss(per_world, 0, seed=len(out))
        out.append((loss, error, max(means) - means[0]))
    return out


def test_noise_alone_does_not_make_a_move_look_costly() -> None:
    # Four options worth the same: the chosen move loses nothing. The best of four noisy means is high by
    # chance (about 2 points here), so "best minus chosen" charged every good move that much.
    rows = _noisy_decisions(gap=0.0)
    mean = sum(r[0] for r in rows) / len(rows)
    spread = (sum((r[0] - mean) ** 2 for r in rows) / (len(rows) - 1) / len(rows)) ** 0.5
    assert abs(mean) < 3 * spread
    assert sum(r[2] for r in rows) / len(rows) > 1.5


def test_a_clearly_worse_move_shows_its_loss() -> None:
    # The chosen move is 8 points worse than each of the others: the estimate finds about 8.
    rows = _noisy_decisions(gap=8.0)
    mean = sum(r[0] for r in rows) / len(rows)
    assert 7.0 < mean < 9.0
    assert all(r[1] > 0 for r in rows)


# Reproducible, and the order of players' strength.


def test_a_seeded_review_is_reproducible_exactly_and_another_seed_differs() -> None:
    game = load("wizard")
    record = _record("wizard", seed=5)
    first = review_record(game, record, 1, budget=6, seed=9).to_json(game)
    assert review_record(game, record, 1, budget=6, seed=9).to_json(game) == first
    assert review_record(game, record, 1, budget=6, seed=10).to_json(game) != first


def test_the_review_covers_every_unforced_decision_of_the_seat_and_the_public_scores() -> None:
    game = load("crazy_eights")
    record = _record("crazy_eights", seed=4)
    review = review_record(game, record, 2, budget=3)
    states = replay_states(game, record)
    unforced = [i for i, (s, _) in enumerate(record.actions) if s == 2 and len(game.legal_actions(states[i], 2)) > 1]
    assert [d.step for d in review.decisions] == unforced
    assert review.forced == sum(s == 2 for s, _ in record.actions) - len(unforced)
    for d in review.decisions:
        assert d.chosen == record.actions[d.step][1] and d.chosen in [o.action for o in d.options]
        assert d.observation == game.observe(states[d.step], 2)
    assert review.scores[0][0] == 0 and review.scores[-1][1] == tuple(-t for t in game.observe(states[-1], None).totals)


@pytest.mark.parametrize("name", ["kaiser", "mus", "wizard"])
def test_a_random_seat_loses_more_a_decision_than_a_heuristic_one(name: str) -> None:
    # Games where benchmarks/review.py separates random from the heuristic on a few games (docs/review.md,
    # "Figures"). Durak needs hundreds of games for it and Crazy Eights shows none (docs/review.md, "Limits");
    # the order against the default bot is asserted for Kaiser only (below): in Durak and Wizard it takes
    # 240 and 96 games of benchmarks/review.py, too many for the suite.
    game = load(name)
    seats = SEATS[name]
    means = {}
    for bot in ("random", HEURISTIC[name]):
        losses = []
        for seed in range(2):
            record = play_record(game, [bot] + [HEURISTIC[name]] * (seats - 1), 100 + seed, **SMALL.get(name, {}))
            losses += [d.loss for d in review_record(game, record, 0, budget=8, seed=seed).decisions]
        means[bot] = sum(losses) / len(losses)
    assert means["random"] > 1.3 * means[HEURISTIC[name]], means


def test_in_kaiser_random_loses_more_than_the_heuristic_and_the_heuristic_more_than_the_default() -> None:
    # The game where a few games separate all three (docs/review.md, "Figures"): the default search's
    # choices cost less than the heuristic's, decision by decision, on the same deals.
    game = load("kaiser")
    means = {}
    for bot in ("random", "heuristic", "search"):
        losses = []
        for seed in range(3):
            record = play_record(game, [bot] + ["heuristic"] * 3, 100 + seed)
            losses += [d.loss for d in review_record(game, record, 0, seed=seed).decisions]
        means[bot] = sum(losses) / len(losses)
    assert means["random"] > 1.5 * means["heuristic"] > 1.5 * means["search"], means


# Bad input.


def test_a_game_in_progress_a_seat_off_the_table_and_a_bad_budget_are_refused() -> None:
    game = load("crazy_eights")
    record = _record("crazy_eights")
    unfinished = GameRecord(record.game, record.options, record.seed, record.actions[:10])
    with pytest.raises(ReviewError, match="has not ended"):
        review_record(game, unfinished, 0)
    with pytest.raises(ReviewError, match="seat 7 is not at this table"):
        review_record(game, record, 7)
    with pytest.raises(ReviewError, match="budget"):
        review_record(game, record, 0, budget=1)


def test_a_record_that_does_not_replay_is_refused_naming_the_action() -> None:
    game = load("crazy_eights")
    record = _record("crazy_eights")
    seat, action = record.actions[5]
    broken = GameRecord(record.game, record.options, record.seed + 1, record.actions)
    with pytest.raises(ReviewError, match="does not replay: action"):
        review_record(game, broken, 0)
    assert to_json(action)  # the original still replays
    review_record(game, record, seat, budget=2)


def test_every_game_has_a_spec_with_a_unit_and_ordered_thresholds() -> None:
    for name in SEATS:
        spec = spec_for(load(name))
        assert spec.unit and 0 < spec.mistake < spec.blunder
        assert spec.mark(spec.blunder, 0.0) == "blunder" and spec.mark(spec.mistake, 0.0) == "mistake"
        assert spec.mark(spec.blunder, spec.blunder) is None  # within the noise: no mark


def test_a_review_scored_in_chunks_by_workers_is_the_same_review() -> None:
    from cardtable.review import assemble_json, plan_review, review_chunk

    game = load("kaiser")
    record = _record("kaiser", seed=2)
    plan = plan_review(game, record, 3, 4)
    parts = [review_chunk("kaiser", record.to_json(), 3, plan.steps[i:i + 5], 4, 1)
             for i in range(0, len(plan.steps), 5)]
    decisions = [d for part in parts for d in part]
    whole = assemble_json(game, spec_for(game), 3, 4, 1, decisions, plan.scores, plan.forced)
    assert whole == review_record(game, record, 3, budget=4, seed=1).to_json(game)


def test_the_open_cards_value_reads_the_true_hands_and_is_labelled_apart() -> None:
    # Seat 0's first real choice in a Wizard game: every option gets an open-cards value beside its estimate.
    game = load("wizard")
    record = _record("wizard", seed=6)
    states = replay_states(game, record)
    step = next(i for i, (s, _) in enumerate(record.actions) if s == 0 and len(game.legal_actions(states[i], 0)) > 1)
    review = review_position(game, states[step], 0, record.actions[step][1], budget=16, seed=3, step=step)
    assert all(o.open_value is not None for o in review.options)
    data = review.to_json(game)
    assert all("open_value" in o for o in data["options"])
    # The estimate, the loss and the mark come from the sampled worlds alone (the honesty test above).
    worlds_only = review_decision(game, spec_for(game), game.observe(states[step], 0),
                                  game.legal_actions(states[step], 0), record.actions[step][1], budget=16,
                                  rng=random.Random(3 * 1_000_003 + step), step=step)
    assert [(o.action, o.value, o.error) for o in worlds_only.options] == \
        [(o.action, o.value, o.error) for o in review.options]
    assert worlds_only.loss == review.loss and worlds_only.mark == review.mark
