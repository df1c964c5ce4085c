"""Scenario tests of a jugada: dealing, mus, discards, lances and declarations. Named after the rule."""

from __future__ import annotations

import pytest

from cardtable.cards import SPANISH_40
from cardtable.core import IllegalAction
from cardtable.core.rng import Scripted
from cardtable.games.mus import GAME
from cardtable.games.mus.actions import CutMus, Discard, Mus
from cardtable.games.mus.fsm import Phase
from cardtable.games.mus.rules import evaluate, holds
from cardtable.games.mus.state import MusState
from cardtable.games.mus.testing import cards
from tests.mus.helpers import all_pass_to_pares, of_type, opts, play, scored, table


def discard_all(state: MusState, seat: int) -> str:
    """The text of discarding a seat's whole hand."""
    return "discard " + SPANISH_40.format(state.hands[seat])


def test_fem_iii_1_first_dealer_is_drawn_by_lot_from_the_seed() -> None:
    """The first dealer comes from the seed's RNG; several seeds give several dealers; same seed, same deal."""
    dealers = {GAME.new(GAME.options(), seed)[0].dealer for seed in range(20)}
    assert dealers == {0, 1, 2, 3}
    a, b = GAME.new(GAME.options(), 7)[0], GAME.new(GAME.options(), 7)[0]
    assert (a.dealer, a.hands) == (b.dealer, b.hands)


def test_fem_iii_2_cards_dealt_one_at_a_time_counter_clockwise_from_the_mano() -> None:
    """Card i of the shuffled deck goes to seat mano + i (mod 4): one at a time, ascending seats."""
    deck = [(7 * i + 3) % 40 for i in range(40)]  # a scripted shuffle: the lot gives dealer 2
    state, events = GAME.new(GAME.options(), Scripted((2, tuple(deck))))
    assert state.dealer == 2
    mano = 3
    for i in range(4):
        assert state.hands[(mano + i) % 4] == tuple(sorted(deck[i:16:4]))
    assert state.deck == tuple(deck[16:])
    dealt = of_type(events, "cards_dealt")
    assert [e.seat for e in dealt] == [(mano + i) % 4 for i in range(4)]
    assert all(e.audience() == frozenset({e.seat}) for e in dealt)


def test_fem_viii_8_mano_is_the_dealers_right_and_rotates_every_hand() -> None:
    """mano = dealer + 1; after a hand the next dealer is the old mano."""
    state = table()
    assert (state.dealer, state.mano, state.postre, GAME.to_act(state)) == (3, 0, 0 + 3, 0)
    state, events = play(state, "cut", *["pass"] * 8, *["pass"] * 3)
    dealt = of_type(events, "hand_dealt")
    assert [(e.dealer, e.mano) for e in dealt] == [(0, 1)]
    assert GAME.to_act(state) == 1 and state.phase is Phase.MUS_DECISION


def test_fem_iv_4_mus_mano_speaks_first_then_counter_clockwise() -> None:
    """The mano decides first; each mus passes the word to seat + 1; the partner may always cut."""
    state = table()
    assert GAME.legal_actions(state, 0) == [Mus(), CutMus()]
    state, _ = play(state, "mus", "mus")
    assert GAME.to_act(state) == 2
    state, events = play(state, "cut")
    assert state.phase is Phase.GRANDE and of_type(events, "mus_cut")[0].seat == 2
    assert GAME.to_act(state) == 0


