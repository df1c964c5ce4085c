"""``cardtable arena … --server URL``: a tournament played as live tables on a server, followed to its results."""

from __future__ import annotations

import contextlib
import json
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from cardtable.cli.common import err, fail


def run_on_server(server: str, token_file: Path | None, game: str, bots: list[str], pairs: list[str],
                  preset: str | None, fmt: str, games: int, seed: int, concurrency: int,
                  every: float = 1.0) -> dict[str, Any]:
    """Ask the server to play the tournament (the same arguments resume it), wait, and return its results."""
    from cardtable.arena.bridge import read_token

    if token_file is None:
        raise fail("--server needs --token-file (an admin bot account: cardtable bots add NAME --admin)")
    try:
        token = read_token(str(token_file))
    except ValueError as exc:
        raise fail(str(exc)) from None
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise fail(f"option {pair!r} is not KEY=VALUE")
        options[key.strip()] = value.strip()
    base = server.rstrip("/")
    body = {"game": game, "entries": bots, "options": options, "preset": preset, "format": fmt, "games": games,
            "seed": seed, "concurrency": concurrency}
    made = _call("POST", f"{base}/api/tournaments/live", body, token)
    tournament = str(made["tournament"])
    err.print(f"tournament {tournament[:12]}: {games} games at {base}/tournaments/{tournament} "
              "(the tables are in the lobby; Ctrl-C stops following, the server plays on)", highlight=False)
    if made.get("commitment"):
        err.print(f"deals sealed: commitment {made['commitment']}; once it is over, check them with "
                  f"cardtable arena verify {base}/tournaments/{tournament}", highlight=False, soft_wrap=True)
    while True:
        state = _call("GET", f"{base}/api/tournaments/{tournament}", None, None)
        if state["status"] == "finished":
            return dict(state["results"])
        if sys.stderr.isatty():
            err.print(f"  {state['stored_games']} of {state['games']} games stored", end="\r", highlight=False)
        time.sleep(every)


def _call(method: str, url: str, body: Any, token: str | None) -> dict[str, Any]:
    headers = {"content-type": "application/json"}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return dict(json.loads(response.read() or b"{}"))
    except urllib.error.HTTPError as exc:
        detail = ""
        with contextlib.suppress(ValueError):
            detail = str(json.loads(exc.read() or b"{}").get("detail", ""))
        raise fail(f"the server refused: HTTP {exc.code}: {detail or exc.reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise fail(f"cannot reach {url}: {getattr(exc, 'reason', exc)}") from None
