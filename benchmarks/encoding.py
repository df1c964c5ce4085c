"""The cost of encoding for learning agents: random playouts with and without encode + mask.

    python benchmarks/encoding.py [--seconds 1] [--repeats 5] [--game NAME ...] [--mode LOOP ...] [--floor] [--json]

For each game, random games are played four ways, interleaved in one process and
repeated:

- ``plain``: ``legal_actions``, a random choice, ``apply_unchecked``;
- ``encoded``: the same loop (same seeds, same choices, so the same games) that also encodes
  the seat to act and its action mask at every decision, the way the PettingZoo environment
  and the OpenSpiel bridge do: one incremental ``Encoder`` per seat (``encode``,
  ``action_mask``), which rewrites only what changed;
- ``stateless``: the same loop with the stateless ``Encoding.encode`` and ``action_mask``
  into preallocated buffers (a whole buffer written at every call);
- ``rl loop``: what an RL agent's loop does instead of ``legal_actions``: the encoders'
  ``encode`` and ``action_mask``, a random legal id (``legal_ids``), ``action``,
  ``apply_unchecked``;
- ``pettingzoo``: the PettingZoo environment (``cardtable.rl.env``): ``observe`` of the agent
  to act, a random id among the mask's nonzero entries, ``step`` (which checks the id and
  calls ``apply``);
- ``floor`` (with ``--floor``): the plain loop plus the least any correct encoder must do at
  every decision, writing nothing: a call that reads every field the encoding shows that can
  change during play (``FLOOR_READS``) and compares each with a remembered value, and a call
  that writes the mask from legal ids the loop already has (their bits, found before the
  game's timing starts by playing it once with a copy of the random stream), as the encoders
  write it: the one or two bytes that changed, or the whole mask in one copy.

It prints CPU µs per decision and the ratios to ``plain`` (median of the repeats, with the
lowest and highest). The goal is a ratio of at most 1.3. With ``--floor`` it also prints how
many bytes of the seat's buffer (observation and mask) differ from that seat's previous call
on average, what storing them one by one into a memoryview costs on top of the floor
(``floor+stores``, an estimate from the measured cost of one store), and whether the floor
alone already exceeds 1.3 (in every repeat, or in the median only).
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import time
import timeit
from typing import Any

import numpy as np

import cardtable
import cardtable.rl
from cardtable.core.encoding import bits, write_bit_changes

BENCH_OPTIONS: dict[str, dict[str, Any]] = {
    "wizard": {"players": 4},
    "mus": {"players": 4},
    "durak": {"players": 3},
    "kaiser": {"players": 4},
    "crazy_eights": {"players": 4, "rounds": 1},
}

#: Per game, what an incremental encoder must read at every call during play: each field the
#: encoding shows that can change between two calls of the same seat, except those that another
#: field read here stands for (a round's setup is fixed while its bids or totals tuple is the
#: same object; a constant of the whole game is proven by one field read here too). Where a
#: game's state has had two layouts, one list per layout: the first whose fields the state has.
FLOOR_READS: dict[str, tuple[tuple[str, ...], ...]] = {
    "wizard": (("s.hands[seat]", "s.phase", "s.bids", "s.trick", "s.played", "s.lead", "s.leader", "s.tricks",
                "s.hands", "s.to_act"),),
    "crazy_eights": (("s.hands[seat]", "s.top", "s.suit", "s.turn", "s.over", "s.last_drawn", "s.hands", "s.stock",
                      "s.discards", "s.drawn", "s.passes", "s.totals"),),
    "kaiser": (("s.hands[seat]", "s.trick", "s.last_trick", "s.last_winner", "s.phase", "s.bids", "s.turn",
                "s.leader", "s.tricks", "s.points", "s.hands"),),
    "durak": (("s.held", "s.setup", "s.bout", "s.left", "s.over", "s.attacker", "s.defender", "s.drawn",
               "s.bout_number", "s.discards"),  # the packed state: every hand in one int, the deal's constants apart
              ("s.hands[seat]", "s.bout", "s.trump_card", "s.left", "s.over", "s.attacker", "s.defender", "s.deck",
               "s.bout_number", "s.discards", "s.hands")),
    "mus": (("s.hands", "s.pending", "s.shown", "s.phase", "s.dealer", "s.turn", "s.betting", "s.declared_pares",
             "s.declared_juego", "s.envites", "s.results", "s.team_in", "s.signals_seen[seat]", "s.winner",
             "s.tanteo", "s.games", "s.discard_counts", "s.mus_rounds", "s.deck", "s.hand_no", "s.game_no"),),
}


def floor_reads(name: str, state_type: type) -> tuple[str, ...]:
    """The first list of reads of ``FLOOR_READS[name]`` whose fields are all slots of ``state_type``."""
    slots = {slot for cls in state_type.__mro__ for slot in getattr(cls, "__slots__", ())}
    for reads in FLOOR_READS[name]:
        if all(expr[2:].split("[")[0] in slots for expr in reads):
            return reads
    raise ValueError(f"no list of floor reads fits the fields of {state_type.__name__}")


class Floor:
    """The least a correct encoder and mask writer of one seat do per call, writing nothing but the mask."""

    def __init__(self, name: str, encoding: Any, options: Any, seat: int, state_type: type) -> None:
        reads = "".join(f"        if {expr} is not last:\n            pass\n" for expr in floor_reads(name, state_type))
        namespace: dict[str, Any] = {}
        # Generated from the fixed expressions above: one read and one comparison each, no loop.
        exec(f"def make(seat, last):\n    def encode(s):\n{reads}    return encode\n", namespace)
        #: Reads each field and compares it with a remembered value (``last``: a closure cell).
        self.encode = namespace["make"](seat, None)
        size = encoding.num_actions(options)
        view = np.zeros(size, np.int8).data.cast("B")
        held = [0]

        def action_mask(legal_bits: int) -> None:
            """Write the mask of these legal id bits: the one or two bytes that changed, or all of them."""
            diff = legal_bits ^ held[0]
            if diff:
                held[0] = legal_bits
                if diff.bit_count() <= 2:
                    write_bit_changes(view, legal_bits, legal_bits ^ diff)
                else:
                    view[:] = bits(legal_bits, size)

        self.action_mask = action_mask


def playouts(game: Any, options: Any, seconds: float, encoding: Any | None, mode: str = "plain",
             env: Any = None) -> tuple[int, float]:
    """Random games from seed 1 on for about ``seconds``: (decisions, CPU seconds).

    ``mode``: ``plain``, ``encoded`` (incremental encoders), ``stateless``, ``rl`` or
    ``pettingzoo`` (``env``: the environment).
    """
    if mode == "pettingzoo":
        return env_playouts(env, seconds)
    rng = random.Random(1)
    apply = game.apply_unchecked
    legal_actions = game.legal_actions
    to_act = game.to_act
    decisions = 0
    seed = 0
    if mode == "stateless":
        obs = np.zeros(encoding.shape(options), np.uint8)
        mask = np.zeros(encoding.num_actions(options), np.int8)
        encode, action_mask = encoding.encode, encoding.action_mask
    elif mode == "floor":
        state_type = type(game.new(options, 0)[0])
        floors = [Floor(game.info.name, encoding, options, seat, state_type) for seat in range(options.players)]
    elif mode != "plain":
        encoders = [encoding.encoder(options, seat) for seat in range(options.players)]
    start = time.process_time()
    while time.process_time() - start < seconds:
        seed += 1
        state, _ = game.new(options, seed)
        if mode == "plain":
            while (seat := to_act(state)) is not None:
                legal = legal_actions(state, seat)
                state, _ = apply(state, seat, legal[rng.randrange(len(legal))])
                decisions += 1
        elif mode == "encoded":
            while (seat := to_act(state)) is not None:
                encoder = encoders[seat]
                encoder.encode(state)
                encoder.action_mask(state)
                legal = legal_actions(state, seat)
                state, _ = apply(state, seat, legal[rng.randrange(len(legal))])
                decisions += 1
        elif mode == "floor":
            # The legal id bits of every decision of this game, found first (untimed) by playing it
            # with a copy of the random stream: the loop below then has the ids at no cost.
            paused = time.process_time()
            known = legal_bits_of(game, encoding, state, rng.getstate())
            start += time.process_time() - paused
            for legal_bits in known:
                seat = to_act(state)
                floor = floors[seat]
                floor.encode(state)
                floor.action_mask(legal_bits)
                legal = legal_actions(state, seat)
                state, _ = apply(state, seat, legal[rng.randrange(len(legal))])
                decisions += 1
        elif mode == "stateless":
            while (seat := to_act(state)) is not None:
                encode(state, seat, obs)
                action_mask(state, seat, mask)
                legal = legal_actions(state, seat)
                state, _ = apply(state, seat, legal[rng.randrange(len(legal))])
                decisions += 1
        else:
            while (seat := to_act(state)) is not None:
                encoder = encoders[seat]
                encoder.encode(state)
                encoder.action_mask(state)
                ids = encoder.legal_ids(state)
                state, _ = apply(state, seat, encoder.action(ids[rng.randrange(len(ids))], state))
                decisions += 1
    return decisions, time.process_time() - start


def legal_bits_of(game: Any, encoding: Any, state: Any, rng_state: Any) -> list[int]:
    """The legal id bits at every decision of the random game from ``state`` with this random stream."""
    rng = random.Random()
    rng.setstate(rng_state)
    out = []
    while (seat := game.to_act(state)) is not None:
        out.append(encoding.legal_bits(state, seat))
        legal = game.legal_actions(state, seat)
        state, _ = game.apply_unchecked(state, seat, legal[rng.randrange(len(legal))])
    return out


def env_playouts(env: Any, seconds: float) -> tuple[int, float]:
    """Random games through the PettingZoo environment: (decisions, CPU seconds)."""
    rng = random.Random(1)
    decisions = 0
    seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        seed += 1
        env.reset(seed=seed)
        while not env.terminations[agent := env.agent_selection]:
            ids = np.flatnonzero(env.observe(agent)["action_mask"])
            env.step(int(ids[rng.randrange(len(ids))]))
            decisions += 1
    return decisions, time.process_time() - start


MODES = ("plain", "encoded", "stateless", "rl", "pettingzoo", "floor")
GOAL = 1.3


def changed_bytes(game: Any, options: Any, encoding: Any, games: int = 20) -> float:
    """Mean number of bytes (observation and mask) that differ from the same seat's previous call."""
    size = encoding.num_actions(options)
    last: dict[int, bytes] = {}
    total = calls = 0
    rng = random.Random(1)
    for seed in range(1, games + 1):
        state, _ = game.new(options, seed)
        while (seat := game.to_act(state)) is not None:
            obs = np.zeros(encoding.shape(options), np.uint8)
            encoding.encode(state, seat, obs)
            data = obs.tobytes() + encoding.action_mask(state, seat).tobytes()
            old = last.get(seat)
            if old is not None:
                total += sum(a != b for a, b in zip(data, old))
                calls += 1
            last[seat] = data
            legal = game.legal_actions(state, seat)
            state, _ = game.apply_unchecked(state, seat, legal[rng.randrange(len(legal))])
    assert size > 0
    return total / max(calls, 1)


