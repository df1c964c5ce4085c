"""Bot seats at the tables this process drives: the decision clock, lost decisions and their fallback, the
forfeit rule, and handing a computer seat to a bot account (or back).

The rules are the runner's (``cardtable.runner.FAILURE_KINDS``): every decision a bot does not answer
legally in time is played by the seat's computer player at once, recorded under its kind and told to the
table; past ``max_failures`` lost decisions, or once its game time is spent, the seat is forfeited and the
computer plays it to the end of the game. Lost decisions are stored with the seat (``StoredSeat.failures``),
so a restart or another process taking the table over keeps them. Everything here runs at the table's
owner; the process a bot is connected to reaches it through named operations (``bot_action``,
``bot_failure``, ``bot_seat``, ``bot_release``), forwarded like a person's move.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from cardtable.arena.protocol import ProtocolError, parse_action
from cardtable.core import to_json
from cardtable.core.types import Seat
from cardtable.server.botapi.settings import BotApiSettings
from cardtable.server.commits import AWAY
from cardtable.server.limits import excerpt
from cardtable.server.live import LiveTable, TableError
from cardtable.server.manager import TableManager
from cardtable.server.seats import bot_name
from cardtable.server.social import Social
from cardtable.server.statuses import PLAYING, WAITING
from cardtable.store.accounts import BotAccounts
from cardtable.store.models import utcnow

log = logging.getLogger("cardtable.server")
#: Failure kinds a bridge may report for its program (the others the server finds itself).
REPORTED_KINDS = ("timeout", "malformed", "crashed", "protocol")


def is_remote(table: LiveTable, seat: Seat | None) -> bool:
    """Whether ``seat`` is held by a bot account over the Bot API."""
    return seat is not None and 0 <= seat < len(table.stored.seats) and table.stored.seats[seat].kind == "remote"


def bot_deciding(table: LiveTable) -> Seat | None:
    """The seat to act if its bot (not the computer) must decide now.

    At a table another process drives, what this process knows is the stored seat: a forfeited seat is
    the computer's; one the owner covers is a seat whose bot is not connected anywhere, so not here."""
    seat = table.to_act
    if table.status != PLAYING or seat is None or not is_remote(table, seat) or table.computer_to_act() is not None:
        return None
    if table.stored.seats[seat].failures.get("forfeited"):
        return None
    return seat


@dataclass
class Clock:
    """The running decision of one table's bot seat: which version, when the bot was asked."""

    version: int
    seat: Seat
    task: asyncio.Task[None] | None = None
    #: ``time.monotonic()`` when the decision was put to the bot (after the table's pace); ``None`` before.
    asked: float | None = None


@dataclass
class SeatTime:
    """Thinking time a bot seat spent this game (kept in memory by the owner)."""

    spent: dict[Seat, float] = field(default_factory=dict)


