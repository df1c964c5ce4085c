"""Engine throughput, like for like with OpenSpiel, plus memory per state and the cost of loading a game.

    python benchmarks/throughput.py [--quick] [--rounds 15] [--slice 0.3] [--json]
                                    [--only peers,games,memory,load] [--baseline DIR]

Method (docs/performance.md says why):

* **CPU time** (``time.process_time``), never wall time: the machine is shared.
* **Interleaved**: each measurement is ``--rounds`` short rounds; in every round each side runs whole
  games for ``--slice`` CPU seconds, the order of the sides alternating from round to round. A
  ratio is taken per round (both sides saw the same machine load) and we print the **median and
  the spread (min–max and the interquartile range)** of those ratios.
* **The same policy on both sides**, in Python, through each engine's public Python API.
* **Decisions counted the same way**: a decision is a player's choice (bid, card, draw, pass…).
  OpenSpiel's chance steps (dealing each card, drawing a card, choosing the dealer) are not
  decisions; they are counted and listed separately, and their time is part of the game's time,
  as our dealing is.

Peers:

* **Crazy Eights**, 4 players, one round, against OpenSpiel ``crazy_eights`` with
  ``OPENSPIEL_C8`` below. Policy on both sides (our rules): play a playable card chosen uniformly
  among the playable *cards*; an eight names a suit chosen uniformly; draw only when nothing plays;
  pass only when nothing plays and nothing can be drawn. OpenSpiel names the suit after an eight as
  a separate step: it is folded into the eight's decision (counted under ``folded``), as our
  ``PlayEight`` is one action. Remaining differences: OpenSpiel puts back a turned eight and turns
  another (we keep it, its own suit in force); OpenSpiel ends a blocked game after players + 1
  passes with an empty stock (we after ``players`` passes in a row); scoring differs (not measured).
* **Wizard**, 4 players, ``rounds=10`` (tricks 1, 2, …, 10), against OpenSpiel ``oh_hell``,
  4 players, the 52-card deck, played as ten games with ``num_tricks_fixed`` 1 … 10: the same number
  of rounds and of tricks per round (oh_hell deals at most 13 tricks to 4 players from 52 cards, so
  Wizard's 15-round game has no match). Random legal play on both sides. Wizard's own extras are
  decisions too (a dealer naming trump after a turned wizard: about 1 round in 15); oh_hell's
  choice of dealer, its deals and the turned trump card are chance steps.
* Both through our public ``apply`` (which validates every action) and through ``apply_unchecked``
  (for callers that took the action from ``legal_actions``).

Also: random-play decisions/s of every game against the figures the README gave before this
benchmark (``BASELINE``; with ``--baseline DIR``, a checkout of the old code is measured
interleaved instead, in a worker process); memory per independent state; a stored Wizard game
loaded (``load_state``: JSON decode + validated replay; and ``load_record`` + ``replay_state``) against playing
it (the random play through ``apply`` of the same games), with the general path (``json.loads`` +
``GameRecord.from_json`` + ``replay`` with events) and the floor (decode + deals + one lookup per action) beside it.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import pickle
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cardtable
from cardtable.core import GameRecord, replay

# ---------------------------------------------------------------------------------------------
# Measurement.


@dataclass
class Tally:
    """What one side did in one slice: games, decisions, chance steps, folded steps, CPU seconds."""

    games: int = 0
    decisions: int = 0
    chance: int = 0
    folded: int = 0
    cpu: float = 0.0

    def add(self, other: Tally) -> None:
        """Add another slice's counts."""
        self.games += other.games
        self.decisions += other.decisions
        self.chance += other.chance
        self.folded += other.folded
        self.cpu += other.cpu

    @property
    def per_s(self) -> float:
        """Decisions per CPU second."""
        return self.decisions / self.cpu if self.cpu else 0.0

    @property
    def games_per_s(self) -> float:
        """Games per CPU second."""
        return self.games / self.cpu if self.cpu else 0.0


PlayOne = Callable[[int, random.Random, Tally], None]


def run_slice(play_one: PlayOne, seconds: float, seed0: int) -> Tally:
    """Whole games of ``play_one`` until ``seconds`` of CPU time have passed."""
    tally = Tally()
    rng = random.Random(seed0)
    seed = seed0
    gc.collect()
    start = time.process_time()
    deadline = start + seconds
    while True:
        seed += 1
        play_one(seed, rng, tally)
        tally.games += 1
        now = time.process_time()
        if now >= deadline:
            break
    tally.cpu = now - start
    return tally


