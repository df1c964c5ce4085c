"""Scenario tests of the tanteo (seed §4): what is paid, when, in which order, and the end of the game."""

from __future__ import annotations

from cardtable.games.mus import GAME
from cardtable.games.mus.fsm import Phase
from tests.mus.helpers import all_pass_to_pares, of_type, opts, play, scored, table

ALL_PASS = ("cut", *["pass"] * 8, *["pass"] * 3)


def test_fem_vii_2_hand_is_counted_in_lance_order() -> None:
    """All pass: grande en paso, chica en paso, pares, juego, in that order."""
    _, events = play(table(), *ALL_PASS)
    assert scored(events) == [
        (0, 1, "en paso", "grande"), (0, 1, "en paso", "chica"), (0, 1, "pares", "pares"), (1, 4, "juego", "juego"),
    ]


def test_convencion_pares_pay_per_holder_of_the_winning_pair() -> None:
    """A wins pares with duples (3) and medias (2): 5; B's par is not paid."""
    hands = ["Ro Rc 1o 1c", "Co 6o 7o 4e", "4o 4c 4b 5e", "Se Sb 7c 6e"]
    _, events = play(table(hands), "cut", *["pass"] * 8, *["pass"] * 3)
    pares = [r for r in scored(events) if r[2] == "pares"]
    assert pares == [(0, 5, "pares", "pares")]


def test_convencion_juego_pays_three_for_31_and_two_for_other_juego_per_holder() -> None:
    """A wins juego with 31 (seat 0) and 33 (seat 2): 3 + 2."""
    hands = ["Ro Rc Co 1o", "4o 5o 6e 1c", "Sb Cb 7e 6b", "Sc Se 7c 6c"]
    state, _ = all_pass_to_pares(table(hands))
    state, events = play(state, *["pass"] * 2)  # pares: seats 0 and 3 hold
    assert state.phase is Phase.JUEGO
    _, events = play(state, "pass", "pass", "pass")
    assert (0, 5, "juego", "juego") in scored(events)


def test_convencion_deje_counted_at_the_end_when_not_in_the_act() -> None:
    """deje_en_el_acto = false: a refused envite is paid at the count, in its lance's place."""
    state, events = play(table(options=opts(**{"scoring.deje_en_el_acto": False})), "cut", "bet 2", "reject",
                         "reject")
    assert scored(events) == [] and state.tanteo == (0, 0)
    _, events = play(state, *["pass"] * 4, *["pass"] * 3)
    assert scored(events)[0] == (0, 1, "deje", "grande")


def test_fem_vii_2_counting_order_decides_the_winner() -> None:
    """At 39–36 both pairs would reach 40; A's grande en paso is counted first, so A wins and B's juego is not."""
    state, events = play(table(tanteo=(39, 36)), *ALL_PASS)
    assert state.phase is Phase.GAME_OVER and state.winner == 0
    assert scored(events) == [(0, 1, "en paso", "grande")]
    assert state.tanteo == (40, 36)
    assert of_type(events, "game_won")[0].pair == 0


def test_p8_negada_reaching_the_target_ends_the_game_at_once() -> None:
    """At 39 a negada takes A to 40: the game ends in the act, without showing the hands."""
    state, events = play(table(tanteo=(39, 0)), "cut", "bet 2", "reject", "reject")
    assert state.phase is Phase.GAME_OVER and state.winner == 0
    assert not of_type(events, "hands_shown")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0, 2) and "negada" in outcome.reason


def test_p8_negada_ends_game_off_the_hand_is_played_out() -> None:
    """negada_ends_game = false: the hand goes on; A, first to 40, wins at its end."""
    options = opts(**{"scoring.negada_ends_game": False})
    state, _ = play(table(tanteo=(39, 0), options=options), "cut", "bet 2", "reject", "reject")
    assert state.phase is Phase.CHICA and GAME.to_act(state) == 0
    state, events = play(state, *["pass"] * 4, *["pass"] * 3)
    assert state.phase is Phase.GAME_OVER and state.winner == 0 and of_type(events, "hands_shown")


def test_fem_vii_7_team_is_in_event_when_four_or_fewer_tantos_are_left() -> None:
    """From 35 to 36 pair A "is in": a TeamIsIn event once, and the observation says so."""
    state, events = play(table(tanteo=(35, 0)), "cut", "bet 2", "reject", "reject")
    assert [(e.pair, e.tantos_left) for e in of_type(events, "team_is_in")] == [(0, 4)]
    assert GAME.observe(state, 1).team_in == (True, False)
    _, events = play(state, "bet 2", "reject", "reject")
    assert not of_type(events, "team_is_in")


def test_fem_vii_7_target_within_the_margin_both_pairs_are_in_from_the_start() -> None:
    """Target 3 (at most 4 tantos left at 0–0): both pairs "are in" as the game starts, and again in game 2."""
    options = opts(**{"scoring.target": 3, "match.games_to_win": 2})
    state, events = GAME.new(options, 7)
    assert [(e.pair, e.tantos_left) for e in of_type(events, "team_is_in")] == [(0, 3), (1, 3)]
    assert state.team_in == (True, True) and GAME.is_a_falta(state)
    state, _ = play(state, "mus", "mus", "mus", "mus")
    assert any(a.TYPE == "cut_mus" for a in GAME.legal_actions(state, GAME.to_act(state) or 0))
    state, events = play(state, "cut", "ordago", "accept")
    assert [e.game for e in of_type(events, "game_started")] == [2]
    assert [(e.pair, e.tantos_left) for e in of_type(events, "team_is_in")][-2:] == [(0, 3), (1, 3)]


def test_p4_a_match_of_several_games() -> None:
    """games_to_win = 2: an órdago wins game 1; game 2 starts at 0–0 with the next dealer."""
    state, events = play(table(options=opts(**{"match.games_to_win": 2})), "cut", "ordago", "accept")
    assert [e.game for e in of_type(events, "game_started")] == [2]
    assert state.games == (1, 0) and state.tanteo == (0, 0) and state.phase is Phase.MUS_DECISION
    assert GAME.outcome(state) is None and state.dealer == 0
    assert GAME.to_act(state) == 1
    state, _ = play(state, "cut", "ordago", "accept")  # a fresh deal: either pair may win game 2
    assert sum(state.games) == 2
    assert (state.phase is Phase.GAME_OVER) == (state.games == (2, 0))


def test_fem_vii_3_amarracos_and_piedras_are_presentation_of_the_tanteo() -> None:
    """17 tantos = 3 amarracos and 2 piedras; the engine keeps tantos."""
    obs = GAME.observe(table(tanteo=(17, 3)), 0)
    assert (obs.amarracos, obs.piedras, obs.tanteo) == ((3, 0), (2, 3), (17, 3))


def test_outcome_scores_each_seat_with_its_pairs_tanteo() -> None:
    """Each seat scores its pair's tanteo; both seats of the winning pair win."""
    state, _ = play(table(tanteo=(39, 36)), *ALL_PASS)
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.scores == (40.0, 36.0, 40.0, 36.0) and outcome.winners == (0, 2)
