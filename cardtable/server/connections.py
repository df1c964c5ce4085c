"""The sockets of the tables: connecting and disconnecting (with their seats' presence), the per-socket and
per-address limits, and each client message parsed and handled."""

from __future__ import annotations

import logging
import secrets
import time
from typing import Any

from cardtable.core import DecodeError
from cardtable.core.codec import parse_json
from cardtable.server.absence import Absence
from cardtable.server.changes import Changes
from cardtable.server.decisions import Decisions
from cardtable.server.leases import Leases
from cardtable.server.limits import AddressBuckets, TokenBucket, excerpt
from cardtable.server.live import Connection, LiveTable, TableError
from cardtable.server.messages import error_message
from cardtable.server.operations import Operations
from cardtable.server.registry import TableRegistry
from cardtable.server.statuses import CLOSED, PLAYING
from cardtable.store import hash_token

log = logging.getLogger("cardtable.server")
#: Message types a client may send.
MESSAGE_TYPES = ("action", "ping", "pause", "resume", "view")


class Connections:
    """Opens, closes and serves the connections of this process's tables."""

    def __init__(self, registry: TableRegistry, changes: Changes, absence: Absence, leases: Leases,
                 operations: Operations, decisions: Decisions) -> None:
        self.registry = registry
        self.changes = changes
        self.absence = absence
        self.leases = leases
        self.operations = operations
        self.decisions = decisions
        limits = registry.limits
        self.address_messages = AddressBuckets(limits.address_messages_per_second, limits.address_messages_burst)
        self.address_connections: dict[str, int] = {}

    def connect(self, table: LiveTable, token: str | None, address: str = "", since: int | None = None, *,
                patches: bool = False) -> Connection:
        """A new connection holding the token's seat (or spectating); it gets its first view.

        ``patches``: the client applies patches; views after its first come as differences (``views.make_patch``).

        ``since``: the version the client already has the events of; its first view then carries only the
        events after it (a page that reconnects keeps its log). Out of range: every event, as without it.
        """
        limits = self.registry.limits
        if self.address_connections.get(address, 0) >= limits.connections_per_address:
            raise TableError(429, "too many open connections from your address", code="connections_rate", params={})
        token_hash = hash_token(token) if token else None
        seat = None if token_hash is None else table.seat_of_token(token_hash)
        is_host = token_hash is not None and secrets.compare_digest(token_hash, table.stored.host_token_hash)
        connection = Connection(seat, table, address, is_host, limits.outbox, limits.view_interval,
                                TokenBucket(limits.messages_per_second, limits.messages_burst))
        connection.patches = patches
        if since is not None and 0 <= since < len(table.marks):
            connection.event_index = table.marks[since]
        self.address_connections[address] = self.address_connections.get(address, 0) + 1
        newly_seated = seat is not None and seat not in table.connected_seats()
        table.connections.add(connection)
        if table.status in CLOSED:
            self.registry.tables.setdefault(table.id, table)
            self.registry.finished.pop(table.id, None)
        if newly_seated:
            assert seat is not None
            self.absence.returned(table, seat)
            table.touch()  # the seat list shows it connected: everyone's view changed
            self.leases.tell_presence(table)
        connection.mark_dirty()
        self.changes.kick(table)
        return connection

    def attach(self, table: LiveTable, connection: Connection) -> None:
        """A connection made elsewhere joins the table (a bot account's seat over the Bot API): its seat's
        presence counts as a person's, here and at the table's owner."""
        seat = connection.seat
        newly_seated = seat is not None and seat not in table.connected_seats()
        self.address_connections[connection.address] = self.address_connections.get(connection.address, 0) + 1
        table.connections.add(connection)
        if newly_seated:
            assert seat is not None
            self.absence.returned(table, seat)
            table.touch()
            self.leases.tell_presence(table)
        connection.mark_dirty()
        self.changes.kick(table)

    def disconnect(self, table: LiveTable, connection: Connection) -> None:
        """Forget a closed connection; a person's seat starts its takeover timer."""
        table.connections.discard(connection)
        count = self.address_connections.get(connection.address, 1) - 1
        if count > 0:
            self.address_connections[connection.address] = count
        else:
            self.address_connections.pop(connection.address, None)
        seat = connection.seat
        if seat is not None and seat not in table.connected_seats():
            if table.status == PLAYING and table.owned:
                self.absence.start_timer(table, seat)
            table.touch()
            self.leases.tell_presence(table)
        if table.status in CLOSED and not table.connections:
            self.registry.forget(table)

    async def handle(self, table: LiveTable, connection: Connection, text: str | bytes | None) -> None:
        """One client message: an action, a ping, pause/resume, or something refused with an error message."""
        if not connection.bucket or not connection.bucket.take() or not self.address_messages.take(
                connection.address):
            now = time.monotonic()
            if now - connection.throttled_at > 1.0:
                connection.throttled_at = now
                connection.send(error_message("too many messages: slow down (they were dropped)", "socket_rate", {}))
            return
        try:
            message = parse_message(text, self.registry.limits.message_bytes)
            kind = message["type"]
            if kind == "ping":
                connection.send({"type": "pong"})
            elif kind == "view":  # the client lost track of its view: the next one goes in full
                connection.last_view = None
                connection.mark_dirty()
            elif kind == "action":
                await self._act(table, connection, message)
            else:
                await self._host_message(table, connection, kind)
        except TableError as exc:
            connection.send(error_message(excerpt(exc.message, 300), exc.code, exc.params))
        except Exception:  # a bug: log it, tell the client, keep the socket
            log.exception("message at table %s failed", table.id)
            connection.send(error_message("the server failed to handle that message; nothing changed",
                                          "server_failed", {}))

    async def _host_message(self, table: LiveTable, connection: Connection, kind: str) -> None:
        if not connection.is_host:
            raise TableError(403, f"only the host can {kind} the table", code="host_only", params={})
        await self.operations.operate(table, {"op": kind, "token_hash": table.stored.host_token_hash})

    async def _act(self, table: LiveTable, connection: Connection, message: dict[str, Any]) -> None:
        """A seated socket's action: decoded here, then accepted here or forwarded to the table's owner."""
        seat = connection.seat
        if seat is None:
            raise TableError(403, "spectators cannot act", code="spectators_cannot_act", params={})
        version = message.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise TableError(400, 'an action needs the integer "version" it was chosen on')
        try:
            action = table.game.action_codec.decode(message.get("action"))
        except DecodeError as exc:
            raise TableError(400, f"bad action: {excerpt(exc, 120)}") from None
        except Exception as exc:  # a decoder that fails on junk is refused as junk, not a crash
            raise TableError(400, f"bad action: {excerpt(exc, 120)}") from None
        if not table.owned:
            await self.operations.operate(table, {"op": "action", "seat": seat, "version": version,
                                                  "action": message.get("action")})
            return
        await self.decisions.accept(table, seat, action, version=version)


def parse_message(text: str | bytes | None, limit: int, types: tuple[str, ...] = MESSAGE_TYPES) -> dict[str, Any]:
    """A client message as a JSON object with a ``type`` among ``types``; TableError otherwise."""
    if not isinstance(text, str):
        raise TableError(400, "binary messages are not accepted: send JSON text")
    if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
        raise TableError(413, f"message too large (limit {limit} bytes)")
    try:
        message = parse_json(text)  # the core's strict msgspec parser: no NaN, no lone surrogates
    except DecodeError:
        raise TableError(400, "message is not valid JSON") from None
    if not isinstance(message, dict):
        raise TableError(400, "message must be a JSON object")
    kind = message.get("type")
    if kind not in types:
        raise TableError(400, f"unknown message type {excerpt(kind, 30)!r} (known: {', '.join(types)})")
    return message
