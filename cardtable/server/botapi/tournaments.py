"""Tournaments played at this server's own tables: every game a real table in the lobby, open to spectators,
its seats built-in computer players or bot accounts (``remote:NAME``), its result stored as the arena's.

An admin account asks for one (``POST /api/tournaments/live``, ``cardtable arena … --server URL``); the
definition is the arena's (``cardtable.arena.tournament.define``), so the same arguments name the same
tournament and its results and ratings show on ``/tournaments``. A director task per tournament keeps
``concurrency`` games on the go: it makes each game's table once (recorded, so a restart finds it), deals it,
and when the table finishes stores the game as the arena stores its games. The director holds a lease on
its tournament, so with several processes only one directs it; a restarted server resumes every live
tournament that is not finished.

Deals are sealed (``cardtable.arena.sealed``): the games are dealt from the seed and a secret salt drawn when the
tournament is first asked for; only the commitment is published until every game is stored. A game's table is
dealt once every bot account's seat at it is connected (each entry is asked every decision of its seats, the
first included), or after ``SEAT_WAIT`` seconds: then the computer plays the absent bot's turns, each counted as
a lost decision of kind ``away``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from cardtable.arena.entries import Entry
from cardtable.arena.play import ERROR, FINISHED, GameResult
from cardtable.arena.schedule import PlannedGame
from cardtable.arena.sealed import commitment, new_salt
from cardtable.arena.tournament import Tournament, results_of
from cardtable.bots import make_bot
from cardtable.core import to_json
from cardtable.server.live import LiveTable, TableError
from cardtable.server.manager import TableManager
from cardtable.server.statuses import CLOSED
from cardtable.server.views import default_bot
from cardtable.store import StoredSeat, StoredTable, hash_token
from cardtable.store.accounts import BotAccounts
from cardtable.store.live_tournaments import LiveTournament, LiveTournaments
from cardtable.store.tournaments import TournamentStore

log = logging.getLogger("cardtable.server")
#: An entry played by a bot account over the Bot API.
REMOTE = "remote:"
#: How often a director looks at its tables.
EVERY = 0.5
#: Seconds a game's table waits, dealt not yet, for the bot accounts' seats at it to connect.
SEAT_WAIT = 10.0


def lease_key(tournament_id: str) -> str:
    """The lease a director holds on its tournament (in the tables' lease table)."""
    return f"tn:{tournament_id[:29]}"


def check_entry(manager: TableManager, game: Any, entry: Entry, accounts: BotAccounts) -> None:
    """A built-in bot the game knows, or a live bot account; ``ValueError`` with one line if not."""
    if entry.spec.startswith(REMOTE):
        name = entry.spec[len(REMOTE):].strip()
        account = accounts.get(name)
        if account is None or account.is_revoked:
            raise ValueError(f"entry {entry.name}: there is no bot account {name!r}")
        return
    if entry.spec.startswith("exec:"):
        raise ValueError(f"entry {entry.name}: a server runs no programs; connect one with `cardtable bot-connect` "
                         f"and enter it as remote:NAME")
    make_bot(game, entry.spec, 0)  # ValueError for an unknown bot or bad options


class LiveTournamentDirector:
    """Runs this process's live tournaments."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        engine = manager.store.engine
        self.store = TournamentStore(engine)
        self.live = LiveTournaments(engine)
        self.accounts = BotAccounts(engine)
        self.running: dict[str, asyncio.Task[None]] = {}
        #: Attaches the bot sessions connected to this process to a new table's seats (set by the Bot API).
        self.seat_sessions: Callable[[LiveTable], Awaitable[None]] | None = None
        #: When each table still waiting for its bots was first seen waiting (``time.monotonic``).
        self.waiting_since: dict[str, float] = {}
        #: Seconds a new table waits for its bots' seats to connect before it is dealt anyway.
        self.seat_wait = SEAT_WAIT
        #: The tournaments directed here whose tables are rated (their results move the ladder).
        self.rated: set[str] = set()

    async def submit(self, tournament: Tournament, concurrency: int, *, rated: bool = False) -> LiveTournament:
        """Store the tournament (if new), mark it live with a fresh secret salt (kept if it was live already)
        and direct it here; its live row (the commitment to publish). ``rated``: its tables are rated."""
        await asyncio.to_thread(self.store.ensure, tournament.stored())
        salt = new_salt()
        live = await asyncio.to_thread(functools.partial(self.live.add, tournament.id, concurrency, salt,
                                                         commitment(tournament.seed, salt), rated=rated))
        self._direct(tournament, live)
        return live

    async def resume(self) -> None:
        """Direct every live tournament that is not finished (after a restart, or one whose director died)."""
        for tournament_id, live in (await asyncio.to_thread(self.live.all)).items():
            if tournament_id in self.running and not self.running[tournament_id].done():
                continue
            stored = await asyncio.to_thread(self.store.get, tournament_id)
            if stored is None or stored.status == "finished":
                continue
            entries = tuple(Entry(n, s) for n, s in stored.entries)
            game = self.manager.games.get(stored.game)
            if game is None:
                continue
            options = game.options(stored.options)
            units = tuple(tuple(u) for u in game.teams(options))
            tournament = Tournament(stored.game, stored.options, entries, stored.format, stored.games, stored.seed,
                                    stored.timeout, stored.game_timeout, stored.max_failures, units)
            self._direct(tournament, live)

    def _direct(self, tournament: Tournament, live: LiveTournament) -> None:
        if tournament.id in self.running and not self.running[tournament.id].done():
            return
        self.running[tournament.id] = asyncio.get_running_loop().create_task(self._run(tournament, live))

    async def _run(self, tournament: Tournament, live: LiveTournament) -> None:
        if live.rated:
            self.rated.add(tournament.id)
        try:
            await self._play(tournament, live.concurrency, live.salt)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the director of tournament %s failed; it resumes at the next round", tournament.id[:12])

    async def _play(self, tournament: Tournament, concurrency: int, salt: str | None) -> None:
        """Keep ``concurrency`` games on the go until every game is stored; then store the results.

        ``salt``: the secret the deals follow from (``None``: a tournament asked for before deals were sealed)."""
        store, owner, ttl = self.manager.store, self.manager.owner, self.manager.lease_ttl
        key = lease_key(tournament.id)
        if not await asyncio.to_thread(store.acquire, key, owner, ttl):
            return  # another process directs it
        planned = tournament.schedule(salt)
        while True:
            if not await asyncio.to_thread(store.hold, key, owner, ttl):
                log.warning("tournament %s is directed by another process now", tournament.id[:12])
                return
            done = await asyncio.to_thread(self.store.stored_indices, tournament.id)
            if len(done) == len(planned):
                break
            tables = await asyncio.to_thread(self.live.tables, tournament.id)
            active = 0
            for game in planned:
                if game.index in done:
                    continue
                if game.index in tables:
                    if await self._collect(tournament, game, tables[game.index]):
                        continue
                    active += 1
                elif active < concurrency:
                    await self._open(tournament, game)
                    active += 1
            await asyncio.sleep(EVERY)
        results = await asyncio.to_thread(results_of, tournament, self.store)
        await asyncio.to_thread(self.store.finish, tournament.id, results)
        with contextlib.suppress(Exception):
            await asyncio.to_thread(store.release, owner, [key])
        log.info("tournament %s finished", tournament.id[:12])

    async def _open(self, tournament: Tournament, planned: PlannedGame) -> None:
        """Make game ``planned``'s table (once: it is recorded) and deal it."""
        game = self.manager.game(tournament.game)
        options = game.options(dict(tournament.options))
        specs = {e.name: e.spec for e in tournament.entries}
        seats = []
        for index, name in enumerate(planned.seating):
            spec = specs[name]
            if spec.startswith(REMOTE):
                account = await asyncio.to_thread(self.accounts.get, spec[len(REMOTE):].strip())
                if account is None:
                    raise ValueError(f"the bot account of entry {name} is gone")
                seats.append(StoredSeat(index, "remote", name, default_bot(game), None, True, account.id))
            else:
                seats.append(StoredSeat(index, "bot", f"{name} ({spec})", spec, None, True))
        stored = StoredTable(self.manager.new_table_id(), game.info.name, dict(tournament.options), planned.seed,
                             "waiting", hash_token(secrets.token_urlsafe(24)), None, None, seats,
                             settings={"tournament": tournament.id, "game": planned.index,
                                       **({"rated": True} if tournament.id in self.rated else {})})
        table = await self.manager.add_table(stored, game, options)
        linked = await asyncio.to_thread(self.live.link, tournament.id, planned.index, table.id)
        if linked != table.id:  # another process made this game's table first: ours is given up
            store = self.manager.store
            await self.manager.write(lambda c: store.set_status(table.id, "abandoned", c), table)
            table.stored.status = "abandoned"
            self.manager.registry.forget(table)
            return
        if self.seat_sessions is not None:
            await self.seat_sessions(table)
        await self._deal_when_seated(table)

    async def _deal_when_seated(self, table: LiveTable) -> None:
        """Deal a waiting table once every bot account's seat at it is connected (here or at another process),
        or once it has waited ``seat_wait`` seconds."""
        missing = {s.index for s in table.stored.seats if s.kind == "remote"} - table.connected_seats()
        since = self.waiting_since.setdefault(table.id, time.monotonic())
        if missing and time.monotonic() - since < self.seat_wait:
            return
        if missing:
            log.info("table %s: dealt with the bots of seats %s not connected (the computer plays their turns, "
                     "each counted as a lost decision)", table.id, sorted(missing))
        self.waiting_since.pop(table.id, None)
        await self.manager.lifecycle.start(table)

    async def _collect(self, tournament: Tournament, planned: PlannedGame, table_id: str) -> bool:
        """If game ``planned``'s table is over, store its result; whether it is stored now."""
        try:
            table = await self.manager.find(table_id)
        except TableError:
            return False
        if table.status == "waiting" and table.owned:
            await self._deal_when_seated(table)  # its bots were not all connected yet, or a restart came between
            return False
        if table.status not in CLOSED:
            return False
        result = game_result(table, planned)
        await asyncio.to_thread(self.store.add_game, tournament.id, result.to_json())
        return True


def game_result(table: LiveTable, planned: PlannedGame) -> GameResult:
    """A finished (or stopped) table as the arena's game result: outcome, lost decisions, forfeited seats."""
    seats = table.stored.seats
    failures = {s.index: {k: n for k, n in s.failures.items() if k != "forfeited"}
                for s in seats if s.kind == "remote" and any(k != "forfeited" for k in s.failures)}
    forfeited = sorted(s.index for s in seats if s.kind == "remote" and s.failures.get("forfeited"))
    record = table.record.to_json() if table.record is not None else {}
    if table.status != "finished" or table.state is None:
        return GameResult(planned.index, planned.deal, planned.seed, planned.seating, ERROR, record,
                          error=table.error or f"the table is {table.status}", failures=failures, forfeited=forfeited)
    outcome = table.game.outcome(table.state)
    assert outcome is not None
    # As the runner: a forfeited seat, with its partners, is no winner.
    teams = table.game.teams(table.options)
    lost = {seat for f in forfeited for team in teams if f in team for seat in team}
    winners = [w for w in outcome.winners if w not in lost]
    data = to_json(outcome)
    return GameResult(planned.index, planned.deal, planned.seed, planned.seating, FINISHED, record,
                      list(outcome.scores), winners, str(data.get("reason", "")), failures=failures,
                      forfeited=forfeited)
