"""The Kaiser state: plain ints and tuples in slots, copied (never mutated) by ``apply``."""

from __future__ import annotations

from cardtable.core.outcome import Outcome
from cardtable.core.rng import RngState
from cardtable.games.kaiser.observation import HandResult
from cardtable.games.kaiser.options import KaiserOptions

BIDDING, TRUMP, PLAY, OVER = 0, 1, 2, 3
PHASE_NAMES = ("bidding", "trump", "play", "over")


class KaiserState:
    """Everything about a game in progress; hands are 32-bit card masks, one per seat."""

    __slots__ = (
        "options", "rng", "hands", "dealer", "hand_no", "phase", "turn", "bids", "high", "high_bidder",
        "trump", "leader", "trick", "last_trick", "last_winner", "tricks", "points", "totals", "sheet",
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
    last_trick: tuple[tuple[int, int], ...]
    last_winner: int
    tricks: tuple[int, int]  # per side this hand
    points: tuple[int, int]  # per side this hand
    totals: tuple[int, int]
    sheet: tuple[HandResult, ...]
    result: Outcome | None

    def clone(self) -> KaiserState:
        """A shallow copy (every field is immutable, so this is a full copy); spelled out for speed."""
        new = KaiserState.__new__(KaiserState)
        new.options, new.rng, new.hands, new.dealer = self.options, self.rng, self.hands, self.dealer
        new.hand_no, new.phase, new.turn, new.bids = self.hand_no, self.phase, self.turn, self.bids
        new.high, new.high_bidder, new.trump, new.leader = self.high, self.high_bidder, self.trump, self.leader
        new.trick, new.last_trick, new.last_winner = self.trick, self.last_trick, self.last_winner
        new.tricks, new.points, new.totals = self.tricks, self.points, self.totals
        new.sheet, new.result = self.sheet, self.result
        return new

    def __getstate__(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in KaiserState.__slots__)

    def __setstate__(self, values: tuple[object, ...]) -> None:
        for name, value in zip(KaiserState.__slots__, values):
            setattr(self, name, value)

    @property
    def bid_points(self) -> int:
        """The winning bid's points (valid once the bidding is over)."""
        return self.high >> 1

    @property
    def bid_no_trump(self) -> bool:
        """Whether the winning bid is in no trump (valid once the bidding is over)."""
        return bool(self.high & 1)
