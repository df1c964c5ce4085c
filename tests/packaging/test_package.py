"""What Python users expect of the package: a version, ``python -m``, types, a license, extras."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

from typer.testing import CliRunner

import cardtable
from cardtable.cli import app

ROOT = Path(__file__).resolve().parents[2]


def test_version_option_prints_the_package_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"cardtable {cardtable.__version__}"


def test_python_dash_m_cardtable_is_the_command_line() -> None:
    out = subprocess.run([sys.executable, "-m", "cardtable", "--version"], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"cardtable {cardtable.__version__}"


def test_package_ships_its_types_and_an_mit_license() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert (ROOT / "cardtable" / "py.typed").is_file()
    assert "py.typed" in meta["tool"]["setuptools"]["package-data"]["cardtable"]
    assert meta["project"]["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert meta["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "cardtable._version.__version__"}


def test_optional_dependencies_are_grouped_and_make_test_installs_the_ones_tests_need() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {key: {dep.split(">")[0].split("[")[0].split(";")[0].strip() for dep in deps}
             for key, deps in extras.items()}
    assert {"numpy", "gymnasium", "pettingzoo"} <= names["rl"]
    assert "open_spiel" in names["openspiel"]
    assert "psycopg" in names["postgres"]
    assert all("," in dep and "<" in dep for deps in extras.values() for dep in deps if "open_spiel>=1.5;" not in dep)
    assert {"jax", "optax"} <= names["learn"]  # training only: nothing that plays imports them (lint-imports)
    assert ".[test,rl,openspiel,learn]" in (ROOT / "Makefile").read_text()
