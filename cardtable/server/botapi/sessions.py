"""Bot sessions on this process: one WebSocket per bot account, the seats it holds at every table, and the
protocol-1 messages that flow between them (``docs/bot-api.md``).

Each seat a session holds is a connection of its table (``BotSeat``), so the seat's presence counts as a
person's, here and at the table's owner. When a table changes, the session looks at each of its seats:
its turn at a new decision (after the table's pace) is an ``act`` with the seat's observation (from
``observe(state, seat)``, nothing else) and the legal actions; the game's end is an ``end``; a seat that
is no longer the account's is ``left``. What the bot answers goes to the table's owner as a named
operation (``bot_action``, ``bot_failure``, ``bot_seat``), here or forwarded to the process that drives it.
Every message a bot sends is checked first; anything refused gets an ``error`` message and changes
nothing, and the connection stays, unless the bot floods.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, ClassVar

from cardtable.arena.protocol import PROTOCOL
from cardtable.core import to_json
from cardtable.core.options import options_to_dict
from cardtable.core.types import Seat
from cardtable.server.botapi.remote import RemoteSeats, bot_deciding
from cardtable.server.botapi.settings import BotApiSettings
from cardtable.server.connections import parse_message
from cardtable.server.limits import TokenBucket, excerpt
from cardtable.server.live import CLOSE_POLICY, Connection, LiveTable, TableError
from cardtable.server.manager import TableManager
from cardtable.server.social import Social
from cardtable.server.statuses import CLOSED
from cardtable.store.accounts import BotAccount, BotAccounts, Invitation, Invitations

log = logging.getLogger("cardtable.server")
#: Close codes: the token is unknown or was revoked (the bridge stops), another session took over.
CLOSE_REFUSED = 4001
CLOSE_REPLACED = 4000
#: Message types a bot may send.
BOT_MESSAGES = ("ready", "action", "failure", "invitations", "accept", "decline", "ping")
#: Largest message a bot may send (bytes).
MESSAGE_LIMIT = 64 * 1024
#: Messages a session may have unsent before it is closed (a bot that does not read).
OUTBOX_LIMIT = 512


@dataclass(eq=False)
class BotSeat(Connection):
    """A bot account's seat at one table, as one of the table's connections (its wake is its session's)."""

    program: ClassVar[bool] = True
    session: Any = None
    #: The last decision the bot was asked (a table version), and whether it was told the game ended.
    asked: int = -1
    ended: bool = False
    pending: asyncio.Task[None] | None = None


@dataclass(eq=False)
class BotSession:
    """One bot account's WebSocket on this process: its seats, its outbox and its rate limit."""

    account: BotAccount
    address: str
    bucket: TokenBucket
    seats: dict[tuple[str, Seat], BotSeat] = field(default_factory=dict)
    outbox: deque[dict[str, Any]] = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closing: tuple[int, str] | None = None
    #: Since when the bot keeps going over its rate limit (``None``: not flooding), its last dropped message,
    #: and when it was last told so.
    flooding_since: float | None = None
    dropped_at: float = 0.0
    warned_at: float = 0.0

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message for the bot; a bot this far behind in reading is closed."""
        if self.closing is not None:
            return
        if len(self.outbox) >= OUTBOX_LIMIT:
            self.outbox.clear()
            self.close(CLOSE_POLICY, "too many unread messages: read what the server sends")
            return
        self.outbox.append(message)
        self.wake.set()

    def close(self, code: int, reason: str) -> None:
        """Ask the writer to close the socket after what is queued."""
        if self.closing is None:
            self.closing = (code, reason)
        self.wake.set()


def error(message: str, about: Any = None, table: Any = None) -> dict[str, Any]:
    """A refusal sent to a bot: nothing changed."""
    out: dict[str, Any] = {"type": "error", "message": message, "about": about if isinstance(about, str) else None}
    if isinstance(table, str):
        out["table"] = table
    return out


class BotHub:
    """The bot sessions of this process, and what they say and are told."""

    def __init__(self, manager: TableManager, social: Social, remote: RemoteSeats, settings: BotApiSettings) -> None:
        self.manager = manager
        self.social = social
        self.remote = remote
        self.settings = settings
        self.accounts = BotAccounts(manager.store.engine)
        self.invitations = Invitations(manager.store.engine)
        self.sessions: dict[int, BotSession] = {}
        self._invited_up_to = 0
        self._spawned: set[asyncio.Task[Any]] = set()
        manager.on_change.append(self.on_change)

    # Sessions.

    async def open(self, account: BotAccount, address: str) -> BotSession:
        """A new session of ``account`` (an earlier one is closed: one session per account), its seats attached."""
        old = self.sessions.pop(account.id, None)
        if old is not None:
            old.close(CLOSE_REPLACED, "another connection of this bot took over")
            self.detach_all(old)
        session = BotSession(account, address, TokenBucket(self.settings.messages_per_second, self.settings.burst))
        self.sessions[account.id] = session
        session.send({"type": "welcome", "protocol": PROTOCOL, "bot": account.name,
                      "limits": {"messages_per_second": self.settings.messages_per_second,
                                 "burst": self.settings.burst, "decision": self.settings.decision,
                                 "game": self.settings.game_time, "max_failures": self.settings.max_failures}})
        await self.attach_tables(session)
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.accounts.seen, [account.id])
        log.info("bot %s connected from %s", account.name, address)
        return session

    def close(self, session: BotSession) -> None:
        """The socket is gone: its seats are away (the computer plays them) until it connects again."""
        if self.sessions.get(session.account.id) is session:
            del self.sessions[session.account.id]
        self.detach_all(session)
        log.info("bot %s disconnected", session.account.name)

    async def attach_tables(self, session: BotSession, ids: list[str] | None = None) -> None:
        """Attach every open table where the account holds a seat and the session does not yet (``ids``: those
        tables, when the caller asked the store already)."""
        if ids is None:
            ids = await asyncio.to_thread(self.manager.store.tables_of_account, session.account.id)
        for table_id in ids:
            if any(key[0] == table_id for key in session.seats):
                continue
            try:
                table = await self.manager.find(table_id)
            except TableError:
                continue
            for stored in table.stored.seats:
                if stored.kind == "remote" and stored.account == session.account.id:
                    self.attach(session, table, stored.index)

    async def seat_sessions(self, table: LiveTable) -> None:
        """Attach the sessions connected here to their seats at a new table (a live tournament's, before it is
        dealt: the bot is asked from the game's first decision)."""
        for stored in table.stored.seats:
            session = self.sessions.get(stored.account or 0) if stored.kind == "remote" else None
            if session is not None:
                self.attach(session, table, stored.index)

    def attach(self, session: BotSession, table: LiveTable, seat: Seat) -> None:
        """The session plays ``seat`` at ``table`` from now on: ``hello``, then whatever its turn brings."""
        key = (table.id, seat)
        if key in session.seats or session.closing is not None:
            return
        connection = BotSeat(seat, table, f"bot:{session.account.id}", session=session)
        connection.wake = session.wake
        session.seats[key] = connection
        session.send(self._hello(table, seat))
        self.manager.attach(table, connection)

    def detach(self, session: BotSession, connection: BotSeat) -> None:
        """The session no longer plays this seat (here)."""
        assert connection.seat is not None
        session.seats.pop((connection.table.id, connection.seat), None)
        if connection.pending is not None:
            connection.pending.cancel()
        if connection in connection.table.connections:
            self.manager.disconnect(connection.table, connection)

    def detach_all(self, session: BotSession) -> None:
        """Every seat of the session goes away."""
        for connection in list(session.seats.values()):
            self.detach(session, connection)

    def _hello(self, table: LiveTable, seat: Seat) -> dict[str, Any]:
        limits = {"decision": self.settings.decision, "game": self.settings.game_time, "handshake": 10.0}
        return {"type": "hello", "table": table.id, "protocol": PROTOCOL, "game": table.game.info.name,
                "options": options_to_dict(table.options), "seat": seat, "players": table.options.players,
                "limits": limits}

    # What the bot is told.

    def on_change(self, table: LiveTable) -> None:
        """A table changed: the sessions holding its seats look again (their writers do the work)."""
        for connection in table.connections:
            if isinstance(connection, BotSeat):
                connection.mark_dirty()

    def review(self, session: BotSession) -> None:
        """Look at every seat whose table changed: a new decision, the end, a seat that is gone."""
        for connection in list(session.seats.values()):
            if connection.dirty:
                connection.dirty = False
                self._review_seat(session, connection)

    def _review_seat(self, session: BotSession, connection: BotSeat) -> None:
        table, seat = connection.table, connection.seat
        assert seat is not None
        stored = table.stored.seats[seat]
        if stored.kind != "remote" or stored.account != session.account.id:
            session.send({"type": "left", "table": table.id, "reason": "the seat is no longer yours"})
            self.detach(session, connection)
            return
        if table.status in CLOSED:
            if not connection.ended and table.status == "finished" and table.state is not None:
                outcome = table.game.outcome(table.state)
                session.send({"type": "end", "table": table.id, "outcome": to_json(outcome) if outcome else None})
            connection.ended = True
            session.send({"type": "left", "table": table.id, "reason": f"the table is {table.status}"})
            self.detach(session, connection)
            return
        if bot_deciding(table) == seat and connection.asked != table.version and connection.pending is None:
            connection.pending = asyncio.get_running_loop().create_task(self._ask(session, connection, table.version))

    async def _ask(self, session: BotSession, connection: BotSeat, version: int) -> None:
        """After the table's pace (and any round summary people are reading), put the decision to the bot."""
        table, seat = connection.table, connection.seat
        assert seat is not None
        try:
            await self.social.wait_for_readers(table)
            await asyncio.sleep(self.remote.pace(table))
            if table.version != version or bot_deciding(table) != seat or session.closing is not None:
                return
            connection.asked = version
            left = self.remote.game_left(table, seat) if table.owned else self.settings.game_time
            message: dict[str, Any] = {
                "type": "act", "table": table.id, "id": version,
                "observation": to_json(table.game.observe(table.state, seat)),
                "legal": [to_json(a) for a in table.game.legal_actions(table.state, seat)],
                "time_left": {"decision": round(min(self.settings.decision, left), 3), "game": round(left, 3)}}
            templates = _templates(table, seat)
            if templates is not None:
                message["templates"] = templates
            session.send(message)
        finally:
            connection.pending = None
            if table.version != version:
                connection.mark_dirty()

    # What the bot says.

    async def handle(self, session: BotSession, text: str | bytes | None) -> None:
        """One message from the bot; anything refused is answered with ``error`` and changes nothing."""
        if not self._within_rate(session):
            return
        message: Any = None
        try:
            message = parse_bot_message(text)
            kind = message["type"]
            if kind == "ping":
                session.send({"type": "pong"})
            elif kind == "invitations":
                found = await asyncio.to_thread(self.invitations.pending, [session.account.id])
                session.send({"type": "invitations", "invitations": [await self._invitation(i) for i in found]})
            elif kind in ("accept", "decline"):
                await self._answer_invitation(session, message, kind == "accept")
            else:
                await self._seat_message(session, message)
        except TableError as exc:
            about = message.get("type") if isinstance(message, dict) else None
            table = message.get("table") if isinstance(message, dict) else None
            session.send(error(excerpt(exc.message, 300), about, table))
        except Exception:  # a bug: log it, tell the bot, keep the socket
            log.exception("a message of bot %s failed", session.account.name)
            session.send(error("the server failed to handle that message; nothing changed"))

    def _within_rate(self, session: BotSession) -> bool:
        now = time.monotonic()
        if session.flooding_since is not None and now - session.dropped_at > 1.0:
            session.flooding_since = None  # a second without a dropped message: no longer flooding
        if session.bucket.take():
            return True
        session.dropped_at = now
        if session.flooding_since is None:
            session.flooding_since = now
        if now - session.flooding_since > self.settings.flood_seconds:
            session.close(CLOSE_POLICY, "too many messages for too long")
        elif now - session.warned_at > 1.0:
            session.warned_at = now
            session.send(error(f"too many messages: at most {self.settings.messages_per_second:g} a second "
                               "(they were dropped)"))
        return False

    async def _seat_message(self, session: BotSession, message: dict[str, Any]) -> None:
        """``ready``, ``action`` or ``failure`` for one of the session's seats."""
        table_id = message.get("table")
        if not isinstance(table_id, str):
            raise TableError(400, f'a "{message["type"]}" message needs the "table" it is about')
        seats = [c for (t, _), c in session.seats.items() if t == table_id]
        if not seats:
            raise TableError(404, f"you hold no seat at table {excerpt(table_id, 40)!r}", code="no_table",
                             params={})
        if message["type"] == "ready":
            return
        decision = message.get("id")
        if not isinstance(decision, int) or isinstance(decision, bool):
            raise TableError(400, f'a "{message["type"]}" message needs the integer "id" of the decision')
        table = seats[0].table
        seat = next((c.seat for c in seats if c.seat == table.to_act), seats[0].seat)
        operation: dict[str, Any] = {"seat": seat, "account": session.account.id, "version": decision}
        if message["type"] == "failure":
            await self.manager.operate(table, {"op": "bot_failure", **operation, "kind": message.get("kind"),
                                               "detail": excerpt(message.get("detail") or "", 200)})
            return
        answer = {k: message[k] for k in ("index", "action") if k in message}
        result = await self.manager.operate(table, {"op": "bot_action", **operation, "message": answer})
        if result.get("lost") == "illegal":
            session.send({"type": "refused", "table": table.id, "id": decision, "action": result.get("action"),
                          "reason": result.get("refused")})
        elif result.get("lost") == "malformed":
            session.send(error(f"malformed action: {result.get('detail')}; the computer played this decision",
                               "action", table.id))

    # Invitations.

    async def _invitation(self, invitation: Invitation) -> dict[str, Any]:
        out: dict[str, Any] = {"id": invitation.id, "table": invitation.table_id, "seat": invitation.seat}
        with contextlib.suppress(TableError):
            table = await self.manager.find(invitation.table_id)
            out.update(game=table.game.info.name, title=table.game.info.title,
                       options=options_to_dict(table.options), status=table.status,
                       host=table.stored.seats[table.stored.host_seat].name if table.stored.host_seat is not None
                       else None)
        return out

    async def _answer_invitation(self, session: BotSession, message: dict[str, Any], accept: bool) -> None:
        number = message.get("invitation")
        if not isinstance(number, int) or isinstance(number, bool):
            raise TableError(400, 'an answer to an invitation needs its integer "invitation" id')
        invitation = await asyncio.to_thread(self.invitations.get, number)
        if invitation is None or invitation.account_id != session.account.id:
            raise TableError(404, f"you have no invitation {number}")
        if invitation.status != "pending":
            raise TableError(409, f"invitation {number} is {invitation.status}")
        if not accept:
            await asyncio.to_thread(self.invitations.settle, number, "declined")
            return
        table = await self.manager.find(invitation.table_id)
        if not await asyncio.to_thread(self.invitations.settle, number, "accepted"):
            raise TableError(409, f"invitation {number} was answered meanwhile")
        try:
            await self.manager.operate(table, {"op": "bot_seat", "seat": invitation.seat,
                                               "account": session.account.id, "name": session.account.name})
        except TableError:
            await asyncio.to_thread(self.invitations.set_status, number, "lapsed")
            raise
        if table.owned is False:
            await self.manager.catch_up(table)
        # A table another process drives, shown here without a connection, may have been dropped by the
        # housekeeping while the seat was being taken: find it again (no await between this and the attach),
        # or the seat would join a table nobody keeps up to date and its bot would never be asked.
        table = await self.manager.find(invitation.table_id)
        self.attach(session, table, invitation.seat)

    def push_invitation(self, invitation: Invitation, described: dict[str, Any]) -> None:
        """Tell a session connected here about a new invitation at once."""
        session = self.sessions.get(invitation.account_id)
        if session is not None:
            session.send({"type": "invited", "invitation": described})
            self._invited_up_to = max(self._invited_up_to, invitation.id)

    # Housekeeping: revocations, invitations and new seats made by other processes.

    async def housekeeping(self) -> None:
        """One round: revoked accounts' seats go back to the computer, then their sessions end (4001); new
        invitations and seats reach their sessions.

        The seats go first: a session closed before its seats are released would leave them away, played
        by the computer as an absent bot's, and a short game could end before the release.
        """
        await self.remote.release_revoked()
        ids = list(self.sessions)
        if ids:
            revoked = await asyncio.to_thread(self.accounts.revoked_among, ids)
            for account in revoked:
                session = self.sessions.pop(account, None)
                if session is not None:
                    session.close(CLOSE_REFUSED, "the bot's token was revoked")
                    self.detach_all(session)
            live = [i for i in ids if i not in revoked]
            await asyncio.to_thread(self.accounts.seen, live)
            for invitation in await asyncio.to_thread(self.invitations.pending, live, self._invited_up_to):
                self._invited_up_to = max(self._invited_up_to, invitation.id)
                session = self.sessions.get(invitation.account_id)
                if session is not None:
                    session.send({"type": "invited", "invitation": await self._invitation(invitation)})
            seated = await asyncio.to_thread(self.manager.store.tables_of_accounts, live)
            for account, tables in seated.items():
                session = self.sessions.get(account)
                if session is not None:
                    await self.attach_tables(session, tables)

    async def run(self, every: float = 1.0) -> None:
        """Housekeeping every ``every`` seconds until cancelled (a failing round is logged, not fatal)."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.housekeeping()
            except Exception:
                log.exception("bot sessions' housekeeping failed; trying again")


def parse_bot_message(text: str | bytes | None) -> dict[str, Any]:
    """A bot's message as a JSON object with a known ``type``; TableError otherwise (the sockets' own check)."""
    return parse_message(text, MESSAGE_LIMIT, BOT_MESSAGES)


def _templates(table: LiveTable, seat: Seat) -> list[dict[str, Any]] | None:
    """Seed 001's action templates where the game has them (Mus), as protocol 1 sends them."""
    templates = getattr(table.game, "action_templates", None)
    if templates is None:
        return None
    from cardtable.arena.protocol import templates as as_json

    return as_json(templates(table.state, seat))


__all__ = ["BotHub", "BotSeat", "BotSession", "parse_bot_message"]
