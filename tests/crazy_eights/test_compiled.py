"""The compiled search loops (``players/_fast.pyx``) give the Python results, draw the same numbers, choose the same.

Each piece is run both ways on the same inputs with twin generators: the playout on positions of
real rounds (the tables, who went out and the generators' states after), the search's scored
worlds and the particle filter inside whole seeded games (every value of every playout, the
particles, the counters, the choices, the bot's generators). A defect planted in the compiled code
(``_fast.plant``) must make the comparison that covers it fail.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

import cardtable
from cardtable.bots import make_bot
from cardtable.core.twister import CompiledPlayouts, reference_sample, same_stream
from cardtable.games.crazy_eights.players import _fast
from cardtable.games.crazy_eights.players.compiled import FAST
from cardtable.games.crazy_eights.players.playout import Table, play_round
from cardtable.games.crazy_eights.players.search import ParticleSearchBot
from cardtable.games.crazy_eights.players.win_chance import sample_rounds
from tests.bots.compiled import no_defect
from tests.bots.worlds import random_moves

GAME = cardtable.load_game("crazy_eights")


_no_defect = no_defect(FAST, _fast)


# The stream.


def test_the_compiled_stream_is_pythons_random_and_a_wrong_one_is_refused() -> None:
    assert same_stream(_fast.sample)
    rng = random.Random(3)
    assert _fast.sample(2**40 + 5, rng)[:-2] == reference_sample(2**40 + 5, random.Random(3))[:-2]
    _fast.plant(6)  # the generator handed back one word late
    assert not same_stream(_fast.sample)
    late = CompiledPlayouts(lambda: _fast)
    assert late.get() is None and not late.is_built()


def test_a_generator_that_is_not_exactly_a_random_random_goes_through_getstate_and_setstate() -> None:
    class Counting(random.Random):
        """A subclass: the compiled code may not assume its layout."""

    for seed in (0, 5, 2**40):
        mine, theirs = Counting(seed + 1), Counting(seed + 1)
        assert _fast.sample(seed, mine) == reference_sample(seed, theirs) and mine.getstate() == theirs.getstate()


def test_where_the_module_is_missing_the_python_code_runs() -> None:
    def missing() -> Any:
        raise ImportError("not built")

    absent = CompiledPlayouts(missing)
    assert absent.get() is None and not absent.is_built()
    assert FAST.get() is _fast
    with FAST.python_only():
        assert FAST.get() is None and FAST.is_built()
    assert FAST.get() is _fast


# The playout, on positions of real rounds.


def _positions(count: int) -> list[Table]:
    """Tables some random moves into rounds of 2-6 players, both drawing rules, stocks in the engine's order."""
    out = []
    rng = random.Random(5)
    for seed in range(count):
        options = GAME.options(players=2 + seed % 5, rounds=1, draw_until_playable=seed % 4 != 3)
        state, _ = GAME.new(options, seed)
        state = random_moves(GAME, state, rng, rng.randrange(30))
        if GAME.to_act(state) is None:
            continue
        s: Any = state
        out.append(Table(list(s.hands), list(s.stock), s.discards, s.top, s.suit, s.turn, s.drawn, s.passes,
                         s.round_actions, s.draw_until, random_draws=seed % 2 == 0))
    return out


def _playout_mismatches(tables: list[Table]) -> tuple[list[int], int]:
    """Positions where the compiled playout ends otherwise than the Python one; and how many rebuilt the stock."""
    wrong, rebuilt = [], 0
    for k, table in enumerate(tables):
        results = []
        for compiled in (True, False):
            t = dataclasses.replace(table, hands=list(table.hands), stock=list(table.stock))
            stock, rng = t.stock, random.Random(k)
            if compiled:
                went_out = play_round(t, rng)
            else:
                with FAST.python_only():
                    went_out = play_round(t, rng)
            results.append((went_out, dataclasses.astuple(t), t.stock is stock, rng.getstate()))
        wrong += [k] if results[0] != results[1] else []
        rebuilt += not results[1][2]
    return wrong, rebuilt


def test_the_compiled_playout_ends_every_round_as_the_python_one() -> None:
    tables = _positions(160)
    wrong, rebuilt = _playout_mismatches(tables)
    assert wrong == []
    assert len(tables) > 120 and rebuilt > 20  # stocks rebuilt from the discards, shuffled or drawn at random


