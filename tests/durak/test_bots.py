"""Durak bots beyond the 2020 program: the careful heuristic and the endgame reader."""

from __future__ import annotations

import random

import pytest

from cardtable.bots import make_bot
from cardtable.games.durak.actions import TAKE, Attack, Beat
from cardtable.games.durak.players.careful import CarefulBot
from cardtable.games.durak.players.endgame import EndgameBot
from cardtable.games.durak.rules import DECK
from cardtable.games.durak.state import DurakState
from tests.durak.positions import GAME, cards, play, position


def _endgame(hands: list[str], trump: str, attacker: int = 0) -> DurakState:
    """A position with the deck empty: every card not in a hand has left the game."""
    held = set(cards(" ".join(hands)))
    return position(hands, trump=trump, attacker=attacker, gone=" ".join(DECK.text(c) for c in range(36)
                                                                        if c not in held))


def test_endgame_bot_reads_out_a_won_ending_that_careful_play_loses() -> None:
    # Leading the lone trump makes the defender take it; the 6♥ then goes out on the next attack.
    state = _endgame(["6♥ 7♠", "K♣ K♦ K♥ A♥"], trump="Q♠")
    obs, legal = GAME.observe(state, 0), GAME.legal_actions(state, 0)
    assert CarefulBot().act(obs, legal) == Attack(cards("6♥")[0])
    assert EndgameBot().act(obs, legal) == Attack(cards("7♠")[0])
    after, _ = play(state, "attack 7♠", "take", "attack 6♥", "beat K♥", "stop")
    assert GAME.outcome(after) is not None and GAME.outcome(after).winners == (0,)  # type: ignore[union-attr]


def test_endgame_bot_takes_rather_than_spend_a_trump_while_the_deck_is_long() -> None:
    state = position(["9♣", "6♦ 7♥"], trump="Q♦", deck="6♠ 7♠ 8♠ 9♠ 10♠ J♠")
    state, _ = play(state, "attack 9♣")
    legal = GAME.legal_actions(state, 1)
    assert Beat(cards("6♦")[0]) in legal
    assert CarefulBot().act(GAME.observe(state, 1), legal) == Beat(cards("6♦")[0])
    assert EndgameBot().act(GAME.observe(state, 1), legal) == TAKE


@pytest.mark.parametrize("name", ["endgame", "careful"])
def test_durak_bots_play_only_legal_moves_in_whole_games(name: str) -> None:
    rng = random.Random(3)
    for seed in range(6):
        players = 2 + seed % 3
        options = GAME.options(players=players)
        state, _ = GAME.new(options, seed)
        bots = [make_bot(GAME, name if s == 0 else "heuristic", seed) for s in range(players)]
        while (seat := GAME.to_act(state)) is not None:
            legal = GAME.legal_actions(state, seat)
            action = bots[seat].act(GAME.observe(state, seat), legal) if seat == 0 else legal[
                rng.randrange(len(legal))]
            assert action in legal
            state, _ = GAME.apply(state, seat, action)
        assert GAME.outcome(state) is not None
