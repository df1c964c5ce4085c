"""The seats of a table: laid out at creation, found by number or token, the host checked, and people
joining before the start or leaving (freed before the start, handed to the computer during play)."""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy.engine import Connection as DbConnection

from cardtable.bots import bot_names, make_bot
from cardtable.core.types import Seat
from cardtable.server.absence import Absence
from cardtable.server.changes import Changes
from cardtable.server.commits import GroupCommit
from cardtable.server.limits import excerpt
from cardtable.server.live import AnyGame, LiveTable, TableError
from cardtable.server.registry import TableRegistry
from cardtable.server.schemas import CreateTable
from cardtable.server.statuses import ABANDONED, PAUSED, PLAYING, WAITING
from cardtable.server.storage import TableStorage
from cardtable.server.views import default_bot
from cardtable.store import StoredSeat, hash_token
from cardtable.store.models import utcnow


class Seating:
    """People taking and giving up seats; each change one transaction, applied in memory once committed."""

    def __init__(self, registry: TableRegistry, storage: TableStorage, changes: Changes, absence: Absence,
                 commits: GroupCommit) -> None:
        self.registry = registry
        self.storage = storage
        self.changes = changes
        self.absence = absence
        self.commits = commits

    async def join(self, table: LiveTable, seat: int, name: str, token_hash: str, person: int | None = None) -> None:
        """Give the free human seat ``seat`` to a person holding ``token_hash`` (before the start only);
        ``person``: their account (a rated table takes only signed-in people, each at one seat)."""
        async with table.lock:
            if table.status != WAITING:
                raise TableError(409, f"table {table.id} is {table.status}: seats can be taken only before the "
                                      "start", code="seats_before_start", params={"status": table.status})
            target = seat_at(table, seat).copy()
            if target.kind == "remote":
                raise TableError(409, f"seat {seat} is held by the bot {target.name}; only the host can free it "
                                      "(Remove the bot)", code="seat_is_bot",
                                 params={"seat": seat, "name": target.name})
            if target.kind != "human":
                raise TableError(409, f"seat {seat} is a computer player's seat", code="seat_is_computer",
                                 params={"seat": seat})
            if target.taken:
                raise TableError(409, f"seat {seat} is taken", code="seat_taken", params={"seat": seat})
            if (table.stored.settings or {}).get("rated"):
                if person is None:
                    raise TableError(403, "this table is rated: sign in to take a seat", code="rated_sign_in",
                                     params={})
                if any(s.person == person for s in table.stored.seats):
                    raise TableError(409, "you already hold a seat at this rated table", code="rated_one_seat",
                                     params={})
            target.name, target.taken, target.token_hash, target.person = name, True, token_hash, person
            store = self.registry.store
            await self.storage.write(lambda c: store.save_seats(table.id, [target], None, c), table)
            table.stored.seats[seat] = target
            table.stored.updated_at = utcnow()
            self.changes.changed(table)

    async def leave(self, table: LiveTable, token_hash: str) -> None:
        """Give up the seat ``token_hash`` holds: freed before the start (the host abandons the table), handed
        to the computer during play."""
        async with table.lock:
            await self.commits.settle(table)
            seat = seat_by_hash(table, token_hash)
            target = table.stored.seats[seat].copy()
            status = None
            if table.status == WAITING:
                target.name, target.taken, target.token_hash = "", False, None
                status = ABANDONED if seat == table.stored.host_seat else None
            elif table.status in (PLAYING, PAUSED):
                bot = default_bot(table.game, table.options)
                target.kind, target.bot, target.token_hash = "bot", bot, None
                target.name = f"{target.name} (now {bot} bot)"[:64]
            else:
                raise TableError(409, f"table {table.id} is {table.status}", code="table_status",
                                 params={"status": table.status})
            store, owner = self.registry.store, self.registry.owner
            def work(c: DbConnection) -> None:
                store.save_seats(table.id, [target], status, c)
                if status == ABANDONED:
                    store.release(owner, [table.id], c)
            await self.storage.write(work, table)
            table.stored.seats[seat] = target
            table.stored.updated_at = utcnow()
            if target.kind == "bot":
                self.absence.returned(table, seat)
                table.bots.pop(seat, None)
            for connection in table.connections:
                if connection.seat == seat:
                    connection.seat = None  # the socket stays, as a spectator
            if status == ABANDONED:
                table.stored.status = ABANDONED
                self.changes.changed(table)
                self.registry.forget(table)  # gone from the lobby; its sockets get one last view
                return
            self.changes.changed(table)
            self.changes.kick(table)


def layout(game: AnyGame, body: CreateTable) -> tuple[Any, list[StoredSeat]]:
    """Parse the options and lay out the seats; 400 for anything that does not fit the game."""
    values = dict(body.options)
    if body.seats is not None:
        if "players" in values and str(values["players"]) != str(len(body.seats)):
            raise TableError(400, f"options say {excerpt(values['players'], 20)} players but "
                                  f"{len(body.seats)} seats were given")
        values["players"] = len(body.seats)
    options = _parse_options(game, values, body.preset)
    specs = body.seats
    players = int(options.players)
    kinds = [(s.kind, s.bot) for s in specs] if specs else [("human", None)] + [("bot", None)] * (players - 1)
    known = bot_names(game)
    seats = []
    for index, (kind, bot) in enumerate(kinds):
        if kind == "bot":
            bot = bot or default_bot(game, options)
            if bot not in known:
                raise TableError(400, f"no computer player {excerpt(bot, 40)!r} for {game.info.title} "
                                      f"(known: {', '.join(known)})")
            try:
                make_bot(game, bot, options=options)  # a bot that plays only some option sets refuses the others
            except ValueError as exc:
                raise TableError(400, str(exc)) from None
            seats.append(StoredSeat(index, "bot", bot_name(bot, index), bot, None, True))
        else:
            seats.append(StoredSeat(index, "human"))
    return options, seats


def seat_at(table: LiveTable, seat: int) -> StoredSeat:
    """The stored seat number ``seat`` of a table; 400 if the table has no such seat."""
    if not 0 <= seat < len(table.stored.seats):
        raise TableError(400, f"no seat {seat}: the table has seats 0–{len(table.stored.seats) - 1}",
                         code="no_seat", params={"seat": seat})
    return table.stored.seats[seat]


def seat_by_token(table: LiveTable, token: str) -> Seat:
    """The seat a token holds at this table; 403 if none."""
    return seat_by_hash(table, hash_token(token))


def seat_by_hash(table: LiveTable, token_hash: str) -> Seat:
    """The seat a token's hash holds at this table; 403 if none."""
    seat = table.seat_of_token(token_hash)
    if seat is None:
        raise TableError(403, "this token holds no seat at this table", code="no_token_seat", params={})
    return seat


def check_host(table: LiveTable, token_hash: str) -> None:
    """Nothing if ``token_hash`` is the host's; 403 otherwise."""
    if not secrets.compare_digest(token_hash, table.stored.host_token_hash):
        raise TableError(403, "only the host can do that", code="host_only", params={})


def bot_name(bot: str, seat: int) -> str:
    """The name a computer player's seat shows."""
    return f"Computer {seat + 1} ({bot})"


def _parse_options(game: AnyGame, values: dict[str, Any], preset: str | None) -> Any:
    try:
        return game.options(values, preset=preset)
    except (ValueError, TypeError) as exc:  # InvalidOptions is a ValueError
        raise TableError(400, f"invalid options: {excerpt(exc, 160)}") from None
