"""Taking over a computer seat (seed 004: people who join take over computer players): at once before the
start or at the seat's turn, else promised and handed over when its next turn begins (the table told both times)."""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass

from cardtable.core.types import Seat
from cardtable.server.live import LiveTable, TableError
from cardtable.server.manager import TableManager
from cardtable.server.social import Social
from cardtable.store import StoredSeat, hash_token

log = logging.getLogger("cardtable.server")


@dataclass
class PendingTakeover:
    """A person who asked for a computer seat during play: it becomes theirs when its next turn begins."""

    seat: Seat
    name: str
    token_hash: str



def refuse_held(seat: StoredSeat, *, dealt: bool) -> None:
    """Nothing if ``seat`` may be taken; 409 if a bot account holds it (connected or away: the host may remove the
    bot) or, once the game is dealt, a person does (away or not: the computer only covers for them until they
    return). Before the deal a person's taken seat is refused by ``join`` ("seat N is taken")."""
    if seat.kind == "remote":
        raise TableError(409, f"seat {seat.index} is held by the bot {seat.name}, connected or away; only the host "
                              "can free it (Remove the bot)", code="seat_is_bot",
                         params={"seat": seat.index, "name": seat.name})
    if seat.kind == "human" and seat.taken and dealt:
        raise TableError(409, f"seat {seat.index} is held by {seat.name}; it stays theirs while they are away",
                         code="seat_held", params={"seat": seat.index, "name": seat.name})


class Takeovers:
    """People taking over computer seats at the manager's tables (the promises live in ``Social``'s records)."""

    def __init__(self, manager: TableManager, social: Social) -> None:
        self.manager = manager
        self.social = social

    async def take_seat(self, table: LiveTable, seat: int, name: str) -> tuple[str, bool]:
        """A person takes a computer seat (or a free one); during play only if the host allows it.

        Before the start, and during play when it is that seat's turn, the seat is the person's at once.
        Otherwise the computer keeps playing it and hands it over when its next turn begins (the table is
        told both times); the token returned holds the seat from then on. Returns the token and whether the
        seat is only promised so far. One transaction: if the store fails, the seat stays the computer's and
        the caller gets a 503.
        """
        target = self.manager.seat_at(table, seat)
        refuse_held(target, dealt=table.status != "waiting")
        if target.kind == "human":
            return await self.manager.join(table, seat, name), False
        if not table.owned:
            raise TableError(409, f"table {table.id} is driven by another server process; reload to reach it",
                             code="other_process", params={})
        token = secrets.token_urlsafe(24)
        async with table.lock:
            target = self.manager.seat_at(table, seat)
            social = self.social.of(table.id)
            refuse_held(target, dealt=table.status != "waiting")
            if target.kind == "human":
                raise TableError(409, f"seat {seat} was just taken", code="seat_taken", params={"seat": seat})
            if seat in social.pending:
                raise TableError(409, f"seat {seat} is promised to {social.pending[seat].name} at its next turn",
                                 code="seat_promised", params={"seat": seat, "name": social.pending[seat].name})
            if table.status == "playing" and not social.settings.allow_takeover:
                raise TableError(409, "the host does not let people take over computer seats during the game",
                                 code="no_takeover", params={})
            if table.status not in ("waiting", "playing"):
                raise TableError(409, f"table {table.id} is {table.status}", code="table_status",
                                 params={"status": table.status})
            promise = PendingTakeover(seat, name, hash_token(token))
            if table.status == "playing" and table.to_act != seat:
                social.pending[seat] = promise
                self.social.announce(table, "takeover_pending", seat, who=name)
                self.social.broadcast(table, {"type": "takeover", "seat": seat, "name": name, "done": False})
                return token, True
            await self._hand_over(table, promise)
        return token, False

    def no_takeover_pending(self, table: LiveTable) -> bool:
        """Whether no seat of ``table`` is promised to a person (then computer moves may run ahead)."""
        social = self.social.tables.get(table.id)
        return social is None or not social.pending

    async def hand_over_due(self, table: LiveTable) -> None:
        """Before a computer move: a seat promised to a person becomes theirs now that its turn has come."""
        seat = table.computer_to_act()
        if seat is None or seat not in self.social.of(table.id).pending:
            return
        async with table.lock:
            promise = self.social.of(table.id).pending.get(seat)
            if promise is None or table.to_act != seat or table.stored.seats[seat].kind != "bot" or not table.owned:
                return
            try:
                await self._hand_over(table, promise)
            except TableError as exc:  # the store is down: the computer plays this turn; next turn, again
                log.warning("takeover of seat %s at table %s waits: %s", seat, table.id, exc.message)

    async def _hand_over(self, table: LiveTable, promise: PendingTakeover) -> None:
        """The seat becomes the person's (the caller holds the table's lock): stored, then shown."""
        seat = promise.seat
        taken = table.stored.seats[seat].copy()
        computer = taken.name
        taken.kind, taken.bot, taken.name = "human", None, promise.name
        taken.taken, taken.token_hash = True, promise.token_hash
        store = self.manager.store
        await self.manager.write(lambda c: store.save_seats(table.id, [taken], None, c), table)
        table.stored.seats[seat] = taken
        table.bots.pop(seat, None)
        self.social.of(table.id).pending.pop(seat, None)
        if table.status == "playing":
            # Until the person's page connects, the absence timer covers the seat as for anyone away.
            self.manager.start_absence_timer(table, seat)
            self.social.announce(table, "takeover_done", seat, who=computer)
            self.social.broadcast(table, {"type": "takeover", "seat": seat, "name": promise.name, "done": True})
        self.manager.changed(table)