@dataclass
class Comparison:
    """Several sides measured in interleaved rounds; ratios per round against a reference side."""

    sides: dict[str, list[Tally]] = field(default_factory=dict)

    def run(self, players: dict[str, Callable[[float, int], Tally]], rounds: int, seconds: float) -> None:
        """``rounds`` rounds; each side once per round, the order rotating."""
        names = list(players)
        for name in names:
            self.sides.setdefault(name, [])
        for r in range(rounds):
            k = r % len(names)
            for name in names[k:] + names[:k]:
                self.sides[name].append(players[name](seconds, 1000 * r))

    def total(self, name: str) -> Tally:
        """The sum of a side's slices."""
        out = Tally()
        for t in self.sides[name]:
            out.add(t)
        return out

    def ratios(self, ours: str, theirs: str, *, per: str = "decision") -> list[float]:
        """Per-round ratios ours / theirs of decisions (or games) per CPU second."""
        def rate(t: Tally) -> float:
            return t.per_s if per == "decision" else t.games_per_s
        return [rate(a) / rate(b) for a, b in zip(self.sides[ours], self.sides[theirs], strict=True)]


def spread(values: list[float]) -> dict[str, float]:
    """Median, min, max and the interquartile range."""
    values = sorted(values)
    if len(values) >= 4:
        q1, _, q3 = statistics.quantiles(values, n=4)
    else:
        q1, q3 = values[0], values[-1]
    return {"median": statistics.median(values), "min": values[0], "max": values[-1], "q1": q1, "q3": q3}


def fmt_spread(s: dict[str, float]) -> str:
    """``1.23x (IQR 1.20–1.25, range 1.10–1.30)``."""
    return f"{s['median']:.2f}x (IQR {s['q1']:.2f}–{s['q3']:.2f}, range {s['min']:.2f}–{s['max']:.2f})"


# ---------------------------------------------------------------------------------------------
# Our games under a policy.


def ours_random(name: str, options: dict[str, Any], *, checked: bool) -> PlayOne:
    """Random legal play of one of our games through ``apply`` (or ``apply_unchecked``)."""
    game = cardtable.load_game(name)
    opts = game.options(options)
    apply = game.apply if checked else game.apply_unchecked
    to_act, legal_actions, new = game.to_act, game.legal_actions, game.new

    def play_one(seed: int, rng: random.Random, tally: Tally) -> None:
        state, _ = new(opts, seed)
        n = 0
        randrange = rng.randrange
        while (seat := to_act(state)) is not None:
            legal = legal_actions(state, seat)
            state, _ = apply(state, seat, legal[randrange(len(legal))])
            n += 1
        tally.decisions += n

    return play_one


def ours_crazy_eights(*, checked: bool) -> PlayOne:
    """Our Crazy Eights, 4 players, one round, under the rules-matched policy."""
    from cardtable.games.crazy_eights.actions import PlayEight

    game = cardtable.load_game("crazy_eights")
    opts = game.options({"players": 4, "rounds": 1})
    apply = game.apply if checked else game.apply_unchecked
    to_act, legal_actions = game.to_act, game.legal_actions

    def play_one(seed: int, rng: random.Random, tally: Tally) -> None:
        state, _ = game.new(opts, seed)
        n = 0
        randrange = rng.randrange
        while (seat := to_act(state)) is not None:
            legal = legal_actions(state, seat)
            if len(legal) == 1:  # one card, a draw or a pass
                action = legal[0]
            else:
                # Uniform over cards: an eight appears once per suit (4 in a row); index its first.
                cards = [i for i, a in enumerate(legal) if type(a) is not PlayEight or a.suit == "spades"]
                i = cards[randrange(len(cards))]
                if type(legal[i]) is PlayEight:
                    i += randrange(4)
                action = legal[i]
            state, _ = apply(state, seat, action)
            n += 1
        tally.decisions += n

    return play_one


# ---------------------------------------------------------------------------------------------
# OpenSpiel under the same policies.

OPENSPIEL_C8 = {
    "players": 4,                # as ours: 4 players, 5 cards each
    "use_special_cards": False,  # ours: only eights are special
    "reshuffle": True,           # ours: an empty stock is rebuilt from the discards
    "max_draw_cards": 52,        # ours: draw until a playable card turns up
    "max_turns": 100000,         # ours: no limit on plays in practice (our safety limit is 2000 actions)
}
C8_DRAW, C8_PASS = 52, 53


