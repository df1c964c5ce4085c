"""Rated tables: the ladder's update when a rated table's game ends, in the transaction of its last move.

Who is rated (each seat): a person who sat there signed in (``person:ID``), a bot account's seat
(``bot:ID``) and a built-in computer player (``builtin:NAME@VERSION``: each name and cardtable version is one
player). A table with a guest's seat is not rated at all (rated tables take only signed-in people; the
host's rematch of a rated table keeps everyone's account).

Figures (Wizard: rounds played and bid exactly) come from the game's public events.

Places come from the outcome: teams (Kaiser's and Mus's pairs, else one seat each) ordered by winning first,
then by score; equal teams share a place. A seat whose person left during play (the computer finished for
them) or whose bot forfeited counts as the person's or the bot's, placed last with its team.
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection as DbConnection
from sqlalchemy.exc import SQLAlchemyError

from cardtable._version import __version__
from cardtable.games.wizard.events import RoundScored
from cardtable.server.live import LiveTable
from cardtable.server.manager import TableManager
from cardtable.store import Ladder
from cardtable.store.accounts import BotAccountRow
from cardtable.store.ladder import Entrant, bot_key, builtin_key, person_key
from cardtable.store.people import PersonRow

log = logging.getLogger("cardtable.server")


def is_rated(table: LiveTable) -> bool:
    """Whether the host made the table rated."""
    return bool((table.stored.settings or {}).get("rated"))


def builtin_name(bot: str) -> str:
    """The ladder name of a built-in computer player at this version."""
    return f"{bot}@{__version__}"


class Ratings:
    """Rates each rated table when its last move is stored."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.ladder = Ladder(manager.store.engine)

    def on_finish(self, table: LiveTable, outcome: dict[str, Any], events: list[Any], c: DbConnection) -> None:
        """The hook: a rated table's ladder update, in the caller's transaction."""
        if not is_rated(table):
            return
        try:
            with c.begin_nested():  # a savepoint: a failure here takes back the ladder's writes alone
                entrants = entrants_of(table, outcome, c, figures_of(table.game.info.name, events))
                if entrants is None:
                    log.info("table %s is rated but has a guest's seat: not rated", table.id)
                    return
                self.ladder.rate(c, table.game.info.name, table.id, entrants)
        except SQLAlchemyError:
            raise  # the database's trouble: the whole write fails and is tried again, the rating with it
        except Exception:  # a fault of ours must not keep the game from ending: it ends unrated, and says why
            log.exception("table %s: the ladder could not be updated; the game is stored unrated", table.id)


def entrants_of(table: LiveTable, outcome: dict[str, Any], c: DbConnection,
                figures: dict[int, dict[str, int]] | None = None) -> list[Entrant] | None:
    """Each seat's rated identity, team, place and figures; None if a seat has none (a guest)."""
    seats = table.stored.seats
    scores = [float(x) for x in outcome.get("scores", [])]
    winners = {int(w) for w in outcome.get("winners", [])}
    teams = [tuple(t) for t in table.game.teams(table.options)]
    people = _names(c, PersonRow, [s.person for s in seats if s.person is not None])
    bots = _names(c, BotAccountRow, [s.account for s in seats if s.kind == "remote" and s.account is not None])
    who: dict[int, tuple[str, str, str, bool]] = {}
    for seat in seats:
        if seat.person is not None and seat.person in people:
            who[seat.index] = (person_key(seat.person), "person", people[seat.person], seat.kind != "human")
        elif seat.kind == "remote" and seat.account is not None and seat.account in bots:
            forfeited = bool(seat.failures.get("forfeited")) or seat.index in table.forfeited
            who[seat.index] = (bot_key(seat.account), "bot", bots[seat.account], forfeited)
        elif seat.kind == "bot" and seat.bot and seat.person is None:
            name = builtin_name(seat.bot)
            who[seat.index] = (builtin_key(name), "builtin", name, False)
        else:
            return None
    order = []
    for team in teams:
        abandoned = any(who[s][3] for s in team)
        won = any(s in winners for s in team)
        best = max((scores[s] for s in team if s < len(scores)), default=0.0)
        order.append((abandoned, not won, -best))
    places = [1 + sum(1 for other in order if other < mine) for mine in order]
    out = []
    for index, team in enumerate(teams):
        for s in team:
            key, kind, name, abandoned = who[s]
            out.append(Entrant(s, key, kind, name, index, places[index], s in winners and not abandoned, abandoned,
                               (figures or {}).get(s, {})))
    return out


def figures_of(game: str, events: list[Any]) -> dict[int, dict[str, int]]:
    """Each seat's per-game figures from the game's public events: Wizard's rounds and rounds bid exactly."""
    if game != "wizard":
        return {}
    out: dict[int, dict[str, int]] = {}
    for event in events:
        if isinstance(event, RoundScored):
            for seat, (bid, tricks) in enumerate(zip(event.bids, event.tricks, strict=True)):
                mine = out.setdefault(seat, {"rounds": 0, "exact_bids": 0})
                mine["rounds"] += 1
                mine["exact_bids"] += int(bid == tricks)
    return out


def _names(c: DbConnection, row: Any, ids: list[int]) -> dict[int, str]:
    """Names by id of people's or bot accounts (deleted ones are missing)."""
    if not ids:
        return {}
    return {int(i): str(n) for i, n in c.execute(select(row.id, row.name).where(row.id.in_(ids)))}


def install(manager: TableManager) -> Ratings:
    """Rate rated tables from now on."""
    ratings = Ratings(manager)
    manager.registry.on_finish.append(ratings.on_finish)
    return ratings
