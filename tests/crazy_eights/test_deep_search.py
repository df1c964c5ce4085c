"""The deep Crazy Eights search: legal play, determinism, options, time cap, its deals, its reads, its values."""

from __future__ import annotations

import itertools
import math
import random
import time

import pytest

import cardtable
from cardtable.bots import make_bot
from cardtable.games.crazy_eights.deep_search import (
    TRUST,
    DeepSearchBot,
    _next_turn,
    _next_turn_in_world,
    _Turn,
    deal_table,
    turn_moves,
)
from cardtable.games.crazy_eights.game import MATCH
from cardtable.games.crazy_eights.playout import STOPPED, Table, heuristic_move, play_round
from cardtable.games.crazy_eights.reading import ModelTracker, play_reveals
from cardtable.games.crazy_eights.rules import BIT, EIGHTS, SUIT_INDEX, SUIT_MASK, SUIT_OF, mask_of
from cardtable.games.crazy_eights.search import candidates
from cardtable.games.crazy_eights.testing import cards, state_from_hands
from cardtable.games.crazy_eights.win_chance import sample_rounds, win_chance

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
    (f"{NAME}:sims=lots", "must be a whole number"),
    (f"{NAME}:read=2", "read must be 0 or 1"),
    (f"{NAME}:flat=0", "always flat"),
    (f"{NAME}:plan=4", "plan must be 0, 1, 2 or 3"),
    (f"{NAME}:plan=-1", "plan must be 0, 1, 2 or 3"),
    (f"{NAME}:plan=1.5", "plan must be a whole number"),
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


# The plan: our next turn chosen by what we would see then.


def test_a_playout_stopped_at_our_turn_goes_on_as_one_that_never_stopped() -> None:
    stopped = 0
    for seed in range(20):
        state, _ = GAME.new(GAME.options(players=2 + seed % 5, rounds=1, draw_until_playable=seed % 4 != 3), seed)
        me = (state.turn + 1 + seed) % state.players
        whole = Table(list(state.hands), list(state.stock), state.discards, state.top, state.suit, state.turn,
                      draw_until=state.draw_until)
        parts = whole.copy()
        went_out = play_round(whole, random.Random(seed))
        rng = random.Random(seed)
        ended = play_round(parts, rng, me)
        if ended == STOPPED:
            assert parts.turn == me and parts.drawn == 0
            stopped += 1
            ended = play_round(parts, rng)  # our turn by the heuristic, as the whole round played it
        assert ended == went_out and parts.hands == whole.hands and parts.stock == whole.stock
    assert stopped >= 15


def test_our_next_turns_moves_are_every_distinct_move_the_heuristics_first() -> None:
    hands = [mask_of(cards("K♥ 3♥ 3♠ 8♦ 8♣")), mask_of(cards("2♦ 4♦"))]
    playable = hands[0] & MATCH[cards("3♦")[0] * 4 + SUIT_INDEX["hearts"]]
    moves = turn_moves(hands, 0, playable)
    assert moves[0] == heuristic_move(hands, 0, playable)
    assert len(set(moves)) == len(moves) == 3 + 4  # K♥, 3♥, 3♠; the lower eight naming each suit
    assert {c for c, _ in moves} == set(cards("K♥ 3♥ 3♠ 8♦"))
    assert all(s == SUIT_OF[c] for c, s in moves if not BIT[c] & EIGHTS)


