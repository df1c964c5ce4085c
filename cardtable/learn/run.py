"""A training run in a folder: checkpoints every few minutes, ``--resume``, the learning curve, the final weights.

The folder ``out`` holds ``checkpoint.npz`` (the run's whole state at an epoch's end), ``curve.csv``
and ``curve.png`` (win rate against the opponent policy, with its interval, every ``eval_every``
epochs) and, at the end, ``<game>-<players>p.npz``: the weights with their manifest.
"""

from __future__ import annotations

import csv
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cardtable.bots.learned import Manifest, Net, save_weights
from cardtable.core.encoding import encoding_for
from cardtable.core.options import options_to_dict
from cardtable.core.registry import load_game
from cardtable.learn.dmc import EpochStats, Evaluation, Trainer, spec_json
from cardtable.learn.spec import DEFAULTS, TrainSpec, settings_text

CHECKPOINT = "checkpoint.npz"
BEST = "best.npz"
CURVE_FIELDS = ("epoch", "samples", "updates", "seconds", "win_rate", "low", "high", "games", "loss")


class RunError(Exception):
    """A run that cannot start or go on; the message says why (the last good checkpoint is kept)."""


@dataclass(frozen=True)
class RunResult:
    """Where the weights went and what the last evaluation measured."""

    weights: Path
    evaluation: Evaluation
    epochs: int
    seconds: float
    kept_epoch: int


def check_out(out: Path, *, resume: bool) -> None:
    """``RunError`` unless ``out`` can hold this run: writable, and holding no other run unless resuming."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".write-test"
        probe.write_bytes(b"ok")
        probe.unlink()
    except OSError as exc:
        raise RunError(f"cannot write in {out}: {exc.strerror or exc}") from None
    has = (out / CHECKPOINT).exists()
    if resume and not has:
        raise RunError(f"--resume: no checkpoint in {out} to go on from")
    if has and not resume:
        raise RunError(f"{out} already holds a run (checkpoint.npz): --resume to go on, or another --out")


def command_line(spec: TrainSpec, seed: int, epochs: int) -> str:
    """The command that reproduces this run's weights."""
    parts = ["cardtable", "train", spec.game, "--epochs", str(epochs), "--seed", str(seed)]
    defaults = DEFAULTS[spec.game]
    for key, value in spec.options.items():
        if key == "players":
            parts += ["--players", str(value)]
        elif defaults.options.get(key) != value:
            parts += ["-o", f"{key}={value}"]
    if spec.opponent != defaults.opponent:
        parts += ["--opponent", spec.opponent]
    return " ".join(parts + settings_text(spec))


def _commit() -> str:
    try:
        done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=5,
                              cwd=Path(__file__).parent)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def train(spec: TrainSpec, seed: int, out: Path, *, epochs: int | None = None, hours: float | None = None,
          resume: bool = False, eval_every: int = 25, checkpoint_minutes: float = 3.0,
          on_epoch: Callable[[Trainer, EpochStats, Evaluation | None], None] | None = None) -> RunResult:
    """Train until ``epochs`` epochs are done or ``hours`` have passed (at an epoch's end), then write the weights."""
    if epochs is None and hours is None:
        raise RunError("say how long: --epochs or --hours")
    check_out(out, resume=resume)
    trainer = Trainer(spec, seed)
    checkpoint = out / CHECKPOINT
    if resume:
        try:
            trainer.load_checkpoint(checkpoint)
        except (ValueError, OSError, KeyError) as exc:
            raise RunError(f"cannot resume from {checkpoint}: {exc}") from None
    start = time.monotonic()
    budget = hours * 3600 if hours is not None else None
    last_save = time.monotonic()
    evaluation = None
    p = trainer.progress
    if p.epoch == 0:
        evaluation = _evaluate(trainer, out)
    while (epochs is None or p.epoch < epochs) and (budget is None or time.monotonic() - start < budget):
        stats = trainer.epoch()
        evaluation = _evaluate(trainer, out, stats) if p.epoch % eval_every == 0 else None
        if on_epoch is not None:
            on_epoch(trainer, stats, evaluation)
        if time.monotonic() - last_save >= checkpoint_minutes * 60:
            _save(trainer, checkpoint)
            last_save = time.monotonic()
    _save(trainer, checkpoint)
    if not (evaluation is not None and p.curve and p.curve[-1]["epoch"] == p.epoch):
        _evaluate(trainer, out)
    weights = out / f"{spec.game}-{trainer.players}p.npz"
    _write_weights(trainer, weights, out)
    _plot(out, trainer)
    row = next(r for r in p.curve if r["epoch"] == p.best_epoch) \
        if p.best_epoch >= 0 and spec.keep == "best" else p.curve[-1]
    return RunResult(weights, Evaluation(row["win_rate"] * row["games"], row["games"]), p.epoch, p.seconds,
                     int(row["epoch"]))


