"""The table manager: live tables, seats and tokens, accepted actions, computer players, takeovers.

Every method that changes a table runs on the event loop without awaiting in between, so each change is
atomic; an accepted action is committed to the store before any view of it is queued.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import re
import secrets
import zlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import cardtable
from cardtable.bots import bot_names, make_bot
from cardtable.core import DecodeError, GameRecord, IllegalAction, new_record, options_to_dict, replay, to_json
from cardtable.core.bot import Bot
from cardtable.core.types import Seat
from cardtable.server.live import AnyGame, Connection, LiveTable, TableError
from cardtable.server.schemas import CreateTable
from cardtable.server.views import ViewBuilder, default_bot
from cardtable.store import Store, StoredSeat, StoredTable, hash_token
from cardtable.store.models import utcnow

log = logging.getLogger("cardtable.server")
MAX_MESSAGE_BYTES = 64 * 1024


#: What a table id looks like (``secrets.token_urlsafe``); anything else is not looked up at all.
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


class TableManager:
    """Holds the live tables of one server and applies every change to them."""

    def __init__(self, store: Store, *, bot_delay: float = 0.6, takeover_after: float = 30.0,
                 games: Mapping[str, AnyGame] | None = None) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.takeover_after = takeover_after
        self.games: dict[str, AnyGame] = dict(games) if games is not None else cardtable.all_games()
        self.tables: dict[str, LiveTable] = {}
        #: Called after every change of a table (the turn timer of ``table_api`` hooks in here).
        self.on_change: list[Callable[[LiveTable], None]] = []
        #: Awaited before each computer move (``table_api``: wait while people read a round's summary).
        self.before_computer_move: list[Callable[[LiveTable], Awaitable[None]]] = []

    # Start and stop.

    def load_open_tables(self) -> None:
        """Rebuild every waiting or playing table from the store by replaying its record."""
        for stored in self.store.load_open():
            try:
                self.tables[stored.id] = self._rebuild(stored)
            except Exception:  # a table that no longer replays must not keep the server down
                log.exception("cannot resume table %s (%s)", stored.id, stored.game)

    def resume(self) -> None:
        """Start the computer players and takeover timers of the loaded tables (needs the event loop)."""
        for table in self.tables.values():
            if table.status == "playing":
                for seat in self._absent_people(table):
                    self._start_timer(table, seat)
                self._kick(table)

    async def shutdown(self) -> None:
        """Stop every background task and close the connections' writers."""
        tasks: list[asyncio.Task[None]] = []
        for table in self.tables.values():
            tasks.extend(table.timers.values())
            if table.driver is not None:
                tasks.append(table.driver)
            for connection in table.connections:
                connection.send_close()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # Lobby.

    def game(self, name: str) -> AnyGame:
        """A registered game; 400 if unknown."""
        if name not in self.games:
            raise TableError(400, f"unknown game {name!r} (known: {', '.join(self.games)})")
        return self.games[name]

    def find(self, table_id: str) -> LiveTable:
        """A table in memory, or a finished one rebuilt from the store; 404 if there is none."""
        table = self.tables.get(table_id)
        if table is not None and table.status != "abandoned":
            return table
        stored = self.store.load(table_id) if TABLE_ID.fullmatch(table_id) else None
        if stored is None or stored.status == "abandoned":
            raise TableError(404, f"no table {table_id!r}"[:100])
        try:
            table = self._rebuild(stored)
        except Exception as exc:  # stored by another version of a game, say: report, do not crash
            log.exception("cannot rebuild table %s", table_id)
            raise TableError(409, f"table {table_id} cannot be rebuilt: {exc}".splitlines()[0]) from None
        self.tables[table_id] = table
        return table

    def open_tables(self) -> list[LiveTable]:
        """Waiting and playing tables, newest first."""
        live = [t for t in self.tables.values() if t.status in ("waiting", "playing")]
        return sorted(live, key=lambda t: t.stored.created_at, reverse=True)

    def create(self, body: CreateTable) -> tuple[LiveTable, Seat | None, str]:
        """A new waiting table; returns it with the host's seat and token."""
        game = self.game(body.game)
        options, seats = self._setup(game, body)
        token = secrets.token_urlsafe(24)
        host_seat = next((s.index for s in seats if s.kind == "human"), None)
        if host_seat is not None:
            seats[host_seat].name, seats[host_seat].taken = body.name, True
            seats[host_seat].token_hash = hash_token(token)
        seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
        stored = StoredTable(self._new_id(), game.info.name, options_to_dict(options), seed, "waiting",
                             hash_token(token), body.preset, host_seat, seats)
        self.store.create_table(stored)
        table = LiveTable(stored, game, options)
        self.tables[table.id] = table
        return table, host_seat, token

    def join(self, table: LiveTable, seat: int, name: str) -> str:
        """Give a free human seat to a person; returns the seat's new token."""
        if table.status != "waiting":
            raise TableError(409, f"table {table.id} is {table.status}: seats can be taken only before the start")
        target = self._seat(table, seat)
        if target.kind != "human":
            raise TableError(409, f"seat {seat} is a computer player's seat")
        if target.taken:
            raise TableError(409, f"seat {seat} is taken")
        token = secrets.token_urlsafe(24)
        target.name, target.taken, target.token_hash = name, True, hash_token(token)
        self._save_seats(table)
        self.broadcast(table)
        return token

    def leave(self, table: LiveTable, token: str) -> None:
        """Give up a seat: freed before the start, handed to the computer during play."""
        seat = self._seat_by_token(table, token)
        if table.status == "waiting":
            self._leave_waiting(table, seat)
        elif table.status == "playing":
            self._hand_to_computer(table, seat)
        else:
            raise TableError(409, f"table {table.id} is {table.status}")
        for connection in table.connections:
            if connection.seat == seat:
                connection.seat = None  # the socket stays, as a spectator
        self.broadcast(table)
        self._kick(table)

    def start(self, table: LiveTable, token: str) -> None:
        """Deal: host only, while waiting; free human seats become computer players."""
        if not secrets.compare_digest(hash_token(token), table.stored.host_token_hash):
            raise TableError(403, "only the host can start the table")
        if table.status != "waiting":
            raise TableError(409, f"table {table.id} is {table.status}, not waiting")
        for seat in table.stored.seats:
            if seat.kind == "human" and not seat.taken:
                seat.kind, seat.bot, seat.taken = "bot", default_bot(table.game), True
                seat.name = _bot_name(seat.bot, seat.index)
        table.state, table.events = table.game.new(table.options, table.stored.seed)
        table.record = new_record(table.game, table.options, table.stored.seed)
        table.stored.status = "playing"
        self._save_seats(table)
        for seat_index in self._absent_people(table):
            self._start_timer(table, seat_index)
        self.broadcast(table)
        self._kick(table)

    def record(self, table: LiveTable) -> dict[str, Any]:
        """The finished game's record as JSON; 409 before the end (a record reveals every hand)."""
        if table.status != "finished" or table.record is None:
            raise TableError(409, "the record is available once the game is finished")
        data = table.record.to_json()
        data["notes"] = [f"table {table.id}"] + [
            f"seat {s.index}: {s.name} ({f'{s.bot} bot' if s.kind == 'bot' else 'human'})"
            for s in table.stored.seats]
        return data

    # Connections.

    def connect(self, table: LiveTable, token: str | None) -> Connection:
        """A new connection holding the token's seat (or spectating); it gets its first view."""
        seat = None if not token else table.seat_of_token(hash_token(token))
        connection = Connection(seat)
        table.connections.add(connection)
        if seat is not None:
            self._returned(table, seat)
        self.broadcast(table)
        self._kick(table)
        return connection

    def disconnect(self, table: LiveTable, connection: Connection) -> None:
        """Forget a closed connection; a person's seat starts its takeover timer."""
        table.connections.discard(connection)
        seat = connection.seat
        if seat is not None and table.status == "playing" and seat not in table.connected_seats():
            self._start_timer(table, seat)
        self.broadcast(table)

    def handle(self, table: LiveTable, connection: Connection, text: str | bytes | None) -> None:
        """One client message: an action, a ping, or something refused with an error message."""
        try:
            message = _parse_message(text)
            if message["type"] == "ping":
                connection.send({"type": "pong"})
            else:
                self._act(table, connection, message)
        except TableError as exc:
            connection.send({"type": "error", "message": exc.message})
        except Exception:  # a bug or a database failure: log it, tell the client, keep the socket
            log.exception("message at table %s failed", table.id)
            connection.send({"type": "error", "message": "the server failed to handle that message; "
                                                         "nothing changed"})

    def broadcast(self, table: LiveTable) -> None:
        """Queue each connection's own view of the table as it is now."""
        builder = ViewBuilder(table)
        for connection in list(table.connections):
            try:
                connection.send(builder.view(connection))
            except Exception:  # a view that cannot be built is a bug; it must not undo an accepted action
                log.exception("cannot build the view of table %s for seat %s", table.id, connection.seat)
                connection.send({"type": "error", "message": "the server could not build your view"})

    # Actions.

    def _act(self, table: LiveTable, connection: Connection, message: dict[str, Any]) -> None:
        seat = connection.seat
        if seat is None:
            raise TableError(403, "spectators cannot act")
        if table.status != "playing":
            raise TableError(409, f"the table is {table.status}")
        version = message.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise TableError(400, 'an action needs the integer "version" it was chosen on')
        if version != table.version:
            raise TableError(409, f"stale version {version}: the table is at version {table.version}")
        if seat != table.to_act:
            raise TableError(409, f"it is not your turn (seat {table.to_act} is to act)")
        try:
            action = table.game.action_codec.decode(message.get("action"))
        except DecodeError as exc:
            raise TableError(400, f"bad action: {exc}") from None
        self._accept(table, seat, action)

    def _accept(self, table: LiveTable, seat: Seat, action: Any) -> None:
        """Apply, store, then tell everyone; an illegal action changes nothing."""
        try:
            state, events = table.game.apply(table.state, seat, action)
        except IllegalAction as exc:
            raise TableError(409, str(exc)) from None
        status = "finished" if table.game.outcome(state) is not None else "playing"
        # Committed before any view goes out: nothing accepted is ever lost.
        self.store.append_action(table.id, table.version, seat, to_json(action), status)
        assert table.record is not None
        table.state, table.record = state, table.record.with_action(seat, action)
        table.events.extend(events)
        table.stored.status, table.stored.updated_at = status, utcnow()
        if status == "finished":
            self._cancel_timers(table)
            table.covering.clear()
        self.broadcast(table)
        self._kick(table)

    # Computer players.

    def _kick(self, table: LiveTable) -> None:
        """Make sure a driver task runs while the computer must act at this table; run the change hooks."""
        for hook in self.on_change:
            hook(table)
        if table.computer_to_act() is None or (table.driver is not None and not table.driver.done()):
            return
        table.driver = asyncio.get_running_loop().create_task(self._drive(table))

    async def _drive(self, table: LiveTable) -> None:
        """Play the computer's turns, one at a time, after the configured delay."""
        while (seat := table.computer_to_act()) is not None:
            version = table.version
            for wait in self.before_computer_move:
                await wait(table)
            await asyncio.sleep(self.bot_delay)
            if table.version != version or table.computer_to_act() != seat:
                continue  # someone else acted, or the person came back
            state = table.state
            observation = table.game.observe(state, seat)
            legal = table.game.legal_actions(state, seat)
            action = await asyncio.to_thread(_choose, self._bot(table, seat), observation, legal)
            if table.version != version or table.computer_to_act() != seat:
                continue
            try:
                self._accept(table, seat, action)
            except Exception:  # a failing bot or store must not end the table's driver silently
                log.exception("computer player failed at table %s seat %s", table.id, seat)
                return

    def _bot(self, table: LiveTable, seat: Seat) -> Bot:
        if seat not in table.bots:
            stored = table.stored.seats[seat]
            name = stored.bot if stored.kind == "bot" and stored.bot else default_bot(table.game)
            # From the deal seed only, so a table created with a seed replays the same game.
            seed = zlib.crc32(f"{table.stored.seed}:{seat}".encode())
            table.bots[seat] = make_bot(table.game, name, seed)
        return table.bots[seat]

    # Takeover of absent people.

    def _absent_people(self, table: LiveTable) -> list[Seat]:
        connected = table.connected_seats()
        return [s.index for s in table.stored.seats if s.kind == "human" and s.index not in connected]

    def _start_timer(self, table: LiveTable, seat: Seat) -> None:
        if seat in table.timers or seat in table.covering:
            return
        table.timers[seat] = asyncio.get_running_loop().create_task(self._take_over_later(table, seat))

    async def _take_over_later(self, table: LiveTable, seat: Seat) -> None:
        """After the takeover time, the computer plays for a person who is still away."""
        await asyncio.sleep(self.takeover_after)
        table.timers.pop(seat, None)
        if table.status == "playing" and seat not in table.connected_seats():
            table.covering.add(seat)
            self.broadcast(table)
            self._kick(table)

    def _returned(self, table: LiveTable, seat: Seat) -> None:
        """A person is back: stop the timer and take the seat back from the computer."""
        timer = table.timers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        table.covering.discard(seat)

    def _cancel_timers(self, table: LiveTable) -> None:
        for timer in table.timers.values():
            timer.cancel()
        table.timers.clear()

    # Seats.

    def _setup(self, game: AnyGame, body: CreateTable) -> tuple[Any, list[StoredSeat]]:
        """Parse the options and lay out the seats; 400 for anything that does not fit the game."""
        values = dict(body.options)
        if body.seats is not None:
            if "players" in values and str(values["players"]) != str(len(body.seats)):
                raise TableError(400, f"options say {values['players']} players but {len(body.seats)} seats "
                                      "were given")
            values["players"] = len(body.seats)
        options = _parse_options(game, values, body.preset)
        specs = body.seats
        players = int(options.players)
        kinds = [(s.kind, s.bot) for s in specs] if specs else [("human", None)] + [("bot", None)] * (players - 1)
        known = bot_names(game)
        seats = []
        for index, (kind, bot) in enumerate(kinds):
            if kind == "bot":
                bot = bot or default_bot(game)
                if bot not in known:
                    raise TableError(400, f"no computer player {bot!r} for {game.info.title} "
                                          f"(known: {', '.join(known)})")
                seats.append(StoredSeat(index, "bot", _bot_name(bot, index), bot, None, True))
            else:
                seats.append(StoredSeat(index, "human"))
        return options, seats

    def _seat(self, table: LiveTable, seat: int) -> StoredSeat:
        if not 0 <= seat < len(table.stored.seats):
            raise TableError(400, f"no seat {seat}: the table has seats 0–{len(table.stored.seats) - 1}")
        return table.stored.seats[seat]

    def _seat_by_token(self, table: LiveTable, token: str) -> Seat:
        seat = table.seat_of_token(hash_token(token))
        if seat is None:
            raise TableError(403, "this token holds no seat at this table")
        return seat

    def _leave_waiting(self, table: LiveTable, seat: Seat) -> None:
        target = table.stored.seats[seat]
        target.name, target.taken, target.token_hash = "", False, None
        status = "abandoned" if seat == table.stored.host_seat else None
        if status:
            table.stored.status = status
            self.tables.pop(table.id, None)  # gone from the lobby; its sockets get one last view
        self._save_seats(table, status)

    def _hand_to_computer(self, table: LiveTable, seat: Seat) -> None:
        target = table.stored.seats[seat]
        bot = default_bot(table.game)
        target.kind, target.bot, target.token_hash = "bot", bot, None
        target.name = f"{target.name} (now {bot} bot)"[:64]
        self._returned(table, seat)
        table.bots.pop(seat, None)
        self._save_seats(table)

    def _save_seats(self, table: LiveTable, status: str | None = None) -> None:
        self.store.save_seats(table.id, table.stored.seats, status or table.stored.status)
        table.stored.updated_at = utcnow()

    def _new_id(self) -> str:
        while True:
            table_id = secrets.token_urlsafe(6)
            if table_id not in self.tables and not self.store.exists(table_id):
                return table_id

    def _rebuild(self, stored: StoredTable) -> LiveTable:
        """A live table from its stored form: the record's actions are replayed through the engine."""
        game = self.game(stored.game)
        options = game.options(stored.options)
        table = LiveTable(stored, game, options)
        if stored.status in ("playing", "finished"):
            actions = tuple((seat, game.action_codec.decode(data)) for seat, data in stored.actions)
            table.record = GameRecord(game.info.name, options_to_dict(options), stored.seed, actions)
            table.state, table.events = replay(game, table.record)
        return table


