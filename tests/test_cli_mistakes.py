"""A user's mistake is one ``error:`` line and exit 2: no traceback, nothing half-done, nothing made unasked.

Each case here once went wrong (issue 32): a traceback, a file or database created before the error, a
game played to the end before its record could not be written, a bad value accepted.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import random
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cardtable
from cardtable.arena.bridge import Bridge, full_jitter
from cardtable.bots import RandomBot
from cardtable.cli import app
from cardtable.runner import GameRunner

runner = CliRunner()


def one_error_line(result: object, *needles: str) -> str:
    """The single ``error:`` line of a failed command (exit 2, no traceback), checked to hold ``needles``."""
    exit_code = getattr(result, "exit_code", None)
    stderr = getattr(result, "stderr", "")
    assert exit_code == 2, (exit_code, getattr(result, "output", ""))
    assert "Traceback" not in getattr(result, "output", "")
    assert getattr(result, "exception", None) is None or isinstance(result.exception, SystemExit)  # type: ignore[attr-defined]
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return str(lines[0])


@pytest.fixture
def empty_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory with no database in it, and no database URL in the environment."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CARDTABLE_DATABASE_URL", raising=False)
    return tmp_path


# serve and db.


def test_serve_with_an_unknown_log_level_is_one_line_and_makes_no_database(empty_dir: Path) -> None:
    one_error_line(runner.invoke(app, ["serve", "--log-level", "loud"]), "--log-level", "debug")
    assert list(empty_dir.iterdir()) == []


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:", "sqlite+pysqlite://"])
def test_serve_refuses_an_in_memory_database(empty_dir: Path, url: str) -> None:
    one_error_line(runner.invoke(app, ["serve", "--database-url", url]), "in-memory")
    assert list(empty_dir.iterdir()) == []


def test_db_upgrade_to_an_unknown_revision_is_one_line_and_makes_no_database(empty_dir: Path) -> None:
    one_error_line(runner.invoke(app, ["db", "upgrade", "--revision", "bogus"]), "--revision 'bogus'")
    assert list(empty_dir.iterdir()) == []


def test_db_upgrade_to_a_known_revision_still_works(empty_dir: Path) -> None:
    result = runner.invoke(app, ["db", "upgrade", "--revision", "0002"])
    assert result.exit_code == 0 and "database at revision 0002" in result.output, result.output


@pytest.mark.parametrize("args", [
    ["db", "current"],
    ["bots", "list"],
    ["bots", "add", "Robo"],
    ["bots", "revoke", "Robo"],
    ["replay", "--tournament", "abc", "--game-number", "0"],
])
def test_commands_that_read_a_database_do_not_make_an_empty_one(empty_dir: Path, args: list[str]) -> None:
    one_error_line(runner.invoke(app, args), "no database at", "cardtable db upgrade")
    assert list(empty_dir.iterdir()) == []


def test_after_db_upgrade_the_same_commands_work(empty_dir: Path) -> None:
    assert runner.invoke(app, ["db", "upgrade"]).exit_code == 0
    assert runner.invoke(app, ["bots", "list"]).output.strip() == "no bot accounts"
    assert "database at revision" in runner.invoke(app, ["db", "current"]).output


def test_bots_add_with_an_unwritable_token_file_makes_no_account(empty_dir: Path) -> None:
    assert runner.invoke(app, ["db", "upgrade"]).exit_code == 0
    one_error_line(runner.invoke(app, ["bots", "add", "Robo", "--token-file", "/nonexistent/dir/x"]),
                   "/nonexistent/dir/x", "no account was made")
    assert runner.invoke(app, ["bots", "list"]).output.strip() == "no bot accounts"


def test_bots_add_refused_leaves_no_token_file(empty_dir: Path) -> None:
    assert runner.invoke(app, ["db", "upgrade"]).exit_code == 0
    assert runner.invoke(app, ["bots", "add", "Robo"]).exit_code == 0
    one_error_line(runner.invoke(app, ["bots", "add", "Robo", "--token-file", "robo.token"]), "already")
    assert not (empty_dir / "robo.token").exists()


# replay, play, durak.


def two_player_record(path: Path) -> Path:
    game = cardtable.load_game("durak")
    run = GameRunner(game, game.options(players=2), 5, [RandomBot(1), RandomBot(2)])
    run.run()
    import json

    path.write_text(json.dumps(run.record.to_json()), encoding="utf-8")
    return path


@pytest.mark.parametrize("seat", ["9", "2", "-1"])
def test_replay_refuses_a_seat_the_record_does_not_have(tmp_path: Path, seat: str) -> None:
    record = two_player_record(tmp_path / "r.json")
    one_error_line(runner.invoke(app, ["replay", str(record), "--seat", seat]), f"--seat {seat}", "0 to 1")
    assert runner.invoke(app, ["replay", str(record), "--seat", "1"]).exit_code == 0


def test_play_checks_the_record_path_before_the_game(tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", "durak", "--record", str(tmp_path / "no" / "x.json")], input="1\n" * 400)
    one_error_line(result, "--record", "no directory")
    assert "Your move" not in result.output  # refused before a single move
    result = runner.invoke(app, ["play", "durak", "--record", str(tmp_path)], input="q\n")
    one_error_line(result, "is a directory")


def test_play_refuses_a_program_that_does_not_speak_the_protocol_up_front(tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", "durak", "--bot", "exec:cat", "--seed", "3"], input="1\n" * 400)
    one_error_line(result, "--bot exec:cat")
    assert "Your move" not in result.output


def test_selfplay_refuses_a_program_that_does_not_speak_the_protocol_up_front() -> None:
    one_error_line(runner.invoke(app, ["selfplay", "durak", "--bot", "exec:cat", "--bot", "random", "--games", "2"]),
                   "--bot exec:cat")


def test_play_against_a_working_program_still_plays() -> None:
    bot = Path(__file__).resolve().parents[1] / "examples" / "bots" / "random_bot.py"
    result = runner.invoke(app, ["play", "durak", "--bot", f"exec:{sys.executable} {bot}", "--seed", "3"],
                           input="q\n")
    assert result.exit_code == 0 and "Stopped." in result.output, result.output


@pytest.mark.parametrize("seed", ["0", "65536", "99999", "-5"])
def test_durak_seed_outside_its_range_is_refused(seed: str) -> None:
    one_error_line(runner.invoke(app, ["durak", "--seed", seed, "A", "B"]), "1 to 65535", f"not {int(seed)}")


@pytest.mark.parametrize("seed", ["1", "65535"])
def test_durak_seed_at_the_ends_of_its_range_plays(seed: str) -> None:
    result = runner.invoke(app, ["durak", "--seed", seed, "A", "B"])
    assert result.exit_code == 0 and f"Deck random: {seed}" in result.output


# Files written for the user.


def test_arena_report_files_get_the_usual_mode(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        result = runner.invoke(app, ["arena", "crazy_eights", "--bot", "heuristic", "--bot", "random", "--games",
                                     "2", "-o", "rounds=1", "--database-url", f"sqlite:///{tmp_path / 'a.db'}",
                                     "--report", str(tmp_path / "report")])
    finally:
        os.umask(old)
    assert result.exit_code == 0, result.output
    files = sorted((tmp_path / "report").iterdir())
    assert [f.name for f in files] == ["index.html", "ratings.png"]
    assert {stat.S_IMODE(f.stat().st_mode) for f in files} == {0o644}


def test_arena_report_without_matplotlib_names_the_extra_before_playing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if the report extra were not installed
    result = runner.invoke(app, ["arena", "crazy_eights", "--bot", "heuristic", "--bot", "random", "--games", "2",
                                 "--database-url", f"sqlite:///{tmp_path / 'a.db'}", "--report", str(tmp_path / "r")])
    one_error_line(result, "pip install 'cardtable[report]'")
    assert list(tmp_path.iterdir()) == []  # no database, no report directory


def test_train_example_writes_its_curve_in_the_working_directory_by_default(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[1]
    committed = (root / "docs" / "rl-crazy-eights.png").read_bytes()
    out = subprocess.run(
        [sys.executable, str(root / "examples" / "train_crazy_eights.py"), "--games", "8", "--population", "2",
         "--deals", "4", "--elite", "1", "--eval-games", "2", "--final-games", "2"],
        capture_output=True, text=True, timeout=300, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(root)})
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "crazy-eights-curve.png").stat().st_size > 1000
    assert (root / "docs" / "rl-crazy-eights.png").read_bytes() == committed


def test_train_example_checks_its_output_path_before_training(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, str(root / "examples" / "train_crazy_eights.py"), "--out",
                          str(tmp_path / "no" / "c.png")],
                         capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(root)})
    assert out.returncode == 2 and "no such directory" in out.stderr and "Traceback" not in out.stderr


# bot-connect's reconnections.


def test_full_jitter_spreads_waits_over_the_whole_pause() -> None:
    rng = random.Random(7)
    waits = [full_jitter(8.0, rng) for _ in range(2000)]
    assert all(0.0 <= w <= 8.0 for w in waits)
    assert min(waits) < 1.0 and max(waits) > 7.0  # the whole range, not a fixed doubling
    assert len({round(w, 6) for w in waits}) > 1900


def test_bridge_reconnects_after_jittered_pauses() -> None:
    """Against a closed port, the pauses said are drawn under the doubling cap, not the cap itself."""
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    said: list[str] = []

    async def main() -> None:
        bridge = Bridge(f"http://127.0.0.1:{port}", "token", ["true"], max_pause=0.04, rng=random.Random(3),
                        say=said.append)

        async def stop_after_five() -> None:
            while len(said) < 5:
                await asyncio.sleep(0.01)
            bridge.stop()

        await asyncio.wait_for(asyncio.gather(bridge.run(), stop_after_five()), 60)

    # In a thread of its own: a test run earlier in this worker may have left an event loop set on this one.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, main()).result(timeout=120)
    waits = [float(m.group(1)) for m in (re.search(r"trying again in ([0-9.e-]+)s", s) for s in said) if m]
    assert len(waits) >= 5
    caps = [0.25] + [0.04] * (len(waits) - 1)  # the first pause, then the cap (0.5 > 0.04)
    assert all(0 <= w <= cap for w, cap in zip(waits, caps, strict=True))
    assert len(set(waits)) > 1  # jittered: plain doubling would say the same capped pause every time


# Without the extras.


def run_without(modules: list[str], code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter where importing any of ``modules`` fails as if not installed."""
    blocker = ("import sys\n"
               f"for name in {modules!r}:\n"
               "    sys.modules[name] = None\n")
    return subprocess.run([sys.executable, "-c", blocker + code], capture_output=True, text=True, timeout=120)


def test_the_batch_core_of_every_game_works_without_gymnasium() -> None:
    out = run_without(["gymnasium", "pettingzoo"],
                      "import cardtable.vector as v\n"
                      "for g in ('crazy_eights', 'wizard', 'mus', 'durak', 'kaiser'):\n"
                      "    env = v.make(g, 4, seed=1)\n"
                      "    env.reset()\n"
                      "    env.step(env.sample('random'))\n"
                      "print('ok')\n")
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_without_the_rl_extra_every_environment_fails_the_same_clear_way() -> None:
    out = run_without(["gymnasium", "pettingzoo"],
                      "import cardtable.rl, cardtable.vector\n"
                      "for make in (lambda: cardtable.rl.env('wizard'),\n"
                      "             lambda: cardtable.rl.single_agent_env('durak'),\n"
                      "             lambda: cardtable.vector.gymnasium_env('durak', 2),\n"
                      "             lambda: cardtable.vector.pettingzoo_env('kaiser')):\n"
                      "    try:\n"
                      "        make()\n"
                      "    except cardtable.rl.ExtraMissing as exc:\n"
                      "        print(exc)\n")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 4 and all("pip install 'cardtable[rl]'" in line for line in lines), lines
