"""The runner's status machine: its five statuses and the moves allowed between them."""

from __future__ import annotations

import enum


class RunnerStatus(enum.Enum):
    """Where a runner is in its life."""

    WAITING = "waiting"
    PLAYING = "playing"
    PAUSED = "paused"
    FINISHED = "finished"
    ERROR = "error"


TRANSITIONS: dict[RunnerStatus, set[RunnerStatus]] = {
    RunnerStatus.WAITING: {RunnerStatus.PLAYING, RunnerStatus.ERROR},
    RunnerStatus.PLAYING: {RunnerStatus.PAUSED, RunnerStatus.FINISHED, RunnerStatus.ERROR},
    RunnerStatus.PAUSED: {RunnerStatus.PLAYING, RunnerStatus.ERROR},
    RunnerStatus.FINISHED: set(),
    RunnerStatus.ERROR: set(),
}
"""From each status, the statuses a runner may move to."""


class RunnerError(RuntimeError):
    """A runner was asked for something its status does not allow."""


def checked_move(current: RunnerStatus, status: RunnerStatus) -> RunnerStatus:
    """``status`` if a runner in ``current`` may move to it; :class:`RunnerError` otherwise."""
    if status not in TRANSITIONS[current]:
        raise RunnerError(f"cannot go from {current.value} to {status.value}")
    return status
