"""The Wizard game state: a plain ``__slots__`` object, copied (never mutated) by the engine.

Small on purpose (search trees and process pools hold many states): hands and the undealt
stack are int bitmasks, and the score sheet is kept as one int per round (every seat's bid
and tricks), from which :attr:`WizardState.sheet` rebuilds the rows on request.
"""

from __future__ import annotations

from cardtable.core.rng import RngState
from cardtable.core.state import SlotState
from cardtable.core.types import CardId, Seat
from cardtable.games.wizard.observation import RoundResult
from cardtable.games.wizard.options import WizardOptions
from cardtable.games.wizard.rules import round_score

CHOOSING_TRUMP = "choosing_trump"
BIDDING = "bidding"
PLAYING = "playing"
FINISHED = "finished"
_PHASES = {name: name for name in (CHOOSING_TRUMP, BIDDING, PLAYING, FINISHED)}

#: Bits per bid or trick count in a packed score-sheet row (counts go up to 20).
ROW_BITS = 5
_ROW_MASK = (1 << ROW_BITS) - 1


def pack_row(bids: tuple[int, ...], tricks: tuple[int, ...]) -> int:
    """One score-sheet row as an int: seat i's bid in bits 10i.., its tricks in bits 10i + 5.."""
    row = 0
    for seat, (bid, won) in enumerate(zip(bids, tricks)):
        row |= (bid | won << ROW_BITS) << (2 * ROW_BITS * seat)
    return row


def unpack_row(row: int, players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The bids and the tricks of a packed row."""
    cells = [row >> (2 * ROW_BITS * seat) for seat in range(players)]
    return tuple(c & _ROW_MASK for c in cells), tuple(c >> ROW_BITS & _ROW_MASK for c in cells)


class WizardState(SlotState):
    """Everything about a game in progress. Hands are int bitmasks; ``trump`` is a suit 0–3 or -1 (none)."""

    __slots__ = (
        "options", "rng", "decks", "round", "rounds", "dealer", "phase", "to_act",
        "hands", "stack_mask", "trump_card", "trump", "bids", "tricks",
        "leader", "lead", "trick", "last_trick", "last_leader", "last_winner", "played",
        "rows", "totals", "exact",
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
    stack_mask: int  # the cards under the trump card, never dealt this round
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
    rows: tuple[int, ...]  # the score sheet, one packed row per round scored (see pack_row)
    totals: tuple[int, ...]
    exact: tuple[int, ...]

    @property
    def sheet(self) -> tuple[RoundResult, ...]:
        """The score sheet so far, one row per scored round (rebuilt from the packed rows)."""
        p = self.options.players
        first_dealer = (self.dealer - (self.round - 1)) % p
        totals = [0] * p
        out = []
        for number, row in enumerate(self.rows, start=1):
            bids, tricks = unpack_row(row, p)
            points = tuple(round_score(b, t) for b, t in zip(bids, tricks))
            totals = [a + b for a, b in zip(totals, points)]
            out.append(RoundResult(number, (first_dealer + number - 1) % p, bids, tricks, points, tuple(totals)))
        return tuple(out)

    def __setstate__(self, values: tuple[object, ...]) -> None:
        """Unpickle; the phase string is shared with the engine's constant, not a copy per state."""
        super().__setstate__(values)
        self.phase = _PHASES[self.phase]
