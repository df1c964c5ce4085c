"""Refusals as codes with parameters, so a page shows them in its own language.

The server's refusals are one English line (``detail`` over REST, ``message`` on a socket) for API clients
and logs. Each also gets a ``code`` and ``params`` here; the pages look the code up in their message
catalogue (``static/i18n/<lang>.json``, keys ``error.<code>``) and fill in the parameters (seat numbers
stay numbers, from 0, and the page names the seat). A line no pattern knows gets ``refused`` with the
English line as its ``detail``.
"""

from __future__ import annotations

import re
from typing import Any

from cardtable.server.live import TableError

#: (code, pattern of the English line); the first full match wins, so specific lines come first.
PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((code, re.compile(pattern, re.S)) for code, pattern in (
    ("store_down", r"the database is unavailable right now.*"),
    ("not_your_turn", r"it is not your turn \(seat (?P<seat>\d+) is to act\)"),
    ("stale", r"stale version \d+: the table is at version \d+"),
    ("no_longer_computer", r"seat (?P<seat>\d+) is no longer the computer's to play"),
    ("table_is", r"the table is (?P<status>\w+)"),
    ("seats_before_start", r"table \S+ is (?P<status>\w+): seats can be taken only before the start"),
    ("table_is_not", r"table \S+ is (?P<status>\w+), not (?P<wanted>\w+)"),
    ("other_process", r"table \S+ (?:is driven by|moved to) another server process.*"),
    ("table_status", r"table \S+ is (?P<status>\w+)"),
    ("seat_is_computer", r"seat (?P<seat>\d+) is a computer player's seat"),
    ("seat_taken", r"seat (?P<seat>\d+) (?:is|was just) taken"),
    ("seat_promised", r"seat (?P<seat>\d+) is promised to (?P<name>.+) at its next turn"),
    ("no_takeover", r"the host does not let people take over computer seats during the game"),
    ("no_seat", r"no seat (?P<seat>\d+): .*"),
    ("no_token_seat", r"this token (?:holds|held) no seat at this table"),
    ("rematch_host", r"only the host \(or, once the host has left, a player\) can start a rematch"),
    ("host_settings", r"only the host can change the table's settings"),
    ("host_only", r"only the host can .*"),
    ("spectators_cannot_act", r"spectators cannot act"),
    ("chat_empty", r"an empty message is not sent"),
    ("chat_too_long", r"a message may have at most (?P<max>\d+) characters \(this one has (?P<n>\d+)\)"),
    ("chat_rate", r"slow down: at most (?P<n>\d+) messages in (?P<seconds>[\d.]+) seconds"),
    ("socket_rate", r"too many messages: slow down.*"),
    ("tables_rate", r"too many new tables from your address \(at most (?P<n>[\d.]+) a minute\).*"),
    ("connections_rate", r"too many open connections from your address"),
    ("rematch_not_finished", r"a rematch can start once the game is finished"),
    ("replay_not_finished", r"a replay is available once the game is finished"),
    ("record_not_finished", r"the record is available once the game is finished"),
    ("changing_hands", r".*(?:changing hands between server processes|does not answer).*"),
    ("no_table", r"no table .*|the table is no longer in the store"),
    ("table_stopped", r"[Tt]he table stopped: (?P<reason>.*)"),
    ("server_failed", r"the server failed to handle .*"),
))


def coded(message: str, code: str | None = None) -> dict[str, Any]:
    """``{"code", "params"}`` for an English refusal (``code`` given: that code, the line as ``detail``)."""
    if code is not None:
        return {"code": code, "params": {"detail": message}}
    for name, pattern in PATTERNS:
        match = pattern.fullmatch(message)
        if match is not None:
            params: dict[str, Any] = {k: int(v) if k == "seat" else v
                                      for k, v in match.groupdict().items() if v is not None}
            return {"code": name, "params": params}
    return {"code": "refused", "params": {"detail": message}}


def error_json(exc: TableError) -> dict[str, Any]:
    """A refusal's REST body: the English ``detail`` plus its code and parameters."""
    return {"detail": exc.message, **coded(exc.message, exc.code)}


def error_message(message: str, code: str | None = None) -> dict[str, Any]:
    """A refusal as a socket message: ``{"type": "error", "message", "code", "params"}``."""
    return {"type": "error", "message": message, **coded(message, code)}
