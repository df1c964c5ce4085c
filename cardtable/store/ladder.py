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
    func,
    insert,
    select,
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
        seats' changes and one game. Needs two teams or more; fewer change nothing. The statements are built
        once (module constants with bound parameters): this runs at the end of every rated game.
        """
        if len({e.team for e in entrants}) < 2:
            return
        ids = self._player_ids(c, entrants)
        now = utcnow()
        current, figures = self._locked_ratings(c, game, entrants, ids)
        teams = sorted({e.team for e in entrants})
        members = [[e for e in entrants if e.team == t] for t in teams]
        places = [min(e.place for e in team) for team in members]
        after = new_ratings([[current[ids[e.key]] for e in team] for team in members], places)
        changes: dict[int, list[tuple[float, float]]] = {}
        for team, values in zip(members, after, strict=True):
            for entrant, (mu, sigma) in zip(team, values, strict=True):
                changes.setdefault(ids[entrant.key], []).append((mu, sigma))
        won = {ids[e.key] for e in entrants if e.won}
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
            updates.append({"pid_": player_id, "game_": game, "mu_": mu, "sigma_": sigma, "score_": mu - 2 * sigma,
                            "win_": 1 if player_id in won else 0, "now_": now,
                            "figures_": figures.get(player_id) or None})
        c.execute(_UPDATE_RATING, updates)
        c.execute(_INSERT_RESULT, [
            {"table_id": table_id, "seat": e.seat, "player_id": ids[e.key], "game": game, "place": e.place,
             "won": e.won, "abandoned": e.abandoned, "mu": final[ids[e.key]][0], "sigma": final[ids[e.key]][1],
             "created_at": now, "figures": dict(e.figures) or None} for e in entrants])

    def _player_ids(self, c: Connection, entrants: Sequence[Entrant]) -> dict[str, int]:
        """The ladder ids of the entrants' keys; new players are added (a concurrent insert is fine)."""
        keys = {e.key: e for e in entrants}
        # In key order, as every transaction does: two inserting the same new players never deadlock.
        _insert_missing(c, RatedPlayerRow, [{"key": k, "kind": keys[k].kind, "name": keys[k].name}
                                            for k in sorted(keys)], ("key",))
        return {k: int(i) for k, i in c.execute(_PLAYER_IDS, {"keys_": list(keys)})}

    def _locked_ratings(self, c: Connection, game: str, entrants: Sequence[Entrant], ids: dict[str, int],
                        ) -> tuple[dict[int, tuple[float, float]], dict[int, dict[str, int]]]:
        """The entrants' ``(mu, sigma)`` in ``game`` and their figure sums, their rows locked until the
        transaction ends (in id order, so that two transactions never wait for each other in a circle)."""
        kinds = {ids[e.key]: e.kind for e in entrants}
        _insert_missing(c, RatingRow, [
            {"player_id": pid, "game": game, "kind": kind, "mu": MU, "sigma": SIGMA, "score": MU - 2 * SIGMA,
             "games": 0, "wins": 0, "updated_at": utcnow()} for pid, kind in sorted(kinds.items())],
            ("player_id", "game"))
        current, figures = {}, {}
        for pid, mu, sigma, sums in c.execute(_LOCKED_RATINGS, {"game_": game, "ids_": sorted(kinds)}):
            current[int(pid)] = (float(mu), float(sigma))
            figures[int(pid)] = dict(sums or {})
        return current, figures

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
        history of each and its recent games, read on one connection (one snapshot) by statements built once."""
        with self.engine.connect() as c:
            player = _find(c, name, kind)
            if player is None:
                return None
            return Profile(player, {r.game: _history(c, player.id, r.game, 100) for r in player.ratings},
                           _recent(c, player.id, 20))

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
                  .where(RatingRow.player_id == bindparam("pid_"), RatingRow.game == bindparam("game_"))
                  .values(mu=bindparam("mu_"), sigma=bindparam("sigma_"), score=bindparam("score_"),
                          games=RatingRow.games + 1, wins=RatingRow.wins + bindparam("win_"),
                          updated_at=bindparam("now_"), figures=bindparam("figures_")))
_INSERT_RESULT = insert(ResultRow)
_PLAYER_IDS = (select(RatedPlayerRow.key, RatedPlayerRow.id)
               .where(RatedPlayerRow.key.in_(bindparam("keys_", expanding=True))))
_LOCKED_RATINGS = (select(RatingRow.player_id, RatingRow.mu, RatingRow.sigma, RatingRow.figures)
                   .where(RatingRow.game == bindparam("game_"),
                          RatingRow.player_id.in_(bindparam("ids_", expanding=True)))
                   .order_by(RatingRow.player_id).with_for_update())
_INSERTS: dict[tuple[str, str], Any] = {}
_PLAYER = (select(RatedPlayerRow.id, RatedPlayerRow.key, RatedPlayerRow.kind, RatedPlayerRow.name)
           .where(RatedPlayerRow.key == bindparam("key_")))
_PLAYER_RATINGS = (select(RatingRow.game, RatingRow.mu, RatingRow.sigma, RatingRow.games, RatingRow.wins,
                          RatingRow.figures)
                   .where(RatingRow.player_id == bindparam("pid_")).order_by(RatingRow.game))
_NAMED = select(RatedPlayerRow.key, RatedPlayerRow.kind).where(RatedPlayerRow.name == bindparam("name_"))
_NAMED_OF_KIND = _NAMED.where(RatedPlayerRow.kind == bindparam("kind_"))
_HISTORY = (select(ResultRow.table_id, ResultRow.mu, ResultRow.sigma, ResultRow.created_at)
            .where(ResultRow.player_id == bindparam("pid_"), ResultRow.game == bindparam("game_"))
            .order_by(ResultRow.id.desc()).limit(bindparam("limit_")))
_RECENT = (select(ResultRow.table_id, ResultRow.seat, ResultRow.game, ResultRow.place, ResultRow.won,
                  ResultRow.abandoned, ResultRow.mu, ResultRow.created_at)
           .where(ResultRow.player_id == bindparam("pid_")).order_by(ResultRow.id.desc()).limit(bindparam("limit_")))


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
    row = c.execute(_PLAYER, {"key_": key}).first()
    if row is None:
        return None
    ratings = [shown(g, mu, s, n, w, f) for g, mu, s, n, w, f in c.execute(_PLAYER_RATINGS, {"pid_": row[0]})]
    return Player(int(row[0]), row[1], row[2], row[3], ratings)


def _find(c: Connection, name: str, kind: str | None) -> Player | None:
    """The player shown as ``name`` (people first, then bot accounts, then built-in players), or None."""
    rows = (c.execute(_NAMED, {"name_": name}) if kind is None
            else c.execute(_NAMED_OF_KIND, {"name_": name, "kind_": kind}))
    ordered = sorted(rows, key=lambda r: KINDS.index(r[1]) if r[1] in KINDS else 9)
    return _player(c, ordered[0][0]) if ordered else None


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
    """Insert the rows whose ``keys`` are not there yet; a row another transaction inserts meanwhile is kept."""
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
        from sqlalchemy.dialects import postgresql, sqlite

        dialect_insert = postgresql.insert if name == "postgresql" else sqlite.insert
        statement = _INSERTS[(name, table.__tablename__)] = dialect_insert(table).on_conflict_do_nothing(
            index_elements=list(keys))
    c.execute(statement, rows)


def _iso(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")
