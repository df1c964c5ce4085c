"""Scripted Durak positions for rule tests: hands, deck and bout written as card text."""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.core.events import Event
from cardtable.games.durak.game import DurakGame, DurakState, next_in_game
from cardtable.games.durak.rules import SUIT, parse_card, sort_hand

GAME = DurakGame()


def cards(text: str) -> tuple[int, ...]:
    """Card ids of ``"6♣ 10♥ J♦"`` (Latin or Russian rank letters), in the order written."""
    out = []
    for word in text.replace(",", " ").split():
        card = parse_card(word)
        assert card is not None, f"bad card {word!r} in a test position"
        out.append(card)
    return tuple(out)


def position(hands: Sequence[str], *, trump: str, deck: str = "", attacker: int = 0,
             defender: int | None = None, left: Sequence[int] | None = None, capped: bool = False,
             bout_limit: int = 1000) -> DurakState:
    """A position at the start of a bout. ``deck`` is top first; the trump card is not added to it."""
    state = DurakState()
    trump_card = cards(trump)[0]
    players = len(hands)
    state.players, state.capped, state.bout_limit = players, capped, bout_limit
    state.trump, state.trump_card = SUIT[trump_card], trump_card
    state.hands = tuple(sort_hand(cards(h), SUIT[trump_card]) for h in hands)
    state.deck = cards(deck)
    state.bout, state.bout_number, state.discards = (), 1, 0
    state.left = tuple(left) if left is not None else (0,) * players
    state.over, state.fool = False, None
    state.takes = state.defences = (0,) * players
    state.known, state.gone = (frozenset(),) * players, frozenset()
    state.attacker = attacker
    state.defender = next_in_game(state, attacker) if defender is None else defender
    return state


def play(state: DurakState, *moves: str) -> tuple[DurakState, list[Event]]:
    """Apply the moves (text forms) by whoever is to act; every move must be legal."""
    events: list[Event] = []
    for move in moves:
        seat = GAME.to_act(state)
        assert seat is not None, f"the game is over before {move!r}"
        state, more = GAME.apply(state, seat, GAME.parse_action(move))
        events.extend(more)
    return state, events


def texts(actions: Sequence[object]) -> list[str]:
    """The text forms of actions."""
    return [a.text() for a in actions]  # type: ignore[attr-defined]
