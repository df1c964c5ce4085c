"""Scenario tests of the envites of a lance: every betting path, named after its rule."""

from __future__ import annotations

from cardtable.games.mus import GAME
from cardtable.games.mus.actions import Accept, AcceptNoLose, Bet, Ordago, Raise, Reject
from cardtable.games.mus.fsm import BetStatus, Phase
from cardtable.games.mus.state import MusState
from tests.mus.helpers import all_pass_to_pares, of_type, opts, play, scored, table

# Seat 0 has 31 (postre 3 has 33); both pairs hold pares, so pares is played (0, 2, 3 speak).
H33 = ["Ro Rc Co 1o", "4o 5o 6e 1c", "Sb Cb 1e 2e", "Sc Se 7c 6c"]
# Pair B (seat 1) wins grande, pair A (seat 2) wins chica; only B has pares; only B has juego.
H_B_GRANDE = ["Co Sc 4o 5o", "Ro Rc 6o 7o", "1c 4c 5c 6c", "Se Sb 7c 6e"]


def to_juego(hands: list[str]) -> MusState:
    """Cut, pass grande, chica and pares (three holders) in H33."""
    state, _ = play(table(hands), "cut", *["pass"] * 8, *["pass"] * 3)
    assert state.phase is Phase.JUEGO
    return state


def test_fem_vi_4_first_no_quiero_passes_the_word_to_the_partner() -> None:
    """Seat 1 refuses, seat 3 still answers and accepts: the envite is accepted (quiero prevails)."""
    state, _ = play(table(), "cut", "bet 2")
    assert GAME.to_act(state) == 1 and GAME.legal_actions(state, 2) == []
    state, _ = play(state, "reject")
    assert GAME.to_act(state) == 3 and state.betting is not None and state.betting.status is BetStatus.PENDING
    state, events = play(state, "accept")
    closed = of_type(events, "lance_closed")[0]
    assert (closed.lance, closed.status, closed.total) == ("grande", "closed_accepted", 2)
    _, events = play(state, *["pass"] * 4, *["pass"] * 3)
    assert scored(events)[0] == (0, 2, "envite", "grande")


def test_fem_vi_4_no_quiero_only_if_both_refuse_negada_in_the_act() -> None:
    """Both rivals refuse the first envite: 1 tanto (negada) to the bettors at once, no grande en paso later."""
    state, events = play(table(), "cut", "bet 2", "reject", "reject")
    assert scored(events) == [(0, 1, "negada", "grande")]
    assert state.tanteo == (1, 0) and state.phase is Phase.CHICA and GAME.to_act(state) == 0
    _, events = play(state, *["pass"] * 4, *["pass"] * 3)
    assert all(lance != "grande" for _, _, _, lance in scored(events))


def test_fem_viii_8_raise_passes_the_answer_to_the_other_pair() -> None:
    """A raise makes the raiser's rivals answer, the first after him first (FEM VI.2)."""
    state, events = play(table(), "cut", "bet 2", "raise 3")
    assert GAME.to_act(state) == 2 and state.betting is not None
    assert (state.betting.total, state.betting.before, state.betting.responders) == (5, 2, (2, 0))
    assert of_type(events, "envite_made")[-1].total == 5


def test_convencion_refused_raise_pays_the_envite_in_force_before_it() -> None:
    """2, raised by 3 to 5, refused by both: the raisers take 2."""
    state, events = play(table(), "cut", "bet 2", "raise 3", "reject", "reject")
    assert scored(events) == [(1, 2, "deje", "grande")]
    assert state.tanteo == (0, 2)


def test_fem_vi_3_accepted_raise_is_paid_to_the_lance_winner_at_the_end() -> None:
    """2 raised to 5 and accepted: the grande winner (seat 0, pair A) takes 5 at the count."""
    state, _ = play(table(), "cut", "bet 2", "raise 3", "accept")
    _, events = play(state, *["pass"] * 4, *["pass"] * 3)
    assert scored(events)[0] == (0, 5, "envite", "grande")


def test_fem_iv_6_ordago_accepted_shows_the_hands_and_the_lance_winner_wins_the_game() -> None:
    """Órdago a grande accepted: the four hands are shown and pair A (best grande) wins the game."""
    state, events = play(table(), "cut", "ordago", "accept")
    assert state.phase is Phase.GAME_OVER and GAME.to_act(state) is None
    assert of_type(events, "hands_shown")[0].hands == state.hands
    assert of_type(events, "game_won")[0].pair == 0
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0, 2) and outcome.scores == (40.0, 0.0, 40.0, 0.0)
    assert GAME.hidden_cards(state, 1) == frozenset(c for c in range(40) if all(c not in h for h in state.hands))


def test_fem_iv_6_only_one_ordago_at_a_time() -> None:
    """Against an órdago one may only accept or refuse; raising or a second órdago is refused with a reason."""
    state, _ = play(table(), "cut", "ordago")
    assert GAME.legal_actions(state, 1) == [Accept(), Reject()]
    assert "órdago is pending" in (GAME.validate(state, 1, Ordago()) or "")
    assert "órdago is pending" in (GAME.validate(state, 1, Raise(2)) or "")


def test_fem_vi_3_ordago_refused_pays_the_envite_in_force() -> None:
    """Seat 1 bets 2, seat 2 answers with órdago, both of pair B refuse: pair A takes 2."""
    state, events = play(table(), "cut", "pass", "bet 2", "ordago", "reject", "reject")
    assert GAME.to_act(state) == 0 and state.phase is Phase.CHICA
    assert scored(events) == [(0, 2, "deje", "grande")]


