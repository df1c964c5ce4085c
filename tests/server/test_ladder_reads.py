"""The ladder's reads and update in few statements (issue 35): a profile read by one statement is what the reads
one by one give, past its limits, and the ratings after many games are those of the rating model applied game
after game, on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cardtable.store import Ladder, Store
from cardtable.store.ladder import (
    MU,
    PROFILE_HISTORY,
    PROFILE_RECENT,
    SIGMA,
    Entrant,
    Player,
    Profile,
    RatedPlayerRow,
    bot_key,
    builtin_key,
    new_ratings,
    person_key,
    shown,
)
from tests.server.postgres import postgres_cluster

WIZARD_TABLES, DURAK_TABLES = PROFILE_HISTORY + 10, PROFILE_RECENT + 5


@pytest.fixture(params=["sqlite", "postgresql"])
def ladder(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Ladder]:
    """A ladder on a fresh SQLite file or on a throwaway PostgreSQL cluster."""
    if request.param == "sqlite":
        store = Store(f"sqlite:///{tmp_path / 'reads.db'}")
        yield Ladder(store.engine)
        store.close()
        return
    with postgres_cluster() as url:
        store = Store(url)
        yield Ladder(store.engine)
        store.close()


def one_by_one(ladder: Ladder, name: str, kind: str | None = None) -> Profile | None:
    """A profile as the reads one by one give it."""
    player = ladder.find(name, kind)
    if player is None:
        return None
    return Profile(player, {r.game: ladder.history(player.id, r.game, PROFILE_HISTORY) for r in player.ratings},
                   ladder.recent(player.id, PROFILE_RECENT))


def test_a_profile_is_the_reads_one_by_one_and_the_ratings_those_of_the_model_game_after_game(
        ladder: Ladder) -> None:
    """A person named alice plays Durak against a bot account also named alice (on the ladder first, so with
    the lower id), then more Wizard games than a history shows against a built-in player: each profile (alice
    is the person, or the bot with ``kind``) equals the reads one by one, holds the newest games, and every
    rating is the model's, game after game; a player without a rating and unknown names read as such."""
    alice = (person_key(1), "person", "alice")
    builtin = (builtin_key("b@1"), "builtin", "b@1")
    bot = (bot_key(7), "bot", "alice")
    expected = {(alice[0], "wizard"): (MU, SIGMA), (builtin[0], "wizard"): (MU, SIGMA),
                (alice[0], "durak"): (MU, SIGMA), (bot[0], "durak"): (MU, SIGMA)}
    exact = 0
    for game, tables, other in (("durak", DURAK_TABLES, bot), ("wizard", WIZARD_TABLES, builtin)):
        for n in range(tables):
            first = n % 3 != 0  # alice wins two games in three
            figures = {"rounds": 3, "exact_bids": n % 2} if game == "wizard" else {}
            exact += figures.get("exact_bids", 0)
            with ladder.engine.begin() as c:
                ladder.rate(c, game, f"{game}{n}", [
                    Entrant(0, alice[0], alice[1], alice[2], 0, 1 if first else 2, first, figures=figures),
                    Entrant(1, other[0], other[1], other[2], 1, 2 if first else 1, not first)])
            [[a], [b]] = new_ratings([[expected[(alice[0], game)]], [expected[(other[0], game)]]],
                                     [1 if first else 2, 2 if first else 1])
            expected[(alice[0], game)], expected[(other[0], game)] = a, b
    wins = {"wizard": sum(1 for n in range(WIZARD_TABLES) if n % 3 != 0),
            "durak": sum(1 for n in range(DURAK_TABLES) if n % 3 != 0)}
    found, other = ladder.profile("alice"), ladder.profile("alice", "bot")
    assert found is not None and found == one_by_one(ladder, "alice")
    assert (found.player.key, found.player.kind, found.player.name) == alice
    assert found.player.ratings == [
        shown("durak", *expected[(alice[0], "durak")], DURAK_TABLES, wins["durak"]),
        shown("wizard", *expected[(alice[0], "wizard")], WIZARD_TABLES, wins["wizard"],
              {"rounds": 3 * WIZARD_TABLES, "exact_bids": exact})]
    assert [h["table_id"] for h in found.history["wizard"]] == \
           [f"wizard{n}" for n in range(WIZARD_TABLES - PROFILE_HISTORY, WIZARD_TABLES)]
    assert [h["table_id"] for h in found.history["durak"]] == [f"durak{n}" for n in range(DURAK_TABLES)]
    assert [r["table_id"] for r in found.recent] == \
           [f"wizard{n}" for n in reversed(range(WIZARD_TABLES - PROFILE_RECENT, WIZARD_TABLES))]
    assert found.recent[0]["won"] is ((WIZARD_TABLES - 1) % 3 != 0) and found.recent[0]["abandoned"] is False
    assert found.recent[0]["seat"] == 0 and found.recent[0]["place"] == (1 if found.recent[0]["won"] else 2)
    assert found.history["wizard"][-1]["rating"] == round(expected[(alice[0], "wizard")][0])
    assert found.recent[0]["rating"] == found.history["wizard"][-1]["rating"]
    assert other is not None and other.player.id < found.player.id
    assert other == one_by_one(ladder, "alice", "bot")
    assert other.player.key == bot[0] and [r.games for r in other.player.ratings] == [DURAK_TABLES]
    assert other.player.ratings[0] == shown("durak", *expected[(bot[0], "durak")], DURAK_TABLES,
                                            DURAK_TABLES - wins["durak"])
    computer = ladder.profile("b@1")
    assert computer is not None and computer == one_by_one(ladder, "b@1")
    assert computer.player.ratings == [shown("wizard", *expected[(builtin[0], "wizard")], WIZARD_TABLES,
                                             WIZARD_TABLES - wins["wizard"])]
    with ladder.engine.begin() as c:
        c.execute(RatedPlayerRow.__table__.insert().values(key=builtin_key("idle@1"), kind="builtin",
                                                           name="idle@1"))
    idle = ladder.profile("idle@1")
    assert idle is not None and idle == one_by_one(ladder, "idle@1")
    assert idle.history == {} and idle.recent == [] and idle.player.ratings == []
    assert idle.player == Player(idle.player.id, builtin_key("idle@1"), "builtin", "idle@1")
    assert ladder.profile("alice", "builtin") is None and ladder.profile("nobody") is None
    assert one_by_one(ladder, "nobody") is None
