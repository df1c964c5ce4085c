"""The social side of a table: its settings, chat and quick reactions, round summaries, rematch (taking over a
computer seat is ``server/takeovers.py``).

Chat lines are table talk, not game state: they go to every connection of the table (seated people and
spectators) as ``{"type": "chat", ...}`` messages. Game information still reaches a seat only through
its view (``observe``). Names and texts are sent as data; the page shows them as text, never as HTML.
Table settings are stored with the table (one transaction, like every change: on a store failure they stay
as they were and the host gets a 503), so a restart keeps them. Chat, reactions, summary holds and pending
takeovers live in memory; with several server processes on one PostgreSQL they are relayed to the other
processes over LISTEN/NOTIFY (``manager.relay``), so a line sent to one process reaches the sockets of all.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import deque
from dataclasses import asdict, dataclass, field
from typing import Any

from cardtable.core.types import Seat
from cardtable.server.live import LiveTable, TableError
from cardtable.server.manager import TableManager
from cardtable.store import StoredSeat, StoredTable, hash_token

log = logging.getLogger("cardtable.server")

#: The quick reactions a player may send (the page shows each as a symbol with its name).
REACTIONS = ("thumbs_up", "well_played", "oops", "laugh", "thinking", "hurry")
MAX_CHAT_CHARS = 200
CHAT_HISTORY = 50
DEFAULT_PACE_MS = 1500
#: Events that end a round or hand: the page shows a summary, and the computer players wait until every
#: person at the table has pressed Continue, or ``SUMMARY_SECONDS`` have passed.
SUMMARY_EVENTS = frozenset({"round_scored", "hand_scored", "round_ended", "hands_shown"})
SUMMARY_SECONDS = 30.0


@dataclass
class SummaryHold:
    """People who have not yet pressed Continue on a round's summary; released when none is left."""

    waiting: set[Seat]
    released: asyncio.Event
    timeout: asyncio.TimerHandle | None = None

    def release(self) -> None:
        """Let the computer players go on."""
        self.waiting.clear()
        self.released.set()
        if self.timeout is not None:
            self.timeout.cancel()


@dataclass
class TableSettings:
    """How a table is run: trick pace in the page, the optional turn timer, takeovers during play."""

    #: How long a complete trick stays in the middle of the table, in milliseconds.
    pace_ms: int = DEFAULT_PACE_MS
    #: FEM V "tiempo de juego": seconds a person has for a move; ``None``: no timer.
    turn_seconds: float | None = None
    #: Whether someone with the link may take over a computer seat once the game has started.
    allow_takeover: bool = False


def settings_from(stored: dict[str, Any]) -> TableSettings:
    """Settings as stored with a table (missing or unknown fields: the defaults)."""
    defaults = TableSettings()
    pace = stored.get("pace_ms", defaults.pace_ms)
    seconds = stored.get("turn_seconds", defaults.turn_seconds)
    allow = stored.get("allow_takeover", defaults.allow_takeover)
    return TableSettings(pace if isinstance(pace, int) else defaults.pace_ms,
                         seconds if isinstance(seconds, int | float) else None, allow is True)


@dataclass
class TableSocial:
    """One table's settings, chat history, rate-limit clocks and rematch."""

    settings: TableSettings = field(default_factory=TableSettings)
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=CHAT_HISTORY))
    sent: dict[Seat, deque[float]] = field(default_factory=dict)
    rematch: str | None = None
    hold: SummaryHold | None = None
    #: Seats whose page shows round summaries (it said so): only they are waited for.
    readers: set[Seat] = field(default_factory=set)
    #: How many of the table's events were looked at for round ends (-1: none yet; a table rebuilt after
    #: a restart starts from its current events, so old rounds hold nothing).
    seen_events: int = -1
    #: Computer seats promised to people, handed over at the seat's next turn (``server/takeovers.py``).
    pending: dict[Seat, Any] = field(default_factory=dict)