def load_pyspiel() -> Any:
    """The ``pyspiel`` module, or None if OpenSpiel is not installed."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    return pyspiel


def chance_step(state: Any, rng: random.Random) -> None:
    """One chance step: an outcome drawn with its probability (all are uniform in these games)."""
    outcomes = state.chance_outcomes()
    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])


def openspiel_crazy_eights(pyspiel: Any) -> PlayOne:
    """OpenSpiel ``crazy_eights`` under our rules' policy (see the module docstring)."""
    game = pyspiel.load_game("crazy_eights", OPENSPIEL_C8)

    def play_one(seed: int, rng: random.Random, tally: Tally) -> None:
        state = game.new_initial_state()
        n = chance = folded = 0
        randrange = rng.randrange
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[randrange(len(outcomes))][0])
                chance += 1
                continue
            legal = state.legal_actions()
            cards = [a for a in legal if a < C8_DRAW]
            n += 1
            if cards:
                card = cards[randrange(len(cards))]
                state.apply_action(card)
                if card // 4 == 6 and not state.is_terminal():  # an eight: name the suit, same decision
                    suits = state.legal_actions()
                    state.apply_action(suits[randrange(len(suits))])
                    folded += 1
            else:
                state.apply_action(C8_DRAW if C8_DRAW in legal else C8_PASS)
        tally.decisions += n
        tally.chance += chance
        tally.folded += folded

    return play_one


def openspiel_oh_hell(pyspiel: Any, tricks: range) -> PlayOne:
    """OpenSpiel ``oh_hell``, 4 players, one game per trick count in ``tricks``; random legal play."""
    games = [pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": k}) for k in tricks]

    def play_one(seed: int, rng: random.Random, tally: Tally) -> None:
        n = chance = 0
        randrange = rng.randrange
        for game in games:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[randrange(len(outcomes))][0])
                    chance += 1
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[randrange(len(legal))])
                    n += 1
        tally.decisions += n
        tally.chance += chance

    return play_one


def timed(play_one: PlayOne) -> Callable[[float, int], Tally]:
    """A side for :meth:`Comparison.run`."""
    return lambda seconds, seed: run_slice(play_one, seconds, seed)


# ---------------------------------------------------------------------------------------------
# Sections.

WIZARD_ROUNDS = 10

#: Decisions per second the README printed before this benchmark (2026-11-29, wall clock, random
#: play, same machine): the figures the engine work must beat by 2x for Mus and Durak.
BASELINE: dict[str, dict[str, float]] = {
    "crazy_eights": {"apply": 261_638, "apply_unchecked": 304_292},
    "durak": {"apply": 95_299, "apply_unchecked": 116_804},
    "kaiser": {"apply": 181_391, "apply_unchecked": 218_555},
    "mus": {"apply": 36_882, "apply_unchecked": 47_424},
    "wizard": {"apply": 183_281, "apply_unchecked": 206_908},
}

GAME_OPTIONS: dict[str, dict[str, Any]] = {
    "wizard": {"players": 4},
    "mus": {"players": 4},
    "durak": {"players": 3},
    "kaiser": {"players": 4},
    "crazy_eights": {"players": 4, "rounds": 1},
}


