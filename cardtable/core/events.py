"""Events: what happened, as small frozen dataclasses, each with an audience.

An event is public unless its class says otherwise by overriding
:meth:`Event.audience`: a dealt hand goes to its owner only. Logs, replays and
the UI are built from events; :func:`events_for` is the only filter.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable
from dataclasses import dataclass, fields
from functools import cache
from typing import Any, ClassVar

from cardtable.core.types import CARDS, CardId, Seat


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event. Subclasses set ``TYPE`` (the JSON discriminator) and ``text()``."""

    TYPE: ClassVar[str] = "event"
    #: True for an event the rules make public although it shows cards that stay hidden afterwards
    #: (hands shown at a round's end, cards handed over in Durak). The leak test exempts only these.
    REVEALS: ClassVar[bool] = False

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

    def cards_shown(self) -> frozenset[CardId]:
        """Every card id in this event's fields marked as cards (``ShownCard``, ``ShownCards``, …)."""
        out: set[CardId] = set()
        for name in _card_fields(type(self)):  # type: ignore[arg-type]
            _collect(getattr(self, name), out)
        return frozenset(out)


@cache
def _card_fields(cls: type[Event]) -> tuple[str, ...]:
    hints = typing.get_type_hints(cls, include_extras=True)
    return tuple(f.name for f in fields(cls)
                 if typing.get_origin(hints[f.name]) is typing.Annotated and CARDS in hints[f.name].__metadata__)


def _collect(value: Any, out: set[CardId]) -> None:
    if isinstance(value, int):
        out.add(value)
    elif isinstance(value, tuple):
        for item in value:
            _collect(item, out)


@dataclass(frozen=True, slots=True)
class PrivateEvent(Event):
    """An event only its ``seat`` may see: a dealt hand, a drawn card, one's own hidden bid."""

    TYPE: ClassVar[str] = "private_event"
    seat: Seat

    def audience(self) -> frozenset[Seat] | None:
        """Only the seat the event is about."""
        return frozenset((self.seat,))


def events_for(events: Iterable[Event], seat: Seat | None) -> list[Event]:
    """The events ``seat`` may see (``None``: a spectator sees public events only)."""
    return [e for e in events if e.is_visible_to(seat)]
