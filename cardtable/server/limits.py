"""Limits a stranger cannot push past: rates, outbox sizes, message sizes, idle tables (with their settings)."""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """Every limit of one server; ``cardtable serve`` options set some, docs/hosting.md lists them all."""

    #: Largest client message on a socket (bytes); larger ones are refused (uvicorn drops frames over 1 MiB).
    message_bytes: int = 64 * 1024
    #: Messages per second one connection may send (sustained, and in a burst).
    messages_per_second: float = 20.0
    messages_burst: float = 60.0
    #: Messages per second all connections of one address may send together.
    address_messages_per_second: float = 200.0
    address_messages_burst: float = 600.0
    #: Tables one address may create per minute (sustained, and in a burst).
    tables_per_minute: float = 30.0
    tables_burst: float = 20.0
    #: Open sockets per address.
    connections_per_address: int = 200
    #: Small messages (errors, pongs) queued for one connection before it is closed as a slow reader.
    outbox: int = 32
    #: Least seconds between two views to one connection: faster changes (computer players at
    #: ``--bot-delay 0``) are merged into the next view, which carries every event since the last one.
    view_interval: float = 0.01
    #: Seconds a waiting table may sit untouched with nobody connected before it expires.
    waiting_idle: float = 3600.0
    #: Page size of the lobby list (default and maximum).
    lobby_page: int = 50
    lobby_page_max: int = 200
    #: Finished tables kept in memory after their last connection closed (loaded again when asked).
    finished_cache: int = 64
    #: Chat lines and reactions one seat may send in ``chat_window`` seconds (counted across processes).
    chat_lines: int = 5
    chat_window: float = 10.0


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; ``take()`` says whether one was there."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = burst, time.monotonic()

    def take(self, cost: float = 1.0) -> bool:
        """Spend ``cost`` tokens if there are enough."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < cost:
            return False
        self.tokens -= cost
        return True


class AddressBuckets:
    """One token bucket per client address; the least recently used are forgotten beyond ``size``."""

    def __init__(self, rate: float, burst: float, size: int = 10_000) -> None:
        self.rate, self.burst, self.size = rate, burst, size
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def take(self, address: str, cost: float = 1.0) -> bool:
        """Spend from this address's bucket."""
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = TokenBucket(self.rate, self.burst)
            if len(self._buckets) > self.size:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(address)
        return bucket.take(cost)


def excerpt(text: object, limit: int = 60) -> str:
    """At most ``limit`` characters of ``text`` on one line (error messages never echo whole inputs)."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