def section_peers(args: argparse.Namespace, out: dict[str, Any]) -> None:
    """Crazy Eights and Wizard against OpenSpiel, interleaved."""
    pyspiel = load_pyspiel()
    if pyspiel is None:
        out["peers"] = "OpenSpiel not importable: pip install -e '.[bench]'"
        return
    peers: dict[str, Any] = {}
    c8 = Comparison()
    c8.run({"apply": timed(ours_crazy_eights(checked=True)),
            "apply_unchecked": timed(ours_crazy_eights(checked=False)),
            "openspiel": timed(openspiel_crazy_eights(pyspiel))}, args.rounds, args.slice)
    wiz = Comparison()
    wiz.run({"apply": timed(ours_random("wizard", {"players": 4, "rounds": WIZARD_ROUNDS}, checked=True)),
             "apply_unchecked": timed(ours_random("wizard", {"players": 4, "rounds": WIZARD_ROUNDS},
                                                  checked=False)),
             "openspiel": timed(openspiel_oh_hell(pyspiel, range(1, WIZARD_ROUNDS + 1)))},
            args.rounds, args.slice)
    for name, comp, peer in (("crazy_eights", c8, "crazy_eights " + json.dumps(OPENSPIEL_C8)),
                             ("wizard", wiz, f"oh_hell players=4, num_tricks_fixed=1..{WIZARD_ROUNDS}")):
        row: dict[str, Any] = {"peer": peer}
        for side in ("apply", "apply_unchecked", "openspiel"):
            t = comp.total(side)
            row[side] = {"decisions_per_s": t.per_s, "games_per_s": t.games_per_s,
                         "decisions_per_game": t.decisions / t.games, "games": t.games,
                         "chance_per_game": t.chance / t.games, "folded_per_game": t.folded / t.games}
        for side in ("apply", "apply_unchecked"):
            row[f"ratio_{side}_per_decision"] = spread(comp.ratios(side, "openspiel"))
            row[f"ratio_{side}_per_game"] = spread(comp.ratios(side, "openspiel", per="game"))
        peers[name] = row
    out["peers"] = peers


def section_games(args: argparse.Namespace, out: dict[str, Any]) -> None:
    """Random-play decisions/s of every game, against the old README figures (or an old checkout)."""
    rows: dict[str, Any] = {}
    for name in cardtable.all_games():
        if args.game and name not in args.game:
            continue
        sides: dict[str, Callable[[float, int], Tally]] = {
            "apply": timed(ours_random(name, GAME_OPTIONS.get(name, {}), checked=True)),
            "apply_unchecked": timed(ours_random(name, GAME_OPTIONS.get(name, {}), checked=False)),
        }
        if args.baseline:
            sides["old_apply"] = baseline_worker(args.baseline, name, checked=True)
            sides["old_apply_unchecked"] = baseline_worker(args.baseline, name, checked=False)
        comp = Comparison()
        comp.run(sides, max(3, 2 * args.rounds // 3), args.slice)
        row: dict[str, Any] = {"options": GAME_OPTIONS.get(name, {})}
        for side in sides:
            t = comp.total(side)
            row[side] = {"decisions_per_s": t.per_s, "games_per_s": t.games_per_s}
        for side in ("apply", "apply_unchecked"):
            if args.baseline:
                row[f"speedup_{side}"] = spread(comp.ratios(side, f"old_{side}"))
            else:
                row[f"speedup_{side}"] = row[side]["decisions_per_s"] / BASELINE[name][side]
        rows[name] = row
    out["games"] = rows


def baseline_worker(directory: str, name: str, *, checked: bool) -> Callable[[float, int], Tally]:
    """A side that runs this script's worker against the cardtable checkout in ``directory``."""
    def side(seconds: float, seed: int) -> Tally:
        env = dict(os.environ, PYTHONPATH=os.path.abspath(directory))
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", name,
               "checked" if checked else "unchecked", str(seconds), str(seed)]
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True,
                              cwd=os.path.abspath(directory))
        return Tally(**json.loads(done.stdout))
    return side


def worker(name: str, mode: str, seconds: str, seed: str) -> int:
    """Worker process of ``--baseline``: one slice of random play, its tally as JSON."""
    tally = run_slice(ours_random(name, GAME_OPTIONS.get(name, {}), checked=mode == "checked"),
                      float(seconds), int(seed))
    print(json.dumps(tally.__dict__))
    return 0


def malloc_in_use() -> int:
    """Bytes the C heap (glibc ``malloc``) has handed out: where OpenSpiel's C++ states live."""
    import ctypes

    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd",
                                                          "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]

    libc = ctypes.CDLL("libc.so.6")
    libc.mallinfo2.restype = MallInfo2
    info = libc.mallinfo2()
    return int(info.uordblks + info.hblkhd)


def traced(make: Callable[[], Any], n: int) -> float:
    """Python-heap bytes per object (``tracemalloc``) while ``n`` objects made by ``make`` are alive."""
    import tracemalloc

    keep: list[Any] = [None] * n
    gc.collect()
    tracemalloc.start()
    for i in range(n):
        keep[i] = make()
    size = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del keep
    return size / n


def c_heap(make: Callable[[], Any], n: int) -> float:
    """C-heap bytes per object (``mallinfo2``) while ``n`` objects made by ``make`` are alive."""
    keep: list[Any] = [None] * n
    gc.collect()
    before = malloc_in_use()
    for i in range(n):
        keep[i] = make()
    after = malloc_in_use()
    del keep
    return (after - before) / n


