"""``cardtable arena verify SOURCE``: check that a finished live tournament's deals were fixed before it started.

SOURCE is the tournament's address on a server (``http://host/tournaments/ID`` or ``…/api/tournaments/ID``), a
file holding what ``GET /api/tournaments/ID`` answered, or a tournament id (or unique prefix) in the database
(``--database-url``). The check (``cardtable.arena.sealed.verify``): the published salt and seed hash to the
commitment published at the start, the definition hashes to the id, every game's seed, deal and seating follow
from the seed and the salt, and (from a server or a database) every game's record was dealt from its seed and
replays to its stored scores.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardtable.cli.common import console, fail

_ID = re.compile(r"[0-9a-f]{64}")


def verify_command(source: str | None, database_url: str | None, open_store: Callable[[str | None], Any]) -> None:
    """Verify a live tournament's sealed deals; one line per check, ``error:`` and exit 2 if they fail.
    ``open_store``: the arena command's (the tournament store on a URL, or a one-line exit)."""
    from cardtable.arena.sealed import VerifyError, verify

    if not source:
        raise fail("arena verify needs a tournament: its address on a server, a JSON file or an id in the database")
    if source.startswith(("http://", "https://")):
        published, records = _from_server(source)
    elif Path(source).is_file():
        published, records = _from_file(Path(source)), None
    else:
        published, records = _from_database(source, open_store(database_url))
    try:
        lines = verify(published, records)
    except VerifyError as exc:
        raise fail(f"tournament {str(published.get('id', ''))[:12]}: {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise fail(f"{source}: not a tournament as the server publishes it ({exc})") from None
    for line in lines:
        console.print(line, highlight=False, markup=False)
    console.print("verified", highlight=False)


def _get(url: str) -> Any:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as exc:
        raise fail(f"{url}: HTTP {exc.code}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise fail(f"cannot read {url}: {getattr(exc, 'reason', exc)}") from None


def _from_server(url: str) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """The tournament and every stored game's record, from the server's API."""
    found = _ID.search(url)
    if found is None:
        raise fail(f"{url}: no tournament id (64 hex digits) in the address")
    base = url[:found.start()].rstrip("/")
    for suffix in ("/api/tournaments", "/tournaments"):
        if base.endswith(suffix):
            base = base[:-len(suffix)]
            break
    api = f"{base}/api/tournaments/{found.group()}"
    published = _get(api)
    if not isinstance(published, dict):
        raise fail(f"{api}: not a tournament")
    records = {}
    if published.get("status") == "finished":
        for row in published.get("stored") or ():
            records[int(row["index"])] = _get(f"{api}/games/{int(row['index'])}/record")
    return published, records


def _from_file(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise fail(f"{path}: cannot read its JSON ({exc})") from None
    if not isinstance(data, dict):
        raise fail(f"{path}: not a tournament as the server publishes it")
    return data


def _from_database(prefix: str, store: Any) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """The tournament as the server would publish it, and its records, from the database."""
    from cardtable.server.tournaments import published
    from cardtable.store.live_tournaments import LiveTournaments

    matches = [t for t in store.all() if t.id.startswith(prefix.lower())]
    if len(matches) != 1:
        raise fail(f"{prefix!r} is no file, no address and {'no' if not matches else 'more than one'} tournament "
                   "in the database")
    tournament = matches[0]
    data = published(store, LiveTournaments(store.engine), tournament)
    records = {}
    if tournament.status == "finished":
        records = {int(row["index"]): dict(row["record"]) for row in store.games(tournament.id, with_records=True)}
    return data, records
