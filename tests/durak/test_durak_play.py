"""What a person may do at the table, the bots' choices, action text, observations and hidden cards."""

from __future__ import annotations

import pytest

from cardtable.core.errors import DecodeError, IllegalAction
from cardtable.games.durak.actions import Attack, Beat, Stop, Take
from cardtable.games.durak.players.scripted import HeuristicBot, ScriptedBot
from cardtable.games.durak.state import DurakState
from tests.durak.positions import GAME, cards, play, position, texts


def scripted_move(state: DurakState) -> str:
    """The scripted bot's choice, from the observation and legal actions only."""
    seat = GAME.to_act(state)
    assert seat is not None
    return ScriptedBot(0).act(GAME.observe(state, seat), GAME.legal_actions(state, seat)).text()


# What a person may do.


def test_person_may_lead_any_card_but_may_not_stop_or_take() -> None:
    state = position(["A♦ 6♣ K♥", "7♣"], trump="Q♦")
    assert texts(GAME.legal_actions(state, 0)) == ["attack 6♣", "attack K♥", "attack A♦"]
    reason = GAME.why_illegal(state, 0, Stop())
    assert reason is not None and "must lead" in reason
    with pytest.raises(IllegalAction, match="only the defender"):
        GAME.apply(state, 0, Take())


def test_person_continues_only_with_ranks_in_the_bout_including_the_highest_trump() -> None:
    state = position(["6♣ 7♥ 7♠ A♦ 9♥", "7♣ A♣"], trump="Q♦")
    state, _ = play(state, "attack 6♣", "beat 7♣")
    assert texts(GAME.legal_actions(state, 0)) == ["attack 7♠", "attack 7♥", "stop"]
    with pytest.raises(IllegalAction, match="not of a rank already in the bout"):
        GAME.apply(state, 0, Attack(cards("9♥")[0]))
    state = position(["K♣ 7♠ A♦", "A♣"], trump="Q♦")
    state, _ = play(state, "attack K♣", "beat A♣")
    assert texts(GAME.legal_actions(state, 0)) == ["attack A♦", "stop"]


def test_person_beats_with_any_higher_card_of_the_suit_or_any_trump_and_may_always_take() -> None:
    state = position(["7♣", "6♣ 8♣ K♣ 9♥ 6♦ J♦"], trump="Q♦")
    state, _ = play(state, "attack 7♣")
    assert texts(GAME.legal_actions(state, 1)) == ["beat 8♣", "beat K♣", "beat 6♦", "beat J♦", "take"]
    with pytest.raises(IllegalAction, match="6♣ does not beat 7♣"):
        GAME.apply(state, 1, Beat(cards("6♣")[0]))
    with pytest.raises(IllegalAction, match="must beat or take"):
        GAME.apply(state, 1, Stop())


def test_only_a_higher_trump_beats_a_trump() -> None:
    state = position(["9♦", "A♣ 8♦ 10♦"], trump="Q♦")
    state, _ = play(state, "attack 9♦")
    assert texts(GAME.legal_actions(state, 1)) == ["beat 10♦", "take"]


def test_illegal_action_names_the_card_and_changes_nothing() -> None:
    state = position(["6♣ 9♥", "7♣"], trump="Q♦")
    with pytest.raises(IllegalAction, match="A♠ is not in seat 0's hand"):
        GAME.apply(state, 0, Attack(cards("A♠")[0]))
    with pytest.raises(IllegalAction, match="seat 0's turn"):
        GAME.apply(state, 1, Take())
    assert GAME.to_act(state) == 0 and state.bout == ()


# Text forms.


@pytest.mark.parametrize(("text", "action"), [
    ("attack 6♣", Attack(18)), ("attack В♣", Attack(23)), ("Attack 10C", Attack(22)), ("beat Т♦", Beat(35)),
    ("stop", Stop()), (" take ", Take()),
])
def test_action_text_forms_parse_latin_ascii_and_russian_ranks(text: str, action: object) -> None:
    assert GAME.parse_action(text) == action
    assert GAME.parse_action(action.text()) == action  # type: ignore[attr-defined]


@pytest.mark.parametrize("text", ["attack", "attack 5♣", "beat 6♣ 7♣", "take it", "play 6♣"])
def test_bad_action_text_is_a_decode_error(text: str) -> None:
    with pytest.raises(DecodeError):
        GAME.parse_action(text)


def test_actions_in_words() -> None:
    assert GAME.describe_action(Attack(cards("6♣")[0])) == "Attack with the six of clubs"
    assert GAME.describe_action(Beat(cards("Q♥")[0])) == "Beat with the queen of hearts"
    assert GAME.describe_action(Take()) == "Take the cards"


# The scripted bot: exactly the program's choices.


