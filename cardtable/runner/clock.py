"""Decision clocks: the time a seat has for this decision and for the rest of its game, and the time it spent."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from cardtable.core.types import Seat
from cardtable.runner.failures import AgentFailure

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class TimeLeft:
    """The time an agent has: for this decision and for the rest of its game (``None``: no limit)."""

    decision: float | None
    game: float | None

    @property
    def limit(self) -> float | None:
        """The tighter of the two limits."""
        limits = [t for t in (self.decision, self.game) if t is not None]
        return min(limits) if limits else None


class Clock:
    """Per seat, the thinking time spent so far, against ``timeout`` per decision and ``game_timeout`` per game."""

    def __init__(self, seats: int, timeout: float | None, game_timeout: float | None) -> None:
        self.timeout = timeout
        self.game_timeout = game_timeout
        self.thinking: list[float] = [0.0] * seats

    def time_left(self, seat: Seat) -> TimeLeft:
        """What ``seat`` has now: the decision's limit and the rest of its game time."""
        game_left = None if self.game_timeout is None else self.game_timeout - self.thinking[seat]
        return TimeLeft(self.timeout, game_left)

    def timed(self, seat: Seat, ask: Callable[[TimeLeft], T]) -> T:
        """``ask(time_left)``, its time charged to ``seat``; a timeout that spends the game's time forfeits.

        A seat whose game time is spent already is not asked: :class:`AgentFailure` (forfeiting) at once.
        """
        time_left = self.time_left(seat)
        if time_left.game is not None and time_left.game <= 0:
            raise AgentFailure("timeout", f"game time of {self.game_timeout}s spent", forfeit=True)
        began = time.perf_counter()
        try:
            return ask(time_left)
        except AgentFailure as exc:
            if exc.kind == "timeout" and time_left.game is not None and time_left.limit == time_left.game:
                raise AgentFailure("timeout", f"game time of {self.game_timeout}s spent: {exc.detail}",
                                   forfeit=True) from None
            raise
        finally:
            self.thinking[seat] += time.perf_counter() - began
