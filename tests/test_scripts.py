"""Every script in benchmarks/ and research/ still starts: it imports what it needs and answers ``--help``.

The benchmarks print the figures the docs quote and the research scripts answered a question once
(research/README.md says which); neither runs in the suite, but a module they import that moved or
went away must fail here, not on the day someone reruns them.
"""

from __future__ import annotations

import contextlib
import io
import runpy
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Research scripts that need a package the project does not install (the losing candidate of a choice):
#: they are compiled, and importing them must fail on that package alone, or work where it is installed.
NEEDS = {"vector_numba_c8.py": "numba"}
SCRIPTS = sorted(p for p in [*ROOT.glob("benchmarks/*.py"), *ROOT.glob("research/*.py")] if p.name not in NEEDS)


def test_the_scripts_are_found() -> None:
    names = {p.name for p in SCRIPTS}
    assert {"throughput.py", "strength.py", "server.py", "load.py", "arena.py", "encoding.py"} <= names


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_script_answers_help(script: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", [str(script), "--help"])
    monkeypatch.setattr(sys, "path", [str(script.parent), *sys.path])
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as stop:
        runpy.run_path(str(script), run_name="__main__")
    assert stop.value.code == 0
    assert "usage:" in out.getvalue()


@pytest.mark.parametrize("name", sorted(NEEDS))
def test_a_script_needing_another_package_compiles_and_asks_only_for_it(name: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    script = ROOT / "research" / name
    compile(script.read_text(encoding="utf-8"), str(script), "exec")
    monkeypatch.setattr(sys, "argv", [str(script), "--help"])
    monkeypatch.setattr(sys, "path", [str(script.parent), *sys.path])
    try:
        with contextlib.redirect_stdout(io.StringIO()), pytest.raises(SystemExit):
            runpy.run_path(str(script), run_name="__main__")
    except ModuleNotFoundError as missing:
        assert missing.name == NEEDS[name]