class Social:
    """Settings, chat, reactions, summary holds and rematches of the manager's tables."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        #: Per table in memory (open, or in the cache of finished ones); dropped when the table leaves memory.
        self.tables: dict[str, TableSocial] = {}
        manager.registry.on_evict.append(self.forget)

    def forget(self, table_id: str) -> None:
        """The table left memory: its chat, promises and summary hold go with it."""
        social = self.tables.pop(table_id, None)
        if social is not None and social.hold is not None:
            social.hold.release()

    def of(self, table_id: str) -> TableSocial:
        """The social record of a table (created on first use, with the table's stored settings)."""
        social = self.tables.get(table_id)
        if social is None:
            live = self.manager.tables.get(table_id) or self.manager.finished.get(table_id)
            stored = live.stored.settings if live is not None else {}
            social = self.tables[table_id] = TableSocial(settings=settings_from(stored))
        return social

    def state(self, table: LiveTable) -> dict[str, Any]:
        """What a page loads on opening: settings, recent chat, the rematch table if there is one."""
        social = self.of(table.id)
        return {"settings": asdict(social.settings), "chat": list(social.chat), "rematch": social.rematch,
                "reactions": list(REACTIONS), "max_chat_chars": MAX_CHAT_CHARS,
                "pending": [{"seat": p.seat, "name": p.name} for p in social.pending.values()],
                "readers": sorted(social.readers)}

    # Settings.

    async def configure(self, table: LiveTable, token: str, changes: dict[str, Any]) -> TableSettings:
        """The host changes the table's settings; each field is checked, and stored with the table.

        Nothing changes on a refused value or a store failure (503).
        """
        self._require_host(table, token)
        current = self.of(table.id).settings
        pace = changes.get("pace_ms", current.pace_ms)
        seconds = changes.get("turn_seconds", current.turn_seconds)
        allow = changes.get("allow_takeover", current.allow_takeover)
        if not isinstance(pace, int) or isinstance(pace, bool) or not 0 <= pace <= 10_000:
            raise TableError(400, "pace_ms must be a whole number of milliseconds from 0 to 10000")
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, int | float)
                                    or not 0.2 <= seconds <= 600):
            raise TableError(400, "turn_seconds must be empty (no timer) or from 0.2 to 600 seconds")
        if not isinstance(allow, bool):
            raise TableError(400, "allow_takeover must be true or false")
        chosen = TableSettings(pace, seconds, allow)
        values = {**(table.stored.settings or {}), **asdict(chosen)}  # other keys (a tournament's game) stay
        # An open table's writes are fenced by its lease (only its driving process writes); a finished one's not.
        fence = table if table.status in ("waiting", "playing", "paused") else None
        if fence is not None and not table.owned:
            raise TableError(409, f"table {table.id} is driven by another server process; reload to reach it",
                             code="other_process", params={})
        store = self.manager.store
        await self.manager.write(lambda c: store.set_status(table.id, None, c, settings=values), fence)
        table.stored.settings = values
        self.of(table.id).settings = chosen
        self.broadcast(table, {"type": "settings", "settings": values})
        self.manager.refresh(table)  # a new timer applies from the move in play
        return chosen

    # Round summaries: the computer waits while people read them.

    def on_change(self, table: LiveTable) -> None:
        """After a change: a round or hand that just ended holds the computer players for its summary."""
        social = self.of(table.id)
        if social.pending and table.status not in ("playing", "paused"):
            cancel_promises(self, table, social)
        fresh = table.events[social.seen_events:] if social.seen_events >= 0 else []
        social.seen_events = len(table.events)
        if table.status != "playing" or not any(type(e).TYPE in SUMMARY_EVENTS for e in fresh):
            return
        people = {s for s in table.connected_seats() & social.readers
                  if table.stored.seats[s].kind == "human" and s not in table.covering}
        if not people:
            return
        if social.hold is not None:
            social.hold.release()
        hold = SummaryHold(people, asyncio.Event())
        hold.timeout = asyncio.get_running_loop().call_later(SUMMARY_SECONDS, hold.release)
        social.hold = hold

    def reads_summaries(self, table: LiveTable, token: str) -> None:
        """A seat's page shows round summaries: the computer will wait for its Continue."""
        seat = self.manager.seat_of(table, token)
        self.of(table.id).readers.add(seat)
        self._publish(table.id, {"what": "reader", "seat": seat})

    async def wait_for_readers(self, table: LiveTable) -> None:
        """Wait until everyone has pressed Continue on the summary on screen (or its time is up)."""
        hold = self.of(table.id).hold
        if hold is not None:
            await hold.released.wait()

    def read(self, table: LiveTable, token: str) -> None:
        """A person pressed Continue; the last one lets the computer players go on."""
        seat = self.manager.seat_of(table, token)
        self._publish(table.id, {"what": "read", "seat": seat})
        self._read(table.id, seat)

    def _read(self, table_id: str, seat: Seat) -> None:
        hold = self.of(table_id).hold
        if hold is None:
            return
        hold.waiting.discard(seat)
        if not hold.waiting:
            hold.release()

    # Chat and reactions.

    def say(self, table: LiveTable, token: str, text: str) -> dict[str, Any]:
        """A chat line from a seated person, length- and rate-limited, sent to the table and spectators."""
        seat = self.manager.seat_of(table, token)
        clean = " ".join(text.split())
        if not clean:
            raise TableError(400, "an empty message is not sent", code="chat_empty", params={})
        if len(clean) > MAX_CHAT_CHARS:
            raise TableError(400, f"a message may have at most {MAX_CHAT_CHARS} characters (this one has {len(clean)})",
                             code="chat_too_long", params={"max": str(MAX_CHAT_CHARS), "n": str(len(clean))})
        return self._post(table, seat, {"kind": "chat", "text": clean})

    def react(self, table: LiveTable, token: str, reaction: str) -> dict[str, Any]:
        """A quick reaction from a seated person (one of ``REACTIONS``)."""
        seat = self.manager.seat_of(table, token)
        if reaction not in REACTIONS:
            raise TableError(400, f"unknown reaction {reaction[:40]!r} (known: {', '.join(REACTIONS)})")
        return self._post(table, seat, {"kind": "reaction", "reaction": reaction})

    def announce(self, table: LiveTable, note: str, seat: Seat, who: str | None = None) -> None:
        """A line from the table itself (``note``: a message key such as ``timeout``) about a seat.

        ``who``: the person concerned when it is not the seat's holder (someone taking the seat over)."""
        line: dict[str, Any] = {"kind": "note", "note": note, "seat": seat, "name": table.stored.seats[seat].name,
                                "at": time.time()}
        if who is not None:
            line["who"] = who
        self.of(table.id).chat.append(line)
        self.broadcast(table, {"type": "chat", "line": line})

    def _post(self, table: LiveTable, seat: Seat, line: dict[str, Any]) -> dict[str, Any]:
        social = self.of(table.id)
        now = time.time()  # wall clock: lines relayed from other processes count too
        clock = social.sent.setdefault(seat, deque())
        lines, window = self.manager.limits.chat_lines, self.manager.limits.chat_window
        while clock and now - clock[0] > window:
            clock.popleft()
        if len(clock) >= lines:
            raise TableError(429, f"slow down: at most {lines} messages in {window:g} seconds",
                             code="chat_rate", params={"n": str(lines), "seconds": f"{window:g}"})
        clock.append(now)
        line = {**line, "seat": seat, "name": table.stored.seats[seat].name, "at": now}
        social.chat.append(line)
        self.broadcast(table, {"type": "chat", "line": line})
        return line

    # Rematch.

    async def rematch(self, table: LiveTable, token: str) -> tuple[LiveTable, str]:
        """A new game with the same seats, rules and host, and a new seed; started at once.

        Every person keeps their token: the new table accepts the tokens of the old one, so each page
        moves across by itself. A second request returns the rematch already made (and starts it if a
        store failure stopped it before the deal). The new table is one transaction: if the store fails,
        nothing is created and the caller gets a 503.
        """
        seat = self.manager.seat_of(table, token)
        if table.status != "finished":
            raise TableError(409, "a rematch can start once the game is finished", code="rematch_not_finished",
                             params={})
        social = self.of(table.id)
        if social.rematch is not None:
            made = await self.manager.find(social.rematch)
            if made.status == "waiting":
                await self.manager.start(made, token)
            return made, token
        old = table.stored
        host = old.seats[old.host_seat] if old.host_seat is not None else None
        host_seat = old.host_seat if host is not None and host.kind == "human" and host.token_hash else seat
        if host_seat != seat:
            raise TableError(403, "only the host (or, once the host has left, a player) can start a rematch",
                             code="rematch_host", params={})
        # The same seats (a bot account keeps its seat); a new game's lost decisions start at none.
        seats = [StoredSeat(s.index, s.kind, s.name, s.bot, s.token_hash, s.taken, s.account,
                            person=s.person if s.kind == "human" else None)
                 for s in old.seats]
        rated = {"rated": True} if (old.settings or {}).get("rated") else {}  # a rated table's rematch is rated
        stored = StoredTable(self.manager.new_table_id(), old.game, dict(old.options), secrets.randbelow(2**31),
                             "waiting", hash_token(token), old.preset, host_seat, seats,
                             settings={**asdict(social.settings), **rated})
        new = await self.manager.add_table(stored, table.game, table.options)
        social.rematch = new.id
        await self.manager.start(new, token)
        self.broadcast(table, {"type": "rematch", "table_id": new.id})
        return new, token

    # Helpers.

    def _require_host(self, table: LiveTable, token: str) -> None:
        if not secrets.compare_digest(hash_token(token), table.stored.host_token_hash):
            raise TableError(403, "only the host can change the table's settings", code="host_settings", params={})

    def _send_all(self, table: LiveTable, message: dict[str, Any]) -> None:
        for connection in list(table.connections):
            connection.send(message)

    # Several processes: what one process sends, the others' sockets get too.

    def broadcast(self, table: LiveTable, message: dict[str, Any]) -> None:
        """Send a message to every socket of the table, here and in the other server processes."""
        self._send_all(table, message)
        self._publish(table.id, {"what": "send", "message": message})

    def _publish(self, table_id: str, payload: dict[str, Any]) -> None:
        if self.manager.relay is not None:
            self.manager.relay(table_id, payload)

    def on_relay(self, table_id: str, payload: dict[str, Any]) -> None:
        """What another process relayed about a table shown here: kept like our own, sent to our sockets."""
        table = self.manager.tables.get(table_id) or self.manager.finished.get(table_id)
        if table is None:
            return  # not shown here: a page that opens it later gets the stored part from the store
        social = self.of(table_id)
        what = payload.get("what")
        if what == "reader":
            social.readers.add(int(payload["seat"]))
        elif what == "read":
            self._read(table_id, int(payload["seat"]))
        elif what == "send":
            message = dict(payload["message"])
            self._remember(table, social, message)
            self._send_all(table, message)

    def _remember(self, table: LiveTable, social: TableSocial, message: dict[str, Any]) -> None:
        """Keep what a relayed message changes: chat history and rate clocks, settings, the rematch."""
        kind = message.get("type")
        if kind == "chat":
            line = dict(message["line"])
            social.chat.append(line)
            if line.get("kind") != "note":
                social.sent.setdefault(int(line["seat"]), deque()).append(float(line["at"]))
        elif kind == "settings":
            table.stored.settings = dict(message["settings"])
            social.settings = settings_from(table.stored.settings)
        elif kind == "rematch":
            social.rematch = str(message["table_id"])
        elif kind == "takeover":
            seat = int(message["seat"])
            if message.get("done") or message.get("cancelled"):
                social.pending.pop(seat, None)


def cancel_promises(social: Social, table: LiveTable, state: TableSocial) -> None:
    """The game ended (or stopped) before a promised seat's turn: the promise lapses and its page is told."""
    for seat, promise in list(state.pending.items()):
        del state.pending[seat]
        social.broadcast(table, {"type": "takeover", "seat": seat, "name": promise.name, "done": False,
                                 "cancelled": True})
