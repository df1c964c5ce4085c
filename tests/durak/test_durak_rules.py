"""One scripted deal (or known answer) per numbered rule of the issue, named after the rule."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardtable.cards import RUSSIAN_36
from cardtable.core.errors import InvalidOptions
from cardtable.core.rng import draws, rng_state, seeded
from cardtable.games.durak import rules
from cardtable.games.durak.events import (
    BoutStarted,
    DrewCards,
    GameOver,
    HandedOver,
    LeftGame,
    Stopped,
    Took,
)
from tests.durak.positions import GAME, cards, play, position, texts

FIXTURE = Path(__file__).parents[1] / "fixtures" / "reference-log-seed60493-Rick-Morty-Summer.txt"


def fixture_deal() -> tuple[list[set[int]], int, list[int]]:
    """From the published log: the dealt hands (as sets), the trump card and every card drawn, in order."""
    text = FIXTURE.read_text(encoding="utf-8")
    hands = [set(cards(m)) for m in re.findall(r"^(?:Rick|Morty|Summer): (.+)$", text, re.M)]
    trump = cards(re.search(r"^Trump: (.+)$", text, re.M).group(1))[0]  # type: ignore[union-attr]
    drawn = [cards(m)[0] for m in re.findall(r"^    \(deck\) \w+ \+ (.+)$", text, re.M)]
    return hands, trump, drawn


# Rule 1: 36 cards, ♠ ♥ ♣ ♦, 6 → A each, id 0 on top.


def test_rule_01_deck_is_36_cards_spades_hearts_clubs_diamonds_six_to_ace() -> None:
    order = [RUSSIAN_36.text(c) for c in range(36)]
    assert order[:9] == ["6♠", "7♠", "8♠", "9♠", "10♠", "J♠", "Q♠", "K♠", "A♠"]
    assert [order[i] for i in (9, 18, 27, 35)] == ["6♥", "6♣", "6♦", "A♦"]
    state, _ = GAME.new(GAME.options(players=4), 11)
    everything = [c for h in state.hands for c in h] + list(state.deck)
    assert sorted(everything) == list(range(36))


# Rule 2: 1000 moves of one card to the top.


def test_rule_02_reference_shuffle_reproduces_the_published_deal_and_draws() -> None:
    hands, trump, drawn = fixture_deal()
    deck = rules.shuffle(60493, "reference")
    assert [set(deck[i * 6:(i + 1) * 6]) for i in range(3)] == hands
    assert deck[18] == trump
    assert deck[19:] + [trump] == drawn  # every remaining card, drawn top first, the trump last


@pytest.mark.parametrize("number", [7, 43, 60493, 65535])
def test_rule_02_reference_shuffle_takes_position_number_plus_2i_mod_36(number: int) -> None:
    deck = list(range(36))
    for i in range(1000):
        n = (number + 2 * i) % 36
        deck = [deck[n]] + deck[:n] + deck[n + 1:]
    assert rules.shuffle(number, "reference") == deck


@pytest.mark.parametrize("number", [0, 1, 4242, 60493, -17, 2**70])
def test_rule_02_default_shuffle_moves_a_random_card_to_the_top_1000_times(number: int) -> None:
    """The 1000 moves are drawn from the pinned RNG, the last move first; all 1000 played forward give the deck."""
    last_first, _ = draws(seeded(number), 36, 1000)
    deck = list(range(36))
    for card in reversed(last_first):
        deck.remove(card)
        deck.insert(0, card)
    assert rules.shuffle(number, "random") == deck
    assert rules.shuffle(number, "random") != rules.shuffle(number + 1, "random")


@pytest.mark.parametrize("n", [5, 36])
def test_rule_02_random_to_top_is_the_forward_shuffle_for_many_streams(n: int) -> None:
    """The 36-card path reads whole words with its digits written out; any other size takes the plain loop."""
    for number in range(150):
        last_first, _ = draws(rng_state(number), n, 1000)
        deck = list(range(n))
        for card in reversed(last_first):
            deck.remove(card)
            deck.insert(0, card)
        assert rules.random_to_top(rng_state(number), n)[0] == deck


# Rule 3: six cards each from the top.


def test_rule_03_reference_deals_six_consecutive_cards_to_each_player() -> None:
    deck = rules.shuffle(99, "reference")
    state, _ = GAME.new(GAME.options(preset="reference", players=3), 99)
    assert [set(h) for h in state.hands] == [set(deck[0:6]), set(deck[6:12]), set(deck[12:18])]


def test_rule_03_default_deals_one_card_at_a_time_round_the_table() -> None:
    deck = rules.shuffle(99, "random")
    state, _ = GAME.new(GAME.options(preset="default", players=4), 99)
    assert [set(h) for h in state.hands] == [set(deck[p:24:4]) for p in range(4)]


# Rule 4: the trump is turned up and goes to the bottom.


@pytest.mark.parametrize(("preset", "players"), [("reference", 4), ("default", 5)])
def test_rule_04_trump_is_the_next_card_and_is_drawn_last(preset: str, players: int) -> None:
    method = "reference" if preset == "reference" else "random"
    deck = rules.shuffle(5, method)  # type: ignore[arg-type]
    state, _ = GAME.new(GAME.options(preset=preset, players=players), 5)
    trump = deck[6 * players]
    assert state.trump_card == trump and rules.SUIT[trump] == state.trump
    assert state.deck == tuple(deck[6 * players + 1:]) + (trump,)
    assert GAME.observe(state, 0).trump_suit == rules.SUIT_WORDS[rules.SUIT[trump]]


# Rule 5: hands sorted — non-trumps by rank (ties ♠ ♣ ♦ ♥), then trumps by rank.


def test_rule_05_hand_order_non_trumps_by_rank_ties_spades_clubs_diamonds_hearts_then_trumps() -> None:
    hand = cards("A♦ 6♥ 10♣ 6♣ K♥ 6♦ 10♠ 6♠")
    assert rules.ru_join(rules.sort_hand(hand, rules.SUIT[cards("7♦")[0]])) == "6♠,6♣,6♥,10♠,10♣,К♥,6♦,Т♦"
    hearts_trump = rules.sort_hand(cards("7♥ 7♦ 7♣ 7♠ 6♥"), rules.SUIT[cards("9♥")[0]])
    assert rules.ru_join(hearts_trump) == "7♠,7♣,7♦,6♥,7♥"


def test_rule_05_hands_stay_sorted_after_taking_and_drawing() -> None:
    state = position(["6♣ 9♥ K♠", "A♠ 7♦ Q♣"], trump="8♦", deck="6♦ 10♥ J♠ 8♦")
    state, _ = play(state, "attack 6♣", "take")
    assert rules.ru_join(state.hands[1]) == "6♣,Д♣,Т♠,7♦"  # took 6♣ into its place
    assert rules.ru_join(state.hands[0]) == "9♥,10♥,В♠,К♠,6♦,8♦"  # drew 6♦ 10♥ J♠ 8♦


# Rule 6: the first attacker.


def test_rule_06_reference_first_attacker_is_the_first_player_even_without_the_lowest_trump() -> None:
    seed = next(s for s in range(1, 500) if _lowest_trump_seat("reference", s) not in (0, None))
    _state, events = GAME.new(GAME.options(preset="reference", players=3), seed)
    assert events[-1] == BoutStarted(1, 0, 1)


def test_rule_06_default_first_attacker_holds_the_lowest_trump() -> None:
    seed = next(s for s in range(1, 500) if _lowest_trump_seat("default", s) not in (0, None))
    holder = _lowest_trump_seat("default", seed)
    state, _ = GAME.new(GAME.options(preset="default", players=3), seed)
    assert state.attacker == holder != 0
    lowest = min((c for h in state.hands for c in h if rules.SUIT[c] == state.trump), key=rules.RANK.__getitem__)
    assert lowest in state.hands[holder]


def test_rule_06_default_without_any_trump_in_hand_the_first_player_attacks() -> None:
    seed = next(s for s in range(1, 5000) if _lowest_trump_seat("default", s, players=2) is None)
    state, _ = GAME.new(GAME.options(preset="default", players=2), seed)
    assert not any(rules.SUIT[c] == state.trump for h in state.hands for c in h)
    assert state.attacker == 0


def _lowest_trump_seat(preset: str, seed: int, players: int = 3) -> int | None:
    """Who holds the lowest trump in this deal, computed from the hands (not from the engine's choice)."""
    state, _ = GAME.new(GAME.options(preset=preset, players=players), seed)
    held = [(rules.RANK[c], s) for s, h in enumerate(state.hands) for c in h if rules.SUIT[c] == state.trump]
    return min(held)[1] if held else None


# Rule 7: the next player in the game defends; nobody else plays.


def test_rule_07_attacker_attacks_the_next_player_still_in_the_game_and_nobody_else_acts() -> None:
    state = position(["6♣ 7♣", "", "8♠ 9♠", "10♥ J♥"], trump="6♦", left=[0, 3, 0, 0])
    assert state.defender == 2
    for seat in (1, 2, 3):
        assert GAME.legal_actions(state, seat) == []
    state, _ = play(state, "attack 6♣")
    assert GAME.to_act(state) == 2
    assert all(GAME.legal_actions(state, s) == [] for s in (0, 1, 3))


# Rule 8: a take — the hand-over, then everything in the order played; the taker misses his turn.


def test_rule_08_take_hands_over_non_trump_ranks_then_bout() -> None:
    state = position(["6♣ 6♥ 7♥ 7♠ 10♣ 6♦", "7♣ 9♠ K♠", "A♥"], trump="Q♦")
    state, events = play(state, "attack 6♣", "beat 7♣", "attack 7♥", "take")
    handed = [e for e in events if isinstance(e, HandedOver)]
    assert handed == [HandedOver(0, cards("6♥ 7♠"))]  # 6♦ is a trump, 10♣ a rank not in the bout
    assert [e for e in events if isinstance(e, Took)] == [Took(1, cards("6♣ 7♣ 7♥ 6♥ 7♠"))]
    assert set(state.hands[0]) == set(cards("10♣ 6♦"))
    assert set(state.hands[1]) == set(cards("6♣ 7♣ 7♥ 6♥ 7♠ 9♠ K♠"))
    assert events[-1] == BoutStarted(2, 2, 0)  # seat 1 misses its turn: seat 2 attacks seat 0


# Rule 9: everything beaten and the attacker stops.


def test_rule_09_beaten_bout_leaves_the_game_and_the_defender_attacks_next() -> None:
    state = position(["6♣ 9♥", "7♣ K♠", "A♥ 8♠"], trump="Q♦")
    state, events = play(state, "attack 6♣", "beat 7♣", "stop")
    assert Stopped(0, cards("6♣ 7♣")) in events
    obs = GAME.observe(state, 2)
    assert obs.discards == 2 and obs.bout == ()
    assert events[-1] == BoutStarted(2, 1, 2)


def test_rule_09_a_defender_who_left_by_beating_is_followed_by_the_next_player() -> None:
    state = position(["6♣ 9♥", "7♣", "A♥ 8♠"], trump="Q♦")
    state, events = play(state, "attack 6♣", "beat 7♣", "stop")
    assert LeftGame(1) in events
    assert events[-1] == BoutStarted(2, 2, 0)


# Rule 10: refill to six, attacker, defender, then the others starting after the defender.


def test_rule_10_refill_order_attacker_defender_then_the_others_after_the_defender() -> None:
    state = position(["6♠ 7♠ 8♠ 9♠ 10♠", "6♥ 7♥ 8♥ 9♥ 10♥ J♥", "6♣ 7♣ 8♣ 9♣ 10♣ 8♥", "A♠ A♥ A♣ K♠"],
                     trump="6♦", deck="7♦ 8♦ 9♦ 10♦", attacker=1)
    state, events = play(state, "attack 6♥", "beat 8♥", "stop")
    draws = [(e.seat, e.cards) for e in events if isinstance(e, DrewCards)]
    assert draws == [(1, cards("7♦")), (2, cards("8♦")), (3, cards("9♦ 10♦"))]  # seat 0 comes last: none left
    assert [len(h) for h in state.hands] == [5, 6, 6, 6]


# Rule 11: leaving, the fool, the winner, a draw.


def test_rule_11_player_leaves_only_once_the_deck_is_empty_checked_after_the_refill() -> None:
    state = position(["6♣ 9♥", "7♣", "A♥ 8♠"], trump="Q♦", deck="J♠ J♥ J♣ J♦ K♥ K♣")
    state, events = play(state, "attack 6♣", "beat 7♣", "stop")
    assert not any(isinstance(e, LeftGame) for e in events)
    assert state.hands[1] == cards("K♣") and state.deck == ()  # the defender drew the last card
    state = position(["6♣ 9♥", "7♣", "A♥ 8♠"], trump="Q♦", deck="J♠")
    state, events = play(state, "attack 6♣", "beat 7♣", "stop")
    assert state.hands[0] == cards("9♥ J♠")  # the attacker emptied the deck: the defender got nothing
    assert LeftGame(1) in events and state.left[1] == 1


def test_rule_11_last_player_holding_cards_is_the_fool_and_the_first_to_leave_wins() -> None:
    state = position(["6♣ 9♥", "7♣", "A♥ 8♠"], trump="Q♦")
    state, _ = play(state, "attack 6♣", "beat 7♣", "stop")  # seat 1 leaves first
    assert GAME.to_act(state) == 2 and state.defender == 0
    state, events = play(state, "attack 8♠", "take", "attack A♥", "take")  # seat 2 attacks seat 0 twice
    assert events[-1] == GameOver(0, 1, "one player holds cards")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (1,) and outcome.scores == (-1.0, 1.0, 0.0)


def test_rule_11_nobody_holding_cards_is_a_draw_and_simultaneous_first_leavers_share() -> None:
    state = position(["6♣", "7♣"], trump="Q♦")
    state, events = play(state, "attack 6♣", "beat 7♣", "stop")
    assert events[-1] == GameOver(None, None, "nobody holds cards")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0, 1) and GAME.to_act(state) is None


