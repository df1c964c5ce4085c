"""A static HTML report of a tournament: standings, head-to-head and a plot of ratings over games.

Each file is written to a temporary name in the target directory and then renamed over the old one, so a
reader (or a killed run) never sees a half-written page or picture.
"""

from __future__ import annotations

import html
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardtable.arena.play import GameResult
from cardtable.arena.standings import rate

PLOT = "ratings.png"


def write_report(directory: Path, results: dict[str, Any], games: Sequence[dict[str, Any]]) -> Path:
    """Write ``index.html`` and the ratings plot into ``directory``; the page's path."""
    directory.mkdir(parents=True, exist_ok=True)
    entries = [(e["name"], e["spec"]) for e in results["entries"]]
    _, history = rate(entries, [GameResult.from_json(g) for g in games])
    _write_atomic(directory / PLOT, ratings_plot(history, [n for n, _ in entries]))
    page = directory / "index.html"
    _write_atomic(page, render(results).encode("utf-8"))
    return page


def ratings_plot(history: Sequence[dict[str, Any]], names: Sequence[str]) -> bytes:
    """A PNG of each entry's ordinal after each game (matplotlib, no display needed)."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7, 3.6), dpi=100)
    axes = figure.subplots()
    xs = [h["game"] + 1 for h in history]
    for name in names:
        axes.plot(xs, [h["ordinal"][name] for h in history], label=name)
    axes.set_xlabel("games")
    axes.set_ylabel("rating (ordinal = mu − 3 sigma)")
    axes.grid(alpha=0.3)
    if names:
        axes.legend(loc="best", fontsize="small")
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


def render(results: dict[str, Any]) -> str:
    """The report page."""
    e = html.escape
    rows = []
    for name in results["ranking"]:
        r = results["standings"][name]
        ci = r["mean_score_ci"]
        failures = ", ".join(f"{k} {v}" for k, v in r["failures"].items()) or "–"
        rows.append(
            f"<tr><th scope=row>{e(name)}</th><td>{e(r['spec'])}</td><td>{r['games']}</td><td>{r['wins']:g}</td>"
            f"<td>{r['win_share']:.3f} [{r['win_share_ci'][0]:.3f}, {r['win_share_ci'][1]:.3f}]</td>"
            f"<td>{r['mean_score']:.2f}" + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "") + "</td>"
            f"<td>{r['rating']['mu']:.2f}</td><td>{r['rating']['sigma']:.2f}</td>"
            f"<td>{r['rating']['ordinal']:.2f}</td><td>{e(failures)}</td></tr>")
    names = results["ranking"]
    h2h = ["<tr><th></th>" + "".join(f"<th scope=col>{e(n)}</th>" for n in names) + "</tr>"]
    for a in names:
        cells = []
        for b in names:
            cell = results["head_to_head"][a].get(b)
            cells.append("<td></td>" if cell is None or cell["share"] is None
                         else f"<td>{cell['share']:.3f} <small>({cell['games']})</small></td>")
        h2h.append(f"<tr><th scope=row>{e(a)}</th>{''.join(cells)}</tr>")
    errors = "".join(f"<li>game {x['game']}: {e(x['error'])}</li>" for x in results["errors"])
    title = f"{results['game']} {results['format']} tournament"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{{font-family:system-ui,sans-serif;margin:2rem;max-width:70rem}}table{{border-collapse:collapse}}
th,td{{border:1px solid #ccc;padding:.25rem .5rem;text-align:right}}th[scope=row]{{text-align:left}}</style>
</head><body>
<h1>{e(title)}</h1>
<p>Tournament <code>{e(results['tournament'])}</code>: {results['played']} of {results['games']} games played,
seed {results['seed']}. Win share intervals: {e(results['intervals']['win_share'])}; mean score intervals:
{e(results['intervals']['mean_score'])}; ratings: {e(results['rating_model'])}.</p>
<h2>Standings</h2>
<table><tr><th>entry</th><th>spec</th><th>games</th><th>wins</th><th>win share [95 %]</th>
<th>mean score [95 %]</th><th>mu</th><th>sigma</th><th>ordinal</th><th>failures</th></tr>
{''.join(rows)}</table>
<h2>Head-to-head</h2>
<p>Share of the games two entries met in which the row placed ahead of the column (a tie counts ½);
games met in brackets.</p>
<table>{''.join(h2h)}</table>
<h2>Ratings over games</h2>
<img src="{PLOT}" alt="rating (ordinal) of each entry after each game">
{f'<h2>Games that ended in error</h2><ul>{errors}</ul>' if errors else ''}
</body></html>
"""


def _write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same directory and a rename."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # a page to publish: the mode of any new file, not mkstemp's 0600
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _umask() -> int:
    """The process's umask (read by setting it and putting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