def store_ns() -> float:
    """CPU ns of one byte stored into a memoryview at an index (the least each changed byte costs).

    The fastest of many short timings: on a busy machine, the one least disturbed by the others.
    """
    view = np.zeros(64, np.uint8).data.cast("B")
    return min(timeit.repeat("view[5] = 1", globals={"view": view}, number=50_000, repeat=40)) / 50_000 * 1e9


def measure(name: str, seconds: float, repeats: int, modes: tuple[str, ...]) -> dict[str, Any]:
    """Interleaved runs of the loops for one game: µs per decision and the ratios to ``plain``."""
    game = cardtable.load_game(name)
    options = game.options(**BENCH_OPTIONS.get(name, {}))
    encoding = importlib.import_module(f"cardtable.games.{name}.encoding").ENCODING
    env = cardtable.rl.env(name, **BENCH_OPTIONS.get(name, {}))
    us: dict[str, list[float]] = {mode: [] for mode in modes}
    for _ in range(repeats):
        for mode in modes:
            n, t = playouts(game, options, seconds, encoding, mode, env)
            us[mode].append(t / n * 1e6)
    row: dict[str, Any] = {"game": name, "options": BENCH_OPTIONS.get(name, {}),
                           "shape": list(encoding.shape(options)), "actions": encoding.num_actions(options),
                           "repeats": repeats, "plain_us": statistics.median(us["plain"])}
    for mode in modes[1:]:
        ratios = [e / p for e, p in zip(us[mode], us["plain"])]
        row[f"{mode}_us"] = statistics.median(us[mode])
        row[f"{mode}_ratio"] = statistics.median(ratios)
        row[f"{mode}_ratio_min"] = min(ratios)
        row[f"{mode}_ratio_max"] = max(ratios)
    if "floor" in modes:
        row["changed_bytes"] = changed_bytes(game, options, encoding)
        row["store_ns"] = store_ns()
        row["floor_stores_ratio"] = row["floor_ratio"] + row["changed_bytes"] * row["store_ns"] / 1000 / row["plain_us"]
    return row


