"""Crazy Eights actions (text, parse, words, JSON), illegal-action messages, observations and privacy."""

from __future__ import annotations

import random

import pytest

from cardtable.core import DecodeError, IllegalAction, to_json
from cardtable.games.crazy_eights import GAME
from cardtable.games.crazy_eights.actions import Draw, Pass, Play, PlayEight
from cardtable.games.crazy_eights.events import CardDrawn, DrewCard, HandDealt
from cardtable.games.crazy_eights.rules import DECK, penalty
from cardtable.games.crazy_eights.testing import cards, state_from_hands


def c(text: str) -> int:
    """One card id from its text."""
    return DECK.parse(text)


def test_text_forms_parse_back_and_read_in_words() -> None:
    assert Play(c("7♠")).text() == "play 7♠"
    assert PlayEight(c("8♠"), "hearts").text() == "play 8♠ name hearts"
    for text in ("play 8♠ name hearts", "play 8♠ ♥", "play 8s h", "PLAY 8♠ Hearts"):
        assert GAME.parse_action(text) == PlayEight(c("8♠"), "hearts")
    assert GAME.parse_action("play 10d") == Play(c("10♦"))
    assert GAME.parse_action(" draw ") == Draw() and GAME.parse_action("pass") == Pass()
    for bad in ("play 8♠", "play 7♠ hearts", "play", "play 7♠ name", "draw 2", "play 1♠"):
        with pytest.raises(DecodeError):
            GAME.parse_action(bad)
    assert GAME.describe_action(Play(c("7♠"))) == "Play seven of spades"
    assert GAME.describe_action(PlayEight(c("8♠"), "hearts")) == "Play eight of spades, name hearts"
    assert GAME.describe_action(Draw()) == "Draw a card" and GAME.describe_action(Pass()) == "Pass"
    assert to_json(PlayEight(c("8♠"), "hearts")) == {"type": "play_eight", "card": 6, "suit": "hearts"}
    with pytest.raises(DecodeError):
        GAME.action_codec.decode({"type": "play_eight", "card": 6, "suit": "stars"})


def test_illegal_actions_say_why_and_leave_the_state_alone() -> None:
    state = state_from_hands(GAME.options(players=2), ["7♦ 8♠ 2♠", "3♣"], starter="7♥", stock="A♣")
    reasons = {
        Play(c("3♣")): "you do not hold 3♣",
        Play(c("2♠")): "matches neither hearts",
        Play(c("8♠")): "an eight must name a suit",
        PlayEight(c("7♦"), "clubs"): "only an eight names a suit",  # type: ignore[arg-type]
        Draw(): "so you may not draw",
        Pass(): "so you may not pass",
        Play(99): "card must be a Crazy Eights card id 0–51, not 99",
    }
    for action, reason in reasons.items():
        with pytest.raises(IllegalAction, match=reason):
            GAME.apply(state, 0, action)
    with pytest.raises(IllegalAction, match="Seat 0's turn"):
        GAME.apply(state, 1, Play(c("3♣")))
    assert GAME.legal_actions(state, 1) == []


def test_is_legal_agrees_with_legal_actions_everywhere_in_random_games() -> None:
    every = [Draw(), Pass()] + [a for card in range(52) for a in (
        [PlayEight(card, s) for s in ("spades", "hearts", "diamonds", "clubs")] if card % 13 == 6 else [Play(card)])]
    rng = random.Random(3)
    for draw_until in (True, False):
        state, _ = GAME.new(GAME.options(players=3, draw_until_playable=draw_until, rounds=1), seed=9)
        while (seat := GAME.to_act(state)) is not None:
            legal = GAME.legal_actions(state, seat)
            assert [a for a in every if GAME.is_legal(state, seat, a)] == sorted(legal, key=every.index)
            state, _ = GAME.apply(state, seat, rng.choice(legal))


def test_drawn_cards_are_private_and_observations_hide_other_hands() -> None:
    state = state_from_hands(GAME.options(players=2), ["2♠", "3♣ K♣"], starter="9♥", stock="5♦ 9♣")
    state, events = GAME.apply(state, 0, Draw())
    drew = [e for e in events if isinstance(e, DrewCard)]
    assert drew[0].audience() == frozenset({0}) and drew[0].card == c("5♦")
    assert [e.audience() for e in events if isinstance(e, CardDrawn)] == [None]
    mine, theirs, spectator = GAME.observe(state, 0), GAME.observe(state, 1), GAME.observe(state, None)
    assert mine.last_drawn == c("5♦") and mine.hand == tuple(cards("2♠ 5♦"))
    assert theirs.last_drawn is None and theirs.hand_counts == (2, 2) and theirs.drawn_this_turn == 1
    assert spectator.hand == () and spectator.stock_count == 1
    assert GAME.hidden_cards(state, 1) == frozenset(cards("2♠ 5♦ 9♣"))
    assert GAME.hidden_cards(state, None) == frozenset(cards("2♠ 5♦ 3♣ K♣ 9♣"))
    assert not mine.cards_shown() & GAME.hidden_cards(state, 0)


def test_dealt_hands_go_to_their_owner_only() -> None:
    _, events = GAME.new(GAME.options(players=4), seed=11)
    dealt = [e for e in events if isinstance(e, HandDealt)]
    assert [e.audience() for e in dealt] == [frozenset({s}) for s in range(4)]
    assert sorted(x for e in dealt for x in e.cards) == sorted(set(x for e in dealt for x in e.cards))


def test_penalty_table() -> None:
    assert [penalty(1 << c(t)) for t in ("8♦", "10♣", "J♠", "Q♥", "K♦", "A♠", "2♣", "9♥")] == [
        50, 10, 10, 10, 10, 1, 2, 9]


def test_same_seed_same_game_different_seed_different_deal() -> None:
    options = GAME.options(players=4)
    first, second, other = GAME.new(options, 5), GAME.new(options, 5), GAME.new(options, 6)
    assert first[1] == second[1] and first[1] != other[1]


def test_every_card_is_in_exactly_one_place_throughout_random_games() -> None:
    rng = random.Random(8)
    for players, draw_until in ((2, True), (4, False), (6, True)):
        state, _ = GAME.new(GAME.options(players=players, draw_until_playable=draw_until), seed=players)
        while (seat := GAME.to_act(state)) is not None:
            places = [*state.hands, state.discards, 1 << state.top, sum(1 << x for x in state.stock)]
            assert sum(p.bit_count() for p in places) == 52
            union = 0
            for p in places:
                union |= p
            assert union == (1 << 52) - 1
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