def wizard_state_at(decisions: int, seed: int = 7) -> Any:
    """A Wizard (4 players) state after ``decisions`` random decisions."""
    game = cardtable.load_game("wizard")
    rng = random.Random(seed)
    state, _ = game.new(game.options({"players": 4}), seed)
    for _ in range(decisions):
        seat = game.to_act(state)
        legal = game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, legal[rng.randrange(len(legal))])
    return state


def oh_hell_state_at(pyspiel: Any, tricks: int, decisions: int, seed: int = 7) -> Any:
    """An oh_hell (4 players, ``tricks`` tricks) state after ``decisions`` random decisions."""
    state = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": tricks}).new_initial_state()
    rng = random.Random(seed)
    done = 0
    while done < decisions:
        if state.is_chance_node():
            chance_step(state, rng)
            continue
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        done += 1
    return state


def section_memory(args: argparse.Namespace, out: dict[str, Any]) -> None:
    """Memory of one independent state: Wizard in round 8, mid-trick, against oh_hell at the same point."""
    n = 2000 if args.quick else 10000
    # Round 8 of Wizard: 1+…+7 rounds of (4 bids + 4 * tricks cards) done, then 4 bids and 9 cards.
    done = sum(4 + 4 * r for r in range(1, 8)) + 4 + 9
    ours = wizard_state_at(done)
    blob = pickle.dumps(ours, protocol=pickle.HIGHEST_PROTOCOL)
    row: dict[str, Any] = {
        "ours": {"what": "Wizard 4p, round 8, 4 bids and 9 cards played",
                 "pickle_bytes": len(blob),
                 "bytes_per_state": traced(lambda: pickle.loads(blob), n)},
    }
    pyspiel = load_pyspiel()
    if pyspiel is not None:
        theirs = oh_hell_state_at(pyspiel, 8, 4 + 9)
        row["openspiel"] = {"what": "oh_hell 4p, 8 tricks, 4 bids and 9 cards played",
                            "serialize_bytes": len(theirs.serialize()),
                            "bytes_per_state": c_heap(theirs.clone, n) + traced(theirs.clone, n)}
        row["ratio_memory"] = row["ours"]["bytes_per_state"] / row["openspiel"]["bytes_per_state"]
        row["ratio_bytes"] = len(blob) / len(theirs.serialize())
    out["memory"] = row


