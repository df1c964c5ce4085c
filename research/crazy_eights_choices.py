"""Crazy Eights search variants judged move by move against an oracle that sees the others' hands.

A/B games are slow to separate bots whose moves differ by a fraction of a point (each game's luck
is large). This judges decisions instead: the reference bot (``--bot``, default ``search``) plays
seat ``g mod 4`` of game ``g`` against three ``heuristic`` players; at each of its real choices
(two or more distinct moves) a copy of it is made per ``--variant`` (option overrides, the same
history and random numbers) and asked for its move; the heuristic's move is taken too. Every
candidate is then valued by the oracle: ``--worlds`` playouts on the others' **true** hands (the
stock order unknown), every seat playing the heuristic after it, valued by the chance of winning
the game as the search does (``crazy_eights_regret.move_values``). A move's regret is the best
candidate's oracle value minus its own. The oracle looks one move deep, so it judges reading and
noise (how well each variant finds the move the hands call for), not longer plans.

    nice -n 10 python research/crazy_eights_choices.py --games 20 --seed 1 \\
        --variant sims=4000 --variant particles=800 --out /tmp/c8_choices_s1.jsonl
    python research/crazy_eights_choices.py --pool /tmp/c8_choices_s*.jsonl [--by round]
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import math
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))

from crazy_eights_regret import move_values

import cardtable
from cardtable.bots import make_bot
from cardtable.games.crazy_eights.actions import PlayEight
from cardtable.games.crazy_eights.search import candidates


def variant_of(bot: Any, overrides: str) -> Any:
    """A copy of ``bot`` (same history, same random state) with some options changed (``k=v:k=v``)."""
    twin = copy.deepcopy(bot)
    if overrides:
        pairs = dict(kv.split("=", 1) for kv in overrides.split(":"))
        fields = {f.name: f.type for f in dataclasses.fields(twin.options)}
        values = {k: (float(v) if "float" in str(fields[k]) else int(v)) for k, v in pairs.items()}
        twin.options = dataclasses.replace(twin.options, **values)
        reader = getattr(twin, "filter", None)  # the particle search's filter keeps its own size and cost cap
        if reader is not None:
            reader.size, reader.tries = getattr(twin.options, "particles", 0), getattr(twin.options, "tries", 0)
    return twin


def index_of(moves: list[Any], action: Any) -> int:
    """Which candidate ``action`` is (all eights naming one suit are one candidate)."""
    for i, m in enumerate(moves):
        if m == action or (isinstance(m, PlayEight) and isinstance(action, PlayEight) and m.suit == action.suit):
            return i
    raise ValueError(f"{action} is none of the candidates")


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Mean regret per real choice of every chooser, and each one's paired difference to the reference."""
    out: dict[str, Any] = {"choices": len(rows), "games": len({(r["seed"], r["game"]) for r in rows})}
    names = list(rows[0]["regret"])
    for name in names:
        xs = [r["regret"][name] for r in rows]
        d = [r["regret"][name] - r["regret"]["reference"] for r in rows]
        half = 1.96 * statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else math.inf
        out[name] = {"regret": round(statistics.fmean(xs), 5), "minus_reference": round(statistics.fmean(d), 5),
                     "ci95_half": round(half, 5), "same_move": sum(r["move"][name] == r["move"]["reference"]
                                                                  for r in rows)}
    # How concentrated the reference's regret is: the share carried by its 100 costliest choices.
    ref = sorted((r["regret"]["reference"] for r in rows), reverse=True)
    out["reference_top100_share"] = round(sum(ref[:100]) / sum(ref), 3) if sum(ref) else 0.0
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="search")
    parser.add_argument("--variant", action="append", default=[], help="option overrides, k=v[:k=v]")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--worlds", type=int, default=1000, help="oracle playouts per position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--pool", nargs="+", type=Path, help="only sum these files' choices and print")
    parser.add_argument("--by", help="with --pool: one summary per value of this field (round, reading, moves)")
    args = parser.parse_args(argv)
    if args.pool:
        rows = [json.loads(line) for p in args.pool for line in p.read_text().splitlines() if line.strip()]
        if not rows:
            parser.error("no choices in the files given")
        if args.by and args.by not in rows[0]:
            parser.error(f"no field {args.by!r} in the rows; fields: {', '.join(rows[0])}")
        groups = {None: rows} if not args.by else {
            v: [r for r in rows if r[args.by] == v] for v in sorted({r[args.by] for r in rows}, key=str)}
        for value, group in groups.items():
            print(json.dumps(({args.by: value} if args.by else {}) | summary(group)))
        return
    game = cardtable.load_game("crazy_eights")
    opts = game.options({}, players=4)
    rng = random.Random(args.seed)
    rows = []
    for g in range(args.games):
        deal = rng.randrange(2**31)
        me = g % 4
        bots = [make_bot(game, args.bot if s == me else "heuristic", deal + 7919 * s) for s in range(4)]
        usual = make_bot(game, "heuristic")
        state, _ = game.new(opts, deal)
        while (seat := game.to_act(state)) is not None:
            obs, legal = game.observe(state, seat), game.legal_actions(state, seat)
            moves = candidates(obs, legal) if seat == me else []
            if len(moves) > 1:
                chosen = {"heuristic": usual.act(obs, legal)}
                for v in args.variant:
                    chosen[v] = variant_of(bots[me], v).act(obs, legal)
                action = chosen["reference"] = bots[me].act(obs, legal)
                values = move_values(obs, moves, args.worlds, random.Random(rng.randrange(2**62)), state)
                best = max(values)
                reader = getattr(bots[me], "filter", None)
                row = {"seed": args.seed, "game": g, "round": obs.round, "hand": len(obs.hand),
                       "moves": len(moves), "stock": obs.stock_count,
                       "reading": None if reader is None else
                       "fallback" if reader.failed or reader.broken else "rebuilt" if reader.rebuilt else "replayed",
                       "move": {k: index_of(moves, a) for k, a in chosen.items()},
                       "regret": {k: round(best - values[index_of(moves, a)], 5) for k, a in chosen.items()}}
                rows.append(row)
                if args.out:
                    with args.out.open("a") as f:
                        f.write(json.dumps(row) + "\n")
            else:
                action = bots[seat].act(obs, legal)
            state, _ = game.apply(state, seat, action)
    print(json.dumps(summary(rows)))


if __name__ == "__main__":
    main()
