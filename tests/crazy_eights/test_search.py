"""The first Crazy Eights search (search_v1): legal play, determinism, options, time cap, what the next player lacks."""

from __future__ import annotations

import random
import time

import pytest

import cardtable
from cardtable.bots import make_bot
from cardtable.games.crazy_eights.actions import Play, PlayEight
from cardtable.games.crazy_eights.rules import SUIT_MASK
from cardtable.games.crazy_eights.search import OpponentTracker, RaceSearchBot, candidates, lacks_mask
from cardtable.games.crazy_eights.testing import cards, state_from_hands
from cardtable.games.crazy_eights.world import sample_world

GAME = cardtable.load_game("crazy_eights")


def _choices(count: int, seed: int) -> list[tuple[object, int]]:
    """Positions where the seat to act has two or more distinct moves, from a random one-round game."""
    state, _ = GAME.new(GAME.options(players=4, rounds=1), seed)
    rng = random.Random(seed)
    out = []
    while (seat := GAME.to_act(state)) is not None and len(out) < count:
        legal = GAME.legal_actions(state, seat)
        if len(candidates(GAME.observe(state, seat), legal)) > 1:
            out.append((state, seat))
        state, _ = GAME.apply(state, seat, legal[rng.randrange(len(legal))])
    return out


@pytest.mark.parametrize("name", ["search_v1:sims=16", "search_v1_quick"])
def test_search_plays_only_legal_moves_in_a_whole_round(name: str) -> None:
    options = GAME.options(players=4, rounds=1)
    state, _ = GAME.new(options, 5)
    bots = [make_bot(GAME, name if s == 0 else "heuristic", s) for s in range(4)]
    while (seat := GAME.to_act(state)) is not None:
        legal = GAME.legal_actions(state, seat)
        action = bots[seat].act(GAME.observe(state, seat), legal)
        assert action in legal
        state, _ = GAME.apply(state, seat, action)
    assert GAME.outcome(state) is not None


def test_the_same_seed_gives_the_same_moves() -> None:
    positions = _choices(4, 3)
    assert positions
    first, second = make_bot(GAME, "search_v1:sims=24", 7), make_bot(GAME, "search_v1:sims=24", 7)
    for state, seat in positions:
        obs, legal = GAME.observe(state, seat), GAME.legal_actions(state, seat)
        assert first.act(obs, legal) == second.act(obs, legal)


