"""The rating ladder: one openskill (Plackett-Luce) rating per game for every rated player (issue 35).

A rated player is a person's account (``person:ID``), a bot account of the Bot API (``bot:ID``) or a built-in
computer player at one version (``builtin:NAME@VERSION``); all share one ladder per game, so a rating means
the same thing whoever holds it. Ratings are on a display scale (``MU`` 1500, ``SIGMA`` 500): the rating shown
is ``mu``, its uncertainty ``2 * sigma`` (about 95%), and the leaderboard orders by ``mu - 2 * sigma`` (the
``score`` column, indexed), so a player with few games does not top it by luck.

``Ladder.rate`` runs inside the caller's transaction (the one that stores a rated table's last move): the
players' rating rows are locked (``SELECT ... FOR UPDATE`` on PostgreSQL, in id order so that two tables
ending at once never deadlock) before they are read, so two processes rating at once never lose an update.

Schema: ``rated_players`` (``id``, ``key`` unique, ``kind``: person, bot or builtin, ``name``), ``ratings``
(``player_id`` + ``game`` unique, ``mu``, ``sigma``, ``score``, ``games``, ``wins``, ``updated_at``) and
``rating_results`` (one row per rated seat of a rated table: ``table_id``, ``seat``, ``player_id``, ``game``,
``place``, ``won``, ``mu`` and ``sigma`` after the game, ``created_at``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    Index,
    Integer,
    String,
    UniqueConstraint,
    bindparam,
    case,
    cast,
    func,
    insert,
    literal_column,
    null,
    select,
    union_all,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Mapped, mapped_column

from cardtable.store.models import Base, utcnow

MU, SIGMA = 1500.0, 500.0
BETA, TAU = SIGMA / 2, SIGMA / 100
#: A rating is provisional for its first games.
PROVISIONAL_GAMES = 10
KINDS = ("person", "bot", "builtin")
DELETED_NAME = "deleted player"
_MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


class RatedPlayerRow(Base):
    """One player on the ladder: a person, a bot account or a built-in computer player at one version."""

    __tablename__ = "rated_players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(96), unique=True)
    kind: Mapped[str] = mapped_column(String(8))
    name: Mapped[str] = mapped_column(String(80), index=True)


class RatingRow(Base):
    """One player's rating in one game."""

    __tablename__ = "ratings"
    #: The leaderboard's two indexes hold every column its page is chosen by (``kind`` and ``games`` too), so that
    #: the rows an offset skips are read from the index alone, not each from the table (migration 0013).
    __table_args__ = (UniqueConstraint("player_id", "game"),
                      Index("ix_ratings_game_score", "game", "score", "kind", "games"),
                      Index("ix_ratings_game_kind_score", "game", "kind", "score", "games"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(64))
    #: The player's kind, copied here so that the leaderboard's filter uses one index.
    kind: Mapped[str] = mapped_column(String(8))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    score: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: The sums of the player's per-game figures in this game (Wizard: ``rounds``, ``exact_bids``).
    figures: Mapped[dict[str, int] | None] = mapped_column(JSON, default=None)


class ResultRow(Base):
    """One rated seat of one finished rated table: the place and the rating after the game."""

    __tablename__ = "rating_results"
    #: ``…_player`` serves a game's history; ``…_player_recent`` the recent games of all games, which would
    #: otherwise sort every result of the player (a built-in player's can be most of the database's; 0013).
    __table_args__ = (UniqueConstraint("table_id", "seat"),
                      Index("ix_rating_results_player", "player_id", "game", "id"),
                      Index("ix_rating_results_player_recent", "player_id", "id"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(64))
    place: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    #: The seat left the game (handed to the computer) or forfeited: counted as last.
    abandoned: Mapped[bool] = mapped_column(Boolean, default=False)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: The seat's figures in this game (Wizard: ``rounds``, ``exact_bids``), when the game has some.
    figures: Mapped[dict[str, int] | None] = mapped_column(JSON, default=None)


@dataclass(frozen=True)
class Entrant:
    """One rated seat of a finished table: who (``key``, ``kind``, ``name``), its team and its place (1 best)."""

    seat: int
    key: str
    kind: str
    name: str
    team: int
    place: int
    won: bool
    abandoned: bool = False
    #: The seat's figures in this game (``server/ratings.py``: Wizard's rounds and exact bids).
    figures: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Rating:
    """A rating as shown: ``rating`` (mu), ``uncertainty`` (2 sigma), games and wins, provisional or not."""

    game: str
    rating: int
    uncertainty: int
    games: int
    wins: int
    provisional: bool
    score: float = 0.0
    figures: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """As the API sends it."""
        return {"game": self.game, "rating": self.rating, "uncertainty": self.uncertainty, "games": self.games,
                "wins": self.wins, "provisional": self.provisional, "figures": dict(self.figures)}


@dataclass(frozen=True)
class Player:
    """A player on the ladder."""

    id: int
    key: str
    kind: str
    name: str
    ratings: list[Rating] = field(default_factory=list)


@dataclass(frozen=True)
class Profile:
    """What a profile page shows of a player: the player with its ratings, each game's rating history (oldest
    first) and its recent rated games (newest first)."""

    player: Player
    history: dict[str, list[dict[str, Any]]]
    recent: list[dict[str, Any]]


def person_key(person_id: int) -> str:
    """The ladder key of a person's account."""
    return f"person:{person_id}"


def bot_key(account_id: int) -> str:
    """The ladder key of a bot account."""
    return f"bot:{account_id}"


def builtin_key(name: str) -> str:
    """The ladder key of a built-in computer player (``name`` with its version, ``heuristic@0.1.0``)."""
    return f"builtin:{name}"


def shown(game: str, mu: float, sigma: float, games: int, wins: int,
          figures: dict[str, int] | None = None) -> Rating:
    """A rating as shown from its stored numbers."""
    return Rating(game, round(mu), round(2 * sigma), games, wins, games < PROVISIONAL_GAMES, mu - 2 * sigma,
                  dict(figures or {}))


def new_ratings(teams: Sequence[Sequence[tuple[float, float]]],
                places: Sequence[int]) -> list[list[tuple[float, float]]]:
    """Plackett-Luce: each team's members' ``(mu, sigma)`` after a game where team ``i`` came ``places[i]``."""
    rated = _MODEL.rate([[_MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams],
                        ranks=[float(p) for p in places])
    return [[(float(r.mu), float(r.sigma)) for r in team] for team in rated]


class Ladder:
    """Rates finished tables and reads ratings, leaderboards and histories."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # Rating.

    def rate(self, c: Connection, game: str, table_id: str, entrants: Sequence[Entrant]) -> None:
        """Update the ratings of a rated table's entrants in the caller's transaction (``c``).

        A player holding several seats of the table (one built-in player in two seats) gets the mean of its
        seats' changes and one game. Needs two teams or more; fewer change nothing. Three statements when every
        entrant already has a rating in ``game`` (the players' rows read and locked in one, the ratings written
        in one, the results in one); a new player or a first game in ``game`` adds the inserts first. The
        statements are built once (module constants with bound parameters): this runs at the end of every rated
        game, and on PostgreSQL each statement is a round trip to another process.
        """
        if len({e.team for e in entrants}) < 2:
            return
        now = utcnow()
        ids, current, figures = self._locked_ratings(c, game, entrants)
        teams = sorted({e.team for e in entrants})
        members = [[e for e in entrants if e.team == t] for t in teams]
        places = [min(e.place for e in team) for team in members]
        after = new_ratings([[current[ids[e.key]] for e in team] for team in members], places)
        changes: dict[int, list[tuple[float, float]]] = {}
        for team, values in zip(members, after, strict=True):
            for entrant, (mu, sigma) in zip(team, values, strict=True):
                changes.setdefault(ids[entrant.key], []).append((mu, sigma))
        won = {ids[e.key] for e in entrants if e.won}
        kinds = {ids[e.key]: e.kind for e in entrants}
        for entrant in entrants:
            sums = figures.setdefault(ids[entrant.key], {})
            for name, value in entrant.figures.items():
                sums[name] = sums.get(name, 0) + value
        final: dict[int, tuple[float, float]] = {}
        updates = []
        for player_id, seats in sorted(changes.items()):
            mu0, _ = current[player_id]
            mu = mu0 + sum(m - mu0 for m, _ in seats) / len(seats)
            sigma = sum(s for _, s in seats) / len(seats)
            final[player_id] = (mu, sigma)
            updates.append({"player_id": player_id, "game": game, "kind": kinds[player_id], "mu": mu,
                            "sigma": sigma, "score": mu - 2 * sigma, "games": 1,
                            "wins": 1 if player_id in won else 0, "updated_at": now,
                            "figures": figures.get(player_id) or None})
        _write_ratings(c, updates)
        c.execute(insert(ResultRow).values([
            {"table_id": table_id, "seat": e.seat, "player_id": ids[e.key], "game": game, "place": e.place,
             "won": e.won, "abandoned": e.abandoned, "mu": final[ids[e.key]][0], "sigma": final[ids[e.key]][1],
             "created_at": now, "figures": dict(e.figures) or None} for e in entrants]))

    def _locked_ratings(self, c: Connection, game: str, entrants: Sequence[Entrant]) -> tuple[
            dict[str, int], dict[int, tuple[float, float]], dict[int, dict[str, int]]]:
        """The entrants' ladder ids, their ``(mu, sigma)`` in ``game`` and their figure sums, their rating rows
        locked until the transaction ends (in id order, so that two transactions never wait for each other in a
        circle).

        One statement when every entrant has a rating in ``game``: it locks and reads all the rows, or, when
        one is missing, nothing at all (its count of the rows there is a condition on the whole statement), so
        no row is held while the missing ones are inserted. Then, as before: the missing players and ratings
        are inserted (a row another transaction inserts meanwhile is kept), and all the rows locked and read."""
        keys = {e.key: e for e in entrants}
        rows = list(c.execute(_LOCKED_BY_KEY, {"game_": game, "keys_": list(keys), "n_": len(keys)}))
        if len(rows) != len(keys):
            # In key order, as every transaction does: two inserting the same new players never deadlock.
            _insert_missing(c, RatedPlayerRow, [{"key": k, "kind": keys[k].kind, "name": keys[k].name}
                                                for k in sorted(keys)], ("key",))
            ids = {k: int(i) for k, i in c.execute(_PLAYER_IDS, {"keys_": list(keys)})}
            kinds = {ids[k]: e.kind for k, e in keys.items()}
            _insert_missing(c, RatingRow, [
                {"player_id": pid, "game": game, "kind": kind, "mu": MU, "sigma": SIGMA, "score": MU - 2 * SIGMA,
                 "games": 0, "wins": 0, "updated_at": utcnow()} for pid, kind in sorted(kinds.items())],
                ("player_id", "game"))
            rows = list(c.execute(_LOCKED_BY_KEY, {"game_": game, "keys_": list(keys), "n_": len(keys)}))
        ids, current, figures = {}, {}, {}
        for key, pid, mu, sigma, sums in rows:
            ids[key] = int(pid)
            current[int(pid)] = (float(mu), float(sigma))
            figures[int(pid)] = dict(sums or {})
        return ids, current, figures

    def forget_person(self, c: Connection | None, person_id: int) -> None:
        """A deleted account's ladder entry: renamed ``deleted player``, its key freed, off the leaderboards."""
        def work(conn: Connection) -> None:
            conn.execute(update(RatedPlayerRow).where(RatedPlayerRow.key == person_key(person_id)).values(
                key=f"deleted:{person_id}:{utcnow().timestamp()}", kind="deleted", name=DELETED_NAME))
            conn.execute(update(RatingRow).where(RatingRow.player_id.in_(
                select(RatedPlayerRow.id).where(RatedPlayerRow.kind == "deleted"))).values(kind="deleted"))
        if c is not None:
            work(c)
        else:
            with self.engine.begin() as conn:
                work(conn)

    # Reading.

    def player(self, key: str) -> Player | None:
        """The player with this ladder key and its ratings, or None."""
        with self.engine.connect() as c:
            return _player(c, key)

    def find(self, name: str, kind: str | None = None) -> Player | None:
        """The player shown as ``name`` (people first, then bot accounts, then built-in players), or None."""
        with self.engine.connect() as c:
            return _find(c, name, kind)

    def profile(self, name: str, kind: str | None = None) -> Profile | None:
        """What a profile page shows of the player shown as ``name`` (as ``find``), or None: its ratings, the
        history of each and its recent games, read by one statement built once (``_profile_statement``)."""
        with self.engine.connect() as c:
            return _profile(c, name, kind)

    def ratings_of(self, keys: Sequence[str], game: str) -> dict[str, Rating]:
        """The ratings in ``game`` of these ladder keys (players not yet rated are left out)."""
        if not keys:
            return {}
        with self.engine.connect() as c:
            rows = c.execute(select(RatedPlayerRow.key, RatingRow.mu, RatingRow.sigma, RatingRow.games,
                                    RatingRow.wins)
                             .join(RatingRow, RatingRow.player_id == RatedPlayerRow.id)
                             .where(RatedPlayerRow.key.in_(list(keys)), RatingRow.game == game))
            return {k: shown(game, mu, s, n, w) for k, mu, s, n, w in rows}

    def leaderboard(self, game: str, kind: str | None = None, limit: int = 50,
                    offset: int = 0) -> list[dict[str, Any]]:
        """The best rated players of ``game`` by ``mu - 2 sigma`` (optionally of one kind), best first.

        The page's ids are chosen from the index alone (``ix_ratings_game_score`` holds the filtered columns),
        then only those rows are read: an offset of 1,000 skips 1,000 index entries, not 1,000 table rows and
        their players (that made a deep page cost milliseconds and its tail far more on a loaded machine)."""
        statement = _BOARD if kind is None else _BOARD_OF_KIND
        params = {"game_": game, "kind_": "deleted" if kind is None else kind, "limit_": limit, "offset_": offset}
        with self.engine.connect() as c:
            return [{"rank": offset + i + 1, "name": name, "kind": k, **shown(game, mu, s, n, w, f).to_json()}
                    for i, (name, k, mu, s, n, w, f) in enumerate(c.execute(statement, params))]

    def history(self, player_id: int, game: str, limit: int = 100) -> list[dict[str, Any]]:
        """The player's rating after each of its last ``limit`` rated games of ``game``, oldest first."""
        with self.engine.connect() as c:
            return _history(c, player_id, game, limit)

    def recent(self, player_id: int, limit: int = 20) -> list[dict[str, Any]]:
        """The player's last ``limit`` rated games, newest first: table, seat, game, place, won, rating after."""
        with self.engine.connect() as c:
            return _recent(c, player_id, limit)

    def count_players(self) -> int:
        """How many players the ladder holds."""
        with self.engine.connect() as c:
            return int(c.scalar(select(func.count()).select_from(RatedPlayerRow)) or 0)


_UPDATE_RATING = (update(RatingRow)
                  .where(RatingRow.player_id == bindparam("player_id_"), RatingRow.game == bindparam("game_"))
                  .values(mu=bindparam("mu_"), sigma=bindparam("sigma_"), score=bindparam("score_"),
                          games=RatingRow.games + 1, wins=RatingRow.wins + bindparam("wins_"),
                          updated_at=bindparam("updated_at_"), figures=bindparam("figures_")))
_PLAYER_IDS = (select(RatedPlayerRow.key, RatedPlayerRow.id)
               .where(RatedPlayerRow.key.in_(bindparam("keys_", expanding=True))))


def _locked_by_key() -> Any:
    """The players' rating rows in a game, by their keys, locked in id order; no row at all unless every key
    has one (``n_``: how many keys), so that nothing is held while missing rows are inserted."""
    joined = RatedPlayerRow.__table__.join(RatingRow.__table__, (RatingRow.player_id == RatedPlayerRow.id)
                                           & (RatingRow.game == bindparam("game_")))
    chosen = RatedPlayerRow.key.in_(bindparam("keys_", expanding=True))
    there = select(func.count()).select_from(joined).where(chosen).scalar_subquery()
    return (select(RatedPlayerRow.key, RatingRow.player_id, RatingRow.mu, RatingRow.sigma, RatingRow.figures)
            .select_from(joined).where(chosen, there == bindparam("n_"))
            .order_by(RatingRow.player_id).with_for_update(of=RatingRow))


_LOCKED_BY_KEY = _locked_by_key()
_INSERTS: dict[tuple[str, str], Any] = {}
_HISTORY = (select(ResultRow.table_id, ResultRow.mu, ResultRow.sigma, ResultRow.created_at)
            .where(ResultRow.player_id == bindparam("pid_"), ResultRow.game == bindparam("game_"))
            .order_by(ResultRow.id.desc()).limit(bindparam("limit_")))
_RECENT = (select(ResultRow.table_id, ResultRow.seat, ResultRow.game, ResultRow.place, ResultRow.won,
                  ResultRow.abandoned, ResultRow.mu, ResultRow.created_at)
           .where(ResultRow.player_id == bindparam("pid_")).order_by(ResultRow.id.desc()).limit(bindparam("limit_")))
#: How many results a profile shows: the last of each game's history, the recent games.
PROFILE_HISTORY, PROFILE_RECENT = 100, 20
#: People first, then bot accounts, then built-in players, then the rest (deleted players).
_KIND_ORDER = case({k: i for i, k in enumerate(KINDS)}, value=RatedPlayerRow.kind, else_=len(KINDS))


def _chosen(*, of_kind: bool) -> Any:
    """The id of the player shown as ``name_`` (of kind ``kind_``), as ``find`` chooses it."""
    named = select(RatedPlayerRow.id).where(RatedPlayerRow.name == bindparam("name_"))
    if of_kind:
        named = named.where(RatedPlayerRow.kind == bindparam("kind_"))
    return named.order_by(_KIND_ORDER, RatedPlayerRow.id).limit(1).scalar_subquery()


def _player_statement(chosen: Any) -> Any:
    """The player whose id ``chosen`` gives and its ratings, one row per game (one row of NULLs for none)."""
    return (select(RatedPlayerRow.id, RatedPlayerRow.key, RatedPlayerRow.kind, RatedPlayerRow.name, RatingRow.game,
                   RatingRow.mu, RatingRow.sigma, RatingRow.games, RatingRow.wins, RatingRow.figures)
            .outerjoin(RatingRow, RatingRow.player_id == RatedPlayerRow.id)
            .where(RatedPlayerRow.id == chosen).order_by(RatingRow.game))


_PLAYER = _player_statement(select(RatedPlayerRow.id).where(RatedPlayerRow.key == bindparam("key_"))
                            .scalar_subquery())
_NAMED, _NAMED_OF_KIND = _player_statement(_chosen(of_kind=False)), _player_statement(_chosen(of_kind=True))


def _profile_statement(*, of_kind: bool) -> Any:
    """A whole profile in one statement (on PostgreSQL each statement is a round trip to another process):
    the player (``part`` 0), its ratings (1, by game), the last ``PROFILE_HISTORY`` results of each game it is
    rated in (2, oldest first) and its last ``PROFILE_RECENT`` results (3, newest first), as rows of one
    shape, ordered by ``part``, ``order_text`` and ``order_number``; no row if nobody has the name.

    Each game's history starts at the id of its ``PROFILE_HISTORY``-th newest result, found once per game in
    the (player, game, id) index (the CTE ``rated``, materialized so that it is not found again for every
    result: SQLite does so by itself with a CTE used twice, PostgreSQL is told), so each game's results are
    read from the index as ``LIMIT`` would, not all of them."""
    chosen = select(RatedPlayerRow).where(RatedPlayerRow.id == _chosen(of_kind=of_kind)).cte("chosen")
    player_id = select(chosen.c.id).scalar_subquery()
    older = ResultRow.__table__.alias("older")
    since = (select(older.c.id).where(older.c.player_id == RatingRow.player_id, older.c.game == RatingRow.game)
             .order_by(older.c.id.desc()).limit(1).offset(PROFILE_HISTORY - 1).scalar_subquery())
    rated = (select(RatingRow.player_id, RatingRow.game, RatingRow.mu, RatingRow.sigma, RatingRow.games,
                    RatingRow.wins, RatingRow.figures, func.coalesce(since, 0).label("since"))
             .where(RatingRow.player_id == player_id).cte("rated")
             .prefix_with("MATERIALIZED", dialect="postgresql"))
    recent = (select(ResultRow).where(ResultRow.player_id == player_id).order_by(ResultRow.id.desc())
              .limit(PROFILE_RECENT).subquery("recent"))
    history = ResultRow.__table__.alias("history")

    def row(part: int, order_text: Any = None, order_number: Any = None, *, number: Any = None, key: Any = None,
            kind: Any = None, name: Any = None, game: Any = None, table_id: Any = None, seat: Any = None,
            place: Any = None, games: Any = None, wins: Any = None, won: Any = None, abandoned: Any = None,
            mu: Any = None, sigma: Any = None, figures: Any = None, at: Any = None) -> list[Any]:
        """One branch's columns, each typed (a NULL too, so that PostgreSQL unites the branches' types)."""
        def typed(value: Any, kind_of: Any, label: str) -> Any:
            return (cast(null(), kind_of) if value is None else value).label(label)
        return [literal_column(str(part), Integer).label("part"),
                typed(order_text, String, "order_text"), typed(order_number, Integer, "order_number"),
                typed(number, Integer, "number"), typed(key, String, "key"), typed(kind, String, "kind"),
                typed(name, String, "name"), typed(game, String, "game"), typed(table_id, String, "table_id"),
                typed(seat, Integer, "seat"), typed(place, Integer, "place"), typed(games, Integer, "games"),
                typed(wins, Integer, "wins"), typed(won, Boolean, "won"), typed(abandoned, Boolean, "abandoned"),
                typed(mu, Float, "mu"), typed(sigma, Float, "sigma"), typed(figures, JSON, "figures"),
                typed(at, DateTime(timezone=True), "at")]

    return union_all(
        select(*row(0, number=chosen.c.id, key=chosen.c.key, kind=chosen.c.kind, name=chosen.c.name)),
        select(*row(1, rated.c.game, number=rated.c.player_id, game=rated.c.game, games=rated.c.games,
                    wins=rated.c.wins, mu=rated.c.mu, sigma=rated.c.sigma, figures=rated.c.figures)),
        select(*row(2, order_number=history.c.id, game=history.c.game, table_id=history.c.table_id,
                    mu=history.c.mu, sigma=history.c.sigma, at=history.c.created_at))
        .select_from(rated.join(history, (history.c.player_id == rated.c.player_id)
                                & (history.c.game == rated.c.game) & (history.c.id >= rated.c.since))),
        select(*row(3, order_number=-recent.c.id, game=recent.c.game, table_id=recent.c.table_id,
                    seat=recent.c.seat, place=recent.c.place, won=recent.c.won, abandoned=recent.c.abandoned,
                    mu=recent.c.mu, at=recent.c.created_at)),
    ).order_by(literal_column("part"), literal_column("order_text"), literal_column("order_number"))


_PROFILE, _PROFILE_OF_KIND = _profile_statement(of_kind=False), _profile_statement(of_kind=True)


def _board(*, of_kind: bool) -> Any:
    """A leaderboard page: the ids chosen from the index alone, then their rows and players' names."""
    chosen = select(RatingRow.id).where(RatingRow.game == bindparam("game_"), RatingRow.games > 0,
                                        RatingRow.kind == bindparam("kind_") if of_kind
                                        else RatingRow.kind != bindparam("kind_"))
    page = (chosen.order_by(RatingRow.score.desc(), RatingRow.id)
            .limit(bindparam("limit_")).offset(bindparam("offset_")).subquery())
    return (select(RatedPlayerRow.name, RatedPlayerRow.kind, RatingRow.mu, RatingRow.sigma, RatingRow.games,
                   RatingRow.wins, RatingRow.figures)
            .select_from(page).join(RatingRow, RatingRow.id == page.c.id)
            .join(RatedPlayerRow, RatedPlayerRow.id == RatingRow.player_id)
            .order_by(RatingRow.score.desc(), RatingRow.id))


_BOARD, _BOARD_OF_KIND = _board(of_kind=False), _board(of_kind=True)


def _player(c: Connection, key: str) -> Player | None:
    """The player with this ladder key and its ratings, or None."""
    return _player_of(c.execute(_PLAYER, {"key_": key}))


def _find(c: Connection, name: str, kind: str | None) -> Player | None:
    """The player shown as ``name`` (people first, then bot accounts, then built-in players), or None."""
    return _player_of(c.execute(_NAMED, {"name_": name}) if kind is None
                      else c.execute(_NAMED_OF_KIND, {"name_": name, "kind_": kind}))


def _player_of(rows: Any) -> Player | None:
    """A player from the rows of a ``_player_statement``."""
    found = list(rows)
    if not found:
        return None
    pid, key, kind, name = found[0][:4]
    return Player(int(pid), key, kind, name, [shown(g, mu, s, n, w, f) for *_, g, mu, s, n, w, f in found
                                              if g is not None])


def _profile(c: Connection, name: str, kind: str | None) -> Profile | None:
    """What a profile page shows of the player shown as ``name`` (see ``_profile_statement``), or None."""
    rows = (c.execute(_PROFILE, {"name_": name}) if kind is None
            else c.execute(_PROFILE_OF_KIND, {"name_": name, "kind_": kind})).mappings().all()
    if not rows:
        return None
    top = rows[0]
    ratings: list[Rating] = []
    history: dict[str, list[dict[str, Any]]] = {}
    recent: list[dict[str, Any]] = []
    for r in rows[1:]:
        if r["part"] == 1:
            ratings.append(shown(r["game"], r["mu"], r["sigma"], r["games"], r["wins"], r["figures"]))
            history[r["game"]] = []
        elif r["part"] == 2:
            history[r["game"]].append({"table_id": r["table_id"], "rating": round(r["mu"]),
                                       "uncertainty": round(2 * r["sigma"]), "at": _iso(r["at"])})
        else:
            recent.append({"table_id": r["table_id"], "seat": r["seat"], "game": r["game"], "place": r["place"],
                           "won": bool(r["won"]), "abandoned": bool(r["abandoned"]), "rating": round(r["mu"]),
                           "at": _iso(r["at"])})
    return Profile(Player(int(top["number"]), top["key"], top["kind"], top["name"], ratings), history, recent)


def _history(c: Connection, player_id: int, game: str, limit: int) -> list[dict[str, Any]]:
    """The player's rating after each of its last ``limit`` rated games of ``game``, oldest first."""
    rows = list(c.execute(_HISTORY, {"pid_": player_id, "game_": game, "limit_": limit}))
    return [{"table_id": t, "rating": round(mu), "uncertainty": round(2 * s), "at": _iso(at)}
            for t, mu, s, at in reversed(rows)]


def _recent(c: Connection, player_id: int, limit: int) -> list[dict[str, Any]]:
    """The player's last ``limit`` rated games, newest first."""
    return [{"table_id": t, "seat": s, "game": g, "place": p, "won": bool(w), "abandoned": bool(a),
             "rating": round(mu), "at": _iso(at)}
            for t, s, g, p, w, a, mu, at in c.execute(_RECENT, {"pid_": player_id, "limit_": limit})]


def _insert_missing(c: Connection, table: type[Base], rows: list[dict[str, Any]], keys: tuple[str, ...]) -> None:
    """Insert the rows whose ``keys`` are not there yet (one statement, the rows in their order); a row another
    transaction inserts meanwhile is kept."""
    if not rows:
        return
    name = c.dialect.name
    if name not in ("postgresql", "sqlite"):
        for row in rows:
            exists = select(*[getattr(table, k) for k in keys]).where(*[getattr(table, k) == row[k] for k in keys])
            if c.execute(exists).first() is None:
                c.execute(insert(table).values(row))
        return
    statement = _INSERTS.get((name, table.__tablename__))
    if statement is None:
        statement = _INSERTS[(name, table.__tablename__)] = _dialect_insert(name)(table).on_conflict_do_nothing(
            index_elements=list(keys))
    c.execute(statement.values(rows))


def _write_ratings(c: Connection, rows: list[dict[str, Any]]) -> None:
    """The new ratings of one game's players (rows of ``ratings`` whose ``games`` is 1 and ``wins`` 0 or 1, the
    game's counts to add), in one statement on PostgreSQL and SQLite: an insert of all the rows whose conflict
    with the rows there (always: ``rate`` holds them locked) updates them, adding ``games`` and ``wins``."""
    name = c.dialect.name
    if name not in ("postgresql", "sqlite"):
        c.execute(_UPDATE_RATING, [{f"{k}_": v for k, v in row.items() if k not in ("kind", "games")}
                                   for row in rows])
        return
    statement = _INSERTS.get((name, "write ratings"))
    if statement is None:
        base = _dialect_insert(name)(RatingRow)
        new = base.excluded
        statement = _INSERTS[(name, "write ratings")] = base.on_conflict_do_update(
            index_elements=["player_id", "game"],
            set_={"mu": new.mu, "sigma": new.sigma, "score": new.score, "games": RatingRow.games + new.games,
                  "wins": RatingRow.wins + new.wins, "updated_at": new.updated_at, "figures": new.figures})
    c.execute(statement.values(rows))


def _dialect_insert(name: str) -> Any:
    """PostgreSQL's or SQLite's ``insert`` (with ``on_conflict_…``)."""
    from sqlalchemy.dialects import postgresql, sqlite

    return postgresql.insert if name == "postgresql" else sqlite.insert


def _iso(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")
