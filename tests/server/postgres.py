"""A throwaway PostgreSQL cluster for tests: ``initdb`` in a temp dir, started on a free port, stopped after.

Debian's ``postgresql`` package provides the binaries (``make test`` installs it when missing). Root cannot
run PostgreSQL, so as root the cluster belongs to the ``postgres`` user (``runuser -u postgres --``).
Anything that goes wrong raises with the reason: a test that needs PostgreSQL fails, it is never skipped.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.server.realserver import free_port


def postgres_bin() -> Path:
    """The directory holding ``initdb`` and ``pg_ctl`` (newest Debian version, else the PATH)."""
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name))
    if versions:
        return Path(versions[-1])
    found = shutil.which("initdb")
    if found is None:
        raise RuntimeError("PostgreSQL is not installed (Debian: apt-get install -y postgresql; `make test` does it)")
    return Path(found).parent


def _as_owner(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


def _run(command: list[str]) -> None:
    result = subprocess.run(_as_owner(command), capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command[:2])} failed ({result.returncode}): "
                           f"{(result.stderr or result.stdout).strip()[-800:]}")


@contextmanager
def postgres_cluster(*, fsync: bool = False) -> Iterator[str]:
    """A running cluster; yields a SQLAlchemy URL of its ``cardtable`` database (trust auth, Unix socket).
    Without ``fsync`` (tests) commits do not wait for the disk; benchmarks turn it on."""
    binaries = postgres_bin()
    folder = Path(tempfile.mkdtemp(prefix="cardtable-pg-"))
    data, sockets = folder / "data", folder / "sockets"
    sockets.mkdir()
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
        shutil.chown(sockets, "postgres")
    port = free_port()
    try:
        _run([str(binaries / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
              "--no-sync", "--locale=C"])
        options = (f"-p {port} -k {sockets} -c listen_addresses='' -c fsync={'on' if fsync else 'off'} "
                   "-c max_connections=100")
        _run([str(binaries / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "log"), "-w",
              "-t", "60", "start"])
        try:
            _run([str(binaries / "createdb"), "-h", str(sockets), "-p", str(port), "-U", "postgres", "cardtable"])
            yield f"postgresql+psycopg://postgres@/cardtable?host={sockets}&port={port}"
        finally:
            _run([str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"])
    finally:
        for _ in range(3):
            try:
                shutil.rmtree(folder)
                break
            except OSError:
                time.sleep(0.2)
