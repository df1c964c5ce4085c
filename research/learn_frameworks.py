"""Which training framework for learned players: JAX (with optax) or PyTorch, on this 2-core CPU.

Question: for the networks `cardtable train` fits (an MLP from a seat's encoding to one value per
action id, a few hundred thousand weights), which framework does a learner step and a batched
forward pass faster on the CPU, and what does each cost to install? Answer (2026-12-06, see
docs/learning.md "Framework"): printed by this script; run it in a venv that has both
(`pip install numpy jax optax torch==2.13.0`), the frameworks interleaved round by round.

    python research/learn_frameworks.py [--rounds 5] [--threads 1]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

import numpy as np

IN, HIDDEN, OUT, BATCH, ACT_BATCH = 182, 512, 70, 2048, 1024


def _data(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 2, (BATCH, IN)).astype(np.float32)
    a = rng.integers(0, OUT, BATCH).astype(np.int32)
    y = rng.choice([-1.0, 1.0], BATCH).astype(np.float32)
    xa = rng.integers(0, 2, (ACT_BATCH, IN)).astype(np.float32)
    return x, a, y, xa


def jax_steps() -> tuple[Callable[[], None], Callable[[], None]]:
    """One Adam step on a batch, and one forward pass on an acting batch (JAX + optax, jit)."""
    import jax
    import jax.numpy as jnp
    import optax

    key = jax.random.PRNGKey(0)
    k1, k2, k3 = jax.random.split(key, 3)
    params = {
        "w1": jax.random.normal(k1, (IN, HIDDEN)) * 0.05, "b1": jnp.zeros(HIDDEN),
        "w2": jax.random.normal(k2, (HIDDEN, HIDDEN)) * 0.05, "b2": jnp.zeros(HIDDEN),
        "w3": jax.random.normal(k3, (HIDDEN, OUT)) * 0.05, "b3": jnp.zeros(OUT),
    }
    opt = optax.adam(1e-3)
    state = [params, opt.init(params)]

    def forward(p: dict[str, jax.Array], x: jax.Array) -> jax.Array:
        h = jax.nn.relu(x @ p["w1"] + p["b1"])
        h = jax.nn.relu(h @ p["w2"] + p["b2"])
        return h @ p["w3"] + p["b3"]

    def loss(p: dict[str, jax.Array], x: jax.Array, a: jax.Array, y: jax.Array) -> jax.Array:
        q = jnp.take_along_axis(forward(p, x), a[:, None], axis=1)[:, 0]
        return jnp.mean((q - y) ** 2)

    @jax.jit
    def update(p, s, x, a, y):  # type: ignore[no-untyped-def]
        g = jax.grad(loss)(p, x, a, y)
        u, s = opt.update(g, s, p)
        return optax.apply_updates(p, u), s

    act = jax.jit(forward)
    x, a, y, xa = (jnp.asarray(v) for v in _data(0))

    def step() -> None:
        state[0], state[1] = update(state[0], state[1], x, a, y)
        jax.block_until_ready(state[0])

    def infer() -> None:
        np.asarray(act(state[0], xa))

    return step, infer


def torch_steps() -> tuple[Callable[[], None], Callable[[], None]]:
    """The same two operations in PyTorch (eager)."""
    import torch

    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(IN, HIDDEN), torch.nn.ReLU(), torch.nn.Linear(HIDDEN, HIDDEN),
                              torch.nn.ReLU(), torch.nn.Linear(HIDDEN, OUT))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    x, a, y, xa = (torch.from_numpy(v) for v in _data(0))
    a = a.long()

    def step() -> None:
        q = net(x).gather(1, a[:, None])[:, 0]
        loss = ((q - y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

    def infer() -> None:
        with torch.no_grad():
            net(xa).numpy()

    return step, infer


def numpy_infer() -> Callable[[], None]:
    """The play-time forward pass: numpy alone, float32."""
    rng = np.random.default_rng(0)
    w1, w2, w3 = (rng.normal(0, 0.05, s).astype(np.float32) for s in ((IN, HIDDEN), (HIDDEN, HIDDEN), (HIDDEN, OUT)))
    xa = _data(0)[3]

    def infer() -> None:
        h = np.maximum(xa @ w1, 0)
        h = np.maximum(h @ w2, 0)
        h @ w3

    return infer


def _time(fn: Callable[[], None], repeat: int) -> float:
    fn()
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    threads = str(args.threads)
    os.environ["XLA_FLAGS"] = f"--xla_cpu_multi_thread_eigen={'true' if args.threads > 1 else 'false'} " \
                              f"intra_op_parallelism_threads={threads}"
    import torch

    torch.set_num_threads(args.threads)
    sides = {"jax": jax_steps(), "torch": torch_steps()}
    np_infer = numpy_infer()
    times: dict[str, list[float]] = {f"{k} {w}": [] for k in sides for w in ("step", "infer")}
    times["numpy infer"] = []
    for _ in range(args.rounds):
        for name, (step, infer) in sides.items():
            times[f"{name} step"].append(_time(step, 20))
            times[f"{name} infer"].append(_time(infer, 50))
        times["numpy infer"].append(_time(np_infer, 50))
    print(f"MLP {IN}-{HIDDEN}-{HIDDEN}-{OUT}, Adam step on {BATCH} rows, forward on {ACT_BATCH} rows, "
          f"{args.threads} thread(s), {args.rounds} interleaved rounds (ms, median [min, max])")
    for name, values in times.items():
        print(f"  {name:12s} {statistics.median(values):7.2f} [{min(values):.2f}, {max(values):.2f}]")


if __name__ == "__main__":
    main()
