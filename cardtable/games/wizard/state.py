"""The Wizard game state: a plain ``__slots__`` object, copied (never mutated) by the engine."""

from __future__ import annotations

from cardtable.core.rng import RngState
from cardtable.core.state import SlotState
from cardtable.core.types import CardId, Seat
from cardtable.games.wizard.observation import RoundResult
from cardtable.games.wizard.options import WizardOptions

CHOOSING_TRUMP = "choosing_trump"
BIDDING = "bidding"
PLAYING = "playing"
FINISHED = "finished"


class WizardState(SlotState):
    """Everything about a game in progress. Hands are int bitmasks; ``trump`` is a suit 0–3 or -1 (none)."""

    __slots__ = (
        "options", "rng", "decks", "round", "rounds", "dealer", "phase", "to_act",
        "hands", "stack", "trump_card", "trump", "bids", "tricks",
        "leader", "lead", "trick", "last_trick", "last_leader", "last_winner", "played",
        "sheet", "totals", "exact",
    )

    options: WizardOptions
    rng: RngState
    decks: tuple[tuple[CardId, ...], ...]
    round: int
    rounds: int
    dealer: Seat
    phase: str
    to_act: Seat | None
    hands: tuple[int, ...]
    stack: tuple[CardId, ...]
    trump_card: CardId | None
    trump: int
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    leader: Seat
    lead: int
    trick: tuple[CardId, ...]
    last_trick: tuple[CardId, ...]
    last_leader: Seat
    last_winner: Seat | None
    played: tuple[CardId, ...]
    sheet: tuple[RoundResult, ...]
    totals: tuple[int, ...]
    exact: tuple[int, ...]