def test_the_win_chance_table_is_learned_from_the_same_rounds() -> None:
    learn = sample_rounds.__wrapped__  # not the cache
    compiled = learn(3, 7, True)
    with FAST.python_only():
        assert learn(3, 7, True) == compiled


def test_a_defect_in_the_compiled_playout_is_caught() -> None:
    _fast.plant(1)  # the heuristic's ties go to the highest card
    wrong, _ = _playout_mismatches(_positions(60))
    assert len(wrong) > 5


# The search and the particle filter, over whole seeded games.


@dataclasses.dataclass
class Twins:
    """What the compiled and the Python bot did, decision by decision."""

    decisions: int = 0
    choices: int = 0  # decisions with more than one candidate
    playouts: int = 0
    fallbacks: int = 0
    advanced: int = 0  # particles carried through the others' turns
    mismatches: list[str] = dataclasses.field(default_factory=list)


def _bot_state(bot: Any) -> tuple[Any, ...]:
    f = bot.filter
    return (bot.rng.getstate(), f.rnd.getstate(), f.particles, f.attempts, f.built, f.advanced, f.fallbacks,
            bot.worlds_done)


def _twin_games(seeds: range, spec: str, opponents: str = "heuristic", **options: Any) -> Twins:
    """Seat 0 played by a compiled bot, with a Python twin fed the same observations; everything compared."""
    out = Twins()
    scored: list[Any] = []
    score = ParticleSearchBot._score

    def recording(self: Any, *args: Any) -> Any:
        result = score(self, *args)
        scored.append(result)
        return result

    mp = pytest.MonkeyPatch()
    mp.setattr(ParticleSearchBot, "_score", recording)
    try:
        for seed in seeds:
            players = options.get("players", 2 + seed % 5)
            game_options = GAME.options(**{"players": players, "draw_until_playable": seed % 3 != 2, **options})
            state, _ = GAME.new(game_options, seed)
            fast, slow = make_bot(GAME, spec, seed), make_bot(GAME, spec, seed)
            others = [make_bot(GAME, opponents, seed + s) for s in range(players)]
            while (seat := GAME.to_act(state)) is not None:
                obs, legal = GAME.observe(state, seat), GAME.legal_actions(state, seat)
                if seat:
                    state, _ = GAME.apply(state, seat, others[seat].act(obs, legal))
                    continue
                scored.clear()
                action = fast.act(obs, legal)
                with FAST.python_only():
                    twin = slow.act(obs, legal)
                out.decisions += 1
                if len(scored) == 2:
                    out.choices += 1
                    out.playouts += sum(len(v) for v in scored[0][1])
                    if scored[0] != scored[1]:
                        out.mismatches.append(f"seed {seed} decision {out.decisions}: the scores differ")
                if action != twin or _bot_state(fast) != _bot_state(slow):
                    out.mismatches.append(f"seed {seed} decision {out.decisions}: {action} against {twin}")
                    break
                state, _ = GAME.apply(state, seat, action)
            out.fallbacks += fast.fallbacks
            out.advanced += fast.filter.advanced
    finally:
        mp.undo()
    return out


def test_the_search_decides_the_same_against_heuristics() -> None:
    twins = _twin_games(range(12), "search:sims=80:particles=20", rounds=1)
    assert twins.mismatches == []
    assert twins.choices > 30 and twins.playouts > 2000 and twins.advanced > 20


def test_the_search_decides_the_same_in_games_of_rounds_valued_by_the_win_chance() -> None:
    twins = _twin_games(range(2), "search:sims=60:particles=20", rounds=3, players=3)
    assert twins.mismatches == []
    assert twins.choices > 10


def test_the_search_decides_the_same_on_the_fallback_deals_against_random_players() -> None:
    twins = _twin_games(range(2), "search:sims=60:particles=20", opponents="random", players=4, rounds=1)
    assert twins.mismatches == []
    assert twins.fallbacks > 3 and twins.choices > 5


@pytest.mark.parametrize(("defect", "opponents"), [(2, "heuristic"), (3, "random"), (4, "heuristic"),
                                                    (5, "heuristic"), (6, "heuristic")])
def test_a_defect_in_the_compiled_search_or_filter_is_caught(defect: int, opponents: str) -> None:
    _fast.plant(defect)
    twins = _twin_games(range(3), "search:sims=40:particles=60", opponents=opponents, players=4, rounds=3)
    assert twins.mismatches
