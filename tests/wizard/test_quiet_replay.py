"""Wizard's quiet replay (``wizard/replay.py``) is a second implementation of the moves: on random games of
every option set it ends in the very state that replaying through ``apply`` gives, at every cut, and refuses
the first illegal action with ``apply``'s reason naming its step, whatever the action and wherever it is."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from typing import Any

import pytest

import cardtable
from cardtable.core import GameRecord, IllegalAction, load_record, load_state, replay, replay_state
from cardtable.games.wizard import replay as quiet
from cardtable.games.wizard.actions import Bid, ChooseTrump, Play
from cardtable.games.wizard.game import WizardGame

GAME: WizardGame = cardtable.load_game("wizard")  # type: ignore[assignment]

# Every toggle of the rules, each with a few player counts.
OPTION_SETS: list[dict[str, Any]] = [
    {"players": players, "rounds": 5, "wizard_trump": trump, "bids_may_not_equal_tricks": sum_rule,
     "hidden_bids": hidden}
    for (trump, sum_rule, hidden), players in zip(
        itertools.product(("dealer_chooses", "no_trump"), (False, True), (False, True)), itertools.cycle((3, 4, 5, 6)))
]


def random_game(options: dict[str, Any], seed: int) -> tuple[GameRecord, list[Any]]:
    """A random game's record and every state along it (``states[i]``: after ``i`` actions)."""
    rng = random.Random(seed)
    state, _ = GAME.new(GAME.options(options), seed)
    states, actions = [state], []
    while (seat := GAME.to_act(state)) is not None:
        legal = GAME.legal_actions(state, seat)
        action = legal[rng.randrange(len(legal))]
        actions.append((seat, action))
        state, _ = GAME.apply(state, seat, action)
        states.append(state)
    return GameRecord("wizard", options, seed, tuple(actions)), states


def loaded(record: GameRecord) -> GameRecord:
    """The record as ``load_record`` gives it back: shared (seat, action) pairs, the quiet loop's fast lookup."""
    return load_record(json.dumps(record.to_json()), GAME)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(str(v) for v in o.values()))
def test_the_quiet_replay_ends_in_apply_s_state_at_every_cut(options: dict[str, Any]) -> None:
    for seed in range(3):
        record, states = random_game(options, seed)
        fast = loaded(record)
        assert replay_state(GAME, fast).__getstate__() == states[-1].__getstate__()
        cuts = random.Random(seed).sample(range(len(states)), 15)
        for upto in cuts:  # within bids, within tricks, at round ends
            assert replay_state(GAME, fast, upto).__getstate__() == states[upto].__getstate__(), upto
            assert replay_state(GAME, record, upto).__getstate__() == states[upto].__getstate__(), upto


def test_full_games_of_every_table_size_replay_exactly() -> None:
    for players in (3, 4, 5, 6):
        record, states = random_game({"players": players}, players)
        assert replay_state(GAME, loaded(record)).__getstate__() == states[-1].__getstate__()
        assert load_state(json.dumps(record.to_json()), GAME).__getstate__() == states[-1].__getstate__()


