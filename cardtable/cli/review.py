"""``cardtable review RECORD``: each decision of a seat in a finished game, its options' values and its loss."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from cardtable.cli.common import console, err, fail, read_json_file, record_of
from cardtable.core.record import GameRecord
from cardtable.review import DEFAULT_BUDGET, MAX_BUDGET, MIN_BUDGET, GameReview, ReviewError, review_record
from cardtable.review.engine import count_decisions


def review(
    path: Annotated[Path, typer.Argument(metavar="RECORD", help="A finished game's record as JSON (from the "
                                         "server's …/record, `selfplay`, or a tournament).")],
    seat: Annotated[int, typer.Option(help="The seat whose decisions are reviewed.")] = 0,
    budget: Annotated[int, typer.Option(help=f"Sampled worlds per decision ({MIN_BUDGET}–{MAX_BUDGET}): more is "
                                             "slower and more precise.")] = DEFAULT_BUDGET,
    seed: Annotated[int, typer.Option(help="Seed of the sampling (the same seed, the same review).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as one JSON object.")] = False,
) -> None:
    """Review a finished game: for each decision of SEAT, every option's value from what that seat knew."""
    game, record = _read(path)
    if not MIN_BUDGET <= budget <= MAX_BUDGET:
        raise fail(f"--budget {budget}: a budget is {MIN_BUDGET}–{MAX_BUDGET} sampled worlds a decision")
    try:
        total = count_decisions(game, record, seat) if seat >= 0 else 0
        with _progress(as_json) as bar:
            task = bar.add_task("reviewing", total=total)
            result = review_record(game, record, seat, budget=budget, seed=seed,
                                   progress=lambda done, _: bar.update(task, completed=done))
    except (ReviewError, ValueError) as exc:
        raise fail(f"{path}: {exc}") from None
    if as_json:
        typer.echo(json.dumps(result.to_json(game), ensure_ascii=False))
    else:
        _print(game, result)


def _read(path: Path) -> tuple[Any, GameRecord]:
    """The game and the record in ``path``; a one-line error if it is not a record of a known game."""
    return record_of(read_json_file(path), path)


def _progress(quiet: bool) -> Progress:
    """A progress bar on standard error (hidden with ``--json``)."""
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=err, transient=True, disable=quiet)


def _print(game: Any, result: GameReview) -> None:
    """The review as a table: step, chosen, best, the loss with its error, the mark."""
    console.print(f"{game.info.title}, seat {result.seat}: {len(result.decisions)} decisions reviewed "
                  f"({result.forced} forced), {result.budget} sampled worlds each; values in {result.unit}, "
                  f"played out to {result.horizon}.", highlight=False)
    table = Table("step", "played", "best", "value played", "value best", "loss", "±", "mark")
    for d in result.decisions:
        best = d.options[0]
        played = next(o for o in d.options if o.action == d.chosen)
        table.add_row(str(d.step), game.describe_action(d.chosen), game.describe_action(best.action),
                      f"{played.value:.2f}", f"{best.value:.2f}", f"{d.loss:.2f}", f"{d.error:.2f}", d.mark or "")
    console.print(table)
    console.print(f"Mean loss {result.mean_loss:.3f} a decision; {result.count('mistake')} mistakes "
                  f"(loss ≥ {result.thresholds[0]:g}), {result.count('blunder')} blunders "
                  f"(≥ {result.thresholds[1]:g}), each also at least twice its error.", highlight=False)
