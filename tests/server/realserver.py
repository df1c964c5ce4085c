"""A real ``cardtable serve`` process on a free port, for tests that need real sockets, signals and memory."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Served:
    """A running server: its process, address and log file."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path
    database_url: str = ""

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        """``ws://127.0.0.1:PORT``."""
        return f"ws://127.0.0.1:{self.port}"

    def rss_kib(self) -> int:
        """The process's resident memory (KiB)."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS")

    def cpu_seconds(self) -> float:
        """CPU time (user + system, every thread) the process has used so far."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """One HTTP request; the status and the JSON answer."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def text_log(self) -> str:
        """Everything the server printed so far."""
        return self.log.read_text(errors="replace")


@contextmanager
def serve(database_url: str, log: Path, *args: str, port: int | None = None,
          env: dict[str, str] | None = None, profile: Path | None = None, prelude: str = "") -> Iterator[Served]:
    """Start ``cardtable serve`` and wait until it answers; SIGTERM it (then kill) on the way out.
    ``profile``: run it under pyinstrument, which writes a text profile there when the server stops.
    ``prelude``: Python code the server process runs first (a test's instrumentation, such as a slower step)."""
    port = port or free_port()
    code = "from cardtable.cli import main; main()"
    if profile is not None:
        # uvicorn raises SIGTERM again once it has shut down: exit normally then, so the profile gets written.
        code = ("import pyinstrument, signal, sys; from cardtable.cli import main\n"
                "signal.signal(signal.SIGTERM, lambda *_: sys.exit(0)); p = pyinstrument.Profiler(interval=0.002)\n"
                f"p.start()\ntry: main()\nfinally:\n p.stop(); open({str(profile)!r}, 'w').write("
                "p.output_text(show_all=False, unicode=True))")
    command = [sys.executable, "-c", f"{prelude}\n{code}" if prelude else code, "serve", "--port", str(port),
               "--database-url", database_url, "--log-level", "warning", *args]
    environment = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    with log.open("ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=environment, cwd=log.parent)
    served = Served(process, port, log, database_url)
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise AssertionError(f"cardtable serve exited with {process.returncode}: {served.text_log()[-2000:]}")
            try:
                if served.request("GET", "/api/games")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"cardtable serve did not answer within 60 s: {served.text_log()[-2000:]}")
            time.sleep(0.1)
        yield served
    finally:
        stop(served, 20.0 if profile is None else 300.0)


def stop(served: Served, timeout: float = 20.0) -> int:
    """SIGTERM the server and wait for it; kill it if it hangs. Its exit status."""
    if served.process.poll() is None:
        served.process.send_signal(signal.SIGTERM)
        try:
            served.process.wait(timeout)
        except subprocess.TimeoutExpired:
            served.process.kill()
            served.process.wait()
    return int(served.process.returncode)
