"""Learned players: a small network that values every action id of its seat's encoding, played with numpy alone.

A weights file is one ``.npz`` (read with ``allow_pickle=False``) holding the network's arrays and a
manifest (JSON, in the array ``manifest``): the game, the options and player count it was trained
for, the encoding version, the layer sizes, and the command, seed and commit that produced it with
its measured strength. ``cardtable train`` writes them (``docs/learning.md``); the files shipped with
cardtable live in ``cardtable/bots/weights/``.

The bot sees exactly what its seat may know: from the observation it builds a world consistent
with it (``Game.sample_world``) and encodes that world for its seat. The encoding writes only what
the observation shows, so every consistent world gives the same bytes as the true state
(``tests/learn/test_learned_bot.py`` checks it at every decision); the hidden cards it dealt are
never read. It then plays the legal action of highest value (the lowest id on a tie): its choices
depend on the observation alone, so they are the same for every seed.
"""

from __future__ import annotations

import json
import random
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from cardtable.core.encoding import Encoding, encoding_for
from cardtable.core.game import Game
from cardtable.core.observation import Observation
from cardtable.core.options import options_to_dict

FORMAT = 1
"""The layout of a weights file; raised when the arrays or the manifest change meaning."""

SHIPPED = Path(__file__).with_name("weights")
"""Where the weights shipped with cardtable live."""


class WeightsError(ValueError):
    """A weights file that cannot be used here; the message names what was expected."""


@dataclass(frozen=True)
class Manifest:
    """What a weights file was trained for and how: enough to refuse a mismatch and to reproduce it."""

    game: str
    options: dict[str, Any]
    encoding_version: int
    layers: tuple[int, ...]
    command: str = ""
    seed: int = 0
    commit: str = ""
    trained: dict[str, Any] = field(default_factory=dict)
    strength: dict[str, Any] = field(default_factory=dict)
    format: int = FORMAT

    @property
    def players(self) -> int:
        """The player count the net was trained for."""
        return int(self.options.get("players", 0))

    def describe(self) -> str:
        """``crazy_eights, players=4, rounds=3, ...``: what the net plays, for messages."""
        return f"{self.game} with " + ", ".join(f"{k}={v}" for k, v in _flat(self.options).items())

    def to_json(self) -> str:
        """The manifest as JSON (what the weights file stores)."""
        return json.dumps({"format": self.format, "game": self.game, "options": self.options,
                           "encoding_version": self.encoding_version, "layers": list(self.layers),
                           "command": self.command, "seed": self.seed, "commit": self.commit,
                           "trained": self.trained, "strength": self.strength}, indent=1, sort_keys=True)