def test_rule_11_several_leaving_first_means_no_winner() -> None:
    state = position(["6♣", "7♣", "A♥ 8♠"], trump="Q♦")
    state, events = play(state, "attack 6♣", "beat 7♣", "stop")
    assert events[-1] == GameOver(2, None, "one player holds cards")


# Rule 12: no cap on attack cards unless the option says so.


def test_rule_12_no_cap_an_empty_handed_defender_must_take() -> None:
    state = position(["6♣ 6♥ 6♠", "7♣", "A♥"], trump="Q♦", deck="8♠")
    state, _ = play(state, "attack 6♣", "beat 7♣")
    assert texts(GAME.legal_actions(state, 0)) == ["attack 6♠", "attack 6♥", "stop"]
    state, _ = play(state, "attack 6♥")
    assert texts(GAME.legal_actions(state, 1)) == ["take"]


def test_rule_12_defender_hand_cap_stops_attacks_at_an_empty_hand() -> None:
    state = position(["6♣ 6♥ 6♠", "7♣ 8♥", "A♥"], trump="Q♦", deck="8♠", capped=True)
    state, _ = play(state, "attack 6♣", "beat 7♣")
    assert texts(GAME.legal_actions(state, 0)) == ["attack 6♠", "attack 6♥", "stop"]
    state, _ = play(state, "attack 6♥", "beat 8♥")
    assert texts(GAME.legal_actions(state, 0)) == ["stop"]
    assert "defender has no cards" in str(GAME.why_illegal(state, 0, GAME.parse_action("attack 6♠")))


def test_rule_12_cap_is_an_option_defaulting_to_none() -> None:
    assert GAME.options().attack_cap == "none"
    assert GAME.options(preset="reference").attack_cap == "none"
    assert GAME.options(attack_cap="defender_hand").attack_cap == "defender_hand"
    with pytest.raises(InvalidOptions):
        GAME.options(attack_cap="five")


# Rule 13: 2–4 players on the reference rules, 2–5 on the default rules.


def test_rule_13_player_counts_per_preset() -> None:
    for players in (2, 3, 4):
        GAME.options(preset="reference", players=players)
    for players in (2, 3, 4, 5):
        GAME.options(preset="default", players=players)
    for preset, players in (("reference", 5), ("reference", 1), ("default", 6), ("default", 1)):
        with pytest.raises(InvalidOptions):
            GAME.options(preset=preset, players=players)
