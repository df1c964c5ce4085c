"""The worked example runs end to end (tiny budget): it trains, evaluates, plots and writes its figures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_train_crazy_eights_runs_and_reports(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_crazy_eights.py"), "--games", "32", "--population", "4",
         "--deals", "8", "--elite", "2", "--eval-games", "6", "--final-games", "6",
         "--plot", str(tmp_path / "curve.png"), "--json", str(tmp_path / "figures.json")],
        capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    figures = json.loads((tmp_path / "figures.json").read_text())
    assert [p["games"] for p in figures["curve"]] == [0, 32]
    for rows in figures["final"].values():
        assert set(rows) == {"trained policy", "untrained (θ=0)", "heuristic bot", "random bot"}
        assert all(low <= rate <= high for rate, low, high in rows.values())
    assert (tmp_path / "curve.png").stat().st_size > 1000
    assert "95 % interval" in out.stdout