def _flat(options: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{"scoring": {"target": 40}}`` -> ``{"scoring.target": 40}``, keys in order."""
    out: dict[str, Any] = {}
    for key, value in sorted(options.items()):
        if isinstance(value, dict):
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


class Net:
    """A multilayer perceptron: ``x * scale``, then affine layers with ReLU between; one value per action id."""

    def __init__(self, scale: npt.NDArray[np.float32], layers: Sequence[tuple[npt.NDArray[np.float32],
                                                                                npt.NDArray[np.float32]]]) -> None:
        self.scale = scale
        self.layers = list(layers)

    @property
    def sizes(self) -> tuple[int, ...]:
        """Input size, then each layer's output size."""
        return (self.scale.shape[0], *(b.shape[0] for _, b in self.layers))

    def values(self, x: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
        """The network's output for ``x`` (one encoding, or a batch of them as rows)."""
        h = x.astype(np.float32) * self.scale
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0, out=h)
        return h

    def arrays(self) -> dict[str, npt.NDArray[np.float32]]:
        """The arrays a weights file stores: ``scale``, ``w0``, ``b0``, ``w1``, ..."""
        out = {"scale": self.scale}
        for i, (w, b) in enumerate(self.layers):
            out[f"w{i}"], out[f"b{i}"] = w, b
        return out


def save_weights(path: str | Path, net: Net, manifest: Manifest) -> None:
    """Write ``net`` and its manifest as one ``.npz`` (written beside, then moved: never half a file)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        arrays: dict[str, Any] = {k: np.ascontiguousarray(v, np.float32) for k, v in net.arrays().items()}
        arrays["manifest"] = np.frombuffer(manifest.to_json().encode(), np.uint8)
        np.savez(f, **arrays)
    tmp.replace(path)


def load_weights(path: str | Path, *, game: str | None = None) -> tuple[Net, Manifest]:
    """The net and manifest in ``path``; ``WeightsError`` naming what was expected if it cannot be used.

    Refused: a file that is not an ``.npz``, corrupt or truncated; one that holds pickled objects; a
    manifest of another format or (with ``game``) another game; another encoding version than the
    game's; arrays whose shapes do not chain.
    """
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except FileNotFoundError:
        raise WeightsError(f"{path}: no such weights file") from None
    except (zipfile.BadZipFile, EOFError, OSError) as exc:
        raise WeightsError(f"{path}: not a weights file (expected an .npz archive): corrupt or truncated "
                           f"({type(exc).__name__}: {exc})") from None
    except ValueError as exc:
        if "allow_pickle" in str(exc) or "pickle" in str(exc).lower():
            raise WeightsError(f"{path}: refused: it holds pickled objects (a weights file holds plain "
                               "number arrays only)") from None
        raise WeightsError(f"{path}: not a weights file (expected an .npz archive): {exc}") from None
    if isinstance(arrays, np.ndarray) or not isinstance(arrays, dict):
        raise WeightsError(f"{path}: not a weights file (expected an .npz archive of arrays)")
    manifest = _manifest(path, arrays.pop("manifest", None))
    if game is not None and manifest.game != game:
        raise WeightsError(f"{path}: these weights are for {manifest.game}, not {game}")
    return _net(path, arrays, manifest), manifest


def _manifest(path: Path, raw: npt.NDArray[Any] | None) -> Manifest:
    if raw is None or raw.dtype != np.uint8 or raw.ndim != 1:
        raise WeightsError(f"{path}: not a cardtable weights file (no manifest array)")
    try:
        data = json.loads(raw.tobytes().decode())
        fmt = data["format"]
        if fmt != FORMAT:
            raise WeightsError(f"{path}: weights format {fmt}, expected {FORMAT}")
        manifest = Manifest(game=str(data["game"]), options=dict(data["options"]),
                            encoding_version=int(data["encoding_version"]),
                            layers=tuple(int(n) for n in data["layers"]), command=str(data.get("command", "")),
                            seed=int(data.get("seed", 0)), commit=str(data.get("commit", "")),
                            trained=dict(data.get("trained", {})), strength=dict(data.get("strength", {})))
    except WeightsError:
        raise
    except (UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise WeightsError(f"{path}: its manifest is unreadable ({type(exc).__name__}: {exc})") from None
    try:
        import cardtable

        encoding = encoding_for(cardtable.load_game(manifest.game))
    except (KeyError, ValueError):
        raise WeightsError(f"{path}: weights for an unknown game {manifest.game!r}") from None
    if manifest.encoding_version != encoding.version:
        raise WeightsError(f"{path}: trained on {manifest.game}'s encoding version {manifest.encoding_version}; "
                           f"this cardtable encodes version {encoding.version} (train again)")
    return manifest


def _net(path: Path, arrays: dict[str, npt.NDArray[Any]], manifest: Manifest) -> Net:
    depth = len(manifest.layers) - 1
    expected = {"scale", *(f"{k}{i}" for i in range(depth) for k in "wb")}
    if set(arrays) != expected or depth < 1:
        raise WeightsError(f"{path}: expected the arrays {sorted(expected)} for layers {list(manifest.layers)}, "
                           f"found {sorted(arrays)}")
    sizes = manifest.layers
    shapes = {"scale": (sizes[0],), **{f"w{i}": (sizes[i], sizes[i + 1]) for i in range(depth)},
              **{f"b{i}": (sizes[i + 1],) for i in range(depth)}}
    for name, shape in shapes.items():
        a = arrays[name]
        if a.shape != shape or a.dtype.kind != "f":
            raise WeightsError(f"{path}: array {name} should be floats of shape {shape}, not {a.dtype} {a.shape}")
        if not np.isfinite(a).all():
            raise WeightsError(f"{path}: array {name} holds a NaN or an infinity")
    f32 = {k: np.ascontiguousarray(v, np.float32) for k, v in arrays.items()}
    return Net(f32["scale"], [(f32[f"w{i}"], f32[f"b{i}"]) for i in range(depth)])


def check_fits(manifest: Manifest, game: Game[Any, Any, Any, Any], options: Any, *,
               where: str = "the learned player") -> None:
    """``WeightsError`` unless the net was trained for exactly these options (the player count among them)."""
    wanted = options_to_dict(options)
    if manifest.game != game.info.name or manifest.options != wanted:
        table = ", ".join(f"{k}={v}" for k, v in _flat(wanted).items())
        differ = [k for k, v in _flat(wanted).items() if _flat(manifest.options).get(k) != v]
        raise WeightsError(f"{where} was trained for {manifest.describe()}; this table plays {table} "
                           f"(differs in {', '.join(differ) or 'the game'})")
    encoding = encoding_for(game)
    if manifest.layers[0] != encoding.shape(options)[0] or manifest.layers[-1] != encoding.num_actions(options):
        raise WeightsError(f"{where}: a net of {manifest.layers[0]} inputs and {manifest.layers[-1]} actions does "
                           f"not fit {game.info.name}'s encoding ({encoding.shape(options)[0]} and "
                           f"{encoding.num_actions(options)})")


@cache
def shipped(game: str) -> tuple[tuple[Path, Manifest], ...]:
    """The weights shipped for ``game`` (file and manifest), in file-name order."""
    out = []
    for path in sorted(SHIPPED.glob(f"{game}-*.npz")):
        _, manifest = load_weights(path, game=game)
        out.append((path, manifest))
    return tuple(out)


@cache
def _load_cached(path: str, game: str) -> tuple[Net, Manifest]:
    return load_weights(path, game=game)


def net_for(game: Game[Any, Any, Any, Any], options: Any, weights: str | None = None) -> tuple[Net, Manifest]:
    """The net for a table of ``game`` with ``options``: the file ``weights``, or the shipped one trained for them.

    ``WeightsError`` naming what the shipped nets were trained for when none fits.
    """
    name = game.info.name
    if weights is not None:
        net, manifest = _load_cached(str(Path(weights).resolve()), name)
        check_fits(manifest, game, options, where=f"the net in {weights}")
        return net, manifest
    candidates = shipped(name)
    for path, manifest in candidates:
        try:
            check_fits(manifest, game, options)
        except WeightsError:
            continue
        return _load_cached(str(path), name)
    if not candidates:
        raise WeightsError(f"no learned player ships for {name} (train one: cardtable train {name})")
    table = ", ".join(f"{k}={v}" for k, v in _flat(options_to_dict(options)).items())
    trained = "; ".join(m.describe() for _, m in candidates)
    raise WeightsError(f"no learned player for {name} with {table}: the shipped nets play {trained}")


def fits(game: Game[Any, Any, Any, Any], options: Any) -> bool:
    """Whether a shipped net plays ``game`` with ``options``."""
    try:
        net_for(game, options)
    except WeightsError:
        return False
    return True


class LearnedBot:
    """Plays the legal action its net values most, from its seat's encoding (see the module's docstring)."""

    name = "learned"
    accepts_options = True

    def __init__(self, game: Game[Any, Any, Any, Any], seed: int = 0, *, weights: str | None = None) -> None:
        self.game = game
        self.encoding: Encoding[Any, Any, Any] = encoding_for(game)
        self.weights = weights
        self._nets: dict[str, tuple[Net, Manifest]] = {}
        self._rng = random.Random(seed)

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> Any:
        """The legal action of highest value; ``WeightsError`` if no net was trained for this table."""
        return legal_actions[self.ranking(observation, legal_actions)[0]]

    def ranking(self, observation: Observation, legal_actions: Sequence[Any]) -> list[int]:
        """Indices of ``legal_actions``, the net's favourite first (a tie goes to the lower action id)."""
        x, world = self.encode(observation)
        net, _ = self._net(self.encoding.options_of(world))
        values = net.values(x)
        ids = [self.encoding.action_id(action, world) for action in legal_actions]
        return sorted(range(len(ids)), key=lambda i: (-float(values[ids[i]]), ids[i]))

    def encode(self, observation: Observation) -> tuple[npt.NDArray[np.uint8], Any]:
        """The seat's encoding, from a world consistent with ``observation`` (and that world, for action ids)."""
        seat = getattr(observation, "seat", None)
        if seat is None:
            raise ValueError("the learned player acts for a seat, not for a spectator")
        world = self.game.sample_world(observation, random.Random(0))
        return np.frombuffer(self.encoding.features(world, seat), np.uint8), world

    def check_options(self, options: Any) -> None:
        """``WeightsError`` (a ``ValueError``) naming what the nets were trained for unless one plays ``options``."""
        self._net(options)

    def _net(self, options: Any) -> tuple[Net, Manifest]:
        key = repr(options)
        if key not in self._nets:
            self._nets[key] = net_for(self.game, options, self.weights)
        return self._nets[key]
