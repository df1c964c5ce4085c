"""How agents fail and what follows: the failure kinds, the substitutions recorded, and the forfeit rule."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from cardtable.core.outcome import Outcome
from cardtable.core.types import Seat

FAILURE_KINDS: tuple[str, ...] = ("timeout", "exception", "illegal", "malformed", "crashed", "protocol", "forfeited")
"""Every kind of substitution, in the order results list them."""

_FATAL_KINDS = frozenset({"crashed", "protocol"})


class AgentFailure(Exception):
    """An agent gave no usable answer: ``kind`` is one of :data:`FAILURE_KINDS`, ``detail`` says why.

    ``forfeit`` marks a failure after which the seat cannot go on (its game time is spent, say).
    """

    def __init__(self, kind: str, detail: str, *, forfeit: bool = False) -> None:
        if kind not in FAILURE_KINDS:
            raise ValueError(f"unknown failure kind {kind!r}")
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail
        self.forfeit = forfeit or kind in _FATAL_KINDS


@dataclass(frozen=True, slots=True)
class Substitution:
    """A decision the fallback bot made for a seat whose agent failed."""

    index: int
    seat: Seat
    kind: str
    detail: str

    def text(self) -> str:
        """One line for logs and record notes."""
        return f"action {self.index}: seat {self.seat} {self.kind} ({self.detail}); fallback played"


class Failures:
    """One game's substitutions and forfeited seats, and the rule that forfeits a seat."""

    def __init__(self, max_failures: int | None) -> None:
        self.max_failures = max_failures
        self.substitutions: list[Substitution] = []
        self.forfeited: set[Seat] = set()

    def substitute(self, index: int, seat: Seat, failure: AgentFailure) -> Substitution:
        """Record that the fallback decides decision ``index`` for ``seat`` after ``failure``."""
        sub = Substitution(index, seat, failure.kind, failure.detail)
        self.substitutions.append(sub)
        return sub

    def forfeit_reason(self, seat: Seat, failure: AgentFailure) -> str | None:
        """Why ``failure`` forfeits ``seat`` (a fatal failure, or one too many); ``None`` if it does not."""
        if seat in self.forfeited:
            return None
        if failure.forfeit:
            return failure.detail if failure.kind == "timeout" else f"{failure.kind}: {failure.detail}"
        if self.max_failures is not None:
            count = sum(1 for s in self.substitutions if s.seat == seat and s.kind != "forfeited")
            if count > self.max_failures:
                return f"{count} failures, more than the {self.max_failures} allowed"
        return None

    def by_seat(self, seats: int) -> dict[Seat, dict[str, int]]:
        """Per seat, the number of substitutions of each kind (kinds with none are left out)."""
        out: dict[Seat, dict[str, int]] = {seat: {} for seat in range(seats)}
        for sub in self.substitutions:
            out[sub.seat][sub.kind] = out[sub.seat].get(sub.kind, 0) + 1
        return out

    def outcome(self, outcome: Outcome, teams: Iterable[Sequence[Seat]]) -> Outcome:
        """``outcome`` with the forfeited seats and their partners removed from the winners."""
        if not self.forfeited:
            return outcome
        losers = {s for team in teams if self.forfeited & set(team) for s in team}
        seats = ", ".join(str(s) for s in sorted(self.forfeited))
        return replace(outcome, winners=tuple(w for w in outcome.winners if w not in losers),
                       reason=f"{outcome.reason}; forfeited: seat {seats}")