def test_our_next_turn_plays_the_heuristics_move_until_it_has_seen_a_better_one() -> None:
    # Two players; our turn on 3♥ with Q♥ 3♠. The heuristic plays Q♥ (costlier) and the other goes out
    # with 5♥. 3♠ stops him: he draws the 3♥ (the stock rebuilt from the pile) and plays it, and we go
    # out with Q♥. A value of 1 for going out tells the two apart.
    table = Table([mask_of(cards("Q♥ 3♠")), mask_of(cards("5♥"))], [], 0, cards("3♥")[0], SUIT_INDEX["hearts"], 0)
    turns: dict[tuple[int, ...], _Turn] = {}

    def out(hands: list[int]) -> float:
        return 1.0 if hands[0] == 0 else 0.0

    got = [_next_turn(table.copy(), random.Random(k), 0, turns, out) for k in range(TRUST + 2)]
    assert got == [(0.0, 2)] * TRUST + [(1.0, 2)] * 2
    (turn,) = turns.values()
    assert turn.moves[0] == (cards("Q♥")[0], SUIT_INDEX["hearts"]) and turn.visits == TRUST + 2
    assert turn.sums == [0.0, TRUST + 2.0]


def test_our_next_turn_in_one_world_is_worth_its_best_move_or_halfway_to_the_heuristics() -> None:
    # The position of the test above: the heuristic's Q♥ loses the round (0), 3♠ wins it (1).
    table = Table([mask_of(cards("Q♥ 3♠")), mask_of(cards("5♥"))], [], 0, cards("3♥")[0], SUIT_INDEX["hearts"], 0)

    def out(hands: list[int]) -> float:
        return 1.0 if hands[0] == 0 else 0.0

    assert _next_turn_in_world(table.copy(), random.Random(1), 0, out, half=False) == (1.0, 2)
    assert _next_turn_in_world(table.copy(), random.Random(1), 0, out, half=True) == (0.5, 2)
    # One move only (nothing but the 5♥ matches for him; we hold a lone Q♥): the round is played out, one playout.
    alone = Table([mask_of(cards("Q♥")), mask_of(cards("5♠ 6♠"))], [cards("2♣")[0]], 0, cards("3♥")[0],
                  SUIT_INDEX["hearts"], 0)
    assert _next_turn_in_world(alone, random.Random(1), 0, out, half=True) == (1.0, 1)


@pytest.mark.parametrize("plan", [1, 2, 3])
def test_the_plan_plays_legal_moves_and_the_same_seed_gives_the_same_moves(plan: int) -> None:
    options = GAME.options(players=4, rounds=1)
    moves: list[list[object]] = [[], []]
    for run in range(2):
        state, _ = GAME.new(options, 11)
        bots = [make_bot(GAME, f"{NAME}:plan={plan}:sims=80" if s == 0 else "heuristic", s) for s in range(4)]
        while (seat := GAME.to_act(state)) is not None:
            legal = GAME.legal_actions(state, seat)
            action = bots[seat].act(GAME.observe(state, seat), legal)
            assert action in legal
            if seat == 0:
                moves[run].append(action)
            state, _ = GAME.apply(state, seat, action)
    assert moves[0] == moves[1] and len(moves[0]) > 3


def test_the_last_round_model_is_fair_at_equal_totals_and_close_to_the_rounds_it_learned_from() -> None:
    for players in (2, 3, 4, 6):
        assert win_chance([10] * players, 0, 1, 5, True, last=True) == pytest.approx(1 / players, abs=1e-5)
    assert win_chance([300, 0, 0, 0], 0, 1, 5, True, last=True) == 0.0
    # Against the sampled rounds themselves (each seat's share of the win after one more such round),
    # it is far closer than the product model: it keeps who went out, which the product cannot.
    rounds = sample_rounds(4, 5, True)
    rng = random.Random(4)
    gaps: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(30):
        totals = [rng.randrange(0, 90) for _ in range(4)]
        won = 0.0
        for pens in rounds:
            end = [t + p for t, p in zip(totals, pens)]
            won += 1.0 / end.count(end[0]) if end[0] == min(end) else 0.0
        for last in gaps:
            gaps[last].append(win_chance(totals, 0, 1, 5, True, last=last) - won / len(rounds))
    rms = {last: math.sqrt(math.fsum(g * g for g in v) / len(v)) for last, v in gaps.items()}
    assert rms[True] < 0.01 < rms[False]
