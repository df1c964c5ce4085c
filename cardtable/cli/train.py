"""``cardtable train GAME``: train a learned player on the batch core (the ``learn`` extra: JAX and optax)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardtable.cli.common import console, err, fail, load, parse_option_pairs


def train(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="Game name, e.g. crazy_eights.")],
    players: Annotated[int | None, typer.Option(help="Number of players (default: the game's training default).")]
    = None,
    hours: Annotated[float | None, typer.Option(help="Train this long (stops at the end of an epoch).")] = None,
    epochs: Annotated[int | None, typer.Option(help="Train this many epochs (what the weights' command says).")]
    = None,
    out: Annotated[Path, typer.Option(help="Folder for the checkpoint, the curve and the weights.")]
    = Path("training"),
    seed: Annotated[int, typer.Option(help="Seed of the run: the weights' initial values and every deal.")] = 1,
    resume: Annotated[bool, typer.Option("--resume", help="Go on from the checkpoint in --out.")] = False,
    opponent: Annotated[str | None, typer.Option(
        help="The batch core's built-in policy in the other seats (default: the game's training default).")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Game option KEY=VALUE.")] = None,
    eval_every: Annotated[int, typer.Option(help="Epochs between two measurements of the curve.")] = 25,
    setting: Annotated[list[str] | None, typer.Option(
        "--set", help="A training choice KEY=VALUE: epsilon, learning_rate, half_life, hidden (e.g. 256,128), "
                      "self_play, returns, envs, batch, ... (docs/learning.md).")] = None,
) -> None:
    """Train a player for GAME on the batch core by deep Monte-Carlo; the weights play as the `learned` bot."""
    game = load(game_name)
    try:
        from cardtable.learn.run import RunError
        from cardtable.learn.run import train as run_training
        from cardtable.learn.spec import DEFAULTS
    except ImportError as exc:
        raise fail(f"training needs the learn extra (JAX, optax): pip install 'cardtable[learn]' ({exc})") from None
    name = game.info.name
    if name not in DEFAULTS:
        raise fail(f"no training set up for {name} (games: {', '.join(DEFAULTS)})")
    if hours is None and epochs is None:
        raise fail("say how long: --hours H or --epochs N")
    if hours is not None and not 0 < hours <= 1000:
        raise fail(f"--hours must be positive, not {hours}")
    if epochs is not None and epochs < 1:
        raise fail(f"--epochs must be at least 1, not {epochs}")
    if eval_every < 1:
        raise fail(f"--eval-every must be at least 1, not {eval_every}")
    spec = DEFAULTS[name]
    options = {**spec.options, **parse_option_pairs(option or [])}
    if players is not None:
        options["players"] = players
    spec = spec.with_(options=options, opponent=opponent or spec.opponent)
    from cardtable.learn.spec import parse_setting

    for key, text in parse_option_pairs(setting or []).items():
        try:
            spec = parse_setting(spec, key, text)
        except ValueError as exc:
            raise fail(str(exc)) from None
    _check_core(spec)
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("epoch {task.completed}"),
                  TimeElapsedColumn(), console=console, transient=False) as bar:
        task = bar.add_task(f"{name}: training", total=epochs)

        def on_epoch(trainer, stats, evaluation):  # type: ignore[no-untyped-def]
            text = f"{name}: {stats.samples} samples, loss {stats.loss:.3f}"
            if evaluation is not None or trainer.progress.curve:
                row = trainer.progress.curve[-1]
                text += f" · won {row['win_rate']:.3f} [{row['low']:.3f}, {row['high']:.3f}] vs {spec.opponent}"
            bar.update(task, completed=trainer.progress.epoch, description=text)

        try:
            result = run_training(spec, seed, out, epochs=epochs, hours=hours, resume=resume, eval_every=eval_every,
                                  on_epoch=on_epoch)
        except RunError as exc:
            raise fail(str(exc)) from None
        except KeyboardInterrupt:
            err.print(f"interrupted: `--resume --out {out}` goes on from the last checkpoint")
            raise typer.Exit(130) from None
    low, high = result.evaluation.interval()
    console.print(f"{result.weights}: {result.epochs} epochs in {result.seconds / 60:.1f} min; kept the net of epoch "
                  f"{result.kept_epoch}, which won {result.evaluation.rate:.3f} [{low:.3f}, {high:.3f}] of "
                  f"{result.evaluation.games} evaluation games against {spec.opponent}; play it as "
                  f"`learned:weights={result.weights}`")


def _check_core(spec: object) -> None:
    """A clear exit if the batch core does not play these options (checked before anything is written)."""
    import cardtable.vector as vector
    from cardtable.core.errors import InvalidOptions

    try:
        env = vector.make(spec.game, 1, **spec.options)  # type: ignore[attr-defined]
    except (InvalidOptions, vector.UnsupportedOptions, vector.CoreNotBuilt, ValueError) as exc:
        raise fail(str(exc)) from None
    if spec.opponent not in env.policies:  # type: ignore[attr-defined]
        raise fail(f"--opponent {spec.opponent!r}: the batch core's policies for {env.name} are "  # type: ignore[attr-defined]
                   f"{', '.join(env.policies)}")
