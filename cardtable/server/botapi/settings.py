"""The Bot API's settings: the clock and forfeit rules of bot seats, the stream's rate limits, open accounts."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields


@dataclass(frozen=True)
class BotApiSettings:
    """How a server treats programs that play over the Bot API (``cardtable serve --bot-…``)."""

    #: Seconds a bot has for one decision (the network is part of it).
    decision: float = 5.0
    #: Seconds of thinking a bot's seat may spend over one game.
    game_time: float = 600.0
    #: Lost decisions a seat may have in one game; one more and it is forfeited (0: the first forfeits).
    max_failures: int = 10
    #: Whether anyone may make a bot account from the lobby (``--open-bots``).
    open_bots: bool = False
    #: Messages a session may send per second (a token bucket), and its burst.
    messages_per_second: float = 50.0
    burst: int = 200
    #: Seconds a session may keep sending past the limit before it is closed.
    flood_seconds: float = 10.0
    #: Accounts one address may make per minute from the lobby (with ``open_bots``).
    accounts_per_minute: float = 5.0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "open_bots":
                if not isinstance(value, bool):
                    raise ValueError("open_bots must be true or false")
                continue
            least = 0 if f.name == "max_failures" else 1e-9
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
                    or value < least:
                raise ValueError(f"bot setting {f.name} must be a {'whole' if least == 0 else 'positive'} number, "
                                 f"not {value!r}")
        if not isinstance(self.max_failures, int) or not isinstance(self.burst, int):
            raise ValueError("bot settings max_failures and burst must be whole numbers")
