"""The reader bot, its inference and the count-based baseline: legal, deterministic, órdago only when it pays."""

from __future__ import annotations

import itertools
import random
from math import comb

import pytest

from cardtable.bots import make_bot
from cardtable.games.mus import GAME
from cardtable.games.mus.actions import MusAction
from cardtable.games.mus.observation import MusObservation
from cardtable.games.mus.play import play_game
from cardtable.games.mus.players.counting import CountingBot
from cardtable.games.mus.players.inference import (
    Said,
    game_win_chance,
    hand_table,
    level_pmf,
    multiset_index,
    pair_win_chance,
    seat_weights,
    unseen_weights,
)
from cardtable.games.mus.players.reader import ReaderBot
from cardtable.games.mus.players.simple import SimpleBot
from tests.mus.helpers import opts, play, table

SHORT = {"scoring.target": 10}
WEAK = "4o 5o 6b 7e"
HANDS = ["Ro Rc Re Rb", "Co Cc 6o 7o", "1c 4c 5c 6c", "Se Sb 7c 6e"]


def _answer_ordago(hand0: str, tanteo: tuple[int, int] = (0, 0)) -> tuple[MusObservation, list[MusAction]]:
    """Seat 0 (the mano) passed the grande, seat 1 went órdago, seat 2 refused: seat 0's view and moves."""
    state = table([hand0, *HANDS[1:]], tanteo=tanteo)
    state, _ = play(state, "cut", (0, "pass"), (1, "ordago"), (2, "reject"))
    assert GAME.to_act(state) == 0
    obs = GAME.observe(state, 0)
    assert isinstance(obs, MusObservation)
    return obs, GAME.legal_actions(state, 0)


def test_reader_plays_legal_moves_and_repeats_itself_given_the_seed() -> None:
    """Short games against each baseline: every move legal (the engine checks), same seed, same game."""
    for rival in (SimpleBot, CountingBot):
        for seed in (1, 2):
            bots = [ReaderBot(seed), rival(seed + 1), ReaderBot(seed + 2), rival(seed + 3)]
            first = play_game(bots, seed=seed, options=SHORT)
            again = play_game([ReaderBot(seed), rival(seed + 1), ReaderBot(seed + 2), rival(seed + 3)],
                              seed=seed, options=SHORT)
            assert first.actions == again.actions and first.final_score == again.final_score
            assert max(first.final_score) >= 10


def test_reader_sees_an_ordago_only_when_it_pays() -> None:
    """Four reyes as mano always win the grande: quiero. A weak hand at 0–0 refuses; the same weak hand
    refuses no longer when the deje would give the rivals the game anyway."""
    bot = ReaderBot()
    obs, legal = _answer_ordago("Ro Rc Re Rb")
    assert bot.act(obs, legal).TYPE == "accept"
    obs, legal = _answer_ordago(WEAK)
    assert bot.act(obs, legal).TYPE == "reject"
    obs, legal = _answer_ordago(WEAK, tanteo=(5, 39))
    assert bot.act(obs, legal).TYPE == "accept"


def test_reader_goes_ordago_with_a_lance_it_cannot_lose() -> None:
    """Mano with four reyes: the órdago wins the game whenever it is seen, so it beats any envite."""
    state, _ = play(table(HANDS), "cut")
    assert ReaderBot().act(GAME.observe(state, 0), GAME.legal_actions(state, 0)).TYPE == "ordago"
    weak, _ = play(table([WEAK, *HANDS[1:]]), "cut")
    assert ReaderBot().act(GAME.observe(weak, 0), GAME.legal_actions(weak, 0)).TYPE == "pass"


def test_counting_baseline_sees_an_ordago_only_with_four_reyes() -> None:
    """The count-based baseline refuses an órdago a grande with three reyes and sees it with four."""
    obs, legal = _answer_ordago("Ro Rc Re Rb")
    assert CountingBot().act(obs, legal).TYPE == "accept"
    obs, legal = _answer_ordago("Ro Rc Re Cb")
    assert CountingBot().act(obs, legal).TYPE == "reject"


