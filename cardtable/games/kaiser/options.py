"""Kaiser's options: the table is always four, the rest are setup toggles."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


@dataclass(frozen=True)
class KaiserOptions:
    """Setup toggles for Kaiser (see docs/rules/kaiser.md)."""

    players: int = field(default=4, metadata={"help": "Always 4: two partnerships sitting opposite"})
    floor: Literal[5, 6, 7, 8] = field(default=6, metadata={"help": "The lowest bid allowed"})
    no_trump: bool = field(default=True, metadata={"help": "Allow no-trump bids (scored double)"})
    target: Literal[32, 52, 62] = field(
        default=52, metadata={"help": "Points a side needs to win; a side at minus this loses"}
    )
