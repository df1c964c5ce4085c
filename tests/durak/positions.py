"""Scripted Durak positions for rule tests: hands, deck and bout written as card text."""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.core.events import Event
from cardtable.games.durak.game import DurakGame, next_in_game
from cardtable.games.durak.rules import parse_card
from cardtable.games.durak.state import DurakState, position_state

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
             bout_limit: int = 1000, gone: str = "") -> DurakState:
    """A position at the start of a bout. ``deck`` is top first; the trump card is not added to it.

    Cards in no hand and not in the deck are out of the game but not discarded (``gone``: discarded).
    """
    players = len(hands)
    seats = tuple(left) if left is not None else (0,) * players
    state = position_state(players, cards(trump)[0], [cards(h) for h in hands], cards(deck), attacker=attacker,
                           defender=0, gone=cards(gone), left=seats, capped=capped, bout_limit=bout_limit)
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