def test_pair_win_chance_matches_brute_force() -> None:
    """Random level distributions: the formula equals enumerating every combination (ties to the mano)."""
    rng = random.Random(3)
    for _ in range(30):
        k = rng.randint(1, 4)
        pmfs = []
        for _seat in range(4):
            raw = [rng.random() if rng.random() < 0.8 else 0.0 for _ in range(k + 1)]
            raw[rng.randrange(k + 1)] += 0.1
            pmfs.append([x / sum(raw) for x in raw])
        mano = rng.randrange(4)
        order = [(mano + i) % 4 for i in range(4)]
        expected = [0.0, 0.0]
        for levels in itertools.product(range(k + 1), repeat=4):
            p = pmfs[0][levels[0]] * pmfs[1][levels[1]] * pmfs[2][levels[2]] * pmfs[3][levels[3]]
            best = max(levels)
            if best > 0:
                winner = next(s for s in order if levels[s] == best)
                expected[winner % 2] += p
        for pair in (0, 1):
            assert pair_win_chance(pmfs, order, pair) == pytest.approx(expected[pair], abs=1e-12)


def test_weights_count_the_unseen_cards_and_respect_declarations() -> None:
    """Weights add up to the 4-card hands of the 36 unseen cards; declared seats keep only fitting hands."""
    own = (0, 9, 9, 9)
    assert sum(unseen_weights("8R8A", own)) == comb(36, 4)
    table_ = hand_table("8R8A")
    weights = seat_weights("8R8A", own, pares=True, juego=False)
    assert any(weights)
    for i, w in enumerate(weights):
        if w:
            assert table_.has_pares[i] and not table_.has_juego[i]


def test_a_rivals_envite_makes_the_lance_harder() -> None:
    """The pair's chance in grande drops once a rival has envidado (the bettor is read as strong)."""
    own = tuple(sorted(c % 10 for c in (9, 19, 7, 4)))  # two reyes, a sota, a 5
    own_level = hand_table("8R8A").level["grande"][multiset_index(own)]
    me = [0.0] * (hand_table("8R8A").levels["grande"] + 1)
    me[own_level] = 1.0
    quiet = [level_pmf("8R8A", "grande", seat_weights("8R8A", own, None, None)) for _ in range(3)]
    bettor = level_pmf("8R8A", "grande", seat_weights("8R8A", own, None, None, [Said("grande", "bet")]))
    before = pair_win_chance([me, quiet[0], quiet[1], quiet[2]], [0, 1, 2, 3], 0)
    after = pair_win_chance([me, bettor, quiet[1], quiet[2]], [0, 1, 2, 3], 0)
    assert after < before - 0.1


def test_game_win_chance_is_a_fair_race() -> None:
    """Level tanteos are even, the chances of the two pairs add up to one and more tantos never hurt."""
    assert game_win_chance(0, 0, 40) == pytest.approx(0.5)
    for a, b in [(0, 30), (12, 20), (35, 38), (10.5, 3.25)]:
        assert game_win_chance(a, b, 40) + game_win_chance(b, a, 40) == pytest.approx(1.0)
        assert game_win_chance(a + 1, b, 40) >= game_win_chance(a, b, 40)
    assert game_win_chance(40, 12, 40) == 1.0 and game_win_chance(12, 40, 40) == 0.0


def test_bot_names_and_bad_options() -> None:
    """reader and counting are Mus bots by name; options they do not take give one line."""
    for name in ("reader", "counting"):
        assert make_bot(GAME, name, 1).name == name
    with pytest.raises(ValueError, match="takes no options") as info:
        make_bot(GAME, "reader:depth=3", 1)
    assert "\n" not in str(info.value)


def test_short_games_with_signals_stay_legal() -> None:
    """With señas enabled the reader still only returns offered moves (it never signs)."""
    options = opts(**{"signals.enabled": True, "scoring.target": 10})
    result = play_game([ReaderBot(1), CountingBot(2), ReaderBot(3), CountingBot(4)], seed=5, options=options)
    assert max(result.final_score) >= 10


def test_game_table_matches_the_plain_recursion() -> None:
    """The factored dynamic programme equals summing every pair of hand gains directly (target 6)."""
    from functools import cache

    from cardtable.games.mus.players.inference import GAIN_SHARES

    target, shares = 6, [s / sum(GAIN_SHARES) for s in GAIN_SHARES]

    @cache
    def plain(a: int, b: int) -> float:
        acc = 0.0
        for x, px in enumerate(shares):
            for y, py in enumerate(shares):
                if x == y == 0:
                    continue
                if a + x >= target:
                    acc += px * py * (0.5 if b + y >= target else 1.0)
                elif b + y < target:
                    acc += px * py * plain(a + x, b + y)
        return acc / (1 - shares[0] ** 2)

    for a in range(target):
        for b in range(target):
            assert game_win_chance(a, b, target) == pytest.approx(plain(a, b), abs=1e-12)
