"""Calibrate the heuristic bot's card values by self-play (a development tool, not used at play time).

Each card of a hand falls into one category (wizard, jester, trump of rank r, side card of rank r in a
round with trump, card of rank r in a round without trump). Self-play games record, for every seat and
round, how many cards of each category it held and how many tricks it took; a ridge least-squares fit
per player count and round size then gives each category's expected tricks. Run::

    python -m cardtable.games.wizard.players.calibrate --games 3000 --passes 3

which rewrites ``cardtable/games/wizard/bid_table.py`` (on the rules side: the search hints read it
too); every pass plays with the table of the pass before.
"""

from __future__ import annotations

import argparse
import importlib
import random
from pathlib import Path

from cardtable.games.wizard import bid_table, rules
from cardtable.games.wizard.bid_model import CATEGORIES
from cardtable.games.wizard.game import WizardGame
from cardtable.games.wizard.options import WizardOptions
from cardtable.games.wizard.players.heuristic import HeuristicBot, bid_pressure, features

RIDGE = 2.0
WEIGHTS = CATEGORIES + 1


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Solve a small symmetric positive definite system by Gaussian elimination with pivoting."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            f = a[r][col] / a[col][col]
            if f:
                for k in range(col, n + 1):
                    a[r][k] -= f * a[col][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][k] * x[k] for k in range(r + 1, n))) / a[r][r]
    return x


def collect(players: int, games: int, seed: int) -> dict[int, tuple[list[list[float]], list[float]]]:
    """Self-play ``games`` games; per round size, the normal equations (XᵀX, Xᵀy) of tricks on categories."""
    game = WizardGame()
    options = WizardOptions(players=players)
    rng = random.Random(seed)
    sums: dict[int, tuple[list[list[float]], list[float]]] = {}
    for _ in range(games):
        game_seed = rng.randrange(2**31)
        bots = [HeuristicBot(game_seed + s) for s in range(players)]
        state, _ = game.new(options, game_seed)
        hands: dict[int, list[list[float]]] = {}
        while (seat := game.to_act(state)) is not None:
            obs = game.observe(state, seat)
            if obs.phase == "bidding":
                x = [*features(obs.hand, obs.trump_suit), bid_pressure(obs)]
                hands.setdefault(obs.round, [[] for _ in range(players)])[seat] = x
            action = bots[seat].act(obs, game.legal_actions(state, seat))
            state, _ = game.apply_unchecked(state, seat, action)
        for row in state.sheet:
            xtx, xty = sums.setdefault(row.round, ([[0.0] * WEIGHTS for _ in range(WEIGHTS)], [0.0] * WEIGHTS))
            for seat, x in enumerate(hands[row.round]):
                nonzero = [(i, v) for i, v in enumerate(x) if v]
                for i, vi in nonzero:
                    xty[i] += vi * row.tricks[seat]
                    for j, vj in nonzero:
                        xtx[i][j] += vi * vj
    return sums


def fit(players: int, games: int, seed: int) -> list[list[float]]:
    """Per round size (index n - 1), each category's expected tricks."""
    table = []
    for n, (xtx, xty) in sorted(collect(players, games, seed).items()):
        prior = [bid_table.value(players, n, c) for c in range(WEIGHTS)]
        # Ridge towards the previous table keeps rare categories (a lone trump 1, say) sensible.
        matrix = [[xtx[i][j] + (RIDGE if i == j else 0.0) for j in range(WEIGHTS)] for i in range(WEIGHTS)]
        vector = [xty[i] + RIDGE * prior[i] for i in range(WEIGHTS)]
        weights = _solve(matrix, vector)
        # Card values are chances; the pressure weight may be negative.
        table.append([round(min(1.0, max(0.0, v)), 3) for v in weights[:CATEGORIES]] + [round(weights[-1], 3)])
    return table


def write_table(tables: dict[int, list[list[float]]], path: Path) -> None:
    """Write ``bid_table.py``."""
    lines = [
        '"""Card values for the heuristic bot\'s bids, fitted by ``players/calibrate.py`` (do not edit by hand).',
        "",
        "``VALUES[players][n - 1][category]`` is the expected tricks of one card of that category in a",
        "round of n cards (categories: see ``bid_model.category``).",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "VALUES: dict[int, tuple[tuple[float, ...], ...]] = {",
    ]
    for players, rows in sorted(tables.items()):
        lines.append(f"    {players}: (")
        for row in rows:
            chunks = [", ".join(repr(v) for v in row[i:i + 12]) for i in range(0, len(row), 12)]
            lines.append("        (" + ",\n         ".join(chunks) + "),")
        lines.append("    ),")
    lines += ["}", "", "", *_VALUE_FUNCTION]
    path.write_text("\n".join(lines) + "\n")


_VALUE_FUNCTION = [
    "def value(players: int, n: int, category: int) -> float:",
    '    """The fitted value, or a rough default (wizard 1, jester 0, high trumps most) before calibration."""',
    "    rows = VALUES.get(players)",
    "    if rows is not None and n <= len(rows) and category < len(rows[n - 1]):",
    "        return rows[n - 1][category]",
    "    if category < 2 or category > 40:",
    "        return float(category == 0)",
    "    rank = (category - 2) % 13 + 1",
    "    return max(0.0, (rank - 6) / 8) * (1.0 if category < 15 else 0.5)",
]


def main() -> None:
    """Run the calibration passes and rewrite the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--players", type=int, nargs="*", default=list(range(rules.MIN_PLAYERS,
                                                                              rules.MAX_PLAYERS + 1)))
    args = parser.parse_args()
    path = Path(bid_table.__file__)
    for k in range(args.passes):
        tables = {p: [list(row) for row in rows] for p, rows in bid_table.VALUES.items()}
        tables.update({p: fit(p, args.games, args.seed + 1000 * k + p) for p in args.players})
        write_table(tables, path)
        importlib.reload(bid_table)
        print(f"pass {k + 1} written to {path}")


if __name__ == "__main__":
    main()