class RemoteSeats:
    """The owner's side of bot seats: clocks, lost decisions, forfeits, handover and release."""

    def __init__(self, manager: TableManager, social: Social, settings: BotApiSettings) -> None:
        self.manager = manager
        self.social = social
        self.settings = settings
        self.accounts = BotAccounts(manager.store.engine)
        self.clocks: dict[str, Clock] = {}
        self.times: dict[str, SeatTime] = {}
        self._spawned: set[asyncio.Task[Any]] = set()
        manager.on_change.append(self.on_change)
        manager.operations.extra.update({"bot_action": self.decide, "bot_failure": self.failed,
                                         "bot_seat": self.seat_bot, "bot_release": self.release})

    # Time.

    def pace(self, table: LiveTable) -> float:
        """Seconds after a turn begins before a bot is asked (the pace of the table's computer players: none at a
        table of programs nobody watches)."""
        return self.manager.driver.pace(table)

    def game_left(self, table: LiveTable, seat: Seat) -> float:
        """Thinking time the seat has left this game."""
        spent = self.times.get(table.id, SeatTime()).spent.get(seat, 0.0)
        return max(0.0, self.settings.game_time - spent)

    def decision_limit(self, table: LiveTable, seat: Seat) -> float:
        """Seconds the seat has for the decision now."""
        return min(self.settings.decision, self.game_left(table, seat))

    def on_change(self, table: LiveTable) -> None:
        """After any change: time the bot that must decide now (here, if this process drives the table)."""
        seat = bot_deciding(table) if table.owned else None
        current = self.clocks.get(table.id)
        if current is not None and seat == current.seat and current.version == table.version:
            return
        if current is not None:
            del self.clocks[table.id]
            if current.task is not None:
                current.task.cancel()
            dropped = (current.asked is not None and current.version == table.version and current.seat == table.to_act
                       and current.seat in table.covering)
            if dropped:  # its connection went while it was deciding: that decision is lost (the computer plays)
                self._spawn(self._lose(table, current.seat, current.version, "crashed",
                                       "the connection dropped during the decision"))
        if seat is None:
            if table.status not in (PLAYING, "paused", WAITING):
                self.times.pop(table.id, None)
            return
        clock = Clock(table.version, seat)
        clock.task = asyncio.get_running_loop().create_task(self._expire(table, clock))
        self.clocks[table.id] = clock

    async def _expire(self, table: LiveTable, clock: Clock) -> None:
        """The decision's time: after the table's pace the bot is asked; if it has not answered in time, lost."""
        await self.social.wait_for_readers(table)
        await asyncio.sleep(self.pace(table))
        clock.asked = time.monotonic()
        limit = self.decision_limit(table, clock.seat)
        await asyncio.sleep(limit)
        if self.clocks.get(table.id) is not clock or table.version != clock.version:
            return
        self._add_time(table, clock.seat, limit)
        spent = self.game_left(table, clock.seat) <= 0
        detail = (f"game time of {self.settings.game_time:g}s spent" if spent
                  else f"no answer within {limit:.3g}s")
        await self._lose(table, clock.seat, clock.version, "timeout", detail, forfeit=spent)

    def _add_time(self, table: LiveTable, seat: Seat, seconds: float) -> None:
        spent = self.times.setdefault(table.id, SeatTime()).spent
        spent[seat] = spent.get(seat, 0.0) + seconds

    def _answered(self, table: LiveTable, seat: Seat, version: int) -> None:
        clock = self.clocks.get(table.id)
        if clock is not None and clock.version == version and clock.seat == seat and clock.asked is not None:
            self._add_time(table, seat, time.monotonic() - clock.asked)

    # Decisions (named operations: they run here when this process drives the table).

    async def decide(self, table: LiveTable, operation: dict[str, Any]) -> dict[str, Any]:
        """A bot's ``action`` for ``seat`` at decision ``version``: played, or lost (malformed, illegal)."""
        await self._settle(table)
        seat, version = self._check_turn(table, operation)
        message = operation.get("message")
        if not isinstance(message, dict):
            raise TableError(400, "an action needs its message")
        legal = table.game.legal_actions(table.state, seat)
        try:
            action = parse_action(table.game, {**message, "type": "action"}, legal)
        except ProtocolError as exc:
            self._answered(table, seat, version)
            await self._lose(table, seat, version, "malformed", str(exc))
            return {"lost": "malformed", "detail": str(exc)}
        self._answered(table, seat, version)
        try:
            await self.manager.decisions.accept(table, seat, action, version=version)
        except TableError as exc:
            if exc.code != "illegal":
                raise
            await self._lose(table, seat, version, "illegal", exc.message)
            return {"lost": "illegal", "refused": exc.message, "action": to_json(action)}
        return {}

    async def failed(self, table: LiveTable, operation: dict[str, Any]) -> dict[str, Any]:
        """The bridge says its program failed this decision (``timeout``, ``malformed``, ``crashed``, ``protocol``)."""
        await self._settle(table)
        seat, version = self._check_turn(table, operation)
        kind = operation.get("kind")
        if kind not in REPORTED_KINDS:
            raise TableError(400, f"a failure's kind is one of {', '.join(REPORTED_KINDS)}, not {excerpt(kind, 20)!r}")
        self._answered(table, seat, version)
        await self._lose(table, seat, version, str(kind), excerpt(operation.get("detail") or "", 200))
        return {}

    async def _settle(self, table: LiveTable) -> None:
        """Wait until the computer moves already stored are shown here too. Another process showing this table
        may have read them from the store and asked its bot the decision they lead to; that bot's answer, if it
        came first, was refused as stale here and the bot was never asked again (seen under load: its decision
        lost to the clock)."""
        if table.ahead.moves:
            async with table.lock:
                await self.manager.commits.settle(table)

    def _check_turn(self, table: LiveTable, operation: dict[str, Any]) -> tuple[Seat, int]:
        """The seat and decision of a bot's answer, if it is that bot's seat and turn now; TableError if not."""
        seat, account, version = operation.get("seat"), operation.get("account"), operation.get("version")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (seat, account, version)):
            raise TableError(400, "a bot's answer needs its seat, account and decision id")
        assert isinstance(seat, int) and isinstance(version, int)
        if not is_remote(table, seat) or table.stored.seats[seat].account != account:
            raise TableError(403, f"you hold no seat {seat} at table {table.id}", code="no_token_seat", params={})
        if table.status != PLAYING:
            raise TableError(409, f"the table is {table.status}", code="table_is", params={"status": table.status})
        if version != table.version:
            raise TableError(409, f"stale decision id {version}: table {table.id} is at decision {table.version}",
                             code="stale", params={})
        if table.to_act != seat:
            raise TableError(409, f"it is not your turn (seat {table.to_act} is to act)", code="not_your_turn",
                             params={"seat": table.to_act})
        if table.computer_to_act() == seat:
            why = "forfeited this game" if seat in table.forfeited else "away"
            raise TableError(409, f"the computer plays seat {seat} now (the bot is {why})",
                             code="no_longer_computer", params={"seat": seat})
        return seat, version

    async def _lose(self, table: LiveTable, seat: Seat, version: int, kind: str, detail: str, *,
                    forfeit: bool = False) -> None:
        """Record a lost decision (stored with the seat), forfeit the seat past the limit, tell the table, and
        have the computer play the decision (unless the table moved on or the computer plays the seat anyway)."""
        forfeited = False
        async with table.lock:
            if not is_remote(table, seat) or table.version != version or table.lost_at.get(seat) == version:
                return  # the table moved on, or this decision was lost already (the bridge said so, then the clock)
            stored = table.stored.seats[seat].copy()
            stored.failures[kind] = stored.failures.get(kind, 0) + 1
            # Decisions played while the bot was away are counted and shown, but do not forfeit its seat.
            lost = sum(n for k, n in stored.failures.items() if k not in ("forfeited", AWAY))
            if (forfeit or lost > self.settings.max_failures) and not stored.failures.get("forfeited"):
                stored.failures["forfeited"] = 1
                forfeited = True
            store = self.manager.store
            try:
                await self.manager.write(lambda c: store.save_seats(table.id, [stored], None, c), table)
            except TableError as exc:  # the store is down: the fallback still plays; the count waits
                log.warning("table %s: the lost decision of seat %s is not stored (%s)", table.id, seat, exc.message)
            else:
                table.stored.seats[seat] = stored
            if forfeited:
                table.forfeited.add(seat)
            table.lost_at[seat] = version
        log.info("table %s seat %s (%s): lost decision %s: %s", table.id, seat, stored.name, kind, excerpt(detail, 120))
        self.social.announce(table, f"bot_{kind}", seat)
        if forfeited:
            self.social.announce(table, "bot_forfeited", seat)
        self.manager.changed(table)
        if table.computer_to_act() == seat or table.version != version:
            return  # the driver plays it (away or forfeited), or it was played meanwhile
        with contextlib.suppress(TableError):
            await self.manager.play_for(table, seat, version)

    # Seats changing hands.

    async def seat_bot(self, table: LiveTable, operation: dict[str, Any]) -> dict[str, Any]:
        """A computer seat becomes the bot account's (it accepted the host's invitation): stored, then told."""
        seat, account, name = operation.get("seat"), operation.get("account"), operation.get("name")
        if not isinstance(seat, int) or not isinstance(account, int) or not isinstance(name, str):
            raise TableError(400, "seating a bot needs the seat, the account and its name")
        async with table.lock:
            await self.manager.commits.settle(table)
            target = self.manager.seat_at(table, seat)
            if target.kind != "bot":
                raise TableError(409, f"seat {seat} is no longer a computer seat", code="seat_taken",
                                 params={"seat": seat})
            if table.status not in (WAITING, PLAYING, "paused"):
                raise TableError(409, f"table {table.id} is {table.status}", code="table_status",
                                 params={"status": table.status})
            held = target.copy()
            held.kind, held.account, held.name, held.failures = "remote", account, name, {}
            held.taken, held.token_hash = True, None
            store = self.manager.store
            await self.manager.write(lambda c: store.save_seats(table.id, [held], None, c), table)
            table.stored.seats[seat] = held
            table.stored.updated_at = utcnow()
        if table.status == PLAYING and seat not in table.connected_seats():
            self.manager.start_absence_timer(table, seat)  # covered until its session attaches
        self.social.announce(table, "bot_seated", seat)
        self.manager.changed(table)
        return {"seat": seat}

    async def release(self, table: LiveTable, operation: dict[str, Any]) -> dict[str, Any]:
        """A bot's seat goes back to its computer player (the account was revoked, or the host removed the bot:
        ``by_host``, kept with the table's settings for its record's notes and told to the table)."""
        seat, reason = operation.get("seat"), str(operation.get("reason") or "released")
        by_host = operation.get("by_host") is True
        if not isinstance(seat, int):
            raise TableError(400, "releasing a bot's seat needs the seat")
        async with table.lock:
            await self.manager.commits.settle(table)
            if not is_remote(table, seat):
                return {}
            back = table.stored.seats[seat].copy()
            was = back.name
            back.kind, back.account, back.failures = "bot", None, {}
            back.bot = back.bot or self.manager.seat_at(table, seat).bot
            back.name = bot_name(back.bot or "random", seat)
            settings = dict(table.stored.settings or {})
            columns: dict[str, Any] = {}
            if by_host:
                settings["removed_bots"] = [*settings.get("removed_bots", []),
                                            {"seat": seat, "name": was, "version": table.version}]
                columns["settings"] = settings
            store = self.manager.store
            await self.manager.write(lambda c: store.save_seats(table.id, [back], None, c, **columns), table)
            table.stored.seats[seat] = back
            if by_host:
                table.stored.settings = settings
            table.covering.discard(seat)
            table.forfeited.discard(seat)
        if by_host:
            self.social.announce(table, "bot_removed", seat, who=was)
        else:
            self.social.announce(table, "bot_released", seat, who=was)
        log.info("table %s seat %s: %s left the seat (%s)", table.id, seat, was, reason)
        self.manager.changed(table)
        return {"seat": seat}

    async def release_revoked(self) -> None:
        """Seats of revoked accounts at the tables this process drives go back to the computer."""
        held = {(t.id, s.index): s.account for t in self.manager.open_tables() if t.owned
                for s in t.stored.seats if s.kind == "remote" and s.account is not None}
        if not held:
            return
        revoked = await asyncio.to_thread(self.accounts.revoked_among, set(held.values()))
        for (table_id, seat), account in held.items():
            table = self.manager.tables.get(table_id)
            if account in revoked and table is not None:
                with contextlib.suppress(TableError):
                    await self.release(table, {"seat": seat, "reason": "its account was revoked"})

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._spawned.add(task)
        task.add_done_callback(self._spawned.discard)

    async def shutdown(self) -> None:
        """Cancel the running clocks."""
        for clock in self.clocks.values():
            if clock.task is not None:
                clock.task.cancel()
        self.clocks.clear()
        for task in list(self._spawned):
            task.cancel()
