"""A tiny game for testing the core and the runner without any real game: race to ten.

Two or three players in turn add 1 or 2 to a running total; whoever reaches 10 wins.
Each seat holds a secret card dealt from a 4-card deck, revealed only at the end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

from cardtable.core import Event, Game, GameInfo, Observation, Outcome
from cardtable.core.rng import Rng, Seed, seeded, shuffled
from cardtable.core.types import ShownCard


@dataclass(frozen=True)
class ToyOptions:
    players: int = 2
    target: Literal[10, 12] = field(default=10, metadata={"help": "The total to reach."})


@dataclass(frozen=True, slots=True)
class Add:
    TYPE: ClassVar[str] = "add"
    amount: int

    def text(self) -> str:
        return f"add {self.amount}"

    @classmethod
    def parse(cls, text: str) -> Add | None:
        word, _, number = text.partition(" ")
        return cls(int(number)) if word == "add" and number.isdigit() else None


@dataclass(frozen=True, slots=True)
class Added(Event):
    TYPE: ClassVar[str] = "added"
    seat: int
    amount: int
    total: int

    def text(self) -> str:
        return f"seat {self.seat} adds {self.amount}: {self.total}"


@dataclass(frozen=True, slots=True)
class Secret(Event):
    TYPE: ClassVar[str] = "secret"
    seat: int
    card: ShownCard

    def audience(self) -> frozenset[int] | None:
        return frozenset({self.seat})

    def text(self) -> str:
        return f"seat {self.seat} holds card {self.card}"


@dataclass(frozen=True)
class ToyObservation(Observation):
    TYPE: ClassVar[str] = "toy"
    seat: int | None
    total: int
    to_act: int | None
    my_card: int | None

    def cards_shown(self) -> frozenset[int]:
        return frozenset() if self.my_card is None else frozenset({self.my_card})


class ToyState:
    __slots__ = ("cards", "options", "rng", "total", "turn")

    def __init__(self, options: ToyOptions, total: int, turn: int, cards: tuple[int, ...], rng: Rng):
        self.options = options
        self.total = total
        self.turn = turn
        self.cards = cards
        self.rng = rng


class ToyGame(Game[ToyState, Add, ToyObservation, ToyOptions]):
    info = GameInfo(
        name="toy", title="Race to ten", description="Add 1 or 2; reach the target to win.",
        min_players=2, max_players=3, options_type=ToyOptions, action_types=(Add,),
        event_types=(Added, Secret), observation_type=ToyObservation, presets={"long": {"target": 12}},
    )

    def new(self, options: ToyOptions, seed: Seed) -> tuple[ToyState, list[Event]]:
        deck, rng = shuffled(seeded(seed), [0, 1, 2, 3])
        cards = tuple(deck[: options.players])
        return ToyState(options, 0, 0, cards, rng), [Secret(s, c) for s, c in enumerate(cards)]

    def to_act(self, state: ToyState) -> int | None:
        return None if state.total >= state.options.target else state.turn

    def legal_actions(self, state: ToyState, seat: int) -> list[Add]:
        return [Add(1), Add(2)] if self.to_act(state) == seat else []

    def apply_unchecked(self, state: ToyState, seat: int, action: Add) -> tuple[ToyState, list[Event]]:
        total = state.total + action.amount
        new = ToyState(state.options, total, (seat + 1) % state.options.players, state.cards, state.rng)
        return new, [Added(seat, action.amount, total)]

    def observe(self, state: ToyState, seat: int | None) -> ToyObservation:
        self.check_observer(state, seat)
        card = None if seat is None else state.cards[seat]
        return ToyObservation(seat, state.total, self.to_act(state), card)

    def outcome(self, state: ToyState) -> Outcome | None:
        if state.total < state.options.target:
            return None
        winner = (state.turn - 1) % state.options.players
        scores = tuple(1.0 if s == winner else 0.0 for s in range(state.options.players))
        return Outcome(scores, (winner,), "reached the target")

    def hidden_cards(self, state: ToyState, seat: int | None) -> frozenset[int]:
        return frozenset(c for s, c in enumerate(state.cards) if s != seat)

    def players(self, state: ToyState) -> int:
        return state.options.players

    def max_actions(self, options: ToyOptions) -> int:
        return options.target