def test_the_quiet_loop_makes_the_bids_and_cards_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a trump choice (and what follows it in its round's bidding) takes the engine's general step."""
    general = []
    move = GAME._move
    monkeypatch.setattr(GAME, "_move", lambda s, seat, action, events: (general.append(action),
                                                                        move(s, seat, action, events)))
    for seed in range(6):
        record, states = random_game({"players": 4}, seed)
        for made in (loaded(record), record):  # shared pairs, and pairs made elsewhere
            general.clear()
            assert replay_state(GAME, made).__getstate__() == states[-1].__getstate__()
            assert all(type(action) is ChooseTrump for action in general)
            assert len(general) == sum(type(action) is ChooseTrump for _, action in record.actions)


def _wrong_actions(state: Any, rng: random.Random) -> list[tuple[Any, Any]]:
    """Actions to try in ``state``: mostly illegal (every kind of reason), a few legal, some malformed."""
    seat = GAME.to_act(state)
    players = GAME.players(state)
    cards = [Play(rng.randrange(60)) for _ in range(4)]
    held = [c for c in range(60) if state.hands[seat] >> c & 1]
    out: list[tuple[Any, Any]] = [((seat + 1) % players, a) for a in GAME.legal_actions(state, seat)[:2]]
    out += [(seat, c) for c in cards] + [(seat, Play(c)) for c in held]  # held: some break the follow rule
    out += [(seat, Bid(k)) for k in (0, state.round, state.round + 1, 20)]
    out += [(seat, ChooseTrump("green")), (True if seat == 1 else seat, Play(0)), (seat + players, Bid(0))]
    out += [(seat, dataclasses.replace(a)) for a in GAME.legal_actions(state, seat)[:1]]  # equal, not cached
    out += [(seat, Play(True)), (seat, "play 3"), (seat, Bid(-1))]  # type: ignore[arg-type]
    if (forbidden := GAME.forbidden_bid(state)) is not None:
        out.append((seat, Bid(forbidden)))
    return out


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(str(v) for v in o.values()))
def test_the_first_illegal_action_is_refused_with_apply_s_reason_and_step(options: dict[str, Any]) -> None:
    """Every table size and rule toggle: the generated loops are per player count."""
    record, states = random_game(options, 11)
    rng = random.Random(5)
    refused = accepted = 0
    for step in sorted(rng.sample(range(len(record.actions)), 12)):
        state = states[step]
        for seat, action in _wrong_actions(state, rng):
            bad = GameRecord("wizard", record.options, record.seed,
                             record.actions[:step] + ((seat, action),) + record.actions[step + 1:])
            kept = bad.actions
            try:
                expected = GAME.apply(state, seat, action)[0]
            except (IllegalAction, TypeError, ValueError) as exc:
                with pytest.raises(IllegalAction) as caught:
                    replay_state(GAME, bad)
                assert isinstance(exc, IllegalAction), exc  # apply refuses malformed actions the same way
                assert caught.value.step == step and caught.value.reason == exc.reason
                assert str(caught.value) == f"record action {step}: {exc}"
                if type(seat) is int and 0 <= seat < 64 and id(action) in GAME.trusted_ids:  # JSON holds it
                    text = json.dumps(bad.to_json())  # decoded straight to codes: the same refusal
                    with pytest.raises(IllegalAction) as caught:
                        load_state(text, GAME)
                    assert caught.value.step == step and caught.value.reason == exc.reason
                refused += 1
            else:  # legal after all: replayed up to it, the same state
                assert replay_state(GAME, bad, step + 1).__getstate__() == expected.__getstate__()
                accepted += 1
            assert bad.actions is kept and bad.actions == kept  # the record is untouched
    assert refused > 150 and accepted > 5


def test_a_record_that_is_not_a_list_of_pairs_gets_the_general_step_s_error() -> None:
    record, _ = random_game({"players": 3, "rounds": 5}, 1)
    with pytest.raises(ValueError):
        GAME.replay(GAME.options(record.options), record.seed, [*record.actions[:3], (0, Bid(0), "extra")])
    state, _ = replay(GAME, record, 3)
    assert quiet.ReplayCodes([], [], []).of([(0,)]) is None  # type: ignore[list-item]
    assert replay_state(GAME, record, 3).__getstate__() == state.__getstate__()


def test_decoded_records_share_one_pair_per_seat_and_cached_action() -> None:
    from cardtable.core.fast import cached_pair

    record, _ = random_game({"players": 4, "rounds": 5}, 2)
    first, second = loaded(record), loaded(record)
    assert first == record and all(a is b for a, b in zip(first.actions, second.actions, strict=True))
    assert all(pair is cached_pair(*pair) for pair in first.actions)
    play = record.actions[-1][1]
    assert cached_pair(True, play) is None and cached_pair(64, play) is None
    assert cached_pair(0, dataclasses.replace(play)) is None  # an equal action, not the registered one
