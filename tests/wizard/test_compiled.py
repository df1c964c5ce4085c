"""Wizard's compiled search loop (``players/_fast.pyx``): the Python results, the same numbers drawn, the same choices.

The round simulator is compared on the true hands of real positions (every legal card, every
``cover``), the deals of ``core.worlds.deal_hidden`` on constrained splits (the card-by-card
fallback and the inconsistent case included, with the generators' states), and the whole search in
seeded games (every row of playout values, every weight, the choices, the bot's generator). A
defect planted in the compiled code (``_fast.plant``) must make the comparison covering it fail.
"""

from __future__ import annotations

import dataclasses
import random
from types import SimpleNamespace
from typing import Any

import pytest

from cardtable.bots import make_bot
from cardtable.core import worlds
from cardtable.core.twister import same_stream
from cardtable.games.wizard import rules
from cardtable.games.wizard.players import _fast, playout
from cardtable.games.wizard.players import search as pimc
from cardtable.games.wizard.players.compiled import FAST, same_arithmetic
from tests.bots.compiled import no_defect
from tests.core.test_worlds import TIGHT_CARDS, TIGHT_PLACES, counted
from tests.wizard.script import GAME, decisions

_no_defect = no_defect(FAST, _fast)


def test_the_stream_and_the_arithmetic_are_pythons() -> None:
    assert same_stream(_fast.sample) and same_arithmetic(_fast)

    def off(values: list[float], hands: list[int], xs: list[float]) -> list[Any]:
        out = _fast.arithmetic(values, hands, xs)
        out[3] += 2**-40  # one estimate added otherwise (as with a compensated sum)
        return out

    assert not same_arithmetic(SimpleNamespace(arithmetic=off))  # type: ignore[arg-type]
    _fast.plant(5)
    assert not same_stream(_fast.sample)


# The round simulator, on the true hands of real positions.


def _simulator_mismatches() -> tuple[int, int]:
    """(playouts compared, how many differ) over 3-6 players, every legal card and ``cover``."""
    compared = wrong = 0
    for players in range(3, 7):
        for state, seat in decisions(players, 25, players=players, rounds=10, plays_only=True):
            table = playout.Table.from_observation(GAME.observe(state, seat))
            for cover in range(4):
                table.cover = cover
                for action in GAME.legal_actions(state, seat):
                    compiled = playout.play_round_from_card(table, list(state.hands), seat, action.card)
                    with FAST.python_only():
                        python = playout.play_round_from_card(table, list(state.hands), seat, action.card)
                    compared += 1
                    wrong += compiled != python
    return compared, wrong


def test_the_compiled_simulator_ends_every_round_as_the_python_one() -> None:
    compared, wrong = _simulator_mismatches()
    assert wrong == 0 and compared > 1000


def test_a_defect_in_the_compiled_simulator_is_caught() -> None:
    _fast.plant(1)  # a seat short of its bid leads low
    _, wrong = _simulator_mismatches()
    assert wrong > 20


def test_a_hand_that_runs_out_before_the_round_ends_is_a_clear_error() -> None:
    state, seat = decisions(1, 1, players=4, rounds=10, plays_only=True)[0]
    table = playout.Table.from_observation(GAME.observe(state, seat))
    hands = list(state.hands)
    card = GAME.legal_actions(state, seat)[0].card
    hands[(seat + 1) % 4] = 0
    with pytest.raises(ValueError, match="ran out of cards"):
        playout.play_round_from_card(table, hands, seat, card)


# Deals of the hidden cards.


