"""Seed 001's ``validate(state, seat, action) -> Validation``: whether a Mus action is legal now, and if not, why.

The reason cites the rule (FEM article or the option that forbids it). It is the
very check ``apply`` makes (``MusGame.why_illegal``), so the runner and the
external-bot protocol use it to explain a refused action to the bot that tried it.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtable.games.mus.actions import MusAction
from cardtable.games.mus.game import MusGame
from cardtable.games.mus.state import MusState

_ENGINE = MusGame()


@dataclass(frozen=True, slots=True)
class Validation:
    """The answer of :func:`validate`: ``ok``, or the ``reason`` it is not."""

    ok: bool
    reason: str | None = None

    def __bool__(self) -> bool:
        return self.ok


def validate(state: MusState, seat: int, action: MusAction) -> Validation:
    """Whether ``seat`` may play ``action`` in ``state``; pure: the state is not touched."""
    reason = _ENGINE.validate(state, seat, action)
    return Validation(True) if reason is None else Validation(False, reason)
