"""A table's statuses as the server keeps them: the runner's five, ``abandoned``, and which of them are closed.

The failure rules follow the runner's status machine (``cardtable.runner.RunnerStatus``): a table is ``waiting``,
``playing``, ``paused``, ``finished`` or ``error``, and ``abandoned`` when its host leaves before the start.
"""

from __future__ import annotations

from cardtable.runner import RunnerStatus

WAITING, PLAYING, PAUSED = RunnerStatus.WAITING.value, RunnerStatus.PLAYING.value, RunnerStatus.PAUSED.value
FINISHED, ERROR = RunnerStatus.FINISHED.value, RunnerStatus.ERROR.value
ABANDONED = "abandoned"
#: Statuses whose tables are done: kept in memory only while someone watches them.
CLOSED = (FINISHED, ERROR, ABANDONED)
