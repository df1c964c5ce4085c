"""Events: what happened, as small frozen dataclasses, each with an audience.

An event is public unless its class says otherwise by overriding
:meth:`Event.audience`: a dealt hand goes to its owner only. Logs, replays and
the UI are built from events; :func:`events_for` is the only filter.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from cardtable.core.types import Seat


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event. Subclasses set ``TYPE`` (the JSON discriminator) and ``text()``."""

    TYPE: ClassVar[str] = "event"

    def audience(self) -> frozenset[Seat] | None:
        """The seats that may see this event; ``None`` means everyone, spectators included."""
        return None

    def is_visible_to(self, seat: Seat | None) -> bool:
        """Whether ``seat`` (``None``: a spectator) may see this event."""
        audience = self.audience()
        return audience is None or (seat is not None and seat in audience)

    def text(self) -> str:
        """A one-line description in words, for logs."""
        return self.TYPE


def events_for(events: Iterable[Event], seat: Seat | None) -> list[Event]:
    """The events ``seat`` may see (``None``: a spectator sees public events only)."""
    return [e for e in events if e.is_visible_to(seat)]