def test_scripted_lead_is_the_lowest_non_trump_else_the_lowest_trump() -> None:
    assert scripted_move(position(["6♦ 9♣ 7♥ A♠", "7♣"], trump="Q♦")) == "attack 7♥"
    assert scripted_move(position(["9♦ 7♦", "7♣"], trump="Q♦")) == "attack 7♦"


def test_scripted_continue_skips_the_highest_trump_while_holding_more_than_one_card() -> None:
    state, _ = play(position(["K♣ 7♠ A♦", "A♣ 6♥"], trump="Q♦"), "attack K♣", "beat A♣")
    assert scripted_move(state) == "stop"
    state, _ = play(position(["K♣ A♦", "A♣ 6♥"], trump="Q♦"), "attack K♣", "beat A♣")
    assert scripted_move(state) == "attack A♦"  # its only card
    state, _ = play(position(["K♣ K♦ A♦", "A♣ 6♥"], trump="Q♦"), "attack K♣", "beat A♣")
    assert scripted_move(state) == "attack K♦"  # a lower trump may continue


def test_scripted_continue_takes_the_first_card_of_a_bout_rank_in_hand_order() -> None:
    state, _ = play(position(["6♣ 9♥ 7♠ 7♥", "7♣ A♣"], trump="Q♦"), "attack 6♣", "beat 7♣")
    assert scripted_move(state) == "attack 7♠"  # 7♠ sorts before 7♥


def test_scripted_defence_lowest_higher_of_the_suit_then_lowest_trump_else_take() -> None:
    state, _ = play(position(["7♣", "J♣ 8♣ 6♦"], trump="Q♦"), "attack 7♣")
    assert scripted_move(state) == "beat 8♣"
    state, _ = play(position(["8♣", "6♣ 9♦ 7♦"], trump="Q♦"), "attack 8♣")
    assert scripted_move(state) == "beat 7♦"
    state, _ = play(position(["8♦", "A♣ 6♦"], trump="Q♦"), "attack 8♦")
    assert scripted_move(state) == "take"


def test_heuristic_keeps_trumps_while_the_deck_has_cards() -> None:
    state, _ = play(position(["K♣ K♦ A♦", "A♣ 6♥"], trump="Q♦", deck="6♠ 7♠ 8♠ Q♦"), "attack K♣", "beat A♣")
    legal = GAME.legal_actions(state, 0)
    assert HeuristicBot(0).act(GAME.observe(state, 0), legal) == Stop()
    assert ScriptedBot(0).act(GAME.observe(state, 0), legal) == Attack(cards("K♦")[0])


def test_bots_are_offered_by_name() -> None:
    bots = GAME.bots()
    assert bots["scripted"](1).name == "scripted" and bots["heuristic"](1).name == "heuristic"


# Observations and hidden cards.


def test_observation_shows_own_hand_the_table_and_counts_only() -> None:
    state = position(["6♣ 9♥", "7♣ 8♠ A♦", "K♥"], trump="Q♦", deck="J♠ Q♦")
    state, _ = play(state, "attack 6♣")
    obs = GAME.observe(state, 1)
    assert obs.hand == cards("7♣ 8♠ A♦") and obs.bout == cards("6♣")
    assert obs.hand_counts == (1, 3, 1) and obs.deck_count == 2 and obs.to_act == 1
    assert obs.trump_suit == "diamonds" and obs.trump_card == cards("Q♦")[0]
    assert obs.cards_shown() == frozenset(cards("7♣ 8♠ A♦ 6♣ Q♦"))
    hidden = GAME.hidden_cards(state, 1)
    assert hidden == frozenset(cards("9♥ K♥ J♠"))  # others' hands and the deck, not the trump card
    spectator = GAME.observe(state, None)
    assert spectator.hand == () and not spectator.cards_shown() & GAME.hidden_cards(state, None)


def test_seat_stats_count_fools_wins_defences_and_takes() -> None:
    state, _ = play(position(["6♣ 9♥", "7♣", "A♥ 8♠"], trump="Q♦"),
                    "attack 6♣", "beat 7♣", "stop", "attack 8♠", "take", "attack A♥", "take")
    stats = GAME.seat_stats(state)
    assert [s["fool"] for s in stats] == [1.0, 0.0, 0.0]
    assert [s["won"] for s in stats] == [0.0, 1.0, 0.0]
    assert [s["defences"] for s in stats] == [2.0, 1.0, 0.0] and [s["takes"] for s in stats] == [2.0, 0.0, 0.0]


def test_bout_limit_ends_the_game_as_a_draw() -> None:
    state = position(["6♣ 7♣", "8♥ 9♥", "10♠ J♠"], trump="Q♦", bout_limit=1)
    state, events = play(state, "attack 6♣", "take")
    outcome = GAME.outcome(state)
    assert outcome is not None and "bout limit 1" in outcome.reason and GAME.to_act(state) is None
    assert events[-1].fool is None and outcome.winners == ()  # type: ignore[attr-defined]
    assert GAME.max_actions(GAME.options(bout_limit=3)) == 3 * 37
