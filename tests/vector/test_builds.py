"""The two builds of every compiled core (``portable`` and ``wide``, cardtable.vector.cores.BUILDS) play and write
exactly the same: the same states, legal masks, observations (every seat's), rewards, done flags and built-in
policy choices, step by step, on every option set the differential checks use.

The differential tests (test_differential.py, test_wizard.py, ...) play the build ``load_core`` picks here (the
wide one on a CPU that runs it) against the Python engine; this file ties the other build to it.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest

from cardtable.vector import cores

#: Each game's differential check module, whose option_sets() this file plays.
CHECKS = {"crazy_eights": "cardtable.vector.check", "wizard": "cardtable.vector.check_wizard",
          "durak": "cardtable.vector.check_durak", "kaiser": "cardtable.vector.check_kaiser",
          "mus": "cardtable.vector.check_mus"}
ENVS = 16
STEPS = 160


def buffers(core: Any) -> dict[str, np.ndarray]:
    n = core.num_envs
    return {"obs": np.zeros((n, core.obs_size), np.uint8), "mask": np.zeros((n, core.num_actions), np.int8),
            "rewards": np.zeros((n, core.players), np.float32), "done": np.zeros(n, np.uint8),
            "player": np.zeros(n, np.int32), "final": np.zeros((n, core.obs_size), np.uint8)}


def assert_same_states(a: Any, b: Any) -> None:
    for i in range(a.num_envs):
        assert a.state(i) == b.state(i), f"env {i}"


def every_view(core: Any) -> np.ndarray:
    """Every env's observation of every seat (encode), as one array."""
    out = np.zeros((core.num_envs, core.players, core.obs_size), np.uint8)
    for i in range(core.num_envs):
        for seat in range(core.players):
            core.encode(i, seat, out[i, seat])
    return out


def play_in_lockstep(portable: Any, wide: Any, options: Any, seed: int) -> int:
    """Step both builds' cores on ``options`` (random, then heuristic actions from the portable core's policies;
    both policies compared); the decisions made."""
    a, b = portable.Core(ENVS, seed, options, seed), wide.Core(ENVS, seed, options, seed)
    ba, bb = buffers(a), buffers(b)
    a.reset(ba["obs"], ba["mask"], ba["player"])
    b.reset(bb["obs"], bb["mask"], bb["player"])
    actions, theirs = np.zeros(ENVS, np.int64), np.zeros(ENVS, np.int64)
    for t in range(STEPS):
        policy = t % 2 if len(portable.POLICIES) > 1 else 0
        a.policy(policy, actions)
        b.policy(policy, theirs)
        assert (actions == theirs).all(), f"step {t}: the {portable.POLICIES[policy]} policy differs"
        assert a.step(actions, ba["obs"], ba["mask"], ba["rewards"], ba["done"], ba["player"], 0, True,
                      ba["final"]) == -1
        assert b.step(actions, bb["obs"], bb["mask"], bb["rewards"], bb["done"], bb["player"], 0, True,
                      bb["final"]) == -1
        for key in ba:
            assert (ba[key] == bb[key]).all(), f"step {t}: {key} differs"
        if t % 40 == 0:
            assert_same_states(a, b)
            assert (every_view(a) == every_view(b)).all(), f"step {t}: a seat's view differs"
    # The all-C loop, writing and not writing: the same games, the same last rows.
    for encode in (False, True):
        assert a.play(30, 0, encode, ba["obs"], ba["mask"]) == b.play(30, 0, encode, bb["obs"], bb["mask"])
        assert_same_states(a, b)
    assert (ba["obs"] == bb["obs"]).all() and (ba["mask"] == bb["mask"]).all()
    return STEPS * ENVS


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_the_wide_build_plays_and_writes_as_the_portable_one(name: str) -> None:
    portable = cores.load_core(name, "portable")
    assert portable.WIDE == 0 and cores.build_of(portable) == "portable"
    if not portable.cpu_runs_wide():  # a CPU without AVX-512: the wide build is refused by name
        with pytest.raises(cores.CoreNotBuilt, match="cannot run the wide build"):
            cores.load_core(name, "wide")
        assert cores.load_core(name, "auto") is portable
        return
    wide = cores.load_core(name, "wide")
    assert wide.WIDE == 1 and cores.build_of(wide) == "wide" and cores.load_core(name, "auto") is wide
    sets = importlib.import_module(CHECKS[name]).option_sets()
    decisions = sum(play_in_lockstep(portable, wide, options, 100 + k) for k, options in enumerate(sets))
    assert decisions >= 20 * ENVS * STEPS


def test_the_build_comes_from_the_environment_and_a_wrong_name_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cores.BUILD_VARIABLE, "portable")
    assert cores.build_of(cores.load_core("crazy_eights")) == "portable"
    monkeypatch.setenv(cores.BUILD_VARIABLE, "fastest")
    with pytest.raises(ValueError, match=r"no build 'fastest'.*auto, portable, wide"):
        cores.load_core("crazy_eights")
    with pytest.raises(ValueError, match="no build 'avx'"):
        cores.load_core("crazy_eights", "avx")


def test_the_lockstep_catches_a_core_that_plays_otherwise() -> None:
    """The comparison can fail: the same build against itself with a planted defect (an ace scoring 11)."""
    portable = cores.load_core("crazy_eights", "portable")

    class Planted:
        POLICIES = portable.POLICIES

        @staticmethod
        def Core(*args: Any) -> Any:
            return portable.Core(*args, defect=1)

    options = importlib.import_module(CHECKS["crazy_eights"]).option_sets()[0]
    with pytest.raises(AssertionError, match="differs"):
        play_in_lockstep(portable, Planted, options, 7)