def main() -> None:
    """Parse the arguments, measure, print a table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per run")
    parser.add_argument("--repeats", type=int, default=5, help="interleaved rounds of all loops per game")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--mode", action="append", choices=MODES[1:], help="only these loops besides plain")
    parser.add_argument("--floor", action="store_true", help="also measure the floor (see above)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    names = args.game or sorted(cardtable.all_games())
    modes = ("plain", *(args.mode or [m for m in MODES[1:-1]]))
    if args.floor and "floor" not in modes:
        modes += ("floor",)
    rows = [measure(name, args.seconds, args.repeats, modes) for name in names]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"CPU µs per decision; ratio to plain: median of {args.repeats} interleaved runs (lowest–highest)")
    print(f"{'game':<14}{'shape':>6}{'ids':>5}  {'loop':<12}{'µs':>8}{'ratio':>8}  (min–max)")
    for r in rows:
        print(f"{r['game']:<14}{r['shape'][0]:>6}{r['actions']:>5}  {'plain':<12}{r['plain_us']:>8.2f}")
        for m in modes[1:]:
            print(f"{'':<25}  {m:<12}{r[m + '_us']:>8.2f}{r[m + '_ratio']:>8.2f}  "
                  f"({r[m + '_ratio_min']:.2f}–{r[m + '_ratio_max']:.2f})")
        if "floor" in modes:
            print(f"{'':<25}  {'floor+stores':<12}{'':>8}{r['floor_stores_ratio']:>8.2f}  (estimate: "
                  f"{r['changed_bytes']:.1f} changed bytes a call × {r['store_ns']:.0f} ns)")
    if "floor" in modes:
        print()
        for r in rows:
            print(f"{r['game']}: {verdict(r)}")


def verdict(r: dict[str, Any]) -> str:
    """What the floor says about the goal for one game, in words (decided on every repeat, not the median only)."""
    floor = f"the floor is {r['floor_ratio']:.2f}x ({r['floor_ratio_min']:.2f}–{r['floor_ratio_max']:.2f})"
    if r["floor_ratio_min"] > GOAL:
        return f"{floor}, above {GOAL} in every run: the goal cannot be met in Python with this engine"
    if r["floor_ratio"] > GOAL:
        return f"{floor}, above {GOAL} in most runs: the goal is out of reach (with the changed bytes stored, " \
               f"{r['floor_stores_ratio']:.2f}x)"
    return f"{floor}: room below {GOAL} before anything is stored; with the changed bytes stored, " \
           f"{r['floor_stores_ratio']:.2f}x"

if __name__ == "__main__":
    main()
