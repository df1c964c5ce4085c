"""Small nets for the tests: random weights of the right shape for a game, written as a weights file."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np

import cardtable
from cardtable.bots.learned import Manifest, Net, save_weights
from cardtable.core.encoding import encoding_for
from cardtable.core.options import options_to_dict

GAMES: dict[str, dict[str, Any]] = {
    "crazy_eights": {}, "wizard": {}, "durak": {"players": 2}, "kaiser": {}, "mus": {},
}


def random_net(game: str, options: dict[str, Any], seed: int = 0, hidden: int = 16) -> tuple[Net, Manifest]:
    """A net of random weights fitting ``game`` with ``options``, and its manifest."""
    g = cardtable.load_game(game)
    opts = g.options(**options)
    enc = encoding_for(g)
    sizes = (enc.shape(opts)[0], hidden, enc.num_actions(opts))
    rng = np.random.default_rng(seed)
    layers = [(rng.normal(0, 0.3, (a, b)).astype(np.float32), rng.normal(0, 0.1, b).astype(np.float32))
              for a, b in itertools.pairwise(sizes)]
    net = Net(np.ones(sizes[0], np.float32), layers)
    manifest = Manifest(game=game, options=options_to_dict(opts), encoding_version=enc.version, layers=sizes,
                        command="tests", seed=seed)
    return net, manifest


def write_random_net(path: Path, game: str, options: dict[str, Any], seed: int = 0) -> Path:
    """``random_net`` saved at ``path``."""
    net, manifest = random_net(game, options, seed)
    save_weights(path, net, manifest)
    return path