def test_fem_iii_11_everybody_gives_mus_then_discards_and_replacement() -> None:
    """Four mus lead to discards (count public, cards private), replacement from the mano, a new mus decision."""
    state = table(deck="Re Rb 3o 1o")
    state, _ = play(state, "mus", "mus", "mus", "mus")
    assert state.phase is Phase.DISCARD and GAME.to_act(state) == 0
    state, events = play(state, "discard 4o,5o", "discard 6o", "discard 1c,4c,5c,6c", "discard 7c")
    assert state.hands[0] == cards("Ro Rc Re Rb")
    assert cards("3o") [0] in state.hands[1] and cards("1o")[0] in state.hands[2]
    assert [e.count for e in of_type(events, "discarded")] == [2, 1, 4, 1]
    replaced = of_type(events, "cards_replaced")
    assert [e.seat for e in replaced] == [0, 1, 2, 3]
    assert all(e.audience() == frozenset({e.seat}) for e in replaced)
    assert state.discard_counts == (2, 1, 4, 1) and state.mus_rounds == 1
    assert state.phase is Phase.MUS_DECISION and GAME.to_act(state) == 0
    everything = [c for h in state.hands for c in h] + list(state.deck) + list(state.discards)
    assert sorted(everything) == list(range(40))


def test_convencion_discard_at_least_one_card() -> None:
    """Discarding nothing is illegal (CONVENCIÓN, minimum 1); so is a card one does not hold."""
    state, _ = play(table(), "mus", "mus", "mus", "mus")
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, Discard(()))
    reason = GAME.validate(state, 0, Discard(cards("Co")))
    assert reason is not None and "do not hold" in reason


def test_fem_iii_15_deck_runs_out_and_the_discards_are_reshuffled() -> None:
    """Two rounds of four-card discards need 32 cards from a 24-card deck: the discards are reshuffled."""
    state = table()
    for _ in range(2):
        state, _ = play(state, "mus", "mus", "mus", "mus")
        state, events = play(state, *[discard_all(state, s) for s in range(4)])
    reshuffles = of_type(events, "deck_reshuffled")
    assert len(reshuffles) == 1 and reshuffles[0].cards == 32  # 16 + 16 discards; 8 left in the deck
    everything = [c for h in state.hands for c in h] + list(state.deck) + list(state.discards)
    assert sorted(everything) == list(range(40))
    assert state.mus_rounds == 2


def test_fem_iv_7_a_falta_de_tanto_the_mus_may_be_cut_during_the_discards() -> None:
    """Within 4 tantos of the target CutMus is legal in DISCARD and cancels the discards; otherwise not."""
    state, _ = play(table(), "mus", "mus", "mus", "mus", "discard 4o")
    assert CutMus() not in GAME.legal_actions(state, 1)
    assert "a falta de tanto" in (GAME.validate(state, 1, CutMus()) or "")
    state, _ = play(table(tanteo=(36, 0)), "mus", "mus", "mus", "mus", "discard 4o")
    assert state.team_in == (True, False)
    state, events = play(state, "cut")
    assert state.phase is Phase.GRANDE and state.hands[0] == cards("Ro Rc 4o 5o")
    assert of_type(events, "mus_cut")[0].seat == 1


def test_decision_mus_rounds_are_bounded_so_every_hand_ends() -> None:
    """After mus.max_rounds rounds only CutMus is offered, with a reason for Mus."""
    state = table(options=opts(**{"mus.max_rounds": 1}))
    state, _ = play(state, "mus", "mus", "mus", "mus", "discard 4o", "discard 6o", "discard 4c", "discard 7c")
    assert GAME.legal_actions(state, 0) == [CutMus()]
    assert "must be cut" in (GAME.validate(state, 0, Mus()) or "")


def test_fem_vii_2_lances_in_order_grande_chica_pares_juego() -> None:
    """Grande, then chica, then pares, then juego; passing through all of them ends the hand."""
    _state, events = play(table(), "cut", *["pass"] * 8, *["pass"] * 3)
    started = [e.lance for e in of_type(events, "lance_started")]
    assert started == ["grande", "chica", "pares"]
    assert [e.lance for e in of_type(events, "lance_skipped")] == ["juego"]
    assert of_type(events, "hands_shown")