@pytest.mark.parametrize(("spec", "message"), [
    ("search_v1:sims=-3", "sims must be at least 1"),
    ("search_v1:ms=-1", "ms must be 0"),
    ("search_v1:depth=3", "no option 'depth'"),
    ("search_v1:sims=lots", "must be a whole number"),
    ("search_v1:flat=0", "always flat"),
])
def test_bad_options_give_one_clear_line(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as info:
        make_bot(GAME, spec)
    assert "\n" not in str(info.value)


def test_a_time_cap_stops_the_search_with_its_best_move_so_far() -> None:
    bot = make_bot(GAME, "search_v1:sims=10000000:ms=20", 1)
    assert isinstance(bot, RaceSearchBot)
    state, seat = _choices(1, 4)[0]
    legal = GAME.legal_actions(state, seat)
    start = time.perf_counter()
    assert bot.act(GAME.observe(state, seat), legal) in legal
    assert time.perf_counter() - start < 5
    assert 1 <= bot.worlds_done < 10000000


def test_candidates_are_the_plain_cards_and_one_eight_per_suit() -> None:
    state = state_from_hands(GAME.options(players=2, rounds=1), ["7♠ 8♥ 8♦ 9♠", "K♦ 2♣"], "5♠", "Q♠")
    legal = GAME.legal_actions(state, 0)
    moves = candidates(GAME.observe(state, 0), legal)
    assert {m.card for m in moves if isinstance(m, Play)} == set(cards("7♠ 9♠"))
    eights = [m for m in moves if isinstance(m, PlayEight)]
    assert len(eights) == 4 and len({m.card for m in eights}) == 1


def test_the_next_player_is_known_to_lack_the_suit_he_drew_on() -> None:
    # Seat 0 plays 7♠; seat 1 holds no spade, no seven and no eight, so draws 2♥ and then 3♠, which he plays.
    options = GAME.options(players=2, rounds=1)
    placed = cards("7♠ K♥ 4♣ 9♦ J♣ 5♠ 2♥ 3♠ 6♦")
    pile = [c for c in range(52) if c not in placed]
    state = state_from_hands(options, ["7♠ K♥ 4♣", "9♦ J♣"], "5♠", "2♥ 3♠ 6♦", discards=pile)
    tracker = OpponentTracker()
    obs = GAME.observe(state, 0)
    tracker.before_turn(obs)
    play = Play(cards("7♠")[0])
    tracker.after_action(obs, play)
    state, _ = GAME.apply(state, 0, play)
    for move in ("draw", "draw", "play 3♠"):
        state, _ = GAME.apply(state, 1, GAME.parse_action(move))
    tracker.before_turn(GAME.observe(state, 0))
    assert tracker.lacks[1] == lacks_mask(0, cards("7♠")[0])
    assert not state.hands[1] & tracker.lacks[1]
    rng = random.Random(2)
    for _ in range(30):
        world = sample_world(GAME.observe(state, 0), rng, tracker.forbidden(GAME.observe(state, 0)))
        assert not world.hands[1] & SUIT_MASK[0]


def test_what_the_tracker_rules_out_is_never_in_a_hand() -> None:
    checked = 0
    for seed in range(16):
        options = GAME.options(players=3 + seed % 4, rounds=1, draw_until_playable=bool(seed % 3))
        state, _ = GAME.new(options, seed)
        bots = [make_bot(GAME, "random" if s % 2 == 0 else "heuristic", seed) for s in range(options.players)]
        tracker = OpponentTracker()
        while (seat := GAME.to_act(state)) is not None:
            obs, legal = GAME.observe(state, seat), GAME.legal_actions(state, seat)
            if seat == 0:
                tracker.before_turn(obs)
                for other, lacks in tracker.forbidden(obs).items():
                    assert not state.hands[other] & lacks
                    checked += 1
            action = bots[seat].act(obs, legal)
            if seat == 0:
                tracker.after_action(obs, action)
            state, _ = GAME.apply(state, seat, action)
    assert checked > 40


def test_what_a_later_player_faced_is_found_from_the_cards_played_before_him() -> None:
    # Three players: we play 7♠, seat 1 plays 9♠, seat 2 draws 2♣ then plays 3♠: he faced spades on a nine.
    placed = cards("7♠ K♥ 4♣ 9♠ J♦ K♦ 4♦ 5♠ 2♣ 3♠ 6♦")
    pile = [c for c in range(52) if c not in placed]
    state = state_from_hands(GAME.options(players=3, rounds=1), ["7♠ K♥ 4♣", "9♠ J♦", "K♦ 4♦"], "5♠",
                             "2♣ 3♠ 6♦", discards=pile)
    tracker = OpponentTracker()
    tracker.before_turn(GAME.observe(state, 0))
    tracker.after_action(GAME.observe(state, 0), Play(cards("7♠")[0]))
    for seat, move in ((0, "play 7♠"), (1, "play 9♠"), (2, "draw"), (2, "draw"), (2, "play 3♠")):
        state, _ = GAME.apply(state, seat, GAME.parse_action(move))
    tracker.before_turn(GAME.observe(state, 0))
    assert 1 not in tracker.lacks
    assert tracker.lacks[2] == lacks_mask(0, cards("9♠")[0])
    assert not state.hands[2] & tracker.lacks[2]


def test_playouts_make_the_heuristic_bots_moves() -> None:
    from cardtable.games.crazy_eights.bots import HeuristicBot
    from cardtable.games.crazy_eights.world import heuristic_policy

    bot, rng, compared = HeuristicBot(), random.Random(4), 0
    for seed in range(8):
        state, _ = GAME.new(GAME.options(players=2 + seed % 4, rounds=1), seed)
        while (seat := GAME.to_act(state)) is not None:
            legal = GAME.legal_actions(state, seat)
            assert heuristic_policy(state, seat, legal, rng) == bot.act(GAME.observe(state, seat), legal)
            compared += 1
            state, _ = GAME.apply(state, seat, legal[rng.randrange(len(legal))])
    assert compared > 100
