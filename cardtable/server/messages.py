"""Refusals as codes with parameters, so a page shows them in its own language.

The server's refusals are one English line (``detail`` over REST, ``message`` on a socket) for API clients
and logs. Each place that refuses also names the refusal's ``code`` (``refusals.RefusalCode``) and its
``params``; the pages look the code up in their message catalogue (``static/i18n/<lang>.json``, keys
``error.<code>``) and fill in the parameters (seat numbers stay numbers, from 0, and the page names the
seat). A refusal with no code (a malformed message, an unknown option: things a page does not send) goes
out as ``refused`` with the English line as its ``detail``.
"""

from __future__ import annotations

from typing import Any

from cardtable.server.live import TableError


def coded(message: str, code: str | None = None, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """``{"code", "params"}`` of a refusal: ``refused`` when it has no code; the line as ``detail`` when no params."""
    if code is None:
        return {"code": "refused", "params": {"detail": message}}
    return {"code": code, "params": {"detail": message} if params is None else params}


def error_json(exc: TableError) -> dict[str, Any]:
    """A refusal's REST body: the English ``detail`` plus its code and parameters."""
    return {"detail": exc.message, **coded(exc.message, exc.code, exc.params)}


def error_message(message: str, code: str | None = None, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """A refusal as a socket message: ``{"type": "error", "message", "code", "params"}``."""
    return {"type": "error", "message": message, **coded(message, code, params)}