def test_fem_vi_3_first_envite_ordago_refused_is_a_negada() -> None:
    """An opening órdago refused by both rivals is worth the negada (1)."""
    _, events = play(table(), "cut", "ordago", "reject", "reject")
    assert scored(events) == [(0, 1, "negada", "grande")]


def test_fem_vii_12_accepted_ordago_cancels_earlier_accepted_envites() -> None:
    """B (38) won an accepted 2 at grande, A wins the chica órdago: by default A wins; the grande 2 is void."""
    state, _ = play(table(H_B_GRANDE, tanteo=(0, 38)), "cut", "bet 2", "accept")
    final, events = play(state, "ordago", "accept")
    assert final.winner == 0 and (1, 2, "envite", "grande") not in scored(events)
    state, _ = play(table(H_B_GRANDE, tanteo=(0, 38),
                          options=opts(**{"scoring.ordago_cancels_earlier_bets": False})), "cut", "bet 2", "accept")
    final, events = play(state, "ordago", "accept")
    assert final.winner == 1 and scored(events) == [(1, 2, "envite", "grande")]


def test_fem_vi_9_postre_with_33_may_only_accept_no_lose() -> None:
    """Órdago a juego against the postre holding 33: only "quiero y no pierdo" or "no quiero"."""
    state = to_juego(H33)
    assert state.betting is not None and state.betting.speakers == (0, 3)
    state, _ = play(state, "ordago")
    assert GAME.to_act(state) == 3 == state.postre
    assert GAME.legal_actions(state, 3) == [AcceptNoLose(), Reject()]
    reason = GAME.validate(state, 3, Accept())
    assert reason is not None and "VI.9" in reason
    final, events = play(state, "accept-no-lose")
    assert of_type(events, "answered")[-1].answer == "accept_no_lose"
    assert final.winner == 0  # 31 beats 33


def test_fem_vi_10_accept_no_lose_is_only_for_the_postre_with_33() -> None:
    """An ordinary envite a juego is accepted normally; "quiero y no pierdo" is illegal elsewhere."""
    state, _ = play(to_juego(H33), "bet 2")
    assert Accept() in GAME.legal_actions(state, 3)
    assert "VI.10" in (GAME.validate(state, 3, AcceptNoLose()) or "")
    state, _ = play(table(), "cut", "ordago")
    assert "VI.10" in (GAME.validate(state, 1, AcceptNoLose()) or "")


def test_fem_vi_6_any_envite_may_be_accepted_even_beyond_the_tantos_left() -> None:
    """At 36–36 an envite of 4 is accepted; the grande winner reaches 40 at the count."""
    state, _ = play(table(tanteo=(36, 36)), "cut", "bet 4", "accept")
    final, _ = play(state, *["pass"] * 4, *["pass"] * 3)
    assert final.winner == 0 and final.tanteo[0] == 40


def test_decision_envites_are_offered_up_to_the_tantos_that_matter() -> None:
    """Bets go from 2 to min(max_bet, most tantos either pair needs); larger ones are refused with a reason."""
    state, _ = play(table(tanteo=(36, 36)), "cut")
    bets = [a.amount for a in GAME.legal_actions(state, 0) if isinstance(a, Bet)]
    assert bets == [2, 3, 4]
    assert "from 2 to 4" in (GAME.validate(state, 0, Bet(5)) or "")
    state, _ = play(state, "bet 4")
    assert not any(isinstance(a, Raise) for a in GAME.legal_actions(state, 1))
    fresh, _ = play(table(), "cut")
    assert [a.amount for a in GAME.legal_actions(fresh, 0) if isinstance(a, Bet)] == list(range(2, 11))


def test_p7_raise_rule_double_doubles_the_envite() -> None:
    """With raise_rule = "double" the only raise doubles the envite in force."""
    state, _ = play(table(options=opts(**{"betting.raise_rule": "double"})), "cut", "bet 3")
    assert [a for a in GAME.legal_actions(state, 1) if isinstance(a, Raise)] == [Raise(3)]
    state, _ = play(state, "raise 3")
    assert [a for a in GAME.legal_actions(state, 2) if isinstance(a, Raise)] == [Raise(6)]


def test_fem_vi_2_bettors_partner_cannot_speak_while_an_envite_is_pending() -> None:
    """Pending envite: only the rival to answer has actions; passing or betting is refused with a reason."""
    state, _ = play(table(), "cut", "bet 2")
    assert all(GAME.legal_actions(state, s) == [] for s in (0, 2, 3))
    assert "pending" in (GAME.validate(state, 1, Bet(2)) or "")
    assert "turn" in (GAME.validate(state, 2, Accept()) or "")


def test_convencion_refused_pares_envite_makes_the_bettors_the_winners_of_the_lance() -> None:
    """B's pares envite is refused: B takes the negada now and its own pares at the count, though A's are better."""
    state, _ = all_pass_to_pares(table())
    state, events = play(state, "pass", "bet 2", "reject")  # juego is skipped: the hand is counted at once
    result = scored(events)
    assert result[0] == (1, 1, "negada", "pares")
    assert (1, 2, "pares", "pares") in result and not any(r[2] == "pares" and r[0] == 0 for r in result)
    assert [(r.lance, r.pair) for r in GAME.observe(state, None).results] == []  # the next hand has begun
