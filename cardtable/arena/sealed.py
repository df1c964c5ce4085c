"""Sealed deals: a live tournament's cards are fixed in advance, yet nobody can compute them while it is played.

A tournament the server plays at live tables deals game *g* from ``derive_seed(seed, "sealed", salt, "deal", g)``
(``schedule.deal_seed``): the definition's seed (public, and guessable: it is part of the tournament's id) and a
secret *salt* of 256 random bits drawn by the server when the tournament is first asked for. While it is played
the server publishes only the **commitment** ``sha256("cardtable-sealed-deals:{seed}:{salt}")``; once every game
is stored it publishes the salt. Anyone can then check (:func:`verify`, ``cardtable arena verify``) that the salt
matches the commitment published at the start, that every game's seed follows from the seed and the salt, and
that every game's record was dealt from that seed and replays to its stored result: the deals were fixed before
the first card was played and not chosen afterwards.

The offline arena publishes its seed (``derive_seed(seed, "deal", g)``): its games are over before anyone sees
them, and anyone may replay the tournament from its arguments.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from typing import Any

from cardtable.arena.entries import Entry
from cardtable.arena.tournament import Tournament
from cardtable.core import GameRecord
from cardtable.core.record import replay
from cardtable.core.registry import load_game

#: What the commitment hashes, before the seed and the salt.
PREFIX = "cardtable-sealed-deals"


class VerifyError(ValueError):
    """The published tournament does not check out (or cannot be checked yet); the message says where."""


def new_salt() -> str:
    """A fresh secret salt: 256 random bits as 64 hex digits."""
    return secrets.token_hex(32)


def commitment(seed: int, salt: str) -> str:
    """The hex SHA-256 a live tournament publishes when it starts: it binds the seed and the salt."""
    return hashlib.sha256(f"{PREFIX}:{seed}:{salt}".encode()).hexdigest()


def verify(published: Mapping[str, Any], records: Mapping[int, Mapping[str, Any]] | None = None) -> list[str]:
    """Check a finished live tournament as the server published it (``GET /api/tournaments/{id}``) and, when
    given, its games' records by number; what was checked, one line each. ``VerifyError`` at the first mismatch."""
    sealed = published.get("sealed")
    if not isinstance(sealed, Mapping):
        raise VerifyError("this tournament has no sealed deals: an offline arena's deals follow from its published "
                          "seed (replay them with cardtable arena)")
    if sealed.get("salt") is None:
        raise VerifyError(f"the tournament is {published.get('status', 'not finished')}: its salt is published once "
                          "every game is over")
    seed, salt, promised = int(sealed["seed"]), str(sealed["salt"]), str(sealed.get("commitment"))
    if commitment(seed, salt) != promised:
        raise VerifyError(f"the commitment {promised[:16]}… is not sha256 of seed {seed} and the published salt")
    lines = [f"commitment {promised[:16]}… = sha256(seed {seed}, salt {salt[:8]}…): the deals were fixed when the "
             "tournament started"]
    tournament = _tournament(published, seed)
    if tournament.id != published.get("id"):
        raise VerifyError(f"the tournament's definition does not hash to its id {str(published.get('id'))[:12]}")
    lines.append(f"tournament {tournament.id[:12]}: its definition (seed {seed} included) hashes to its id")
    planned = {p.index: p for p in tournament.schedule(salt)}
    stored = list(published.get("stored") or ())
    for row in stored:
        plan = planned.get(int(row["index"]))
        if plan is None:
            raise VerifyError(f"game {row['index']} is not in the tournament's schedule")
        if row.get("seed") is not None and int(row["seed"]) != plan.seed:
            raise VerifyError(f"game {plan.index}: stored seed {row['seed']} is not the seed {plan.seed} that "
                              "follows from the seed and the salt")
        if int(row["deal"]) != plan.deal or list(row["seating"]) != list(plan.seating):
            raise VerifyError(f"game {plan.index}: its deal or seating is not the schedule's")
    lines.append(f"{len(stored)} stored games: every game's seed, deal and seating follow from the seed and the salt")
    if records is not None:
        lines.append(_check_records(tournament, planned, stored, records))
    return lines


def _tournament(published: Mapping[str, Any], seed: int) -> Tournament:
    """The tournament as defined (the arena's definition, which its id hashes), with the published seed."""
    try:
        game = load_game(str(published["game"]))
    except KeyError as exc:
        raise VerifyError(str(exc).strip("'\"")) from None
    options = dict(published["options"])
    units = tuple(tuple(u) for u in game.teams(game.options(options)))
    entries = tuple(Entry(str(e["name"]), str(e["spec"])) for e in published["entries"])
    return Tournament(game.info.name, options, entries, str(published["format"]), int(published["games"]), seed,
                      published.get("timeout"), published.get("game_timeout"), published.get("max_failures"), units)


def _check_records(tournament: Tournament, planned: Mapping[int, Any], stored: list[Mapping[str, Any]],
                   records: Mapping[int, Mapping[str, Any]]) -> str:
    """Each record was dealt from its game's sealed seed and replays to the stored scores."""
    game = load_game(tournament.game)
    rows = {int(row["index"]): row for row in stored}
    for index, data in sorted(records.items()):
        plan = planned.get(index)
        if plan is None:
            raise VerifyError(f"game {index} is not in the tournament's schedule")
        record = GameRecord.from_json(dict(data), game)
        if record.seed != plan.seed:
            raise VerifyError(f"game {index}: its record was dealt from seed {record.seed}, not {plan.seed}")
        state, _ = replay(game, record)
        outcome = game.outcome(state)
        row = rows.get(index)
        if row is not None and row.get("status") == "finished":
            if outcome is None or [float(s) for s in outcome.scores] != [float(s) for s in row["scores"]]:
                raise VerifyError(f"game {index}: its record does not replay to its stored scores")
    return f"{len(records)} records: each dealt from its game's sealed seed, each replays to its stored scores"
