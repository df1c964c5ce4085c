"""Kaiser's action text and words, the testing aid, observations and hidden cards."""

from __future__ import annotations

import pytest

from cardtable.cards import KAISER_32
from cardtable.core import DecodeError, IllegalAction, to_json
from cardtable.games.kaiser.actions import PASS, Bid, NameTrump, Play
from cardtable.games.kaiser.testing import GAME, deal_hands, play_script
from tests.kaiser.deals import SPLIT_SEVEN_THREE, SPLIT_SEVEN_THREE_TRICKS, play_tricks

FIVE_HEARTS = KAISER_32.parse("5♥")


@pytest.mark.parametrize(("action", "text", "words"), [
    (Bid(7), "bid 7", "Bid 7"),
    (Bid(7, True), "bid 7nt", "Bid 7 no trump"),
    (PASS, "pass", "Pass"),
    (NameTrump("hearts"), "trump ♥", "Name hearts as trump"),
    (Play(FIVE_HEARTS), "play 5♥", "Play five of hearts"),
])
def test_action_text_words_and_parsing(action: object, text: str, words: str) -> None:
    """Each action's text form parses back; describe_action gives the words."""
    assert action.text() == text  # type: ignore[attr-defined]
    assert GAME.parse_action(text) == action
    assert GAME.describe_action(action) == words  # type: ignore[arg-type]
    assert GAME.action_codec.decode(to_json(action)) == action


def test_parsing_accepts_ascii_and_words_and_rejects_nonsense() -> None:
    """``trump H``, ``trump hearts``, ``play 5H``, ``bid 7 no trump`` parse; junk raises DecodeError."""
    assert GAME.parse_action("trump H") == GAME.parse_action("trump hearts") == NameTrump("hearts")
    assert GAME.parse_action("play 5H") == Play(FIVE_HEARTS)
    assert GAME.parse_action("BID 7 no trump") == Bid(7, True)
    for junk in ("bid", "play 2♥", "trump ★", "hold"):
        with pytest.raises(DecodeError):
            GAME.parse_action(junk)


def test_deal_hands_checks_the_deal() -> None:
    """The testing aid refuses a deal that is not 4 × 8 distinct cards of the Kaiser deck."""
    with pytest.raises(ValueError, match="four hands"):
        deal_hands(SPLIT_SEVEN_THREE[:3])
    with pytest.raises(ValueError, match="four hands"):
        deal_hands([SPLIT_SEVEN_THREE[0]] * 4)


def test_illegal_play_messages_name_the_problem() -> None:
    """Playing a card not held, or out of turn, is refused with a reason."""
    state = deal_hands(SPLIT_SEVEN_THREE, contract=(0, 6, "spades"))
    with pytest.raises(IllegalAction, match="do not hold 5♥"):
        GAME.apply(state, 0, Play(FIVE_HEARTS))
    with pytest.raises(IllegalAction, match="seat 0's turn"):
        GAME.apply(state, 1, Play(KAISER_32.parse("A♣")))
    with pytest.raises(IllegalAction, match="bidding is over"):
        GAME.apply(state, 0, PASS)


def test_observation_shows_the_table_and_hides_other_hands() -> None:
    """Own hand sorted trump first; contract in words; trick, last trick, points; spectators see no hand."""
    state = deal_hands(SPLIT_SEVEN_THREE)
    state, _ = play_script(state, "bid 6", "pass", "pass", "pass", "trump ♣")
    obs = GAME.observe(state, 0)
    assert [KAISER_32.text(c) for c in obs.hand] == ["7♣", "8♣", "9♣", "10♠", "J♠", "Q♠", "K♠", "A♠"]
    assert obs.contract is not None and obs.contract.words == "Seat 0 bid 6 with clubs as trump"
    assert [b.words for b in obs.bids] == ["6", "pass", "pass", "pass"] and obs.high_bid == obs.bids[0]
    assert obs.status == "Seat 0 to play" and obs.trump == "clubs"
    state, _ = play_tricks(state, SPLIT_SEVEN_THREE_TRICKS[:1])
    state, _ = play_script(state, "play K♠")
    obs = GAME.observe(state, 2)
    assert [p.text for p in obs.last_trick] == ["A♠", "8♥", "3♠", "9♦"] and obs.last_trick_winner == 0
    assert [(p.seat, p.words) for p in obs.trick] == [(0, "king of spades")]
    assert obs.points_taken == (-2, 0) and obs.tricks_taken == (1, 0) and obs.hand_sizes == (6, 7, 7, 7)
    spectator = GAME.observe(state, None)
    assert spectator.hand == () and spectator.cards_shown() == obs.cards_shown() - set(obs.hand)
    assert GAME.hidden_cards(state, 2) == frozenset(c for s in (0, 1, 3) for c in _held(state, s))


def _held(state: object, seat: int) -> list[int]:
    return [c for c in range(32) if state.hands[seat] >> c & 1]  # type: ignore[attr-defined]


def test_score_sheet_and_stats_after_a_hand() -> None:
    """The score sheet gets a line per hand; seat stats count contracts and contracts made."""
    state = deal_hands(SPLIT_SEVEN_THREE, contract=(0, 6, "spades"))
    state, _ = play_tricks(state, SPLIT_SEVEN_THREE_TRICKS)
    obs = GAME.observe(state, 1)
    line = obs.score_sheet[0]
    assert (line.hand, line.dealer, line.bidder, line.bid, line.trump, line.made) == (1, 3, 0, 6, "spades", True)
    assert obs.totals == (7, 3) and obs.hand_number == 2 and obs.dealer == 0 and obs.last_trick == ()
    stats = GAME.seat_stats(state)
    assert stats[0] == {"hands": 1, "contracts": 1, "contracts_made": 1} and stats[1]["contracts"] == 0
