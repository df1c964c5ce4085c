"""The batched compiled core (``cardtable.vector``) against OpenSpiel and against the technology it was chosen over.

    python benchmarks/vector.py [--rounds 9] [--slice 0.3] [--envs 1000] [--build auto|portable|wide]
                                [--only technologies,peers,encoding,memory,differential,
                                        wizard_peers,wizard_encoding,wizard_memory,wizard_differential,
                                        mus_peers,mus_encoding,mus_memory,mus_differential,durak,kaiser,builds]
                                [--differential 1000000] [--json]

Method (as ``benchmarks/throughput.py``, docs/performance.md): **CPU time** (``time.process_time``);
**interleaved** rounds, each side running for ``--slice`` CPU seconds per round, the order rotating;
a ratio per round, printed as the **median with the interquartile range and the min–max**.

Sections:

* ``technologies``: the Cython core (``Core.play``) against the numba loop of ``research/vector_numba_c8.py``
  (the same games: checked first), random play, with and without the observation and mask written at
  every decision; numba's compile time (first call in a fresh process, its cache emptied) and the lines
  of each second implementation of the rules.
* ``peers``: random play, 4 players, one round, decisions per CPU second on one core: the core
  (uniform over the legal ids, nothing encoded) against OpenSpiel's ``crazy_eights`` (``OPENSPIEL_C8``)
  driven from Python under the rules-matched policy of ``benchmarks/throughput.py``, and against
  ``pyspiel.random_sim_test`` (OpenSpiel's only whole-game C++ loop that pyspiel exposes: a test
  harness, see docs/performance.md), whose decisions per game are estimated from Python-driven games
  under the same uniform policy (it returns no counts).
* ``encoding``: the core's loop with the seat to act's observation and mask written at every decision
  against the same loop without (the same games): the all-C ``play`` loop (random and heuristic
  policies), and the batch API driven from Python (``policy`` then ``step``, one call each per batch step).
* ``memory``: the core's bytes per game state in a batch of 10,000 (its own accounting and the C heap).
* ``differential``: ``cardtable.vector.check`` over every option set, ``--differential`` decisions in all.
* ``wizard_peers``, ``wizard_encoding``, ``wizard_memory``, ``wizard_differential``: the same for the Wizard
  core. Its peer is OpenSpiel's ``oh_hell`` in the matched setting of ``benchmarks/throughput.py``: 4 players,
  ten rounds of 1 … 10 tricks (our ``rounds=10``; oh_hell played as ten games, ``num_tricks_fixed`` 1 … 10),
  random legal play, driven from Python. The differential is ``cardtable.vector.check_wizard``.
* ``durak``, ``kaiser``: each game's core (3 and 4 players) against its Python engine driven from Python
  (random play through the validated ``apply``, ``throughput.ours_random``: OpenSpiel has neither game),
  one env and a batch; the loop with the observation and mask written at every decision against the same
  loop without (random and heuristic play, the all-C loop and the batch API); bytes per game state in a
  batch of 10,000; the game's differential check (``check_durak``, ``check_kaiser``) over every option set.
* ``mus_peers``, ``mus_encoding``, ``mus_memory``, ``mus_differential``: the same for the Mus core (default
  options: 40 tantos, one game). OpenSpiel has no Mus: the peer is our own Python engine, random legal play
  through ``apply`` (``benchmarks/throughput.py``'s ``ours_random``), the same distribution as the core's
  uniform choice over the legal ids; the core's ``simple`` policy is measured too. The differential is
  ``cardtable.vector.check_mus`` over its option sets, every fourth giving mus whenever it may.
* ``builds``: every game's ``play`` loop (random play, its encoding section's setting) with and without the
  observation and mask, in the portable and the wide build, the four sides interleaved: the encoded / plain
  cost of each build and the wide build's speed over the portable one.

Every section but ``builds`` measures the build ``--build`` names (default ``auto``: the wide one where the CPU
runs it; the output's ``build`` says which).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import cardtable
from cardtable.vector.cores import BUILD_VARIABLE, BUILDS, build_of, load_core

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "research"))

Side = Callable[[float], tuple[int, float]]  # run for ~seconds of CPU: (decisions, cpu seconds)


def spread(values: list[float]) -> dict[str, float]:
    """Median, quartiles, min and max."""
    values = sorted(values)
    q1, _, q3 = statistics.quantiles(values, n=4) if len(values) >= 4 else (values[0], 0.0, values[-1])
    return {"median": statistics.median(values), "q1": q1, "q3": q3, "min": values[0], "max": values[-1]}


def fmt(s: dict[str, float], unit: str = "x") -> str:
    """``1.23x (IQR 1.20–1.25, range 1.10–1.30)``."""
    return (f"{s['median']:.2f}{unit} (IQR {s['q1']:.2f}–{s['q3']:.2f}, range {s['min']:.2f}–{s['max']:.2f})")


def interleave(sides: dict[str, Side], rounds: int, seconds: float) -> dict[str, list[float]]:
    """Decisions per CPU second of each side in each round, the order of the sides rotating."""
    rates: dict[str, list[float]] = {name: [] for name in sides}
    names = list(sides)
    for r in range(rounds):
        k = r % len(names)
        for name in names[k:] + names[:k]:
            decisions, cpu = sides[name](seconds)
            rates[name].append(decisions / cpu)
    return rates


def ratios(rates: dict[str, list[float]], a: str, b: str) -> dict[str, float]:
    """The spread of per-round ratios a / b."""
    return spread([x / y for x, y in zip(rates[a], rates[b], strict=True)])


def c8_options(**kw: Any) -> Any:
    """Crazy Eights options."""
    return cardtable.load_game("crazy_eights").options(**kw)


def game_core(name: str, envs: int, seed: int, options: dict[str, Any] | None = None,
              build: str | None = None) -> tuple[Any, tuple[Any, ...]]:
    """A core of ``name`` on ``options`` (default: its benchmark options, ``GAME_CORES``) in ``build`` (default:
    ``--build``) and its buffers: obs, mask, player, rewards, done, actions."""
    values = GAME_CORES[name] if options is None else options
    core = load_core(name, build).Core(envs, seed, cardtable.load_game(name).options(values), seed)
    return core, (np.zeros((envs, core.obs_size), np.uint8), np.zeros((envs, core.num_actions), np.int8),
                  np.zeros(envs, np.int32), np.zeros((envs, core.players), np.float32), np.zeros(envs, np.uint8),
                  np.zeros(envs, np.int64))


def game_play_side(name: str, envs: int, options: dict[str, Any] | None = None, *, encode: bool, policy: int = 0,
                   seed: int = 1, build: str | None = None) -> Side:
    """The core's all-C ``play`` loop (a chunk of steps at a time until the slice is used)."""
    core, (obs, mask, player, *_) = game_core(name, envs, seed, options, build)
    core.reset(obs, mask, player)
    chunk = max(1, 20_000 // envs)

    def side(seconds: float) -> tuple[int, float]:
        decisions = 0
        start = time.process_time()
        while (now := time.process_time()) - start < seconds:
            decisions += core.play(chunk, policy, encode, obs, mask)[0]
        return decisions, now - start

    return side


def game_step_side(name: str, envs: int, options: dict[str, Any] | None = None, *, encode: bool, policy: int = 0,
                   seed: int = 1) -> Side:
    """The batch API as an agent drives it from Python: ``Core.policy`` (default random), then ``Core.step``."""
    core, (obs, mask, player, rewards, done, actions) = game_core(name, envs, seed, options)
    core.reset(obs, mask, player)

    def side(seconds: float) -> tuple[int, float]:
        decisions = 0
        start = time.process_time()
        while (now := time.process_time()) - start < seconds:
            core.policy(policy, actions)
            core.step(actions, obs, mask, rewards, done, player, 0, encode)
            decisions += envs
        return decisions, now - start

    return side


def encoding_section(key: str, args: argparse.Namespace, out: dict[str, Any], side: Callable[..., Side],
                     step: Callable[..., Side], policy: str, setting: str | None = None) -> None:
    """A core's loop with the observation and mask written at every decision over the loop without: ``side`` and
    ``step`` make the ``play`` and the step-API sides, ``policy`` names built-in policy 1."""
    rates = interleave({"plain": side(args.envs, encode=False), "encoded": side(args.envs, encode=True),
                        f"plain_{policy}": side(args.envs, encode=False, policy=1),
                        f"encoded_{policy}": side(args.envs, encode=True, policy=1),
                        "step_plain": step(args.envs, encode=False),
                        "step_encoded": step(args.envs, encode=True)},
                       args.rounds, args.slice)
    out[key] = {} if setting is None else {"setting": setting}
    out[key].update({
        "decisions_per_s": {k: statistics.median(v) for k, v in rates.items()},
        "cost_encoded_over_plain_random": ratios(rates, "plain", "encoded"),
        f"cost_encoded_over_plain_{policy}": ratios(rates, f"plain_{policy}", f"encoded_{policy}"),
        "cost_encoded_over_plain_step_api": ratios(rates, "step_plain", "step_encoded"),
    })


def differential_runs(check: Callable[..., Any], sets: list[Any], decisions_wanted: int, *,
                      both_rewards: bool = True, covered: bool = False) -> dict[str, Any]:
    """``check`` on each option set, 8 envs, ``decisions_wanted`` decisions in all (``both_rewards``: game and round
    rewards in turn): the decisions, games and CPU seconds (``covered``: and what the tallies counted)."""
    envs = 8
    steps = max(1, decisions_wanted // (len(sets) * envs))
    decisions = games = 0
    seen: dict[str, int] = {}
    start = time.process_time()
    for k, options in enumerate(sets):
        rewards = {"rewards": ("game", "round")[k % 2]} if both_rewards else {}
        tally = check(options, seed=1000 * k, num_envs=envs, steps=steps, policy_seed=k, **rewards)
        decisions += tally.decisions
        games += tally.games
        for key, count in tally.ends.items():
            seen[key] = seen.get(key, 0) + count
    result: dict[str, Any] = {"option_sets": len(sets), "decisions": decisions, "games": games}
    if covered:
        result["covered"] = seen
    return {**result, "cpu_seconds": time.process_time() - start, "mismatches": 0}


def memory_section(key: str, name: str, options: dict[str, Any], out: dict[str, Any], buffers: str) -> None:
    """Bytes per game state of ``name`` in a batch of 10,000 on ``options``; ``buffers`` labels the buffers' bytes."""
    from throughput import malloc_in_use

    n = 10_000
    values = cardtable.load_game(name).options(options)
    before = malloc_in_use()
    core = load_core(name).Core(n, 1, values, 1)
    after = malloc_in_use()
    out[key] = {"batch": n, "core_bytes_per_game": core.state_bytes, "c_heap_bytes_per_game": (after - before) / n,
                buffers: core.obs_size + core.num_actions + 4 * core.players + 1 + 4}


def core_side(envs: int, *, encode: bool, policy: int = 0, seed: int = 1, players: int = 4) -> Side:
    """The Crazy Eights core's ``play`` loop (one round a game)."""
    return game_play_side("crazy_eights", envs, {"players": players, "rounds": 1}, encode=encode, policy=policy,
                          seed=seed)


def step_side(envs: int, *, encode: bool, seed: int = 1) -> Side:
    """The Crazy Eights batch API's loop as an agent drives it from Python (4 players, one round a game)."""
    return game_step_side("crazy_eights", envs, {"players": 4, "rounds": 1}, encode=encode, seed=seed)


def numba_side(envs: int, *, encode: bool, seed: int = 1) -> Side:
    """The numba loop, same games as ``core_side`` (compiled before timing)."""
    from vector_numba_c8 import NumbaBatch

    batch = NumbaBatch(envs, seed, policy_seed=seed)
    batch.play(1, encode)
    chunk = max(1, 20_000 // envs)

    def side(seconds: float) -> tuple[int, float]:
        decisions = 0
        start = time.process_time()
        while (now := time.process_time()) - start < seconds:
            decisions += batch.play(chunk, encode)[0]
        return decisions, now - start

    return side


def rules_lines(path: Path, start: str | None = None, end: str | None = None) -> int:
    """Non-blank, non-comment lines of ``path`` (between the markers if given)."""
    lines = path.read_text().splitlines()
    if start is not None:
        lines = lines[next(i for i, line in enumerate(lines) if line.startswith(start)):]
    if end is not None:
        lines = lines[:next(i for i, line in enumerate(lines) if line.startswith(end))]
    return sum(1 for line in lines if line.strip() and not line.strip().startswith("#"))


def section_technologies(args: argparse.Namespace, out: dict[str, Any]) -> None:
    """Cython against numba on the same loop and encoder."""
    from vector_numba_c8 import check_same_games

    check_same_games()
    compile_s = numba_compile_seconds()
    rates = interleave({
        "cython": core_side(args.envs, encode=False), "numba": numba_side(args.envs, encode=False),
        "cython+encode": core_side(args.envs, encode=True), "numba+encode": numba_side(args.envs, encode=True),
    }, args.rounds, args.slice)
    pyx = ROOT / "cardtable/vector/_crazy_eights.pyx"
    out["technologies"] = {
        "decisions_per_s": {k: statistics.median(v) for k, v in rates.items()},
        "cython_over_numba_random_play": ratios(rates, "cython", "numba"),
        "cython_over_numba_encoded": ratios(rates, "cython+encode", "numba+encode"),
        "numba_compile_seconds_fresh_process": compile_s,
        "lines": {
            "cython rules module (_crazy_eights.pyx, up to the Python-level part)":
                rules_lines(pyx, end="# Python level."),
            "cython shared stream (_stream.pxd) + batch machinery (_batch.pxi)":
                rules_lines(ROOT / "cardtable/vector/_stream.pxd") + rules_lines(ROOT / "cardtable/vector/_batch.pxi"),
            "numba loop (research/vector_numba_c8.py, without its harness class and check)":
                rules_lines(ROOT / "research/vector_numba_c8.py", end="class NumbaBatch"),
        },
    }


def numba_compile_seconds() -> float:
    """CPU seconds of the numba loop's first call in a fresh process with its on-disk cache removed."""
    cache = ROOT / "research" / "__pycache__"
    for f in cache.glob("vector_numba_c8*.nbi"):
        f.unlink()
    for f in cache.glob("vector_numba_c8*.nbc"):
        f.unlink()
    code = ("import time, resource; t = time.process_time(); from vector_numba_c8 import NumbaBatch; "
            "NumbaBatch(4, 1).play(1, True); print(time.process_time() - t)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "research")})
    return float(done.stdout.strip().splitlines()[-1])


@contextlib.contextmanager
def quiet_stdout() -> Any:
    """Silence C++ writes to file descriptor 1 (``random_sim_test`` prints)."""
    sys.stdout.flush()
    saved = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    try:
        yield
    finally:
        os.dup2(saved, 1)
        os.close(devnull)
        os.close(saved)


def uniform_decisions_per_game(pyspiel: Any, game: Any, games: int) -> tuple[float, float]:
    """Mean and standard error of OpenSpiel's player moves per game under uniform random play (Python-driven)."""
    rng = random.Random(12345)
    counts = []
    for _ in range(games):
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                n += 1
        counts.append(n)
    return statistics.mean(counts), statistics.stdev(counts) / len(counts) ** 0.5


def section_peers(args: argparse.Namespace, out: dict[str, Any]) -> None:
    """The core's random play against OpenSpiel from Python and against random_sim_test."""
    from throughput import OPENSPIEL_C8, Tally, load_pyspiel, openspiel_crazy_eights

    pyspiel = load_pyspiel()
    if pyspiel is None:
        out["peers"] = "OpenSpiel not importable: pip install -e '.[openspiel]'"
        return
    play_one = openspiel_crazy_eights(pyspiel)
    seeds = itertools.count()

    def openspiel(seconds: float) -> tuple[int, float]:
        tally = Tally()
        rng = random.Random(next(seeds))
        start = time.process_time()
        while (now := time.process_time()) - start < seconds:
            play_one(0, rng, tally)
        return tally.decisions, now - start

    game = pyspiel.load_game("crazy_eights", OPENSPIEL_C8)
    sims = args.sims

    def random_sim(seconds: float) -> tuple[int, float]:
        start = time.process_time()
        with quiet_stdout():
            pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False, mask_test=False)
        return sims, time.process_time() - start  # games, not decisions: scaled below

    rates = interleave({"core": core_side(args.envs, encode=False), "core_1env": core_side(1, encode=False),
                        "openspiel_python": openspiel, "random_sim_games": random_sim},
                       args.rounds, args.slice)
    per_game, err = uniform_decisions_per_game(pyspiel, game, args.estimate_games)
    rates["random_sim"] = [g * per_game for g in rates.pop("random_sim_games")]
    lengths = load_core("crazy_eights").Core(2000, 7, c8_options(players=4, rounds=1), 7)
    obs, mask = np.zeros((2000, 182), np.uint8), np.zeros((2000, 70), np.int8)
    lengths.reset(obs, mask, np.zeros(2000, np.int32))
    decisions, ended = lengths.play(200, 0, False, obs, mask)
    out["peers"] = {
        "decisions_per_s": {k: statistics.median(v) for k, v in rates.items()},
        "core_over_openspiel_python": ratios(rates, "core", "openspiel_python"),
        "core_1env_over_openspiel_python": ratios(rates, "core_1env", "openspiel_python"),
        "core_over_random_sim": ratios(rates, "core", "random_sim"),
        "core_decisions_per_game": decisions / ended,
        "random_sim_decisions_per_game_estimate": [per_game, err],
        "openspiel_params": OPENSPIEL_C8,
    }


def section_encoding(args: argparse.Namespace, out: dict[str, Any]) -> None:
    """The loop with the observation and mask written at every decision over the loop without."""
    encoding_section("encoding", args, out, core_side, step_side, "heuristic")


def section_memory(args: argparse.Namespace, out: dict[str, Any]) -> None:
    """Bytes per game state in a batch of 10,000."""
    memory_section("memory", "crazy_eights", {"players": 4}, out,
                   "buffers_bytes_per_env (obs + mask + rewards + done + player, 4 players)")


def section_differential(args: argparse.Namespace, out: dict[str, Any]) -> None:
    """The differential check over every option set, both reward modes, ``--differential`` decisions in all."""
    from cardtable.vector.check import check, option_sets

    out["differential"] = differential_runs(check, option_sets(), args.differential)


# Wizard.


def wizard_side(envs: int, *, encode: bool, policy: int = 0, seed: int = 1, step_api: bool = False,
                **options: Any) -> Side:
    """The Wizard core's ``play`` loop, or (``step_api``) ``policy`` then ``step`` per batch step as from Python."""
    side = game_step_side if step_api else game_play_side
    return side("wizard", envs, {"players": 4, "rounds": 10, **options}, encode=encode, policy=policy, seed=seed)


def section_wizard_peers(args: argparse.Namespace, out: dict[str, Any]) -> None:
    """The Wizard core's random play against OpenSpiel's oh_hell driven from Python (throughput.py's setting)."""
    from throughput import WIZARD_ROUNDS, Tally, load_pyspiel, openspiel_oh_hell

    WizardCore = load_core("wizard").Core

    pyspiel = load_pyspiel()
    if pyspiel is None:
        out["wizard_peers"] = "OpenSpiel not importable: pip install -e '.[openspiel]'"
        return
    play_one = openspiel_oh_hell(pyspiel, range(1, WIZARD_ROUNDS + 1))
    seeds = itertools.count()
    tally = Tally()

    def openspiel(seconds: float) -> tuple[int, float]:
        rng = random.Random(next(seeds))
        before = tally.decisions
        start = time.process_time()
        while (now := time.process_time()) - start < seconds:
            play_one(0, rng, tally)
            tally.games += 1
        return tally.decisions - before, now - start

    rates = interleave({"core": wizard_side(args.envs, encode=False, rounds=WIZARD_ROUNDS),
                        "core_1env": wizard_side(1, encode=False, rounds=WIZARD_ROUNDS),
                        "openspiel_python": openspiel}, args.rounds, args.slice)
    # Decisions per game: about 20 whole games per env (the unfinished last one biases it by under 3%).
    lengths = WizardCore(200, 7, cardtable.load_game("wizard").options(players=4, rounds=WIZARD_ROUNDS), 7)
    obs, mask = np.zeros((200, lengths.obs_size), np.uint8), np.zeros((200, 85), np.int8)
    lengths.reset(obs, mask, np.zeros(200, np.int32))
    decisions, ended = lengths.play(5300, 0, False, obs, mask)
    out["wizard_peers"] = {
        "decisions_per_s": {k: statistics.median(v) for k, v in rates.items()},
        "core_over_openspiel_python": ratios(rates, "core", "openspiel_python"),
        "core_1env_over_openspiel_python": ratios(rates, "core_1env", "openspiel_python"),
        "core_decisions_per_game": decisions / ended,
        "openspiel_decisions_per_game (ten oh_hell games)": tally.decisions / tally.games,
        "openspiel_chance_steps_per_game": tally.chance / tally.games,
        "peer": f"oh_hell players=4, num_tricks_fixed=1..{WIZARD_ROUNDS}; ours players=4, rounds={WIZARD_ROUNDS}",
    }


def section_wizard_encoding(args: argparse.Namespace, out: dict[str, Any]) -> None:
    """The Wizard loop with the observation and mask written at every decision over the loop without."""
    encoding_section("wizard_encoding", args, out, wizard_side, functools.partial(wizard_side, step_api=True),
                     "heuristic", "4 players, rounds=10")


def section_wizard_memory(args: argparse.Namespace, out: dict[str, Any]) -> None:
    """Bytes per Wizard game state in a batch of 10,000 (6 players: the largest observation)."""
    memory_section("wizard_memory", "wizard", {"players": 6}, out,
                   "buffers_bytes_per_env (obs + mask + rewards + done + player, 6 players)")


def section_wizard_differential(args: argparse.Namespace, out: dict[str, Any]) -> None:
    """``check_wizard`` over every option set, both reward modes, ``--differential`` decisions in all."""
    from cardtable.vector.check_wizard import check, option_sets

    out["wizard_differential"] = differential_runs(check, option_sets(), args.differential, covered=True)


# Mus.


def mus_side(envs: int, *, encode: bool, policy: int = 0, seed: int = 1, step_api: bool = False,
             **options: Any) -> Side:
    """The Mus core's ``play`` loop, or (``step_api``) ``policy`` then ``step`` per batch step as from Python."""
    side = game_step_side if step_api else game_play_side
    return side("mus", envs, options, encode=encode, policy=policy, seed=seed)


def mus_lengths(policy: int, envs: int = 500, steps: int = 2000) -> float:
    """Decisions per whole game of the Mus core under a built-in policy (default options)."""
    MusCore = load_core("mus").Core

    core = MusCore(envs, 7, cardtable.load_game("mus").options(), 7)
    obs, mask = np.zeros((envs, core.obs_size), np.uint8), np.zeros((envs, core.num_actions), np.int8)
    core.reset(obs, mask, np.zeros(envs, np.int32))
    decisions, ended = core.play(steps, policy, False, obs, mask)
    return float(decisions / ended)


def section_mus_peers(args: argparse.Namespace, out: dict[str, Any]) -> None:
    """The Mus core's random play against the Python engine's, both on one core."""
    from throughput import Tally, ours_random, run_slice

    seeds = itertools.count(1, 1000)

    def python_side(checked: bool) -> Side:
        play_one = ours_random("mus", {}, checked=checked)

        def side(seconds: float) -> tuple[int, float]:
            tally: Tally = run_slice(play_one, seconds, next(seeds))
            return tally.decisions, tally.cpu

        return side

    rates = interleave({"core": mus_side(args.envs, encode=False), "core_1env": mus_side(1, encode=False),
                        "core_simple": mus_side(args.envs, encode=False, policy=1),
                        "python_apply": python_side(True), "python_apply_unchecked": python_side(False)},
                       args.rounds, args.slice)
    out["mus_peers"] = {
        "setting": "default options (40 tantos, one game), random legal play",
        "decisions_per_s": {k: statistics.median(v) for k, v in rates.items()},
        "core_over_python_apply": ratios(rates, "core", "python_apply"),
        "core_1env_over_python_apply": ratios(rates, "core_1env", "python_apply"),
        "core_over_python_apply_unchecked": ratios(rates, "core", "python_apply_unchecked"),
        "core_decisions_per_game": {"random": mus_lengths(0), "simple": mus_lengths(1)},
    }


def section_mus_encoding(args: argparse.Namespace, out: dict[str, Any]) -> None:
    """The Mus loop with the observation and mask written at every decision over the loop without."""
    encoding_section("mus_encoding", args, out, mus_side, functools.partial(mus_side, step_api=True), "simple",
                     "default options; a 585-byte observation and a 56-id mask")


def section_mus_memory(args: argparse.Namespace, out: dict[str, Any]) -> None:
    """Bytes per Mus game state in a batch of 10,000."""
    memory_section("mus_memory", "mus", {}, out, "buffers_bytes_per_env (obs + mask + rewards + done + player)")


def section_mus_differential(args: argparse.Namespace, out: dict[str, Any]) -> None:
    """``check_mus`` over its option sets, both reward modes, ``--differential`` decisions in all."""
    from collections import Counter

    from cardtable.vector.check_mus import check, option_sets

    sets = option_sets()
    envs = 8
    steps = max(1, -(-args.differential // (len(sets) * envs)))  # at least --differential decisions
    decisions = games = reshuffles = 0
    ends: Counter[str] = Counter()
    actions: Counter[str] = Counter()
    start = time.process_time()
    for k, options in enumerate(sets):
        tally = check(options, seed=1000 * k, num_envs=envs, steps=steps, rewards=("game", "round")[k % 2],
                      policy_seed=k, mus_always=k % 4 == 3)
        decisions += tally.decisions
        games += tally.games
        reshuffles += tally.reshuffles
        ends += tally.ends
        actions += tally.actions
    out["mus_differential"] = {"option_sets": len(sets), "decisions": decisions, "games": games,
                               "reshuffles": reshuffles, "game_ends": dict(ends), "actions": dict(actions),
                               "cpu_seconds": time.process_time() - start, "mismatches": 0}


SECTIONS = {"technologies": section_technologies, "peers": section_peers, "encoding": section_encoding,
            "memory": section_memory, "differential": section_differential,
            "wizard_peers": section_wizard_peers, "wizard_encoding": section_wizard_encoding,
            "wizard_memory": section_wizard_memory, "wizard_differential": section_wizard_differential,
            "mus_peers": section_mus_peers, "mus_encoding": section_mus_encoding, "mus_memory": section_mus_memory,
            "mus_differential": section_mus_differential}


# Durak and Kaiser: each core against its Python engine, the cost of its encoding, its memory, its differential check.

#: The option set of each game's speed figures (benchmarks/throughput.py's GAME_OPTIONS).
GAME_CORES: dict[str, dict[str, Any]] = {"durak": {"players": 3}, "kaiser": {"players": 4}}


def section_game(name: str) -> Callable[[argparse.Namespace, dict[str, Any]], None]:
    """The section of one game's core (see the module docstring)."""

    def section(args: argparse.Namespace, out: dict[str, Any]) -> None:
        import importlib

        from throughput import ours_random, run_slice

        python_game = ours_random(name, GAME_CORES[name], checked=True)
        seeds = itertools.count()

        def python(seconds: float) -> tuple[int, float]:
            tally = run_slice(python_game, seconds, 1000 * next(seeds))
            return tally.decisions, tally.cpu

        rates = interleave({
            "core": game_play_side(name, args.envs, encode=False), "core_1env": game_play_side(name, 1, encode=False),
            "python_engine": python, "encoded": game_play_side(name, args.envs, encode=True),
            "plain_heuristic": game_play_side(name, args.envs, encode=False, policy=1),
            "encoded_heuristic": game_play_side(name, args.envs, encode=True, policy=1),
            "step_plain": game_step_side(name, args.envs, encode=False),
            "step_encoded": game_step_side(name, args.envs, encode=True),
        }, args.rounds, args.slice)
        lengths, (obs, mask, player, *_) = game_core(name, 2000, 7)
        lengths.reset(obs, mask, player)
        lengths.play(200, 0, False, obs, mask)  # past the first games' starts: a steady mix of game lengths
        decisions, ended = lengths.play(2000, 0, False, obs, mask)
        result: dict[str, Any] = {
            "options": GAME_CORES[name],
            "decisions_per_s": {k: statistics.median(v) for k, v in rates.items()},
            "core_over_python_engine_random": ratios(rates, "core", "python_engine"),
            "core_1env_over_python_engine_random": ratios(rates, "core_1env", "python_engine"),
            "cost_encoded_over_plain_random": ratios(rates, "core", "encoded"),
            "cost_encoded_over_plain_heuristic": ratios(rates, "plain_heuristic", "encoded_heuristic"),
            "cost_encoded_over_plain_step_api": ratios(rates, "step_plain", "step_encoded"),
            "core_decisions_per_game_random": decisions / ended,
        }
        from throughput import malloc_in_use

        before = malloc_in_use()
        big, buffers = game_core(name, 10_000, 1)
        heap = malloc_in_use() - before - sum(b.nbytes for b in buffers)
        result["memory"] = {"batch": 10_000, "core_bytes_per_game": big.state_bytes,
                            "c_heap_bytes_per_game": heap / 10_000}
        del big, buffers
        check = importlib.import_module(f"cardtable.vector.check_{name}")
        result["differential"] = differential_runs(check.check, check.option_sets(), args.differential,
                                                   both_rewards=False)
        out[name] = result

    return section


SECTIONS.update({name: section_game(name) for name in GAME_CORES})

#: Each game's setting in the ``builds`` section: the one of its own encoding section.
BUILD_SETTINGS: dict[str, dict[str, Any]] = {"crazy_eights": {"players": 4, "rounds": 1},
                                             "wizard": {"players": 4, "rounds": 10}, "durak": {"players": 3},
                                             "kaiser": {"players": 4}, "mus": {}}


def section_builds(args: argparse.Namespace, out: dict[str, Any]) -> None:
    """Each game's ``play`` loop, random play, with and without the observation and mask, in both builds
    (cardtable.vector.cores.BUILDS), the four sides interleaved: each build's encoded / plain cost and the wide
    build's speed over the portable one."""
    if not load_core("crazy_eights", "portable").cpu_runs_wide():
        out["builds"] = "this CPU does not run the wide build: only the portable one is measured (section encoding)"
        return
    result: dict[str, Any] = {}
    for name, options in BUILD_SETTINGS.items():
        sides = {f"{build}_{kind}": game_play_side(name, args.envs, options, encode=kind == "encoded", build=build)
                 for build in BUILDS for kind in ("plain", "encoded")}
        rates = interleave(sides, args.rounds, args.slice)
        result[name] = {"setting": options, "decisions_per_s": {k: statistics.median(v) for k, v in rates.items()},
                        **{f"cost_encoded_over_plain_{b}": ratios(rates, f"{b}_plain", f"{b}_encoded") for b in BUILDS},
                        "wide_over_portable_plain": ratios(rates, "wide_plain", "portable_plain"),
                        "wide_over_portable_encoded": ratios(rates, "wide_encoded", "portable_encoded")}
    out["builds"] = result


SECTIONS["builds"] = section_builds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--slice", type=float, default=0.3)
    parser.add_argument("--envs", type=int, default=1000)
    parser.add_argument("--sims", type=int, default=2, help="random_sim_test games per round")
    parser.add_argument("--estimate-games", type=int, default=400)
    parser.add_argument("--differential", type=int, default=1_000_000)
    parser.add_argument("--only", default=",".join(SECTIONS))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--build", choices=("auto", *BUILDS), default="auto",
                        help="the cores' build for every section but builds (sets " + BUILD_VARIABLE + ")")
    args = parser.parse_args()
    os.environ[BUILD_VARIABLE] = args.build
    out: dict[str, Any] = {"load_average_at_start": os.getloadavg(), "cpus": os.cpu_count(),
                           "build": build_of(load_core("crazy_eights"))}
    for name in args.only.split(","):
        SECTIONS[name](args, out)
        if not args.json:
            print(json.dumps({name: out[name]}, indent=1, default=str), flush=True)
    if args.json:
        print(json.dumps(out, indent=1, default=str))
    else:
        print(f"load average at start: {out['load_average_at_start']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