def _parse_options(game: AnyGame, values: dict[str, Any], preset: str | None) -> Any:
    try:
        return game.options(values, preset=preset)
    except (ValueError, TypeError) as exc:  # InvalidOptions is a ValueError
        raise TableError(400, f"invalid options: {exc}") from None


def _parse_message(text: str | bytes | None) -> dict[str, Any]:
    """A client message as a JSON object with a known ``type``; TableError otherwise."""
    if not isinstance(text, str):
        raise TableError(400, "binary messages are not accepted: send JSON text")
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise TableError(413, f"message too large (limit {MAX_MESSAGE_BYTES} bytes)")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise TableError(400, "message is not valid JSON") from None
    if not isinstance(message, dict):
        raise TableError(400, "message must be a JSON object")
    kind = message.get("type")
    if kind not in ("action", "ping"):
        raise TableError(400, f"unknown message type {kind!r} (known: action, ping)"[:200])
    return message


def _choose(bot: Bot, observation: Any, legal: Sequence[Any]) -> Any:
    """The bot's choice, or a random legal action if the bot fails or picks something illegal."""
    try:
        action = bot.act(observation, legal)
    except Exception:
        log.exception("bot %s failed; playing a random legal action", getattr(bot, "name", bot))
        return random.choice(legal)
    return action if action in legal else random.choice(legal)


def _bot_name(bot: str, seat: int) -> str:
    return f"Computer {seat + 1} ({bot})"