def section_load(args: argparse.Namespace, out: dict[str, Any]) -> None:
    """A stored Wizard game (4 players, all rounds): its JSON text decoded and replayed (three ways) vs played.

    Per round each side repeats its pass over the 20 games until it has used ``--slice / 3`` CPU seconds
    (a pass is 10–40 ms, too short to time alone on a loaded machine); the ratio is of the time per pass.
    """
    from cardtable.core import load_record, replay_state  # here: --baseline workers import this script with older code
    from cardtable.core import record as record_module
    from cardtable.core import rng as rng_module
    from cardtable.core.record_decoder import decoder_for
    dealt, rng_state = getattr(rng_module, "dealt", None), rng_module.rng_state
    load_state = getattr(record_module, "load_state", None)  # older checkouts lack it
    game = cardtable.load_game("wizard")
    options = {"players": 4}
    opts = game.options(options)
    texts: list[str] = []
    for seed in range(1, 21):
        rng = random.Random(seed)
        state, _ = game.new(opts, seed)
        actions = []
        while (seat := game.to_act(state)) is not None:
            legal = game.legal_actions(state, seat)
            action = legal[rng.randrange(len(legal))]
            actions.append((seat, action))
            state, _ = game.apply(state, seat, action)
        texts.append(json.dumps(GameRecord("wizard", options, seed, tuple(actions)).to_json()))
        if load_state is not None:  # the same state, whichever way it is loaded
            assert pickle.dumps(load_state(texts[-1], game)) == pickle.dumps(state)
    play = ours_random("wizard", options, checked=True)

    parts = {"load_record": 0.0, "replay_state": 0.0}

    def load_all() -> None:
        for text in texts:
            t0 = time.process_time()
            record = load_record(text, game)  # msgspec decode, the engine's cached actions
            t1 = time.process_time()
            replay_state(game, record)  # every action validated, no events, no state copies
            t2 = time.process_time()
            parts["load_record"] += t1 - t0
            parts["replay_state"] += t2 - t1

    def load_state_all() -> None:
        assert load_state is not None
        for text in texts:
            load_state(text, game)  # decode + validated replay, no GameRecord

    def load_all_slow() -> None:
        for text in texts:
            replay(game, GameRecord.from_json(json.loads(text), game))

    def play_all() -> None:
        rng, tally = random.Random(0), Tally()
        for seed in range(1, len(texts) + 1):
            play(seed, rng, tally)

    # The floor: what any validated replay of these records must do at least, with the tools used here.
    decoder = decoder_for(game.info.action_types)
    lookup: dict[Any, int] = {}  # one int per distinct decoded action: "one table lookup per action"
    rounds = opts.game_rounds()
    floor_parts = {"decode": 0.0, "deals": 0.0, "lookups": 0.0}

    def floor_all() -> None:
        assert decoder is not None and dealt is not None
        for text in texts:
            t0 = time.process_time()
            data = decoder.decode_items(text)  # the compiled msgspec pass alone
            t1 = time.process_time()
            rng = rng_state(data.seed)
            for number in range(1, rounds + 1):  # the game's deals (the same work as its shuffles)
                _, _, rng = dealt(rng, 60, 4, number)
            t2 = time.process_time()
            list(map(lookup.__getitem__, data.actions))
            t3 = time.process_time()
            floor_parts["decode"] += t1 - t0
            floor_parts["deals"] += t2 - t1
            floor_parts["lookups"] += t3 - t2

    if decoder is not None and hasattr(decoder, "decode_items"):
        for text in texts:
            for item in decoder.decode_items(text).actions:
                lookup.setdefault(item, len(lookup))

    budget = args.slice / 3

    def per_pass(side: Callable[[], None]) -> tuple[float, int]:
        start, passes = time.process_time(), 0
        while True:
            side()
            passes += 1
            spent = time.process_time() - start
            if spent >= budget:
                return spent / passes, passes

    sides: list[Callable[[], None]] = [load_all, play_all, load_all_slow]
    if load_state is not None and dealt is not None:
        sides += [load_state_all, floor_all]
    ratios: dict[str, list[float]] = {side.__name__: [] for side in sides if side is not play_all}
    played, loads, floors = 0.0, 0, 0
    for r in range(args.rounds):
        k = r % len(sides)
        times = {}
        for side in sides[k:] + sides[:k]:
            times[side.__name__], passes = per_pass(side)
            if side is load_all:
                loads += passes
            if side is floor_all:
                floors += passes
        for name in ratios:
            ratios[name].append(times[name] / times["play_all"])
        played += times["play_all"]
    out["load"] = {"games": len(texts), "ratio_load_over_play": spread(ratios["load_all"]),
                   "ratio_slow_load_over_play": spread(ratios["load_all_slow"]),
                   "parts_over_play": {name: t / loads / (played / args.rounds) for name, t in parts.items()}}
    if load_state is not None and dealt is not None:
        out["load"]["ratio_load_state_over_play"] = spread(ratios["load_state_all"])
        out["load"]["ratio_floor_over_play"] = spread(ratios["floor_all"])
        out["load"]["floor_parts_over_play"] = {name: t / floors / (played / args.rounds)
                                                for name, t in floor_parts.items()}


# ---------------------------------------------------------------------------------------------
# Output.


