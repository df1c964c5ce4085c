"""The seed's high-level API, SimpleBot, and long bot-played games checked at every step."""

from __future__ import annotations

import pickle

from cardtable.bots import RandomBot
from cardtable.games.mus import GAME
from cardtable.games.mus.actions import Signal
from cardtable.games.mus.play import PlayResult, play_game
from cardtable.games.mus.players.simple import SimpleBot
from tests.mus.helpers import opts, play, table


def test_play_game_works_as_in_the_seed() -> None:
    """play_game(bots=[SimpleBot()] * 4, seed=12345) returns winner, final score and events; same seed, same game."""
    result = play_game(bots=[SimpleBot(), SimpleBot(), SimpleBot(), SimpleBot()], seed=12345)
    assert isinstance(result, PlayResult)
    assert result.winner in ("A", "B") and len(result.events) > 0
    assert max(result.final_score) >= 40
    assert result.final_score[0 if result.winner == "A" else 1] >= 40
    again = play_game(bots=[SimpleBot(), SimpleBot(), SimpleBot(), SimpleBot()], seed=12345)
    assert (again.winner, again.final_score, len(again.events)) == (result.winner, result.final_score,
                                                                     len(result.events))


def test_simple_bot_cuts_with_a_good_hand_and_gives_mus_with_a_bad_one() -> None:
    """Medias or 31 cut the mus; a hand of nothing gives mus; discards keep the reyes."""
    good = table(["Ro Rc Re 1o", "Co Cc 6o 7o", "1c 4c 5c 6c", "Se Sb 7c 6e"])
    bot = SimpleBot()
    assert bot.act(GAME.observe(good, 0), GAME.legal_actions(good, 0)).TYPE == "cut_mus"
    bad = table(["Ro 4o 5o 6o", "Co Cc 6e 7o", "1c 4c 5c 6c", "Se Sb 7c 6b"])
    assert bot.act(GAME.observe(bad, 0), GAME.legal_actions(bad, 0)).TYPE == "mus"
    state, _ = play(bad, "mus", "mus", "mus", "mus")
    discard = bot.act(GAME.observe(state, 0), GAME.legal_actions(state, 0))
    assert discard.text() == "discard 4o,5o,6o"


def test_simple_bot_beats_random_pairs_clearly() -> None:
    """Over 60 games from each side SimpleBot pairs win far more than half (measured ~88% over 800 games)."""
    wins = 0
    for game in range(60):
        for pair in (0, 1):
            bots = [SimpleBot(game * 4 + i) if i % 2 == pair else RandomBot(game * 4 + i) for i in range(4)]
            result = play_game(bots, seed=7000 + game)
            wins += result.winner == "AB"[pair]
    assert wins / 120 >= 0.7


def test_long_bot_games_keep_the_invariants_at_every_step() -> None:
    """SimpleBot games with señas: no mutation, no leaked card, all 40 cards accounted for, legal moves only."""
    options = opts(**{"signals.enabled": True, "signals.interception_p": 0.3})
    for seed in range(3):
        bots = [SimpleBot(seed + i) for i in range(4)]
        state, _ = GAME.new(options, seed)
        steps = 0
        while (seat := GAME.to_act(state)) is not None:
            legal = GAME.legal_actions(state, seat)
            signals = [a for a in legal if isinstance(a, Signal)]
            action = signals[0] if signals and steps % 3 == 0 else bots[seat].act(GAME.observe(state, seat), legal)
            before = pickle.dumps(state)
            new, _ = GAME.apply(state, seat, action)
            assert pickle.dumps(state) == before
            for observer in (0, 1, 2, 3, None):
                assert not GAME.observe(new, observer).cards_shown() & GAME.hidden_cards(new, observer)
            pending = [c for p in new.pending if p for c in p]
            cards = [c for h in new.hands for c in h] + list(new.deck) + list(new.discards)
            assert sorted(cards) == list(range(40)) and set(pending) <= set(cards)
            state, steps = new, steps + 1
        assert GAME.outcome(state) is not None and steps < GAME.max_actions(options)
