"""The network in JAX: an MLP from a seat's encoding to one value per action id, and its Adam step (optax).

The play-time twin is :class:`cardtable.bots.learned.Net` (numpy alone); ``to_net`` converts, and
``tests/learn`` checks both give the same values on saved inputs.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt
import optax

from cardtable.bots.learned import Net

Params = dict[str, Any]


def init_params(sizes: tuple[int, ...], scale: npt.NDArray[np.float32], seed: int) -> Params:
    """Fresh weights for layers of these sizes (He-initialised), with the fixed input ``scale``."""
    keys = jax.random.split(jax.random.PRNGKey(seed), len(sizes) - 1)
    params: Params = {"scale": jnp.asarray(scale, jnp.float32)}
    for i, (n_in, n_out) in enumerate(itertools.pairwise(sizes)):
        std = (2.0 / n_in) ** 0.5 if i < len(sizes) - 2 else (1.0 / n_in) ** 0.5 * 0.1
        params[f"w{i}"] = jax.random.normal(keys[i], (n_in, n_out), jnp.float32) * std
        params[f"b{i}"] = jnp.zeros((n_out,), jnp.float32)
    return params


def depth(params: Params) -> int:
    """The number of affine layers."""
    return sum(1 for k in params if k.startswith("w"))


def forward(params: Params, x: jax.Array) -> jax.Array:
    """Values of every action id for each row of ``x`` (encodings as uint8 or floats)."""
    h = x.astype(jnp.float32) * jax.lax.stop_gradient(params["scale"])
    last = depth(params) - 1
    for i in range(last + 1):
        h = h @ params[f"w{i}"] + params[f"b{i}"]
        if i < last:
            h = jax.nn.relu(h)
    out: jax.Array = h
    return out


def optimizer(learning_rate: float) -> optax.GradientTransformation:
    """Adam with the gradient's global norm clipped at 10 (a rare huge return does not wreck the net)."""
    return optax.chain(optax.clip_by_global_norm(10.0), optax.adam(learning_rate))


def make_update(opt: optax.GradientTransformation) -> Callable[..., tuple[Params, Any, jax.Array]]:
    """A jitted step: mean squared error of the chosen actions' values against their returns."""

    def loss(params: Params, x: jax.Array, a: jax.Array, g: jax.Array) -> jax.Array:
        q = jnp.take_along_axis(forward(params, x), a[:, None], axis=1)[:, 0]
        return jnp.mean((q - g) ** 2)

    @jax.jit
    def update(params: Params, state: Any, x: jax.Array, a: jax.Array, g: jax.Array,
               factor: jax.Array) -> tuple[Params, Any, jax.Array]:
        value, grads = jax.value_and_grad(loss)(params, x, a, g)
        grads["scale"] = jnp.zeros_like(grads["scale"])
        updates, state = opt.update(grads, state, params)
        updates = jax.tree_util.tree_map(lambda u: u * factor, updates)  # the schedule: the step's share of the rate
        return optax.apply_updates(params, updates), state, value

    return update


act_values = jax.jit(forward)


def to_net(params: Params) -> Net:
    """The numpy twin of ``params`` (what a weights file stores)."""
    arrays = {k: np.asarray(v, np.float32) for k, v in params.items()}
    return Net(arrays["scale"], [(arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(depth(params))])


def from_net(net: Net) -> Params:
    """JAX parameters from a numpy net (to go on training from a weights file)."""
    params: Params = {"scale": jnp.asarray(net.scale)}
    for i, (w, b) in enumerate(net.layers):
        params[f"w{i}"], params[f"b{i}"] = jnp.asarray(w), jnp.asarray(b)
    return params
