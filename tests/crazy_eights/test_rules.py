"""Scripted deals, one test per numbered rule of the issue, named after the rule."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.core import IllegalAction, InvalidOptions
from cardtable.games.crazy_eights import GAME
from cardtable.games.crazy_eights.actions import Draw, Pass, Play, PlayEight
from cardtable.games.crazy_eights.events import CardDrawn, DrewCard, RoundDealt, RoundEnded, StockRebuilt
from cardtable.games.crazy_eights.rules import DECK
from cardtable.games.crazy_eights.testing import cards, state_from_deck_order, state_from_hands


def c(text: str) -> int:
    """One card id from its text."""
    return DECK.parse(text)


def deck_order(first: str) -> list[int]:
    """A full deck order starting with the cards in ``first``, the rest in id order."""
    head = cards(first)
    return head + [x for x in range(52) if x not in head]


def play(state: Any, *actions: Any) -> tuple[Any, list[Any]]:
    """Apply actions in turn for whoever is to act; returns the final state and all events."""
    events: list[Any] = []
    for action in actions:
        state, more = GAME.apply(state, GAME.to_act(state), action)
        events.extend(more)
    return state, events


def test_rule_1_two_to_six_players_each_for_himself() -> None:
    for n in range(2, 7):
        options = GAME.options(players=n)
        state, _ = GAME.new(options, seed=n)
        assert GAME.players(state) == n
        assert GAME.teams(options) == tuple((s,) for s in range(n))
        dealt = sum(GAME.observe(state, None).hand_counts) + GAME.observe(state, None).stock_count + 1
        assert dealt == 52  # one 52-card deck
    for bad in (1, 7):
        with pytest.raises(InvalidOptions):
            GAME.options(players=bad)


def test_rule_2_seven_cards_heads_up_five_otherwise_or_fixed() -> None:
    expect = {2: 7, 3: 5, 4: 5, 5: 5, 6: 5}
    for n, size in expect.items():
        state, _ = GAME.new(GAME.options(players=n), seed=1)
        assert GAME.observe(state, 0).hand_counts == (size,) * n
    for size in (5, 7, 9):
        state, _ = GAME.new(GAME.options(players=3, hand_size=size), seed=2)
        assert len(GAME.observe(state, 1).hand) == size
    with pytest.raises(InvalidOptions, match="need 55 cards"):
        GAME.options(players=6, hand_size=9)
    assert GAME.options(players=5, hand_size=9).cards_each == 9


def test_rule_3_rest_is_stock_starter_turned_and_a_turned_eight_sets_its_own_suit() -> None:
    # Two players, seven each from the dealer's left (seat 1 deals, seat 0 receives first).
    order = deck_order("2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 9♠ 10♠ J♠ Q♠ K♠ A♠ 2♥ 3♥ 8♦ 4♥")
    state, events = state_from_deck_order(GAME.options(players=2), order, dealer=1)
    obs = GAME.observe(state, 0)
    assert obs.hand == tuple(cards("2♠ 4♠ 6♠ 9♠ J♠ K♠ 2♥"))
    assert obs.top == c("8♦") and obs.suit == "diamonds"
    assert "diamonds" in obs.suit_text.lower()
    assert obs.stock_count == 52 - 14 - 1 and obs.discard_count == 1
    assert isinstance(events[0], RoundDealt) and events[0].suit == "diamonds"
    # No choice of suit for the first player: only diamonds or an eight would play; seat 0 holds neither.
    assert GAME.legal_actions(state, 0) == [Draw()]
    state, _ = play(state, Draw())
    assert GAME.observe(state, 0).last_drawn == c("4♥")  # the next card after the starter


def test_rule_4_match_suit_or_rank_eights_wild_and_name_the_suit_in_words() -> None:
    options = GAME.options(players=2)
    state = state_from_hands(options, ["7♦ 7♣ 8♠ K♥ 2♠", "8♥ 3♥ Q♣ 2♣"], starter="7♥", stock="A♦ A♣")
    legal = GAME.legal_actions(state, 0)
    assert Play(c("7♦")) in legal and Play(c("7♣")) in legal and Play(c("K♥")) in legal
    assert Play(c("2♠")) not in legal
    # An eight plays on anything even though other cards play too, once per suit it may name.
    assert [a for a in legal if isinstance(a, PlayEight)] == [
        PlayEight(c("8♠"), s) for s in ("spades", "hearts", "diamonds", "clubs")]
    state, _ = play(state, PlayEight(c("8♠"), "clubs"))
    obs = GAME.observe(state, 1)
    assert obs.top == c("8♠") and obs.suit == "clubs"
    assert obs.suit_text == "Clubs are in force, named with the eight of spades"
    # Now clubs (or an eight) only: 3♥ no longer plays although hearts were in force before.
    assert GAME.legal_actions(state, 1) == [
        PlayEight(c("8♥"), s) for s in ("spades", "hearts", "diamonds", "clubs")] + [Play(c("2♣")), Play(c("Q♣"))]
    with pytest.raises(IllegalAction, match="matches neither clubs"):
        GAME.apply(state, 1, Play(c("3♥")))


def test_rule_5_draw_until_you_can_or_draw_one_and_rebuild_the_stock() -> None:
    hands = ["2♠ 3♠", "4♣ 5♣"]
    # Toggle on: keep drawing until a playable card turns up, then play it (no passing).
    state = state_from_hands(GAME.options(players=2), hands, starter="9♥", stock="J♦ 6♣ 9♦ 3♥")
    state, events = play(state, Draw(), Draw())
    assert GAME.legal_actions(state, 0) == [Draw()]
    state, events = play(state, Draw())
    assert GAME.legal_actions(state, 0) == [Play(c("9♦"))]
    assert sum(isinstance(e, CardDrawn) for e in events) == 1 and [e.card for e in events
                                                                    if isinstance(e, DrewCard)] == [c("9♦")]
    # Toggle off: one card; play it if it plays, else pass.
    off = GAME.options(players=2, draw_until_playable=False)
    state = state_from_hands(off, hands, starter="9♥", stock="J♦ 3♥")
    state, _ = play(state, Draw())
    assert GAME.legal_actions(state, 0) == [Pass()]
    state, _ = play(state, Pass())
    assert GAME.to_act(state) == 1
    state, _ = play(state, Draw())
    assert GAME.legal_actions(state, 1) == [Play(c("3♥"))]
    # Empty stock: rebuilt from the discards, leaving the top card.
    state = state_from_hands(off, hands, starter="9♥", discards="K♦ Q♦")
    state, events = play(state, Draw())
    assert any(isinstance(e, StockRebuilt) and e.cards == 2 for e in events)
    obs = GAME.observe(state, 0)
    assert obs.top == c("9♥") and obs.discard_count == 1 and obs.stock_count == 1
    # Nothing to draw and nothing to play: pass.
    state = state_from_hands(GAME.options(players=2), hands, starter="9♥")
    assert GAME.legal_actions(state, 0) == [Pass()]


def test_rule_6_every_player_passing_in_turn_blocks_the_round() -> None:
    options = GAME.options(players=3, rounds=1)
    state = state_from_hands(options, ["2♠ K♣", "3♠", "4♠ A♠"], starter="9♥")
    state, events = play(state, Pass(), Pass())
    assert GAME.to_act(state) == 2 and GAME.observe(state, 0).passes_in_row == 2
    state, events = play(state, Pass())
    ended = [e for e in events if isinstance(e, RoundEnded)]
    assert ended and ended[0].end == "blocked" and ended[0].went_out is None
    # Scored like any round: 2+10, 3, 4+1.
    assert ended[0].penalties == (12, 3, 5)
    assert GAME.outcome(state) is not None and GAME.outcome(state).winners == (1,)


def test_rule_6_a_draw_or_play_breaks_a_run_of_passes() -> None:
    off = GAME.options(players=2, draw_until_playable=False, rounds=1)
    state = state_from_hands(off, ["2♠", "3♠"], starter="9♥", stock="4♣")
    state, _ = play(state, Draw(), Pass())  # seat 0 drew, then passed: one pass
    state, _ = play(state, Pass())  # seat 1: nothing to draw, nothing to play
    assert GAME.outcome(state) is not None and state.sheet[0].end == "blocked"


def test_rule_7_going_out_ends_the_round_and_others_score_their_cards() -> None:
    options = GAME.options(players=3, rounds=1)
    state = state_from_hands(options, ["9♥", "8♣ 10♠ J♠ Q♠ K♠ A♠", "2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 9♦"], starter="9♣")
    state, events = play(state, Play(c("9♥")))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.end == "out" and ended.went_out == 0
    assert ended.penalties == (0, 50 + 10 * 4 + 1, 2 + 3 + 4 + 5 + 6 + 7 + 9)
    assert GAME.outcome(state).scores == (0.0, 91.0, 36.0)


def test_rule_8_lowest_total_after_the_last_round_wins_ties_share() -> None:
    for rounds in (1, 3, 5):
        state, _ = GAME.new(GAME.options(players=3, rounds=rounds), seed=rounds)
        while (seat := GAME.to_act(state)) is not None:
            state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
        assert len(state.sheet) == rounds
        totals = [sum(r.penalties[s] for r in state.sheet) for s in range(3)]
        outcome = GAME.outcome(state)
        assert outcome.scores == tuple(float(t) for t in totals)
        assert outcome.winners == tuple(s for s in range(3) if totals[s] == min(totals))
        assert "lower is better" in outcome.reason
    # A tie: both seats finish level.
    options = GAME.options(players=2, rounds=1)
    state = state_from_hands(options, ["9♥", "5♠"], starter="9♣", totals=(5, 0))
    state, _ = play(state, Play(c("9♥")))
    assert GAME.outcome(state).winners == (0, 1)


def test_rule_8_rounds_rotate_the_dealer_and_redeal() -> None:
    options = GAME.options(players=3, rounds=3)
    state = state_from_hands(options, ["9♥", "5♠", "6♠"], starter="9♣", dealer=2, seed=4)
    state, events = play(state, Play(c("9♥")))
    dealt = [e for e in events if isinstance(e, RoundDealt)]
    assert dealt and dealt[0].round == 2 and dealt[0].dealer == 0 and dealt[0].leader == 1
    assert GAME.observe(state, 0).hand_counts == (5, 5, 5) and GAME.to_act(state) == 1


def test_rule_9_computer_opponent_sheds_costly_cards_saves_eights_names_its_long_suit() -> None:
    from cardtable.games.crazy_eights.players.heuristic import HeuristicBot

    bot = HeuristicBot(0)
    options = GAME.options(players=3)

    def choice(state: Any) -> Any:
        seat = GAME.to_act(state)
        return bot.act(GAME.observe(state, seat), GAME.legal_actions(state, seat))

    # Most expensive playable card (K♥ 10 over 3♥ and A♥), the eight kept back.
    state = state_from_hands(options, ["3♥ A♥ K♥ 8♠ 2♣", "2♠ 3♠ 4♠", "5♠ 6♠ 7♠"], starter="9♥")
    assert choice(state) == Play(c("K♥"))
    # Nothing else plays: the eight, naming the suit held most of (clubs: 2 of them).
    state = state_from_hands(options, ["8♠ 2♣ 5♣ 3♦", "2♠ 3♠ 4♠", "5♠ 6♠ 7♠"], starter="9♥")
    assert choice(state) == PlayEight(c("8♠"), "clubs")
    # Endgame (an opponent down to one card): unload the eight first, though 3♥ plays.
    state = state_from_hands(options, ["3♥ 8♠ 2♦ 5♦", "2♠", "5♠ 6♠ 7♠"], starter="9♥")
    assert choice(state) == PlayEight(c("8♠"), "diamonds")
    # Not yet the endgame with two cards left: the eight is kept.
    state = state_from_hands(options, ["3♥ 8♠ 2♦ 5♦", "2♠ 3♠", "5♠ 6♠ 7♠"], starter="9♥")
    assert choice(state) == Play(c("3♥"))
    # Draw and pass when they are the only choice.
    state = state_from_hands(options, ["2♠", "3♠", "4♠"], starter="9♥", stock="5♣")
    assert choice(state) == Draw()