def _splits(count: int) -> list[tuple[list[int], list[tuple[int, int]]]]:
    """Hidden cards and places (hands with void suits, the stack) that a true deal satisfies, many of them hard."""
    rng = random.Random(8)
    out = []
    for _ in range(count):
        cards = sorted(rng.sample(range(60), rng.randrange(12, 45)))
        pool = cards[:]
        rng.shuffle(pool)
        places, start = [], 0
        for _ in range(rng.randrange(2, 6)):
            size = rng.randrange(0, max(1, len(pool) // 4))
            held = pool[start:start + size]
            start += size
            lacking = [s for s in range(4) if not any(rules.SUIT_OF[c] == s for c in held)]
            voids = lacking if rng.random() < 0.6 else rng.sample(lacking, rng.randrange(len(lacking) + 1))
            forbidden = sum(rules.SUIT_MASK[s] for s in voids)
            places.append((size, forbidden))
        places.append((len(cards) - start, 0))
        out.append((cards, places))
    return out


def test_the_compiled_deal_is_core_worlds_deal_hidden() -> None:
    with counted("_build") as built:
        for k, (cards, places) in enumerate(_splits(400)):
            a, b = random.Random(k), random.Random(k)
            python = [rules.mask_of(part) for part in worlds.deal_hidden(cards, places, a)]
            assert _fast.deal(b, cards, places) == python and a.getstate() == b.getstate()
    assert built[0] > 30  # the card-by-card fallback after 100 rejected shuffles


def test_a_tight_split_is_completed_alike() -> None:
    """Where the shuffles and the card-by-card build all fail, both complete the deal with the same draws."""
    with counted("_complete") as completed:
        for k in range(600):
            a, b = random.Random(k), random.Random(k)
            python = [rules.mask_of(part) for part in worlds.deal_hidden(TIGHT_CARDS, TIGHT_PLACES, a)]
            assert _fast.deal(b, TIGHT_CARDS, TIGHT_PLACES) == python and a.getstate() == b.getstate()
    assert completed[0] > 0


def test_an_impossible_split_fails_alike_and_leaves_the_generators_alike() -> None:
    cards = [0, 1, 2, 13]
    places = [(2, rules.SUIT_MASK[0]), (1, rules.SUIT_MASK[0]), (1, 0)]  # three red cards for one place of one
    a, b = random.Random(1), random.Random(1)
    with pytest.raises(worlds.NoConsistentWorld):
        worlds.deal_hidden(cards, places, a)
    with pytest.raises(worlds.NoConsistentWorld):
        _fast.deal(b, cards, places)
    assert a.getstate() == b.getstate()
    with pytest.raises(worlds.NoConsistentWorld, match="do not fill"):
        _fast.deal(b, cards, places[:2])


def test_a_defect_in_the_compiled_deal_is_caught() -> None:
    _fast.plant(3)  # a rejected shuffle is kept
    wrong = 0
    for k, (cards, places) in enumerate(_splits(100)):
        python = [rules.mask_of(part) for part in worlds.deal_hidden(cards, places, random.Random(k))]
        wrong += _fast.deal(random.Random(k), cards, places) != python
    assert wrong > 10


# The search, over whole seeded games.


@dataclasses.dataclass
class Twins:
    """What the compiled and the Python bot did."""

    choices: int = 0
    rows: int = 0
    mismatches: list[str] = dataclasses.field(default_factory=list)


def _twin_games(seeds: range, spec: str, **options: Any) -> Twins:
    """Seat 0 played by a compiled bot and a Python twin fed the same observations; rows, weights, choices compared."""
    out = Twins()
    seen: list[Any] = []
    choose = pimc.choose

    def recording(rows: list[list[float]], weights: list[float], *args: Any) -> Any:
        seen.append((rows, weights))
        return choose(rows, weights, *args)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pimc, "choose", recording)
        for seed in seeds:
            players = options.get("players", 3 + seed % 4)
            state, _ = GAME.new(GAME.options(**{"players": players, "rounds": 5, **options}), seed)
            fast, slow = make_bot(GAME, spec, seed), make_bot(GAME, spec, seed)
            others = [make_bot(GAME, "heuristic", seed + s) for s in range(players)]
            while (seat := GAME.to_act(state)) is not None:
                obs, legal = GAME.observe(state, seat), GAME.legal_actions(state, seat)
                if seat:
                    state, _ = GAME.apply(state, seat, others[seat].act(obs, legal))
                    continue
                seen.clear()
                action = fast.act(obs, legal)
                with FAST.python_only():
                    twin = slow.act(obs, legal)
                if len(seen) == 2:
                    out.choices += 1
                    out.rows += len(seen[0][0])
                    if seen[0] != seen[1]:
                        out.mismatches.append(f"seed {seed}: the rows or weights differ")
                if action != twin or (fast.rng.getstate(), fast.simulations_done) != (
                        slow.rng.getstate(), slow.simulations_done):
                    out.mismatches.append(f"seed {seed}: {action} against {twin}")
                    break
                state, _ = GAME.apply(state, seat, action)
    return out


def test_the_search_decides_the_same_over_whole_games() -> None:
    # 3-6 players; the last rounds valued by the chance of finishing first (end=3 of 5 rounds).
    twins = _twin_games(range(4), "search:sims=24")
    assert twins.mismatches == []
    assert twins.choices > 20 and twins.rows > 300


@pytest.mark.parametrize(("spec", "options"), [
    ("search:sims=16", {"hidden_bids": True, "players": 4}),  # deals not weighted while bids are hidden
    ("search:sims=16:fit=0:cover=0", {"players": 5, "wizard_trump": "no_trump"}),
    ("search_quick", {"players": 4, "bids_may_not_equal_tricks": True}),
])
def test_the_search_decides_the_same_under_other_rules_and_options(spec: str, options: dict[str, Any]) -> None:
    twins = _twin_games(range(2), spec, **options)
    assert twins.mismatches == [] and twins.choices > 8


@pytest.mark.parametrize("defect", [2, 4, 5])
def test_a_defect_in_the_compiled_search_is_caught(defect: int) -> None:
    _fast.plant(defect)  # a tie for first a loss; the weight forgetting played cards; the generator late
    twins = _twin_games(range(3), "search:sims=16", players=3)
    assert twins.mismatches