def print_table(out: dict[str, Any], args: argparse.Namespace) -> None:
    """One human-readable table per section."""
    print(f"cardtable throughput — {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
          f"{args.rounds} interleaved rounds of {args.slice} s CPU per side")
    peers = out.get("peers")
    if isinstance(peers, str):
        print(f"\n{peers}")
    elif peers:
        print("\n## Against OpenSpiel (ratio = ours / OpenSpiel, per round; median, IQR, range)")
        print(f"{'game':<13} {'side':<16} {'decisions/s':>12} {'games/s':>9} {'dec/game':>9} "
              f"{'chance/game':>11}  ratio per decision")
        for name, row in peers.items():
            for side in ("apply", "apply_unchecked", "openspiel"):
                r = row[side]
                ratio = fmt_spread(row[f"ratio_{side}_per_decision"]) if side != "openspiel" else row["peer"]
                print(f"{name:<13} {side:<16} {r['decisions_per_s']:>12,.0f} {r['games_per_s']:>9,.1f} "
                      f"{r['decisions_per_game']:>9.1f} {r['chance_per_game']:>11.1f}  {ratio}")
            print(f"{'':<13} per game: apply {fmt_spread(row['ratio_apply_per_game'])}; "
                  f"unchecked {fmt_spread(row['ratio_apply_unchecked_per_game'])}")
            if row["openspiel"]["folded_per_game"]:
                print(f"{'':<13} OpenSpiel suit namings folded into eights: "
                      f"{row['openspiel']['folded_per_game']:.1f} per game")
    games = out.get("games")
    if games:
        against = "old checkout, interleaved" if args.baseline else "README figures of 2026-11-29"
        print(f"\n## Every game, random play (speed-up against the {against})")
        print(f"{'game':<13} {'apply dec/s':>12} {'speed-up (IQR)':>19} {'unchecked dec/s':>16} "
              f"{'speed-up (IQR)':>19} {'games/s':>9}")
        for name, row in games.items():
            def up(value: Any) -> str:
                if not isinstance(value, dict):
                    return f"{value:.2f}x"
                return f"{value['median']:.2f}x ({value['q1']:.2f}–{value['q3']:.2f})"
            print(f"{name:<13} {row['apply']['decisions_per_s']:>12,.0f} {up(row['speedup_apply']):>19} "
                  f"{row['apply_unchecked']['decisions_per_s']:>16,.0f} {up(row['speedup_apply_unchecked']):>19} "
                  f"{row['apply']['games_per_s']:>9,.1f}")
    mem = out.get("memory")
    if mem:
        o = mem["ours"]
        print(f"\n## Memory per independent state ({o['what']})")
        print(f"ours: pickle {o['pickle_bytes']:,} B; {o['bytes_per_state']:,.0f} B/state in memory "
              f"(tracemalloc, states unpickled one by one)")
        if "openspiel" in mem:
            t = mem["openspiel"]
            print(f"OpenSpiel ({t['what']}): serialize() {t['serialize_bytes']:,} B; "
                  f"{t['bytes_per_state']:,.0f} B/state in memory (state.clone(): C heap by mallinfo2 "
                  f"+ Python wrapper by tracemalloc)")
            print(f"ratio ours / OpenSpiel: in memory {mem['ratio_memory']:.2f}x, "
                  f"stored bytes {mem['ratio_bytes']:.2f}x")
    load = out.get("load")
    if load:
        print(f"\n## Loading a stored Wizard game ({load['games']} games, 4 players, all rounds)")
        if "ratio_load_state_over_play" in load:
            print(f"load_state (JSON decode + validated replay, the state only) / play (random play through apply): "
                  f"{fmt_spread(load['ratio_load_state_over_play'])}")
        print(f"load_record + replay_state (the record, then its state) / play: "
              f"{fmt_spread(load['ratio_load_over_play'])}")
        print("of which, over play (all rounds together): " + ", ".join(
            f"{name} {value:.2f}x" for name, value in load["parts_over_play"].items()))
        print(f"the general path (json.loads + GameRecord.from_json + replay with events) / play: "
              f"{fmt_spread(load['ratio_slow_load_over_play'])}")
        if "ratio_floor_over_play" in load:
            print(f"the floor (the msgspec decode + the games' deals + one dict lookup per action, no rule "
                  f"checked) / play: {fmt_spread(load['ratio_floor_over_play'])}; " + ", ".join(
                      f"{name} {value:.2f}x" for name, value in load["floor_parts_over_play"].items()))


SECTIONS = {"peers": section_peers, "games": section_games, "memory": section_memory, "load": section_load}


def main(argv: list[str] | None = None) -> int:
    """Run the chosen sections and print one table (or JSON)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        return worker(*argv[1:5])
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a fast, rough run (5 rounds of 0.1 s)")
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds per comparison")
    parser.add_argument("--slice", type=float, default=0.3, help="CPU seconds per side per round")
    parser.add_argument("--only", default=",".join(SECTIONS), help="sections: " + ",".join(SECTIONS))
    parser.add_argument("--game", action="append", help="games section: only these games")
    parser.add_argument("--baseline", help="a checkout of older cardtable code to measure interleaved")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds, args.slice = 5, 0.1
    out: dict[str, Any] = {}
    for name in args.only.split(","):
        if name not in SECTIONS:
            parser.error(f"unknown section {name!r} (known: {', '.join(SECTIONS)})")
        SECTIONS[name](args, out)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print_table(out, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
