"""Rule 10: the computer opponent's bidding and play, and its strength against random play."""

from __future__ import annotations

import random
from typing import Any

from cardtable.cards import KAISER_32
from cardtable.games.kaiser.actions import PASS, Bid, NameTrump, Play
from cardtable.games.kaiser.options import KaiserOptions
from cardtable.games.kaiser.players.heuristic import HeuristicBot
from cardtable.games.kaiser.rating import best_trump, trump_rating
from cardtable.games.kaiser.state import KaiserState
from cardtable.games.kaiser.testing import GAME, deal_hands, play_script
from tests.kaiser.deals import ONE_SUIT_EACH

# Every seat has two or three cards of each suit; seat 0 is weak.
MIXED = [
    "5♥ 3♠ 7♣ 8♣ 9♣ 10♣ 7♦ 8♦",
    "8♥ K♥ J♣ Q♣ 9♦ 10♦ 8♠ J♠",
    "9♥ A♥ K♣ A♣ J♦ Q♦ 9♠ A♠",
    "Q♥ J♥ 10♥ K♦ A♦ 10♠ Q♠ K♠",
]


def ids(text: str) -> list[int]:
    """Card ids from text."""
    return KAISER_32.parse_many(text)


def bot_move(state: KaiserState) -> Any:
    """What the heuristic bot does for the seat to act."""
    seat = GAME.to_act(state)
    assert seat is not None
    return HeuristicBot(0).act(GAME.observe(state, seat), GAME.legal_actions(state, seat))


def test_rule_10_rating_counts_length_top_cards_five_and_three() -> None:
    """Longer and higher trumps rate higher; the 5♥ adds, the 3♠ subtracts."""
    base = ids("A♠ K♠ Q♠ 9♠ 8♥ 9♦ 8♣ 9♣")
    assert trump_rating(base, 0) > trump_rating(ids("A♠ K♠ Q♠ 9♦ 8♥ 10♦ 8♣ 9♣"), 0)  # length
    assert trump_rating(base, 0) > trump_rating(ids("10♠ J♠ 8♠ 9♠ 8♥ 9♦ 8♣ 9♣"), 0)  # top cards
    assert trump_rating(ids("A♠ K♠ Q♠ 9♠ 5♥ 9♦ 8♣ 9♣"), 0) > trump_rating(base, 0)  # the 5♥
    assert trump_rating(ids("A♠ K♠ Q♠ 3♠ 8♥ 9♦ 8♣ 9♣"), 0) < trump_rating(base, 0)  # the 3♠
    assert best_trump(base)[0] == 0


def test_rule_10_bids_the_floor_rather_than_reaching() -> None:
    """A strong hand bids the lowest bid it can, at every floor; it names its best suit."""
    for floor in (6, 7, 8):
        state = deal_hands(ONE_SUIT_EACH, options=KaiserOptions(floor=floor))  # type: ignore[arg-type]
        assert bot_move(state) == Bid(floor)
    state = deal_hands(ONE_SUIT_EACH)
    state, _ = play_script(state, "bid 6", "pass", "pass", "pass")
    assert bot_move(state) == NameTrump("spades")


def test_rule_10_passes_weak_hands_and_partners_bids_but_bids_when_forced() -> None:
    """A weak hand passes; it does not overcall its partner; as the forced dealer it bids the floor."""
    state = deal_hands(MIXED)
    assert bot_move(state) == PASS
    state = deal_hands(ONE_SUIT_EACH, dealer=1)
    state, _ = play_script(state, "bid 6", "pass")
    assert GAME.to_act(state) == 0 and bot_move(state) == PASS
    state = deal_hands(MIXED, dealer=0)
    state, _ = play_script(state, "pass", "pass", "pass")
    assert bot_move(state) == Bid(6)


def test_rule_10_lets_partner_have_a_trick_he_is_winning() -> None:
    """Partner leads Q♥ and wins so far: play the 8♥, not the K♥."""
    state = deal_hands(MIXED, dealer=2, contract=(3, 6, "nt"))
    state, _ = play_script(state, "play Q♥", "play 5♥")
    assert bot_move(state) == Play(KAISER_32.parse("8♥"))


def test_rule_10_chases_the_five_of_hearts() -> None:
    """An opponent is winning a trick holding the 5♥: take it with the A♥."""
    state = deal_hands(MIXED, dealer=2, contract=(3, 6, "nt"))
    state, _ = play_script(state, "play Q♥", "play 5♥", "play 8♥")
    assert bot_move(state) == Play(KAISER_32.parse("A♥"))


def test_rule_10_ducks_when_the_three_of_spades_is_on_the_table() -> None:
    """An opponent is winning a trick holding the 3♠: duck with the 9♠ rather than win with the A♠."""
    state = deal_hands(MIXED, dealer=2, contract=(3, 6, "nt"))
    state, _ = play_script(state, "play 10♠", "play 3♠", "play 8♠")
    assert bot_move(state) == Play(KAISER_32.parse("9♠"))


class _Random:
    """Uniform choice among the legal actions."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Any, legal: list[Any]) -> Any:
        return legal[self.rng.randrange(len(legal))]


def test_rule_10_heuristic_pair_beats_random_play() -> None:
    """Over 40 games to 32, alternating sides, the heuristic pair wins clearly more than half."""
    wins = 0
    for i in range(40):
        side = i % 2
        bots = [HeuristicBot(i) if s % 2 == side else _Random(100 * i + s) for s in range(4)]
        state, _ = GAME.new(KaiserOptions(target=32), i)
        while (seat := GAME.to_act(state)) is not None:
            action = bots[seat].act(GAME.observe(state, seat), GAME.legal_actions(state, seat))
            state, _ = GAME.apply(state, seat, action)
        outcome = GAME.outcome(state)
        assert outcome is not None
        wins += side in outcome.winners and len(outcome.winners) == 2
    assert wins >= 32
