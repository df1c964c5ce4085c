"""No secret in a log line: the query string of every path uvicorn and cardtable log is cut, on every route.

A person's seat token travels in the table socket's address (``/ws/tables/ID?token=…``), and a client may put a
bot's token in any address by mistake (it is refused, but uvicorn's access log and its WebSocket lines write
the whole path). :class:`RedactSecrets` rewrites each record before any handler formats it: a path keeps only
its part before ``?`` (``?[hidden]`` marks that there was a query), and, wherever they appear, a
``token=``/``secret=``/``password=`` value and a bot token (``ctb_…``) are hidden too.
:func:`install_redaction` puts it on uvicorn's and cardtable's loggers and on their handlers (records that
propagate from other loggers pass the handlers' filters).
"""

from __future__ import annotations

import logging
import re
from typing import Any

#: A path with a query string: ``/ws/tables/x?token=…`` (up to a space or a quote).
_QUERY = re.compile(r"(/[^\s\"'?]*)\?[^\s\"']*")
#: A secret-looking parameter anywhere: ``token=…``, ``access_token=…``, ``secret=…``, ``password=…``.
_PARAMETER = re.compile(r"(?i)\b(\w*token|secret|password|passwd)=[^\s&\"']+")
#: A bot account's token: ``ctb_`` and 43 URL-safe characters.
_BOT_TOKEN = re.compile(r"ctb_[A-Za-z0-9_-]{16,}")
#: The loggers whose records are redacted (and whose handlers get the filter).
LOGGERS = ("", "uvicorn", "uvicorn.access", "uvicorn.error", "cardtable", "cardtable.server")


def redact(text: str) -> str:
    """``text`` with query strings, secret-looking parameters and bot tokens hidden."""
    if "?" in text:
        text = _QUERY.sub(r"\1?[hidden]", text)
    if "=" in text:
        text = _PARAMETER.sub(r"\1=[hidden]", text)
    if "ctb_" in text:
        text = _BOT_TOKEN.sub("ctb_[hidden]", text)
    return text


def _redacted(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


class RedactSecrets(logging.Filter):
    """Rewrites a record's message and string arguments with :func:`redact`; never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Redact in place; always ``True``."""
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redacted(v) for k, v in record.args.items()}
        return True


def install_redaction() -> None:
    """Put the filter on uvicorn's and cardtable's loggers and their handlers (once each)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        for target in (logger, *logger.handlers):
            if not any(isinstance(f, RedactSecrets) for f in target.filters):
                target.addFilter(RedactSecrets())
