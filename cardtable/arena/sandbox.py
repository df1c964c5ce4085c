"""The sandbox an external bot runs in: limits, a clean environment, a private directory, a kill switch.

Each program runs in its own process group (``start_new_session``) under
``resource`` limits set just before ``exec``: CPU seconds (``RLIMIT_CPU``),
memory (``RLIMIT_DATA``: the heap and private mappings, which is what a bot
that allocates grows; unlike ``RLIMIT_AS`` it lets runtimes such as Node
reserve address space), file size (``RLIMIT_FSIZE``), open files, no core
dumps, and a process count. Its environment holds only ``PATH``, ``LANG`` and
``HOME`` (a private temporary directory that is also its working directory and
is removed at the end). On timeout or at the end the whole group is killed
(``os.killpg`` with SIGKILL), and with it everything in its pids cgroup; if
the host itself dies, the program is killed too (``PR_SET_PDEATHSIG``).

The process count is enforced by a pids cgroup of its own (``pids.max``) when
the cgroup file system is writable (a container run as root, say); otherwise
by ``RLIMIT_NPROC``, set to the processes its user runs now plus
:attr:`Limits.processes` (that rlimit counts every process of the user, and
root ignores it: as root without a writable cgroup the count is not enforced).

Stronger isolation, when the machine offers it: with ``bwrap`` (bubblewrap)
installed and user namespaces allowed, the program also gets no network
(``--unshare-net``), its own process ids (``--unshare-pid``), a read-only view
of the file system (``--ro-bind / /``) except its directory and a private
``/tmp``, and dies with its parent. Without ``bwrap`` everything else still
applies; :func:`bwrap_available` says which path is taken.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import resource
import select
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from uuid import uuid4

Isolation = Literal["auto", "bwrap", "none"]


@dataclass(frozen=True)
class Limits:
    """What an external bot may use. Times in seconds, sizes in bytes."""

    decision: float = 1.0
    """Time for one decision."""
    game: float | None = 60.0
    """Thinking time for a whole game (``None``: no limit)."""
    handshake: float = 5.0
    """Time from start to the ``ready`` answer."""
    cpu: int = 120
    """CPU seconds over the program's life (RLIMIT_CPU, per process)."""
    memory: int = 512 * 2**20
    """Heap and private mappings (RLIMIT_DATA)."""
    file_size: int = 16 * 2**20
    """Largest file it may write (RLIMIT_FSIZE), its stderr log included."""
    processes: int = 16
    """Processes it may add (RLIMIT_NPROC above what its user runs now)."""
    open_files: int = 64
    """Open file descriptors (RLIMIT_NOFILE)."""
    line: int = 1 << 20
    """Longest line accepted from the program."""
    isolation: Isolation = "auto"
    """``bwrap`` when available (``auto``), always (``bwrap``: fail without it) or never (``none``)."""

    def __post_init__(self) -> None:
        for name in ("decision", "handshake"):
            if getattr(self, name) <= 0:
                raise ValueError(f"limit {name} must be positive")
        if self.game is not None and self.game <= 0:
            raise ValueError("limit game must be positive")
        for name in ("cpu", "memory", "file_size", "processes", "open_files", "line"):
            if getattr(self, name) < 1:
                raise ValueError(f"limit {name} must be at least 1")


class SandboxError(RuntimeError):
    """The program could not be started."""


class Timeout(Exception):
    """No complete line arrived in time."""


class Closed(Exception):
    """The program closed its output or exited."""


