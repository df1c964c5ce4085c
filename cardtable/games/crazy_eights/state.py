"""The Crazy Eights state: a ``__slots__`` object of ints, bitmasks and tuples, copied only shallowly."""

from __future__ import annotations

from cardtable.core.rng import RngState
from cardtable.core.state import SlotState
from cardtable.core.types import CardId, Seat
from cardtable.games.crazy_eights.observation import RoundScore
from cardtable.games.crazy_eights.options import CrazyEightsOptions


class CrazyEightsState(SlotState):
    """Everything that changes during a game.

    ``hands[s]`` is seat s's hand as a bitmask; ``stock`` is a tuple whose LAST
    element is drawn next; ``discards`` is the bitmask of the pile under ``top``
    (its order never matters: it is shuffled when the stock is rebuilt).
    """

    __slots__ = (
        "options", "players", "draw_until", "hands", "stock", "discards", "top", "suit", "turn",
        "drawn", "last_drawn", "passes", "round", "dealer", "round_actions", "sheet", "totals", "rng", "over",
    )

    options: CrazyEightsOptions
    players: int
    draw_until: bool
    hands: tuple[int, ...]
    stock: tuple[CardId, ...]
    discards: int
    top: CardId
    suit: int
    turn: Seat
    drawn: int  # cards the seat to act has drawn this turn
    last_drawn: CardId | None  # the last of them, shown to the drawer
    passes: int  # passes in a row with no card played or drawn since the first
    round: int  # 1-based
    dealer: Seat
    round_actions: int  # actions so far this round, for the safety limit
    sheet: tuple[RoundScore, ...]
    totals: tuple[int, ...]
    rng: RngState
    over: bool
