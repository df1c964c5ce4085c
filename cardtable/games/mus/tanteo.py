"""The tanteo: what a finished hand pays, the tantos scored, "estamos dentro", and a game won.

After the showdown (FEM VII.9) the hand is counted in lance order, grande, chica, pares, juego or
punto (FEM VII.2): each lance's accepted envite, its deje when refusals are counted at the end,
the tanto of a grande or chica "en paso", and the pares, juego or punto of the pair that wins the
lance, per holder for pares and juego [CONVENCIÓN]. The first pair to reach the target wins the
game at once; a pair within ``scoring.team_is_in_margin`` of it "is in" (FEM VII.7). An accepted
órdago gives its lance's winner the game, earlier envites counted or not (FEM VII.12).

The phase changes around the count (showdown, scoring, the end of a game) are ``MusGame``'s, like
every transition; ``MusGame.hand_entries`` and ``MusGame._bonus`` call :func:`hand_entries` and
:func:`bonus` (methods others call, and the place ``tests/vector`` plants a scoring defect).
"""

from __future__ import annotations

from collections.abc import Callable

from cardtable.core import Event
from cardtable.core.fast import constructor
from cardtable.games.mus import events as E
from cardtable.games.mus.rules import DUPLES, MEDIAS, PAR, HandValue, Lance, best_seat, evaluate, holds
from cardtable.games.mus.state import Betting, MusState, pair_of

#: One payment of a hand: (pair, tantos, reason, lance).
Entry = tuple[int, int, str, Lance]
#: ``bonus``'s signature: (state, hand values, lance, pair) -> tantos.
Bonus = Callable[[MusState, list[HandValue], Lance, int], int]

_tantos_scored = constructor(E.TantosScored)


def hand_values(s: MusState) -> list[HandValue]:
    """The four hands' values, by seat."""
    return [evaluate(h, s.options.modalidad) for h in s.hands]


def hand_entries(s: MusState, bonus_of: Bonus, bets_only: bool) -> list[Entry]:
    """What the finished hand pays, in counting order; ``bonus_of`` values a lance's pares, juego or punto."""
    values = hand_values(s)
    sc = s.options.scoring
    out: list[Entry] = []
    for res in s.results:
        lance = res.lance
        holders = [x for x in s.order() if holds(values[x], lance)]
        if not holders or res.status == "ordago":
            continue
        best = best_seat(values, lance, holders)
        assert best is not None
        w = res.pair if res.status in ("rejected", "skipped") and res.pair is not None else pair_of(best)
        if res.status == "accepted":
            out.append((w, res.total, "envite", lance))
        if bets_only:
            continue
        if res.status == "rejected" and not sc.deje_en_el_acto:
            out.append((w, res.deje, "deje", lance))
        if res.status == "passed" and lance in ("grande", "chica"):
            out.append((w, sc.grande_en_paso if lance == "grande" else sc.chica_en_paso, "en paso", lance))
        bonus = bonus_of(s, values, lance, w)
        if bonus:
            out.append((w, bonus, lance, lance))
    return out


def bonus(s: MusState, values: list[HandValue], lance: Lance, pair: int) -> int:
    """Pares, juego or punto value of ``pair``: per holder for pares and juego (CONVENCIÓN)."""
    sc = s.options.scoring
    seats = (pair, pair + 2)
    if lance == "pares":
        per_kind = {PAR: sc.par, MEDIAS: sc.medias, DUPLES: sc.duples}
        return sum(per_kind.get(values[x].pares_kind, 0) for x in seats)
    if lance == "juego":
        return sum(sc.juego_31 if values[x].total == 31 else sc.juego_otro
                   for x in seats if values[x].has_juego)
    if lance == "punto":
        return sc.punto
    return 0


def score(s: MusState, pair: int, tantos: int, reason: str, lance: str, events: list[Event]) -> None:
    """Add tantos; the first pair to reach the target wins the game; announce "estamos dentro"."""
    if tantos <= 0:
        return
    tanteo = list(s.tanteo)
    tanteo[pair] += tantos
    s.tanteo = (tanteo[0], tanteo[1])
    events.append(_tantos_scored(pair, tantos, reason, lance, s.tanteo))
    sc = s.options.scoring
    if s.game_winner is None and s.tanteo[pair] >= sc.target:
        s.game_winner = pair
        s.game_over_reason = f"pair {E.PAIR_NAMES[pair]} reached {sc.target} ({reason} a {lance})"
    update_team_in(s, events)


def update_team_in(s: MusState, events: list[Event]) -> None:
    """Announce "estamos dentro" once per game for a pair within the margin (FEM VII.7).

    Also called when a game starts: with a target at or below the margin both pairs are in from 0–0.
    """
    sc = s.options.scoring
    team_in = list(s.team_in)
    for p in (0, 1):
        left = sc.target - s.tanteo[p]
        if 0 < left <= sc.team_is_in_margin and not team_in[p]:
            team_in[p] = True
            events.append(E.TeamIsIn(p, left))
    s.team_in = (team_in[0], team_in[1])


def score_hand(s: MusState, entries: list[Entry], events: list[Event]) -> None:
    """The showdown's count: ``entries`` in order until a pair reaches the target (FEM VII.2)."""
    for pair, tantos, reason, lance in entries:
        score(s, pair, tantos, reason, lance, events)
        if s.game_winner is not None:
            break


def ordago_winner(s: MusState, b: Betting) -> int:
    """The pair whose best hand among the speakers of the órdago's lance wins it."""
    best = best_seat(hand_values(s), b.lance, b.speakers)
    assert best is not None
    return pair_of(best)


def score_ordago(s: MusState, winner: int, lance: Lance, entries: list[Entry], events: list[Event]) -> None:
    """An accepted órdago: ``entries`` (the earlier envites, if counted: FEM VII.12), then the game to ``winner``."""
    for pair, tantos, reason, entry_lance in entries:
        if s.game_winner is None:
            score(s, pair, tantos, reason, entry_lance, events)
    if s.game_winner is None:
        needed = s.options.scoring.target - s.tanteo[winner]
        score(s, winner, needed, "órdago", lance, events)


def close_game(s: MusState, pair: int, events: list[Event]) -> bool:
    """``pair`` won the game: count it; True if that wins the match, else the next game starts at 0–0."""
    games = list(s.games)
    games[pair] += 1
    s.games = (games[0], games[1])
    events.append(E.GameWon(pair, s.game_no, s.tanteo, s.game_over_reason))
    if s.games[pair] >= s.options.match.games_to_win:
        s.winner = pair
        events.append(E.MatchWon(pair, s.games))
        return True
    s.game_no += 1
    s.tanteo, s.team_in, s.game_winner = (0, 0), (False, False), None
    events.append(E.GameStarted(s.game_no, (s.dealer + 1) % 4, s.options.scoring.target))
    update_team_in(s, events)
    return False