def test_fem_vi_5_pares_and_juego_are_declared_publicly_and_truthfully() -> None:
    """The engine says sí/no for every seat from the mano; the observation keeps it."""
    state, events = all_pass_to_pares(table())
    declared = of_type(events, "declared")
    assert [(e.seat, e.holds) for e in declared] == [(0, True), (1, True), (2, False), (3, True)]
    assert all(e.audience() is None for e in declared)
    for e in declared:
        assert e.holds == holds(evaluate(state.hands[e.seat]), "pares")
    assert GAME.observe(state, 2).pares == (True, True, False, True)
    assert GAME.observe(state, 2).juego == (None, None, None, None)


def test_fem_viii_8_lance_mano_is_the_first_holder() -> None:
    """In pares only holders speak, starting with the first holder from the mano."""
    hands = ["1o 4o 5o 6o", "Co Cc 6e 7o", "1c 2c 5c 6c", "Se Sb 7c 6b"]
    state, _ = all_pass_to_pares(table(hands))
    assert state.betting is not None and state.betting.speakers == (1, 2, 3)
    assert GAME.to_act(state) == 1
    state, _ = play(state, "bet 2")
    assert GAME.to_act(state) == 2 and state.betting.responders == (2,)


def test_fem_vi_22_only_holders_bet_or_answer_in_pares() -> None:
    """A bet in pares is answered only by the rival holders; seat 2 (no pares) never speaks."""
    state, _ = all_pass_to_pares(table())
    assert state.betting is not None and state.betting.speakers == (0, 1, 3)
    state, _ = play(state, "pass", "bet 2")
    assert GAME.to_act(state) == 0 and state.betting.responders == (0,)
    assert GAME.legal_actions(state, 2) == []


def test_convencion_one_pair_holding_no_betting_and_it_collects_at_the_end() -> None:
    """Only pair B has juego: no juego lance; B collects 2 + 2 at the count."""
    _state, events = play(table(), "cut", *["pass"] * 8, *["pass"] * 3)
    skipped = of_type(events, "lance_skipped")
    assert [(e.lance, e.holder_pair) for e in skipped] == [("juego", 1)]
    assert (1, 4, "juego", "juego") in scored(events)


def test_convencion_nobody_holds_pares_the_lance_is_skipped() -> None:
    """No pares anywhere: pares is skipped and nothing is paid for it."""
    hands = ["Ro 4o 5o 6o", "Rc 4c 5c 7c", "Re 4e 5e 1e", "Rb 4b 6b 7b"]
    state, events = all_pass_to_pares(table(hands))
    assert [(e.lance, e.holder_pair) for e in of_type(events, "lance_skipped")] == [("pares", None)]
    assert state.phase is Phase.PUNTO


def test_fem_vi_7_punto_when_nobody_has_juego() -> None:
    """Nobody reaches 31: the punto lance is played; its winner takes the accepted bet plus 1."""
    hands = ["Ro 4o 5o 6o", "Rc 4c 5c 7c", "Re 4e 5e 1e", "Rb 4b 6b 7b"]
    state, events = all_pass_to_pares(table(hands))
    assert GAME.observe(state, 0).juego == (False, False, False, False)
    state, more = play(state, "bet 2", "accept")
    result = scored(events + more)
    assert (1, 1, "en paso", "grande") in result and (0, 1, "en paso", "chica") in result
    assert (1, 2, "envite", "punto") in result and (1, 1, "punto", "punto") in result
    assert state.tanteo == (1, 4)


def test_convencion_tie_in_a_lance_goes_to_the_player_nearest_the_mano() -> None:
    """Seats 0 and 1 hold equal grande hands: the mano (seat 0) takes the grande en paso."""
    hands = ["Ro 4o 5o 6o", "Rc 4c 5c 6c", "Re 4e 5e 1e", "1b 4b 6b 7b"]
    _, events = play(table(hands), "cut", *["pass"] * 8, *["pass"] * 4)
    assert (0, 1, "en paso", "grande") in scored(events)
    _, events = play(table(hands, dealer=0), "cut", *["pass"] * 8, *["pass"] * 4)
    assert (1, 1, "en paso", "grande") in scored(events)
