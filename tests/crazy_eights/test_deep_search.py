"""The deep Crazy Eights search: legal play, determinism, options, time cap, its deals, its reads, its values."""

from __future__ import annotations

import itertools
import random
import time

import pytest

import cardtable
from cardtable.bots import make_bot
from cardtable.games.crazy_eights.deep_search import DeepSearchBot, deal_table
from cardtable.games.crazy_eights.reading import ModelTracker, play_reveals
from cardtable.games.crazy_eights.rules import BIT, EIGHTS, SUIT_MASK
from cardtable.games.crazy_eights.search import candidates
from cardtable.games.crazy_eights.testing import cards, state_from_hands
from cardtable.games.crazy_eights.win_chance import win_chance

GAME = cardtable.load_game("crazy_eights")
NAME = "search_deep"


def _choices(count: int, seed: int) -> list[tuple[object, int]]:
    """Positions where the seat to act has two or more distinct moves, from a random one-round game."""
    state, _ = GAME.new(GAME.options(players=4, rounds=3), seed)
    rng = random.Random(seed)
    out = []
    while (seat := GAME.to_act(state)) is not None and len(out) < count:
        legal = GAME.legal_actions(state, seat)
        if len(candidates(GAME.observe(state, seat), legal)) > 1:
            out.append((state, seat))
        state, _ = GAME.apply(state, seat, legal[rng.randrange(len(legal))])
    return out


@pytest.mark.parametrize("players", [2, 4, 6])
def test_it_plays_only_legal_moves_in_a_whole_round(players: int) -> None:
    options = GAME.options(players=players, rounds=1, draw_until_playable=players != 6)
    state, _ = GAME.new(options, players)
    bots = [make_bot(GAME, f"{NAME}:sims=40" if s == 0 else "heuristic", s) for s in range(players)]
    while (seat := GAME.to_act(state)) is not None:
        legal = GAME.legal_actions(state, seat)
        action = bots[seat].act(GAME.observe(state, seat), legal)
        assert action in legal
        state, _ = GAME.apply(state, seat, action)
    assert GAME.outcome(state) is not None


def test_the_same_seed_gives_the_same_moves() -> None:
    positions = _choices(5, 3)
    assert len(positions) == 5
    first, second = make_bot(GAME, f"{NAME}:sims=60", 7), make_bot(GAME, f"{NAME}:sims=60", 7)
    for state, seat in positions:
        obs, legal = GAME.observe(state, seat), GAME.legal_actions(state, seat)
        assert first.act(obs, legal) == second.act(obs, legal)


@pytest.mark.parametrize(("spec", "message"), [
    (f"{NAME}:sims=-3", "sims must be at least 1"),
    (f"{NAME}:ms=-1", "ms must be 0"),
    (f"{NAME}:depth=3", "no option 'depth'"),
    (f"{NAME}:sims=lots", "must be a number"),
    (f"{NAME}:read=2", "read must be 0 or 1"),
    (f"{NAME}:flat=0", "always flat"),
])
def test_bad_options_give_one_clear_line(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as info:
        make_bot(GAME, spec)
    assert "\n" not in str(info.value)


def test_a_time_cap_stops_the_search_with_its_best_move_so_far() -> None:
    bot = make_bot(GAME, f"{NAME}:sims=100000000:ms=30", 1)
    assert isinstance(bot, DeepSearchBot)
    state, seat = _choices(1, 4)[0]
    legal = GAME.legal_actions(state, seat)
    start = time.perf_counter()
    assert bot.act(GAME.observe(state, seat), legal) in legal
    assert time.perf_counter() - start < 5
    assert 1 <= bot.worlds_done < 100000000


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


def test_sampled_deals_keep_the_counts_and_what_a_seat_lacks() -> None:
    state, _ = GAME.new(GAME.options(players=4), 9)
    obs = GAME.observe(state, state.turn)
    lacks = {(state.turn + 1) % 4: SUIT_MASK[1] | EIGHTS}
    rng = random.Random(1)
    for _ in range(50):
        table = deal_table(obs, rng, lacks)
        assert [h.bit_count() for h in table.hands] == list(obs.hand_counts)
        assert len(table.stock) == obs.stock_count
        for seat, mask in lacks.items():
            assert not table.hands[seat] & mask
        everything = sum(table.hands) + sum(BIT[c] for c in table.stock) + table.discards + BIT[table.top]
        assert everything == (1 << 52) - 1  # each card exactly once


def test_a_constraint_that_cannot_be_met_is_dropped() -> None:
    state, _ = GAME.new(GAME.options(players=4), 9)
    obs = GAME.observe(state, state.turn)
    table = deal_table(obs, random.Random(1), {(state.turn + 1) % 4: (1 << 52) - 1})
    assert [h.bit_count() for h in table.hands] == list(obs.hand_counts)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_what_the_reader_rules_out_is_never_in_a_heuristic_players_hand(players: int) -> None:
    checked = ruled_out = 0
    for seed in range(6):
        options = GAME.options(players=players, rounds=1, draw_until_playable=seed % 3 != 2)
        state, _ = GAME.new(options, seed)
        bots = [make_bot(GAME, "random" if s == 0 else "heuristic", seed) for s in range(players)]
        tracker = ModelTracker()
        while (seat := GAME.to_act(state)) is not None:
            obs, legal = GAME.observe(state, seat), GAME.legal_actions(state, seat)
            if seat == 0:
                tracker.before_turn(obs)
                for other, lacks in tracker.forbidden(obs).items():
                    assert not state.hands[other] & lacks
                    checked += 1
                    ruled_out += lacks.bit_count()
            action = bots[seat].act(obs, legal)
            if seat == 0:
                tracker.after_action(obs, action)
            state, _ = GAME.apply(state, seat, action)
    assert checked > 20 and ruled_out > 5 * checked


def test_a_low_card_played_says_the_costlier_ones_are_not_held() -> None:
    two, king, ace = cards("2♥ K♥ A♥")
    reveals = play_reveals(two, 1, cards("5♥")[0], endgame=False)
    assert reveals & BIT[king] and not reveals & BIT[ace] and not reveals & EIGHTS
    assert play_reveals(king, 1, cards("5♥")[0], endgame=True) & EIGHTS  # it would have unloaded an eight


def test_the_win_chance_is_fair_at_equal_totals_and_falls_with_our_total() -> None:
    for players in (2, 4):
        assert win_chance([10] * players, 0, 2, 5, True) == pytest.approx(1 / players, abs=1e-9)
    chances = [win_chance([own, 30, 30, 30], 0, 1, 5, True) for own in range(0, 80, 10)]
    assert all(a > b for a, b in itertools.pairwise(chances))
    assert win_chance([20, 20, 40, 50], 0, 0, 5, True) == 0.5  # the last round: a tie shares the win
    assert win_chance([21, 20, 40, 50], 0, 0, 5, True) == 0.0
