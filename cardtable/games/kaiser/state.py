"""The Kaiser state: plain ints and tuples in slots, copied (never mutated) by ``apply``."""

from __future__ import annotations

from cardtable.core.outcome import Outcome
from cardtable.core.rng import RngState
from cardtable.core.state import SlotState
from cardtable.games.kaiser.observation import HandResult
from cardtable.games.kaiser.options import KaiserOptions

BIDDING, TRUMP, PLAY, OVER = 0, 1, 2, 3
PHASE_NAMES = ("bidding", "trump", "play", "over")


class KaiserState(SlotState):
    """Everything about a game in progress; hands are 32-bit card masks, one per seat."""

    __slots__ = (
        "options", "rng", "hands", "dealer", "hand_no", "phase", "turn", "bids", "high", "high_bidder",
        "trump", "leader", "trick", "played", "last_trick", "last_winner", "tricks", "points", "totals", "sheet",
        "result",
    )

    options: KaiserOptions
    rng: RngState
    hands: tuple[int, int, int, int]
    dealer: int
    hand_no: int
    phase: int
    turn: int
    bids: tuple[tuple[int, int, bool], ...]  # (seat, points or 0 for a pass, no trump)
    high: int  # bid_value of the highest bid, -1 if none yet
    high_bidder: int
    trump: int  # 0–3 a suit, 4 no trump, -1 not yet known
    leader: int
    trick: tuple[tuple[int, int], ...]  # (seat, card) in playing order
    played: tuple[tuple[int, int], ...]  # the completed tricks of this hand, (seat, card) in playing order
    last_trick: tuple[tuple[int, int], ...]
    last_winner: int
    tricks: tuple[int, int]  # per side this hand
    points: tuple[int, int]  # per side this hand
    totals: tuple[int, int]
    sheet: tuple[HandResult, ...]
    result: Outcome | None

    @property
    def bid_points(self) -> int:
        """The winning bid's points (valid once the bidding is over)."""
        return self.high >> 1

    @property
    def bid_no_trump(self) -> bool:
        """Whether the winning bid is in no trump (valid once the bidding is over)."""
        return bool(self.high & 1)
