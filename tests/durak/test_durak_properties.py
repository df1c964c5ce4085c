"""Properties of any game: cards are conserved, hands sorted, refills honest, the events complete,
and the scripted bot equal to the rules of the program written out independently here."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.games.durak.players.scripted import ScriptedBot
from cardtable.games.durak.program import _Hands
from cardtable.games.durak.rules import HAND_SIZE, RANK, SUIT, sort_hand
from cardtable.games.durak.state import DurakState
from tests.durak.positions import GAME

TABLES = st.sampled_from([("reference", 2), ("reference", 3), ("reference", 4), ("default", 2),
                          ("default", 3), ("default", 5)])


def program_choice(state: DurakState) -> str:
    """The 2020 program's choice, written from the rules' text and reading the state directly."""
    seat = state.defender if len(state.bout) % 2 else state.attacker
    hand, trump, bout = state.hands[seat], state.trump, state.bout
    trumps = sorted((c for c in hand if SUIT[c] == trump), key=RANK.__getitem__)
    if len(bout) % 2:
        attack = bout[-1]
        same = sorted((c for c in hand if SUIT[c] == SUIT[attack] and RANK[c] > RANK[attack]), key=RANK.__getitem__)
        if same:
            return f"beat {same[0]}"
        return f"beat {trumps[0]}" if SUIT[attack] != trump and trumps else "take"
    if not bout:
        plain = [c for c in hand if SUIT[c] != trump]
        return f"attack {plain[0] if plain else trumps[0]}"
    if state.capped and not state.hands[state.defender]:
        return "stop"
    kept = trumps[-1] if len(hand) > 1 and trumps else None
    ranks = {RANK[c] for c in bout}
    return next((f"attack {c}" for c in hand if RANK[c] in ranks and c != kept), "stop")


def as_program_text(action: object) -> str:
    """An action in ``program_choice``'s form (card ids, not card text)."""
    card = getattr(action, "card", None)
    return action.TYPE if card is None else f"{action.TYPE} {card}"  # type: ignore[attr-defined]


def check_position(state: DurakState) -> None:
    """Conservation, disjointness, sorted hands, and players out of the game hold nothing."""
    held = [c for h in state.hands for c in h] + list(state.deck) + list(state.bout)
    assert len(held) + state.discards == 36 and len(set(held)) == len(held)
    assert all(h == sort_hand(h, state.trump) for h in state.hands)
    assert all(not state.hands[s] for s in range(state.players) if state.left[s])
    if state.deck and not state.bout:
        assert all(len(h) >= HAND_SIZE for h in state.hands)


@settings(max_examples=40, deadline=None)
@given(table=TABLES, seed=st.integers(0, 0xFFFF), cap=st.booleans(), choices=st.randoms(use_true_random=False))
def test_random_games_conserve_cards_and_keep_hands_sorted(table: tuple[str, int], seed: int, cap: bool,
                                                           choices: random.Random) -> None:
    preset, players = table
    options = GAME.options(preset=preset, players=players, attack_cap="defender_hand" if cap else "none")
    state, events = GAME.new(options, seed)
    hands = _Hands(players)
    for event in events:
        hands.update(event)
    while (seat := GAME.to_act(state)) is not None:
        check_position(state)
        assert hands.cards == list(state.hands)  # the events say everything the log needs
        legal = GAME.legal_actions(state, seat)
        state, events = GAME.apply(state, seat, choices.choice(legal))
        for event in events:
            hands.update(event)
    check_position(state)
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert state.fool is None or sum(1 for b in state.left if not b) == 1


@settings(max_examples=40, deadline=None)
@given(table=TABLES, seed=st.integers(0, 0xFFFF), cap=st.booleans())
def test_scripted_bot_chooses_exactly_as_the_program_rules_say(table: tuple[str, int], seed: int,
                                                              cap: bool) -> None:
    preset, players = table
    options = GAME.options(preset=preset, players=players, attack_cap="defender_hand" if cap else "none")
    state, _ = GAME.new(options, seed)
    bot = ScriptedBot(seed)
    while (seat := GAME.to_act(state)) is not None:
        action = bot.act(GAME.observe(state, seat), GAME.legal_actions(state, seat))
        assert as_program_text(action) == program_choice(state)
        state, _ = GAME.apply(state, seat, action)