@functools.cache
def bwrap_available() -> bool:
    """Whether ``bwrap`` is installed and can make a network namespace here (checked once)."""
    path = shutil.which("bwrap")
    if path is None:
        return False
    try:
        probe = subprocess.run([path, *_bwrap_args(Path("/tmp")), "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return False
    return probe.returncode == 0


_PRIVATE_TMP = Path("/tmp")


def _bwrap_args(workdir: Path, command: Sequence[str] = ()) -> list[str]:
    """bwrap's arguments: everything read-only, a private ``/tmp``, the bot's directory writable.

    The private ``/tmp`` hides whatever lies under the real one, so a program or file named in the
    command that lives there (a checkout under ``/tmp``, its virtualenv's interpreter) is bound back,
    read-only, by its top directory under ``/tmp``.
    """
    shown: list[str] = []
    for word in command:
        path = Path(word)
        if path.is_absolute() and path.is_relative_to(_PRIVATE_TMP) and path != _PRIVATE_TMP and path.exists():
            top = str(_PRIVATE_TMP / path.relative_to(_PRIVATE_TMP).parts[0])
            if top not in shown and not Path(workdir).is_relative_to(top):
                shown.append(top)
    binds = [arg for top in shown for arg in ("--ro-bind", top, top)]
    return ["--unshare-user", "--unshare-net", "--unshare-pid", "--unshare-ipc", "--die-with-parent",
            "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", str(_PRIVATE_TMP), *binds,
            "--bind", str(workdir), str(workdir), "--chdir", str(workdir), "--"]


_CGROUP_ROOTS = (Path("/sys/fs/cgroup/pids"), Path("/sys/fs/cgroup"))


class _PidsCgroup:
    """A pids cgroup of one program (v1 ``pids`` hierarchy or v2 with the pids controller), if one can be made."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @staticmethod
    def make(limit: int) -> _PidsCgroup | None:
        """A new cgroup allowing ``limit`` processes, or ``None`` where cgroups are not writable."""
        for root in _CGROUP_ROOTS:
            if not (root / "cgroup.procs").exists() or not os.access(root, os.W_OK):
                continue
            path = root / f"cardtable-{uuid4().hex[:12]}"
            try:
                path.mkdir()
                (path / "pids.max").write_text(str(limit))
            except OSError:
                with contextlib.suppress(OSError):
                    path.rmdir()
                continue
            return _PidsCgroup(path)
        return None

    def join(self) -> None:
        """Move the calling process (the child, before exec) into the cgroup."""
        (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def remove(self) -> None:
        """Kill whatever is left in the cgroup, then remove it."""
        for _ in range(20):
            try:
                pids = [int(p) for p in (self.path / "cgroup.procs").read_text().split()]
            except OSError:
                return
            if not pids:
                break
            for pid in pids:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.01)
        with contextlib.suppress(OSError):
            self.path.rmdir()


def _processes_of(uid: int) -> int:
    count = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if entry.stat().st_uid == uid:
                    count += 1
    return count


class Sandbox:
    """One program running under :class:`Limits`, talked to in lines over its stdin and stdout."""

    def __init__(self, command: Sequence[str], limits: Limits) -> None:
        if not command:
            raise SandboxError("empty command")
        self.limits = limits
        self.command = list(command)
        self.uses_bwrap = limits.isolation == "bwrap" or (limits.isolation == "auto" and bwrap_available())
        if limits.isolation == "bwrap" and not bwrap_available():
            raise SandboxError("bwrap isolation asked for, but bwrap cannot run here")
        self.workdir = Path(tempfile.mkdtemp(prefix="cardtable-bot-"))
        self._stderr = open(self.workdir / ".stderr", "wb")  # noqa: SIM115 (closed in close())
        self._buffer = b""
        self._closed = False
        argv = [shutil.which("bwrap") or "bwrap", *_bwrap_args(self.workdir, self.command), *self.command] \
            if self.uses_bwrap else self.command
        extra = 2 if self.uses_bwrap else 0
        self.cgroup = _PidsCgroup.make(limits.processes + extra)
        nproc = None if self.cgroup is not None else _processes_of(os.getuid()) + limits.processes + extra
        self.enforces_process_limit = self.cgroup is not None or os.geteuid() != 0
        try:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, cwd=self.workdir,
                env=self._environment(), start_new_session=True, close_fds=True,
                preexec_fn=functools.partial(_prepare_child, limits, nproc, self.cgroup))
        except (OSError, subprocess.SubprocessError) as exc:
            self.close()
            raise SandboxError(f"cannot start {' '.join(self.command)}: {exc}") from None
        assert self.process.stdin is not None and self.process.stdout is not None
        self._out = self.process.stdout.fileno()
        self._in = self.process.stdin.fileno()
        os.set_blocking(self._out, False)
        os.set_blocking(self._in, False)

    def _environment(self) -> dict[str, str]:
        return {"PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
                "LANG": os.environ.get("LANG", "C.UTF-8"), "HOME": str(self.workdir)}

    # Lines.

    def write_line(self, line: bytes, deadline: float) -> None:
        """Write one line before ``deadline`` (a ``time.monotonic`` value); :class:`Timeout` or :class:`Closed`."""
        data = line + b"\n"
        while data:
            try:
                data = data[os.write(self._in, data):]  # a pipe with room takes it at once
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, ConnectionResetError, ValueError, OSError):
                raise Closed("the program closed its input") from None
            left = deadline - time.monotonic()
            if left <= 0:
                raise Timeout("the program does not read its input")
            try:
                select.select([], [self._in], [], left)
            except (ValueError, OSError):
                raise Closed("the program closed its input") from None

    def read_line(self, deadline: float) -> bytes:
        """The next line before ``deadline``; :class:`Timeout`, :class:`Closed`, or ``ValueError`` if too long."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line, self._buffer = self._buffer[:end], self._buffer[end + 1:]
                return line
            if len(self._buffer) > self.limits.line:
                self._buffer = b""
                raise ValueError(f"a line longer than {self.limits.line} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                raise Timeout("no complete line in time")
            try:
                ready, _, _ = select.select([self._out], [], [], left)
            except (ValueError, OSError):
                raise Closed("output closed") from None
            if not ready:
                continue
            try:
                chunk = os.read(self._out, 65536)
            except BlockingIOError:
                continue
            except OSError:
                raise Closed("output closed") from None
            if not chunk:
                raise Closed("output closed")
            self._buffer += chunk

    def drop_pending(self) -> None:
        """Forget lines already written but not read (answers to decisions that are over)."""
        self._buffer = b""
        with contextlib.suppress(OSError):
            while select.select([self._out], [], [], 0)[0]:
                if not os.read(self._out, 65536):
                    break

    # Life.

    def is_running(self) -> bool:
        """Whether the program has not exited."""
        return not self._closed and self.process.poll() is None

    def exit_status(self) -> str:
        """How the program ended, in words (after it has)."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(0.2)
        code = self.process.returncode
        if code is None:
            return "still running"
        if self.uses_bwrap and code > 128:
            code = 128 - code  # bwrap reports a child killed by signal N as status 128 + N
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"killed by {name}"
        return f"exited with status {code}"

    def stderr_tail(self, limit: int = 300) -> str:
        """The end of what the program wrote to stderr, on one line."""
        try:
            data = (self.workdir / ".stderr").read_bytes()[-limit:]
        except OSError:
            return ""
        return " | ".join(line for line in data.decode("utf-8", "replace").splitlines() if line.strip())

    def crash_detail(self) -> str:
        """The program is gone: kill what is left and say how it ended (with the last lines of its stderr)."""
        self.kill()
        detail = f"the program {self.exit_status()}"
        tail = self.stderr_tail()
        return f"{detail}; stderr: {tail}" if tail else detail

    def kill(self) -> None:
        """Kill the program and everything it started (its process group); idempotent."""
        if getattr(self, "process", None) is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(2.0)

    def close(self) -> None:
        """Kill the program, close its pipes and remove its directory; idempotent."""
        if self._closed:
            return
        self._closed = True
        if hasattr(self, "process"):
            self.kill()
            for stream in (self.process.stdin, self.process.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
        if self.cgroup is not None:
            self.cgroup.remove()
        self._stderr.close()
        shutil.rmtree(self.workdir, ignore_errors=True)


_PR_SET_PDEATHSIG = 1


def _prepare_child(limits: Limits, nproc: int | None, cgroup: _PidsCgroup | None) -> None:
    """In the child between fork and exec: die with the host, join the pids cgroup, set the rlimits."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)  # Linux only
    if cgroup is not None:
        cgroup.join()
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu, limits.cpu + 1))
    resource.setrlimit(resource.RLIMIT_DATA, (limits.memory, limits.memory))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_size, limits.file_size))
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits.open_files, limits.open_files))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if nproc is not None:
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
