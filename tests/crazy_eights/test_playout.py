"""The bitmask playout plays a round exactly as the engine does with four ``heuristic`` bots."""

from __future__ import annotations

import random

import cardtable
from cardtable.bots import make_bot
from cardtable.games.crazy_eights.actions import PlayEight
from cardtable.games.crazy_eights.game import MATCH
from cardtable.games.crazy_eights.players.playout import Table, heuristic_move, penalties, play_round
from cardtable.games.crazy_eights.rules import SUIT_INDEX, SUIT_OF
from tests.bots.worlds import random_moves

GAME = cardtable.load_game("crazy_eights")


def _table(state: object) -> Table:
    s = state  # a CrazyEightsState
    return Table(list(s.hands), list(s.stock), s.discards, s.top, s.suit, s.turn,  # type: ignore[attr-defined]
                 s.drawn, s.passes, s.round_actions, s.draw_until)  # type: ignore[attr-defined]


def test_the_playout_ends_each_round_as_the_engine_with_heuristic_bots() -> None:
    compared = 0
    for seed in range(40):
        options = GAME.options(players=2 + seed % 5, rounds=1, draw_until_playable=seed % 4 != 3)
        state, _ = GAME.new(options, seed)
        bots = [make_bot(GAME, "heuristic", s) for s in range(options.players)]
        rng = random.Random(seed)
        # Start from a position some random moves into the round.
        state = random_moves(GAME, state, rng, rng.randrange(12))
        if GAME.to_act(state) is None:
            continue
        table = _table(state)
        went_out = play_round(table, random.Random(0))
        rebuilt = False
        while (seat := GAME.to_act(state)) is not None:
            action = bots[seat].act(GAME.observe(state, seat), GAME.legal_actions(state, seat))
            state, events = GAME.apply(state, seat, action)
            rebuilt |= any(e.TYPE == "stock_rebuilt" for e in events)
        if rebuilt:  # the rebuilt stock's order comes from a different generator
            continue
        assert state.sheet[-1].went_out == went_out
        assert tuple(penalties(table.hands)) == state.sheet[-1].penalties
        compared += 1
    assert compared >= 25


def test_the_playouts_move_is_the_heuristic_bots_move() -> None:
    compared = 0
    for seed in range(10):
        state, _ = GAME.new(GAME.options(players=2 + seed % 5, rounds=1), seed)
        bot, rng = make_bot(GAME, "heuristic"), random.Random(seed)
        while (seat := GAME.to_act(state)) is not None:
            legal = GAME.legal_actions(state, seat)
            playable = state.hands[seat] & MATCH[state.top * 4 + state.suit]
            if playable:
                card, suit = heuristic_move(list(state.hands), seat, playable)
                chosen = bot.act(GAME.observe(state, seat), legal)
                assert (card, suit) == (chosen.card, SUIT_INDEX[chosen.suit] if isinstance(chosen, PlayEight)
                                        else SUIT_OF[chosen.card])
                compared += 1
            state, _ = GAME.apply(state, seat, legal[rng.randrange(len(legal))])
    assert compared > 100
