"""The Crazy Eights search (``search``): legal play, determinism, options, the time cap, its candidates, its values."""

from __future__ import annotations

import itertools
import random

import pytest

import cardtable
from cardtable.bots import make_bot
from cardtable.games.crazy_eights.actions import Play, PlayEight
from cardtable.games.crazy_eights.players.search import ParticleSearchBot, candidates
from cardtable.games.crazy_eights.players.win_chance import win_chance
from cardtable.games.crazy_eights.testing import cards, state_from_hands

GAME = cardtable.load_game("crazy_eights")
NAME = "search"


def _game_positions(count: int, seed: int) -> list[tuple[object, object, list[object]]]:
    """The first ``count`` turns of seat 0 in a game of heuristics, as (state, observation, legal)."""
    state, _ = GAME.new(GAME.options(players=4, rounds=1), seed)
    bots = [make_bot(GAME, "heuristic") for _ in range(4)]
    out = []
    while (seat := GAME.to_act(state)) is not None and len(out) < count:
        obs, legal = GAME.observe(state, seat), GAME.legal_actions(state, seat)
        if seat == 0:
            out.append((state, obs, legal))
        state, _ = GAME.apply(state, seat, bots[seat].act(obs, legal))
    return out


@pytest.mark.parametrize(("players", "draw_until"), [(2, True), (4, True), (6, False)])
def test_it_plays_only_legal_moves_in_a_whole_round(players: int, draw_until: bool) -> None:
    options = GAME.options(players=players, rounds=1, draw_until_playable=draw_until)
    state, _ = GAME.new(options, players)
    bots = [make_bot(GAME, f"{NAME}:sims=40:particles=30" if s == 0 else "heuristic", s) for s in range(players)]
    while (seat := GAME.to_act(state)) is not None:
        legal = GAME.legal_actions(state, seat)
        action = bots[seat].act(GAME.observe(state, seat), legal)
        assert action in legal
        state, _ = GAME.apply(state, seat, action)
    assert GAME.outcome(state) is not None


def test_the_same_seed_gives_the_same_moves_over_a_game() -> None:
    first, second = make_bot(GAME, f"{NAME}:sims=60:particles=40", 7), make_bot(GAME, f"{NAME}:sims=60:particles=40", 7)
    chosen = 0
    for _, obs, legal in _game_positions(12, 3):
        a, b = first.act(obs, legal), second.act(obs, legal)
        assert a == b and a in legal
        chosen += len(candidates(obs, legal)) > 1  # type: ignore[arg-type]
    assert chosen >= 2


def test_positions_from_unrelated_games_do_not_trouble_it() -> None:
    bot = make_bot(GAME, f"{NAME}:sims=30:particles=20", 2)
    rng = random.Random(4)
    for seed in range(6):
        options = GAME.options(players=2 + seed % 4, rounds=1)
        state, _ = GAME.new(options, seed)
        for _ in range(rng.randrange(1, 30)):
            if GAME.to_act(state) is None:
                break
            seat = GAME.to_act(state)
            legal = GAME.legal_actions(state, seat)
            state, _ = GAME.apply(state, seat, legal[rng.randrange(len(legal))])
        if (seat := GAME.to_act(state)) is not None:
            legal = GAME.legal_actions(state, seat)
            assert bot.act(GAME.observe(state, seat), legal) in legal


@pytest.mark.parametrize(("spec", "message"), [
    (f"{NAME}:sims=-3", "sims must be at least 1"),
    (f"{NAME}:ms=-1", "ms must be 0"),
    (f"{NAME}:particles=0", "particles must be 1 to 100000"),
    (f"{NAME}:tries=0", "tries must be 1 to 10000"),
    (f"{NAME}:depth=3", "no option 'depth'"),
    (f"{NAME}:particles=lots", "must be a whole number"),
    (f"{NAME}:sims=lots", "must be a whole number"),
    (f"{NAME}:flat=0", "always flat"),
])
def test_bad_options_give_one_clear_line(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as info:
        make_bot(GAME, spec)
    assert "\n" not in str(info.value)


def test_a_time_cap_stops_the_search_with_its_best_move_so_far() -> None:
    bot = make_bot(GAME, f"{NAME}:sims=100000000:particles=100000:tries=10000:ms=40", 1)
    assert isinstance(bot, ParticleSearchBot)
    for _, obs, legal in _game_positions(12, 3):
        assert bot.act(obs, legal) in legal  # 10^8 simulations never end uncapped: the 40 ms cap ended each
    assert bot.filter.decisions >= 1


def test_candidates_are_the_plain_cards_and_one_eight_per_suit() -> None:
    state = state_from_hands(GAME.options(players=2, rounds=1), ["7♠ 8♥ 8♦ 9♠", "K♦ 2♣"], "5♠", "Q♠")
    legal = GAME.legal_actions(state, 0)
    moves = candidates(GAME.observe(state, 0), legal)
    assert {m.card for m in moves if isinstance(m, Play)} == set(cards("7♠ 9♠"))
    eights = [m for m in moves if isinstance(m, PlayEight)]
    assert len(eights) == 4 and len({m.card for m in eights}) == 1


def test_it_keeps_the_eight_that_makes_going_out_sure() -> None:
    # One round, two players, our last two cards 7♠ 8♦ on 3♠; the other holds three hearts.
    # 7♠ now keeps the eight, which plays on anything: we go out next turn whatever he does.
    # The eight now keeps 7♠, which he can block by turning the suit (he may draw an eight).
    options = GAME.options(players=2, rounds=1)
    placed = cards("7♠ 8♦ K♥ Q♥ J♥ 3♠ 2♥ 4♥ 5♥ 6♥")
    pile = [c for c in range(52) if c not in placed]
    state = state_from_hands(options, ["7♠ 8♦", "K♥ Q♥ J♥"], "3♠", "2♥ 4♥ 5♥ 6♥", discards=pile)
    bot = make_bot(GAME, f"{NAME}:sims=200", 1)
    action = bot.act(GAME.observe(state, 0), GAME.legal_actions(state, 0))
    assert action == GAME.parse_action("play 7♠")


def test_the_win_chance_is_fair_at_equal_totals_and_falls_with_our_total() -> None:
    for players in (2, 4):
        assert win_chance([10] * players, 0, 2, 5, True) == pytest.approx(1 / players, abs=1e-9)
    chances = [win_chance([own, 30, 30, 30], 0, 1, 5, True) for own in range(0, 80, 10)]
    assert all(a > b for a, b in itertools.pairwise(chances))
    assert win_chance([20, 20, 40, 50], 0, 0, 5, True) == 0.5  # the last round: a tie shares the win
    assert win_chance([21, 20, 40, 50], 0, 0, 5, True) == 0.0