def _save(trainer: Trainer, checkpoint: Path) -> None:
    try:
        trainer.save_checkpoint(checkpoint)
    except OSError as exc:
        checkpoint.with_name(checkpoint.name + ".tmp").unlink(missing_ok=True)
        raise RunError(f"could not write the checkpoint ({exc.strerror or exc}); the last good one is kept in "
                       f"{checkpoint} (epoch as saved); --resume goes on from it") from None


def _evaluate(trainer: Trainer, out: Path, stats: EpochStats | None = None) -> Evaluation:
    ev = trainer.evaluate()
    p = trainer.progress
    low, high = ev.interval()
    row = {"epoch": p.epoch, "samples": p.samples, "updates": p.updates, "seconds": round(p.seconds, 1),
           "win_rate": round(ev.rate, 4), "low": round(low, 4), "high": round(high, 4), "games": ev.games,
           "loss": round(stats.loss, 5) if stats else ""}
    if not p.curve or p.curve[-1]["epoch"] != p.epoch:
        p.curve.append(row)
    if ev.rate > p.best_rate:  # the weights kept at the end: the best on the evaluation deals so far
        p.best_rate, p.best_epoch = ev.rate, p.epoch
        _save_arrays(out / BEST, trainer.net().arrays())
    try:
        with open(out / "curve.csv", "w", newline="") as f:
            writer = csv.DictWriter(f, CURVE_FIELDS)
            writer.writeheader()
            writer.writerows(p.curve)
    except OSError as exc:
        raise RunError(f"could not write {out / 'curve.csv'}: {exc.strerror or exc}") from None
    return ev


def _save_arrays(path: Path, arrays: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "wb") as f:
            np.savez(f, **arrays)
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise RunError(f"could not write {path}: {exc.strerror or exc}") from None


def _best(trainer: Trainer, out: Path) -> tuple[Net, dict[str, Any]]:
    """The net kept (the best on the evaluation deals) and its curve row."""
    p = trainer.progress
    rows = [r for r in p.curve if r["epoch"] == p.best_epoch]
    if trainer.spec.keep == "last" or not rows or not (out / BEST).exists():
        return trainer.net(), p.curve[-1]
    with np.load(out / BEST, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    depth = sum(1 for k in arrays if k.startswith("w"))
    return Net(arrays["scale"], [(arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(depth)]), rows[0]


def _write_weights(trainer: Trainer, path: Path, out: Path) -> None:
    spec, p = trainer.spec, trainer.progress
    game = load_game(spec.game)
    net, row = _best(trainer, out)
    final = Evaluation(row["win_rate"] * row["games"], row["games"])
    low, high = row["low"], row["high"]
    manifest = Manifest(
        game=spec.game, options=options_to_dict(trainer.options), encoding_version=encoding_for(game).version,
        layers=trainer.sizes, command=command_line(spec, trainer.seed, p.epoch), seed=trainer.seed, commit=_commit(),
        trained={"method": "deep Monte-Carlo", "epochs": p.epoch, "samples": p.samples, "updates": p.updates,
                 "seconds": round(p.seconds),
                 "learner_steps_per_second": round(p.updates / max(p.learn_seconds, 1e-9), 1),
                 "simulator_share": round(p.simulator_seconds / max(p.seconds, 1e-9), 3),
                 "selected_epoch": row["epoch"], "spec": _spec_summary(spec)},
        strength={"against": spec.opponent, "seats": "one side" if spec.teams else "one seat",
                  "games": final.games, "win_rate": round(final.rate, 4), "interval95": [low, high],
                  "measured_by": "cardtable.learn.dmc.Trainer.evaluate on the evaluation deals, which also chose "
                                 "the epoch kept (the best of the curve): an optimistic figure; benchmarks/strength.py "
                                 "measures on other deals"})
    try:
        save_weights(path, net, manifest)
    except OSError as exc:
        raise RunError(f"could not write the weights {path}: {exc.strerror or exc}") from None


def _spec_summary(spec: TrainSpec) -> dict[str, Any]:
    """The training choices (the spec less the game, its options and the measuring), for the manifest."""
    return {k: v for k, v in spec_json(spec).items() if k not in ("game", "options", "teams", "eval_games")}


def _plot(out: Path, trainer: Trainer) -> None:
    """``curve.png``: the win rate with its interval by epoch (skipped, with the CSV kept, without matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    rows = trainer.progress.curve
    fig, ax = plt.subplots(figsize=(6, 3.5))
    xs = [r["epoch"] for r in rows]
    ax.plot(xs, [r["win_rate"] for r in rows], color="C0", label=f"net vs {trainer.spec.opponent}")
    ax.fill_between(xs, [r["low"] for r in rows], [r["high"] for r in rows], color="C0", alpha=0.2)
    ax.set_xlabel("epoch")
    ax.set_ylabel("games won")
    ax.set_title(f"{trainer.spec.game}: learning curve (seed {trainer.seed})")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(out / "curve.png", dpi=100)
    plt.close(fig)
